/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cost_host.h - the cost model's host row: which measured table it is
 * (cost_host.c).
 */
#ifndef VSB_COST_HOST_H
#define VSB_COST_HOST_H

/*
 * @spec as --costs takes it: NULL (this CPU's cached table, if any: a
 * bad one is warned of and left out), "none", or a cost table file.
 * 0, or VSB_EXIT_USAGE after one line when the file is not a cost table
 * or lacks a row.
 */
int vsb_host_costs_use(const char *spec);
/* "KEY (where)" or "none (why)": for metadata and summaries */
const char *vsb_host_costs_used(void);

#endif /* VSB_COST_HOST_H */
