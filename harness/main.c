// SPDX-License-Identifier: GPL-2.0
/*
 * vmstat-bench: what do the page allocator's statistics cost?
 *
 * The command dispatcher.  Each command lives in its own cmd_*.c file and
 * is one row of the table below; `vmstat-bench --help` is generated from
 * it.
 */
#include <string.h>

#include "cmds.h"
#include "result.h"
#include "meta.h"

static const struct vsb_cmd cmds[] = {
	{ "run", vsb_cmd_run, "run one benchmark point and print or save its results" },
	{ "list", vsb_cmd_list, "list benches and variants, and where each can run" },
	{ "info", vsb_cmd_info,
	  "show topology, PMU verdicts and the environment record results carry" },
	{ "calibrate", vsb_cmd_calibrate,
	  "measure the harness floor: bare add loop vs this-cpu-add, timer cost" },
	{ "estimate", vsb_cmd_estimate,
	  "the cost model's cycles per op for exact mode's counted mixes" },
	{ "profile", vsb_cmd_profile,
	  "exact mode: the kernel functions that ran each op, and what changed" },
	{ "sweep", vsb_cmd_sweep, "run every point of a sweep file, repetitions interleaved" },
	{ "compare", vsb_cmd_compare, "compare two results point by point: ratio, CI, rank test, verdict" },
	{ "plot", vsb_cmd_plot, "gnuplot charts (PNG, SVG) of a sweep or a comparison" },
	{ "thresholds", vsb_cmd_thresholds,
	  "the kernel's stat thresholds, committed_as batch and worst-case drift" },
	{ "refresh-model", vsb_cmd_refresh_model,
	  "cost of refreshing thresholds at CPU bring-up, per approach (004)" },
	{ "trace", vsb_cmd_trace,
	  "BPF: vmstat_update work per CPU, its durations, page allocations by order" },
	{ "restore", vsb_cmd_restore, "put back sysctls a killed run left changed" },
	{ "db", vsb_cmd_db, "the result store: import results, export a run, list what is stored" },
	{ "history", vsb_cmd_history,
	  "each point across stored runs: trend charts, change points, --check gate" },
	{ "ab", vsb_cmd_ab,
	  "A/B two kernels: boots in ABBA order with the module, compare's verdict" },
	{ "bisect", vsb_cmd_bisect,
	  "the commit of a git kernel tree that changed a sweep's cost (builds, ab)" },
	{ "bisect-step", vsb_cmd_bisect_step,
	  "one step for git bisect run: build HEAD, ab against good, exit 0/1/125" },
};
#define NCMDS (sizeof(cmds) / sizeof(cmds[0]))

static void usage(FILE *f)
{
	size_t i;

	fprintf(f,
"usage: vmstat-bench COMMAND [options]\n"
"\n"
"Microbenchmarks for the cost of the Linux page allocator's statistics:\n"
"per-CPU vmstat counters, their fold thresholds and update primitives.\n"
"\n"
"commands:\n");
	for (i = 0; i < NCMDS; i++)
		fprintf(f, "  %-14s %s\n", cmds[i].name, cmds[i].summary);
	fprintf(f,
"\n"
"`vmstat-bench COMMAND --help` shows a command's options.\n"
"\n"
"examples:\n"
"  vmstat-bench list\n"
"  vmstat-bench run --variant cmpxchg-local --cpus 0-1 --threshold 125\n"
"  vmstat-bench run --variant atomic-global --cpus 0,1 -o results/atomic.csv\n"
"  vmstat-bench sweep configs/threshold.sweep -o results/thr\n"
"  vmstat-bench compare results/base results/patched --max-regression 2\n"
"  vmstat-bench plot results/thr\n"
"\n"
"exit status: 0 ok, 1 error (or a regression), 2 bad usage or input, 3 results\n"
"untrustworthy, 4 skipped (something this machine lacks; the message says\n"
"what), 5 inconclusive (compare, ab, bisect, history --check: the run could\n"
"not tell, or exact counts changed in a way no cost model vouches for).\n");
}

int main(int argc, char **argv)
{
	size_t i;

	vsb_meta_set_cmdline(argc, argv);
	if (argc < 2) {
		usage(stderr);
		return VSB_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return VSB_EXIT_OK;
	}
	for (i = 0; i < NCMDS; i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	vsb_err("unknown command '%s' (see vmstat-bench --help)", argv[1]);
	return VSB_EXIT_USAGE;
}
