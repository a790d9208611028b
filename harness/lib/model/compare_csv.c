// SPDX-License-Identifier: GPL-2.0
/*
 * compare.csv, the table of verdicts `compare -o DIR` and `ab` write:
 * its column names and verdict words in one place, its writer and its
 * reader side by side, so that the judge that writes it and bisect and
 * plot that read it back agree on it.  The reader takes a column by its
 * name, so a file from before a column was appended still reads (what
 * it lacks comes back empty), and only label and verdict are required:
 * without them a file is no compare.csv at all.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_csv.h"
#include "vsb.h"

/* enum vsb_compare_word <-> the word, the one table of them */
static const char *const words[VSB_CW_COUNT] = {
	[VSB_CW_UNKNOWN] = "?",
	[VSB_CW_SAME] = "same",
	[VSB_CW_SLOWER] = "slower",
	[VSB_CW_FASTER] = "faster",
	[VSB_CW_CHANGED] = "changed",
	[VSB_CW_INCONCLUSIVE] = "inconclusive",
	[VSB_CW_FEW_RUNS] = "few-runs",
	[VSB_CW_ONE_SWEEP] = "one-sweep",
	[VSB_CW_NO_MODEL] = "no-model",
	[VSB_CW_MOVED] = "moved",
	[VSB_CW_DISTURBED] = "disturbed",
	[VSB_CW_ONLY_BASE] = "only-base",
	[VSB_CW_ONLY_NEW] = "only-new",
};

/* same's word before "inconclusive" was split from it, still read */
#define OLD_SAME	"no-change"

/* the columns after the parameter columns, in the order written */
static const char *const tail_cols[] = {
	VSB_CMPCOL_UNIT, VSB_CMPCOL_N_BASE, VSB_CMPCOL_N_NEW,
	VSB_CMPCOL_MEDIAN_BASE, VSB_CMPCOL_MEDIAN_NEW, VSB_CMPCOL_RATIO,
	VSB_CMPCOL_RATIO_CI_LO, VSB_CMPCOL_RATIO_CI_HI, VSB_CMPCOL_P,
	VSB_CMPCOL_EXACT, VSB_CMPCOL_NOISE_PCT, VSB_CMPCOL_VERDICT,
	VSB_CMPCOL_REGRESSION, VSB_CMPCOL_RUNS_BASE, VSB_CMPCOL_RUNS_NEW,
	VSB_CMPCOL_BETWEEN_CV, VSB_CMPCOL_TEST, VSB_CMPCOL_MDE_PCT,
	VSB_CMPCOL_RULE, VSB_CMPCOL_CHANGE, VSB_CMPCOL_WHY, VSB_CMPCOL_P_ADJ,
};

const char *vsb_compare_word(enum vsb_compare_word w)
{
	return (unsigned int)w < VSB_CW_COUNT ? words[w] : words[VSB_CW_UNKNOWN];
}

enum vsb_compare_word vsb_compare_word_of(const char *word)
{
	int w;

	for (w = VSB_CW_UNKNOWN + 1; w < VSB_CW_COUNT; w++)
		if (!strcmp(word, words[w]))
			return w;
	return strcmp(word, OLD_SAME) ? VSB_CW_UNKNOWN : VSB_CW_SAME;
}

void vsb_compare_csv_header(FILE *f, const char *const *params, size_t nparams)
{
	size_t k;

	fputs(VSB_CMPCOL_INDEX "," VSB_CMPCOL_LABEL, f);
	for (k = 0; k < nparams; k++)
		fprintf(f, ",%s", params[k]);
	for (k = 0; k < sizeof(tail_cols) / sizeof(tail_cols[0]); k++)
		fprintf(f, ",%s", tail_cols[k]);
	fputc('\n', f);
}

/*
 * ",CELL", quoted where it holds a comma.  Our writers never put one in
 * a cell, but the reader takes a quoted cell (a file through a
 * spreadsheet), and such a value written bare would split the row for
 * every reader after, the chart's included.  A cell the reader took
 * quoted has no quote inside (its quotes end it), so quoting is enough.
 */
static void put_cell(FILE *f, const char *s)
{
	fprintf(f, strchr(s, ',') ? ",\"%s\"" : ",%s", s);
}

/* ",%.3g" of @v, or "," alone for NAN: a figure unknown or not judged */
static void put_maybe(FILE *f, const char *fmt, double v)
{
	fputc(',', f);
	if (!isnan(v))
		fprintf(f, fmt, v);
}

void vsb_compare_csv_row(FILE *f, const struct vsb_compare_row *r, size_t nparams)
{
	size_t k;

	fprintf(f, "%zu", r->index);
	put_cell(f, r->label);
	for (k = 0; k < nparams; k++)
		put_cell(f, r->params[k]);
	fprintf(f, ",%s,%zu,%zu,%.6g,%.6g,%.6g,%.6g,%.6g,%.4g,%d,%.3g,%s,%d",
		r->unit, r->n_base, r->n_new, r->median_base, r->median_new,
		r->ratio, r->ratio_ci_lo, r->ratio_ci_hi, r->p, r->exact,
		r->noise_pct, vsb_compare_word(r->verdict), r->regression);
	fprintf(f, ",%zu,%zu", r->runs_base, r->runs_new);
	put_maybe(f, "%.3g", r->between_cv_pct);
	fprintf(f, ",%s", r->test);
	put_maybe(f, "%.3g", r->mde_pct);
	fprintf(f, ",%s", r->rule);
	put_cell(f, r->change);
	put_cell(f, r->why);
	put_maybe(f, "%.4g", r->p_adj);
	fputc('\n', f);
}

/* The cells of one row, each found by its column's name (-1: absent). */
struct cols {
	int index, label, unit, n_base, n_new, mb, mn, ratio, lo, hi, p, exact;
	int noise, verdict, regression, runs_base, runs_new, between, test, mde;
	int rule, change, why, p_adj;
};

static void find_cols(const struct vsb_csv *c, struct cols *k)
{
	k->index = vsb_csv_col(c, VSB_CMPCOL_INDEX);
	k->label = vsb_csv_col(c, VSB_CMPCOL_LABEL);
	k->unit = vsb_csv_col(c, VSB_CMPCOL_UNIT);
	k->n_base = vsb_csv_col(c, VSB_CMPCOL_N_BASE);
	k->n_new = vsb_csv_col(c, VSB_CMPCOL_N_NEW);
	k->mb = vsb_csv_col(c, VSB_CMPCOL_MEDIAN_BASE);
	k->mn = vsb_csv_col(c, VSB_CMPCOL_MEDIAN_NEW);
	k->ratio = vsb_csv_col(c, VSB_CMPCOL_RATIO);
	k->lo = vsb_csv_col(c, VSB_CMPCOL_RATIO_CI_LO);
	k->hi = vsb_csv_col(c, VSB_CMPCOL_RATIO_CI_HI);
	k->p = vsb_csv_col(c, VSB_CMPCOL_P);
	k->exact = vsb_csv_col(c, VSB_CMPCOL_EXACT);
	k->noise = vsb_csv_col(c, VSB_CMPCOL_NOISE_PCT);
	k->verdict = vsb_csv_col(c, VSB_CMPCOL_VERDICT);
	k->regression = vsb_csv_col(c, VSB_CMPCOL_REGRESSION);
	k->runs_base = vsb_csv_col(c, VSB_CMPCOL_RUNS_BASE);
	k->runs_new = vsb_csv_col(c, VSB_CMPCOL_RUNS_NEW);
	k->between = vsb_csv_col(c, VSB_CMPCOL_BETWEEN_CV);
	k->test = vsb_csv_col(c, VSB_CMPCOL_TEST);
	k->mde = vsb_csv_col(c, VSB_CMPCOL_MDE_PCT);
	k->rule = vsb_csv_col(c, VSB_CMPCOL_RULE);
	k->change = vsb_csv_col(c, VSB_CMPCOL_CHANGE);
	k->why = vsb_csv_col(c, VSB_CMPCOL_WHY);
	k->p_adj = vsb_csv_col(c, VSB_CMPCOL_P_ADJ);
}

static const char *text(const struct vsb_csv *c, size_t r, int col)
{
	const char *s = col >= 0 ? vsb_csv_cell(c, r, col) : NULL;

	return s ? s : "";
}

static double num(const struct vsb_csv *c, size_t r, int col)
{
	return col >= 0 ? vsb_csv_num(c, r, col) : NAN;
}

/* a count or flag in lib/base's integer syntax; 0 when absent or not one */
static long whole(const struct vsb_csv *c, size_t r, int col)
{
	long v;

	return col >= 0 && !vsb_parse_long(text(c, r, col), &v) && v >= 0 ? v : 0;
}

static void read_row(const struct vsb_csv *c, const struct cols *k, size_t i,
		     struct vsb_compare_row *w)
{
	w->index = whole(c, i, k->index);
	w->label = text(c, i, k->label);
	w->unit = text(c, i, k->unit);
	w->n_base = whole(c, i, k->n_base);
	w->n_new = whole(c, i, k->n_new);
	w->median_base = num(c, i, k->mb);
	w->median_new = num(c, i, k->mn);
	w->ratio = num(c, i, k->ratio);
	w->ratio_ci_lo = num(c, i, k->lo);
	w->ratio_ci_hi = num(c, i, k->hi);
	w->p = num(c, i, k->p);
	w->exact = whole(c, i, k->exact);
	w->noise_pct = num(c, i, k->noise);
	w->verdict_word = text(c, i, k->verdict);
	w->verdict = vsb_compare_word_of(w->verdict_word);
	w->regression = whole(c, i, k->regression);
	w->runs_base = whole(c, i, k->runs_base);
	w->runs_new = whole(c, i, k->runs_new);
	w->between_cv_pct = num(c, i, k->between);
	w->test = text(c, i, k->test);
	w->mde_pct = num(c, i, k->mde);
	w->rule = text(c, i, k->rule);
	w->change = text(c, i, k->change);
	w->why = text(c, i, k->why);
	w->p_adj = num(c, i, k->p_adj);
}

int vsb_compare_csv_read(const char *path, struct vsb_compare_file *f)
{
	struct cols k;
	size_t i;

	memset(f, 0, sizeof(*f));
	if (vsb_csv_read(path, &f->csv))
		return VSB_EXIT_ERROR;
	find_cols(&f->csv, &k);
	if (k.label < 0 || k.verdict < 0) {
		vsb_err("%s: no label or verdict column: not a compare.csv", path);
		vsb_csv_free(&f->csv);
		return VSB_EXIT_ERROR;
	}
	f->rows = vsb_zalloc((f->csv.nrows + 1) * sizeof(*f->rows));
	for (i = 0; i < f->csv.nrows; i++)
		read_row(&f->csv, &k, i, &f->rows[i]);
	f->n = f->csv.nrows;
	return 0;
}

void vsb_compare_csv_free(struct vsb_compare_file *f)
{
	free(f->rows);
	vsb_csv_free(&f->csv);
	memset(f, 0, sizeof(*f));
}

int vsb_compare_drawable(const struct vsb_csv *c)
{
	int col[3] = { vsb_csv_col(c, VSB_CMPCOL_RATIO),
		       vsb_csv_col(c, VSB_CMPCOL_RATIO_CI_LO),
		       vsb_csv_col(c, VSB_CMPCOL_RATIO_CI_HI) };
	size_t row, k;

	for (row = 0; row < c->nrows; row++) {
		for (k = 0; k < 3 && col[k] >= 0; k++) {
			double v = vsb_csv_num(c, row, col[k]);

			if (!isfinite(v) || v <= 0)
				break;
		}
		if (k == 3)
			return 1;
	}
	return 0;
}
