// SPDX-License-Identifier: GPL-2.0
/*
 * The store's noise model for compare: how far runs of a point differ on
 * one machine, learned from the runs of it the store already holds.
 *
 * Two results of one run a side cannot show their own between-run
 * noise: repetitions inside one process share its state (where the host
 * put the vCPUs, the heap's layout, the neighbours of that minute), so
 * they understate how far two runs made apart differ.  A store that has
 * seen the same point on the same machine (its fingerprint, store.h)
 * many times has measured exactly that spread; compare_judge.c takes it
 * as the noise floor of a one-run comparison.  The compared runs are
 * left out (a `sweep --db` has imported them already), so a pair never
 * vouches for itself.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "stats.h"
#include "store.h"
#include "vsb.h"

/* 1 when @run_id is one of side @s's runs (a worker process's: "ID#pK") */
static int side_has_run(const struct vsb_cmp_side *s, const char *run_id)
{
	size_t i, n = strlen(run_id);

	for (i = 0; i < s->nruns; i++)
		if (!strncmp(s->runs[i], run_id, n) &&
		    (!s->runs[i][n] || !strncmp(s->runs[i] + n, "#p", 2)))
			return 1;
	return 0;
}

/*
 * How far one run differs from the next, from @n run medians in the
 * order they were made: 1.4826 x the median of |d - median d| over the
 * steps d = ln(m[i] / m[i - 1]), over sqrt 2 (a step spans two runs'
 * noise).  Taken from successive runs, not about the series' median,
 * because a store holds history: an earlier real change (a patch that
 * landed, a new kernel) is one step among many here, where about the
 * median it would count as noise in every run after it, and the floor
 * built on it would hide the next regression (a store of four sweeps at
 * 9.0 and four at 10.0 floored a +20% change away).
 */
static double robust_cv(double *m, size_t n)
{
	double *d, med;
	size_t i, k = 0;

	if (n < 2)
		return NAN;
	d = vsb_zalloc(n * sizeof(*d));
	for (i = 1; i < n; i++)
		if (m[i] > 0 && m[i - 1] > 0)
			d[k++] = log(m[i] / m[i - 1]);
	med = k ? vsb_median(d, k) : NAN;
	for (i = 0; i < k; i++)
		d[i] = fabs(d[i] - med);
	med = k ? 1.4826 * vsb_median(d, k) / M_SQRT2 : NAN;
	free(d);
	return med;
}

/* BASE's point @p: the stored runs of it on its machine, newest last. */
static int point_noise(struct vsb_store *st, const struct vsb_compare *c,
		       struct vsb_cmp_point *p)
{
	struct vsb_series se;
	double *m;
	size_t i, n = 0;
	int ret;

	p->store_cv = NAN;
	p->store_runs = 0;
	if (!p->skey || !p->machine[0])
		return 0;
	ret = vsb_store_series(st, p->skey, p->machine, &se);
	if (ret)
		return ret;
	m = vsb_zalloc((se.n + 1) * sizeof(*m));
	/* the newest first, up to the cap; never the runs being compared */
	for (i = se.n; i-- > 0 && n < VSB_CMP_STORE_MAX_RUNS;) {
		const struct vsb_series_run *r = &se.runs[i];

		if (!r->n || !isfinite(r->median) || side_has_run(&c->base, r->run_id) ||
		    side_has_run(&c->new, r->run_id))
			continue;
		m[n++] = r->median;
	}
	if (n >= VSB_CMP_STORE_MIN_RUNS) {
		p->store_runs = n;
		p->store_cv = robust_cv(m, n);
	}
	free(m);
	vsb_series_free(&se);
	return 0;
}

int vsb_cmp_store_noise(struct vsb_compare *c, const char *url)
{
	struct vsb_store *st;
	size_t i;
	int ret;

	ret = vsb_store_open(url, VSB_STORE_READ, &st);
	if (ret)
		return ret;
	for (i = 0; i < c->nv && !ret; i++)
		if (c->vs[i].b && c->vs[i].n)
			ret = point_noise(st, c, c->vs[i].b);
	vsb_store_close(st);
	return ret;
}
