/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The charts of a result file, by what the file is: each function reads
 * the CSV at @csv, decides which of its charts the data supports, and
 * draws them into @outdir as PNG and SVG (plot.h).  0 or VSB_EXIT_*
 * after one vsb_err line; "wrote ..." lines on stdout.
 */
#ifndef VSB_CHARTS_H
#define VSB_CHARTS_H

/* sweep.csv (sweep -o DIR): threshold, variants, scaling, batch, drift, ... */
int vsb_chart_sweep(const char *csv, const char *outdir);
/* compare.csv (compare -o DIR): the regression chart */
int vsb_chart_compare(const char *csv, const char *outdir);
/* refresh.csv (refresh-model's output): the refresh chart */
int vsb_chart_refresh(const char *csv, const char *outdir);
/* hotplug-summary.csv (ci/hotplug-scaling.sh): the hotplug chart */
int vsb_chart_hotplug(const char *csv, const char *outdir);

#endif /* VSB_CHARTS_H */
