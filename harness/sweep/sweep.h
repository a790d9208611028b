/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sweep runner: every point of a sweep file (lib/sweepfile.h)
 * checked by the benches, run in interleaved rounds, written to DIR.
 */
#ifndef VSB_SWEEP_H
#define VSB_SWEEP_H

#include "sweepfile.h"

/*
 * Parse and expand like vsb_sweepfile_parse_buf(), every point checked by
 * the benches (vsb_run_opts_finish).
 */
int vsb_sweep_parse_buf(struct vsb_sweep *sw, const char *path, const char *buf,
			size_t len);
int vsb_sweep_parse_file(struct vsb_sweep *sw, const char *path);

struct vsb_sweep_run_opts {
	char dir[4096];
	long repeat;		/* > 0: overrides every point's repeat */
	int resume;		/* keep finished points, continue partial ones */
	uint64_t shuffle_seed;	/* 0: file order every round */
	int progress;		/* progress line on stderr */
	char monitor[128];	/* --monitor LIST[:INTERVAL], "" none (monitor.h) */
	/*
	 * Worker processes (`sweep --procs`, cmd_sweep.c): a point's
	 * repetitions are spread over @procs processes run one after the
	 * other, process K running its share of every point's rounds
	 * (vsb_sweep_chunk_end) and handing the rest on in the points'
	 * partial files; each process is a run of its own to `compare`.
	 * @worker 0: one process does it all (@procs 1).
	 */
	long procs;
	long worker;		/* K of procs, 1-based; 0: not a worker */
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
 * The repetitions of @p that worker processes 1..@k of @procs run
 * between them: (k * reps) / procs, all of them for a --trace point
 * (which keeps no partial to hand on: worker 1 runs it whole).
 */
long vsb_sweep_chunk_end(const struct vsb_sweep_point *p, long procs, long k);

/*
 * DIR made ready to write: refused (exit 2) when it, or a name the sweep
 * writes in it, is not ours to write; made; locked for this process and
 * those it starts (a spread sweep's workers).  vsb_sweep_run() does it;
 * the sweep that starts worker processes does it first.
 */
int vsb_sweep_open_dir(const struct vsb_sweep *sw, const struct vsb_sweep_run_opts *ro);

/* Run, write DIR; returns the sweep's exit status (see docs/sweeps.md). */
int vsb_sweep_run(struct vsb_sweep *sw, const struct vsb_sweep_run_opts *ro);

/*
 * `sweep --dry-run`'s listing on stdout: each point's id and parameters
 * (and why it skips), then how many repetitions, @runs and @procs.
 */
void vsb_sweep_print_plan(const struct vsb_sweep *sw, long runs, long procs);

#endif /* VSB_SWEEP_H */
