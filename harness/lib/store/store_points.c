// SPDX-License-Identifier: GPL-2.0
/*
 * What a reader needs of the store beyond a point's series
 * (vsb_store_series): the stored points with their parameters, and the
 * machines.  The parameters are read by the backend's own JSON code
 * (point_params_sql: json_each in SQLite, json_each_text in
 * PostgreSQL), a row per parameter in the order they were stored, so
 * nothing here parses JSON.
 */
#include <stdlib.h>
#include <string.h>

#include "store_be.h"
#include "vsb.h"

static char *dup_or_die(const char *s)
{
	char *d = strdup(s);

	if (!d) {
		vsb_err("out of memory");
		exit(VSB_EXIT_ERROR);
	}
	return d;
}

/* The next point of the list, or the one being filled when @key is it. */
static struct vsb_store_point *point_for(struct vsb_store_point **pts, size_t *n,
					 size_t *cap, const char *key)
{
	struct vsb_store_point *p;

	if (*n && !strcmp((*pts)[*n - 1].key, key))
		return &(*pts)[*n - 1];
	*pts = vsb_grow(*pts, *n, cap, sizeof(**pts));
	p = &(*pts)[(*n)++];
	memset(p, 0, sizeof(*p));
	p->key = dup_or_die(key);
	return p;
}

static void add_param(struct vsb_store_point *p, const char *name, const char *val)
{
	p->name = vsb_grow(p->name, p->n, &p->cap, sizeof(*p->name));
	p->val = realloc(p->val, p->cap * sizeof(*p->val));
	if (!p->val) {
		vsb_err("out of memory");
		exit(VSB_EXIT_ERROR);
	}
	p->name[p->n] = dup_or_die(name);
	p->val[p->n] = dup_or_die(val);
	p->n++;
}

int vsb_store_points(struct vsb_store *s, struct vsb_store_point **pts, size_t *n)
{
	const struct vsb_store_ops *o = s->ops;
	struct vsb_store_point *p = NULL;
	struct vsb_stmt *st;
	size_t cap = 0;
	int rc;

	*pts = NULL;
	*n = 0;
	if (vsb_store_prepare(s, "reading the points", o->point_params_sql, &st))
		return VSB_EXIT_ERROR;
	while ((rc = o->step(st)) == 1)
		add_param(point_for(&p, n, &cap, o->col_text(st, 0)), o->col_text(st, 1),
			  o->col_text(st, 2));
	if (rc < 0)
		vsb_store_fail(s, "reading the points");
	o->finalize(st);
	*pts = p;
	return rc < 0 ? VSB_EXIT_ERROR : 0;
}

void vsb_store_points_free(struct vsb_store_point *pts, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < pts[i].n; k++) {
			free(pts[i].name[k]);
			free(pts[i].val[k]);
		}
		free(pts[i].name);
		free(pts[i].val);
		free(pts[i].key);
	}
	free(pts);
}

const char *vsb_store_point_param(const struct vsb_store_point *p, const char *name)
{
	size_t k;

	for (k = 0; k < p->n; k++)
		if (!strcmp(p->name[k], name))
			return p->val[k];
	return NULL;
}

int vsb_store_machines(struct vsb_store *s, struct vsb_store_machine **ms, size_t *n)
{
	const struct vsb_store_ops *o = s->ops;
	struct vsb_store_machine *m = NULL;
	struct vsb_stmt *st;
	size_t cap = 0;
	int rc;

	*ms = NULL;
	*n = 0;
	if (vsb_store_prepare(s, "reading the machines",
			      "SELECT fingerprint, cpu_model FROM machine ORDER BY id", &st))
		return VSB_EXIT_ERROR;
	while ((rc = o->step(st)) == 1) {
		m = vsb_grow(m, *n, &cap, sizeof(*m));
		snprintf(m[*n].fingerprint, sizeof(m->fingerprint), "%s", o->col_text(st, 0));
		snprintf(m[*n].cpu_model, sizeof(m->cpu_model), "%s", o->col_text(st, 1));
		(*n)++;
	}
	if (rc < 0)
		vsb_store_fail(s, "reading the machines");
	o->finalize(st);
	*ms = m;
	return rc < 0 ? VSB_EXIT_ERROR : 0;
}
