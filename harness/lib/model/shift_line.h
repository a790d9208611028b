/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare.csv's common_shift lines (shift_line.c): the median NEW/BASE
 * over the judged points and whether compare showed it, written by
 * lib/judge/compare_report.c, read back by the regression chart
 * (lib/charts/charts.c), which draws the shift where it was shown.
 */
#ifndef VSB_SHIFT_LINE_H
#define VSB_SHIFT_LINE_H

#include <stddef.h>
#include <stdio.h>

struct vsb_csv;

/* `# common_shift: R over N judged points` and `# common_shift_shown:` into @f */
void vsb_shift_lines_write(FILE *f, double shift, size_t n, int shown);

/* The shift of compare.csv @cc when it was shown and is a ratio; NAN else */
double vsb_shift_lines_read(const struct vsb_csv *cc);

#endif /* VSB_SHIFT_LINE_H */
