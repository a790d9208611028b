// SPDX-License-Identifier: GPL-2.0
/*
 * Summary statistics over repetitions: median, min, max, mean, sample
 * standard deviation (n - 1) and coefficient of variation.  Raw samples
 * are always kept by the caller; this only summarises a copy.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vsb.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double vsb_median_sorted(const double *v, size_t n)
{
	if (!n)
		return NAN;
	if (n & 1)
		return v[n / 2];
	return (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

void vsb_stats_compute(const double *v, size_t n, struct vsb_stats *st)
{
	double *s, sum = 0, sq = 0;
	size_t i;

	memset(st, 0, sizeof(*st));
	st->n = n;
	if (!n) {
		st->median = st->min = st->max = st->mean = NAN;
		st->stddev = st->cv = NAN;
		return;
	}
	s = vsb_zalloc(n * sizeof(*s));
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
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
}
