// SPDX-License-Identifier: GPL-2.0
/*
 * The threshold-refresh bench: the 004 thread's boot-time cost as a
 * benchmark point, so sweeps, statistics, comparisons and charts apply to
 * it like to any other bench.  One sample is one complete bring-up of
 * --model-cpus CPUs on --model-nodes nodes with the chosen --approach
 * (thresholds.c); ops are the per-CPU threshold stores it did, so the
 * cost per op is the cost of one store into another CPU's per-CPU unit.
 *
 * The sanity check compares the stores counted by the model with the
 * closed form of each approach: the model must do the loops it claims.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <string.h>

#include "benches.h"
#include "thresholds.h"

int vsb_refresh_run_user(const struct vsb_run_opts *o, struct vsb_result *r)
{
	int a = vsb_refresh_approach(o->approach);
	unsigned int ncpus = (unsigned int)o->model_cpus;
	unsigned int nodes = (unsigned int)o->model_nodes;
	uint64_t want = vsb_refresh_expected(a, ncpus, nodes, 1);
	struct vsb_refresh_result res;
	cpu_set_t set;
	long rep;

	CPU_ZERO(&set);
	CPU_SET(o->cpus.cpu[0], &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		vsb_err_opt("cpus", "--cpus: cannot pin to CPU %d", o->cpus.cpu[0]);
		return VSB_EXIT_ERROR;
	}
	r->nthreads = 1;
	strcpy(r->unit, "tsc");
	strcpy(r->event, "rdtscp");
	vsb_result_meta(r, "refresh_model",
			"%u CPUs brought online one by one, %u node(s), 1 zone per node, "
			"one per-CPU unit of 64 KiB per CPU", ncpus, nodes);
	vsb_result_meta(r, "refresh_seed_estimate", "%llu iterations (nCPU * 2 * nodes * nCPU/2)",
			(unsigned long long)vsb_refresh_seed_estimate(ncpus, nodes));
	r->sanity_ok = 1;
	snprintf(r->sanity, sizeof(r->sanity), "ok: %llu threshold stores per bring-up, as %s must do",
		 (unsigned long long)want, o->approach);
	for (rep = -o->warmup; rep < o->repeat && !vsb_interrupted; rep++) {
		struct vsb_sample s;

		if (vsb_refresh_model(a, ncpus, nodes, 1, &res)) {
			vsb_err_opt("model-cpus", "--model-cpus: cannot map %u per-CPU units", ncpus);
			return VSB_EXIT_ERROR;
		}
		if (res.iterations != want) {
			r->sanity_ok = 0;
			snprintf(r->sanity, sizeof(r->sanity),
				 "FAILED: %s did %llu stores, the closed form says %llu",
				 o->approach, (unsigned long long)res.iterations,
				 (unsigned long long)want);
		}
		if (rep < 0)
			continue;
		memset(&s, 0, sizeof(s));
		s.cpu = o->cpus.cpu[0];
		s.rep = (unsigned int)rep;
		s.ops = res.iterations;
		s.elapsed = res.tsc;
		s.ns = res.seconds * 1e9;
		vsb_result_add(r, &s);
	}
	if (vsb_interrupted) {
		vsb_err("interrupted: no result written");
		return VSB_EXIT_ERROR;
	}
	r->applied = r->counted = (long long)want;
	return 0;
}
