/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The benches the CLI knows, where each can run, and how to run it.
 */
#ifndef VSB_BENCHES_H
#define VSB_BENCHES_H

#include "bench/variants.h"
#include "result.h"

#define VSB_SIDE_LIVE	0x4u	/* the running kernel's own paths, from user space */

#define VSB_BENCH_VARIANTS 0x1u	/* takes --variant */

struct vsb_bench {
	const char *name;
	unsigned int sides;
	unsigned int flags;
	const char *desc;
	int (*run_user)(const struct vsb_run_opts *o, struct vsb_result *r);
	int (*run_kmod)(const struct vsb_run_opts *o, struct vsb_result *r);
	/*
	 * The bench's own options, once the backend is chosen (last of
	 * vsb_bench_check); NULL when it has none.  As stress-ng's
	 * stressors carry supported(): the table, not opts.c, knows.
	 */
	int (*check)(const struct vsb_bench *b, struct vsb_run_opts *o);
	/*
	 * Which of the options that only some benches read this one reads
	 * (VSB_BENCH_OWN_OPTS in benches.c), space-separated; "" for none.
	 * Any other of them given is refused: it would change nothing and
	 * still enter the point's key, so compare could not match it.
	 */
	const char *takes;
};

extern const struct vsb_bench vsb_benches[];
extern const size_t vsb_bench_count;

const struct vsb_bench *vsb_bench_find(const char *name);
int vsb_bench_check(const struct vsb_bench *b, struct vsb_run_opts *o);
/* check.c: the whole option set, before anything runs */
int vsb_run_opts_finish(struct vsb_run_opts *o);
int vsb_bench_run(const struct vsb_run_opts *o, struct vsb_result *r);

/* counter_user.c */
int vsb_counter_run_user(const struct vsb_run_opts *o, struct vsb_result *r);
/* drift.c: --fold against --variant */
int vsb_counter_check(const struct vsb_bench *b, struct vsb_run_opts *o);
/* refresh_bench.c */
int vsb_refresh_run_user(const struct vsb_run_opts *o, struct vsb_result *r);

/* kstat.c: the running kernel's own statistics functions, in the module */
int vsb_kstat_check(const struct vsb_bench *b, struct vsb_run_opts *o);
int vsb_kstat_run_kmod(const struct vsb_run_opts *o, struct vsb_result *r);

/* stat_refresh.c: vm.stat_refresh, the kernel's whole fold, timed */
int vsb_stat_refresh_check(const struct vsb_bench *b, struct vsb_run_opts *o);
int vsb_stat_refresh_run(const struct vsb_run_opts *o, struct vsb_result *r);

/* live.c: the running kernel's page-fault and mmap paths, from user space */

int vsb_live_pagefault_run(const struct vsb_run_opts *o, struct vsb_result *r);
int vsb_live_mmap_run(const struct vsb_run_opts *o, struct vsb_result *r);
int vsb_live_check(const struct vsb_bench *b, struct vsb_run_opts *o);
/* the 0-day regressions' benches, on the live runner (live.h) */
int vsb_spawn_check(const struct vsb_bench *b, struct vsb_run_opts *o);
int vsb_spawn_run(const struct vsb_run_opts *o, struct vsb_result *r);
int vsb_fallocate_check(const struct vsb_bench *b, struct vsb_run_opts *o);
int vsb_fallocate_run(const struct vsb_run_opts *o, struct vsb_result *r);
int vsb_memcg_stat_check(const struct vsb_bench *b, struct vsb_run_opts *o);
int vsb_memcg_stat_run(const struct vsb_run_opts *o, struct vsb_result *r);
int vsb_isolated_check(const struct vsb_bench *b, struct vsb_run_opts *o);
int vsb_isolated_run(const struct vsb_run_opts *o, struct vsb_result *r);

#endif /* VSB_BENCHES_H */
