/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What `plot` checks of its inputs before it creates OUTDIR or starts
 * gnuplot (charts_check.c): every refusal (exit 2, one line naming the
 * file and row) comes before any work, and a row gnuplot would choke on
 * (a cost that is not a positive finite number) never reaches it.
 */
#ifndef VSB_CHARTS_CHECK_H
#define VSB_CHARTS_CHECK_H

#include "compare_csv.h"	/* vsb_compare_drawable(), for charts.c */

struct vsb_csv;

/*
 * @path as the input named @name (sweep.csv, compare.csv, refresh.csv,
 * hotplug-summary.csv): readable as a CSV, with the columns its chart
 * reads, one unit, and finite positive costs.  0 or VSB_EXIT_USAGE.
 */
int vsb_chart_check(const char *name, const char *path);
/* a FILE.monitor.csv series, read as vsb_chart_monitor() will (charts_monitor.c) */
int vsb_chart_monitor_check(const char *path);

#endif /* VSB_CHARTS_CHECK_H */
