// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of harness/lib/stats/stats.c against values worked out
 * independently:
 * exact Mann-Whitney p-values by brute-force enumeration of every split
 * of the pooled sample (a Python loop over itertools.combinations, kept
 * in the comments), the normal approximation by hand from the textbook
 * formula, the bootstrap median's exact distribution from the binomial,
 * and R's type-7 quantile and MAD on small data sets.
 */
#include <stdlib.h>
#include <string.h>

#include "vsb.h"
#include "tap.h"
#include "stats.h"

static void test_summary(void)
{
	const double v[] = { 4, 1, 3, 2 };	/* mean 2.5, var 5/3 */
	struct vsb_stats st;

	vsb_stats_compute(v, 4, &st);
	TAP_NEAR(st.median, 2.5, 1e-12, "median of 1..4 is 2.5");
	TAP_NEAR(st.stddev, sqrt(5.0 / 3.0), 1e-12, "sample stddev uses n - 1");
	TAP_NEAR(st.cv, sqrt(5.0 / 3.0) / 2.5, 1e-12, "cv = stddev / mean");
	TAP_OK(st.min == 1 && st.max == 4, "min 1, max 4");
}

static void test_quantile(void)
{
	const double v[] = { 1, 2, 3, 4 };

	/* R: quantile(1:4, c(.25, .9)) = 1.75, 3.7 */
	TAP_NEAR(vsb_quantile_sorted(v, 4, 0.25), 1.75, 1e-12, "type-7 quantile 25%% of 1..4 = 1.75");
	TAP_NEAR(vsb_quantile_sorted(v, 4, 0.9), 3.7, 1e-12, "type-7 quantile 90%% of 1..4 = 3.7");
}

static void test_rng(void)
{
	struct vsb_rng g;
	int hist[4] = { 0 }, i, same = 1;
	uint64_t first[8];

	vsb_rng_seed(&g, 0);
	/* splitmix64 reference output for seed 0 (Vigna's splitmix64.c) */
	TAP_OK(vsb_rng_next(&g) == 0xe220a8397b1dcdafull,
	       "splitmix64(seed 0) first output matches the reference");
	vsb_rng_seed(&g, 42);
	for (i = 0; i < 8; i++)
		first[i] = vsb_rng_next(&g);
	vsb_rng_seed(&g, 42);
	for (i = 0; i < 8; i++)
		same &= vsb_rng_next(&g) == first[i];
	TAP_OK(same, "same seed, same stream");
	for (i = 0; i < 40000; i++)
		hist[vsb_rng_below(&g, 4)]++;
	/* each bin ~ Binomial(40000, 1/4): sd 87; 6 sd is 520 */
	TAP_OK(abs(hist[0] - 10000) < 520 && abs(hist[3] - 10000) < 520,
	       "vsb_rng_below(4) is uniform (%d %d %d %d)", hist[0], hist[1],
	       hist[2], hist[3]);
}

static void test_median_ci(void)
{
	double v[11], lo, hi, lo2, hi2, c[5] = { 7, 7, 7, 7, 7 };
	int i;

	for (i = 0; i < 11; i++)
		v[i] = 11 - i;	/* 11..1: order must not matter */
	/*
	 * For odd n the bootstrap median's distribution is exact:
	 * P(med* <= x_(k)) = P(Binomial(11, k/11) >= 6), which gives
	 * 0.0072 at k = 2, 0.0513 at k = 3, 0.9488 at k = 8 and 0.9928 at
	 * k = 9.  So the 2.5% and 97.5% points are x_(3) = 3 and
	 * x_(9) = 9; with 2000 resamples the Monte Carlo error in the
	 * counts (~4 of 2000) is far from moving them.
	 */
	vsb_median_ci(v, 11, VSB_BOOT_SEED, &lo, &hi);
	TAP_NEAR(lo, 3, 1e-12, "bootstrap CI of median(1..11) starts at x_(3)");
	TAP_NEAR(hi, 9, 1e-12, "bootstrap CI of median(1..11) ends at x_(9)");
	vsb_median_ci(v, 11, VSB_BOOT_SEED, &lo2, &hi2);
	TAP_OK(lo == lo2 && hi == hi2, "same data and seed, same CI");
	vsb_median_ci(c, 5, 1, &lo, &hi);
	TAP_OK(lo == 7 && hi == 7, "constant data: CI is [7, 7]");
	vsb_median_ci(c, 1, 1, &lo, &hi);
	TAP_OK(lo == 7 && hi == 7, "one sample: CI is the sample");

	/* ratio of two constant samples is exact; of 1..11 vs 2*(1..11) too */
	vsb_ratio_ci(c, 5, v, 11, 3, &lo, &hi);
	TAP_OK(lo >= 3.0 / 7 - 1e-12 && hi <= 9.0 / 7 + 1e-12 && lo < 6.0 / 7 &&
	       hi > 6.0 / 7, "ratio CI of median(1..11)/7 brackets 6/7 within [3/7, 9/7]");
}

static void test_mad(void)
{
	/* median 2, |x - 2| = 1 1 0 0 2 4 7, MAD = 1 */
	const double v[] = { 1, 1, 2, 2, 4, 6, 9 };
	const double flat[] = { 5, 5, 5, 5, 5, 5, 5, 5, 5, 50 };
	const double same[] = { 3, 3, 3, 3 };
	unsigned char fl[10];

	TAP_NEAR(vsb_mad(v, 7), 1, 1e-12, "MAD of {1,1,2,2,4,6,9} is 1");
	/* 9: 0.6745 * 7 / 1 = 4.72 > 3.5; 6: 0.6745 * 4 = 2.70 */
	TAP_OK(vsb_mad_outliers(v, 7, fl) == 1 && fl[6] && !fl[5],
	       "only 9 is an outlier (modified z 4.72; 6 has 2.70)");
	/* MAD 0: mean |dev| = 4.5, scale 5.64; 45 / 5.64 = 7.98 > 3.5 */
	TAP_OK(vsb_mad_outliers(flat, 10, fl) == 1 && fl[9],
	       "MAD 0 falls back to mean absolute deviation and flags 50");
	TAP_OK(vsb_mad_outliers(same, 4, NULL) == 0, "identical samples: no outliers");
}

static void test_mwu(void)
{
	const double lo5[] = { 1, 2, 3, 4, 5 }, hi5[] = { 6, 7, 8, 9, 10 };
	const double odd[] = { 1, 3, 5, 7, 9 }, even[] = { 2, 4, 6, 8, 10 };
	const double a3[] = { 1.5, 7, 9 }, b4[] = { 2, 3, 4, 8 };
	const double ta[] = { 1, 2, 2, 3 }, tb[] = { 2, 3, 4, 4, 5 };
	double big_a[30], big_b[30], m_a[20], m_b[20];
	struct vsb_mwu r;
	int i;

	/* completely separated 5 vs 5: 2 of C(10,5) = 252 splits as extreme */
	vsb_mann_whitney(lo5, 5, hi5, 5, &r);
	TAP_OK(r.exact && r.u == 0, "separated 5/5: exact test, U = 0");
	TAP_NEAR(r.p, 2.0 / 252, 1e-12, "separated 5/5: two-sided p = 2/252");
	vsb_mann_whitney(hi5, 5, lo5, 5, &r);
	TAP_OK(r.u == 25, "swapped: U = 25");
	TAP_NEAR(r.p, 2.0 / 252, 1e-12, "swapped: same p");
	/* enumeration: 1 3 5 7 9 vs 2 4 6 8 10, U = 10, p = 0.690476 (= 174/252) */
	vsb_mann_whitney(odd, 5, even, 5, &r);
	TAP_NEAR(r.u, 10, 1e-12, "interleaved 5/5: U = 10");
	TAP_NEAR(r.p, 174.0 / 252, 1e-12, "interleaved 5/5: p = 174/252");
	/* enumeration over C(7,3) = 35 splits: U = 7, p = 0.857143 (= 30/35) */
	vsb_mann_whitney(a3, 3, b4, 4, &r);
	TAP_NEAR(r.p, 30.0 / 35, 1e-12, "unequal sizes 3/4: p = 30/35");

	/*
	 * Ties force the normal approximation.  By hand: midranks give U = 2.5,
	 * mu = 10, tie term sum(t^3 - t) over {2,2,2}, {3,3}, {4,4} is
	 * 24 + 6 + 6 = 36, sigma^2 = 20/12 (10 - 36/72),
	 * z = (7.5 - 0.5) / sigma = 1.759186, p = erfc(z / sqrt 2) = 0.078546.
	 */
	vsb_mann_whitney(ta, 4, tb, 5, &r);
	TAP_OK(!r.exact && r.u == 2.5, "ties: normal approximation, U = 2.5");
	TAP_NEAR(r.z, 1.759186414825121, 1e-9, "ties: z with tie and continuity correction");
	TAP_NEAR(r.p, 0.0785458509511907, 1e-9, "ties: p = 0.078546");

	/* 20/20 is still exact: p by the recursion f(m,n,u) = 0.00948361 */
	for (i = 0; i < 20; i++) {
		m_a[i] = i;
		m_b[i] = i + 5.5;
	}
	vsb_mann_whitney(m_a, 20, m_b, 20, &r);
	TAP_OK(r.exact && r.u == 105, "20/20 without ties: exact, U = 105");
	TAP_NEAR(r.p, 0.009483607191205005, 1e-12, "20/20: p = 0.00948361");

	/* 30/30: normal p 0.0036709 by hand; exact would be 0.0031935 */
	for (i = 0; i < 30; i++) {
		big_a[i] = i;
		big_b[i] = i + 7.5;
	}
	vsb_mann_whitney(big_a, 30, big_b, 30, &r);
	TAP_OK(!r.exact && r.u == 253, "30/30: normal approximation, U = 253");
	TAP_NEAR(r.p, 0.0036708933924506602, 1e-9, "30/30: p = 0.0036709");

	/* all tied: no evidence either way */
	vsb_mann_whitney(hi5, 1, hi5, 1, &r);
	TAP_NEAR(r.p, 1, 1e-12, "one tied pair: p = 1");
	TAP_OK(vsb_mann_whitney(hi5, 0, lo5, 5, &r) < 0, "empty sample is refused");
}

int main(void)
{
	test_summary();
	test_quantile();
	test_rng();
	test_median_ci();
	test_mad();
	test_mwu();
	return tap_done();
}
