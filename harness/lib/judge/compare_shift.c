// SPDX-License-Identifier: GPL-2.0
/*
 * The shift the judged points share: the median NEW/BASE over every point
 * compare judged (slower, faster, no-change).  On the development VM the
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

static int judged(const struct vsb_cmp_verdict *v)
{
	return !strcmp(v->verdict, "slower") || !strcmp(v->verdict, "faster") ||
	       !strcmp(v->verdict, "no-change");
}

double vsb_cmp_common_shift(const struct vsb_compare *c, size_t *n)
{
	double *r = vsb_zalloc((c->nv ?: 1) * sizeof(*r)), shift = NAN;
	size_t i;

	*n = 0;
	for (i = 0; i < c->nv; i++)
		if (judged(&c->vs[i]) && isfinite(c->vs[i].ratio))
			r[(*n)++] = c->vs[i].ratio;
	if (*n)
		shift = vsb_median(r, *n);
	free(r);
	return shift;
}

int vsb_cmp_shift_shown(double shift, size_t n, const struct vsb_cmp_opts *o)
{
	return n >= VSB_CMP_SHIFT_MIN_POINTS && isfinite(shift) &&
	       fabs(shift - 1) * 100 > o->noise_pct;
}
