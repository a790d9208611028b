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
#include "sweep_int.h"
#include "sysctl.h"

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

int vsb_sweep_path_join(char *buf, size_t len, const char *dir, const char *name,
			const char *suffix)
{
	if ((size_t)snprintf(buf, len, "%s/%s%s", dir, name, suffix) >= len) {
		vsb_err("%s: path too long", dir);
		return VSB_EXIT_USAGE;
	}
	return 0;
}

int vsb_sweep_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/*
 * What stands in the way of @dir being a directory: an existing path in
 * it (or @dir itself) that is not one.  Checked before anything is
 * created, so that `-o results.csv` (a file) is refused before any
 * point runs and before a single folder is made.  Links to directories
 * are fine.
 */
static int dir_refusal(const char *dir)
{
	char buf[4096];
	struct stat st;
	char *p;

	if (strlen(dir) >= sizeof(buf)) {
		vsb_err("-o: path too long");
		return VSB_EXIT_USAGE;
	}
	strcpy(buf, dir);
	for (p = buf + 1;; p++) {
		if (*p && *p != '/')
			continue;
		if (*p == '/' && p[-1] == '/')
			continue;
		*p = '\0';
		if (!stat(buf, &st) && !S_ISDIR(st.st_mode)) {
			vsb_err("-o: %s is not a directory (a sweep writes a folder of "
				"results): refused, nothing run", buf);
			return VSB_EXIT_USAGE;
		}
		if (p == buf + strlen(dir))
			return 0;
		*p = '/';
	}
}

int vsb_sweep_mkdir_p(const char *dir)
{
	char buf[4096];
	char *p;
	int ret = dir_refusal(dir);

	if (ret)
		return ret;
	snprintf(buf, sizeof(buf), "%s", dir);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			goto err;
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		goto err;
	return 0;
err:
	vsb_err("-o: cannot create %s: %s", buf, strerror(errno));
	return VSB_EXIT_USAGE;
}

static char last_warning[512], last_failure[512];
static int progress_shown;

/*
 * A progress line on a terminal ends without a newline and is redrawn
 * with "\r"; a message printed under it would continue its line ("ETA
 * 0m00svmstat-bench: warning: ...").  Every message of the runner
 * clears it first; the next point draws it again.
 */
void vsb_sweep_progress_clear(void)
{
	if (!progress_shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	progress_shown = 0;
}

/* One repetition of @p, merged into p->res with a rep number of its own. */
static int run_chunk(struct vsb_sweep_point *p)
{
	static struct vsb_run_opts o;
	static struct vsb_result tmp;
	struct vsb_errlog log;
	const char *msg = log.text;
	int ret;

	o = p->opts;
	o.repeat = 1;
	vsb_errlog_begin(&log);
	ret = vsb_bench_run(&o, &tmp);
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
		vsb_trace_merge(&p->res, &tmp);
		vsb_result_free(&tmp);
	}
	p->done++;
	return 0;
}

int vsb_sweep_write_point(const struct vsb_sweep *sw, struct vsb_sweep_point *p,
			  const struct vsb_sweep_run_opts *ro)
{
	struct vsb_outfile raw, sum;
	char path[4096], spath[4096];
	int ret;

	vsb_meta_collect(&p->res);
	vsb_result_meta(&p->res, "sweep", "%s", sw->path);
	vsb_result_meta(&p->res, "sweep_name", "%s", sw->name);
	vsb_result_meta(&p->res, "sweep_point", "%s", p->id);
	vsb_result_meta(&p->res, "sweep_params", "%s", p->params);
	vsb_result_meta(&p->res, "sweep_order",
			"%ld interleaved rounds of 1 repetition (own warm-up each), shuffle seed %llu",
			p->reps, (unsigned long long)ro->shuffle_seed);
	if (p->resumed)
		vsb_result_meta(&p->res, "sweep_resumed",
				"repetitions 0..%ld from an interrupted run (read back from %s%s), "
				"%ld..%ld run by --resume", p->resumed - 1, p->id,
				VSB_SWEEP_PARTIAL_SUFFIX, p->resumed, p->reps - 1);
	ret = vsb_sweep_path_join(path, sizeof(path), ro->dir, p->id, ".csv");
	ret = ret ?: vsb_sweep_path_join(spath, sizeof(spath), ro->dir, p->id, ".summary.csv");
	ret = ret ?: vsb_outfile_open(&raw, path, "-o");
	if (ret)
		return ret;
	ret = vsb_outfile_open(&sum, spath, "-o");
	if (ret) {
		vsb_outfile_abort(&raw);
		return ret;
	}
	ret = vsb_result_write(&p->res, raw.f, "csv");
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

static void progress(size_t done, size_t total, long round, long rounds,
		     const char *id, uint64_t start)
{
	double el = (double)(vsb_now_ns() - start) / 1e9;
	double eta = done ? el / (double)done * (double)(total - done) : 0;

	fprintf(stderr, "\r\033[K[%zu/%zu] round %ld/%ld %.40s  elapsed %.0fs  ETA %dm%02ds",
		done, total, round + 1, rounds, id, el, (int)eta / 60, (int)eta % 60);
	fflush(stderr);
	progress_shown = 1;
}

/* --resume: a point's summary keeps it; its partial continues it. */
static int prepare_point(struct vsb_sweep_point *p,
			 const struct vsb_sweep_run_opts *ro, size_t *nkept,
			 size_t *ncont)
{
	char path[4096], why[600];

	if (ro->resume) {
		if (vsb_sweep_path_join(path, sizeof(path), ro->dir, p->id, ".summary.csv"))
			return VSB_EXIT_USAGE;
		if (vsb_sweep_exists(path)) {
			p->state = VSB_PT_DONE;
			(*nkept)++;
			return 0;
		}
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
		/* csvread's reasons name the file already */
		vsb_warn("%s: not continued from its partial file (%s%s%s): it "
			 "starts over", p->id,
			 strncmp(why, path, strlen(path)) ? path : "",
			 strncmp(why, path, strlen(path)) ? ": " : "", why);
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

	ret = vsb_sweep_mkdir_p(ro->dir);
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
				progress(chunks, total, round, rounds, p->id, start);
			ret = run_chunk(p);
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
