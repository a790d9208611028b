// SPDX-License-Identifier: GPL-2.0
/*
 * `vmstat-bench sweep FILE`: run every point of a sweep file.
 *
 * The file is parsed, expanded and every point checked before anything
 * runs; see sweep.c for the interleaved rounds and docs/sweeps.md for the
 * file format and the output directory.
 *
 * --runs N runs the whole sweep N times, each in a process of its own
 * (this binary re-executed, into DIR/run-K/): repetitions inside one
 * process share its state, so only separate runs show how far two
 * sweeps made apart differ, which is what `compare` needs to judge runs
 * as the unit (docs/sweeps.md "Several runs per side").
 *
 * --procs W (default VSB_SWEEP_PROCS) spreads one sweep's repetitions
 * over W worker processes for the same total work, as pyperf spreads a
 * benchmark's values over worker processes: this binary re-executed W
 * times into DIR itself, one after the other, worker K running its share
 * of every point's interleaved rounds and handing the rest on in the
 * points' partial files (sweep.c); each point file then names which
 * process ran which repetitions (`# sweep_procs:`), and `compare` has W
 * runs a side to judge from one sweep.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmds.h"
#include "monitor.h"
#include "store.h"
#include "sweep.h"

#define VSB_SWEEP_RUNS_MAX 100

static void usage(FILE *f)
{
	fprintf(f,
"usage: vmstat-bench sweep FILE [-o DIR] [--repeat R] [--runs N] [--procs W]\n"
"                          [--resume] [--force] [--shuffle-seed N] [--dry-run]\n"
"                          [--monitor LIST[:INTERVAL]] [--db URL]\n"
"\n"
"Run every point of a sweep file (the cartesian product of its lists).\n"
"Repetitions are interleaved: R rounds, each running every point once in a\n"
"fresh shuffled order, so drift of the machine spreads over all points.\n"
"The rounds are spread over W worker processes, one after the other (the\n"
"same total work): each is a run of its own, so `compare` measures the\n"
"noise between runs from one sweep a side.\n"
"\n"
"options:\n"
"  -o, --output DIR        result directory [results/<sweep name>]\n"
"  -r, --repeat R          repetitions per point, overriding the file (1..%ld)\n"
"      --runs N            run the whole sweep N times (1..%d), each in its\n"
"                          own process, into DIR/run-1 .. DIR/run-N, so that\n"
"                          `compare` sees the noise between runs; run K's\n"
"                          shuffle seed is --shuffle-seed + K - 1\n"
"      --procs W           worker processes a sweep's repetitions are spread\n"
"                          over (1..%d, at most R) [%d]; 1: one process\n"
"      --run-min-ms MS     with W > 1, a point whose repetition lasts under\n"
"                          MS / 2 runs each one as many times as fit in MS,\n"
"                          at most %d, so a run holds several (0..%d) [%d];\n"
"                          0: as asked\n"
"      --resume            keep the points finished in DIR, continue the\n"
"                          interrupted ones (<id>.csv.partial), run the rest\n"
"      --force             write into a DIR that holds another sweep\n"
"      --shuffle-seed N    seed of the per-round order; 0: file order [1]\n"
"  -n, --dry-run           check the file and list its points; run nothing\n"
"      --monitor LIST[:I]  sample the machine during each point's first\n"
"                          round into DIR/<id>.monitor.csv (docs/monitors.md)\n"
"      --db URL            import DIR into a store when done: an SQLite file,\n"
"                          postgresql://..., or `default` ($VSB_DB, else\n"
"                          results/vmstat-bench.db)\n"
"  -h, --help              this text\n"
"\n"
"DIR gets per point <id>.csv (raw samples) and <id>.summary.csv, and\n"
"sweep.csv (one summary row per point), points.txt, failed.txt, meta.txt;\n"
"until a point finishes, its repetitions so far are in <id>.csv.partial.\n"
"With --runs, DIR gets run-K/ per run, runs.txt (each run's state), and\n"
"run 1's sweep.csv for `plot DIR`; `compare DIR_A DIR_B` uses every run.\n"
"\n"
"examples:\n"
"  vmstat-bench sweep configs/quick.sweep -o results/quick\n"
"  vmstat-bench sweep configs/threshold.sweep --repeat 20 -o results/thr\n"
"  vmstat-bench sweep configs/threshold.sweep -o results/thr --resume\n"
"  vmstat-bench sweep configs/quick.sweep --runs 6 -o results/base\n"
"\n"
"exit status: 0 ok, 1 a point failed or interrupted, 2 bad file or option,\n"
"3 a point failed its sanity check, 4 every point skipped (with --runs: the\n"
"worst over the runs).\n", VSB_REPEAT_MAX, VSB_SWEEP_RUNS_MAX,
		VSB_SWEEP_PROCS_MAX, VSB_SWEEP_PROCS, VSB_SWEEP_RUN_REPS_MAX,
		VSB_SWEEP_RUN_MIN_MS_MAX, VSB_SWEEP_RUN_MIN_MS);
}

/* What the command line asked for besides the runner's own options. */
struct sweep_args {
	struct vsb_sweep_run_opts ro;
	int dry, force;
	long runs;		/* 0: one sweep into DIR itself; else --runs */
	char repeat[24];	/* as given, for the runs' command lines */
	char run_min[24];	/* --run-min-ms as in force, for the same */
	const char *db;		/* --db: the store DIR is imported into */
	long procs;		/* --procs; 0: not given (VSB_SWEEP_PROCS) */
};

static int parse_opt(int c, const char *optarg, struct sweep_args *a)
{
	long v;

	switch (c) {
	case 'o':
		if (!*optarg || strlen(optarg) >= sizeof(a->ro.dir) - 256) {
			vsb_err("--output: empty or too long");
			return VSB_EXIT_USAGE;
		}
		strcpy(a->ro.dir, optarg);
		return 0;
	case 'M':
		if (strlen(optarg) >= sizeof(a->ro.monitor)) {
			vsb_err("--monitor: value too long");
			return VSB_EXIT_USAGE;
		}
		strcpy(a->ro.monitor, optarg);
		return vsb_monitor_check(optarg, "--monitor") ? VSB_EXIT_USAGE : 0;
	case 'D':
		a->db = optarg;
		/* the store is opened after the sweep: a bad one must stop it now */
		return vsb_store_check_arg(optarg);
	case 'r':
		if (vsb_parse_long_range("--repeat", optarg, 1, VSB_REPEAT_MAX, &v))
			return VSB_EXIT_USAGE;
		a->ro.repeat = v;
		snprintf(a->repeat, sizeof(a->repeat), "%ld", v);
		return 0;
	case 'u':
		return vsb_parse_long_range("--runs", optarg, 1, VSB_SWEEP_RUNS_MAX,
					    &a->runs) ? VSB_EXIT_USAGE : 0;
	case 'P':
		return vsb_parse_long_range("--procs", optarg, 1, VSB_SWEEP_PROCS_MAX,
					    &a->procs) ? VSB_EXIT_USAGE : 0;
	case 'm':
		return vsb_parse_long_range("--run-min-ms", optarg, 0,
					    VSB_SWEEP_RUN_MIN_MS_MAX,
					    &a->ro.run_min_ms) ? VSB_EXIT_USAGE : 0;
	case 'W':	/* internal: a worker process of a spread sweep */
		return vsb_parse_long_range("--worker", optarg, 1, VSB_SWEEP_PROCS_MAX,
					    &a->ro.worker) ? VSB_EXIT_USAGE : 0;
	case 'T':
		if (vsb_parse_long(optarg, &v) || v < 0) {
			vsb_err("--worker-start: '%s' is not a non-negative integer",
				optarg);
			return VSB_EXIT_USAGE;
		}
		a->ro.start_ns = (uint64_t)v;
		return 0;
	case 'R':
		a->ro.resume = 1;
		return 0;
	case 'F':
		a->force = 1;
		return 0;
	case 'S':
		if (vsb_parse_long(optarg, &v) || v < 0) {
			vsb_err("--shuffle-seed: '%s' is not a non-negative integer",
				optarg);
			return VSB_EXIT_USAGE;
		}
		a->ro.shuffle_seed = (uint64_t)v;
		return 0;
	case 'n':
		a->dry = 1;
		return 0;
	}
	return 0;
}

/* -1: --help printed */
static int parse_args(int argc, char **argv, struct sweep_args *a)
{
	static const struct option lopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "runs", required_argument, NULL, 'u' },
		{ "resume", no_argument, NULL, 'R' },
		{ "force", no_argument, NULL, 'F' },
		{ "shuffle-seed", required_argument, NULL, 'S' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "monitor", required_argument, NULL, 'M' },
		{ "db", required_argument, NULL, 'D' },
		{ "procs", required_argument, NULL, 'P' },
		{ "run-min-ms", required_argument, NULL, 'm' },
		{ "worker", required_argument, NULL, 'W' },
		{ "worker-start", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct vsb_getopt g = VSB_GETOPT("sweep", "o:r:n", lopts, usage, argc, argv);
	const char *arg;
	int c, ret;

	memset(a, 0, sizeof(*a));
	a->ro.shuffle_seed = 1;
	a->ro.run_min_ms = VSB_SWEEP_RUN_MIN_MS;
	while ((c = vsb_getopt_next(&g, &arg)) > 0) {
		ret = parse_opt(c, arg, a);
		if (ret)
			return ret;
	}
	if (c < 0)
		return c == VSB_GETOPT_HELP ? -1 : VSB_EXIT_USAGE;
	snprintf(a->run_min, sizeof(a->run_min), "%ld", a->ro.run_min_ms);
	if (optind != argc - 1) {
		vsb_err(optind >= argc ? "sweep: which sweep file? (see sweep --help)" :
			"sweep: one sweep file, then options (see sweep --help)");
		return VSB_EXIT_USAGE;
	}
	if (a->ro.worker && (!a->procs || a->ro.worker > a->procs || a->runs)) {
		vsb_err("--worker: only with --procs W >= K and without --runs "
			"(the sweep starts its workers itself)");
		return VSB_EXIT_USAGE;
	}
	return 0;
}

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
	int st;

	fflush(NULL);
	pid = fork();
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
	runs_child = pid;
	if (runs_stop)	/* a signal between fork and here */
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
static int sweep_runs(const struct sweep_args *a, const char *file)
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
 * How many worker processes: --procs (or VSB_SWEEP_PROCS), at most the
 * most repetitions a point wants (a process with no repetition to run
 * would be a run of nothing); 1 when no point is left to run.
 */
static long spread_procs(const struct sweep_args *a, const struct vsb_sweep *sw)
{
	long w = a->procs ? a->procs : a->runs ? 1 : VSB_SWEEP_PROCS, most = 0;
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
 * The workers one after the other; the last one's status is the
 * sweep's.  One that fails, or an interrupt (which the worker in
 * progress gets too, and answers by saving its partials), ends the
 * series: --resume continues it.
 */
static int sweep_spread(const struct sweep_args *a, const struct vsb_sweep *sw,
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
	for (k = 1; k <= w && !runs_stop; k++) {
		rc = run_worker(a, file, k, w, start);
		if (rc && k < w)
			break;
	}
	if (runs_stop)
		return VSB_EXIT_ERROR;
	return rc;
}

/*
 * With --runs (or worker processes) the processes started write in DIR
 * one after the other, each locking only while it runs: this one holds
 * DIR for them all (vsb_dir_lock() passes the lock on to them), so no
 * other sweep gets in between.  DIR is made here when missing, after
 * the checks, and removed again (rmdir: only if empty) at the end.
 */
static int hold_dir(const struct sweep_args *a, int *made)
{
	int ret;

	*made = access(a->ro.dir, F_OK) != 0;
	if (*made && vsb_mkdir_p(a->ro.dir, 0755)) {
		vsb_err("-o: cannot create %s: %s", a->ro.dir, strerror(errno));
		return VSB_EXIT_USAGE;
	}
	ret = vsb_dir_lock(a->ro.dir, "-o");
	if (ret && *made)
		rmdir(a->ro.dir);
	return ret;
}

/* --db: DIR, or with --runs each DIR/run-K that was made, into the store */
static int import_dirs(const struct sweep_args *a)
{
	long n = a->runs ? a->runs : 1, k, have = 0;
	char **dirs = vsb_zalloc((size_t)n * sizeof(*dirs));
	int ret;

	for (k = 0; k < n; k++) {
		dirs[have] = vsb_zalloc(sizeof(a->ro.dir) + 32);
		if (a->runs)
			snprintf(dirs[have], sizeof(a->ro.dir) + 32, "%s/run-%ld",
				 a->ro.dir, k + 1);
		else
			snprintf(dirs[have], sizeof(a->ro.dir) + 32, "%s", a->ro.dir);
		if (access(dirs[have], F_OK) == 0)
			have++;
		else
			free(dirs[have]);
	}
	ret = vsb_store_import_paths(vsb_store_arg(a->db), dirs, (size_t)have, 0);
	for (k = 0; k < have; k++)
		free(dirs[k]);
	free(dirs);
	return ret;
}

/* DIR may be written: refused (exit 2) when it holds a sweep already. */
static int check_dir(const struct sweep_args *a)
{
	const char *holds = a->runs ? "runs.txt" : "points.txt";
	char path[4096 + 16];

	if (vsb_dir_refusal(a->ro.dir, "-o"))
		return VSB_EXIT_USAGE;

	snprintf(path, sizeof(path), "%s/%s", a->ro.dir, holds);
	if (!a->ro.resume && !a->force && access(path, F_OK) == 0) {
		vsb_err("-o: %s holds a sweep already: --resume continues it, "
			"--force writes over it", a->ro.dir);
		return VSB_EXIT_USAGE;
	}
	/* one layout per folder: compare would read both */
	snprintf(path, sizeof(path), "%s/%s", a->ro.dir,
		 a->runs ? "points.txt" : "runs.txt");
	if (!a->force && access(path, F_OK) == 0) {
		vsb_err("-o: %s holds a sweep %s --runs: use another folder",
			a->ro.dir, a->runs ? "made without" : "made with");
		return VSB_EXIT_USAGE;
	}
	return 0;
}

int vsb_cmd_sweep(int argc, char **argv)
{
	static struct sweep_args a;
	static struct vsb_sweep sw;
	const char *file;
	int ret, made = 0;

	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret < 0 ? VSB_EXIT_OK : ret;
	file = argv[optind];
	ret = vsb_sweep_parse_file(&sw, file);
	if (ret)
		goto out;
	if (!a.ro.dir[0])
		snprintf(a.ro.dir, sizeof(a.ro.dir), "results/%s", sw.name);
	if (a.dry) {
		vsb_sweep_print_plan(&sw, a.runs, spread_procs(&a, &sw));
		goto out;
	}
	/* a worker's folder was checked by the sweep that started it */
	ret = a.ro.worker ? 0 : check_dir(&a);
	if (ret)
		goto out;
	a.ro.procs = a.ro.worker ? a.procs : a.runs ? 1 : spread_procs(&a, &sw);
	if (a.runs || (a.ro.procs > 1 && !a.ro.worker)) {
		ret = hold_dir(&a, &made);
		if (ret)
			goto out;
	}
	if (a.runs) {
		ret = sweep_runs(&a, file);
	} else if (a.ro.procs > 1 && !a.ro.worker) {
		ret = sweep_spread(&a, &sw, file, a.ro.procs);
	} else {
		a.ro.progress = isatty(STDERR_FILENO);
		ret = vsb_sweep_run(&sw, &a.ro);
	}
	/* what was written, every run and point of it, after the last one */
	if (a.db && !vsb_interrupted && ret != VSB_EXIT_USAGE) {
		int iret = import_dirs(&a);

		if (iret)
			ret = iret;
	}
	if (made)
		rmdir(a.ro.dir);	/* fails unless nothing went in */
out:
	vsb_sweep_free(&sw);
	return ret;
}
