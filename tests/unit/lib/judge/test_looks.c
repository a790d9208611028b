// SPDX-License-Identifier: GPL-2.0
/*
 * ab's sequential rule (vsb_cmp_look_alpha, compare_verdict.c) on
 * simulated A/As: both sides' boot medians drawn from one distribution
 * (a seeded RNG, normal with a 5% CV), looked at after --boots N a side
 * and after every ABBA pair added up to --max-boots M, each look the
 * exact rank test over boot medians that compare --runs-only runs, at
 * that look's alpha.  A false alarm is any look below its alpha.  The
 * simulation never stops early for a point found the same, which only
 * ab's real rule does: that can only drop looks, so the rate measured
 * here bounds the real one from above.  The rule must keep it at or
 * below alpha; the same looks all at alpha 0.01 do not.
 *
 * VSB_LOOKS_TRIALS sets the number of A/As (default 5000, 3 s here;
 * VSB_LOOKS_TRIALS=20000 gave 0.0048 for boots 6..10 and 0.0014 for
 * 5..20, against 0.021 and 0.041 with every look at 0.01); the rate of
 * each plan is printed as a TAP comment.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "compare.h"
#include "stats.h"
#include "vsb.h"
#include "tap.h"

#define ALPHA		0.01
#define SEED		0x6c6f6f6bu	/* fixed: the same rate on every machine */
#define MAX_BOOTS	20

/* one N(0, 1) draw, Box-Muller from two uniforms of @g */
static double gauss(struct vsb_rng *g)
{
	double u = ((double)(vsb_rng_next(g) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(vsb_rng_next(g) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/*
 * The fraction of @trials A/As of boots @first..@max a side that any
 * look calls different; @naive: every look at ALPHA (no split).
 */
static double false_alarms(long first, long max, long trials, int naive)
{
	double a[MAX_BOOTS], b[MAX_BOOTS];
	struct vsb_rng g;
	long t, n, alarms = 0;
	struct vsb_mwu mw;

	vsb_rng_seed(&g, SEED);
	for (t = 0; t < trials; t++) {
		for (n = 0; n < max; n++) {
			a[n] = 100 * (1 + 0.05 * gauss(&g));
			b[n] = 100 * (1 + 0.05 * gauss(&g));
		}
		for (n = first; n <= max; n++) {
			double alpha = naive ? ALPHA : vsb_cmp_look_alpha(ALPHA, first, max, n);

			vsb_mwu_exact_ties(a, (size_t)n, b, (size_t)n, &mw);
			if (mw.p < alpha) {
				alarms++;
				break;
			}
		}
	}
	return (double)alarms / (double)trials;
}

static void test_split(void)
{
	static const long plans[][2] = { { 6, 10 }, { 2, 10 }, { 5, 20 }, { 6, 6 } };
	size_t i;

	for (i = 0; i < sizeof(plans) / sizeof(plans[0]); i++) {
		long n, f = plans[i][0], m = plans[i][1];
		double sum = 0;

		for (n = f; n <= m; n++)
			sum += vsb_cmp_look_alpha(ALPHA, f, m, n);
		TAP_NEAR(sum, ALPHA, 1e-12, "boots %ld..%ld: the %ld looks' alphas sum to %g",
			 f, m, m - f + 1, ALPHA);
	}
	TAP_NEAR(vsb_cmp_look_alpha(ALPHA, 6, 6, 6), ALPHA, 0,
		 "one look (--max-boots = --boots): alpha as it always was");
	TAP_NEAR(vsb_cmp_look_alpha(ALPHA, 6, 10, 6), ALPHA / 2, 0,
		 "the first look keeps half");
	TAP_OK(vsb_cmp_look_alpha(ALPHA, 6, 10, 6) > vsb_mwu_min_p(6, 6),
	       "6 boots a side can still reach the first look's alpha (%.4f > %.4f)",
	       vsb_cmp_look_alpha(ALPHA, 6, 10, 6), vsb_mwu_min_p(6, 6));
	TAP_OK(vsb_cmp_look_alpha(ALPHA, 6, 10, 7) > vsb_mwu_min_p(7, 7),
	       "and 7 the second's (%.5f > %.5f)", vsb_cmp_look_alpha(ALPHA, 6, 10, 7),
	       vsb_mwu_min_p(7, 7));
}

static void test_simulated(long trials)
{
	/* the default (6 up to 10), and a long plan: 5 up to 20, 16 looks */
	static const long plans[][2] = { { 6, 10 }, { 5, 20 } };
	double se = sqrt(ALPHA * (1 - ALPHA) / (double)trials), rate, naive;
	size_t i;

	for (i = 0; i < sizeof(plans) / sizeof(plans[0]); i++) {
		long f = plans[i][0], m = plans[i][1];

		rate = false_alarms(f, m, trials, 0);
		naive = false_alarms(f, m, trials, 1);
		printf("# A/A, boots %ld..%ld a side, %ld trials: false alarms %.4f with "
		       "the split, %.4f with every look at %g\n", f, m, trials, rate,
		       naive, ALPHA);
		TAP_OK(rate <= ALPHA, "boots %ld..%ld: A/A false alarms %.4f <= alpha %g "
		       "over all the looks", f, m, rate, ALPHA);
		TAP_OK(naive > ALPHA + 3 * se, "... where every look at %g would raise "
		       "%.4f: the split is needed", ALPHA, naive);
	}
}

int main(void)
{
	const char *s = getenv("VSB_LOOKS_TRIALS");
	long trials = s && atol(s) > 0 ? atol(s) : 5000;

	test_split();
	test_simulated(trials);
	return tap_done();
}
