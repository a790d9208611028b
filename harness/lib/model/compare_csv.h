/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare.csv, the table `compare -o DIR` and `ab` write (compare_csv.c):
 * its column names and verdict words defined once, the header and rows
 * written, and the rows read back by name for bisect and plot.
 */
#ifndef VSB_COMPARE_CSV_H
#define VSB_COMPARE_CSV_H

struct vsb_csv;

/*
 * 1 when a row of compare.csv @c has a ratio and CI, all positive and
 * finite: what the regression chart's axis is made from (gnuplot's
 * stats fail on none).  Only compare.csv is checked this way.
 */
int vsb_compare_drawable(const struct vsb_csv *c);

#endif /* VSB_COMPARE_CSV_H */
