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
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd_sweep.h"
#include "cmds.h"
#include "kmod_exact.h"
#include "monitor.h"
#include "store.h"
#include "sweep.h"

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
"      --exact             every point counts instructions, not time (module\n"
"                          points in a guest booted for it; docs/exact.md)\n"
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
	case 'X':
		a->exact = 1;
		return 0;
	}
	return 0;
}

/* --exact: every point counts, each checked as `run --exact` would be. */
static int exact_points(struct vsb_sweep *sw)
{
	size_t i;
	int ret;

	for (i = 0; i < sw->npoints; i++) {
		sw->points[i].opts.exact = 1;
		ret = vsb_kmod_exact_check(&sw->points[i].opts);
		if (ret)
			return ret;
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
		{ "exact", no_argument, NULL, 'X' },
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
	if (!ret && a.exact)
		ret = exact_points(&sw);
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
