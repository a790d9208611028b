// SPDX-License-Identifier: GPL-2.0
/*
 * The shift the judged points share: the median NEW/BASE over every point
 * compare judged (slower, faster, same, inconclusive).  On the development VM the
 * host moves a whole sweep at once, by 5 to 10% between two sweeps a
 * minute apart (docs/trust.md), and a point's verdict then says as much
 * about the machine as about the code.  compare does not divide it out,
 * since a change that slows every point (a compiler, a kernel config) is
 * as real as one that slows a single one; it says the shift is there, so
 * a reader can read each ratio against it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "stats.h"
#include "vsb.h"

/* Over the pairs a noise model judged (model "none": not judged, as count_pair counts) */
void vsb_cmp_common_shift(struct vsb_compare *c)
{
	double *r = vsb_zalloc((c->nv ?: 1) * sizeof(*r));
	size_t i;

	c->nshift = 0;
	for (i = 0; i < c->nv; i++)
		if (strcmp(c->vs[i].model, "none") && isfinite(c->vs[i].ratio))
			r[c->nshift++] = c->vs[i].ratio;
	c->shift = c->nshift ? vsb_median(r, c->nshift) : NAN;
	free(r);
}

int vsb_cmp_shift_shown(const struct vsb_compare *c, const struct vsb_cmp_opts *o)
{
	return c->nshift >= VSB_CMP_SHIFT_MIN_POINTS && isfinite(c->shift) &&
	       fabs(c->shift - 1) * 100 > o->noise_pct;
}
