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

#endif /* VSB_POINT_MATCH_H */
