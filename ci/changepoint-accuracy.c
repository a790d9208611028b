// SPDX-License-Identifier: GPL-2.0
/*
 * How well harness/lib/stats/changepoint.c finds steps, how often it finds
 * one where there is none, and how long it takes on a long history:
 * the figures behind the defaults of `history` (alpha 5%, 199
 * permutations, min_segment 3).  Synthetic histories only: Gaussian
 * noise (Box-Muller from the seeded splitmix64 of stats.c, so the
 * figures are the same on every run) around level 1000 with a step of
 * known size at a known entry.  Prints a small table; exits 0.
 *
 * Not part of `make`; build and run from the repository root:
 *
 *   gcc -O2 -I. -Iharness/lib/base -Iharness/lib/stats \
 *       -o build/changepoint-accuracy ci/changepoint-accuracy.c \
 *       harness/lib/stats/changepoint.c harness/lib/stats/stats.c \
 *       harness/lib/base/errlog.c harness/lib/base/alloc.c -lm
 *   build/changepoint-accuracy
 *
 * (lib/base and lib/stats alone: the detector knows no bench.)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "vsb.h"
#include "changepoint.h"
#include "stats.h"

#define MAXCP 64
#define CV 0.02

static double gauss(struct vsb_rng *g)
{
	double u1, u2;

	do {
		u1 = (double)(vsb_rng_next(g) >> 11) * 0x1.0p-53;
	} while (u1 == 0);
	u2 = (double)(vsb_rng_next(g) >> 11) * 0x1.0p-53;
	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

/* n entries, level times (1 + rel) from every entry in at[] on */
static void series(double *x, size_t n, const size_t *at, size_t nat,
		   double rel, uint64_t seed)
{
	struct vsb_rng g;
	double level = 1000;
	size_t i, k = 0;

	vsb_rng_seed(&g, seed);
	for (i = 0; i < n; i++) {
		while (at && k < nat && at[k] == i) {
			level *= 1 + rel;
			k++;
		}
		x[i] = level * (1 + CV * gauss(&g));
	}
}

static size_t detect(const double *x, size_t n, struct vsb_cp *cp)
{
	size_t nout = 0;

	if (vsb_changepoints(x, n, VSB_CP_ALPHA, VSB_CP_PERMUTATIONS,
			     VSB_CP_SEED, VSB_CP_MIN_SEGMENT, cp, MAXCP, &nout))
		abort();
	return nout;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* 100 series of 30 + 30 entries with a step of rel at entry 30 */
static void recall(double rel)
{
	const size_t at = 30, n = 60, runs = 100;
	struct vsb_cp cp[MAXCP];
	size_t r, k, j, any = 0, within2 = 0, exact = 0, extra = 0;
	double x[60], err = 0;

	for (r = 0; r < runs; r++) {
		size_t best = SIZE_MAX, d;

		series(x, n, &at, 1, rel, 1000 + r);
		k = detect(x, n, cp);
		any += k > 0;
		for (j = 0; j < k; j++) {
			d = cp[j].index > at ? cp[j].index - at : at - cp[j].index;
			if (d < best)
				best = d;
		}
		if (best <= 2) {
			within2++;
			exact += best == 0;
			err += (double)best;
			extra += k - 1;
		} else {
			extra += k;
		}
	}
	printf("step %+4.0f%%  cv %.0f%%  30+30   %3zu/%zu found within +-2 "
	       "(%zu exact, mean |error| %.2f), %zu with any, %zu extra\n",
	       rel * 100, CV * 100, within2, runs, exact,
	       within2 ? err / (double)within2 : 0.0, any, extra);
}

static void false_positives(size_t runs, size_t n)
{
	struct vsb_cp cp[MAXCP];
	double *x = vsb_zalloc(n * sizeof(*x));
	size_t r, k, with = 0, total = 0;

	for (r = 0; r < runs; r++) {
		series(x, n, NULL, 0, 0, 5000 + r);
		k = detect(x, n, cp);
		with += k > 0;
		total += k;
	}
	printf("flat         cv %.0f%%  %4zu     %3zu/%zu series with a change "
	       "point (%zu in all)\n", CV * 100, n, with, runs, total);
	free(x);
}

/*
 * `history --check` on 200 histories of 60 entries, cv 2%: flat, flat
 * with the newest run disturbed (+50%; the same verdicts as the newest
 * run alone 10% up), and with the newest k entries 10% up; at the
 * search's alpha and at the stricter one meant for the gate.
 */
static void check_rate(const char *what, size_t up, double newest,
		       double alpha)
{
	const size_t n = 60, runs = 200;
	struct vsb_cp cp[MAXCP];
	struct vsb_cp_verdict v;
	size_t r, k, fail = 0, by_tail = 0, at = n - up;
	double x[60];

	for (r = 0; r < runs; r++) {
		series(x, n, up ? &at : NULL, up ? 1 : 0, 0.10, 9000 + r);
		x[n - 1] *= newest;
		k = detect(x, n, cp);
		if (vsb_cp_newest_regression(x, n, cp, k, VSB_CP_THRESHOLD,
					     VSB_CP_TAIL, alpha, &v))
			abort();
		fail += v.regression;
		by_tail += v.regression && v.rule == VSB_CP_RULE_TAIL;
	}
	printf("check  alpha %.2f  %-26s %3zu/%zu regressions (%zu by the tail rule)\n",
	       alpha, what, fail, runs, by_tail);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of 5 timed runs of detection plus the --check verdict. */
static void timing(const char *what, const size_t *at, size_t nat)
{
	const size_t n = 1000;
	struct vsb_cp cp[MAXCP];
	struct vsb_cp_verdict v;
	double *x = vsb_zalloc(n * sizeof(*x)), t[5], t0;
	size_t r, k = 0;

	series(x, n, at, nat, 0.10, 77);
	for (r = 0; r < 5; r++) {
		t0 = now_s();
		k = detect(x, n, cp);
		vsb_cp_newest_regression(x, n, cp, k, VSB_CP_THRESHOLD,
					 VSB_CP_TAIL, VSB_CP_ALPHA, &v);
		t[r] = now_s() - t0;
	}
	qsort(t, 5, sizeof(t[0]), cmp_double);
	printf("1000 entries, %-22s %2zu change points  %7.2f ms "
	       "(median of 5, min %.2f)\n", what, k, t[2] * 1e3, t[0] * 1e3);
	free(x);
}

int main(void)
{
	const size_t one[] = { 700 };
	const size_t five[] = { 100, 300, 500, 700, 900 };
	size_t twenty[20], i;

	for (i = 0; i < 20; i++)
		twenty[i] = 50 * (i + 1) - 25;
	printf("E-Divisive means: alpha %.2f, %u permutations, min_segment %u, "
	       "seed %#x\n\n", VSB_CP_ALPHA, VSB_CP_PERMUTATIONS,
	       VSB_CP_MIN_SEGMENT, VSB_CP_SEED);
	recall(0.05);
	recall(0.10);
	recall(0.20);
	recall(-0.10);
	false_positives(20, 60);
	false_positives(200, 60);
	false_positives(20, 1000);
	printf("\n");
	for (i = 0; i < 2; i++) {
		double a = i ? VSB_CP_CHECK_ALPHA : VSB_CP_ALPHA;

		check_rate("flat, cv 2%", 0, 1.0, a);
		check_rate("flat, newest run +50%", 0, 1.5, a);
		check_rate("newest 2 entries +10%", 2, 1.0, a);
		check_rate("newest 3 entries +10%", 3, 1.0, a);
		check_rate("newest 6 entries +10%", 6, 1.0, a);
		check_rate("newest 20 entries +10%", 20, 1.0, a);
	}
	printf("\n");
	timing("flat", NULL, 0);
	timing("one 10% step", one, 1);
	timing("five 10% steps", five, 5);
	timing("twenty 10% steps", twenty, 20);
	return 0;
}
