// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the result store: `db list` (machines, kernels, runs),
 * `db export` (a run's raw CSV as it was imported), and the series of
 * one point across runs that `history` charts and judges.  Export builds
 * each row from its point's parameter cells and the row's stored rest,
 * and the metadata lines from the run's environment record, so a file
 * imported and exported again has the same lines in the same order.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vsb.h"
#include "store_be.h"
#include "c2c_rule.h"
#include "stats.h"

/*
 * Call @fn for each member of the JSON object in @column of the rows of
 * @table where @cond (one `?`: @arg), in row id order and then in the
 * order stored.  The backend's own JSON code reads the object
 * (json_pairs_sql), so nothing here parses JSON (base/json.c).
 */
static int json_rows(struct vsb_store *s, const char *what, const char *table,
		     const char *column, const char *cond, long long arg,
		     void (*fn)(void *ctx, long long id, const char *k, const char *v),
		     void *ctx)
{
	const struct vsb_store_ops *o = s->ops;
	struct vsb_stmt *st;
	char sql[1024];
	int rc;

	snprintf(sql, sizeof(sql), o->json_pairs_sql, table, column, cond);
	if (vsb_store_prepare(s, what, sql, &st))
		return VSB_EXIT_ERROR;
	o->bind_int(st, 1, arg);
	while ((rc = o->step(st)) == 1)
		fn(ctx, o->col_int(st, 0), o->col_text(st, 1), o->col_text(st, 2));
	if (rc < 0)
		vsb_store_fail(s, what);
	o->finalize(st);
	return rc < 0 ? VSB_EXIT_ERROR : 0;
}

static void print_meta(void *ctx, long long id, const char *k, const char *v)
{
	(void)id;
	fprintf(ctx, "# %s: %s\n", k, v);
}

/* The parameter cells of a run's points, comma-joined, by point id */
struct prefix {
	long long id;
	char *buf;
	size_t len, cap;
};

struct prefixes {
	struct prefix *p;
	size_t n, cap;
};

static void add_cell(void *ctx, long long id, const char *k, const char *v)
{
	struct prefixes *ps = ctx;
	struct prefix *p;

	(void)k;
	if (!ps->n || ps->p[ps->n - 1].id != id) {
		ps->p = vsb_grow(ps->p, ps->n, &ps->cap, sizeof(*ps->p));
		p = &ps->p[ps->n++];
		memset(p, 0, sizeof(*p));
		p->id = id;
	}
	p = &ps->p[ps->n - 1];
	vsb_buf_add(&p->buf, &p->len, &p->cap, v, strlen(v));
	vsb_buf_add(&p->buf, &p->len, &p->cap, ",", 1);
}

static int cmp_prefix(const void *key, const void *elem)
{
	long long id = *(const long long *)key, e = ((const struct prefix *)elem)->id;

	return (id > e) - (id < e);
}

/* Point @id's prefix; a point without parameters has the empty one */
static const struct prefix *prefix_of(const struct prefixes *ps, long long id)
{
	static const struct prefix none;
	const struct prefix *p = ps->n ? bsearch(&id, ps->p, ps->n, sizeof(*ps->p),
						 cmp_prefix) : NULL;

	return p ? p : &none;
}

static void prefixes_free(struct prefixes *ps)
{
	size_t i;

	for (i = 0; i < ps->n; i++)
		free(ps->p[i].buf);
	free(ps->p);
}

/* The run's row id and its env/columns, by id, unique prefix or latest. */
static int find_run(struct vsb_store *s, const char *run_id, struct vsb_stmt **st)
{
	const char *q = run_id ?
		"SELECT id, run_id, env, columns FROM run WHERE run_id = ? OR "
		"substr(run_id, 1, length(CAST(? AS TEXT))) = ? ORDER BY run_id = ? DESC, id LIMIT 2" :
		"SELECT id, run_id, env, columns FROM run ORDER BY id DESC LIMIT 1";
	const struct vsb_store_ops *o = s->ops;
	int rc, exact;

	if (vsb_store_prepare(s, "finding the run", q, st))
		return VSB_EXIT_ERROR;
	if (run_id)
		for (int i = 1; i <= 4; i++)
			o->bind_text(*st, i, run_id, -1);
	rc = o->step(*st);
	if (rc < 0)
		return vsb_store_fail(s, "finding the run");
	if (!rc) {
		vsb_err("%s: %s", s->url, run_id ? "no such run (see db list)" :
			"no runs stored yet");
		return VSB_EXIT_USAGE;
	}
	exact = run_id && !strcmp(o->col_text(*st, 1), run_id);
	if (exact || !run_id)
		return 0;
	/* a prefix: it must name one run; then back to that run's row */
	if (o->step(*st) == 1) {
		vsb_err("%s: run id prefix '%s' is ambiguous (see db list)", s->url, run_id);
		return VSB_EXIT_USAGE;
	}
	o->reset(*st);
	return o->step(*st) == 1 ? 0 : vsb_store_fail(s, "finding the run");
}

static int export_rows(struct vsb_store *s, long long run, FILE *out)
{
	const struct vsb_store_ops *o = s->ops;
	struct prefixes ps = { 0 };
	struct vsb_stmt *st;
	int rc;

	rc = json_rows(s, "reading the points", "point", "params",
		       "t.id IN (SELECT point FROM sample WHERE run = ?)", run, add_cell, &ps);
	if (rc || vsb_store_prepare(s, "reading samples", "SELECT point, cells FROM "
				    "sample WHERE run = ? ORDER BY seq", &st)) {
		prefixes_free(&ps);
		return VSB_EXIT_ERROR;
	}
	o->bind_int(st, 1, run);
	while ((rc = o->step(st)) == 1) {
		const struct prefix *p = prefix_of(&ps, o->col_int(st, 0));

		fwrite(p->buf, 1, p->len, out);
		fputs(o->col_text(st, 1), out);
		fputc('\n', out);
	}
	if (rc < 0)
		vsb_store_fail(s, "reading samples");
	o->finalize(st);
	prefixes_free(&ps);
	return rc ? VSB_EXIT_ERROR : 0;
}

int vsb_store_export(struct vsb_store *s, const char *run_id, FILE *out)
{
	const struct vsb_store_ops *o = s->ops;
	struct vsb_stmt *st = NULL;
	long long run;
	int ret = find_run(s, run_id, &st);

	if (ret)
		goto out;
	run = o->col_int(st, 0);
	ret = json_rows(s, "reading the environment record", "run", "env", "t.id = ?",
			run, print_meta, out);
	if (ret)
		goto out;
	fprintf(out, "%s\n", o->col_text(st, 3));
	ret = export_rows(s, run, out);
out:
	if (st)
		o->finalize(st);
	return ret;
}

/* Run @sql and print each row's columns with @fmt's widths. */
static int table(struct vsb_store *s, FILE *out, const char *title,
		 const char *const *heads, const int *widths, int ncol, const char *sql)
{
	const struct vsb_store_ops *o = s->ops;
	struct vsb_stmt *st;
	int i, rc, rows = 0;

	if (vsb_store_prepare(s, title, sql, &st))
		return VSB_EXIT_ERROR;
	fprintf(out, "%s:\n ", title);
	for (i = 0; i < ncol; i++)
		fprintf(out, " %-*s", widths[i], heads[i]);
	fputc('\n', out);
	while ((rc = o->step(st)) == 1) {
		fputc(' ', out);
		for (i = 0; i < ncol; i++)
			fprintf(out, " %-*s", widths[i], o->col_text(st, i));
		fputc('\n', out);
		rows++;
	}
	if (!rows)
		fprintf(out, "  (none)\n");
	if (rc < 0)
		vsb_store_fail(s, title);
	o->finalize(st);
	fputc('\n', out);
	return rc < 0 ? VSB_EXIT_ERROR : 0;
}

int vsb_store_list(struct vsb_store *s, FILE *out)
{
	static const char *const mh[] = { "machine", "runs", "cpu model", "missing fields" };
	static const int mw[] = { 18, 5, 28, 0 };
	static const char *const kh[] = { "kernel", "runs", "release", "config" };
	static const int kw[] = { 18, 5, 32, 0 };
	static const char *const rh[] = { "run", "date", "machine", "kernel",
					  "revision", "samples", "source" };
	static const int rw[] = { 18, 20, 18, 24, 16, 8, 0 };
	int ret;

	ret = table(s, out, "machines", mh, mw, 4,
		    "SELECT m.fingerprint, (SELECT count(*) FROM run r WHERE r.machine = m.id), "
		    "m.cpu_model, m.missing FROM machine m ORDER BY m.id");
	if (!ret)
		ret = table(s, out, "kernels", kh, kw, 4,
			    "SELECT k.fingerprint, (SELECT count(*) FROM run r WHERE "
			    "r.kernel = k.id), k.release, k.config_hash FROM kernel k "
			    "ORDER BY k.id");
	if (!ret)
		ret = table(s, out, "runs", rh, rw, 7,
			    "SELECT r.run_id, r.started, m.fingerprint, k.release, "
			    "r.git_revision, r.nsamples, r.source FROM run r "
			    "JOIN machine m ON m.id = r.machine "
			    "JOIN kernel k ON k.id = r.kernel ORDER BY r.id");
	return ret;
}

int vsb_store_list_points(struct vsb_store *s, FILE *out)
{
	static const char *const ph[] = { "runs", "point" };
	static const int pw[] = { 5, 0 };

	return table(s, out, "points", ph, pw, 2,
		     "SELECT (SELECT count(DISTINCT x.run) FROM sample x WHERE "
		     "x.point = p.id), p.key FROM point p ORDER BY p.id");
}

static struct vsb_series_run *series_run(struct vsb_series *se,
					 const struct vsb_store_ops *o, struct vsb_stmt *st)
{
	struct vsb_series_run *r;

	if (se->n && !strcmp(se->runs[se->n - 1].run_id, o->col_text(st, 0)))
		return &se->runs[se->n - 1];
	se->runs = realloc(se->runs, (se->n + 1) * sizeof(*se->runs));
	if (!se->runs) {
		vsb_err("out of memory");
		exit(VSB_EXIT_ERROR);
	}
	r = &se->runs[se->n++];
	memset(r, 0, sizeof(*r));
	snprintf(r->run_id, sizeof(r->run_id), "%s", o->col_text(st, 0));
	snprintf(r->machine, sizeof(r->machine), "%s", o->col_text(st, 1));
	snprintf(r->cpu_model, sizeof(r->cpu_model), "%s", o->col_text(st, 2));
	snprintf(r->kernel, sizeof(r->kernel), "%s", o->col_text(st, 3));
	snprintf(r->revision, sizeof(r->revision), "%s", o->col_text(st, 4));
	snprintf(r->date, sizeof(r->date), "%s", o->col_text(st, 5));
	snprintf(r->unit, sizeof(r->unit), "%s", o->col_text(st, 6));
	r->c2c_ns = o->col_null(st, 9) ? NAN : vsb_c2c_parse(o->col_text(st, 9));
	return r;
}

static void series_medians(struct vsb_series *se)
{
	size_t i;

	for (i = 0; i < se->n; i++)
		se->runs[i].median = vsb_median(se->runs[i].samples, se->runs[i].n);
}

int vsb_store_series(struct vsb_store *s, const char *point_key,
		     const char *machine, struct vsb_series *se)
{
	const struct vsb_store_ops *o = s->ops;
	char sql[1024], c2c[64];
	struct vsb_stmt *st;
	int rc;

	memset(se, 0, sizeof(*se));
	snprintf(se->point_key, sizeof(se->point_key), "%s", point_key);
	/* the run's c2c_ns from its metadata: history's moved-CPUs rule */
	snprintf(c2c, sizeof(c2c), o->json_member_sql, "r.env", VSB_C2C_KEY);
	snprintf(sql, sizeof(sql),
		 "SELECT r.run_id, m.fingerprint, m.cpu_model, k.release, "
		 "r.git_revision, r.started, s.unit, s.rep, avg(s.per_op), %s "
		 "FROM sample s JOIN point p ON p.id = s.point "
		 "JOIN run r ON r.id = s.run JOIN machine m ON m.id = r.machine "
		 "JOIN kernel k ON k.id = r.kernel "
		 "WHERE p.key = ? AND (CAST(? AS TEXT) = '' OR m.fingerprint = ?) "
		 "GROUP BY r.id, r.run_id, m.fingerprint, m.cpu_model, k.release, "
		 "r.git_revision, r.started, s.unit, s.rep "
		 "ORDER BY r.started, r.id, s.rep", c2c);
	if (vsb_store_prepare(s, "reading the series", sql, &st))
		return VSB_EXIT_ERROR;
	o->bind_text(st, 1, point_key, -1);
	o->bind_text(st, 2, machine ? machine : "", -1);
	o->bind_text(st, 3, machine ? machine : "", -1);
	while ((rc = o->step(st)) == 1) {
		struct vsb_series_run *r = series_run(se, o, st);

		if (o->col_null(st, 8))
			continue;	/* no per_op in this repetition */
		r->samples = realloc(r->samples, (r->n + 1) * sizeof(double));
		if (!r->samples) {
			vsb_err("out of memory");
			exit(VSB_EXIT_ERROR);
		}
		r->samples[r->n++] = o->col_double(st, 8);
	}
	if (rc < 0)
		vsb_store_fail(s, "reading the series");
	o->finalize(st);
	if (rc < 0) {
		vsb_series_free(se);
		return VSB_EXIT_ERROR;
	}
	series_medians(se);
	return 0;
}

void vsb_series_free(struct vsb_series *se)
{
	size_t i;

	for (i = 0; i < se->n; i++)
		free(se->runs[i].samples);
	free(se->runs);
	memset(se, 0, sizeof(*se));
}
