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
};

/* Run, write DIR; returns the sweep's exit status (see docs/sweeps.md). */
int vsb_sweep_run(struct vsb_sweep *sw, const struct vsb_sweep_run_opts *ro);

#endif /* VSB_SWEEP_H */
