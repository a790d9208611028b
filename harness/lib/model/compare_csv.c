// SPDX-License-Identifier: GPL-2.0
/*
 * compare.csv, the table of verdicts `compare -o DIR` and `ab` write:
 * its column names and verdict words in one place, its writer and its
 * reader side by side, so that bisect, plot and the judge agree on it.
 */
#include <math.h>

#include "compare_csv.h"
#include "csvread.h"

int vsb_compare_drawable(const struct vsb_csv *c)
{
	int col[3] = { vsb_csv_col(c, "ratio"), vsb_csv_col(c, "ratio_ci_lo"),
		       vsb_csv_col(c, "ratio_ci_hi") };
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
