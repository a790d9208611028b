/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics over runs: samples grouped by the process (or boot) that
 * measured them.  Repetitions inside one process share its state (where
 * the host placed the vCPUs, the frequency, the cache layout of that
 * boot), so they understate the noise of two processes run apart; the
 * helpers here treat the run as the unit (per-run medians, their spread,
 * a bootstrap that resamples runs before repetitions).  The per-sample
 * helpers (median, bootstrap CI, Mann-Whitney) stay declared in vsb.h.
 */
#ifndef VSB_STATS_H
#define VSB_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "vsb.h"

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
