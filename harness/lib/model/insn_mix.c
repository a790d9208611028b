// SPDX-License-Identifier: GPL-2.0
/*
 * insn_mix.c - the instruction mix of exact-mode results (insn_mix.h):
 * reading it from a raw result's rows and writing mix.csv.
 *
 * A row's pmu_events names its classes (tcg:insn;tcg:lock;...) and
 * pmu_values holds the window's counts in the same order; a class per op
 * is its count over the row's ops, and a point's figure the median over
 * its rows, as the summary's per-op medians are.
 */
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "vsb.h"
#include "stats.h"
#include "bench_model.h"
#include "insn_mix.h"

/* the class index of event @name ("tcg:lock"), -1 if none */
static int class_of(const char *name, size_t len)
{
	int k;

	if (len < 4 || strncmp(name, "tcg:", 4))
		return -1;
	for (k = 0; k < VSB_EXACT_RESULT_CLASSES; k++)
		if (strlen(vsb_exact_classes[k].name) == len - 4 &&
		    !strncmp(name + 4, vsb_exact_classes[k].name, len - 4))
			return k;
	return -1;
}

/* Row @i's counts per op into @per_op; 0, or -1 where it has not all. */
static int row_mix(const struct vsb_rl_file *f, size_t i, double *per_op)
{
	struct vsb_csv_span cells[VSB_RL_MAX_COLS];
	const struct vsb_csv_span *ev, *val;
	size_t a = 0, b = 0, ne, nv;
	unsigned int seen = 0;
	double ops;
	int k;

	vsb_rl_cells(f, i, cells);
	ev = &cells[f->c_pmu_events];
	val = &cells[f->c_pmu_values];
	ops = strtod(cells[f->c_ops].s, NULL);
	if (!(ops > 0))
		return -1;
	while (a < ev->len && b < val->len) {
		ne = strcspn(ev->s + a, ";,");
		nv = strcspn(val->s + b, ";,");
		if (ne > ev->len - a)
			ne = ev->len - a;
		if (nv > val->len - b)
			nv = val->len - b;
		k = class_of(ev->s + a, ne);
		if (k >= 0) {
			per_op[k] = strtod(val->s + b, NULL) / ops;
			seen |= 1u << k;
		}
		a += ne + 1;
		b += nv + 1;
	}
	/* classes appended later may be missing: NAN, not a reason to drop */
	for (k = VSB_MIX_OLD_CLASSES; k < VSB_EXACT_RESULT_CLASSES; k++)
		if (!(seen & 1u << k))
			per_op[k] = NAN;
	return (seen & ((1u << VSB_MIX_OLD_CLASSES) - 1)) ==
	       (1u << VSB_MIX_OLD_CLASSES) - 1 ? 0 : -1;
}

static int has_nan(const double *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (isnan(x[i]))
			return 1;
	return 0;
}

/*
 * The per-class medians over rows [@r, @end) in insn, only those of
 * point @pt where @pt is not SIZE_MAX.
 */
static int mix_over(const struct vsb_rl_file *f, size_t r, size_t end,
		    size_t pt, struct vsb_mix *m)
{
	double *v[VSB_EXACT_RESULT_CLASSES], row[VSB_EXACT_RESULT_CLASSES];
	size_t i, n = 0, cap = end > r ? end - r : 0;
	int k, ret = -1;

	if (f->c_pmu_events < 0 || f->c_pmu_values < 0 || !cap)
		return -1;
	for (k = 0; k < VSB_EXACT_RESULT_CLASSES; k++)
		v[k] = vsb_zalloc(cap * sizeof(double));
	for (i = r; i < end; i++) {
		if ((pt != SIZE_MAX && f->row_point[i] != pt) ||
		    strcmp(f->points[f->row_point[i]].unit, "insn") || row_mix(f, i, row))
			continue;
		for (k = 0; k < VSB_EXACT_RESULT_CLASSES; k++)
			v[k][n] = row[k];
		n++;
	}
	if (n) {
		/* a class some rows lack is unknown for the point */
		for (k = 0; k < VSB_EXACT_RESULT_CLASSES; k++)
			m->c[k] = has_nan(v[k], n) ? NAN : vsb_median(v[k], n);
		ret = 0;
	}
	for (k = 0; k < VSB_EXACT_RESULT_CLASSES; k++)
		free(v[k]);
	return ret;
}

int vsb_mix_of_rows(const struct vsb_rl_file *f, size_t r, size_t end,
		    struct vsb_mix *m)
{
	return mix_over(f, r, end, SIZE_MAX, m);
}

int vsb_mix_of_point(const struct vsb_rl_file *f, size_t pt, struct vsb_mix *m)
{
	if (strcmp(f->points[pt].unit, "insn"))
		return -1;
	return mix_over(f, 0, f->nrows, pt, m);
}

void vsb_mix_median(const struct vsb_mix *mixes, size_t n, struct vsb_mix *m)
{
	double *x = vsb_zalloc((n ? n : 1) * sizeof(double));
	size_t i;
	int k;

	for (k = 0; k < VSB_EXACT_RESULT_CLASSES; k++) {
		for (i = 0; i < n; i++)
			x[i] = mixes[i].c[k];
		m->c[k] = !n || has_nan(x, n) ? NAN : vsb_median(x, n);
	}
	free(x);
}

/* " order=2 cmdline=..." for the columns a page point is set apart by */
static void label_extras(const struct vsb_rl_file *f, const struct vsb_csv_span *cells,
			 char *buf, size_t len)
{
	static const char *const extra[][3] = {
		{ "order", "0", "order" }, { "outstanding", "0", "outstanding" },
		{ "guest_cmdline", "none", "cmdline" },
	};
	size_t i, off;

	for (i = 0; i < sizeof(extra) / sizeof(extra[0]); i++) {
		int c = vsb_rl_col(f, extra[i][0]);

		off = strlen(buf);
		if (c < 0 || !cells[c].len || off + 2 >= len ||
		    ((size_t)cells[c].len == strlen(extra[i][1]) &&
		     !memcmp(cells[c].s, extra[i][1], cells[c].len)))
			continue;
		snprintf(buf + off, len - off, " %s=%.*s", extra[i][2],
			 (int)cells[c].len, cells[c].s);
	}
}

/* after @buf's @off characters, the cell of column @name, after @pre */
static size_t add_cell(const struct vsb_rl_file *f, const struct vsb_csv_span *cells,
		       const char *name, const char *pre, char *buf, size_t len,
		       size_t off)
{
	int c = vsb_rl_col(f, name);

	if (c < 0 || !cells[c].len || off >= len)
		return off;
	return off + snprintf(buf + off, len - off, "%s%s%.*s", off ? " " : "", pre,
			      (int)cells[c].len, cells[c].s);
}

/*
 * "kstat mod-zone cpus=0": the bench, what its model's label names (the
 * counter's variant, kstat's op), and where; then what tells page
 * points apart (order, outstanding pages, the guest's command line),
 * where set to other than the default, so no two points share a label.
 */
void vsb_mix_point_label(const struct vsb_rl_file *f, size_t row, char *buf, size_t len)
{
	struct vsb_csv_span cells[VSB_RL_MAX_COLS];
	char bench[64] = "", name[64];
	const char *p;
	size_t off, n;
	int c;

	vsb_rl_cells(f, row, cells);
	buf[0] = '\0';
	c = vsb_rl_col(f, "bench");
	if (c >= 0)
		snprintf(bench, sizeof(bench), "%.*s", (int)cells[c].len, cells[c].s);
	off = add_cell(f, cells, "bench", "", buf, len, 0);
	for (p = vsb_bench_label(vsb_bench_model(bench)); *p; p += n + !!p[n]) {
		n = strcspn(p, " ");
		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		if (strcmp(name, "bench"))
			off = add_cell(f, cells, name, "", buf, len, off);
	}
	add_cell(f, cells, "cpus", "cpus=", buf, len, off);
	label_extras(f, cells, buf, len);
}

/*
 * Columns are an API: the classes and estimates mix.csv had first, then
 * those appended since (the irq class's parts, pause, cmpxchg without
 * LOCK, the host's estimate, empty where it was not calibrated).
 */
void vsb_mix_csv_header(FILE *f)
{
	size_t u;
	int k;

	fputs("label,side,insn_per_op", f);
	for (k = 1; k < VSB_MIX_OLD_CLASSES; k++)
		fprintf(f, ",%s", vsb_exact_classes[k].name);
	for (u = 0; u < vsb_uarch_ncosts; u++)
		fprintf(f, ",est_cycles_%s", vsb_uarch_costs[u].name);
	for (k = VSB_MIX_OLD_CLASSES; k < VSB_EXACT_RESULT_CLASSES; k++)
		fprintf(f, ",%s", vsb_exact_classes[k].name);
	fputs(",est_cycles_host\n", f);
}

static void csv_num(FILE *f, const char *fmt, double v)
{
	if (isfinite(v))
		fprintf(f, fmt, v);
	else
		fputc(',', f);
}

void vsb_mix_csv_row(FILE *f, const char *label, const char *side,
		     const struct vsb_mix *m)
{
	const struct vsb_uarch_cost *host = vsb_uarch_host();
	size_t u;
	int k;

	/* a label's commas would split it: ';' as the CSVs write them */
	for (; *label; label++)
		fputc(*label == ',' ? ';' : *label, f);
	fprintf(f, ",%s", side);
	for (k = 0; k < VSB_MIX_OLD_CLASSES; k++)
		csv_num(f, ",%.4f", m->c[k]);
	for (u = 0; u < vsb_uarch_ncosts; u++)
		csv_num(f, ",%.2f", vsb_mix_estimate(m, &vsb_uarch_costs[u]));
	for (k = VSB_MIX_OLD_CLASSES; k < VSB_EXACT_RESULT_CLASSES; k++)
		csv_num(f, ",%.4f", m->c[k]);
	csv_num(f, ",%.2f", host ? vsb_mix_estimate(m, host) : NAN);
	fputc('\n', f);
}
