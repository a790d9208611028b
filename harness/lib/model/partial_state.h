/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sweep_partial_* lines of a sweep point's partial file
 * (partial_state.c): what a point's raw CSV holds only rounded or not
 * at all, so that `sweep --resume` rebuilds the very result that was
 * written (harness/sweep/partial.c checks the rebuild byte for byte).
 */
#ifndef VSB_PARTIAL_STATE_H
#define VSB_PARTIAL_STATE_H

#include "result.h"

struct vsb_csv;

/*
 * Into @r's metadata: sweep_partial_point (@point), _match (@match, what
 * the partial was made by), _rounds (@done of @reps), and _state, _drift,
 * _dist and _dist_sources, from @r's fields.
 */
void vsb_partial_state_write(struct vsb_result *r, const char *point,
			     const char *match, long done, long reps);

/*
 * The point and match lines of @c: NULL when they are @point's and
 * @match, else what differs (another point, another sweep file, other
 * options)
 */
const char *vsb_partial_point_read(const struct vsb_csv *c, const char *point,
				   const char *match);

/* The rounds line of @c into @k (done, 1 or more) and @reps: NULL, or what is wrong */
const char *vsb_partial_rounds_read(const struct vsb_csv *c, long *k, long *reps);

/* The state, drift and dist lines of @c into @r: NULL, or what is wrong */
const char *vsb_partial_state_read(const struct vsb_csv *c, struct vsb_result *r);

#endif /* VSB_PARTIAL_STATE_H */
