// SPDX-License-Identifier: GPL-2.0
/*
 * `vmstat-bench refresh-model`: what recomputing the stat thresholds at
 * every CPU online costs as machines grow (the 004 thread), per approach,
 * from the model in benches/thresholds.c.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "thresholds.h"
#include "vsb.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: vmstat-bench refresh-model [--max-cpus N] [--nodes A,B,...] [--zones-per-node Z]\n\n"
		"Times a model of refresh_zone_stat_thresholds() while CPUs 1..N come online\n"
		"(doubling), per node count and approach: every-online (today: a full refresh\n"
		"at each online), deferred (the 004 patch: one refresh after bring-up) and\n"
		"per-node (the review's proposal: per-zone values copied into the new CPU's\n"
		"unit; all CPUs refreshed only when fls(online CPUs) changes).  Prints CSV:\n"
		"iterations counted next to the thread's estimate nCPU*2*nodes*nCPU/2, and\n"
		"seconds on this machine.\n\n"
		"example:\n  vmstat-bench refresh-model --max-cpus 1024 --nodes 1,4,16\n");
}

struct rm_opts {
	unsigned long nodes[8];
	long maxc, zpn;
	int nn;
};

static int parse(int argc, char **argv, struct rm_opts *o)
{
	static const struct option lopts[] = {
		{ "max-cpus", required_argument, NULL, 'c' },
		{ "nodes", required_argument, NULL, 'N' },
		{ "zones-per-node", required_argument, NULL, 'z' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct vsb_getopt g = VSB_GETOPT("refresh-model", "+c:N:z:", lopts, usage,
					 argc, argv);
	const char *arg;
	int c, i;

	while ((c = vsb_getopt_next(&g, &arg)) > 0) {
		switch (c) {
		case 'c':
			if (vsb_parse_long(arg, &o->maxc) || o->maxc < 1 || o->maxc > 4096) {
				vsb_err("--max-cpus: '%s' is not 1..4096", arg);
				return VSB_EXIT_USAGE;
			}
			break;
		case 'N':
			o->nn = vsb_parse_ulong_list(arg, o->nodes, 8);
			for (i = 0; i < o->nn; i++)
				if (o->nodes[i] > 64)
					o->nn = -1;
			if (o->nn < 0) {
				vsb_err("--nodes: '%s' is not a list of up to 8 node counts (1..64)", arg);
				return VSB_EXIT_USAGE;
			}
			break;
		case 'z':
			if (vsb_parse_long(arg, &o->zpn) || o->zpn < 1 || o->zpn > 4) {
				vsb_err("--zones-per-node: '%s' is not 1..4", arg);
				return VSB_EXIT_USAGE;
			}
			break;
		}
	}
	if (c < 0)
		return c == VSB_GETOPT_HELP ? -1 : VSB_EXIT_USAGE;
	if (optind < argc) {
		vsb_err("refresh-model: unexpected argument '%s'", argv[optind]);
		return VSB_EXIT_USAGE;
	}
	return 0;
}

/* CPU counts 1, 2, 4, ... and the maximum itself */
static unsigned int next_ncpus(unsigned int n, unsigned int maxc)
{
	return n * 2 > maxc && n != maxc ? maxc : n * 2;
}

int vsb_cmd_refresh_model(int argc, char **argv)
{
	struct rm_opts o = { .nodes = { 1, 4, 16 }, .maxc = 1024, .zpn = 1, .nn = 3 };
	unsigned int n, maxc;
	int a, i, ret = parse(argc, argv, &o);

	if (ret)
		return ret < 0 ? VSB_EXIT_OK : ret;
	maxc = (unsigned int)o.maxc;
	printf("approach,nodes,ncpus,iterations,seed_estimate,seconds\n");
	for (i = 0; i < o.nn; i++)
		for (n = 1; n <= maxc; n = next_ncpus(n, maxc)) {
			for (a = 0; a < VSB_REFRESH_NR; a++) {
				struct vsb_refresh_result r;

				if (vsb_refresh_model(a, n, (unsigned int)o.nodes[i],
						      (unsigned int)o.zpn, &r)) {
					vsb_err("refresh-model: cannot model %u CPUs x %lu nodes",
						n, o.nodes[i]);
					return VSB_EXIT_ERROR;
				}
				printf("%s,%lu,%u,%llu,%llu,%.9g\n", vsb_refresh_names[a],
				       o.nodes[i], n, (unsigned long long)r.iterations,
				       (unsigned long long)vsb_refresh_seed_estimate(n,
						(unsigned int)o.nodes[i]),
				       r.seconds);
				fflush(stdout);
			}
			if (n == maxc)
				break;
		}
	return VSB_EXIT_OK;
}
