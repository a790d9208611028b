// SPDX-License-Identifier: GPL-2.0
/*
 * What the chart builders share (charts.c's table, charts_sweep.c,
 * charts_live.c): small string sets for an axis's values, growing
 * gnuplot expressions, and which rows of a sweep.csv a chart takes.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_model.h"
#include "charts_int.h"
#include "result_cells.h"
#include "csvread.h"
#include "vsb.h"

/* ---- small string sets, the lists a script iterates over ---- */

void vsb_strset_add(struct vsb_strset *s, const char *v)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], v)) {
			s->count[i]++;
			return;
		}
	if (s->n < 64) {
		snprintf(s->v[s->n], sizeof(s->v[0]), "%s", v);
		s->count[s->n++] = 1;
	}
}

int vsb_strset_has(const struct vsb_strset *s, const char *v)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], v))
			return 1;
	return 0;
}

static int cmp_num(const void *a, const void *b)
{
	double x = vsb_cell_real(a), y = vsb_cell_real(b);

	/* a cell that is no figure sorts last, as one value */
	if (isnan(x) || isnan(y))
		return isnan(x) - isnan(y);
	return (x > y) - (x < y);
}

void vsb_strset_sort_num(struct vsb_strset *s)
{
	/* counts are only used before sorting */
	qsort(s->v, s->n, sizeof(s->v[0]), cmp_num);
}

void vsb_strset_join(const struct vsb_strset *s, char *buf, size_t len)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < s->n && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? " " : "", s->v[i]);
}

const char *vsb_strset_most_common(const struct vsb_strset *s)
{
	size_t i, best = 0;

	for (i = 1; i < s->n; i++)
		if (s->count[i] > s->count[best])
			best = i;
	return s->n ? s->v[best] : "";
}

void vsb_chart_cat(char **buf, const char *fmt, ...)
{
	char *add = NULL, *n = NULL;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&add, fmt, ap);
	va_end(ap);
	if (r < 0 || asprintf(&n, "%s%s", *buf ? *buf : "", add) < 0) {
		vsb_err("out of memory");
		exit(VSB_EXIT_ERROR);
	}
	free(add);
	free(*buf);
	*buf = n;
}

/* ---- sweep.csv rows ---- */

const char *vsb_chart_cell(const struct vsb_csv *c, size_t r, int col)
{
	return col < 0 ? "" : vsb_csv_cell(c, r, col);
}

/*
 * A row drawn in the counter's charts (its bench's model says so); a
 * sweep.csv from before the bench column had only counter rows.
 */
static int is_counter(const struct vsb_csv *c, const struct vsb_pcols *k, size_t r)
{
	return k->bench < 0 ||
	       vsb_bench_model(vsb_chart_cell(c, r, k->bench))->charts == VSB_CHARTS_COUNTER;
}

/* what the classic charts show: no fold policy, every worker updating */
int vsb_chart_is_plain(const struct vsb_csv *c, const struct vsb_pcols *k, size_t r)
{
	const char *f = vsb_chart_cell(c, r, k->fold);

	return is_counter(c, k, r) && (!*f || !strcmp(f, "none")) &&
	       vsb_cell_long(vsb_chart_cell(c, r, k->quiet), 0) == 0;
}

int vsb_chart_is_drift(const struct vsb_csv *c, const struct vsb_pcols *k, size_t r)
{
	return is_counter(c, k, r) && vsb_cell_long(vsb_chart_cell(c, r, k->drift), 0) != 0 &&
	       vsb_cell_long(vsb_chart_cell(c, r, k->quiet), 0) == 0 && *vsb_chart_cell(c, r, k->dmax);
}

int vsb_chart_is_quiet(const struct vsb_csv *c, const struct vsb_pcols *k, size_t r)
{
	return is_counter(c, k, r) && vsb_cell_long(vsb_chart_cell(c, r, k->quiet), 0) > 0 &&
	       *vsb_chart_cell(c, r, k->smax);
}

/* "variant" or, when the rows come from several backends, "variant@backend" */
void vsb_chart_vkey(const struct vsb_csv *c, const struct vsb_pcols *k, size_t r,
		 int multib, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", vsb_chart_cell(c, r, k->var), multib ? "@" : "",
		 multib ? vsb_chart_cell(c, r, k->backend) : "");
}

int vsb_chart_fold_rank(const char *f)
{
	return !strcmp(f, "none") ? 0 : !strcmp(f, "local") ? 1 :
	       !strcmp(f, "remote") ? 2 : 3;
}


/* ---- a sweep.csv: what every chart starts from, then each chart ---- */
