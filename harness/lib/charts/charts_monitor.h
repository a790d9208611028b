/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The chart of a monitor series (charts_monitor.c, plots/monitor.gp).
 */
#ifndef VSB_CHARTS_MONITOR_H
#define VSB_CHARTS_MONITOR_H

/*
 * FILE.monitor.csv -> OUTDIR/FILE.monitor.png and .svg (pages allocated
 * and freed per second, interrupts per second on the workers' CPUs,
 * steal/softirq/system % of the workers' CPUs, vmstat_update per second;
 * the timed windows shaded), with the derived tables FILE.monitor-rates.csv
 * and FILE.monitor-windows.csv beside them.  0 or VSB_EXIT_*.
 */
int vsb_chart_monitor(const char *csv, const char *outdir);
/*
 * The chart of every FILE.monitor.csv in @dir (a run's -o folder, a sweep's
 * points) into @outdir; *drawn: how many.  0 when there are none.
 */
int vsb_chart_monitors(const char *dir, const char *outdir, int *drawn);

#endif /* VSB_CHARTS_MONITOR_H */
