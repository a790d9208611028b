// SPDX-License-Identifier: GPL-2.0
/*
 * `vmstat-bench compare BASE NEW`: is NEW slower than BASE, point by point?
 *
 * The options; the rest, from loading to the table on stdout and, with
 * -o, compare.csv, summary.md and the regression chart, is
 * lib/judge/compare_report.c's, which `ab` calls too.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "cost_host.h"
#include "compare.h"
#include "plot.h"
#include "store.h"
#include "vsb.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: vmstat-bench compare BASE NEW [--alpha A] [--noise PCT]\n"
"                            [--max-regression PCT] [--runs-only] [-o DIR]\n"
"                            [--noise-model auto|reps] [--db URL]\n"
"                            [--keep-disturbed] [--costs FILE|none]\n"
"                            [--per-point-alpha]\n"
"\n"
"Compare two results point by point.  BASE and NEW are sweep directories\n"
"or raw-sample CSV files (from `run -o x.csv`).  Points match by bench,\n"
"backend, variant, cpus, nthreads, threshold, diff_bits, items, batch,\n"
"delta, order, outstanding (not loops or repeat: costs are per op).\n"
"\n"
"Per point: median cost NEW/BASE with a bootstrap 95%% CI, a two-sided\n"
"Mann-Whitney U p-value over the repetitions, and a verdict: slower or\n"
"faster when p < alpha AND the change exceeds the noise floor; same when\n"
"the 95%% CI of NEW/BASE lies inside 1 +- --max-regression and the floor is\n"
"no wider; else inconclusive, with the row's MDE (mde_pct: the smallest\n"
"change its spread and counts would call, at 80%% power).  The noise floor\n"
"is the larger of --noise and the coefficient of variation of either\n"
"side's repetitions.  Rows in unit insn (exact instruction counts) are\n"
"judged by their instruction mix through cost models (docs/exact.md):\n"
"same when no class moved beyond max(0.1%% of BASE, 0.05 an op); slower or\n"
"faster when every class moved one way, or when every cost model (the\n"
"cited cores', and this CPU's measured table) agrees; else changed, which\n"
"exits 5: fewer instructions is not faster.\n"
"\n"
"Many points: alpha is shared over the points the rank test judged\n"
"(Benjamini-Hochberg: the k smallest p's are called where the k-th is below\n"
"k alpha / m), so that a comparison of the same code on both sides calls a\n"
"change anywhere with probability alpha at most; a lone change must beat\n"
"alpha / m.  --per-point-alpha tests each point at alpha on its own.\n"
"\n"
"Runs: a side may hold several runs (separate processes or boots: `sweep\n"
"--runs N` folders, or files with different `# run_id:` lines; else one\n"
"file is one run).  With runs enough for the rank test on per-run medians\n"
"to reach alpha (5 and 5 at 0.01), that is the test and the CI resamples\n"
"runs, then repetitions.  The noise floor is at least %d x the between-run\n"
"CV.  A sweep's point file is several runs: `sweep` spreads a point's\n"
"repetitions over worker processes (`# sweep_procs:`), each one a run.\n"
"\n"
"Noise model (--noise-model auto, the default): a point is judged only where\n"
"its between-run noise is known: by its runs (the above), else, with --db,\n"
"by the store's earlier runs of it on this machine (at least %d: the floor\n"
"is then z(alpha) x sqrt(2) x their between-run CV).  Else it is shown and\n"
"not judged (verdict no-model; few-runs with 2 to 4 runs a side): never a\n"
"regression, never exit 1.  A multi-CPU point whose runs on a side are all\n"
"worker processes of one sweep is judged by a store only (else one-sweep):\n"
"they share the host's placement of the vCPUs, and sweeps differ by more.  --noise-model reps trusts the repetitions of\n"
"one run instead, as compare did before.  Repetitions another task\n"
"disturbed (the `disturbed` column) are left out; a side with none left is\n"
"`disturbed`, not judged.\n"
"\n"
"options:\n"
"  -a, --alpha A               significance level [0.01]\n"
"      --noise PCT             smallest change that counts, in %% [2]\n"
"  -m, --max-regression PCT    exit 1 when a point is slower by more [5]\n"
"  -o, --output DIR            write compare.csv, summary.md and the\n"
"                              regression chart (PNG, SVG) into DIR\n"
"      --ignore COL[,COL]      match points even when these columns differ\n"
"                              (e.g. variant: is atomic-global slower than\n"
"                              cmpxchg-local?); labels show BASE's values\n"
"      --runs-only             judge per-run medians only: a point with too\n"
"                              few runs for that gets `few-runs` (shown, not\n"
"                              judged) instead of a verdict from pooled\n"
"                              repetitions (ab passes it: a boot is a run)\n"
"      --noise-model M         auto (judge only where the noise is known)\n"
"                              or reps (trust one run's repetitions) [auto]\n"
"      --db URL                learn between-run noise from this store: an\n"
"                              SQLite file, postgresql://..., or `default`\n"
"                              ($VSB_DB, else results/vmstat-bench.db)\n"
"      --keep-disturbed        judge disturbed repetitions too\n"
"      --per-point-alpha       alpha for each point alone, not shared over\n"
"                              the points (Benjamini-Hochberg)\n"
"      --costs FILE|none       the measured cost table that prices insn rows\n"
"                              for this CPU [its cached one, from\n"
"                              `calibrate --costs`, where there is one]\n"
"  -h, --help                  this text\n"
"\n"
"examples:\n"
"  vmstat-bench compare results/base results/patched\n"
"  vmstat-bench compare base.csv new.csv --max-regression 2 -o cmp/\n"
"\n"
"exit status: 0 no regression and every judged point decided, 1 a point\n"
"regressed beyond the limit (or an error), 2 bad input (also: units differ),\n"
"4 no point matched, 5 no regression but a point inconclusive (the run\n"
"could not tell: not a pass) or changed.\n",
		VSB_CMP_BETWEEN_K, VSB_CMP_STORE_MIN_RUNS);
}

static int parse_pct(const char *opt, const char *s, double min, double max,
		     double *out)
{
	double v;

	if (vsb_parse_real(s, &v) || !(v >= min && v <= max)) {
		vsb_err("%s: '%s' is not a number in %g..%g", opt, s, min, max);
		return VSB_EXIT_USAGE;
	}
	*out = v;
	return 0;
}

/* --ignore variant,batch: match points that differ in these columns */
static int parse_ignore(struct vsb_compare *c, const char *list)
{
	char buf[256], *tok, *save = NULL;
	int k;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		k = vsb_cmp_col(c, tok);
		if (k < 0) {
			vsb_err("--ignore: '%s' is not a matching column", tok);
			return VSB_EXIT_USAGE;
		}
		c->ignored |= 1ull << k;
	}
	return 0;
}

static int parse_model(const char *s, struct vsb_cmp_opts *o)
{
	if (!strcmp(s, "auto"))
		o->model = VSB_CMP_MODEL_AUTO;
	else if (!strcmp(s, "reps"))
		o->model = VSB_CMP_MODEL_REPS;
	else {
		vsb_err("--noise-model: '%s' is not auto or reps", s);
		return VSB_EXIT_USAGE;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct vsb_compare *c,
		      struct vsb_cmp_opts *o, const char **outdir, const char **db,
		      const char **costs)
{
	static const struct option lopts[] = {
		{ "alpha", required_argument, NULL, 'a' },
		{ "noise", required_argument, NULL, 'N' },
		{ "max-regression", required_argument, NULL, 'm' },
		{ "output", required_argument, NULL, 'o' },
		{ "ignore", required_argument, NULL, 'I' },
		{ "runs-only", no_argument, NULL, 'R' },
		{ "noise-model", required_argument, NULL, 'M' },
		{ "db", required_argument, NULL, 'D' },
		{ "keep-disturbed", no_argument, NULL, 'K' },
		{ "costs", required_argument, NULL, 'C' },
		{ "per-point-alpha", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct vsb_getopt g = VSB_GETOPT("compare", "a:m:o:", lopts, usage, argc, argv);
	const char *arg;
	int ch, ret = 0;

	while ((ch = vsb_getopt_next(&g, &arg)) > 0) {
		switch (ch) {
		case 'a':
			ret = parse_pct("--alpha", arg, 1e-9, 0.5, &o->alpha);
			break;
		case 'N':
			ret = parse_pct("--noise", arg, 0, 1000, &o->noise_pct);
			break;
		case 'm':
			ret = parse_pct("--max-regression", arg, 0, 1e6,
					&o->max_regression_pct);
			break;
		case 'o':
			*outdir = arg;
			/* gnuplot is handed it for the chart: refused before any work */
			ret = vsb_plot_path_check(arg, "-o");
			break;
		case 'I':
			ret = parse_ignore(c, arg);
			break;
		case 'R':
			o->runs_only = 1;
			break;
		case 'M':
			ret = parse_model(arg, o);
			break;
		case 'D':
			*db = arg;
			ret = vsb_store_check_arg(arg);
			break;
		case 'K':
			o->drop_disturbed = 0;
			break;
		case 'C':
			*costs = arg;
			break;
		case 'P':
			o->per_point = 1;
			break;
		}
		if (ret)
			return ret;
	}
	if (ch < 0)
		return ch == VSB_GETOPT_HELP ? -1 : VSB_EXIT_USAGE;
	if (argc - optind != 2) {
		vsb_err("compare: needs BASE and NEW (see compare --help)");
		return VSB_EXIT_USAGE;
	}
	return 0;
}

int vsb_cmd_compare(int argc, char **argv)
{
	struct vsb_cmp_opts o = { .alpha = 0.01, .noise_pct = 2,
				  .max_regression_pct = 5,
				  .model = VSB_CMP_MODEL_AUTO, .drop_disturbed = 1 };
	const char *outdir = NULL, *db = NULL, *costs = NULL;
	struct vsb_compare c;
	int ret;

	vsb_cmp_init(&c);
	ret = parse_args(argc, argv, &c, &o, &outdir, &db, &costs);
	if (ret)
		return ret < 0 ? VSB_EXIT_OK : ret;
	ret = vsb_host_costs_use(costs);	/* a bad --costs: one line, exit 2 */
	if (ret)
		return ret;
	ret = vsb_compare_report_db(&c, &o, argv[optind], argv[optind + 1], outdir, db);
	vsb_cmp_free(&c);
	return ret;
}
