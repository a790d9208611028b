// SPDX-License-Identifier: GPL-2.0
/*
 * Charts of a sweep.csv, a compare.csv, refresh-model's and the hotplug
 * script's tables.  The charts themselves are plots/<chart>.gp; they
 * read the CSV and nothing else, so a user can rerun or restyle them by
 * hand.  This file decides which charts a result supports (a threshold
 * chart needs more than one threshold, ...) and hands each script the
 * lists it iterates over (core counts, variants), which gnuplot cannot
 * collect from a CSV by itself.  Each sweep chart is its own builder
 * (charts_sweep.c, charts_live.c); the table below is their order.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "charts.h"
#include "result_cells.h"
#include "charts_check.h"
#include "compare_csv.h"
#include "charts_int.h"
#include "csvread.h"
#include "plot.h"
#include "shift_line.h"
#include "vsb.h"

/* 0, or VSB_EXIT_USAGE when the file lacks the columns every chart reads */
static int sweep_columns(struct vsb_sweep_charts *s)
{
	const struct vsb_csv *c = &s->csv;
	struct vsb_pcols *k = &s->k;

	k->thr = vsb_csv_col(c, "threshold");
	k->var = vsb_csv_col(c, "variant");
	k->nth = vsb_csv_col(c, "nthreads");
	k->bits = vsb_csv_col(c, "diff_bits");
	k->batch = vsb_csv_col(c, "batch");
	k->unit = vsb_csv_col(c, "unit");
	k->ops = vsb_csv_col(c, "ops_per_sec_median");
	k->med = vsb_csv_col(c, "median");
	k->cihi = vsb_csv_col(c, "ci_hi");
	k->bench = vsb_csv_col(c, "bench");
	k->backend = vsb_csv_col(c, "backend");
	k->sysctl = vsb_csv_col(c, "sysctl");
	k->fold = vsb_csv_col(c, "fold");
	k->fival = vsb_csv_col(c, "fold_interval_us");
	k->quiet = vsb_csv_col(c, "quiet_workers");
	k->drift = vsb_csv_col(c, "drift");
	k->dmax = vsb_csv_col(c, "drift_max");
	k->smax = vsb_csv_col(c, "stale_max_us");
	if (k->thr < 0 || k->var < 0 || k->nth < 0 || k->bits < 0 || k->batch < 0 ||
	    k->unit < 0 || k->ops < 0 || k->med < 0 || k->cihi < 0 ||
	    vsb_csv_col(c, "ci_lo") < 0) {
		vsb_err("%s: missing columns (threshold, variant, nthreads, ci_lo, ...): "
			"not a sweep.csv of this version", s->csvpath);
		return VSB_EXIT_USAGE;
	}
	return 0;
}

/* 0, or VSB_EXIT_USAGE for a sweep in several units; sets multib */
static int sweep_units(struct vsb_sweep_charts *s, struct vsb_strset *units)
{
	const struct vsb_csv *c = &s->csv;
	struct vsb_strset backends = { 0 };
	size_t r;

	for (r = 0; r < c->nrows; r++) {
		vsb_strset_add(units, vsb_csv_cell(c, r, s->k.unit));
		if (vsb_chart_is_plain(c, &s->k, r))
			vsb_strset_add(&backends, vsb_chart_cell(c, r, s->k.backend));
	}
	if (units->n != 1) {
		vsb_err("%s: results in %zu different units: charts never mix units",
			s->csvpath, units->n);
		return VSB_EXIT_USAGE;
	}
	s->multib = backends.n > 1;
	return 0;
}

/* a threshold line needs two thresholds: blank the series with fewer */
static void keep_threshold_lines(struct vsb_sweep_charts *s,
				 const struct vsb_strset *serthr)
{
	size_t i, j;

	for (j = 0; j < s->series.n; j++) {
		size_t n = 0, len = strlen(s->series.v[j]);

		for (i = 0; i < serthr->n; i++)
			if (!strncmp(serthr->v[i], s->series.v[j], len) &&
			    serthr->v[i][len] == '|') {
				n++;
				vsb_strset_add(&s->thr, serthr->v[i] + len + 1);
			}
		if (n < 2)
			s->series.v[j][0] = '\0';
	}
}

/* the plain rows' variants, core counts, threshold series and batches */
static void sweep_collect(struct vsb_sweep_charts *s)
{
	const struct vsb_csv *c = &s->csv;
	const struct vsb_pcols *k = &s->k;
	struct vsb_strset serthr = { 0 };
	char key[128];
	size_t r;

	for (r = 0; r < c->nrows; r++) {
		const char *v = vsb_csv_cell(c, r, k->var);
		const char *t = vsb_csv_cell(c, r, k->thr);

		if (!vsb_chart_is_plain(c, k, r))
			continue;
		vsb_chart_vkey(c, k, r, s->multib, key, sizeof(key));
		vsb_strset_add(&s->vars, key);
		vsb_strset_add(&s->nth, vsb_csv_cell(c, r, k->nth));
		if (!strcmp(v, "percpu-counter")) {	/* its count is s32: no width */
			vsb_strset_add(&s->pcc_batch, vsb_csv_cell(c, r, k->batch));
			vsb_strset_add(&s->pcc_nth, vsb_csv_cell(c, r, k->nth));
			continue;
		}
		vsb_strset_add(&s->bits, vsb_csv_cell(c, r, k->bits));
		if (vsb_cell_long(t, 0) > 0 && strcmp(v, "this-cpu-add") &&
		    strcmp(v, "atomic-global")) {
			/* variants that never fold carry a threshold they ignore */
			char sr[200], st[264];

			snprintf(sr, sizeof(sr), "%s:%s:%s:%s",
				 vsb_csv_cell(c, r, k->nth), vsb_csv_cell(c, r, k->bits),
				 v, vsb_chart_cell(c, r, k->backend));
			vsb_strset_add(&s->series, sr);
			snprintf(st, sizeof(st), "%s|%s", sr, t);
			vsb_strset_add(&serthr, st);
		}
	}
	keep_threshold_lines(s, &serthr);
}

/*
 * The fixed threshold and batch, the sorted axes and the assignments
 * every chart gets.  The other charts hold threshold, batch and diff
 * width at their usual value: 125 (the s8 default), 32
 * (percpu_counter_batch, small machines) and 8 (the kernel's s8 diffs):
 * a sweep with an s16 threshold block beside a variants block drew each
 * variant twice, once per width, under one name.
 */
static void sweep_lists(struct vsb_sweep_charts *s, const struct vsb_strset *units)
{
	int newcols = s->k.bench >= 0 && s->k.fold >= 0 && s->k.quiet >= 0 &&
		      s->k.backend >= 0;
	char b[1024], cc[2048];

	/* NB: a most-common pointer into thr or pcc_batch, which are then
	 * sorted: it names whatever value the sort puts in that slot */
	s->fthr = s->thr.n ? vsb_strset_most_common(&s->thr) : "0";
	if (vsb_strset_has(&s->thr, "125"))
		s->fthr = "125";
	s->fbat = s->pcc_batch.n ? vsb_strset_most_common(&s->pcc_batch) : "0";
	if (vsb_strset_has(&s->pcc_batch, "32"))
		s->fbat = "32";
	s->fbits = s->bits.n ? vsb_strset_most_common(&s->bits) : "0";
	if (vsb_strset_has(&s->bits, "8"))
		s->fbits = "8";
	vsb_strset_sort_num(&s->nth);
	vsb_strset_sort_num(&s->thr);
	vsb_strset_sort_num(&s->pcc_batch);
	vsb_strset_sort_num(&s->pcc_nth);
	vsb_strset_join(&s->nth, b, sizeof(b));
	vsb_strset_join(&s->vars, cc, sizeof(cc));
	/* the scripts filter on the new columns only when the file has them */
	snprintf(s->lists, sizeof(s->lists), "unit='%s'; newcols=%d; multib=%d; "
		 "threads='%s'; variants='%s'; thr=%s; bat=%s; bits=%s; nvariants=%zu; ",
		 units->v[0], newcols, s->multib, b, cc, s->fthr, s->fbat,
		 s->fbits, s->vars.n);
}

/* in the order they are drawn; after an error none is */
static int (*const sweep_charts[])(struct vsb_sweep_charts *) = {
	vsb_chart_threshold, vsb_chart_variants, vsb_chart_scaling,
	vsb_chart_batch, vsb_chart_drift, vsb_chart_staleness,
	vsb_chart_live, vsb_chart_refresh_sweep,
};

int vsb_chart_sweep(const char *csvpath, const char *outdir)
{
	struct vsb_sweep_charts *s = vsb_zalloc(sizeof(*s));
	struct vsb_strset units = { 0 };
	size_t i;
	int ret;

	s->csvpath = csvpath;
	s->outdir = outdir;
	ret = vsb_csv_read(csvpath, &s->csv);
	if (ret)
		goto out_free;
	ret = sweep_columns(s);
	ret = ret ?: sweep_units(s, &units);
	if (ret)
		goto out_csv;
	sweep_collect(s);
	vsb_plot_title(vsb_csv_meta(&s->csv, "cpu_model"),
		       vsb_csv_meta(&s->csv, "kernel"), s->title, sizeof(s->title));
	sweep_lists(s, &units);
	for (i = 0; i < sizeof(sweep_charts) / sizeof(sweep_charts[0]) && !ret; i++)
		ret = sweep_charts[i](s);
	if (!s->made && !ret)
		printf("%s: nothing to chart: one threshold, one variant, one core "
		       "count and one batch (a chart needs an axis)\n", csvpath);
out_csv:
	vsb_csv_free(&s->csv);
out_free:
	free(s);
	return ret;
}

/* ---- tables that are not a sweep ---- */

/*
 * A CSV that is not a sweep: refresh-model's (refresh.csv) or the
 * hotplug script's (hotplug-summary.csv).  Checks the columns the
 * script reads, collects its series and draws it.
 */
static int plot_table(const char *csvpath, const char *outdir, const char *chart,
		      const char *const *need, const char *seriescol,
		      const char *seriesvar, const char *extra, const char *nometa)
{
	struct vsb_strset s = { 0 };
	char title[512], list[1024];
	struct vsb_csv csv;
	char *ex = NULL;
	size_t r, i;
	int ret, col;

	ret = vsb_csv_read(csvpath, &csv);
	if (ret)
		return ret;
	for (i = 0; need[i]; i++)
		if (vsb_csv_col(&csv, need[i]) < 0) {
			vsb_err("%s: no column '%s': not the CSV %s.gp reads", csvpath,
				need[i], chart);
			vsb_csv_free(&csv);
			return VSB_EXIT_USAGE;
		}
	if (!csv.nrows) {
		vsb_err("%s: no data rows", csvpath);
		vsb_csv_free(&csv);
		return VSB_EXIT_USAGE;
	}
	col = vsb_csv_col(&csv, seriescol);
	for (r = 0; r < csv.nrows; r++)
		vsb_strset_add(&s, vsb_csv_cell(&csv, r, col));
	vsb_strset_sort_num(&s);
	vsb_strset_join(&s, list, sizeof(list));
	vsb_plot_title(vsb_csv_meta(&csv, "cpu_model"), vsb_csv_meta(&csv, "kernel"),
		       title, sizeof(title));
	if (!vsb_csv_meta(&csv, "cpu_model") && !vsb_csv_meta(&csv, "kernel"))
		snprintf(title, sizeof(title), "%s", nometa);
	vsb_chart_cat(&ex, "%s='%s'; %s", seriesvar, list, extra);
	vsb_csv_free(&csv);
	ret = vsb_plot_chart(chart, csvpath, outdir, title, ex);
	free(ex);
	return ret;
}

int vsb_chart_refresh(const char *csvpath, const char *outdir)
{
	static const char *const need[] = { "approach", "nodes", "ncpus",
		"iterations", "seed_estimate", "seconds", NULL };
	struct vsb_csv csv;
	struct vsb_strset ap = { 0 };
	char extra[600], list[512];
	size_t r;
	int ret, col;

	/* the approaches in the order refresh-model prints them */
	ret = vsb_csv_read(csvpath, &csv);
	if (ret)
		return ret;
	col = vsb_csv_col(&csv, "approach");
	for (r = 0; col >= 0 && r < csv.nrows; r++)
		vsb_strset_add(&ap, vsb_csv_cell(&csv, r, col));
	vsb_csv_free(&csv);
	vsb_strset_join(&ap, list, sizeof(list));
	snprintf(extra, sizeof(extra), "approaches='%s';", list);
	return plot_table(csvpath, outdir, "refresh", need, "nodes", "nodes", extra,
			  "machine not recorded (add # cpu_model: and # kernel: lines)");
}

int vsb_chart_hotplug(const char *csvpath, const char *outdir)
{
	static const char *const need[] = { "vcpus", "nodes", "calls", "median_us",
		"mean_us", NULL };

	return plot_table(csvpath, outdir, "hotplug", need, "nodes", "nodes", "",
			  "guest kernel not recorded");
}

/*
 * The shift every judged point shares, where compare gave its note
 * (shift_line.c): "shift=R;" for the chart's dotted line.  "" otherwise.
 */
static void shift_var(const struct vsb_csv *cc, char *buf, size_t len)
{
	double r = vsb_shift_lines_read(cc);

	buf[0] = 0;
	if (!isnan(r))
		snprintf(buf, len, "shift=%.6g;", r);
}

/*
 * How the rank-judged points were judged, for the axis: alpha shared
 * over the family (a p_adj on each, compare_family.c) or a point's own.
 * Nothing where no point was judged by the rank test (exact counts).
 */
static void alpha_var(const struct vsb_csv *cc, char *buf, size_t len)
{
	int rule = vsb_csv_col(cc, VSB_CMPCOL_RULE), adj = vsb_csv_col(cc, VSB_CMPCOL_P_ADJ);
	const char *alpha = vsb_csv_meta(cc, "alpha");
	size_t r, ranked = 0, shared = 0;

	buf[0] = 0;
	for (r = 0; rule >= 0 && r < cc->nrows; r++) {
		if (strcmp(vsb_csv_cell(cc, r, rule), "rank"))
			continue;
		ranked++;
		shared += adj >= 0 && !isnan(vsb_csv_num(cc, r, adj));
	}
	if (!ranked || !alpha || !*alpha || strchr(alpha, '\''))
		return;
	if (shared > 1)
		snprintf(buf, len, "alphanote='alpha %s shared over %zu points "
			 "(Benjamini-Hochberg)';", alpha, shared);
	else
		snprintf(buf, len, "alphanote='alpha %s a point';", alpha);
}

/* 1 when every row is in insn: exact counts, drawn in their own words */
static int all_insn(const struct vsb_csv *cc)
{
	int col = vsb_csv_col(cc, VSB_CMPCOL_UNIT);
	size_t r;

	for (r = 0; col >= 0 && r < cc->nrows; r++)
		if (strcmp(vsb_csv_cell(cc, r, col), "insn"))
			return 0;
	return col >= 0 && cc->nrows;
}

int vsb_chart_compare(const char *path, const char *outdir)
{
	struct vsb_csv cc;
	char title[512], vars[192], shift[48], alpha[96];
	int ret;

	ret = vsb_csv_read(path, &cc);
	if (ret)
		return ret;
	/* plot refused such a file up front; compare gets here with one */
	if (!vsb_compare_drawable(&cc)) {
		vsb_warn("%s: no point has a ratio to draw: no regression chart", path);
		vsb_csv_free(&cc);
		return 0;
	}
	vsb_plot_title(vsb_csv_meta(&cc, "cpu_model"), vsb_csv_meta(&cc, "kernel"),
		       title, sizeof(title));
	shift_var(&cc, shift, sizeof(shift));
	alpha_var(&cc, alpha, sizeof(alpha));
	/* files before exact verdicts went through costs have no change column */
	snprintf(vars, sizeof(vars), "npoints=%zu;%s%s%s%s", cc.nrows, shift, alpha,
		 all_insn(&cc) ? "exact=1;" : "",
		 vsb_csv_col(&cc, VSB_CMPCOL_CHANGE) >= 0 ? "haschange=1;" : "");
	vsb_csv_free(&cc);
	return vsb_plot_chart("regression", path, outdir, title, vars);
}

