// SPDX-License-Identifier: GPL-2.0
/*
 * E-Divisive means (Matteson and James, "A Nonparametric Approach for
 * Multiple Change Point Analysis of Multivariate Data", JASA 2014) over
 * one point's history, and the regression rule of `history --check`.
 *
 * The method: split a segment where the energy distance between the two
 * sides, weighted by m * n / (m + n), is largest; keep the split if a
 * permutation test says so (permute within every current segment, take
 * the best split of all of them, count how often it reaches the
 * observed one); repeat on the segments until a split is not
 * significant.  The exponent of the distance is 1 and the right-hand
 * end of each split is the segment's end (MongoDB's and Hunter's
 * variant: no search over kappa), which is what a level shift needs.
 *
 * Cost.  With exponent 1 all the distance sums one scan needs follow
 * from ranks: sum |z_i - z_t| over the entries before t is read off a
 * Fenwick tree of counts and sums by rank, and over the whole segment
 * from sorted prefix sums (the same for every permutation, since a
 * permutation only reorders the segment).  One scan of a segment of L
 * entries is O(L log L), so a permutation round of a 1000-entry history
 * costs tens of microseconds, not the O(L^2) of a distance matrix.
 * Permutations stop early once the split cannot be significant any more
 * (Besag and Clifford's sequential p-value), so the round that ends the
 * search, on flat data the only one, takes a few dozen permutations.  A
 * significant split runs all of them: stopping early there would make
 * its p-value depend on when we looked, and at about 10 ms per
 * 1000-entry round it is not worth it (ci/changepoint-accuracy.c).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vsb.h"
#include "changepoint.h"
#include "stats.h"

struct cp_work {
	size_t n, min;
	const double *x;
	double *y;		/* x minus its median: smaller sums, less rounding */
	size_t *idx;		/* segment order, permuted in place */
	size_t *rank;		/* rank of entry i within its segment */
	double *sabs;		/* sum over its segment of |y_i - y_j| */
	double *fsum;		/* Fenwick tree by rank: sums of y ... */
	size_t *fcnt;		/* ... and counts */
	struct cp_sorted {
		double v;
		size_t i;
	} *sorted;
	size_t *cuts;		/* segment bounds, ascending, 0 and n included */
	size_t ncuts;
	struct vsb_rng g;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int cmp_sorted(const void *a, const void *b)
{
	const struct cp_sorted *p = a, *q = b;

	if (p->v != q->v)
		return (p->v > q->v) - (p->v < q->v);
	/* ties by position: qsort is not stable, and ranks must be reproducible */
	return (p->i > q->i) - (p->i < q->i);
}

/* Median of x[a..e), e > a. */
static double range_median(const double *x, size_t a, size_t e)
{
	double *s = vsb_zalloc((e - a) * sizeof(*s)), m;

	memcpy(s, x + a, (e - a) * sizeof(*s));
	qsort(s, e - a, sizeof(*s), cmp_double);
	m = vsb_median_sorted(s, e - a);
	free(s);
	return m;
}

/* ---- one scan of one segment ---- */

/* Sum and count of the entries inserted so far with rank below r. */
static void fen_query(const struct cp_work *w, size_t r, size_t *cnt,
		      double *sum)
{
	size_t c = 0;
	double s = 0;

	for (; r > 0; r &= r - 1) {
		c += w->fcnt[r];
		s += w->fsum[r];
	}
	*cnt = c;
	*sum = s;
}

static void fen_add(struct cp_work *w, size_t len, size_t r, double v)
{
	for (r++; r <= len; r += r & -r) {
		w->fcnt[r]++;
		w->fsum[r] += v;
	}
}

/*
 * Ranks within segment [a, e) and each entry's distance sum to the rest
 * of the segment; the scan order restarts as the identity.
 */
static void seg_prepare(struct cp_work *w, size_t a, size_t e)
{
	size_t len = e - a, k;
	double below = 0, total = 0;

	for (k = 0; k < len; k++) {
		w->sorted[k] = (struct cp_sorted){ w->y[a + k], a + k };
		w->idx[a + k] = a + k;
		total += w->y[a + k];
	}
	qsort(w->sorted, len, sizeof(*w->sorted), cmp_sorted);
	for (k = 0; k < len; k++) {
		double v = w->sorted[k].v;
		size_t i = w->sorted[k].i;

		w->rank[i] = k;
		/* k entries at or below v, len - 1 - k at or above */
		w->sabs[i] = v * (double)k - below +
			     (total - below - v) - v * (double)(len - 1 - k);
		below += v;
	}
}

/*
 * The best split of segment [a, e) in its current order: the largest
 * Q = m n / (m + n) * (2/(m n) S_xy - S_xx / C(m, 2) - S_yy / C(n, 2))
 * over left sizes m with both sides at least w->min long, where S_xy
 * sums |y_i - y_j| across the split and S_xx, S_yy within each side.
 * Moving the split one entry right moves that entry's distances: l to
 * the entries left of it (from the tree) leave S_xy and join S_xx, the
 * rest (sabs - l) join S_xy.  Returns -INFINITY if no split fits.
 */
static double seg_best(struct cp_work *w, size_t a, size_t e, size_t *tau)
{
	size_t len = e - a, t, cnt;
	double tot = 0, ins = 0, sxx = 0, sxy = 0, best = -INFINITY;

	if (len < 2 * w->min)
		return best;
	for (t = a; t < e; t++)
		tot += w->sabs[t];
	tot /= 2;		/* every pair was counted from both ends */
	memset(w->fcnt, 0, (len + 1) * sizeof(*w->fcnt));
	memset(w->fsum, 0, (len + 1) * sizeof(*w->fsum));
	for (t = 0; t + w->min < len; t++) {
		size_t i = w->idx[a + t];
		double z = w->y[i], sl, l, m, n, syy, q;

		fen_query(w, w->rank[i], &cnt, &sl);
		l = z * (double)cnt - sl + (ins - sl) - z * (double)(t - cnt);
		sxx += l;
		sxy += w->sabs[i] - 2 * l;
		fen_add(w, len, w->rank[i], z);
		ins += z;
		if (t + 1 < w->min)
			continue;
		m = (double)(t + 1);
		n = (double)(len - t - 1);
		syy = tot - sxx - sxy;
		q = 2.0 / (double)len *
		    (sxy - sxx * n / (m - 1) - syy * m / (n - 1));
		if (q > best) {
			best = q;
			*tau = a + t + 1;
		}
	}
	return best;
}

/* ---- the search ---- */

/*
 * The best split over all segments in their current order; with
 * stop_at finite, returns as soon as one segment reaches it (all a
 * permutation needs to know).
 */
static double best_split(struct cp_work *w, double stop_at, size_t *tau)
{
	double best = -INFINITY, q;
	size_t s, t = 0;

	for (s = 0; s + 1 < w->ncuts; s++) {
		q = seg_best(w, w->cuts[s], w->cuts[s + 1], &t);
		if (q > best) {
			best = q;
			*tau = t;
		}
		if (best >= stop_at)
			break;
	}
	return best;
}

/* Fisher-Yates within every segment that can still be split. */
static void shuffle_segments(struct cp_work *w)
{
	size_t s, a, len, k, j, tmp;

	for (s = 0; s + 1 < w->ncuts; s++) {
		a = w->cuts[s];
		len = w->cuts[s + 1] - a;
		if (len < 2 * w->min)
			continue;
		for (k = len - 1; k > 0; k--) {
			j = vsb_rng_below(&w->g, k + 1);
			tmp = w->idx[a + k];
			w->idx[a + k] = w->idx[a + j];
			w->idx[a + j] = tmp;
		}
	}
}

/*
 * Permutation p-value of the observed best split q_obs.  The split is
 * significant when (c + 1) / (R + 1) <= alpha, c counting permutations
 * whose best split reaches q_obs; so h = floor(alpha (R + 1)) such
 * permutations settle it as not significant, and the loop stops there
 * (Besag and Clifford 1991), reporting at least (h + 1) / (R + 1), which
 * is above alpha.  A significant split always runs all R permutations.
 */
static double perm_pvalue(struct cp_work *w, double q_obs, double alpha,
			  unsigned int perms)
{
	unsigned int h = (unsigned int)floor(alpha * (perms + 1.0) + 1e-9);
	unsigned int r, c = 0;
	/* rounding must not make a permuted copy of the data look smaller */
	double reach = q_obs - 1e-12 * fabs(q_obs);
	size_t tau;

	if (h == 0)
		return 1.0;	/* too few permutations to ever reach alpha */
	for (r = 1; r <= perms; r++) {
		shuffle_segments(w);
		if (best_split(w, reach, &tau) >= reach && ++c >= h)
			return fmax((double)c / r, (c + 1.0) / (perms + 1.0));
	}
	return (c + 1.0) / (perms + 1.0);
}

static void add_cut(struct cp_work *w, size_t tau)
{
	size_t k = w->ncuts;

	while (k > 0 && w->cuts[k - 1] > tau) {
		w->cuts[k] = w->cuts[k - 1];
		k--;
	}
	w->cuts[k] = tau;
	w->ncuts++;
}

/* Medians either side of each cut, over the final segmentation. */
static void describe(const struct cp_work *w, struct vsb_cp *out, size_t nout)
{
	size_t k, c;

	for (k = 0; k < nout; k++) {
		for (c = 1; w->cuts[c] != out[k].index; c++)
			;
		out[k].before = range_median(w->x, w->cuts[c - 1], w->cuts[c]);
		out[k].after = range_median(w->x, w->cuts[c], w->cuts[c + 1]);
		out[k].rel_change = out[k].before != 0 ?
			(out[k].after - out[k].before) / out[k].before : NAN;
	}
}

static int cmp_cp(const void *a, const void *b)
{
	const struct vsb_cp *p = a, *q = b;

	return (p->index > q->index) - (p->index < q->index);
}

static void work_init(struct cp_work *w, const double *x, size_t n,
		      size_t min, size_t max_out, uint64_t seed)
{
	double med = range_median(x, 0, n);
	size_t i;

	memset(w, 0, sizeof(*w));
	w->n = n;
	w->min = min;
	w->x = x;
	w->y = vsb_zalloc(n * sizeof(*w->y));
	for (i = 0; i < n; i++)
		w->y[i] = x[i] - med;
	w->idx = vsb_zalloc(n * sizeof(*w->idx));
	w->rank = vsb_zalloc(n * sizeof(*w->rank));
	w->sabs = vsb_zalloc(n * sizeof(*w->sabs));
	w->fsum = vsb_zalloc((n + 1) * sizeof(*w->fsum));
	w->fcnt = vsb_zalloc((n + 1) * sizeof(*w->fcnt));
	w->sorted = vsb_zalloc(n * sizeof(*w->sorted));
	w->cuts = vsb_zalloc((max_out + 2) * sizeof(*w->cuts));
	w->cuts[0] = 0;
	w->cuts[1] = n;
	w->ncuts = 2;
	vsb_rng_seed(&w->g, seed);
}

static void work_free(struct cp_work *w)
{
	free(w->y);
	free(w->idx);
	free(w->rank);
	free(w->sabs);
	free(w->fsum);
	free(w->fcnt);
	free(w->sorted);
	free(w->cuts);
}

static int check_series(const double *x, size_t n)
{
	size_t i;

	if (!x && n)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return -EINVAL;
	return 0;
}

/* 1 when x[0..n) takes at least two values */
static int has_spread(const double *x, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (x[i] != x[0])
			return 1;
	return 0;
}

int vsb_changepoints(const double *x, size_t n, double alpha,
		     unsigned int permutations, uint64_t seed,
		     size_t min_segment, struct vsb_cp *out, size_t max_out,
		     size_t *nout)
{
	struct cp_work w;
	size_t s, tau = 0, found = 0;
	double q, p;

	if (!nout || (max_out && !out) || !(alpha > 0 && alpha < 1) ||
	    !permutations || check_series(x, n))
		return -EINVAL;
	*nout = 0;
	if (min_segment < 2)
		min_segment = 2;
	if (!max_out || n < 2 * min_segment || !has_spread(x, n))
		return 0;
	work_init(&w, x, n, min_segment, max_out, seed);
	while (found < max_out) {
		for (s = 0; s + 1 < w.ncuts; s++)
			seg_prepare(&w, w.cuts[s], w.cuts[s + 1]);
		q = best_split(&w, INFINITY, &tau);
		/* no split fits, or none separates anything */
		if (!(q > 0))
			break;
		p = perm_pvalue(&w, q, alpha, permutations);
		if (p > alpha)
			break;
		out[found++] = (struct vsb_cp){ .index = tau, .p_value = p,
						.q = q };
		add_cut(&w, tau);
	}
	qsort(out, found, sizeof(*out), cmp_cp);
	describe(&w, out, found);
	work_free(&w);
	*nout = found;
	return 0;
}

/* ---- the --check rule ---- */

/*
 * Robust sd of x[bs..be) and x[ns..n) around their own medians: 1.4826
 * times the median absolute residual, pooled, so a level shift between
 * the two does not count as noise and one wild entry hardly moves it.
 */
static double pooled_sigma(const double *x, size_t bs, size_t be, double mb,
			   size_t ns, size_t n, double mn)
{
	size_t nb = be - bs, i;
	double *r = vsb_zalloc((nb + n - ns) * sizeof(*r)), sd;

	for (i = 0; i < nb; i++)
		r[i] = fabs(x[bs + i] - mb);
	for (i = ns; i < n; i++)
		r[nb + i - ns] = fabs(x[i] - mn);
	qsort(r, nb + n - ns, sizeof(*r), cmp_double);
	sd = 1.4826 * vsb_median_sorted(r, nb + n - ns);
	free(r);
	return sd;
}

/*
 * Medians of the baseline x[bs..be) and of x[ns..n), their relative
 * change, and the margin it must pass: threshold_rel, or
 * VSB_CP_SIGMAS standard errors of the difference of two medians
 * (a median of k normal entries has sd 1.2533 sigma / sqrt(k)) if that
 * is larger, so that short segments need larger shifts.
 */
static void verdict_fill(struct vsb_cp_verdict *v, const double *x,
			 size_t bs, size_t be, size_t ns, size_t n, double thr)
{
	double sd, se;

	v->base_start = bs;
	v->base_end = be;
	v->new_start = ns;
	v->base = range_median(x, bs, be);
	v->newest = range_median(x, ns, n);
	v->rel_change = v->base > 0 ? v->newest / v->base - 1 : NAN;
	sd = pooled_sigma(x, bs, be, v->base, ns, n, v->newest);
	se = 1.2533 * sd / v->base *
	     sqrt(1.0 / (double)(be - bs) + 1.0 / (double)(n - ns));
	v->margin = v->base > 0 ? fmax(thr, VSB_CP_SIGMAS * se) : NAN;
}

/* Segment [s, n) vs [b, s), split by a change point of p-value p. */
static int segment_rule(const double *x, size_t n, size_t b, size_t s,
			double p, double thr, struct vsb_cp_verdict *v)
{
	verdict_fill(v, x, b, s, s, n, thr);
	v->rule = VSB_CP_RULE_SEGMENT;
	v->p_value = p;
	if (!(v->base > 0))
		return 0;	/* a relative change needs a positive cost */
	vsb_ratio_ci(x + b, s - b, x + s, n - s, VSB_BOOT_SEED,
		     &v->ratio_lo, &v->ratio_hi);
	return v->rel_change > v->margin && v->ratio_lo > 1;
}

/*
 * The newest of cps[0..k) with p <= alpha, or k when none: the others
 * do not count for the verdict, so a spurious split inside a regressed
 * stretch cannot hide the regression behind it.
 */
static size_t decisive(const struct vsb_cp *cps, size_t k, double alpha)
{
	size_t j = k;

	while (j > 0)
		if (cps[--j].p_value <= alpha)
			return j;
	return k;
}

/* Newest `tail` entries vs the rest of their segment (see changepoint.h). */
static int tail_rule(const double *x, size_t n, size_t seg, size_t tail,
		     double thr, double alpha, struct vsb_cp_verdict *v)
{
	struct vsb_cp_verdict t = { .rule = VSB_CP_RULE_TAIL };
	struct vsb_mwu mw;
	size_t ts = n - tail;
	double mu = (double)tail * (double)(ts - seg) / 2;

	verdict_fill(&t, x, seg, ts, ts, n, thr);
	t.ratio_lo = t.ratio_hi = NAN;
	if (!(t.base > 0) ||
	    vsb_mann_whitney(x + ts, tail, x + seg, ts - seg, &mw))
		return 0;
	/* one-sided, "newest greater": half the two-sided p on that side */
	t.p_value = mw.u > mu ? mw.p / 2 : 1 - mw.p / 2;
	t.regression = t.rel_change > t.margin && t.p_value < alpha;
	if (t.regression || v->rule == VSB_CP_RULE_NONE)
		*v = t;
	return t.regression;
}

int vsb_cp_newest_regression(const double *x, size_t n,
			     const struct vsb_cp *cps, size_t ncp,
			     double threshold_rel, size_t tail, double alpha,
			     struct vsb_cp_verdict *v)
{
	size_t k, last, prev, seg = 0;

	if (!v || check_series(x, n) || (ncp && !cps) ||
	    !(threshold_rel >= 0) || !(alpha > 0 && alpha < 1))
		return -EINVAL;
	for (k = 0; k < ncp; k++) {
		if (cps[k].index == 0 || cps[k].index >= n ||
		    (k && cps[k].index <= cps[k - 1].index))
			return -EINVAL;
	}
	memset(v, 0, sizeof(*v));
	v->rule = VSB_CP_RULE_NONE;
	v->base = v->newest = v->rel_change = v->margin = NAN;
	v->ratio_lo = v->ratio_hi = v->p_value = NAN;
	last = decisive(cps, ncp, alpha);
	if (last < ncp) {
		prev = decisive(cps, last, alpha);
		seg = cps[last].index;
		v->regression = segment_rule(x, n,
					     prev < last ? cps[prev].index : 0,
					     seg, cps[last].p_value,
					     threshold_rel, v);
		if (v->regression)
			return 0;
	}
	if (tail && n - seg >= tail + VSB_CP_TAIL_BASE)
		v->regression = tail_rule(x, n, seg, tail, threshold_rel,
					  alpha, v);
	return 0;
}
