// SPDX-License-Identifier: GPL-2.0
/*
 * A point's files as the rounds end: its result pair (<id>.csv and
 * <id>.summary.csv, with the sweep's lines) once its last round ran, its
 * partial file until then (persist).  The sweep's own files in DIR are
 * dir_files.c's.
 */
#define _GNU_SOURCE
#include <string.h>

#include "sweep_int.h"
#include "meta.h"
#include "summary_csv.h"
#include "worker_list.h"

/*
 * After each round and on an interrupt: points that finished get their
 * result files (and lose their partial), unfinished ones that ran since
 * the last call get their partial rewritten.
 */
void vsb_sweep_persist(const struct vsb_sweep *sw, const struct vsb_sweep_run_opts *ro)
{
	size_t i;
	int ret;

	for (i = 0; i < sw->npoints; i++) {
		struct vsb_sweep_point *p = &sw->points[i];
		long total = vsb_sweep_reps_total(p);

		if (p->state != VSB_PT_PENDING || !p->done ||
		    (p->done == p->saved && p->done < total))
			continue;
		if (p->done >= total) {
			/* all it holds: its first round ran one, or run_reps */
			p->res.opts.repeat = total;
			vsb_sweep_progress_clear();
			ret = vsb_sweep_write_point(sw, p, ro);
			if (ret) {
				p->state = VSB_PT_FAILED;
				p->status = ret;
				snprintf(p->err, sizeof(p->err), "writing its result failed");
			} else {
				p->state = VSB_PT_DONE;
				p->untrusted = !p->res.sanity_ok || p->res.migrated;
				vsb_sweep_partial_remove(p);
			}
		} else {
			vsb_sweep_partial_save(p, total);
		}
		p->saved = p->done;
	}
}

/*
 * The point's sweep_* lines: its figures worked out first, then the
 * lines set in one go, each from what was worked out.
 */
static void sweep_lines(const struct vsb_sweep *sw, struct vsb_sweep_point *p,
			const struct vsb_sweep_run_opts *ro)
{
	long total = vsb_sweep_reps_total(p);
	char procs[1024], match[96];

	vsb_sweep_worker_line(p, ro->procs, procs, sizeof(procs));
	/* what --resume checks before it keeps this point (kept.c) */
	vsb_sweep_point_match(p, match, sizeof(match));
	vsb_result_meta(&p->res, "sweep", "%s", sw->path);
	vsb_result_meta(&p->res, "sweep_name", "%s", sw->name);
	vsb_result_meta(&p->res, VSB_SWEEP_POINT_KEY, "%s", p->id);
	vsb_result_meta(&p->res, "sweep_params", "%s", p->params);
	if (p->run_reps > 1)
		vsb_result_meta(&p->res, "sweep_order", "%ld repetitions in interleaved "
				"rounds of up to %ld in a row (own warm-up each), shuffle "
				"seed %llu", total, p->run_reps,
				(unsigned long long)ro->shuffle_seed);
	else
		vsb_result_meta(&p->res, "sweep_order", "%ld interleaved rounds of 1 "
				"repetition (own warm-up each), shuffle seed %llu",
				total, (unsigned long long)ro->shuffle_seed);
	if (procs[0])
		vsb_result_meta(&p->res, VSB_WORKER_LIST_KEY, "%s", procs);
	vsb_result_meta(&p->res, VSB_SWEEP_MATCH_KEY, "%s", match);
	if (p->resumed)
		vsb_result_meta(&p->res, "sweep_resumed",
				"repetitions 0..%ld from an interrupted run (read back from %s%s), "
				"%ld..%ld run by --resume", p->resumed - 1, p->id,
				VSB_SWEEP_PARTIAL_SUFFIX, p->resumed, total - 1);
}

int vsb_sweep_write_point(const struct vsb_sweep *sw, struct vsb_sweep_point *p,
			  const struct vsb_sweep_run_opts *ro)
{
	struct vsb_outfile raw, sum;
	char path[4096], spath[4096];
	int ret;

	vsb_meta_collect(&p->res);
	sweep_lines(sw, p, ro);
	snprintf(path, sizeof(path), "%s.csv", p->stem);
	snprintf(spath, sizeof(spath), "%s.summary.csv", p->stem);
	ret = vsb_outfile_open(&raw, path, "-o");
	if (ret)
		return ret;
	ret = vsb_outfile_open(&sum, spath, "-o");
	if (ret) {
		vsb_outfile_abort(&raw);
		return ret;
	}
	ret = vsb_result_write_csv(&p->res, raw.f);
	ret = ret ?: vsb_result_write_summary_csv(&p->res, sum.f);
	if (ret) {
		vsb_outfile_abort(&raw);
		vsb_outfile_abort(&sum);
		return ret;
	}
	/* the summary last: --resume trusts a point whose summary exists */
	ret = vsb_outfile_commit(&raw);
	if (ret) {
		vsb_outfile_abort(&sum);
		return ret;
	}
	return vsb_outfile_commit(&sum);
}
