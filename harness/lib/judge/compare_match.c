// SPDX-License-Identifier: GPL-2.0
/*
 * Compare's matching half: BASE's points paired with NEW's by their
 * match key, the units checked, and each pair labelled by what tells it
 * from the other points of its bench.  Loading is compare.c's, judging
 * compare_judge.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "bench_model.h"
#include "compare.h"
#include "vsb.h"

/* ---- matching ---- */

/*
 * Label a point by what tells it apart: its variant, then the match
 * columns that differ between points, leaving out the ones that mean
 * nothing for it (threshold for percpu-counter, batch for the others)
 * and cpus when nthreads already varies with it.
 */
/*
 * The columns that vary among the points of @x's bench: a label names
 * what tells a point from the others of its bench, not the options
 * another bench set (page-alloc's gfp beside the counter's variants).
 */
static void find_varying(const struct vsb_compare *c, const struct vsb_cmp_point *x,
			 int *vary)
{
	int kb = vsb_cmp_col(c, "bench");
	int kcpus = vsb_cmp_col(c, "cpus"), knth = vsb_cmp_col(c, "nthreads");
	size_t i, k;

	for (k = 0; k < c->ncols; k++) {
		vary[k] = 0;
		for (i = 0; i < c->nv && !vary[k]; i++) {
			const struct vsb_cmp_point *y = vsb_cmp_any(&c->vs[i]);

			if (kb >= 0 && strcmp(x->vals[kb], y->vals[kb]))
				continue;
			vary[k] = strcmp(x->vals[k], y->vals[k]) != 0;
		}
	}
	if (kcpus >= 0 && knth >= 0 && vary[kcpus])
		vary[knth] = 0;
}

static const char *short_name(const char *name)
{
	static const char *const shortname[][2] = {
		{ "nthreads", "threads" }, { "threshold", "thr" },
		{ "diff_bits", "bits" }, { "outstanding", "outst" },
	};
	size_t s;

	for (s = 0; s < sizeof(shortname) / sizeof(shortname[0]); s++)
		if (!strcmp(name, shortname[s][0]))
			return shortname[s][1];
	return name;
}

/* 1 when @col is one of the space-separated words of @list */
static int col_in(const char *list, const char *col)
{
	size_t n = strlen(col);
	const char *p;

	for (p = list; (p = strstr(p, col)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
	return 0;
}

/*
 * What a point of its bench runs: the values of its model's label
 * columns (the counter's variant, kstat's bench and op), else the
 * bench's name, else its first column; its length.
 */
static size_t label_head(const struct vsb_compare *c, const struct vsb_cmp_point *x,
			 const char *cols, char *buf, size_t len)
{
	size_t off = 0, n;
	const char *p;
	char name[64];
	int k;

	buf[0] = '\0';
	for (p = cols; *p && off < len; p += n + !!p[n]) {
		n = strcspn(p, " ");
		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		k = vsb_cmp_col(c, name);
		if (k >= 0 && x->vals[k][0])
			off += snprintf(buf + off, len - off, "%s%s", off ? " " : "",
					x->vals[k]);
	}
	if (!off) {
		k = vsb_cmp_col(c, "bench");
		off = snprintf(buf, len, "%s", k >= 0 ? x->vals[k] : x->vals[0]);
	}
	return off;
}

/*
 * A point's label: what its bench runs (label_head), then each column
 * that tells it from the other points of its bench.
 */
static void make_label(const struct vsb_compare *c, struct vsb_cmp_verdict *v)
{
	const struct vsb_cmp_point *x = vsb_cmp_any(v);
	int kvar = vsb_cmp_col(c, "variant");
	int kb = vsb_cmp_col(c, "bench"), vary[VSB_CMP_MAX_COLS];
	/* a file without a bench column is the default bench's (an old one) */
	const char *cols = vsb_bench_label(vsb_bench_model(kb >= 0 ? x->vals[kb] :
							    vsb_bench_default()));
	const char *var = kvar >= 0 && col_in(cols, "variant") ? x->vals[kvar] : "";
	int pcc = !strcmp(var, "percpu-counter");
	size_t off, k;

	find_varying(c, x, vary);
	off = label_head(c, x, cols, v->label, sizeof(v->label));
	for (k = 0; k < c->ncols; k++) {
		const char *name = c->cols[k];

		/* the label's own columns are said; spawn's fork|posix-spawn is a column */
		if (!vary[k] || (int)k == kvar || col_in(cols, name) ||
		    (int)k == kb || !x->vals[k][0])
			continue;
		if ((pcc && (!strcmp(name, "threshold") ||
			     !strcmp(name, "diff_bits"))) ||
		    (!pcc && !strcmp(name, "batch")))
			continue;
		if (off < sizeof(v->label))
			off += snprintf(v->label + off, sizeof(v->label) - off,
					" %s=%s", short_name(name), x->vals[k]);
	}
}

static struct vsb_cmp_point *find_key(struct vsb_cmp_side *s, const char *key)
{
	struct vsb_cmp_point *found = NULL;
	size_t j;

	/* keys are unique on a side; the last one, as it always was */
	for (j = 0; j < s->n; j++)
		if (!strcmp(s->pts[j].key, key))
			found = &s->pts[j];
	return found;
}

int vsb_cmp_match(struct vsb_compare *c)
{
	size_t i, j;

	c->vs = vsb_zalloc((c->base.n + c->new.n) * sizeof(*c->vs));
	c->nv = 0;
	for (i = 0; i < c->base.n; i++) {
		struct vsb_cmp_verdict *v = &c->vs[c->nv++];

		v->b = &c->base.pts[i];
		v->n = find_key(&c->new, v->b->key);
	}
	for (j = 0; j < c->new.n; j++)
		if (!find_key(&c->base, c->new.pts[j].key))
			c->vs[c->nv++].n = &c->new.pts[j];
	/* units first: a mixed comparison is refused before any output */
	for (i = 0; i < c->nv; i++) {
		const struct vsb_cmp_verdict *v = &c->vs[i];

		if (v->b && v->n && strcmp(v->b->unit, v->n->unit)) {
			vsb_err("%s and %s measured a point in different units (%s vs %s): "
				"refusing to compare", c->base.path, c->new.path,
				v->b->unit, v->n->unit);
			return VSB_EXIT_USAGE;
		}
	}
	for (i = 0; i < c->nv; i++)
		make_label(c, &c->vs[i]);
	return 0;
}
