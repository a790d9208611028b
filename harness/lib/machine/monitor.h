/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Monitors during a run (`--monitor LIST[:INTERVAL]`, docs/monitors.md):
 * a sampler thread reads /proc (and the BPF tracer) every INTERVAL and
 * writes a long-format time series, FILE.monitor.csv beside the result
 * (time,source,key,cpu,value), with the benches' timed windows as rows
 * of source "window"; the figures that explain a cost (pages allocated
 * and freed per second, vmstat_update work, interrupts on the workers'
 * CPUs, steal) go into the result's metadata as monitor_* keys.
 *
 * monitor_spec.h (monitor_parse.c): the spec and the /proc text formats
 * (pure, unit tested on fixtures); monitor.c: the sampler, the file and
 * the summary.
 */
#ifndef VSB_MONITOR_H
#define VSB_MONITOR_H

#include <stdio.h>

#include "monitor_spec.h"
#include "vsb.h"

/* ---- monitor.c: one series per run or sweep point ---- */
struct vsb_monitor;
struct vsb_result;

/*
 * Check @spec, create @csv_path (as a temporary, struct vsb_outfile),
 * take the first sample and start the sampler: off the workers' CPUs
 * when the process may run elsewhere, else SCHED_IDLE (nice 19 when
 * refused).  *mp is NULL (and 0 returned) when @spec is "" (no monitor).
 * Sources this machine lacks are dropped with one warning each.
 * VSB_EXIT_* after one line; nothing is left behind on error.
 */
int vsb_monitor_start(struct vsb_monitor **mp, const char *spec,
		      const struct vsb_cpulist *workers, const char *csv_path);
/*
 * Stop the sampler, take the last sample, write the window rows and,
 * when @r is not NULL, the summary (monitor_* keys into @r's metadata)
 * and commit the file.  @r NULL: the run failed; the file is removed.
 * Frees @m (NULL is a no-op).  0 or VSB_EXIT_*.
 */
int vsb_monitor_stop(struct vsb_monitor *m, struct vsb_result *r);
/* The text output's footer: the monitor_* keys of @r, if any. */
void vsb_monitor_print_summary(const struct vsb_result *r, FILE *f);

#endif /* VSB_MONITOR_H */
