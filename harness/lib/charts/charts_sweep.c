// SPDX-License-Identifier: GPL-2.0
/*
 * The counter charts of a sweep: threshold, variants, scaling and batch
 * (the plain rows: no fold policy, every worker updating), drift and
 * staleness (the fold-policy rows).  Each builder decides whether the
 * sweep has its axis and hands its script the series lists, in the
 * order the legend should show them.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "charts_int.h"
#include "result_cells.h"
#include "csvread.h"
#include "plot.h"
#include "vsb.h"

/* draw @chart with the gnuplot assignments @vars; counted even after an error */
static int draw(struct vsb_sweep_charts *s, const char *chart, const char *vars)
{
	s->made++;
	return vsb_plot_chart(chart, s->csvpath, s->outdir, s->title, vars);
}

/* the threshold chart's parallel series lists: threads, bits, variant, backend */
struct thr_lists {
	char st[1024], sb[1024], sv[2048], sk[1024];
};

/*
 * The threshold lines: series "nthreads:bits:variant:backend" with two
 * thresholds or more, sorted by threads; the number of variants among
 * them.
 */
static size_t threshold_series(const struct vsb_sweep_charts *s,
			       struct thr_lists *l)
{
	size_t o1 = 0, o2 = 0, o3 = 0, o4 = 0, i, j;
	struct vsb_strset svar = { 0 };

	for (i = 0; i < s->nth.n; i++)
		for (j = 0; j < s->series.n; j++) {
			char tmp[64], *bits, *var, *be;

			if (!s->series.v[j][0])
				continue;
			snprintf(tmp, sizeof(tmp), "%s", s->series.v[j]);
			bits = strchr(tmp, ':');
			*bits++ = '\0';
			var = strchr(bits, ':');
			*var++ = '\0';
			be = strchr(var, ':');
			*be++ = '\0';
			if (strcmp(tmp, s->nth.v[i]))
				continue;
			vsb_strset_add(&svar, var);
			o1 += snprintf(l->st + o1, sizeof(l->st) - o1, "%s ", tmp);
			o2 += snprintf(l->sb + o2, sizeof(l->sb) - o2, "%s ", bits);
			o3 += snprintf(l->sv + o3, sizeof(l->sv) - o3, "%s ", var);
			o4 += snprintf(l->sk + o4, sizeof(l->sk) - o4, "%s ",
				       *be ? be : "-");
		}
	return svar.n;
}

/* cost per update vs fold threshold, one line per core count */
int vsb_chart_threshold(struct vsb_sweep_charts *s)
{
	struct thr_lists l = { "", "", "", "" };
	char xt[2048];
	char *ex = NULL;
	size_t nvar;
	int ret;

	if (s->thr.n <= 1)
		return 0;
	nvar = threshold_series(s, &l);
	vsb_strset_join(&s->thr, xt, sizeof(xt));
	vsb_chart_cat(&ex, "%s st='%s'; sb='%s'; sv='%s'; sk='%s'; xt='%s'; "
		      "nvariants=%zu;", s->lists, l.st, l.sb, l.sv, l.sk, xt, nvar);
	ret = draw(s, "threshold", ex);
	free(ex);
	return ret;
}

/* update variants side by side, one bar per core count */
int vsb_chart_variants(struct vsb_sweep_charts *s)
{
	if (s->vars.n <= 1)
		return 0;
	return draw(s, "variants", s->lists);
}

/* 1: row @r is what the scaling chart shows of its variant */
static int at_fixed_point(const struct vsb_sweep_charts *s, size_t r)
{
	const struct vsb_csv *c = &s->csv;
	const char *v = vsb_csv_cell(c, r, s->k.var);
	const char *t = vsb_csv_cell(c, r, s->k.thr);

	if (!strcmp(v, "percpu-counter"))
		return !strcmp(vsb_csv_cell(c, r, s->k.batch), s->fbat);
	if (strcmp(vsb_csv_cell(c, r, s->k.bits), s->fbits))
		return 0;
	/* variants that never fold carry a threshold they ignore */
	return !(vsb_cell_long(t, 0) > 0 && strcmp(t, s->fthr) &&
		 strcmp(v, "this-cpu-add") && strcmp(v, "atomic-global"));
}

/* throughput per CPU at the fewest CPUs of variant key @var; NAN: none */
static double per_cpu_ref(const struct vsb_sweep_charts *s, const char *var)
{
	const struct vsb_csv *c = &s->csv;
	double best = NAN;
	long bestn = 0;
	char key[128];
	size_t r;

	for (r = 0; r < c->nrows; r++) {
		long n = vsb_cell_long(vsb_csv_cell(c, r, s->k.nth), 0);

		if (!vsb_chart_is_plain(c, &s->k, r))
			continue;
		vsb_chart_vkey(c, &s->k, r, s->multib, key, sizeof(key));
		if (strcmp(key, var) || !at_fixed_point(s, r))
			continue;
		if (!bestn || n < bestn) {
			bestn = n;
			best = vsb_csv_num(c, r, s->k.ops) / (double)n / 1e6;
		}
	}
	return best;
}

/* throughput vs CPUs, with the linear-scaling reference x * per-CPU */
int vsb_chart_scaling(struct vsb_sweep_charts *s)
{
	char ref[1024] = "";
	size_t off = 0, i;
	char *ex = NULL;
	int ret;

	if (s->nth.n <= 1)
		return 0;
	for (i = 0; i < s->vars.n; i++) {
		double best = per_cpu_ref(s, s->vars.v[i]);

		off += snprintf(ref + off, sizeof(ref) - off, "%.6g ",
				isnan(best) ? 0.0 : best);
	}
	vsb_chart_cat(&ex, "%s ref='%s';", s->lists, ref);
	ret = draw(s, "scaling", ex);
	free(ex);
	return ret;
}

/* percpu_counter cost vs batch, one line per core count */
int vsb_chart_batch(struct vsb_sweep_charts *s)
{
	char b[1024], cc[2048];
	char *ex = NULL;
	int ret;

	if (s->pcc_batch.n <= 1)
		return 0;
	vsb_strset_join(&s->pcc_nth, b, sizeof(b));
	vsb_strset_join(&s->pcc_batch, cc, sizeof(cc));
	vsb_chart_cat(&ex, "%s threads='%s'; xt='%s';", s->lists, b, cc);
	ret = draw(s, "batch", ex);
	free(ex);
	return ret;
}

/* ---- fold policies: drift and staleness ---- */

/* the drift chart's parallel series lists, one entry per line */
struct drift {
	struct vsb_strset ser, thr, var, nth, combo, be, ival;
	char sv[2048], sf[1024], st[1024], sc[512], sn[512], lab[512];
	size_t o[6], labelled[64];
};

/* the drift rows' axes: backends first, since the variant key needs them */
static void drift_axes(const struct vsb_sweep_charts *s, struct drift *d)
{
	const struct vsb_csv *c = &s->csv;
	const struct vsb_pcols *k = &s->k;
	char key[128];
	size_t r;

	for (r = 0; r < c->nrows; r++)
		if (vsb_chart_is_drift(c, k, r))
			vsb_strset_add(&d->be, vsb_chart_cell(c, r, k->backend));
	for (r = 0; r < c->nrows; r++) {
		if (!vsb_chart_is_drift(c, k, r))
			continue;
		vsb_chart_vkey(c, k, r, d->be.n > 1, key, sizeof(key));
		vsb_strset_add(&d->var, key);
		vsb_strset_add(&d->nth, vsb_csv_cell(c, r, k->nth));
		vsb_strset_add(&d->thr, vsb_csv_cell(c, r, k->thr));
		if (strcmp(vsb_chart_cell(c, r, k->fold), "none"))
			vsb_strset_add(&d->ival, vsb_chart_cell(c, r, k->fival));
	}
	vsb_strset_sort_num(&d->nth);
}

/* one line: variant key @key, fold policy @fo, the @j-th core count */
static void drift_line(struct drift *d, const char *key, const char *fo,
		       size_t j)
{
	char sr[320], cb[320];
	size_t *o = d->o;

	snprintf(sr, sizeof(sr), "%s %s %s", key, fo, d->nth.v[j]);
	if (vsb_strset_has(&d->ser, sr))
		return;
	vsb_strset_add(&d->ser, sr);
	snprintf(cb, sizeof(cb), "%s %s", key, fo);
	vsb_strset_add(&d->combo, cb);
	o[0] += snprintf(d->sv + o[0], sizeof(d->sv) - o[0], "%s ", key);
	o[1] += snprintf(d->sf + o[1], sizeof(d->sf) - o[1], "%s ", fo);
	o[2] += snprintf(d->st + o[2], sizeof(d->st) - o[2], "%s ", d->nth.v[j]);
	o[3] += snprintf(d->sc + o[3], sizeof(d->sc) - o[3], "%zu ", d->combo.n);
	o[4] += snprintf(d->sn + o[4], sizeof(d->sn) - o[4], "%zu ", j + 1);
	/* thresholds printed once per core count: on its first series */
	o[5] += snprintf(d->lab + o[5], sizeof(d->lab) - o[5], "%d ",
			 !d->labelled[j]);
	d->labelled[j] = 1;
}

/* the lines of variant @i, policy rank @f, core count @j, as the rows have them */
static void drift_lines_of(const struct vsb_sweep_charts *s, struct drift *d,
			   size_t i, int f, size_t j)
{
	const struct vsb_csv *c = &s->csv;
	const struct vsb_pcols *k = &s->k;
	char key[128];
	size_t r;

	for (r = 0; r < c->nrows; r++) {
		const char *fo = vsb_chart_cell(c, r, k->fold);

		if (!vsb_chart_is_drift(c, k, r) || vsb_chart_fold_rank(fo) != f ||
		    strcmp(vsb_csv_cell(c, r, k->nth), d->nth.v[j]))
			continue;
		vsb_chart_vkey(c, k, r, d->be.n > 1, key, sizeof(key));
		if (strcmp(key, d->var.v[i]))
			continue;
		drift_line(d, key, fo, j);
	}
}

/* cost vs max drift, a line per variant, fold policy and core count */
int vsb_chart_drift(struct vsb_sweep_charts *s)
{
	struct drift *d;
	char *ex = NULL;
	size_t i, j;
	int f, ret = 0;

	if (s->k.dmax < 0 || s->k.fold < 0)
		return 0;
	d = vsb_zalloc(sizeof(*d));
	drift_axes(s, d);
	/* series in order: variant (as swept), fold policy, core count */
	for (i = 0; i < d->var.n; i++)
		for (f = 0; f < 4; f++)
			for (j = 0; j < d->nth.n; j++)
				drift_lines_of(s, d, i, f, j);
	if (d->ser.n && (d->thr.n > 1 || d->combo.n > 1)) {
		vsb_chart_cat(&ex, "%s sv='%s'; sf='%s'; st='%s'; sc='%s'; sn='%s'; "
			      "lab='%s'; ncombo=%zu; dmultib=%d; interval=%s;",
			      s->lists, d->sv, d->sf, d->st, d->sc, d->sn, d->lab,
			      d->combo.n, d->be.n > 1,
			      d->ival.n == 1 && *d->ival.v[0] ? d->ival.v[0] : "0");
		ret = draw(s, "drift", ex);
		free(ex);
	}
	free(d);
	return ret;
}

/* the quiet-worker rows' variants, fold intervals, and the chart's note */
static void quiet_axes(const struct vsb_sweep_charts *s, struct vsb_strset *qvar,
		       struct vsb_strset *ival, char *note, size_t len)
{
	const struct vsb_csv *c = &s->csv;
	const struct vsb_pcols *k = &s->k;
	size_t r;

	for (r = 0; r < c->nrows; r++) {
		if (!vsb_chart_is_quiet(c, k, r))
			continue;
		vsb_strset_add(qvar, vsb_csv_cell(c, r, k->var));
		vsb_strset_add(ival, vsb_chart_cell(c, r, k->fival));
		if (!note[0])
			snprintf(note, len, "%ld CPUs, %s of them quiet after "
				 "writing; threshold %s",
				 vsb_cell_long(vsb_csv_cell(c, r, k->nth), 0) +
				 vsb_cell_long(vsb_chart_cell(c, r, k->quiet), 0),
				 vsb_chart_cell(c, r, k->quiet),
				 vsb_csv_cell(c, r, k->thr));
	}
}

/* how long a quiet CPU's diff stays unseen: a group per variant and policy */
int vsb_chart_staleness(struct vsb_sweep_charts *s)
{
	const struct vsb_csv *c = &s->csv;
	const struct vsb_pcols *k = &s->k;
	struct vsb_strset groups = { 0 }, qvar = { 0 }, ival = { 0 };
	char sv[1024] = "", sf[1024] = "", note[512] = "";
	size_t o1 = 0, o2 = 0, i, r;
	char *ex = NULL;
	int f, ret;

	if (k->smax < 0 || k->quiet < 0 || k->fold < 0)
		return 0;
	quiet_axes(s, &qvar, &ival, note, sizeof(note));
	for (i = 0; i < qvar.n; i++)
		for (f = 0; f < 4; f++)
			for (r = 0; r < c->nrows; r++) {
				const char *fo = vsb_chart_cell(c, r, k->fold);
				char g[200];

				if (!vsb_chart_is_quiet(c, k, r) ||
				    vsb_chart_fold_rank(fo) != f ||
				    strcmp(vsb_csv_cell(c, r, k->var), qvar.v[i]))
					continue;
				snprintf(g, sizeof(g), "%s %s", qvar.v[i], fo);
				if (vsb_strset_has(&groups, g))
					continue;
				vsb_strset_add(&groups, g);
				o1 += snprintf(sv + o1, sizeof(sv) - o1, "%s ", qvar.v[i]);
				o2 += snprintf(sf + o2, sizeof(sf) - o2, "%s ", fo);
			}
	if (!groups.n)
		return 0;
	vsb_chart_cat(&ex, "%s sv='%s'; sf='%s'; qvariants=%zu; interval=%s; "
		      "note='%s';", s->lists, sv, sf, qvar.n,
		      ival.n == 1 ? ival.v[0] : "0", note);
	ret = draw(s, "staleness", ex);
	free(ex);
	return ret;
}
