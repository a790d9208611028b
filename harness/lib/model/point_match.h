/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sweep_match line of a sweep point's files (point_match.c): what
 * they were made with, so `sweep --resume` reuses only what this run
 * would make.
 */
#ifndef VSB_POINT_MATCH_H
#define VSB_POINT_MATCH_H

#include <stddef.h>

#include "sweepfile.h"

/* "options=HASH repeat=R": what @p's reused files must have been made with */
void vsb_sweep_point_match(const struct vsb_sweep_point *p, char *buf, size_t len);

/*
 * @line, a file's sweep_match line, against what @p would write: 0 the
 * same; VSB_MATCH_REPEAT the same options, another repetition count (in
 * *@reps); VSB_MATCH_OPTIONS other options; VSB_MATCH_MALFORMED not a
 * line the writer above makes (the count in numbers.c's one integer
 * syntax: 04 is not 4).
 */
#define VSB_MATCH_REPEAT	1
#define VSB_MATCH_OPTIONS	2
#define VSB_MATCH_MALFORMED	3
int vsb_sweep_point_match_read(const char *line, const struct vsb_sweep_point *p,
			       long *reps);

#endif /* VSB_POINT_MATCH_H */
