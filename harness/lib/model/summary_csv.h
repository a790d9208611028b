/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sweep point's summary CSV read back (summary_csv.c): whether a
 * summary on disk is one this tool wrote, for this point, as this run
 * would make it.
 */
#ifndef VSB_SUMMARY_CSV_H
#define VSB_SUMMARY_CSV_H

#include <stddef.h>

#include "sweepfile.h"

struct vsb_csv;

/*
 * The lines the sweep writes into a point's files (sweep/write.c) and
 * this reader checks: the point's id, and what it was made with
 * (point_match.c).
 */
#define VSB_SWEEP_POINT_KEY	"sweep_point"
#define VSB_SWEEP_MATCH_KEY	"sweep_match"

/*
 * @c, a summary CSV read with vsb_csv_read, against @p: NULL when it is
 * the writer's header and rows and @p's own point and match lines, else
 * what is wrong (said in @msg, @len, where it needs numbers).
 */
const char *vsb_summary_csv_check(const struct vsb_csv *c,
				  const struct vsb_sweep_point *p, char *msg,
				  size_t len);

/* @key is one point's own, not to be repeated in sweep-wide files */
int vsb_summary_point_own_key(const char *key);

/* @key, a point's summary metadata, holds for the sweep (sweep.csv's header) */
int vsb_summary_sweep_wide_key(const char *key);

/* @row of @c is the point's summary row: the "all" row, or the only one */
int vsb_summary_csv_row(const struct vsb_csv *c, size_t row);

#endif /* VSB_SUMMARY_CSV_H */
