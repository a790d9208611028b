// SPDX-License-Identifier: GPL-2.0
/*
 * What a sweep writes besides each point's result pair: sweep.csv (one
 * summary row per point), points.txt, meta.txt and failed.txt, and the
 * partial files of the points not yet finished (persist).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "csvread.h"
#include "sweep_int.h"
#include "meta.h"
#include "point_list.h"
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
 * A key of one point's own, which the sweep-wide files must not repeat
 * as if it held for every point: its monitor figures (monitor_pgalloc
 * of the first point read as the sweep's).
 */
static int point_own_key(const char *key)
{
	return !strncmp(key, "monitor", 7);
}

/* sweep.csv's header: the first summary's metadata (not the point's own) */
static void sweep_csv_header(const struct vsb_sweep *sw, const struct vsb_csv *c,
			     FILE *f)
{
	size_t k;

	for (k = 0; k < c->nmeta; k++)
		if (strncmp(c->meta[k].key, "sweep_", 6) &&
		    strcmp(c->meta[k].key, "sanity") &&
		    strcmp(c->meta[k].key, "migrated") && !point_own_key(c->meta[k].key))
			fprintf(f, "# %s: %s\n", c->meta[k].key, c->meta[k].val);
	fprintf(f, "# sweep_name: %s\n", sw->name);
	fputs("point", f);
	for (k = 0; k < c->ncols; k++)
		fprintf(f, ",%s", c->cols[k]);
	fputc('\n', f);
}

/*
 * sweep.csv: one row per finished point, read back from its summary
 * file (so points kept by --resume count too): the "all" row, or the
 * only row of a one-worker point, with the point id in front.  Only a
 * summary that reads back as this point's (kept.c) is copied.
 */
int vsb_sweep_write_sweep_csv(const struct vsb_sweep *sw, FILE *f)
{
	char why[600];
	size_t i, r, k;
	int header = 0, th;

	for (i = 0; i < sw->npoints; i++) {
		const struct vsb_sweep_point *p = &sw->points[i];
		struct vsb_csv c;

		if (p->state != VSB_PT_DONE)
			continue;
		if (vsb_sweep_summary_read(p, &c, why, sizeof(why))) {
			vsb_err("sweep.csv: point %s: its summary is gone or changed "
				"since: %s", p->id, why);
			return VSB_EXIT_ERROR;
		}
		if (!header++)
			sweep_csv_header(sw, &c, f);
		th = vsb_csv_col(&c, "thread");
		for (r = 0; r < c.nrows; r++) {
			if (c.nrows > 1 && strcmp(vsb_csv_cell(&c, r, th), "all"))
				continue;
			fputs(p->id, f);
			for (k = 0; k < c.ncols; k++)
				fprintf(f, ",%s", c.rows[r][k]);
			fputc('\n', f);
		}
		vsb_csv_free(&c);
	}
	return ferror(f) ? VSB_EXIT_ERROR : 0;
}

int vsb_sweep_write_text_file(const char *dir, const char *name,
			      const struct vsb_sweep *sw,
			      const struct vsb_sweep_run_opts *ro, double secs)
{
	struct vsb_outfile o;
	char path[4096];
	size_t i;
	int ret;

	ret = vsb_sweep_path_join(path, sizeof(path), dir, name, "");
	ret = ret ?: vsb_outfile_open(&o, path, "-o");
	if (ret)
		return ret;
	if (!strcmp(name, "points.txt")) {
		vsb_point_list_write(o.f, sw);
	} else if (!strcmp(name, "failed.txt")) {
		fprintf(o.f, "# points that did not finish: id, state, exit status, why\n");
		for (i = 0; i < sw->npoints; i++) {
			const struct vsb_sweep_point *p = &sw->points[i];

			if (p->state == VSB_PT_FAILED || p->state == VSB_PT_SKIPPED)
				fprintf(o.f, "%s\t%s\t%d\t%s\n", p->id,
					vsb_sweep_state_name(p), p->status, p->err);
		}
	} else if (!strcmp(name, "meta.txt")) {
		const struct vsb_sweep_point *first = NULL;

		for (i = 0; i < sw->npoints && !first; i++)
			if (sw->points[i].state == VSB_PT_DONE && sw->points[i].res.nmeta)
				first = &sw->points[i];
		fprintf(o.f, "sweep: %s\nname: %s\npoints: %zu\n", sw->path, sw->name,
			sw->npoints);
		fprintf(o.f, "dropped_points: %zu (more CPUs than online)\n", sw->ndropped);
		fprintf(o.f, "repeat_override: %ld\nshuffle_seed: %llu\nresume: %s\n",
			ro->repeat, (unsigned long long)ro->shuffle_seed,
			ro->resume ? "yes" : "no");
		fprintf(o.f, "seconds: %.1f\n", secs);
		if (ro->procs > 1)
			fprintf(o.f, "procs: %ld (worker processes, one after the other, "
				"each running its share of every point's repetitions)\n",
				ro->procs);
		for (i = 0; first && i < first->res.nmeta; i++)
			if (strncmp(first->res.meta[i].key, "sweep", 5) &&
			    !point_own_key(first->res.meta[i].key))
				fprintf(o.f, "%s: %s\n", first->res.meta[i].key,
					first->res.meta[i].val);
	} else {
		ret = vsb_sweep_write_sweep_csv(sw, o.f);
	}
	if (ret) {
		vsb_outfile_abort(&o);
		return ret;
	}
	return vsb_outfile_commit(&o);
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
	vsb_result_meta(&p->res, "sweep_point", "%s", p->id);
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
	vsb_result_meta(&p->res, "sweep_match", "%s", match);
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
