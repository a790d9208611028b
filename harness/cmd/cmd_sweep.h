/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `sweep`'s command line (cmd_sweep.c) and the processes it starts
 * (cmd_sweep_procs.c): --runs N whole sweeps, or one sweep's
 * repetitions over --procs worker processes.
 */
#ifndef VSB_CMD_SWEEP_H
#define VSB_CMD_SWEEP_H

#include "sweep.h"

#define VSB_SWEEP_RUNS_MAX 100

/* What the command line asked for besides the runner's own options. */
struct sweep_args {
	struct vsb_sweep_run_opts ro;
	int dry, force;
	long runs;		/* 0: one sweep into DIR itself; else --runs */
	char repeat[24];	/* as given, for the runs' command lines */
	char run_min[24];	/* --run-min-ms as in force, for the same */
	const char *db;		/* --db: the store DIR is imported into */
	long procs;		/* --procs; 0: not given (VSB_SWEEP_PROCS) */
	int exact;		/* --exact: every point counts instructions */
};

int sweep_runs(const struct sweep_args *a, const char *file);
long spread_procs(const struct sweep_args *a, const struct vsb_sweep *sw);
int sweep_spread(const struct sweep_args *a, const struct vsb_sweep *sw,
		 const char *file, long w);

#endif /* VSB_CMD_SWEEP_H */
