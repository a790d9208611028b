// SPDX-License-Identifier: GPL-2.0
/*
 * mix.c - exact mode's instruction mix of an `ab`: DIR/mix.csv, one row
 * per point and side, and its table in summary.md.
 *
 * Each boot folder's raw results are read through the one loader
 * (lib/model/result_load.c); a point's mix is the median per op of each
 * class over its samples (lib/model/insn_mix.c), and over the boots of a
 * side the median of those.  Counts repeat from boot to boot, so with
 * one boot a side (exact mode's default) that is the boot's own.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vsb.h"
#include "ab.h"
#include "insn_mix.h"
#include "stats.h"

#define MIX_POINTS_MAX	512
#define MIX_BOOTS_MAX	VSB_AB_BOOTS_MAX

struct mix_point {
	char key[1024];			/* the loader's canonical point key */
	char label[256];
	struct vsb_mix boot[2][MIX_BOOTS_MAX];
	size_t nboot[2];
};

struct mix_table {
	struct mix_point *p;
	size_t n;
};

static struct mix_point *find_point(struct mix_table *t, const char *key)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->p[i].key, key))
			return &t->p[i];
	if (t->n == MIX_POINTS_MAX)
		return NULL;
	snprintf(t->p[t->n].key, sizeof(t->p[t->n].key), "%s", key);
	return &t->p[t->n++];
}

static void add_file(struct mix_table *t, int side, const char *path)
{
	struct vsb_rl_file f;
	size_t pt, row;

	if (vsb_rl_read(path, 0, &f))
		return;
	for (pt = 0; pt < f.npoints; pt++) {
		struct vsb_mix m;
		struct mix_point *p;

		if (vsb_mix_of_point(&f, pt, &m) || !(p = find_point(t, f.points[pt].key)) ||
		    p->nboot[side] == MIX_BOOTS_MAX)
			continue;
		for (row = 0; row < f.nrows && f.row_point[row] != pt; row++)
			;
		vsb_mix_point_label(&f, row, p->label, sizeof(p->label));
		p->boot[side][p->nboot[side]++] = m;
	}
	vsb_rl_free(&f);
}

static void add_boot(struct mix_table *t, int side, const char *dir)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	char path[4096 + 512];

	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (n < 5 || strcmp(e->d_name + n - 4, ".csv") ||
		    vsb_rl_is_derived_name(e->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		add_file(t, side, path);
	}
	closedir(d);
}

/* the median over a side's boots, class by class */
static void side_mix(const struct mix_point *p, int side, struct vsb_mix *m)
{
	vsb_mix_median(p->boot[side], p->nboot[side], m);
}

static int write_mix(const struct vsb_ab *ab, const struct mix_table *t)
{
	static const char *const side_name[2] = { "base", "new" };
	char path[4096 + 16];
	struct vsb_outfile of;
	struct vsb_mix m;
	size_t i;
	int s;

	snprintf(path, sizeof(path), "%s/mix.csv", ab->dir);
	if (vsb_outfile_open(&of, path, "-o"))
		return VSB_EXIT_ERROR;
	fprintf(of.f, "# exact mode: instructions per op and their mix, median over "
		"samples and boots; est_cycles_*: a model (docs/exact.md), not a "
		"measurement\n");
	vsb_mix_csv_header(of.f);
	for (i = 0; i < t->n; i++)
		for (s = 0; s < 2; s++) {
			if (!t->p[i].nboot[s])
				continue;
			side_mix(&t->p[i], s, &m);
			vsb_mix_csv_row(of.f, t->p[i].label, side_name[s], &m);
		}
	return vsb_outfile_commit(&of) ? VSB_EXIT_ERROR : 0;
}

/* "37.52 -> 40.52" for a class per op, or the one figure when equal */
static void md_pair(FILE *f, double b, double n)
{
	if (isnan(b) || isnan(n))	/* no cost for a class it holds */
		fprintf(f, " %s |", isnan(b) && isnan(n) ? "-" : "- / ?");
	else if (fabs(n - b) <= 0.0005 * fmax(fabs(b), 1e-9))
		fprintf(f, " %.2f |", b);
	else
		fprintf(f, " %.2f -> %.2f |", b, n);
}

/* summary.md's table: base against new per op, points on both sides */
static char *mix_md(const struct mix_table *t)
{
	static const int cls[] = { VSB_MIX_INSN, VSB_MIX_LOCK, VSB_MIX_CMPXCHG,
				   VSB_MIX_IRQ, VSB_MIX_LOADS, VSB_MIX_STORES };
	const struct vsb_uarch_cost *models[VSB_UARCH_MAX];
	size_t nm = vsb_uarch_models(models);
	char *buf = NULL;
	size_t len = 0, i, k, u;
	FILE *f = open_memstream(&buf, &len);

	fprintf(f, "## Instructions per op and their mix (exact mode)\n\n"
		"Base -> new where they differ. est: cycles per op from a model "
		"(docs/exact.md), not measured; - where a model has no cost for a "
		"class the op holds.\n\n| point | insn | lock | cmpxchg | irq "
		"| loads | stores |");
	for (u = 0; u < nm; u++)
		fprintf(f, " est %s |", models[u]->name);
	fprintf(f, "\n|---|");
	for (k = 0; k < sizeof(cls) / sizeof(cls[0]) + nm; k++)
		fprintf(f, "---|");
	fputc('\n', f);
	for (i = 0; i < t->n; i++) {
		struct vsb_mix b, n;

		if (!t->p[i].nboot[0] || !t->p[i].nboot[1])
			continue;
		side_mix(&t->p[i], 0, &b);
		side_mix(&t->p[i], 1, &n);
		fprintf(f, "| %s |", t->p[i].label);
		for (k = 0; k < sizeof(cls) / sizeof(cls[0]); k++)
			md_pair(f, b.c[cls[k]], n.c[cls[k]]);
		for (u = 0; u < nm; u++)
			md_pair(f, vsb_mix_estimate(&b, models[u]),
				vsb_mix_estimate(&n, models[u]));
		fputc('\n', f);
	}
	fputc('\n', f);
	fclose(f);
	return buf;
}

int vsb_ab_mix(struct vsb_ab_run *r)
{
	const struct vsb_ab *ab = r->ab;
	struct mix_table t = { .p = vsb_zalloc(MIX_POINTS_MAX * sizeof(struct mix_point)) };
	char dir[4096 + 64];
	long b;
	int s, ret;

	for (s = VSB_AB_BASE; s <= VSB_AB_NEW; s++)
		for (b = 1; b <= ab->now; b++) {
			snprintf(dir, sizeof(dir), "%s/%s/boot-%ld", ab->dir,
				 vsb_ab_side_name[s], b);
			add_boot(&t, s, dir);
		}
	ret = t.n ? write_mix(ab, &t) : 0;
	if (!ret && t.n) {
		r->mix_md = mix_md(&t);
		ret = vsb_ab_profile(r);	/* profile.c: where they ran */
	}
	free(t.p);
	return ret;
}
