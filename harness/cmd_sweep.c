// SPDX-License-Identifier: GPL-2.0
/*
 * `vmstat-bench sweep FILE`: run every point of a sweep file.
 *
 * The file is parsed, expanded and every point checked before anything
 * runs; see sweep.c for the interleaved rounds and docs/sweeps.md for the
 * file format and the output directory.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "sweep.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: vmstat-bench sweep FILE [-o DIR] [--repeat R] [--resume] [--force]\n"
"                          [--shuffle-seed N] [--dry-run]\n"
"\n"
"Run every point of a sweep file (the cartesian product of its lists).\n"
"Repetitions are interleaved: R rounds, each running every point once in a\n"
"fresh shuffled order, so drift of the machine spreads over all points.\n"
"\n"
"options:\n"
"  -o, --output DIR        result directory [results/<sweep name>]\n"
"  -r, --repeat R          repetitions per point, overriding the file (1..%ld)\n"
"      --resume            keep the points finished in DIR, continue the\n"
"                          interrupted ones (<id>.csv.partial), run the rest\n"
"      --force             write into a DIR that holds another sweep\n"
"      --shuffle-seed N    seed of the per-round order; 0: file order [1]\n"
"  -n, --dry-run           check the file and list its points; run nothing\n"
"  -h, --help              this text\n"
"\n"
"DIR gets per point <id>.csv (raw samples) and <id>.summary.csv, and\n"
"sweep.csv (one summary row per point), points.txt, failed.txt, meta.txt;\n"
"until a point finishes, its repetitions so far are in <id>.csv.partial.\n"
"\n"
"examples:\n"
"  vmstat-bench sweep configs/quick.sweep -o results/quick\n"
"  vmstat-bench sweep configs/threshold.sweep --repeat 20 -o results/thr\n"
"  vmstat-bench sweep configs/threshold.sweep -o results/thr --resume\n"
"\n"
"exit status: 0 ok, 1 a point failed or interrupted, 2 bad file or option,\n"
"3 a point failed its sanity check, 4 every point skipped.\n", VSB_REPEAT_MAX);
}

int vsb_cmd_sweep(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "resume", no_argument, NULL, 'R' },
		{ "force", no_argument, NULL, 'F' },
		{ "shuffle-seed", required_argument, NULL, 'S' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct vsb_sweep_run_opts ro;
	static struct vsb_sweep sw;
	int c, ret, dry = 0, force = 0;
	char path[4096 + 16];
	long v;
	size_t i;

	memset(&ro, 0, sizeof(ro));
	ro.shuffle_seed = 1;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:r:nh", lopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (!*optarg || strlen(optarg) >= sizeof(ro.dir) - 256) {
				vsb_err("--output: empty or too long");
				return VSB_EXIT_USAGE;
			}
			strcpy(ro.dir, optarg);
			break;
		case 'r':
			if (vsb_parse_long_range("--repeat", optarg, 1, VSB_REPEAT_MAX, &v))
				return VSB_EXIT_USAGE;
			ro.repeat = v;
			break;
		case 'R':
			ro.resume = 1;
			break;
		case 'F':
			force = 1;
			break;
		case 'S':
			if (vsb_parse_long(optarg, &v) || v < 0) {
				vsb_err("--shuffle-seed: '%s' is not a non-negative integer",
					optarg);
				return VSB_EXIT_USAGE;
			}
			ro.shuffle_seed = (uint64_t)v;
			break;
		case 'n':
			dry = 1;
			break;
		case 'h':
			usage(stdout);
			return VSB_EXIT_OK;
		default:
			if (optopt)
				vsb_err("unknown or incomplete option '-%c' (see sweep --help)",
					optopt);
			else
				vsb_err("unknown or incomplete option '%s' (see sweep --help)",
					argv[optind - 1]);
			return VSB_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		vsb_err(optind >= argc ? "sweep: which sweep file? (see sweep --help)" :
			"sweep: one sweep file, then options (see sweep --help)");
		return VSB_EXIT_USAGE;
	}
	ret = vsb_sweep_parse_file(&sw, argv[optind]);
	if (ret)
		goto out;
	if (!ro.dir[0])
		snprintf(ro.dir, sizeof(ro.dir), "results/%s", sw.name);
	if (dry) {
		for (i = 0; i < sw.npoints; i++) {
			const struct vsb_sweep_point *p = &sw.points[i];

			printf("%s\t%s", p->id, p->params);
			if (p->state == VSB_PT_SKIPPED)
				printf("\tSKIP: %s", p->err);
			putchar('\n');
		}
		printf("# %zu points, %zu left out (more CPUs than online), %ld "
		       "repetitions each unless --repeat\n", sw.npoints, sw.ndropped,
		       sw.npoints ? sw.points[0].reps : 0L);
		goto out;
	}
	snprintf(path, sizeof(path), "%s/points.txt", ro.dir);
	if (!ro.resume && !force && access(path, F_OK) == 0) {
		vsb_err("-o: %s holds a sweep already: --resume continues it, "
			"--force writes over it", ro.dir);
		ret = VSB_EXIT_USAGE;
		goto out;
	}
	ro.progress = isatty(STDERR_FILENO);
	ret = vsb_sweep_run(&sw, &ro);
out:
	vsb_sweep_free(&sw);
	return ret;
}
