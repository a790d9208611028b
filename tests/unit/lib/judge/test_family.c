// SPDX-License-Identifier: GPL-2.0
/*
 * Benjamini-Hochberg's step-up rule over the points a comparison tests
 * (compare_family.c): the adjusted p of known inputs, the verdicts it
 * gives, and which points are in the family.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "vsb.h"
#include "tap.h"

static const struct vsb_cmp_opts opts = {
	.alpha = 0.01, .noise_pct = 2, .max_regression_pct = 5,
};

/* a point the rank test judged: +20%, CI clear of 1, floor 2% */
static void rank_point(struct vsb_cmp_verdict *v, double p)
{
	memset(v, 0, sizeof(*v));
	v->ratio = 1.2;
	v->lo = 1.1;
	v->hi = 1.3;
	v->p = v->p_adj = p;
	v->noise = 0.02;
	v->mde = 0.1;
	v->rule = "rank";
	v->model = "runs";
	v->verdict = "slower";
}

/* four points with @p; the family's adjusted p's into @adj */
static void four(const double *p, double *adj, struct vsb_cmp_verdict *vs)
{
	struct vsb_compare c = { .vs = vs, .nv = 4 };
	size_t i;

	for (i = 0; i < 4; i++)
		rank_point(&vs[i], p[i]);
	vsb_cmp_share_alpha(&c, &opts);
	for (i = 0; i < 4; i++)
		adj[i] = vs[i].p_adj;
}

static void test_lone(void)
{
	static const double in[] = { 0.3, 0.002, 0.5, 0.8 };
	static const double out[] = { 0.3, 0.003, 0.5, 0.8 };
	struct vsb_cmp_verdict vs[4];
	double adj[4];

	four(in, adj, vs);
	TAP_NEAR(adj[1], 0.008, 1e-12, "a lone p 0.002 among 4: x 4 = 0.008");
	TAP_OK(!strcmp(vs[1].verdict, "slower") && vs[1].regression,
	       "0.008 < 0.01: slower, a regression beyond 5%%");
	four(out, adj, vs);
	TAP_NEAR(adj[1], 0.012, 1e-12, "a lone p 0.003 among 4: 0.012");
	TAP_OK(!strcmp(vs[1].verdict, "inconclusive") && !vs[1].regression,
	       "p 0.003 alone would be called, 0.012 is not: inconclusive");
	TAP_OK(vs[1].mde >= 0.2 - 1e-12, "an uncalled +20%%: its MDE at least 20%% (%g)",
	       vs[1].mde);
	TAP_OK(!strcmp(vs[0].verdict, "inconclusive") && !strcmp(vs[3].verdict, "inconclusive"),
	       "the others inconclusive");
}

/* a change at every point keeps its power: each p x 4 / 4 */
static void test_all_moved(void)
{
	static const double in[] = { 0.008, 0.008, 0.008, 0.008 };
	struct vsb_cmp_verdict vs[4];
	double adj[4];
	size_t i, called = 0;

	four(in, adj, vs);
	for (i = 0; i < 4; i++)
		called += adj[i] == 0.008 && !strcmp(vs[i].verdict, "slower");
	TAP_OK(called == 4, "four points at p 0.008: all four called (%zu)", called);
}

/* step-up: a p's bound is the smallest of its own and those above it */
static void test_step_up(void)
{
	static const double in[] = { 0.03, 0.001, 0.5, 0.004 };
	struct vsb_cmp_verdict vs[4];
	double adj[4];

	four(in, adj, vs);
	/* sorted 0.001 0.004 0.03 0.5: x4/1 x4/2 x4/3 x4/4, then the min upward */
	TAP_NEAR(adj[2], 0.5, 1e-12, "largest: x 1");
	TAP_NEAR(adj[0], 0.04, 1e-12, "third: x 4/3");
	TAP_NEAR(adj[3], 0.008, 1e-12, "second: x 2");
	TAP_NEAR(adj[1], 0.004, 1e-12, "smallest: x 4, no more than the second's");
	TAP_OK(!strcmp(vs[1].verdict, "slower") && !strcmp(vs[3].verdict, "slower") &&
	       !strcmp(vs[0].verdict, "inconclusive"),
	       "the two smallest called, 0.03 not");
}

static void test_members(void)
{
	struct vsb_cmp_verdict vs[4];
	struct vsb_compare c = { .vs = vs, .nv = 4 };

	rank_point(&vs[0], 0.001);
	rank_point(&vs[1], 0.2);
	rank_point(&vs[2], NAN);
	vs[2].rule = "mix";
	rank_point(&vs[3], 0.001);
	vs[3].rule = "none";
	vs[3].verdict = "few-runs";
	TAP_OK(vsb_cmp_family_size(&c) == 2,
	       "family: the 2 rank-judged points, not the insn row or the few-runs one");
	vsb_cmp_share_alpha(&c, &opts);
	TAP_NEAR(vs[0].p_adj, 0.002, 1e-12, "0.001 among 2: 0.002");
	TAP_OK(!strcmp(vs[2].verdict, "slower") && isnan(vs[2].p_adj) &&
	       !strcmp(vs[3].verdict, "few-runs") && vs[3].p_adj == 0.001,
	       "points outside the family keep their verdicts and p");
}

int main(void)
{
	test_lone();
	test_all_moved();
	test_step_up();
	test_members();
	return tap_done();
}
