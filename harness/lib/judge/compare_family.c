// SPDX-License-Identifier: GPL-2.0
/*
 * Alpha shared over the points a comparison tests.  Each point's rank
 * test holds its false alarms to alpha, but a sweep has many points, and
 * at 0.01 each an A/A of 11 judged points calls one somewhere about once
 * in ten: CI failed so, an interleaved A/A of configs/quick.sweep calling
 * one point 24% slower at p 0.0021 while a guest ran beside it.
 *
 * Benjamini-Hochberg's step-up rule: sort the m p's, find the largest k
 * with p_(k) <= k alpha / m, call the k smallest.  When no point changed
 * (an A/A), that calls anything at all with probability alpha at most,
 * for independent points and for points the machine moves together
 * (positively dependent, as a sweep's are).  Where points did change it
 * holds the expected share of false calls among those called to alpha,
 * and keeps the power Holm's rule would lose: a patch that slows every
 * point by the same amount at p 0.008 each is still called at all of
 * them, while a lone point must beat alpha / m.  Its adjusted p (p_adj,
 * compare.csv's p_adj) is what the three-way rule compares with alpha.
 *
 * The family is the points the rank test judged (rule "rank").  Exact
 * counts are judged without a p, and points not judged test nothing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "vsb.h"

static int in_family(const struct vsb_cmp_verdict *v)
{
	return !strcmp(v->rule, "rank") && !isnan(v->p);
}

size_t vsb_cmp_family_size(const struct vsb_compare *c)
{
	size_t i, m = 0;

	for (i = 0; i < c->nv; i++)
		m += in_family(&c->vs[i]);
	return m;
}

struct ranked {
	double p;
	size_t i;	/* the point's index in c->vs */
};

/* ascending p; ties in the points' order, so that the result is stable */
static int by_p(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

void vsb_cmp_share_alpha(struct vsb_compare *c, const struct vsb_cmp_opts *o)
{
	struct ranked *r = vsb_zalloc((c->nv + 1) * sizeof(*r));
	size_t i, k, m = 0;
	double adj = 1;

	for (i = 0; i < c->nv; i++)
		if (in_family(&c->vs[i]))
			r[m++] = (struct ranked){ .p = c->vs[i].p, .i = i };
	qsort(r, m, sizeof(*r), by_p);
	/* p_(k) x m / k, from the largest down, never above the one after */
	for (k = m; k-- > 0;) {
		struct vsb_cmp_verdict *v = &c->vs[r[k].i];

		adj = fmin(adj, v->p * (double)m / (double)(k + 1));
		v->p_adj = adj;
		v->mde = vsb_cmp_mde_at(v, o->alpha / (double)m);
		vsb_cmp_decide(v, o);
	}
	free(r);
}

/* "0.01", or "0.01 shared over 11 points (...)" */
void vsb_cmp_alpha_words(const struct vsb_compare *c, const struct vsb_cmp_opts *o,
			 char *buf, size_t len)
{
	if (c->family > 1)
		snprintf(buf, len, "%g shared over %zu points (Benjamini-Hochberg: "
			 "compare.csv's p_adj)", o->alpha, c->family);
	else
		snprintf(buf, len, "%g", o->alpha);
}
