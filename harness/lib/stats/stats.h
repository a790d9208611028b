/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics over runs: samples grouped by the process (or boot) that
 * measured them.  Repetitions inside one process share its state (where
 * the host placed the vCPUs, the frequency, the cache layout of that
 * boot), so they understate the noise of two processes run apart; the
 * helpers here treat the run as the unit (per-run medians, their spread,
 * a bootstrap that resamples runs before repetitions), after the
 * per-sample helpers (summary numbers, median, bootstrap CI, MAD
 * outliers, Mann-Whitney) that they build on.
 */
#ifndef VSB_STATS_H
#define VSB_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "vsb.h"

/* ---- per sample ---- */
struct vsb_stats {
	size_t n;
	double median, min, max, mean, stddev, cv;
	double ci_lo, ci_hi;	/* bootstrap 95% CI of the median */
	size_t outliers;	/* samples flagged by vsb_mad_outliers() */
};
double vsb_median_sorted(const double *v, size_t n);
/* The median of @v[0..n), which is left as it is; NAN when @n is 0. */
double vsb_median(const double *v, size_t n);
void vsb_stats_compute(const double *v, size_t n, struct vsb_stats *st);

/*
 * A small seeded PRNG (splitmix64) so that every bootstrap, shuffle and
 * test is reproducible: the same data and seed give the same numbers on
 * every machine.  Not for anything that needs to be unpredictable.
 */
struct vsb_rng {
	uint64_t s;
};
void vsb_rng_seed(struct vsb_rng *g, uint64_t seed);
uint64_t vsb_rng_next(struct vsb_rng *g);
size_t vsb_rng_below(struct vsb_rng *g, size_t n);	/* uniform in [0, n) */

#define VSB_BOOT_RESAMPLES 2000
#define VSB_BOOT_SEED 0x76736221u	/* fixed: a CI is a function of the data */
#define VSB_MAD_CUTOFF 3.5		/* modified z-score (Iglewicz-Hoaglin) */

/* Type-7 (R default) quantile of sorted data, p in [0, 1]. */
double vsb_quantile_sorted(const double *v, size_t n, double p);
/* Percentile-bootstrap 95% CI of the median; [v, v] for n == 1. */
void vsb_median_ci(const double *v, size_t n, uint64_t seed, double *lo,
		   double *hi);
/* The same for median(b) / median(a), a and b resampled independently. */
void vsb_ratio_ci(const double *a, size_t na, const double *b, size_t nb,
		  uint64_t seed, double *lo, double *hi);
/* Median absolute deviation (unscaled). */
double vsb_mad(const double *v, size_t n);
/*
 * Mark outliers by modified z-score 0.6745 * |x - median| / MAD > 3.5;
 * flags may be NULL; returns how many.  MAD == 0 falls back to the
 * mean absolute deviation scaled by 1.2533 (so mostly-identical samples
 * still flag a wild one); no spread at all means no outliers.
 */
size_t vsb_mad_outliers(const double *v, size_t n, unsigned char *flags);

/* Two-sided Mann-Whitney U test of a vs b. */
struct vsb_mwu {
	double u;		/* U of sample a: pairs (a_i, b_j) with a_i > b_j, ties 1/2 */
	double z;		/* normal approximation, 0 when exact */
	double p;		/* two-sided p-value */
	int exact;		/* 1: exact permutation distribution (no ties, small n) */
};
#define VSB_MWU_EXACT_MAX 50	/* n_a + n_b up to which the exact test is used */
int vsb_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		     struct vsb_mwu *res);

/* ---- per run ---- */

/* Samples run after run: run r is v[off[r]] .. v[off[r + 1] - 1]. */
struct vsb_runs {
	const double *v;
	const size_t *off;	/* nruns + 1 offsets, off[0] == 0 */
	size_t nruns;
};

/* What one side's number is: every sample pooled, or runs first. */
enum vsb_runs_how {
	VSB_RUNS_POOLED,	/* the median of all samples */
	VSB_RUNS_MEDIANS,	/* the median of the per-run medians */
};

/* The per-run medians into @m (nruns of them). */
void vsb_runs_medians(const struct vsb_runs *r, double *m);
/* One side's number as @how says; NAN without samples. */
double vsb_runs_stat(const struct vsb_runs *r, enum vsb_runs_how how);

/*
 * The between-run coefficient of variation, robustly: 1.4826 x the
 * median of |run median / side's median - 1| over the runs of both sides
 * (a side of one run adds nothing).  Robust because the statistic it
 * guards is a median of run medians: one run disturbed by a neighbour
 * moves neither, so it must not swamp the floor either.  NAN when
 * neither side has two runs (nothing to measure it by).
 */
double vsb_runs_between_cv(const struct vsb_runs *a, const struct vsb_runs *b);

/*
 * Hierarchical percentile bootstrap of stat(b) / stat(a), 95%: each
 * resample draws a side's runs with replacement, then within each drawn
 * run its repetitions with replacement, and takes @how's statistic; the
 * two sides are drawn independently.  Seeded, so a function of the data.
 */
void vsb_runs_ratio_ci(const struct vsb_runs *a, const struct vsb_runs *b,
		       enum vsb_runs_how how, uint64_t seed, double *lo,
		       double *hi);

/*
 * The smallest two-sided p the exact Mann-Whitney test can give for
 * sizes @na and @nb (complete separation): 2 / C(na + nb, na), capped at 1.
 */
double vsb_mwu_min_p(size_t na, size_t nb);

/*
 * vsb_mann_whitney(), but exact with ties too (up to VSB_MWU_EXACT_MAX
 * samples): the permutation distribution of the midrank sum, counted by
 * subset sums of the doubled midranks.  Per-run medians tie more often
 * than one would think (costs are written to 6 digits), and with 5 runs
 * a side the normal approximation cannot reach p < 0.01 even for runs
 * completely apart (0.012), while the exact test gives 2/252.
 */
int vsb_mwu_exact_ties(const double *a, size_t na, const double *b, size_t nb,
		       struct vsb_mwu *res);

#endif /* VSB_STATS_H */
