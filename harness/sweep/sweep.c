// SPDX-License-Identifier: GPL-2.0
/*
 * Sweeps: check every point of a sweep file (parsed by lib/sweepfile.c)
 * before anything runs, then run them with their repetitions interleaved
 * and write one result pair per point plus sweep.csv, points.txt,
 * meta.txt and failed.txt (write.c); partial points are partial.c's.
 *
 * Repetitions run as rounds: every point gets one repetition (a
 * `--repeat 1` run, with its warm-up) per round, in a fresh seeded
 * shuffle each round, so slow drift of the machine (thermal, frequency,
 * a neighbour VM) spreads over all points instead of biasing the ones
 * that happened to run last.  A point is written when its last round
 * ends; until then each round leaves its repetitions so far in
 * <id>.csv.partial, which --resume continues from (see partial_text()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "benches.h"
#include "bpf/trace.h"
#include "csvread.h"
#include "monitor.h"
#include "sweep_int.h"
#include "sysctl.h"
#include "stats.h"

#define SWEEP_MAX_BYTES (1u << 20)

/* ---- parsing: the file's syntax is lib/'s, the points' checks the benches' ---- */

int vsb_sweep_parse_buf(struct vsb_sweep *sw, const char *path, const char *buf,
			size_t len)
{
	return vsb_sweepfile_parse_buf(sw, path, buf, len, vsb_run_opts_finish);
}

int vsb_sweep_parse_file(struct vsb_sweep *sw, const char *path)
{
	return vsb_sweepfile_parse(sw, path, vsb_run_opts_finish);
}

/* ---- running ---- */

static char last_warning[512], last_failure[512];

/* One repetition of @p, merged into p->res with a rep number of its own. */
/*
 * --monitor: a point's series covers its first round (DIR/<id>.monitor.csv,
 * its summary figures in the point's metadata): one series per point,
 * taken the same way for every point, none of them longer than the rest.
 */
static int monitor_start(struct vsb_monitor **mon, const struct vsb_sweep_point *p,
			 const struct vsb_sweep_run_opts *ro)
{
	char path[4096];

	*mon = NULL;
	if (!ro->monitor[0] || p->done)
		return 0;
	if (vsb_sweep_path_join(path, sizeof(path), ro->dir, p->id, ".monitor.csv"))
		return VSB_EXIT_USAGE;
	return vsb_monitor_start(mon, ro->monitor, &p->opts.cpus, path);
}

static int monitor_stop(struct vsb_monitor *mon, struct vsb_result *r, int ok,
			long rounds)
{
	int ret;

	if (!mon)
		return 0;
	ret = vsb_monitor_stop(mon, ok ? r : NULL);
	if (ok && !ret)
		vsb_result_meta(r, "monitor_rounds", "the first of %ld", rounds);
	return ret;
}

static int run_chunk(struct vsb_sweep_point *p, const struct vsb_sweep_run_opts *ro)
{
	static struct vsb_run_opts o;
	static struct vsb_result tmp;
	struct vsb_monitor *mon;
	struct vsb_errlog log;
	const char *msg = log.text;
	int ret, mret;

	o = p->opts;
	o.repeat = 1;
	vsb_errlog_begin(&log);
	ret = monitor_start(&mon, p, ro);
	ret = ret ?: vsb_bench_run(&o, &tmp);
	mret = monitor_stop(mon, &tmp, !ret && !vsb_interrupted, p->reps);
	if (mret)
		ret = mret;
	vsb_errlog_end(&log);
	if (vsb_interrupted) {
		vsb_result_free(&tmp);
		return VSB_EXIT_ERROR;
	}
	if (ret) {
		p->status = ret;
		p->state = ret == VSB_EXIT_SKIP ? VSB_PT_SKIPPED : VSB_PT_FAILED;
		snprintf(p->err, sizeof(p->err), "%.500s", msg[0] ? msg :
			 "the bench failed without saying why");
		vsb_result_free(&tmp);
		return ret;
	}
	if (msg[0] && !p->done && strcmp(msg, last_warning)) {
		/* once per point, and not again when every point says the same */
		snprintf(last_warning, sizeof(last_warning), "%.500s", msg);
		vsb_sweep_progress_clear();
		vsb_warn("%s: %s", p->id, !strncmp(msg, "warning: ", 9) ? msg + 9 : msg);
	}
	if (!p->done) {
		p->res = tmp;		/* takes over the sample and meta arrays */
		memset(&tmp, 0, sizeof(tmp));
		p->res.opts.repeat = p->reps;
	} else {
		vsb_result_merge_round(&p->res, &tmp, (unsigned int)p->done);
		if (tmp.dist.on)	/* each round warned for itself */
			vsb_disturb_report(&p->res, 0);
		vsb_trace_merge(&p->res, &tmp);
		vsb_result_free(&tmp);
	}
	p->done++;
	return 0;
}

/*
 * --resume: a point's summary keeps it when it reads back as this point's,
 * made with the options and repetitions this run asks for (kept.c); one
 * that does not is said, and the point runs again (its files are
 * replaced when it finishes).
 */
static int keep_point(struct vsb_sweep_point *p, const struct vsb_sweep_run_opts *ro)
{
	char why[600], path[4096];
	struct vsb_csv c;

	switch (vsb_sweep_summary_read(p, ro, &c, why, sizeof(why))) {
	case 0:
		vsb_csv_free(&c);
		return 1;
	case -1:
		vsb_sweep_path_join(path, sizeof(path), ro->dir, p->id, ".summary.csv");
		vsb_sweep_warn_redo(p, "its finished result is not kept", path, why,
				    p->state == VSB_PT_PENDING ? "it runs again" :
				    "it is skipped this time");
		break;
	}
	return 0;
}

/* --resume: a point's summary keeps it; its partial continues it. */
static int prepare_point(struct vsb_sweep_point *p,
			 const struct vsb_sweep_run_opts *ro, size_t *nkept,
			 size_t *ncont)
{
	char path[4096], why[600];

	if (ro->resume && keep_point(p, ro)) {
		p->state = VSB_PT_DONE;
		(*nkept)++;
		return 0;
	}
	if (p->state != VSB_PT_PENDING)
		return 0;
	if (vsb_sweep_path_join(path, sizeof(path), ro->dir, p->id, VSB_SWEEP_PARTIAL_SUFFIX))
		return VSB_EXIT_USAGE;
	if (!ro->resume) {
		/* an earlier sweep's (--force): not this run's repetitions */
		unlink(path);
		return 0;
	}
	switch (vsb_sweep_partial_load(p, path, why, sizeof(why))) {
	case 0:
		(*ncont)++;
		break;
	case -1:
		vsb_sweep_warn_redo(p, "not continued from its partial file", path,
				    why, "it starts over");
		unlink(path);
		break;
	}
	return 0;
}

int vsb_sweep_run(struct vsb_sweep *sw, const struct vsb_sweep_run_opts *ro)
{
	size_t i, total = 0, ndone = 0, nfail = 0, nskip = 0, nuntr = 0, nkept = 0;
	size_t ncont = 0, nnew = 0, npart = 0, chunks = 0, *perm;
	long round, rounds = 0;
	struct vsb_rng g;
	uint64_t start = vsb_now_ns();
	int ret;

	/* -o itself first, then what goes in it; before a folder is made */
	ret = vsb_dir_refusal(ro->dir, "-o");
	ret = ret ?: vsb_sweep_check_targets(sw, ro);
	ret = ret ?: vsb_sweep_mkdir_p(ro->dir);
	/* one writer at a time: a second sweep here would mix its points in */
	ret = ret ?: vsb_dir_lock(ro->dir, "-o");
	if (ret)
		return ret;
	if (access(ro->dir, W_OK)) {
		vsb_err("-o: %s is not writable: %s", ro->dir, strerror(errno));
		return VSB_EXIT_USAGE;
	}
	for (i = 0; i < sw->npoints; i++) {
		struct vsb_sweep_point *p = &sw->points[i];

		if (ro->repeat > 0)
			p->reps = ro->repeat;
		ret = prepare_point(p, ro, &nkept, &ncont);
		if (ret)
			return ret;
		if (p->state != VSB_PT_PENDING)
			continue;
		total += (size_t)(p->reps - p->done);
		if (p->reps > rounds)
			rounds = p->reps;
	}

	/*
	 * Round r runs repetition r of every point that lacks it: a point
	 * continued from its partial sits out the rounds it has, and the
	 * shuffles are the uninterrupted run's.
	 */
	perm = vsb_zalloc(sw->npoints * sizeof(*perm));
	vsb_rng_seed(&g, ro->shuffle_seed);
	vsb_install_signal_handlers();
	for (round = 0; round < rounds && !vsb_interrupted; round++) {
		for (i = 0; i < sw->npoints; i++)
			perm[i] = i;
		for (i = sw->npoints; ro->shuffle_seed && i > 1; i--) {
			size_t j = vsb_rng_below(&g, i), t = perm[i - 1];

			perm[i - 1] = perm[j];
			perm[j] = t;
		}
		for (i = 0; i < sw->npoints && !vsb_interrupted; i++) {
			struct vsb_sweep_point *p = &sw->points[perm[i]];

			if (p->state != VSB_PT_PENDING || round < p->done ||
			    round >= p->reps)
				continue;
			if (ro->progress)
				vsb_sweep_progress(chunks, total, round, rounds, p->id, start);
			ret = run_chunk(p, ro);
			chunks++;
			if (ret && !vsb_interrupted) {
				vsb_sweep_progress_clear();
				/* sixteen module points, one "no module" line */
				if (strcmp(p->err, last_failure))
					vsb_err("%s: %s: %s", p->id, vsb_sweep_state_name(p),
						p->err);
				snprintf(last_failure, sizeof(last_failure), "%s", p->err);
				total -= (size_t)(p->reps - p->done - 1);
				vsb_sweep_partial_remove(ro, p);
			}
		}
		/* also after an interrupt: the repetitions that did finish */
		vsb_sweep_persist(sw, ro);
	}
	vsb_sweep_persist(sw, ro);	/* points continued with every repetition */
	vsb_sweep_progress_clear();
	free(perm);
	for (i = 0; i < sw->npoints; i++) {
		const struct vsb_sweep_point *p = &sw->points[i];

		nnew += p->state == VSB_PT_DONE && p->done;
		npart += p->state == VSB_PT_PENDING && p->done && !p->opts.trace;
	}
	if (vsb_interrupted && !nnew && !npart) {
		vsb_err("interrupted in round %ld of %ld: no point finished or kept a "
			"partial, nothing written%s", round, rounds,
			nkept || ncont ? " (earlier points kept)" : "");
		return VSB_EXIT_ERROR;
	}
	if (vsb_interrupted) {
		/* points.txt says which are done: compare reads only those */
		vsb_sweep_write_text_file(ro->dir, "points.txt", sw, ro, 0);
		vsb_err("interrupted in round %ld of %ld: %zu point(s) finished and "
			"written, %zu partial (their repetitions so far in <id>%s); "
			"--resume continues", round, rounds, nnew, npart,
			VSB_SWEEP_PARTIAL_SUFFIX);
		return VSB_EXIT_ERROR;
	}

	for (i = 0; i < sw->npoints; i++) {
		const struct vsb_sweep_point *p = &sw->points[i];

		ndone += p->state == VSB_PT_DONE;
		nfail += p->state == VSB_PT_FAILED;
		nskip += p->state == VSB_PT_SKIPPED;
		nuntr += p->untrusted;
	}
	ret = vsb_sweep_write_text_file(ro->dir, "points.txt", sw, ro, 0);
	ret = ret ?: vsb_sweep_write_text_file(ro->dir, "failed.txt", sw, ro, 0);
	ret = ret ?: vsb_sweep_write_text_file(ro->dir, "sweep.csv", sw, ro, 0);
	ret = ret ?: vsb_sweep_write_text_file(ro->dir, "meta.txt", sw, ro,
				     (double)(vsb_now_ns() - start) / 1e9);
	if (ret)
		return ret;

	printf("sweep %s: %zu points: %zu done (%zu kept from before), %zu failed, "
	       "%zu skipped; %zu left out (more CPUs than online); %.1f s; results in %s\n",
	       sw->name, sw->npoints, ndone, nkept, nfail, nskip, sw->ndropped,
	       (double)(vsb_now_ns() - start) / 1e9, ro->dir);
	if (ncont)
		printf("%zu point(s) continued from the repetitions an interrupted run "
		       "kept (<id>%s)\n", ncont, VSB_SWEEP_PARTIAL_SUFFIX);
	if (nfail || nskip)
		printf("see %s/failed.txt for what did not run and why\n", ro->dir);
	fflush(stdout);
	if (nfail)
		return VSB_EXIT_ERROR;
	if (nuntr) {
		vsb_err("%zu point(s) failed a sanity check or migrated: see their "
			"'# sanity:' lines", nuntr);
		return VSB_EXIT_UNTRUSTED;
	}
	if (!ndone && nskip)
		return VSB_EXIT_SKIP;
	return VSB_EXIT_OK;
}
