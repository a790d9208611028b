// SPDX-License-Identifier: GPL-2.0
/*
 * The common shift in compare.csv: how far every judged point moved
 * together, and whether compare said so.  The chart draws it only where
 * compare gave its note, so a point's ratio reads against the whole
 * sweep's move.  A format of the suite's files: its writer and its
 * reader live here together.
 */
#include <math.h>
#include <string.h>

#include "csvread.h"
#include "shift_line.h"
#include "vsb.h"

void vsb_shift_lines_write(FILE *f, double shift, size_t n, int shown)
{
	fprintf(f, "# common_shift: %.4g over %zu judged point%s\n", shift, n,
		n == 1 ? "" : "s");
	fprintf(f, "# common_shift_shown: %s\n", shown ? "yes" : "no");
}

/*
 * A compare.csv from before the lines existed has no shift either.  R
 * in numbers.c's syntax of fractions, as the writer's %.4g writes a
 * ratio, followed by the writer's " over ".
 */
double vsb_shift_lines_read(const struct vsb_csv *cc)
{
	const char *shown = vsb_csv_meta(cc, "common_shift_shown");
	const char *val = vsb_csv_meta(cc, "common_shift");
	const char *end;
	double r;

	if (!shown || strcmp(shown, "yes") || !val)
		return NAN;
	end = vsb_scan_real(val, &r);
	return end && !strncmp(end, " over ", 6) && r > 0 ? r : NAN;
}
