/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare.csv, the table `compare -o DIR` and `ab` write (compare_csv.c):
 * its column names and verdict words defined once, the header and rows
 * written, and the rows read back by name for bisect and plot.
 */
#ifndef VSB_COMPARE_CSV_H
#define VSB_COMPARE_CSV_H

#include <stddef.h>
#include <stdio.h>

#include "csvread.h"

/*
 * The columns, by name: index and label, the points' parameter columns
 * (the sweep's, whatever they are), then the rest in this order.
 */
#define VSB_CMPCOL_INDEX	"index"
#define VSB_CMPCOL_LABEL	"label"
#define VSB_CMPCOL_UNIT		"unit"
#define VSB_CMPCOL_N_BASE	"n_base"
#define VSB_CMPCOL_N_NEW	"n_new"
#define VSB_CMPCOL_MEDIAN_BASE	"median_base"
#define VSB_CMPCOL_MEDIAN_NEW	"median_new"
#define VSB_CMPCOL_RATIO	"ratio"
#define VSB_CMPCOL_RATIO_CI_LO	"ratio_ci_lo"
#define VSB_CMPCOL_RATIO_CI_HI	"ratio_ci_hi"
#define VSB_CMPCOL_P		"p"
#define VSB_CMPCOL_EXACT	"exact"
#define VSB_CMPCOL_NOISE_PCT	"noise_pct"
#define VSB_CMPCOL_VERDICT	"verdict"
#define VSB_CMPCOL_REGRESSION	"regression"
#define VSB_CMPCOL_RUNS_BASE	"runs_base"
#define VSB_CMPCOL_RUNS_NEW	"runs_new"
#define VSB_CMPCOL_BETWEEN_CV	"between_cv_pct"
#define VSB_CMPCOL_TEST		"test"
#define VSB_CMPCOL_MDE_PCT	"mde_pct"
#define VSB_CMPCOL_RULE		"rule"
#define VSB_CMPCOL_CHANGE	"change"
#define VSB_CMPCOL_WHY		"why"
#define VSB_CMPCOL_P_ADJ	"p_adj"

/*
 * The verdict words.  VSB_CW_UNKNOWN is a word this version does not
 * know (a newer compare's): read back, it decides nothing.
 */
enum vsb_compare_word {
	VSB_CW_UNKNOWN,
	VSB_CW_SAME,		/* the CI inside 1 +- max_regression_pct */
	VSB_CW_SLOWER,
	VSB_CW_FASTER,
	VSB_CW_CHANGED,		/* exact: insn moved, no model says which way */
	VSB_CW_INCONCLUSIVE,
	VSB_CW_FEW_RUNS,	/* not judged, and why: */
	VSB_CW_ONE_SWEEP,
	VSB_CW_NO_MODEL,
	VSB_CW_MOVED,
	VSB_CW_DISTURBED,
	VSB_CW_ONLY_BASE,
	VSB_CW_ONLY_NEW,
	VSB_CW_COUNT
};

/* the word compare writes for @w ("?" for VSB_CW_UNKNOWN) */
const char *vsb_compare_word(enum vsb_compare_word w);
/*
 * @word read back: its enum, "no-change" (the word for same before
 * inconclusive was split from it) as VSB_CW_SAME, any other as
 * VSB_CW_UNKNOWN.
 */
enum vsb_compare_word vsb_compare_word_of(const char *word);

/*
 * One row, as written and as read back.  Strings point into the
 * caller's data when writing, into the file read when reading.  A
 * number written empty (unknown, not judged) is NAN; one a file older
 * than its column lacks is NAN too, a string "".
 */
struct vsb_compare_row {
	size_t index;
	const char *label;
	const char *const *params;	/* the parameter cells (write only) */
	const char *unit;
	size_t n_base, n_new;
	double median_base, median_new, ratio, ratio_ci_lo, ratio_ci_hi, p;
	int exact;
	double noise_pct;
	enum vsb_compare_word verdict;
	const char *verdict_word;	/* as read, a word unknown here too */
	int regression;
	size_t runs_base, runs_new;
	double between_cv_pct, mde_pct;	/* NAN: written empty */
	const char *test, *rule, *change, *why;
	double p_adj;			/* NAN: written empty */
};

/* the header row: index, label, the @nparams @params, then the rest */
void vsb_compare_csv_header(FILE *f, const char *const *params, size_t nparams);
/* one row under that header, its @nparams parameter cells from @r->params */
void vsb_compare_csv_row(FILE *f, const struct vsb_compare_row *r, size_t nparams);

/* A compare.csv read back: the rows, and the file they point into. */
struct vsb_compare_file {
	struct vsb_csv csv;
	struct vsb_compare_row *rows;
	size_t n;
};

/*
 * @path read: 0, or VSB_EXIT_ERROR after one line naming the file (it
 * cannot be read, or has no label or verdict column).  Free with
 * vsb_compare_csv_free.
 */
int vsb_compare_csv_read(const char *path, struct vsb_compare_file *f);
void vsb_compare_csv_free(struct vsb_compare_file *f);

/*
 * 1 when a row of compare.csv @c has a ratio and CI, all positive and
 * finite: what the regression chart's axis is made from (gnuplot's
 * stats fail on none).  Only compare.csv is checked this way.
 */
int vsb_compare_drawable(const struct vsb_csv *c);

#endif /* VSB_COMPARE_CSV_H */
