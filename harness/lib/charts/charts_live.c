// SPDX-License-Identifier: GPL-2.0
/*
 * The charts of a sweep's non-counter rows, by their bench's model
 * (bench_model.h): the live benches against a sysctl (page faults by
 * vm.numa_stat, mmap by vm.overcommit_memory) and a threshold-refresh
 * sweep, which is drawn from a table derived here (the whole bring-up's
 * time, not the cost of one store).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_model.h"
#include "charts_int.h"
#include "csvread.h"
#include "plot.h"
#include "refresh_seed.h"
#include "vsb.h"

/* the first and last sysctl value's @col at core count @nth; NAN: absent */
static void live_ends(const struct vsb_sweep_charts *s, const char *bench,
		      const struct vsb_strset *sys, const char *nth, int col,
		      double *first, double *last)
{
	const struct vsb_csv *c = &s->csv;
	const struct vsb_pcols *k = &s->k;
	size_t r;

	*first = *last = NAN;
	for (r = 0; r < c->nrows; r++) {
		const char *sc = vsb_chart_cell(c, r, k->sysctl);

		if (strcmp(vsb_chart_cell(c, r, k->bench), bench) ||
		    strcmp(vsb_chart_cell(c, r, k->nth), nth) ||
		    !vsb_strset_has(sys, sc))
			continue;
		if (!strcmp(sc, sys->v[0]))
			*first = vsb_csv_num(c, r, col);
		if (!strcmp(sc, sys->v[sys->n - 1]))
			*last = vsb_csv_num(c, r, col);
	}
}

/*
 * Live charts: one line per value of a sysctl (vm.numa_stat=0, =1) vs
 * core count.  The labels above each core count give the change from
 * the first value to the last one, so the seed's figure is read off the
 * chart, not computed from it.  col: the column compared (cost or
 * throughput); what: its name on the label.
 */
static int plot_live(struct vsb_sweep_charts *s, const char *bench,
		     const char *prefix, const char *chart, int col,
		     const char *what)
{
	const struct vsb_csv *c = &s->csv;
	const struct vsb_pcols *k = &s->k;
	struct vsb_strset sys = { 0 }, nth = { 0 };
	char sl[2048], xl[1024];
	char *vars = NULL;
	size_t r, i;
	int ret;

	for (r = 0; r < c->nrows; r++)
		if (!strcmp(vsb_chart_cell(c, r, k->bench), bench) &&
		    !strncmp(vsb_chart_cell(c, r, k->sysctl), prefix, strlen(prefix))) {
			vsb_strset_add(&sys, vsb_chart_cell(c, r, k->sysctl));
			vsb_strset_add(&nth, vsb_chart_cell(c, r, k->nth));
		}
	if (sys.n < 2)
		return 0;
	qsort(sys.v, sys.n, sizeof(sys.v[0]),
	      (int (*)(const void *, const void *))strcmp);
	vsb_strset_sort_num(&nth);
	vsb_strset_join(&sys, sl, sizeof(sl));
	vsb_strset_join(&nth, xl, sizeof(xl));
	vsb_chart_cat(&vars, "%s sysctls='%s'; maxt=%s; xt='%s'; ", s->lists, sl,
		      nth.v[nth.n - 1], xl);
	for (i = 0; i < nth.n; i++) {
		double first, last;

		live_ends(s, bench, &sys, nth.v[i], col, &first, &last);
		if (isnan(first) || isnan(last) || first <= 0)
			continue;
		/* along the bottom, where no line runs: yrange starts at 0 */
		vsb_chart_cat(&vars, "set label %zu '%s %s vs %s: %+.1f%%' at first %s, "
			      "graph 0.05 center boxed font ',10' tc rgb '#333333' "
			      "front; ", i + 1, what, strchr(sys.v[sys.n - 1], '=') + 1,
			      strchr(sys.v[0], '=') + 1, (last / first - 1) * 100,
			      nth.v[i]);
	}
	vsb_chart_cat(&vars, "set style textbox opaque noborder margins 2, 2; ");
	s->made++;
	ret = vsb_plot_chart(chart, s->csvpath, s->outdir, s->title, vars);
	free(vars);
	return ret;
}

/*
 * The live charts of the benches whose model draws them against a
 * sysctl (page-fault's cost by vm.numa_stat, mmap's throughput by
 * vm.overcommit_memory): each bench's once, in the order of its first
 * row; 0 or VSB_EXIT_*, as every chart builder.
 */
int vsb_chart_live(struct vsb_sweep_charts *s)
{
	struct vsb_strset seen = { 0 };
	size_t r;
	int ret = 0;

	if (s->k.bench < 0 || s->k.sysctl < 0)
		return 0;
	for (r = 0; r < s->csv.nrows && !ret; r++) {
		const char *bench = vsb_chart_cell(&s->csv, r, s->k.bench);
		const struct vsb_sysctl_chart *sc = vsb_bench_model(bench)->sysctl_chart;
		int col;

		if (!sc || vsb_strset_has(&seen, bench))
			continue;
		vsb_strset_add(&seen, bench);
		col = vsb_csv_col(&s->csv, sc->column);
		if (col >= 0)
			ret = plot_live(s, bench, sc->sysctl, sc->chart, col, sc->what);
	}
	return ret;
}

/* a row of a bench drawn in the refresh-sweep chart (threshold-refresh) */
static int is_refresh(const struct vsb_csv *c, const struct vsb_pcols *k, size_t r)
{
	return vsb_bench_model(vsb_chart_cell(c, r, k->bench))->charts ==
	       VSB_CHARTS_REFRESH;
}

/* the sweep.csv columns of a threshold-refresh sweep */
struct refresh_cols {
	int cpt, cmc, cmn, cap, cns, clo;
};

/* One threshold-refresh point as a row of refresh-sweep.csv. */
static int refresh_row(const struct vsb_sweep_charts *s,
		       const struct refresh_cols *rc, const char *dir, size_t r,
		       FILE *f)
{
	const struct vsb_csv *c = &s->csv;
	double ops, ns, med, scale, se;
	char raw[4096 + 300];
	struct vsb_csv pc;

	snprintf(raw, sizeof(raw), "%s/%s.csv", dir, vsb_chart_cell(c, r, rc->cpt));
	if (vsb_csv_read(raw, &pc))
		return VSB_EXIT_USAGE;
	ops = vsb_csv_col(&pc, "ops") >= 0 && pc.nrows ?
	      vsb_csv_num(&pc, 0, vsb_csv_col(&pc, "ops")) : NAN;
	se = vsb_refresh_seed_read(vsb_csv_meta(&pc, VSB_REFRESH_SEED_KEY));
	ns = vsb_csv_num(c, r, rc->cns);
	med = vsb_csv_num(c, r, s->k.med);
	/* ci_lo/hi are in the CSV's unit: to ns as the median converts */
	scale = med > 0 ? ns / med * ops / 1e9 : NAN;
	fprintf(f, "%s,%s,%s,%.0f,%.0f,%.9g,%.9g,%.9g\n",
		vsb_chart_cell(c, r, rc->cap), vsb_chart_cell(c, r, rc->cmn),
		vsb_chart_cell(c, r, rc->cmc), ops, se,
		ns * ops / 1e9, vsb_csv_num(c, r, rc->clo) * scale,
		vsb_csv_num(c, r, s->k.cihi) * scale);
	vsb_csv_free(&pc);
	return 0;
}

/*
 * Write @out (complete or not at all): refresh-model's columns plus the
 * CI, a row per threshold-refresh point; its approaches and node counts
 * into @ap and @nodes.
 */
static int refresh_table(const struct vsb_sweep_charts *s,
			 const struct refresh_cols *rc, const char *out,
			 struct vsb_strset *ap, struct vsb_strset *nodes)
{
	const struct vsb_csv *c = &s->csv;
	const char *slash = strrchr(s->csvpath, '/'), *m;
	struct vsb_outfile o;
	char dir[4096];
	size_t r;
	FILE *f;
	int ret;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - s->csvpath) : 1,
		 slash ? s->csvpath : ".");
	/* a temporary of its own, never a link or FIFO planted at <out>.tmp */
	ret = vsb_outfile_open(&o, out, "-o");
	if (ret)
		return ret;
	f = o.f;
	fprintf(f, "# derived by vmstat-bench plot from %s: seconds = cost per "
		"store x stores per bring-up\n", s->csvpath);
	if ((m = vsb_csv_meta(c, "cpu_model")))
		fprintf(f, "# cpu_model: %s\n", m);
	if ((m = vsb_csv_meta(c, "kernel")))
		fprintf(f, "# kernel: %s\n", m);
	fprintf(f, "approach,nodes,ncpus,iterations,seed_estimate,seconds,"
		"seconds_ci_lo,seconds_ci_hi\n");
	for (r = 0; r < c->nrows; r++) {
		if (!is_refresh(c, &s->k, r))
			continue;
		if (refresh_row(s, rc, dir, r, f)) {
			vsb_outfile_abort(&o);
			return VSB_EXIT_USAGE;
		}
		vsb_strset_add(ap, vsb_chart_cell(c, r, rc->cap));
		vsb_strset_add(nodes, vsb_chart_cell(c, r, rc->cmn));
	}
	return vsb_outfile_commit(&o);
}

/*
 * A threshold-refresh sweep (the 004 seed): sweep.csv gives the cost
 * per threshold store; the chart wants the whole bring-up, so multiply
 * by the stores of one bring-up (the `ops` of the point's raw CSV) and
 * write the table refresh.gp reads to OUTDIR/refresh-sweep.csv.
 * 0 (drawn, or nothing to draw) or VSB_EXIT_*, as every chart builder.
 */
int vsb_chart_refresh_sweep(struct vsb_sweep_charts *s)
{
	const struct vsb_csv *c = &s->csv;
	struct refresh_cols rc = {
		vsb_csv_col(c, "point"), vsb_csv_col(c, "model_cpus"),
		vsb_csv_col(c, "model_nodes"), vsb_csv_col(c, "approach"),
		vsb_csv_col(c, "ns_per_op_median"), vsb_csv_col(c, "ci_lo"),
	};
	struct vsb_strset ap = { 0 }, nodes = { 0 };
	char out[4096 + 64], al[512], nl[256];
	size_t r, n = 0;
	char *ex = NULL;
	int ret;

	if (rc.cpt < 0 || rc.cmc < 0 || rc.cmn < 0 || rc.cap < 0 || rc.cns < 0 ||
	    rc.clo < 0)
		return 0;
	for (r = 0; r < c->nrows; r++)
		n += is_refresh(c, &s->k, r);
	if (!n)
		return 0;
	snprintf(out, sizeof(out), "%s/refresh-sweep.csv", s->outdir);
	ret = refresh_table(s, &rc, out, &ap, &nodes);
	if (ret)
		return ret;
	vsb_strset_sort_num(&nodes);
	vsb_strset_join(&ap, al, sizeof(al));
	vsb_strset_join(&nodes, nl, sizeof(nl));
	vsb_chart_cat(&ex, "approaches='%s'; nodes='%s'; hasci=1;", al, nl);
	s->made++;
	ret = vsb_plot_chart("refresh", out, s->outdir, s->title, ex);
	free(ex);
	return ret;
}
