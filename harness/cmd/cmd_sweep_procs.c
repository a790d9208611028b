// SPDX-License-Identifier: GPL-2.0
/*
 * The processes `sweep` starts, this binary re-executed (cmd_sweep.c
 * says why): --runs N whole sweeps into DIR/run-K/, or one sweep's
 * repetitions over --procs worker processes into DIR itself.  A stop
 * signal to the sweep goes on to the process in progress.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "cmd_sweep.h"
#include "cmds.h"
#include "sweep.h"

/* ---- --runs: the sweep N times, each run a process of its own ---- */

static volatile sig_atomic_t runs_stop;
static volatile pid_t runs_child;

/* Stop after the run in progress, which gets the signal too. */
static void runs_on_signal(int sig)
{
	runs_stop = 1;
	if (runs_child > 0)
		kill(runs_child, sig);
}

static void runs_signals(void)
{
	vsb_on_stop_signals(runs_on_signal);
}

/*
 * Run @k (1-based): this binary re-executed as `sweep FILE -o DIR/run-K`
 * with the shuffle seed moved on by K - 1 (0 stays file order), so each
 * run orders its rounds differently.  Returns its exit status.
 */
/*
 * This binary re-executed with @av, waited for; its exit status.  A
 * signal to us goes on to it (runs_on_signal).  @what @k in messages.
 */
static int spawn_self(const char *const *av, const char *opt, const char *what,
		      long k)
{
	pid_t pid, parent = getpid();
	sigset_t old;
	int st;

	fflush(NULL);
	/*
	 * The child starts with the stop signals blocked and unblocks them
	 * once its handlers are in (vsb_on_stop_signals): one sent to it
	 * earlier waits for them, so it always saves what it was handed
	 * instead of dying of the signal's default.  Ours wait the fork out.
	 */
	vsb_block_stop_signals(&old);
	pid = fork();
	if (pid > 0)
		runs_child = pid;
	if (pid)
		sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid < 0) {
		vsb_err("%s: cannot start %s %ld: %s", opt, what, k, strerror(errno));
		return VSB_EXIT_ERROR;
	}
	if (!pid) {
		/*
		 * It dies with us: a sweep killed (SIGKILL) leaves no worker
		 * running on in its folder, holding its lock and sysctls; the
		 * state file of those lets `restore` or the next run put them
		 * back, as after any kill.
		 */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(VSB_EXIT_ERROR);
		execv("/proc/self/exe", (char *const *)av);
		vsb_err("%s: cannot run /proc/self/exe: %s", opt, strerror(errno));
		_exit(VSB_EXIT_ERROR);
	}
	if (runs_stop)	/* a signal before the fork: it never saw it */
		kill(pid, SIGTERM);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return VSB_EXIT_ERROR;
	runs_child = 0;
	return WIFEXITED(st) ? WEXITSTATUS(st) : VSB_EXIT_ERROR;
}

static int run_one(const struct sweep_args *a, const char *file, long k)
{
	char dir[sizeof(a->ro.dir) + 32], seed[32], procs[24];
	const char *av[20];
	int n = 0;

	snprintf(dir, sizeof(dir), "%s/run-%ld", a->ro.dir, k);
	snprintf(procs, sizeof(procs), "%ld", a->procs ? a->procs : 1);
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)
		 (a->ro.shuffle_seed ? a->ro.shuffle_seed + (uint64_t)(k - 1) : 0));
	av[n++] = "vmstat-bench";
	av[n++] = "sweep";
	av[n++] = file;
	av[n++] = "-o";
	av[n++] = dir;
	av[n++] = "--shuffle-seed";
	av[n++] = seed;
	if (a->repeat[0]) {
		av[n++] = "--repeat";
		av[n++] = a->repeat;
	}
	if (a->ro.resume)
		av[n++] = "--resume";
	if (a->exact)
		av[n++] = "--exact";
	if (a->force)
		av[n++] = "--force";
	if (a->ro.monitor[0]) {
		av[n++] = "--monitor";
		av[n++] = a->ro.monitor;
	}
	/* each run one process unless --procs says otherwise: N whole runs */
	av[n++] = "--procs";
	av[n++] = procs;
	av[n++] = "--run-min-ms";
	av[n++] = a->run_min;
	av[n] = NULL;
	return spawn_self(av, "--runs", "run", k);
}

static const char *run_state(int rc)
{
	if (runs_stop && rc == VSB_EXIT_ERROR)
		return "interrupted";
	switch (rc) {
	case -1:
		return "not-run";
	case VSB_EXIT_OK:
	case VSB_EXIT_UNTRUSTED:	/* written, its points marked */
		return "done";
	case VSB_EXIT_SKIP:
		return "skipped";
	default:
		return "failed";
	}
}

/* DIR/runs.txt: each run's state; nothing when no run made DIR. */
static int write_runs(const struct sweep_args *a, const char *file,
		      const int *rc, const double *secs)
{
	char path[sizeof(a->ro.dir) + 16];
	struct vsb_outfile o;
	long k;
	int r;

	/* DIR is made (and locked) before run 1: it is run 1's folder that says */
	snprintf(path, sizeof(path), "%s/run-1", a->ro.dir);
	if (access(path, F_OK))
		return 0;
	snprintf(path, sizeof(path), "%s/runs.txt", a->ro.dir);
	r = vsb_outfile_open(&o, path, "-o");
	if (r)
		return r;
	fprintf(o.f, "# sweep: %s\n# runs: %ld, each `vmstat-bench sweep` in a "
		"process of its own\n# run\tstate\texit status\tseconds\n", file,
		a->runs);
	for (k = 0; k < a->runs; k++)
		fprintf(o.f, "run-%ld\t%s\t%d\t%.1f\n", k + 1, run_state(rc[k]),
			rc[k], secs[k]);
	return vsb_outfile_commit(&o);
}

/* DIR/sweep.csv: the first finished run's, so that `plot DIR` works. */
static int copy_first_sweep_csv(const struct sweep_args *a, const int *rc)
{
	char src[sizeof(a->ro.dir) + 48], dst[sizeof(a->ro.dir) + 16], *buf;
	struct vsb_outfile o;
	size_t len;
	long k;
	int r;

	for (k = 0; k < a->runs; k++) {
		snprintf(src, sizeof(src), "%s/run-%ld/sweep.csv", a->ro.dir, k + 1);
		if ((rc[k] == VSB_EXIT_OK || rc[k] == VSB_EXIT_UNTRUSTED) &&
		    !vsb_read_whole(src, VSB_READ_MAX, &buf, &len))
			break;
	}
	if (k == a->runs)
		return 0;
	snprintf(dst, sizeof(dst), "%s/sweep.csv", a->ro.dir);
	r = vsb_outfile_open(&o, dst, "-o");
	if (!r) {
		fwrite(buf, 1, len, o.f);
		r = vsb_outfile_commit(&o);
	}
	free(buf);
	return r;
}

/* The sweep's status over its runs: the worst, as one sweep would say it. */
static int runs_status(const int *rc, long n)
{
	int any3 = 0, all4 = 1;
	long k;

	if (runs_stop)
		return VSB_EXIT_ERROR;
	for (k = 0; k < n; k++) {
		if (rc[k] == VSB_EXIT_USAGE)	/* a run's folder refused */
			return VSB_EXIT_USAGE;
		if (rc[k] != VSB_EXIT_OK && rc[k] != VSB_EXIT_UNTRUSTED &&
		    rc[k] != VSB_EXIT_SKIP)
			return VSB_EXIT_ERROR;
		any3 |= rc[k] == VSB_EXIT_UNTRUSTED;
		all4 &= rc[k] == VSB_EXIT_SKIP;
	}
	return all4 ? VSB_EXIT_SKIP : any3 ? VSB_EXIT_UNTRUSTED : VSB_EXIT_OK;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* "run K of N", and from the second run on the time the rest will take */
static void runs_progress(long k, long n, double spent)
{
	if (k == 1) {
		vsb_note("sweep: run 1 of %ld (each in its own process)", n);
		return;
	}
	vsb_note("sweep: run %ld of %ld (%.0f s so far, about %.0f s left)", k, n,
		 spent, spent / (double)(k - 1) * (double)(n - k + 1));
}

/*
 * --runs N: the runs one after the other, each written whole by its own
 * process; an interrupt stops after the run in progress (which stops
 * after its repetition in progress and keeps its partial files, so
 * --resume continues every run).  A run that cannot start or whose
 * sweep breaks (exit 2: a folder refused) ends the series.
 */
int sweep_runs(const struct sweep_args *a, const char *file)
{
	int *rc = vsb_zalloc((size_t)a->runs * sizeof(*rc)), ret;
	double *secs = vsb_zalloc((size_t)a->runs * sizeof(*secs));
	double t0 = now_s(), t;
	long k, started = 0;

	for (k = 0; k < a->runs; k++)
		rc[k] = -1;
	runs_signals();
	for (k = 0; k < a->runs && !runs_stop; k++) {
		runs_progress(k + 1, a->runs, now_s() - t0);
		t = now_s();
		rc[k] = run_one(a, file, k + 1);
		secs[k] = now_s() - t;
		started++;
		ret = write_runs(a, file, rc, secs);
		if (ret || rc[k] == VSB_EXIT_USAGE || rc[k] == VSB_EXIT_SKIP)
			break;	/* every other run would say the same */
	}
	ret = write_runs(a, file, rc, secs) ?: copy_first_sweep_csv(a, rc);
	if (!ret)
		ret = runs_status(rc, started);
	if (runs_stop)
		vsb_err("sweep: interrupted after %ld of %ld runs; --resume continues",
			started, a->runs);
	else
		vsb_note("sweep: %ld runs in %s/run-1 .. run-%ld (%.0f s)", a->runs,
			 a->ro.dir, a->runs, now_s() - t0);
	free(rc);
	free(secs);
	return ret;
}

/* ---- --procs: one sweep's repetitions over worker processes ---- */

/*
 * How many worker processes: --procs (or VSB_SWEEP_PROCS; one with --runs,
 * and one in exact mode: the spread measures the noise between processes,
 * and counts have none), at most the most repetitions a point wants (a
 * process with no repetition to run would be a run of nothing); 1 when
 * no point is left to run.
 */
long spread_procs(const struct sweep_args *a, const struct vsb_sweep *sw)
{
	long w = a->procs ? a->procs : a->runs || a->exact ? 1 : VSB_SWEEP_PROCS;
	long most = 0;
	size_t i;

	for (i = 0; i < sw->npoints; i++) {
		long r = a->ro.repeat > 0 ? a->ro.repeat : sw->points[i].reps;

		if (sw->points[i].state == VSB_PT_PENDING && r > most)
			most = r;
	}
	return w < most ? w : most > 0 ? most : 1;
}

/*
 * Worker @k of @w: `sweep FILE -o DIR --procs W --worker K`, the seed
 * and options as given (--resume for the first only: the others continue
 * what the one before handed on), the sweep's start for its seconds.
 */
static int run_worker(const struct sweep_args *a, const char *file, long k, long w,
		      uint64_t start)
{
	char procs[24], worker[24], startbuf[32], seed[32];
	const char *av[24];
	int n = 0;

	snprintf(procs, sizeof(procs), "%ld", w);
	snprintf(worker, sizeof(worker), "%ld", k);
	snprintf(startbuf, sizeof(startbuf), "%llu", (unsigned long long)start);
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)a->ro.shuffle_seed);
	const char *head[] = { "vmstat-bench", "sweep", file, "-o", a->ro.dir,
		"--procs", procs, "--worker", worker, "--worker-start", startbuf,
		"--shuffle-seed", seed };

	for (; n < (int)(sizeof(head) / sizeof(head[0])); n++)
		av[n] = head[n];
	if (a->repeat[0]) {
		av[n++] = "--repeat";
		av[n++] = a->repeat;
	}
	av[n++] = "--run-min-ms";
	av[n++] = a->run_min;
	if (a->exact)
		av[n++] = "--exact";
	if (a->ro.resume && k == 1)
		av[n++] = "--resume";
	if (a->ro.monitor[0]) {
		av[n++] = "--monitor";
		av[n++] = a->ro.monitor;
	}
	av[n] = NULL;
	return spawn_self(av, "--procs", "worker process", k);
}

/*
 * VSB_TEST_STOP_AFTER_WORKER=K: the sweep interrupts itself as worker K
 * ends, the moment no timing of a test's signal hits reliably.
 */
static long test_stop_after(void)
{
	const char *e = getenv("VSB_TEST_STOP_AFTER_WORKER");

	return e ? atol(e) : 0;
}

/*
 * The workers one after the other; the last one's status is the
 * sweep's.  One that fails, or an interrupt (which the worker in
 * progress gets too, and answers by saving its partials), ends the
 * series: --resume continues it.  An interrupt between two workers
 * still starts the next, which gets it at once (spawn_self) and saves
 * the state the one before handed on, as any interrupted worker does:
 * points.txt written, procs.txt gone, the "interrupted" line said.
 */
int sweep_spread(const struct sweep_args *a, const struct vsb_sweep *sw,
			const char *file, long w)
{
	uint64_t start = vsb_now_ns();
	int rc;
	long k;

	/* the folder checked, made and locked for the workers, who inherit it */
	rc = vsb_sweep_open_dir(sw, &a->ro);
	if (rc)
		return rc;
	runs_signals();
	for (k = 1; k <= w; k++) {
		rc = run_worker(a, file, k, w, start);
		if (rc && k < w)
			break;
		if (k == test_stop_after())
			raise(SIGINT);
	}
	return rc;
}
