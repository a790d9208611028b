// SPDX-License-Identifier: GPL-2.0
/*
 * plot's inputs checked before anything is created (charts_check.h).
 *
 * The chart builders (charts*.c) check their input too, but only as
 * they draw: by then OUTDIR exists and earlier charts are written.  This
 * reads each input once up front with the same reader and refuses it
 * for what the builders or gnuplot would trip on: missing columns,
 * mixed units, and costs that are zero, negative, infinite or not a
 * number (a log scale of them is a raw gnuplot error at best, a
 * nonsense chart at worst).  Row numbers are data rows, 1-based.
 */
#define _GNU_SOURCE
#include <math.h>
#include <string.h>

#include "charts_check.h"
#include "compare_csv.h"
#include "csvread.h"
#include "vsb.h"

struct input_rule {
	const char *name;
	const char *const need[12];	/* columns the chart reads */
	const char *const cost[8];	/* of those and others: > 0, finite */
	int one_unit;
	/*
	 * "nan" is a cost not measured, as an empty cell is: compare writes
	 * it for the side a point lacks (only-base, only-new, disturbed), and
	 * common.gp tells gnuplot to skip it.
	 */
	int nan_unmeasured;
};

static const struct input_rule rules[] = {
	{ "sweep.csv",
	  { "threshold", "variant", "nthreads", "diff_bits", "batch", "unit",
	    "ops_per_sec_median", "median", "ci_lo", "ci_hi", NULL },
	  { "median", "ci_lo", "ci_hi", "ops_per_sec_median", "ns_per_op_median",
	    NULL }, 1, 0 },
	/* compare.csv's names are its codec's (compare_csv.h) */
	{ "compare.csv",
	  { VSB_CMPCOL_INDEX, VSB_CMPCOL_LABEL, VSB_CMPCOL_RATIO,
	    VSB_CMPCOL_RATIO_CI_LO, VSB_CMPCOL_RATIO_CI_HI, NULL },
	  { VSB_CMPCOL_MEDIAN_BASE, VSB_CMPCOL_MEDIAN_NEW, VSB_CMPCOL_RATIO,
	    VSB_CMPCOL_RATIO_CI_LO, VSB_CMPCOL_RATIO_CI_HI, NULL }, 0, 1 },
	{ "refresh.csv",
	  { "approach", "nodes", "ncpus", "iterations", "seed_estimate", "seconds",
	    NULL },
	  { "iterations", "seconds", NULL }, 0, 0 },
	{ "hotplug-summary.csv",
	  { "vcpus", "nodes", "calls", "median_us", "mean_us", NULL },
	  { "median_us", "mean_us", NULL }, 0, 0 },
};

/* The first cost cell that is not a positive finite number: 0, or 2. */
static int check_costs(const struct vsb_csv *c, const struct input_rule *r)
{
	size_t row, k;

	for (k = 0; r->cost[k]; k++) {
		int col = vsb_csv_col(c, r->cost[k]);

		for (row = 0; col >= 0 && row < c->nrows; row++) {
			const char *cell = vsb_csv_cell(c, row, col);
			double v = vsb_csv_num(c, row, col);

			/* an empty cell is "not measured" (one repetition: no CI) */
			if (!*cell || (isfinite(v) && v > 0) ||
			    (r->nan_unmeasured && !strcmp(cell, "nan")))
				continue;
			vsb_err("%s: row %zu: %s is %.40s, not a positive finite cost: "
				"refused, nothing drawn", c->path, row + 1, r->cost[k],
				cell);
			return VSB_EXIT_USAGE;
		}
	}
	return 0;
}

/*
 * Text cells go into gnuplot single-quoted strings (series names, tick
 * labels): a quote or backslash there would end the string and run the
 * rest as gnuplot code, so such a file is refused, not drawn.
 */
static int check_text(const struct vsb_csv *c)
{
	size_t row;
	int col;

	for (row = 0; row < c->nrows; row++)
		for (col = 0; col < (int)c->ncols; col++) {
			const char *cell = vsb_csv_cell(c, row, col);

			if (!strpbrk(cell, "'\"\\\n\r"))
				continue;
			vsb_err("%s: row %zu: %s holds a quote, backslash or line break: "
				"refused, nothing drawn (gnuplot would read it as code)",
				c->path, row + 1, c->cols[col]);
			return VSB_EXIT_USAGE;
		}
	return 0;
}

static int check_units(const struct vsb_csv *c)
{
	int col = vsb_csv_col(c, "unit");
	size_t row;

	for (row = 1; row < c->nrows; row++)
		if (strcmp(vsb_csv_cell(c, row, col), vsb_csv_cell(c, 0, col))) {
			vsb_err("%s: row %zu: unit %.40s, row 1 %.40s: charts never mix "
				"units", c->path, row + 1, vsb_csv_cell(c, row, col),
				vsb_csv_cell(c, 0, col));
			return VSB_EXIT_USAGE;
		}
	return 0;
}

int vsb_chart_check(const char *name, const char *path)
{
	const struct input_rule *r = NULL;
	struct vsb_csv c;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (!strcmp(rules[i].name, name))
			r = &rules[i];
	if (!r)
		return 0;
	ret = vsb_csv_read(path, &c);
	if (ret)
		return ret;
	for (i = 0; r->need[i] && !ret; i++)
		if (vsb_csv_col(&c, r->need[i]) < 0) {
			vsb_err("%s: no column '%s': not a %s of this version", path,
				r->need[i], name);
			ret = VSB_EXIT_USAGE;
		}
	if (!ret && !c.nrows) {
		vsb_err("%s: no data rows", path);
		ret = VSB_EXIT_USAGE;
	}
	ret = ret ?: check_costs(&c, r);
	if (!ret && r->nan_unmeasured && !vsb_compare_drawable(&c)) {
		vsb_err("%s: no point has a ratio to draw (each one-sided or disturbed): "
			"refused, nothing drawn", path);
		ret = VSB_EXIT_USAGE;
	}
	ret = ret ?: check_text(&c);
	if (!ret && r->one_unit)
		ret = check_units(&c);
	vsb_csv_free(&c);
	return ret;
}
