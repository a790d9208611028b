/* SPDX-License-Identifier: GPL-2.0 */
/*
 * FILE.monitor.csv, the series `--monitor` writes beside a result
 * (monitor_csv.c): its title line, its header and its rows, written by
 * the sampler (lib/machine/monitor.c) and read back by the chart
 * (lib/charts/charts_monitor.c) through the same definitions.
 */
#ifndef VSB_MONITOR_CSV_H
#define VSB_MONITOR_CSV_H

#include <stddef.h>
#include <stdio.h>

#define VSB_MONITOR_CSV_TITLE	"# vmstat-bench monitor: "
#define VSB_MONITOR_CSV_HEADER	"time,source,key,cpu,value"

struct vsb_monitor_row {
	double t;		/* seconds since the series' time 0 */
	char source[32];	/* vmstat, interrupts, ..., workers, window */
	char key[128];
	int cpu;		/* -1: not per CPU, or every CPU together */
	double value;
};

void vsb_monitor_row_write(FILE *f, double t, const char *source,
			   const char *key, int cpu, double value);
/* One data row (its newline kept or not) into @r: 0, or -1 when it is none */
int vsb_monitor_row_read(const char *line, struct vsb_monitor_row *r);

/*
 * @f, a series as the writer writes it: its title (after "# vmstat-bench
 * monitor: ") into @title, each of its rows to @row with @arg; 0, or -1
 * when its first line that is no comment is not the header.
 */
int vsb_monitor_csv_read(FILE *f, char *title, size_t tlen,
			 void (*row)(const struct vsb_monitor_row *r, void *arg),
			 void *arg);

#endif /* VSB_MONITOR_CSV_H */
