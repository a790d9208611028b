/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the chart builders of charts*.c share and nobody else needs: small
 * string sets (the lists a script iterates over), a growing gnuplot
 * expression, the sweep.csv columns and row classes, and the state of
 * one sweep's charts (built once, read by every builder).
 */
#ifndef VSB_CHARTS_INT_H
#define VSB_CHARTS_INT_H

#include <stddef.h>

#include "csvread.h"

/* at most 64 distinct values of up to 63 characters: a chart's axis */
struct vsb_strset {
	size_t n;
	char v[64][64];
	size_t count[64];
};

void vsb_strset_add(struct vsb_strset *s, const char *v);
int vsb_strset_has(const struct vsb_strset *s, const char *v);
void vsb_strset_sort_num(struct vsb_strset *s);
void vsb_strset_join(const struct vsb_strset *s, char *buf, size_t len);
const char *vsb_strset_most_common(const struct vsb_strset *s);

/* append to a growing gnuplot expression; out of memory is fatal */
void vsb_chart_cat(char **buf, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The columns the choice needs.  Those appended later (bench, fold,
 * drift, ...) are -1 in an older sweep.csv, whose rows are then all
 * plain counter rows.
 */
struct vsb_pcols {
	int thr, var, nth, bits, batch, unit, ops, med, cihi;
	int bench, backend, sysctl, fold, fival, quiet, drift, dmax, smax;
};

const char *vsb_chart_cell(const struct vsb_csv *c, size_t r, int col);
int vsb_chart_is_plain(const struct vsb_csv *c, const struct vsb_pcols *k,
		       size_t r);
int vsb_chart_is_drift(const struct vsb_csv *c, const struct vsb_pcols *k,
		       size_t r);
int vsb_chart_is_quiet(const struct vsb_csv *c, const struct vsb_pcols *k,
		       size_t r);
void vsb_chart_vkey(const struct vsb_csv *c, const struct vsb_pcols *k,
		    size_t r, int multib, char *buf, size_t len);
int vsb_chart_fold_rank(const char *f);

/* One sweep.csv and what every chart of it starts from. */
struct vsb_sweep_charts {
	const char *csvpath, *outdir;
	struct vsb_csv csv;
	struct vsb_pcols k;
	char title[512];
	char lists[4096];	/* gnuplot assignments every chart gets */
	int multib;		/* plain rows from several backends */
	/* of the plain rows: variant keys, core counts, threshold-line
	 * series and their thresholds, percpu_counter batches and cores */
	struct vsb_strset vars, nth, series, thr, pcc_batch, pcc_nth, bits;
	/* the threshold, batch and diff width held fixed */
	const char *fthr, *fbat, *fbits;
	int made;		/* charts drawn (or meant to be) */
};

/*
 * The charts of a sweep, in the order they are drawn: each draws its
 * chart when the sweep has its axis; 0 or VSB_EXIT_*.
 */
int vsb_chart_threshold(struct vsb_sweep_charts *s);
int vsb_chart_variants(struct vsb_sweep_charts *s);
int vsb_chart_scaling(struct vsb_sweep_charts *s);
int vsb_chart_batch(struct vsb_sweep_charts *s);
int vsb_chart_drift(struct vsb_sweep_charts *s);
int vsb_chart_staleness(struct vsb_sweep_charts *s);
int vsb_chart_live(struct vsb_sweep_charts *s);
int vsb_chart_refresh_sweep(struct vsb_sweep_charts *s);

#endif /* VSB_CHARTS_INT_H */
