/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Change points in a point's history: E-Divisive means (Matteson and
 * James 2014, the method MongoDB's CI and DataStax Hunter use) with a
 * permutation test for significance, and the rule `history --check`
 * applies to decide whether the newest entries are a regression.
 *
 * A history is short (tens to about a thousand entries, each the median
 * of one run) and its values are costs: higher is worse.  Everything
 * here is data in, data out: no printing, no globals; the permutations
 * draw from a PRNG seeded by the caller, so the same history and seed
 * give the same change points on every machine.
 */
#ifndef VSB_CHANGEPOINT_H
#define VSB_CHANGEPOINT_H

#include <stddef.h>
#include <stdint.h>

/* Defaults a caller can pass through (the history command does). */
#define VSB_CP_ALPHA		0.05	/* significance of each change point */
#define VSB_CP_PERMUTATIONS	199u	/* p resolution 1/200 */
#define VSB_CP_SEED		0x63706476u	/* fixed: CI output is reproducible */
#define VSB_CP_MIN_SEGMENT	3u	/* entries each side of a split, >= 2 */
#define VSB_CP_THRESHOLD	0.02	/* --check: 2% slower is a regression */
#define VSB_CP_CHECK_ALPHA	0.01	/* --check: p of the deciding test */
#define VSB_CP_TAIL		3	/* --check: newest entries tested alone */
#define VSB_CP_TAIL_BASE	10	/* ... against at least this many before */
#define VSB_CP_SIGMAS		3.0	/* --check: shifts below 3 SE are noise */

struct vsb_cp {
	size_t index;		/* first entry of the new segment */
	double before, after;	/* medians of the segments either side */
	double rel_change;	/* (after - before) / before; NAN if before == 0 */
	double p_value;		/* permutation p-value of the split */
	double q;		/* the E-Divisive statistic at the split */
};

/*
 * Find the significant change points of x[0..n) and store them in
 * out[0..*nout) in index order (at most max_out; the most pronounced
 * are found first, so a truncated list keeps those).
 *
 * alpha in (0, 1); permutations >= 1; min_segment entries at least on
 * each side of every split (values under 2 are taken as 2, the least
 * the statistic is defined for).  A series shorter than 2 * min_segment
 * or with no spread has no change points.
 *
 * Returns 0, or -EINVAL for a NaN or infinite value or a bad argument
 * (nothing is stored then).
 */
int vsb_changepoints(const double *x, size_t n, double alpha,
		     unsigned int permutations, uint64_t seed,
		     size_t min_segment, struct vsb_cp *out, size_t max_out,
		     size_t *nout);

/* How vsb_cp_newest_regression() reached its verdict. */
enum {
	VSB_CP_RULE_NONE = 0,	/* nothing to compare: too short, or no step */
	VSB_CP_RULE_SEGMENT,	/* newest segment vs the one before it */
	VSB_CP_RULE_TAIL,	/* newest entries vs the rest of their segment */
};

struct vsb_cp_verdict {
	int regression;		/* 1: the newest entry is a regression */
	int rule;		/* VSB_CP_RULE_*: the comparison that decided */
	size_t base_start;	/* baseline entries [base_start, base_end) */
	size_t base_end;
	size_t new_start;	/* compared entries [new_start, n) */
	double base, newest;	/* their medians */
	double rel_change;	/* newest / base - 1 */
	double margin;		/* rel_change above which it is a regression */
	double ratio_lo;	/* 95% bootstrap CI of newest / base (segment rule) */
	double ratio_hi;
	double p_value;		/* change point's p, or one-sided Mann-Whitney p */
};

/*
 * Is the newest entry of x[0..n) a regression?  cps[0..ncp) are the
 * change points vsb_changepoints() found in the same series.
 *
 * Both rules compare a median with the median of a baseline, and call
 * it a regression only when the relative change exceeds a margin: the
 * larger of threshold_rel and VSB_CP_SIGMAS standard errors of the
 * difference of the two medians (sigma from the MAD of both parts about
 * their own medians).  The margin is what makes the verdict aware of
 * noise: a short segment, or a noisy point, needs a larger shift.
 *
 * Only change points with p_value <= alpha count here (the others are
 * merged into the segments either side), so the gate can be stricter
 * than the search (VSB_CP_CHECK_ALPHA 1% against VSB_CP_ALPHA 5%: with
 * 199 permutations a clear step has p 0.005) and a spurious split
 * inside a regressed stretch does not hide the regression.
 *
 * Segment rule: when there is such a change point, the last segment
 * (which holds the newest entry) is compared with the segment before
 * it; a regression when the change exceeds the margin AND the bootstrap
 * 95% CI of the ratio of medians lies wholly above 1.
 *
 * Tail rule: a change in the newest few entries cannot be a change
 * point yet (fewer than min_segment entries after it, and a permutation
 * test has little power so near the end).  So, when the segment rule did
 * not fire, the newest `tail` entries are compared with the rest of
 * their segment, if at least VSB_CP_TAIL_BASE entries remain there: a
 * regression when the change exceeds the margin AND a one-sided
 * Mann-Whitney test (newest greater) gives p < alpha.  A tail of 3 (the
 * default) lets one disturbed run among the newest pass, at the price of
 * waiting for a second slow run; tail == 0 disables the rule.
 *
 * A regression stays reported while the segment that holds it is the
 * newest one, i.e. until a later change point (a fix) ends it; the
 * caller can read its age as n - new_start.
 *
 * Returns 0, or -EINVAL (NaN in x, a change point out of range or out
 * of order, bad threshold/alpha).
 */
int vsb_cp_newest_regression(const double *x, size_t n,
			     const struct vsb_cp *cps, size_t ncp,
			     double threshold_rel, size_t tail, double alpha,
			     struct vsb_cp_verdict *v);

#endif /* VSB_CHANGEPOINT_H */
