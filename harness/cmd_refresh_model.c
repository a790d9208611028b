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

int vsb_cmd_refresh_model(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "max-cpus", required_argument, NULL, 'c' },
		{ "nodes", required_argument, NULL, 'N' },
		{ "zones-per-node", required_argument, NULL, 'z' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	unsigned long nodes[8] = { 1, 4, 16 };
	long maxc = 1024, zpn = 1;
	int nn = 3, c, a, i;
	unsigned int n;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+c:N:z:h", lopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			printf("usage: vmstat-bench refresh-model [--max-cpus N] [--nodes A,B,...] [--zones-per-node Z]\n\n"
			       "Times a model of refresh_zone_stat_thresholds() while CPUs 1..N come online\n"
			       "(doubling), per node count and approach: every-online (today: a full refresh\n"
			       "at each online), deferred (the 004 patch: one refresh after bring-up) and\n"
			       "per-node (the review's proposal: per-zone values copied into the new CPU's\n"
			       "unit; all CPUs refreshed only when fls(online CPUs) changes).  Prints CSV:\n"
			       "iterations counted next to the thread's estimate nCPU*2*nodes*nCPU/2, and\n"
			       "seconds on this machine.\n\n"
			       "example:\n  vmstat-bench refresh-model --max-cpus 1024 --nodes 1,4,16\n");
			return VSB_EXIT_OK;
		case 'c':
			if (vsb_parse_long(optarg, &maxc) || maxc < 1 || maxc > 4096) {
				vsb_err("--max-cpus: '%s' is not 1..4096", optarg);
				return VSB_EXIT_USAGE;
			}
			break;
		case 'N':
			nn = vsb_parse_ulong_list(optarg, nodes, 8);
			for (i = 0; i < nn; i++)
				if (nodes[i] > 64)
					nn = -1;
			if (nn < 0) {
				vsb_err("--nodes: '%s' is not a list of up to 8 node counts (1..64)", optarg);
				return VSB_EXIT_USAGE;
			}
			break;
		case 'z':
			if (vsb_parse_long(optarg, &zpn) || zpn < 1 || zpn > 4) {
				vsb_err("--zones-per-node: '%s' is not 1..4", optarg);
				return VSB_EXIT_USAGE;
			}
			break;
		default:
			vsb_err("refresh-model: unknown option or missing value '%s' (see --help)",
				argv[optind - 1]);
			return VSB_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		vsb_err("refresh-model: unexpected argument '%s'", argv[optind]);
		return VSB_EXIT_USAGE;
	}
	printf("approach,nodes,ncpus,iterations,seed_estimate,seconds\n");
	for (i = 0; i < nn; i++)
		for (n = 1; n <= (unsigned int)maxc; n = n * 2 > (unsigned int)maxc &&
		     n != (unsigned int)maxc ? (unsigned int)maxc : n * 2) {
			for (a = 0; a < VSB_REFRESH_NR; a++) {
				struct vsb_refresh_result r;

				if (vsb_refresh_model(a, n, (unsigned int)nodes[i],
						      (unsigned int)zpn, &r)) {
					vsb_err("refresh-model: cannot model %u CPUs x %lu nodes",
						n, nodes[i]);
					return VSB_EXIT_ERROR;
				}
				printf("%s,%lu,%u,%llu,%llu,%.9g\n", vsb_refresh_names[a],
				       nodes[i], n, (unsigned long long)r.iterations,
				       (unsigned long long)vsb_refresh_seed_estimate(n, (unsigned int)nodes[i]),
				       r.seconds);
				fflush(stdout);
			}
			if (n == (unsigned int)maxc)
				break;
		}
	return VSB_EXIT_OK;
}
