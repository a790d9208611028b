// SPDX-License-Identifier: GPL-2.0
/*
 * `vmstat-bench estimate`: the cost model's cycles for counted mixes.
 *
 * Exact mode's results (unit insn, the tcg:* classes) go through every
 * cost model, the cited cores' and this CPU's measured table, and come
 * out as mix.csv's rows, one per point: what ci/model-check sets against
 * the cycles it measured natively.  A model, labelled as one: the
 * estimate is not a measurement.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmds.h"
#include "cost_host.h"
#include "insn_mix.h"
#include "result_load.h"
#include "vsb.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: vmstat-bench estimate [--costs FILE|none] RESULT.csv...\n"
"\n"
"The cost model's cycles per op for exact mode's results (unit insn, with\n"
"their instruction mix: run --exact, sweep --exact, ab's boot folders):\n"
"mix.csv's columns on stdout, one row per point, est_cycles_<model> for\n"
"each cited core (docs/exact.md) and est_cycles_host from this CPU's\n"
"measured table (calibrate --costs); empty where a model has no cost for\n"
"a class the point holds.\n"
"\n"
"options:\n"
"      --costs FILE|none   the measured cost table for est_cycles_host\n"
"                          [this CPU's cached one, where there is one]\n"
"  -h, --help              this text\n"
"\n"
"examples:\n"
"  vmstat-bench estimate results/exact/counter.csv\n"
"  vmstat-bench estimate --costs none mz.csv\n"
"\n"
"exit status: 0 ok, 2 bad input (a file that is not a result, a point\n"
"not in insn or without its mix, a bad --costs table).\n");
}

/*
 * Every insn point of @path as a mix.csv row on stdout (@print), or only
 * checked; 0 or VSB_EXIT_USAGE after one line.
 */
static int estimate_file(const char *path, int print)
{
	struct vsb_rl_file f;
	struct vsb_mix m;
	char label[256];
	size_t pt, row;
	int ret = vsb_rl_read(path, 0, &f);

	if (ret)
		return ret;
	for (pt = 0; pt < f.npoints && !ret; pt++) {
		if (vsb_mix_of_point(&f, pt, &m)) {
			vsb_err("%s: point %s: no instruction mix (not exact mode's, "
				"unit %s)", path, f.points[pt].key, f.points[pt].unit);
			ret = VSB_EXIT_USAGE;
			break;
		}
		for (row = 0; row < f.nrows && f.row_point[row] != pt; row++)
			;
		vsb_mix_point_label(&f, row, label, sizeof(label));
		if (print)
			vsb_mix_csv_row(stdout, label, "-", &m);
	}
	vsb_rl_free(&f);
	return ret;
}

int vsb_cmd_estimate(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "costs", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct vsb_getopt g = VSB_GETOPT("estimate", "", lopts, usage, argc, argv);
	const char *arg, *costs = NULL;
	int ch, i, ret;

	while ((ch = vsb_getopt_next(&g, &arg)) > 0)
		if (ch == 'C')
			costs = arg;
	if (ch < 0)
		return ch == VSB_GETOPT_HELP ? VSB_EXIT_OK : VSB_EXIT_USAGE;
	if (optind >= argc) {
		vsb_err("estimate: which results? (see estimate --help)");
		return VSB_EXIT_USAGE;
	}
	ret = vsb_host_costs_use(costs);
	/* every file checked before a line is written */
	for (i = optind; i < argc && !ret; i++)
		ret = estimate_file(argv[i], 0);
	if (ret)
		return ret;
	printf("# cost_models: %s\n# cost_host: %s\n", vsb_uarch_names(),
	       vsb_host_costs_used());
	vsb_mix_csv_header(stdout);
	for (i = optind; i < argc && !ret; i++)
		ret = estimate_file(argv[i], 1);
	if (fflush(stdout) || ferror(stdout)) {
		vsb_err("estimate: writing stdout failed");
		return VSB_EXIT_ERROR;
	}
	return ret;
}
