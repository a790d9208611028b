// SPDX-License-Identifier: GPL-2.0
/*
 * Sweeps: check every point of a sweep file (parsed by lib/model/sweepfile.c)
 * before anything runs, then run them with their repetitions interleaved
 * and write one result pair per point (write.c) plus sweep.csv,
 * points.txt, meta.txt and failed.txt (dir_files.c); partial points are
 * partial.c's.
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
#include "clock.h"
#include "csvread.h"
#include "monitor.h"
#include "sweep.h"
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
	snprintf(path, sizeof(path), "%s.monitor.csv", p->stem);
	return vsb_monitor_start(mon, ro->monitor, &p->opts.cpus, path);
}

static int monitor_stop(struct vsb_monitor *mon, struct vsb_result *r, int ok)
{
	return mon ? vsb_monitor_stop(mon, ok ? r : NULL) : 0;
}

/*
 * The point's result, born of its first round: the TSC rate of this
 * process, which timed its repetitions (a later worker process finds it
 * in the point's partial and calibrates nothing), and with --monitor
 * which rounds the series covers: one round per wanted repetition,
 * however many times a round runs it.
 */
static void first_round(struct vsb_sweep_point *p, const struct vsb_sweep_run_opts *ro)
{
	char who[96];

	if (ro->worker)
		snprintf(who, sizeof(who), "sweep worker process %ld of %ld, which timed "
			 "the first repetitions", ro->worker, ro->procs);
	else
		snprintf(who, sizeof(who), "the sweep's process, which timed the samples");
	vsb_bench_note_tsc(&p->res, who);
	if (ro->monitor[0])
		vsb_result_meta(&p->res, "monitor_rounds", "the first of %ld", p->reps);
}

/* @n repetitions of @p in a row, one warm-up: one round of the point. */
static int run_chunk(struct vsb_sweep_point *p, const struct vsb_sweep_run_opts *ro,
		     long n)
{
	static struct vsb_run_opts o;
	static struct vsb_result tmp;
	struct vsb_monitor *mon;
	struct vsb_errlog log;
	const char *msg = log.text;
	int ret, mret;

	o = p->opts;
	o.repeat = n;
	vsb_errlog_begin(&log);
	ret = monitor_start(&mon, p, ro);
	ret = ret ?: vsb_bench_run(&o, &tmp);
	mret = monitor_stop(mon, &tmp, !ret && !vsb_interrupted);
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
	vsb_bench_take_round(&p->res, &tmp, (unsigned int)p->done);
	if (!p->done)	/* the point's first round is its result now */
		first_round(p, ro);
	p->done += n;
	return 0;
}

/*
 * One line: @p's file at @path is not used (@why), and the point runs
 * anew (@then).  csvread's reasons name the file already.
 */
static void warn_redo(const struct vsb_sweep_point *p, const char *what,
		      const char *path, const char *why, const char *then)
{
	int named = !strncmp(why, path, strlen(path));

	vsb_sweep_progress_clear();
	vsb_warn("%s: %s (%s%s%s): %s", p->id, what, named ? "" : path,
		 named ? "" : ": ", why, then);
}

/*
 * --resume: a point's summary keeps it when it reads back as this point's,
 * made with the options and repetitions this run asks for (kept.c); one
 * that does not is said, and the point runs again (its files are
 * replaced when it finishes).
 */
static int keep_point(struct vsb_sweep_point *p)
{
	char why[600], path[4096];
	struct vsb_csv c;

	switch (vsb_sweep_summary_read(p, &c, why, sizeof(why))) {
	case 0:
		vsb_csv_free(&c);
		return 1;
	case -1:
		snprintf(path, sizeof(path), "%s.summary.csv", p->stem);
		warn_redo(p, "its finished result is not kept", path, why,
			  p->state == VSB_PT_PENDING ? "it runs again" :
			  "it is skipped this time");
		break;
	}
	return 0;
}

/*
 * What this process runs of @p: up to its share's end, all of it when
 * it is no worker process (worker 0 runs alone: procs 1).
 */
static long chunk_end(const struct vsb_sweep_point *p,
		      const struct vsb_sweep_run_opts *ro)
{
	return vsb_sweep_chunk_end(p, ro->procs, ro->worker);
}

/*
 * Worker process K > 1 continues what K - 1 handed on (procs.c): the
 * points' states in DIR/procs.txt, the repetitions so far in their
 * partial files.
 */
static int handoff(const struct vsb_sweep_run_opts *ro)
{
	return ro->worker > 1;
}

static void handoff_fail(struct vsb_sweep_point *p, const struct vsb_sweep_run_opts *ro,
			 const char *why)
{
	p->state = VSB_PT_FAILED;
	p->status = VSB_EXIT_ERROR;
	snprintf(p->err, sizeof(p->err), "worker process %ld could not continue it: "
		 "%.400s", ro->worker, why);
}

/* A point worker K - 1 handed on: done (its files checked), or pending. */
static int handoff_point(struct vsb_sweep_point *p, const struct vsb_sweep_run_opts *ro,
			 size_t *nkept, size_t *ncont)
{
	char path[4096], why[600];
	long resumed = p->resumed;

	if (p->state == VSB_PT_DONE) {
		if (keep_point(p))
			*nkept += p->kept;
		else
			handoff_fail(p, ro, "its finished result is gone or changed");
		return 0;
	}
	if (p->state != VSB_PT_PENDING)
		return 0;
	snprintf(path, sizeof(path), "%s%s", p->stem, VSB_SWEEP_PARTIAL_SUFFIX);
	switch (vsb_sweep_partial_load(p, path, why, sizeof(why))) {
	case 0:
		p->resumed = resumed;	/* what --resume continued, not the hand-on */
		*ncont += resumed > 0;
		break;
	case -1:
		handoff_fail(p, ro, why);
		break;
	case 1:	/* none: right only when no worker before had any of it */
		if (vsb_sweep_chunk_end(p, ro->procs, ro->worker - 1) > 0)
			handoff_fail(p, ro, "its partial file is gone");
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

	if (ro->resume && keep_point(p)) {
		p->state = VSB_PT_DONE;
		(*nkept)++;
		return 0;
	}
	if (p->state != VSB_PT_PENDING)
		return 0;
	snprintf(path, sizeof(path), "%s%s", p->stem, VSB_SWEEP_PARTIAL_SUFFIX);
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
		warn_redo(p, "not continued from its partial file", path, why,
			  "it starts over");
		unlink(path);
		break;
	}
	return 0;
}

/* What the runner counts on its way, for the summary line. */
struct run_counts {
	size_t total, nkept, ncont, chunks;
	long rounds;
};

/* @p's repetitions of this process's share from @from on, into @n */
static void count_share(const struct vsb_sweep_point *p,
			const struct vsb_sweep_run_opts *ro, long from,
			struct run_counts *n)
{
	long end = chunk_end(p, ro);

	if (end <= from)
		return;
	n->total += (size_t)(end - from);
	if (end > n->rounds)
		n->rounds = end;
}

/*
 * Each point's stem, DIR/<id>: the runner's files name a point's file
 * with one snprintf of stem and suffix, which cannot be cut short, since
 * vsb_sweep_check_targets refused a sweep with any such name too long.
 */
static int name_points(struct vsb_sweep *sw, const struct vsb_sweep_run_opts *ro)
{
	size_t i;

	for (i = 0; i < sw->npoints; i++)
		if ((size_t)snprintf(sw->points[i].stem, sizeof(sw->points[i].stem),
				     "%s/%s", ro->dir, sw->points[i].id) >=
		    sizeof(sw->points[i].stem)) {
			vsb_err("%s: path too long", ro->dir);
			return VSB_EXIT_USAGE;
		}
	return 0;
}

/*
 * Every point named and made ready: kept or continued (--resume), or as
 * worker K - 1 handed it on; a point's kept marks what --resume kept,
 * for the hand-on.
 * The repetitions this process runs are counted into @n.
 */
static int prepare_all(struct vsb_sweep *sw, const struct vsb_sweep_run_opts *ro,
		       struct run_counts *n)
{
	size_t i;
	int ret;

	if (ro->repeat > 0)
		for (i = 0; i < sw->npoints; i++)
			sw->points[i].reps = ro->repeat;
	ret = name_points(sw, ro);
	if (!ret && handoff(ro))
		ret = vsb_sweep_handoff_read(sw, ro);
	for (i = 0; i < sw->npoints && !ret; i++) {
		struct vsb_sweep_point *p = &sw->points[i];

		if (handoff(ro))
			ret = handoff_point(p, ro, &n->nkept, &n->ncont);
		else if (!(ret = prepare_point(p, ro, &n->nkept, &n->ncont)))
			p->kept = p->state == VSB_PT_DONE;
		if (!ret && p->state == VSB_PT_PENDING)
			count_share(p, ro, p->done, n);
	}
	return ret;
}

/*
 * How many repetitions of @p a round runs, @left of this process's share
 * to go: a short point's run_reps in a row (one warm-up, so a run of
 * them costs its repetitions' time, not five starts), else one.
 */
static long round_reps(const struct vsb_sweep_point *p, long left)
{
	long f = p->run_reps > 1 ? p->run_reps : 1;

	return f < left ? f : left;
}

/* The longest sample of @r's first repetition, in ns; 0: none timed. */
static double first_rep_ns(const struct vsb_result *r)
{
	double most = 0;
	size_t i;

	for (i = 0; i < r->nsamples; i++)
		if (r->samples[i].rep == 0 && r->samples[i].ns > most)
			most = r->samples[i].ns;
	return most;
}

/*
 * Worker 1, after @p's first repetition: how many times each wanted one
 * runs (VSB_SWEEP_RUN_MIN_MS, sweep_opts.h): as many as fit in the time a run
 * should span, at least 1, the extra rounds counted into @n.  Decided
 * once, in the first worker, so that every worker's share is the same
 * count of the same runs; the rest read it from the partial.  Called
 * after every round of every point, so it returns before it looks at
 * the samples wherever the choice is made already or not its to make.
 */
static void choose_run_reps(struct vsb_sweep_point *p,
			    const struct vsb_sweep_run_opts *ro, struct run_counts *n)
{
	long before, f = 1;
	double ns;

	if (p->run_reps || ro->worker != 1 || ro->procs < 2 || p->opts.trace ||
	    p->done != 1)
		return;
	before = chunk_end(p, ro);
	ns = first_rep_ns(&p->res);
	if (ro->run_min_ms > 0 && ns > 0)
		f = (long)floor(ro->run_min_ms * 1e6 / ns);
	p->run_reps = f < 1 ? 1 : f > VSB_SWEEP_RUN_REPS_MAX ? VSB_SWEEP_RUN_REPS_MAX : f;
	count_share(p, ro, before, n);
	if (p->run_reps > 1)
		vsb_result_meta(&p->res, "sweep_run_reps", "%ld (each of the %ld "
				"repetitions wanted ran %ld times: the first lasted %.2f "
				"ms, a run should span %ld ms)", p->run_reps, p->reps,
				p->run_reps, ns / 1e6, ro->run_min_ms);
}

/*
 * @p's turn in @round: its next repetitions, when its share of this
 * process reaches them and it has not had them (a point continued from
 * its partial sits out the rounds it has).  A failure is said once for
 * points that fail alike, and its repetitions leave the count.
 */
static void point_turn(struct vsb_sweep_point *p, const struct vsb_sweep_run_opts *ro,
		       struct run_counts *n, long round, uint64_t start)
{
	long end = chunk_end(p, ro), nrep;

	if (p->state != VSB_PT_PENDING || round < p->done || round >= end)
		return;
	if (ro->progress)
		vsb_sweep_progress(n->chunks, n->total, round, n->rounds, p->id, start);
	nrep = round_reps(p, end - p->done);
	n->chunks += (size_t)nrep;
	if (!run_chunk(p, ro, nrep)) {
		choose_run_reps(p, ro, n);
		return;
	}
	if (vsb_interrupted)
		return;
	vsb_sweep_progress_clear();
	/* sixteen module points, one "no module" line */
	if (strcmp(p->err, last_failure))
		vsb_err("%s: %s: %s", p->id, vsb_sweep_state_name(p), p->err);
	snprintf(last_failure, sizeof(last_failure), "%s", p->err);
	n->total -= (size_t)(end - p->done - nrep);
	vsb_sweep_partial_remove(p);
}

/*
 * The rounds: round r runs repetition r of every point that lacks it,
 * in a fresh shuffle each round, the shuffles those of the
 * uninterrupted run.  Returns the round it stopped in.
 */
static long run_rounds(struct vsb_sweep *sw, const struct vsb_sweep_run_opts *ro,
		       struct run_counts *n, uint64_t start)
{
	size_t *perm = vsb_zalloc(sw->npoints * sizeof(*perm)), i;
	struct vsb_rng g;
	long round;

	/* worker K's shuffles are its own; worker 1's those of one process */
	vsb_rng_seed(&g, ro->shuffle_seed && ro->worker > 1 ?
		     ro->shuffle_seed + (uint64_t)(ro->worker - 1) : ro->shuffle_seed);
	vsb_install_signal_handlers();
	for (round = 0; round < n->rounds && !vsb_interrupted; round++) {
		for (i = 0; i < sw->npoints; i++)
			perm[i] = i;
		for (i = sw->npoints; ro->shuffle_seed && i > 1; i--) {
			size_t j = vsb_rng_below(&g, i), t = perm[i - 1];

			perm[i - 1] = perm[j];
			perm[j] = t;
		}
		for (i = 0; i < sw->npoints && !vsb_interrupted; i++)
			point_turn(&sw->points[perm[i]], ro, n, round, start);
		/* also after an interrupt: the repetitions that did finish */
		vsb_sweep_persist(sw, ro);
	}
	vsb_sweep_persist(sw, ro);	/* points continued with every repetition */
	vsb_sweep_progress_clear();
	free(perm);
	return round;
}

/* An interrupt: what finished is written, points.txt says what did. */
static int interrupted(const struct vsb_sweep *sw, const struct vsb_sweep_run_opts *ro,
		       const struct run_counts *n, long round)
{
	size_t i, nnew = 0, npart = 0;
	char when[96];

	for (i = 0; i < sw->npoints; i++) {
		const struct vsb_sweep_point *p = &sw->points[i];

		nnew += p->state == VSB_PT_DONE && p->done;
		npart += p->state == VSB_PT_PENDING && p->done && !p->opts.trace;
	}
	/* a worker the interrupt met on arrival (cmd_sweep_procs.c) ran nothing */
	if (ro->worker > 1 && !n->chunks)
		snprintf(when, sizeof(when), "before worker process %ld of %ld began",
			 ro->worker, ro->procs);
	else
		snprintf(when, sizeof(when), "in round %ld of %ld", round, n->rounds);
	/* --resume starts the workers anew, from the partials and points.txt */
	if (ro->worker)
		vsb_sweep_handoff_remove(ro);
	if (!nnew && !npart) {
		vsb_err("interrupted %s: no point finished or kept a partial, nothing "
			"written%s", when, n->nkept || n->ncont ? " (earlier points kept)" : "");
		return VSB_EXIT_ERROR;
	}
	/* points.txt says which are done: compare reads only those */
	vsb_sweep_write_text_file(ro->dir, "points.txt", sw, ro, 0);
	vsb_err("interrupted %s: %zu point(s) finished and written, %zu partial "
		"(their repetitions so far in <id>%s); --resume continues", when,
		nnew, npart, VSB_SWEEP_PARTIAL_SUFFIX);
	return VSB_EXIT_ERROR;
}

/* The sweep's own files, the summary line, the exit status. */
static int finish(const struct vsb_sweep *sw, const struct vsb_sweep_run_opts *ro,
		  const struct run_counts *n, uint64_t start)
{
	size_t i, ndone = 0, nfail = 0, nskip = 0, nuntr = 0, nshort = 0;
	int ret;

	for (i = 0; i < sw->npoints; i++) {
		const struct vsb_sweep_point *p = &sw->points[i];

		nshort += p->state == VSB_PT_DONE && p->run_reps > 1;
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
	if (ro->worker)
		vsb_sweep_handoff_remove(ro);

	printf("sweep %s: %zu points: %zu done (%zu kept from before), %zu failed, "
	       "%zu skipped; %zu left out (more CPUs than online); %.1f s; results in %s\n",
	       sw->name, sw->npoints, ndone, n->nkept, nfail, nskip, sw->ndropped,
	       (double)(vsb_now_ns() - start) / 1e9, ro->dir);
	if (ro->procs > 1)
		printf("repetitions spread over %ld worker processes, one after the "
		       "other: each is a run for `compare`\n", ro->procs);
	if (nshort)
		printf("%zu point(s) with repetitions this short ran each as many "
		       "times as fit in %ld ms, at most %d, so that a run holds "
		       "several (--run-min-ms; their '# sweep_run_reps:' lines)\n",
		       nshort, ro->run_min_ms, VSB_SWEEP_RUN_REPS_MAX);
	if (n->ncont)
		printf("%zu point(s) continued from the repetitions an interrupted run "
		       "kept (<id>%s)\n", n->ncont, VSB_SWEEP_PARTIAL_SUFFIX);
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

int vsb_sweep_open_dir(const struct vsb_sweep *sw, const struct vsb_sweep_run_opts *ro)
{
	int ret;

	/* -o itself first, then what goes in it; before a folder is made */
	ret = vsb_dir_refusal(ro->dir, "-o");
	ret = ret ?: vsb_sweep_check_targets(sw, ro);
	ret = ret ?: vsb_sweep_mkdir_p(ro->dir);
	/*
	 * One writer at a time: a second sweep here would mix its points in.
	 * A worker process holds its sweep's lock already (dirlock.c).
	 */
	ret = ret ?: vsb_dir_lock(ro->dir, "-o");
	if (ret)
		return ret;
	if (access(ro->dir, W_OK)) {
		vsb_err("-o: %s is not writable: %s", ro->dir, strerror(errno));
		return VSB_EXIT_USAGE;
	}
	return 0;
}

int vsb_sweep_run(struct vsb_sweep *sw, const struct vsb_sweep_run_opts *ro)
{
	struct run_counts n = { 0 };
	uint64_t start = ro->start_ns ? ro->start_ns : vsb_now_ns();
	long round;
	int ret;

	ret = vsb_sweep_open_dir(sw, ro);
	if (ret)
		return ret;
	vsb_sweep_partial_procs(ro->procs, ro->run_min_ms);
	ret = prepare_all(sw, ro, &n);
	if (ret)
		return ret;
	round = run_rounds(sw, ro, &n, start);
	if (vsb_interrupted)
		return interrupted(sw, ro, &n, round);
	if (ro->worker && ro->worker < ro->procs)
		/* a worker before the last hands on; the partials are written */
		return vsb_sweep_handoff_write(sw, ro);
	return finish(sw, ro, &n, start);
}

/* `sweep --dry-run`: the points, one a line, and how they would run. */
void vsb_sweep_print_plan(const struct vsb_sweep *sw, long runs, long procs)
{
	size_t i;

	for (i = 0; i < sw->npoints; i++) {
		const struct vsb_sweep_point *p = &sw->points[i];

		printf("%s\t%s", p->id, p->params);
		if (p->state == VSB_PT_SKIPPED)
			printf("\tSKIP: %s", p->err);
		putchar('\n');
	}
	printf("# %zu points, %zu left out (more CPUs than online), %ld "
	       "repetitions each unless --repeat\n", sw->npoints, sw->ndropped,
	       sw->npoints ? sw->points[0].reps : 0L);
	if (runs)
		printf("# %ld runs, each in its own process: run-1 .. run-%ld\n",
		       runs, runs);
	if (procs > 1)
		printf("# %sthe repetitions spread over %ld worker processes\n",
		       runs ? "in each run, " : "", procs);
}
