/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a sweep is run with: the run options a command fills in and the
 * limits on them, shared by the runner's public entry points (sweep.h)
 * and the files behind them (sweep_int.h).  A header of its own, so the
 * runner's helpers need not include the runner's public header.
 */
#ifndef VSB_SWEEP_OPTS_H
#define VSB_SWEEP_OPTS_H

#include <stdint.h>

#include "sweepfile.h"

struct vsb_sweep_run_opts {
	char dir[4096];
	long repeat;		/* > 0: overrides every point's repeat */
	int resume;		/* keep finished points, continue partial ones */
	uint64_t shuffle_seed;	/* 0: file order every round */
	int progress;		/* progress line on stderr */
	char monitor[128];	/* --monitor LIST[:INTERVAL], "" none (monitor.h) */
	/*
	 * Worker processes (`sweep --procs`, cmd_sweep_procs.c): a point's
	 * repetitions are spread over @procs processes run one after the
	 * other, process K running its share of every point's rounds
	 * (vsb_sweep_chunk_end) and handing the rest on in the points'
	 * partial files; each process is a run of its own to `compare`.
	 * @worker 0: one process does it all (@procs 1).
	 */
	long procs;
	long worker;		/* K of procs, 1-based; 0: not a worker */
	/*
	 * A worker's run should span this long (`sweep --run-min-ms`): a
	 * point whose repetition is shorter runs each wanted repetition
	 * several times (its run_reps, vsb_sweep_reps_total()).  0: every
	 * point as asked.
	 */
	long run_min_ms;
	uint64_t start_ns;	/* the sweep's start (vsb_now_ns), for its seconds */
};

/*
 * Worker processes a sweep spreads its repetitions over by default: 10,
 * so a point of 10 repetitions is 10 runs a side to compare's rank test.
 * 5 against 5 runs reach p < 0.01 only when every run of one side is
 * beyond every run of the other; 10 against 10 allow some overlap.  On a
 * 2-vCPU EPYC VM (2026-12-02), `SCALE=1.05 ci/power-ab --defaults 20`
 * against `PROCS=5 ...`, four rounds alternating: a 5% slowdown called in
 * 35 of 80 pairs against 25 of 80; A/A false regressions 0 of 20 on
 * quick.sweep and on variants.sweep; wall time 1.13x 4e42fac's.
 */
#define VSB_SWEEP_PROCS		10
#define VSB_SWEEP_PROCS_MAX	100

/*
 * Short repetitions, many to a run.  A repetition of quick.sweep's 1M
 * loops on one CPU lasts about 1 ms, under the 4 ms tick, and such
 * repetitions come in kinds a few % apart (a tick in it or not, a burst
 * of the host or not), so a run of one repetition is one draw from that
 * mixture and ten such runs a side rarely separate a 5% slowdown.  So in
 * a spread sweep, worker 1 times a point's first repetition and, where
 * it lasted under half of --run-min-ms (default VSB_SWEEP_RUN_MIN_MS),
 * runs every wanted repetition as many times as fit in that, at most
 * VSB_SWEEP_RUN_REPS_MAX, in a row after one warm-up (sweep.c's
 * round_reps): each run then holds several and `compare` tests their
 * medians.  Repetitions of 2.5 ms or more stay as asked: each already
 * spans most of the tick, and doubling a 4 ms one would cost more than
 * it buys.  On a 2-vCPU EPYC VM (2026-12-02), `SCALE=1.05 ci/power-ab
 * --defaults 20` in six rounds alternating with --run-min-ms 0 called a
 * 5% slowdown in 82 of 120 pairs against 38 of 120.
 */
#define VSB_SWEEP_RUN_MIN_MS	5
#define VSB_SWEEP_RUN_MIN_MS_MAX 1000
#define VSB_SWEEP_RUN_REPS_MAX	5

#endif /* VSB_SWEEP_OPTS_H */
