/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sweep folder's points.txt (point_list.c): one line per point, its
 * id, its state and its parameters, tab-separated.  Written by the
 * sweep when it ends or is interrupted (harness/sweep/dir_files.c);
 * `compare` reads it back to load only the points that are done
 * (lib/judge/compare.c).
 */
#ifndef VSB_POINT_LIST_H
#define VSB_POINT_LIST_H

#include <stdio.h>

#include "sweepfile.h"

/* @p's state as points.txt and failed.txt say it */
const char *vsb_sweep_state_name(const struct vsb_sweep_point *p);

/* points.txt of @sw into @f: a comment line naming the columns, then the points */
void vsb_point_list_write(FILE *f, const struct vsb_sweep *sw);

/*
 * The id on line @lineno of points.txt @list (@line, cut here) when its
 * point is done; NULL when not, or when the line is bad (*@ret set then,
 * after one vsb_err line).
 */
const char *vsb_point_list_done(const char *list, size_t lineno, char *line,
				int *ret);

#endif /* VSB_POINT_LIST_H */
