/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sweep runner's entry points: every point of a sweep file
 * (lib/model/sweepfile.h) checked by the benches, run in interleaved
 * rounds, written to DIR.  Entry points only: the options they take are
 * sweep_opts.h's, and what the runner's own files share is sweep_int.h's,
 * which nothing outside harness/sweep/ includes.
 */
#ifndef VSB_SWEEP_H
#define VSB_SWEEP_H

#include "sweepfile.h"
#include "sweep_opts.h"

/*
 * Parse and expand like vsb_sweepfile_parse_buf(), every point checked by
 * the benches (vsb_run_opts_finish).
 */
int vsb_sweep_parse_buf(struct vsb_sweep *sw, const char *path, const char *buf,
			size_t len);
int vsb_sweep_parse_file(struct vsb_sweep *sw, const char *path);

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
