// SPDX-License-Identifier: GPL-2.0
/*
 * Many rows into one table, the way the backend loads them fastest: a
 * sweep's samples are the bulk of an import (a million rows in the
 * store's benchmark).  Through PostgreSQL's COPY where the backend
 * offers it (one stream instead of a round trip per row: a million
 * samples over a local socket took 97.6 s by INSERT, 11.3 s by text
 * COPY, less by binary COPY without foreign keys: docs/measurements.md,
 * `ci/store-bench --pg`), else one prepared INSERT stepped per row
 * (SQLite, in-process, has no round trip to save).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vsb.h"
#include "store_be.h"

int vsb_rows_begin(struct vsb_rows *r, struct vsb_store *s, const char *what,
		   const char *table, const char *cols, int ncols)
{
	const struct vsb_store_ops *o = s->ops;
	size_t len = strlen(table) + strlen(cols) + 3 * (size_t)ncols + 64;
	char *sql = vsb_zalloc(len);
	int i, ret;

	*r = (struct vsb_rows){ .s = s, .what = what, .ncols = ncols };
	if (o->copy_begin) {
		snprintf(sql, len, "%s (%s)", table, cols);
		ret = o->copy_begin(s->db, sql);
		if (ret)
			vsb_store_fail(s, what);
		free(sql);
		return ret;
	}
	ret = snprintf(sql, len, "INSERT INTO %s (%s) VALUES (", table, cols);
	for (i = 0; i < ncols; i++)
		ret += snprintf(sql + ret, len - (size_t)ret, "%s?", i ? ", " : "");
	snprintf(sql + ret, len - (size_t)ret, ")");
	ret = vsb_store_prepare(s, what, sql, &r->st);
	free(sql);
	return ret;
}

static void bind_val(const struct vsb_store_ops *o, struct vsb_stmt *st, int i,
		     const struct vsb_val *v)
{
	switch (v->t) {
	case VSB_VAL_NULL:
		o->bind_null(st, i);
		break;
	case VSB_VAL_INT:
		o->bind_int(st, i, v->i);
		break;
	case VSB_VAL_DOUBLE:
		o->bind_double(st, i, v->d);
		break;
	case VSB_VAL_TEXT:
		o->bind_text(st, i, v->s, v->len);
		break;
	}
}

int vsb_rows_put(struct vsb_rows *r, const struct vsb_val *v)
{
	const struct vsb_store_ops *o = r->s->ops;
	int i, rc;

	if (r->failed)
		return -1;
	if (!r->st) {
		rc = o->copy_row(r->s->db, v, r->ncols);
	} else {
		for (i = 0; i < r->ncols; i++)
			bind_val(o, r->st, i + 1, &v[i]);
		rc = o->step(r->st);
		o->reset(r->st);
	}
	r->failed = rc < 0;
	return rc < 0 ? -1 : 0;
}

int vsb_rows_end(struct vsb_rows *r, int ok)
{
	const struct vsb_store_ops *o = r->s->ops;
	int bad = r->failed;

	if (!r->st) {
		/* only the end of a copy says whether the server took its rows */
		if (o->copy_end(r->s->db, ok && !bad))
			bad = 1;
	} else {
		o->finalize(r->st);
		r->st = NULL;
	}
	if (bad)
		return vsb_store_fail(r->s, r->what);
	return ok ? 0 : VSB_EXIT_ERROR;
}
