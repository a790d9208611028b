/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `calibrate`'s two jobs: the harness floor (cmd_calibrate.c) and, with
 * --costs, the cost table of this CPU (cmd_calibrate_costs.c).
 */
#ifndef VSB_CMD_CALIBRATE_H
#define VSB_CMD_CALIBRATE_H

/* What --costs and its companions asked for. */
struct cal_costs_args {
	int costs;		/* --costs: measure the table */
	int kernel;		/* --kernel: the module's rows too */
	const char *out;	/* --costs-out FILE: a copy there too */
	const char *show;	/* --show-costs FILE: read, check, print */
};

/*
 * cmd_calibrate_kernel.c: whether the module's ops can be timed here as
 * this CPU's (loaded, with the primitive ops, not under TCG): 0, or
 * VSB_EXIT_SKIP after one line saying what this machine lacks.
 */
int vsb_calibrate_kernel_ready(void);
/* @t's kernel rows, over its tsc_per_cycle: 0 or an exit code after one line */
struct vsb_cost_table;
int vsb_calibrate_kernel_rows(struct vsb_cost_table *t, long cpu);

/* The table measured on @cpu, or shown: the command's exit status. */
int vsb_calibrate_costs(const struct cal_costs_args *a, long cpu);

#endif /* VSB_CMD_CALIBRATE_H */
