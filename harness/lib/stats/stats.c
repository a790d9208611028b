// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics over repetitions: summary numbers (median, min, max, mean,
 * sample standard deviation (n - 1), coefficient of variation), a
 * percentile-bootstrap confidence interval of the median, outliers by
 * median absolute deviation, and the two-sided Mann-Whitney U test that
 * `compare` uses.  Raw samples are always kept by the caller; everything
 * here works on a copy.
 *
 * Reproducibility is a requirement, not a nicety: the bootstrap draws
 * from a seeded splitmix64 stream, so the same samples always give the
 * same interval, and a compare rerun on the same files gives the same
 * verdicts.
 *
 * The run-level helpers at the end (stats.h) group samples by the
 * process that measured them; no statistics library we could link (GSL
 * has neither a hierarchical bootstrap nor an exact Mann-Whitney) does
 * these, and they are a few dozen lines each.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "vsb.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double *sorted_copy(const double *v, size_t n)
{
	double *s = vsb_zalloc(n * sizeof(*s));

	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	return s;
}

double vsb_median_sorted(const double *v, size_t n)
{
	if (!n)
		return NAN;
	if (n & 1)
		return v[n / 2];
	return (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

double vsb_median(const double *v, size_t n)
{
	double *s, m;

	if (!n)
		return NAN;
	s = sorted_copy(v, n);
	m = vsb_median_sorted(s, n);
	free(s);
	return m;
}

void vsb_stats_compute(const double *v, size_t n, struct vsb_stats *st)
{
	double *s, sum = 0, sq = 0;
	size_t i;

	memset(st, 0, sizeof(*st));
	st->n = n;
	if (!n) {
		st->median = st->min = st->max = st->mean = NAN;
		st->stddev = st->cv = st->ci_lo = st->ci_hi = NAN;
		return;
	}
	s = sorted_copy(v, n);
	st->median = vsb_median_sorted(s, n);
	st->min = s[0];
	st->max = s[n - 1];
	for (i = 0; i < n; i++)
		sum += s[i];
	st->mean = sum / (double)n;
	for (i = 0; i < n; i++)
		sq += (s[i] - st->mean) * (s[i] - st->mean);
	st->stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0.0;
	st->cv = st->mean != 0 ? st->stddev / st->mean : NAN;
	free(s);
	vsb_median_ci(v, n, VSB_BOOT_SEED, &st->ci_lo, &st->ci_hi);
	st->outliers = vsb_mad_outliers(v, n, NULL);
}

/* ---- PRNG ---- */

void vsb_rng_seed(struct vsb_rng *g, uint64_t seed)
{
	g->s = seed;
}

/* splitmix64 (Steele, Lea, Flood 2014): one add, three xor-shift-multiplies. */
uint64_t vsb_rng_next(struct vsb_rng *g)
{
	uint64_t z = (g->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Rejection sampling: a plain modulo would favour small values. */
size_t vsb_rng_below(struct vsb_rng *g, size_t n)
{
	uint64_t lim, x;

	if (n <= 1)
		return 0;
	lim = UINT64_MAX - UINT64_MAX % n;
	do {
		x = vsb_rng_next(g);
	} while (x >= lim);
	return (size_t)(x % n);
}

/* ---- quantiles and the bootstrap ---- */

double vsb_quantile_sorted(const double *v, size_t n, double p)
{
	double h;
	size_t lo;

	if (!n)
		return NAN;
	if (p <= 0)
		return v[0];
	if (p >= 1)
		return v[n - 1];
	h = (double)(n - 1) * p;
	lo = (size_t)h;
	if (lo + 1 >= n)
		return v[n - 1];
	return v[lo] + (h - (double)lo) * (v[lo + 1] - v[lo]);
}

/*
 * The median of one resample of sorted @s, drawn as index counts: the
 * resample's order statistics are read off the cumulative counts, so
 * no resample is ever sorted (O(n) instead of O(n log n)).
 */
static double boot_median(const double *s, size_t n, unsigned int *cnt,
			  struct vsb_rng *g)
{
	size_t i, cum = 0, k1 = (n - 1) / 2, k2 = n / 2;
	double a = NAN;

	memset(cnt, 0, n * sizeof(*cnt));
	for (i = 0; i < n; i++)
		cnt[vsb_rng_below(g, n)]++;
	for (i = 0; i < n; i++) {
		size_t next = cum + cnt[i];

		if (isnan(a) && k1 < next)
			a = s[i];
		if (k2 < next)
			return (a + s[i]) / 2.0;
		cum = next;
	}
	return a;	/* not reached: the counts sum to n */
}

/* VSB_BOOT_RESAMPLES medians of resamples of @v, sorted copy in @s. */
static double *boot_medians(const double *v, size_t n, struct vsb_rng *g)
{
	double *s = sorted_copy(v, n);
	double *m = vsb_zalloc(VSB_BOOT_RESAMPLES * sizeof(*m));
	unsigned int *cnt = vsb_zalloc(n * sizeof(*cnt));
	size_t b;

	for (b = 0; b < VSB_BOOT_RESAMPLES; b++)
		m[b] = boot_median(s, n, cnt, g);
	free(cnt);
	free(s);
	return m;
}

void vsb_median_ci(const double *v, size_t n, uint64_t seed, double *lo,
		   double *hi)
{
	struct vsb_rng g;
	double *m;

	if (!n) {
		*lo = *hi = NAN;
		return;
	}
	vsb_rng_seed(&g, seed);
	m = boot_medians(v, n, &g);
	qsort(m, VSB_BOOT_RESAMPLES, sizeof(*m), cmp_double);
	*lo = vsb_quantile_sorted(m, VSB_BOOT_RESAMPLES, 0.025);
	*hi = vsb_quantile_sorted(m, VSB_BOOT_RESAMPLES, 0.975);
	free(m);
}

void vsb_ratio_ci(const double *a, size_t na, const double *b, size_t nb,
		  uint64_t seed, double *lo, double *hi)
{
	struct vsb_rng g;
	double *ma, *mb;
	size_t i;

	if (!na || !nb) {
		*lo = *hi = NAN;
		return;
	}
	vsb_rng_seed(&g, seed);
	ma = boot_medians(a, na, &g);
	mb = boot_medians(b, nb, &g);
	for (i = 0; i < VSB_BOOT_RESAMPLES; i++)
		mb[i] = ma[i] != 0 ? mb[i] / ma[i] : NAN;
	qsort(mb, VSB_BOOT_RESAMPLES, sizeof(*mb), cmp_double);
	*lo = vsb_quantile_sorted(mb, VSB_BOOT_RESAMPLES, 0.025);
	*hi = vsb_quantile_sorted(mb, VSB_BOOT_RESAMPLES, 0.975);
	free(ma);
	free(mb);
}

/* ---- outliers ---- */

double vsb_mad(const double *v, size_t n)
{
	double *s, med, mad;
	size_t i;

	if (!n)
		return NAN;
	s = sorted_copy(v, n);
	med = vsb_median_sorted(s, n);
	for (i = 0; i < n; i++)
		s[i] = fabs(v[i] - med);
	qsort(s, n, sizeof(*s), cmp_double);
	mad = vsb_median_sorted(s, n);
	free(s);
	return mad;
}

size_t vsb_mad_outliers(const double *v, size_t n, unsigned char *flags)
{
	double *s, med, scale, sum = 0;
	size_t i, out = 0;

	if (flags)
		memset(flags, 0, n);
	if (n < 3)
		return 0;	/* two points cannot outvote each other */
	s = sorted_copy(v, n);
	med = vsb_median_sorted(s, n);
	free(s);
	/* modified z = 0.6745 (x - med) / MAD; 0.6745 = 1 / 1.4826 */
	scale = vsb_mad(v, n) * 1.4826;
	if (scale == 0) {
		for (i = 0; i < n; i++)
			sum += fabs(v[i] - med);
		scale = sum / (double)n * 1.2533;
	}
	if (scale == 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (fabs(v[i] - med) / scale > VSB_MAD_CUTOFF) {
			out++;
			if (flags)
				flags[i] = 1;
		}
	}
	return out;
}

/* ---- Mann-Whitney U ---- */

struct ranked {
	double v;
	int from_a;
};

static int cmp_ranked(const void *x, const void *y)
{
	return cmp_double(&((const struct ranked *)x)->v,
			  &((const struct ranked *)y)->v);
}

/*
 * Exact null distribution of U for sizes m, n without ties: the number
 * of arrangements with U = u is the coefficient of q^u in the Gaussian
 * binomial [m+n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i).
 * Counts stay below C(50, 25) < 2^53, so doubles hold them exactly.
 * Returns P(U <= u).
 */
static double mwu_exact_cdf(size_t m, size_t n, double u)
{
	size_t max = m * n, i, k;
	double *c = vsb_zalloc((max + 1) * sizeof(*c));
	double total = 0, below = 0;

	c[0] = 1;
	for (i = 1; i <= m; i++) {
		/* multiply by (1 - q^(n+i)), then divide by (1 - q^i) */
		for (k = max; k >= n + i; k--)
			c[k] -= c[k - (n + i)];
		for (k = i; k <= max; k++)
			c[k] += c[k - i];
	}
	for (k = 0; k <= max; k++) {
		total += c[k];
		if ((double)k <= u + 1e-9)
			below += c[k];
	}
	free(c);
	return below / total;
}

int vsb_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		     struct vsb_mwu *res)
{
	size_t n = na + nb, i, j;
	struct ranked *r;
	double ra = 0, ties = 0, mu, sigma, d;

	memset(res, 0, sizeof(*res));
	res->p = NAN;
	if (!na || !nb)
		return -1;
	r = vsb_zalloc(n * sizeof(*r));
	for (i = 0; i < na; i++)
		r[i] = (struct ranked){ a[i], 1 };
	for (i = 0; i < nb; i++)
		r[na + i] = (struct ranked){ b[i], 0 };
	qsort(r, n, sizeof(*r), cmp_ranked);
	/* midranks: a tie group at 0-based positions i..j-1 gets (i+j+1)/2 */
	for (i = 0; i < n; i = j) {
		double t;
		size_t k;

		for (j = i; j < n && r[j].v == r[i].v; j++)
			;
		for (k = i; k < j; k++)
			if (r[k].from_a)
				ra += (double)(i + j + 1) / 2.0;
		t = (double)(j - i);
		ties += t * t * t - t;
	}
	free(r);
	res->u = ra - (double)na * (double)(na + 1) / 2.0;
	mu = (double)na * (double)nb / 2.0;

	if (ties == 0 && n <= VSB_MWU_EXACT_MAX) {
		double lo = mwu_exact_cdf(na, nb, res->u);
		/* symmetric: P(U >= u) = P(U <= 2 mu - u) */
		double hi = mwu_exact_cdf(na, nb, 2 * mu - res->u);

		res->exact = 1;
		res->p = fmin(1.0, 2.0 * fmin(lo, hi));
		return 0;
	}
	sigma = sqrt((double)na * (double)nb / 12.0 *
		     ((double)(n + 1) - ties / ((double)n * (double)(n - 1))));
	if (sigma == 0) {
		res->p = 1.0;	/* every value tied: nothing to tell apart */
		return 0;
	}
	/* continuity correction: U moves in steps of 1/2 with ties, 1 without */
	d = fabs(res->u - mu) - 0.5;
	res->z = d > 0 ? d / sigma : 0;
	res->p = fmin(1.0, erfc(res->z / sqrt(2.0)));
	return 0;
}

/* ---- runs: samples grouped by the process that measured them ---- */

static size_t run_len(const struct vsb_runs *r, size_t i)
{
	return r->off[i + 1] - r->off[i];
}

void vsb_runs_medians(const struct vsb_runs *r, double *m)
{
	size_t i;

	for (i = 0; i < r->nruns; i++) {
		double *s = sorted_copy(r->v + r->off[i], run_len(r, i));

		m[i] = vsb_median_sorted(s, run_len(r, i));
		free(s);
	}
}

/* The median of @n values, which it reorders. */
static double median_inplace(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return vsb_median_sorted(v, n);
}

double vsb_runs_stat(const struct vsb_runs *r, enum vsb_runs_how how)
{
	size_t n = r->nruns ? r->off[r->nruns] : 0;
	double *m, med;

	if (!n)
		return NAN;
	if (how == VSB_RUNS_POOLED) {
		m = sorted_copy(r->v, n);
		med = vsb_median_sorted(m, n);
	} else {
		m = vsb_zalloc(r->nruns * sizeof(*m));
		vsb_runs_medians(r, m);
		med = median_inplace(m, r->nruns);
	}
	free(m);
	return med;
}

/*
 * The relative deviations |m_r / median - 1| of @r's run medians into
 * @dev; how many (none for a side of one run: it has no spread to show).
 */
static size_t runs_rel_dev(const struct vsb_runs *r, double *dev)
{
	double *m, med;
	size_t i;

	if (r->nruns < 2)
		return 0;
	m = vsb_zalloc(r->nruns * sizeof(*m));
	vsb_runs_medians(r, m);
	for (i = 0; i < r->nruns; i++)
		dev[i] = m[i];
	med = median_inplace(dev, r->nruns);
	for (i = 0; i < r->nruns; i++)
		dev[i] = med != 0 ? fabs(m[i] / med - 1) : 0;
	free(m);
	return r->nruns;
}

double vsb_runs_between_cv(const struct vsb_runs *a, const struct vsb_runs *b)
{
	double *dev = vsb_zalloc((a->nruns + b->nruns) * sizeof(*dev)), cv;
	size_t n = runs_rel_dev(a, dev);

	n += runs_rel_dev(b, dev + n);
	/* 1.4826 x MAD: the standard deviation, were the runs normal */
	cv = n ? 1.4826 * median_inplace(dev, n) : NAN;
	free(dev);
	return cv;
}

/*
 * One hierarchical resample of @r: runs drawn with replacement, then
 * each drawn run's samples with replacement.  @buf holds the pooled
 * draw (every sample's count) and @med the drawn runs' medians.
 */
static double runs_resample(const struct vsb_runs *r, enum vsb_runs_how how,
			    struct vsb_rng *g, double *buf, double *med)
{
	size_t i, j, k = 0;

	for (i = 0; i < r->nruns; i++) {
		size_t run = vsb_rng_below(g, r->nruns), n = run_len(r, run);
		const double *v = r->v + r->off[run];
		double *dst = buf + k;

		for (j = 0; j < n; j++)
			dst[j] = v[vsb_rng_below(g, n)];
		if (how == VSB_RUNS_MEDIANS)
			med[i] = median_inplace(dst, n);
		else
			k += n;
	}
	if (how == VSB_RUNS_MEDIANS)
		return median_inplace(med, r->nruns);
	return median_inplace(buf, k);
}

/* The largest run of @r: the most one drawn run can add to a pooled draw. */
static size_t runs_max_len(const struct vsb_runs *r)
{
	size_t i, max = 0;

	for (i = 0; i < r->nruns; i++)
		if (run_len(r, i) > max)
			max = run_len(r, i);
	return max;
}

/* VSB_BOOT_RESAMPLES hierarchical resample statistics of @r. */
static double *runs_boot(const struct vsb_runs *r, enum vsb_runs_how how,
			 struct vsb_rng *g)
{
	double *out = vsb_zalloc(VSB_BOOT_RESAMPLES * sizeof(*out));
	double *buf = vsb_zalloc(r->nruns * runs_max_len(r) * sizeof(*buf));
	double *med = vsb_zalloc(r->nruns * sizeof(*med));
	size_t b;

	for (b = 0; b < VSB_BOOT_RESAMPLES; b++)
		out[b] = runs_resample(r, how, g, buf, med);
	free(med);
	free(buf);
	return out;
}

void vsb_runs_ratio_ci(const struct vsb_runs *a, const struct vsb_runs *b,
		       enum vsb_runs_how how, uint64_t seed, double *lo,
		       double *hi)
{
	struct vsb_rng g;
	double *ma, *mb;
	size_t i;

	if (!a->nruns || !b->nruns || !a->off[a->nruns] || !b->off[b->nruns]) {
		*lo = *hi = NAN;
		return;
	}
	vsb_rng_seed(&g, seed);
	ma = runs_boot(a, how, &g);
	mb = runs_boot(b, how, &g);
	for (i = 0; i < VSB_BOOT_RESAMPLES; i++)
		mb[i] = ma[i] != 0 ? mb[i] / ma[i] : NAN;
	qsort(mb, VSB_BOOT_RESAMPLES, sizeof(*mb), cmp_double);
	*lo = vsb_quantile_sorted(mb, VSB_BOOT_RESAMPLES, 0.025);
	*hi = vsb_quantile_sorted(mb, VSB_BOOT_RESAMPLES, 0.975);
	free(ma);
	free(mb);
}

double vsb_mwu_min_p(size_t na, size_t nb)
{
	double c = 1;
	size_t i;

	if (!na || !nb)
		return 1;
	/* C(na + nb, na) as a running product; exact in doubles this small */
	for (i = 1; i <= na; i++)
		c = c * (double)(nb + i) / (double)i;
	return fmin(1.0, 2.0 / c);
}

/*
 * The number of size-@k subsets of the @n integer weights @w with each
 * weight sum, into @cnt[0..smax] (the classic subset-sum count, rows
 * updated from the largest size down so each weight is used once).
 */
static void subset_sums(const unsigned int *w, size_t n, size_t k, double *cnt,
			size_t smax)
{
	size_t i, j, s, len = smax + 1;
	double *row = vsb_zalloc((k + 1) * len * sizeof(*row));

	row[0] = 1;
	for (i = 0; i < n; i++)
		for (j = (i + 1 < k ? i + 1 : k); j >= 1; j--)
			for (s = smax; s >= w[i]; s--)
				row[j * len + s] += row[(j - 1) * len + s - w[i]];
	memcpy(cnt, row + k * len, len * sizeof(*cnt));
	free(row);
}

int vsb_mwu_exact_ties(const double *a, size_t na, const double *b, size_t nb,
		       struct vsb_mwu *res)
{
	size_t n = na + nb, i, j, k, smax = 0, wa = 0, mean2;
	struct ranked *r;
	unsigned int *w;
	double *cnt, total = 0, tail = 0;

	if (!na || !nb || n > VSB_MWU_EXACT_MAX)
		return vsb_mann_whitney(a, na, b, nb, res);
	vsb_mann_whitney(a, na, b, nb, res);	/* u, and the no-ties answer */
	if (res->exact)
		return 0;
	r = vsb_zalloc(n * sizeof(*r));
	w = vsb_zalloc(n * sizeof(*w));
	for (i = 0; i < n; i++)
		r[i] = (struct ranked){ i < na ? a[i] : b[i - na], i < na };
	qsort(r, n, sizeof(*r), cmp_ranked);
	/* doubled midranks are integers: a tie group at i..j-1 gets i+j+1 */
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && r[j].v == r[i].v; j++)
			;
		for (k = i; k < j; k++) {
			w[k] = (unsigned int)(i + j + 1);
			wa += r[k].from_a ? w[k] : 0;
			smax += w[k];
		}
	}
	cnt = vsb_zalloc((smax + 1) * sizeof(*cnt));
	subset_sums(w, n, na, cnt, smax);
	mean2 = na * (n + 1);	/* doubled expected rank sum of a */
	for (k = 0; k <= smax; k++) {
		total += cnt[k];
		/* two-sided: as far from the mean as observed, or farther */
		if (labs((long)k - (long)mean2) >= labs((long)wa - (long)mean2))
			tail += cnt[k];
	}
	res->p = fmin(1.0, tail / total);
	res->z = 0;
	res->exact = 1;
	free(cnt);
	free(w);
	free(r);
	return 0;
}
