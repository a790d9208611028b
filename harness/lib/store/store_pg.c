// SPDX-License-Identifier: GPL-2.0
/*
 * The PostgreSQL backend of the result store, through libpq: a server
 * many machines import into.  The URL goes to PQconnectdb() as is
 * (postgresql://user@host/db, ?host=/run/dir for a Unix socket).
 *
 * Statements are prepared server-side once per import and run with text
 * parameters; the shared SQL's `?` placeholders are renumbered to $n
 * here.  The samples, the bulk of an import, go in by binary COPY FROM
 * STDIN (copy_* below, through store_rows.c).  Machines, kernels, points and
 * runs go in with ON CONFLICT DO NOTHING, so two importers of
 * overlapping files both finish and the second finds the run stored.
 * Migrations and imports (one transaction each, of every file) queue on
 * a transaction-scoped advisory lock.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vsb.h"
#include "store_be.h"

#ifdef VSB_HAVE_PG
#include "pq_api.h"

#define MAX_PARAMS 32

struct vsb_db {
	PGconn *c;
	unsigned int nstmt;	/* names of prepared statements: s1, s2, ... */
	char err[512];
	char *line;		/* COPY data not yet handed to libpq */
	size_t line_len, line_cap;
};

struct vsb_stmt {
	struct vsb_db *d;
	char name[16];
	int nparams;
	char *val[MAX_PARAMS];	/* NULL: SQL NULL */
	size_t cap[MAX_PARAMS];
	PGresult *res;
	int row, nrows;
};

static const struct vsb_pq_api *pq;	/* libpq, loaded by pq_load() */

/*
 * libpq on first use: a check or an open loads it, and every other
 * entry point works on what an open returned.  0, or exit 4 (skip) with
 * the reason, as for a build without libpq.
 */
static int pq_load(void)
{
	char why[160];

	if (pq)
		return 0;
	pq = vsb_pq_api(why, sizeof(why));
	if (pq)
		return 0;
	vsb_err("store: PostgreSQL needs libpq, which cannot be loaded here: %s "
		"(`make deps` installs it)", why);
	return VSB_EXIT_SKIP;
}

/* libpq's messages end in newlines and may run on: keep the first line */
static void set_err(struct vsb_db *d, const char *msg)
{
	size_t n = strcspn(msg, "\n");

	snprintf(d->err, sizeof(d->err), "%.*s", (int)n, msg);
}

static void quiet_notice(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;	/* "relation already exists, skipping" and the like */
}

/*
 * The URL's syntax, as libpq parses it, and no more: a run names its
 * store before the work, when the server need not be up yet.  The URL
 * is not echoed here (it may hold a password); libpq's first line
 * names the fault.
 */
static int pg_check(const char *target, enum vsb_store_mode mode, struct vsb_db **peek)
{
	char *err = NULL;
	PQconninfoOption *opts;
	const char *msg;
	int rc = pq_load();

	(void)mode;
	*peek = NULL;
	if (rc)
		return rc;
	opts = pq->PQconninfoParse(target, &err);
	msg = err ? err : "out of memory";
	if (opts) {
		pq->PQconninfoFree(opts);
		return 0;
	}
	vsb_err("store: not a PostgreSQL URL: %.*s", (int)strcspn(msg, "\n"), msg);
	pq->PQfreemem(err);
	return VSB_EXIT_USAGE;
}

static void pg_close(struct vsb_db *d);
static int pg_exec(struct vsb_db *d, const char *sql);

static int pg_open(const char *target, enum vsb_store_mode mode, struct vsb_db **dbp)
{
	struct vsb_db *d;
	int rc = pq_load();

	if (rc)
		return rc;
	d = vsb_zalloc(sizeof(*d));
	d->c = pq->PQconnectdb(target);
	if (!d->c || pq->PQstatus(d->c) != CONNECTION_OK) {
		set_err(d, d->c ? pq->PQerrorMessage(d->c) : "out of memory");
		vsb_err("store: cannot reach PostgreSQL: %s", d->err);
		pq->PQfinish(d->c);
		free(d);
		return VSB_EXIT_ERROR;
	}
	pq->PQsetNoticeProcessor(d->c, quiet_notice, NULL);
	/* a read command's session cannot write, whatever it runs */
	if (mode != VSB_STORE_WRITE &&
	    pg_exec(d, "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")) {
		vsb_err("store: cannot make the session read-only: %s", d->err);
		pg_close(d);
		return VSB_EXIT_ERROR;
	}
	*dbp = d;
	return 0;
}

static void pg_close(struct vsb_db *d)
{
	if (!d)
		return;
	pq->PQfinish(d->c);
	free(d->line);
	free(d);
}

static int pg_exec(struct vsb_db *d, const char *sql)
{
	PGresult *r = pq->PQexec(d->c, sql);
	int st = pq->PQresultStatus(r), ok = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;

	if (!ok)
		set_err(d, pq->PQresultErrorMessage(r));
	pq->PQclear(r);
	return ok ? 0 : -1;
}

static int pg_begin(struct vsb_db *d)
{
	return pg_exec(d, "BEGIN");
}

static const char *pg_errmsg(struct vsb_db *d)
{
	return d->err;
}

/* `?` to `$n`: the store's SQL has no `?` inside string literals */
static char *renumber(const char *sql, int *nparams)
{
	char *out = vsb_zalloc(strlen(sql) * 4 + 1), *o = out;
	int n = 0;

	for (; *sql; sql++) {
		if (*sql == '?')
			o += sprintf(o, "$%d", ++n);
		else
			*o++ = *sql;
	}
	*nparams = n;
	return out;
}

static int pg_prepare(struct vsb_db *d, const char *sql, struct vsb_stmt **stp)
{
	struct vsb_stmt *st = vsb_zalloc(sizeof(*st));
	char *q = renumber(sql, &st->nparams);
	PGresult *r;
	int ok;

	st->d = d;
	snprintf(st->name, sizeof(st->name), "s%u", ++d->nstmt);
	r = pq->PQprepare(d->c, st->name, q, 0, NULL);
	ok = pq->PQresultStatus(r) == PGRES_COMMAND_OK && st->nparams <= MAX_PARAMS;
	if (!ok)
		set_err(d, st->nparams > MAX_PARAMS ? "too many parameters" :
			pq->PQresultErrorMessage(r));
	pq->PQclear(r);
	free(q);
	if (!ok) {
		free(st);
		return -1;
	}
	*stp = st;
	return 0;
}

static char *slot(struct vsb_stmt *st, int i, size_t need)
{
	i--;
	if (i < 0 || i >= MAX_PARAMS)
		abort();	/* a placeholder the SQL does not have */
	if (st->cap[i] < need + 1) {
		free(st->val[i]);
		st->cap[i] = need + 32;
		st->val[i] = vsb_zalloc(st->cap[i]);
	}
	return st->val[i];
}

static void pg_bind_text(struct vsb_stmt *st, int i, const char *s, int len)
{
	size_t n = len < 0 ? strlen(s) : (size_t)len;
	char *v = slot(st, i, n);

	memcpy(v, s, n);
	v[n] = '\0';
}

static void pg_bind_int(struct vsb_stmt *st, int i, long long v)
{
	snprintf(slot(st, i, 24), 25, "%lld", v);
}

static void pg_bind_double(struct vsb_stmt *st, int i, double v)
{
	/* %.17g reads back as the same double */
	snprintf(slot(st, i, 32), 33, "%.17g", v);
}

static void pg_bind_null(struct vsb_stmt *st, int i)
{
	if (i < 1 || i > MAX_PARAMS)
		abort();
	free(st->val[i - 1]);
	st->val[i - 1] = NULL;
	st->cap[i - 1] = 0;
}

static int pg_step(struct vsb_stmt *st)
{
	if (!st->res) {
		int s;

		st->res = pq->PQexecPrepared(st->d->c, st->name, st->nparams,
					 (const char *const *)st->val, NULL, NULL, 0);
		s = pq->PQresultStatus(st->res);
		if (s != PGRES_TUPLES_OK && s != PGRES_COMMAND_OK) {
			set_err(st->d, pq->PQresultErrorMessage(st->res));
			return -1;
		}
		st->row = 0;
		st->nrows = pq->PQntuples(st->res);
		return st->nrows ? 1 : 0;
	}
	return ++st->row < st->nrows ? 1 : 0;
}

static int pg_col_null(struct vsb_stmt *st, int i)
{
	return pq->PQgetisnull(st->res, st->row, i);
}

static const char *pg_col_text(struct vsb_stmt *st, int i)
{
	return pq->PQgetvalue(st->res, st->row, i);
}

static long long pg_col_int(struct vsb_stmt *st, int i)
{
	return strtoll(pq->PQgetvalue(st->res, st->row, i), NULL, 10);
}

static double pg_col_double(struct vsb_stmt *st, int i)
{
	return strtod(pq->PQgetvalue(st->res, st->row, i), NULL);
}

static void pg_reset(struct vsb_stmt *st)
{
	pq->PQclear(st->res);
	st->res = NULL;
}

static void pg_finalize(struct vsb_stmt *st)
{
	char sql[48];
	int i;

	pg_reset(st);
	snprintf(sql, sizeof(sql), "DEALLOCATE %s", st->name);
	pq->PQclear(pq->PQexec(st->d->c, sql));	/* fails harmlessly in an aborted txn */
	for (i = 0; i < MAX_PARAMS; i++)
		free(st->val[i]);
	free(st);
}

/*
 * COPY in PostgreSQL's binary format: each value as the server stores it
 * (a BIGINT as 8 bytes, a DOUBLE PRECISION as its IEEE bits, text as its
 * bytes), so neither side prints or parses numbers and text needs no
 * escaping.  Rows are gathered in d->line and handed to libpq 64 KiB at
 * a time.  The columns copied must be BIGINT for VSB_VAL_INT, DOUBLE
 * PRECISION for VSB_VAL_DOUBLE and TEXT for VSB_VAL_TEXT (the server
 * refuses other types: "incorrect binary data format").
 */
#define COPY_FLUSH (64 << 10)
static const char copy_header[19] = "PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0";

static int copy_flush(struct vsb_db *d)
{
	int ok = !d->line_len ||
		 pq->PQputCopyData(d->c, d->line, (int)d->line_len) == 1;

	if (!ok)
		set_err(d, pq->PQerrorMessage(d->c));
	d->line_len = 0;
	return ok ? 0 : -1;
}

/* room for @more bytes at the end of d->line */
static unsigned char *line_room(struct vsb_db *d, size_t more)
{
	if (d->line_len + more > d->line_cap) {
		d->line_cap = 2 * (d->line_len + more) + COPY_FLUSH;
		d->line = realloc(d->line, d->line_cap);
		if (!d->line) {
			vsb_err("out of memory");
			exit(VSB_EXIT_ERROR);
		}
	}
	return (unsigned char *)d->line + d->line_len;
}

static void put_be(struct vsb_db *d, uint64_t v, int bytes)
{
	unsigned char *o = line_room(d, (size_t)bytes);
	int i;

	for (i = 0; i < bytes; i++)
		o[i] = (unsigned char)(v >> (8 * (bytes - 1 - i)));
	d->line_len += (size_t)bytes;
}

static int pg_copy_begin(struct vsb_db *d, const char *target)
{
	char *sql = vsb_zalloc(strlen(target) + 48);
	PGresult *r;
	int ok;

	sprintf(sql, "COPY %s FROM STDIN (FORMAT binary)", target);
	r = pq->PQexec(d->c, sql);
	ok = pq->PQresultStatus(r) == PGRES_COPY_IN;
	if (!ok)
		set_err(d, pq->PQresultErrorMessage(r));
	pq->PQclear(r);
	free(sql);
	if (!ok)
		return -1;
	d->line_len = 0;
	memcpy(line_room(d, sizeof(copy_header)), copy_header, sizeof(copy_header));
	d->line_len += sizeof(copy_header);
	return 0;
}

static int pg_copy_row(struct vsb_db *d, const struct vsb_val *v, int n)
{
	uint64_t bits;
	size_t len;
	int i;

	put_be(d, (uint64_t)n, 2);
	for (i = 0; i < n; i++) {
		switch (v[i].t) {
		case VSB_VAL_NULL:
			put_be(d, 0xffffffffu, 4);	/* length -1 */
			break;
		case VSB_VAL_INT:
			put_be(d, 8, 4);
			put_be(d, (uint64_t)v[i].i, 8);
			break;
		case VSB_VAL_DOUBLE:
			memcpy(&bits, &v[i].d, sizeof(bits));
			put_be(d, 8, 4);
			put_be(d, bits, 8);
			break;
		case VSB_VAL_TEXT:
			len = v[i].len < 0 ? strlen(v[i].s) : (size_t)v[i].len;
			put_be(d, len, 4);
			memcpy(line_room(d, len), v[i].s, len);
			d->line_len += len;
			break;
		}
	}
	return d->line_len >= COPY_FLUSH ? copy_flush(d) : 0;
}

static int pg_copy_end(struct vsb_db *d, int ok)
{
	PGresult *r;
	int good = 1;

	if (ok) {
		put_be(d, 0xffff, 2);	/* the trailer: a field count of -1 */
		good = !copy_flush(d);
	}
	d->line_len = 0;
	if (pq->PQputCopyEnd(d->c, ok && good ? NULL : "abandoned by the importer") != 1) {
		if (ok && good)
			set_err(d, pq->PQerrorMessage(d->c));
		good = 0;
	}
	while ((r = pq->PQgetResult(d->c))) {
		int st = pq->PQresultStatus(r);

		if (st != PGRES_COMMAND_OK && good && ok) {
			set_err(d, pq->PQresultErrorMessage(r));
			good = 0;
		}
		pq->PQclear(r);
		/* the end was not sent: libpq would answer COPY_IN forever */
		if (st == PGRES_COPY_IN)
			break;
	}
	return !ok || good ? 0 : -1;
}

const struct vsb_store_ops vsb_store_pg_ops = {
	.name = "postgresql",
	.pk = "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
	.clustered = "",
	/* the names PostgreSQL gave version 1's REFERENCES clauses */
	.drop_sample_fks = "ALTER TABLE sample DROP CONSTRAINT IF EXISTS sample_run_fkey, "
			   "DROP CONSTRAINT IF EXISTS sample_point_fkey",
	/* schema_v1's two, by the names PostgreSQL gave them */
	.index_drop_sql = "ALTER TABLE sample DROP CONSTRAINT sample_pkey; "
			  "DROP INDEX sample_point; TRUNCATE sample",
	/*
	 * a session's own setting, on any server: the default 64 MB sorts
	 * a million rows' primary key on disk (1.3 s, 0.85 s in memory)
	 */
	.index_build_sql = "SET LOCAL maintenance_work_mem = '256MB'; "
			   "ALTER TABLE sample ADD CONSTRAINT sample_pkey PRIMARY KEY (run, seq); "
			   "CREATE INDEX sample_point ON sample (point, run)",
	.json_member_sql = "(%s::json ->> '%s')",
	.json_pairs_sql = "SELECT t.id, j.key, j.value FROM %s t CROSS JOIN LATERAL "
			  "json_each_text(t.%s::json) WITH ORDINALITY AS j(key, value, n) "
			  "WHERE %s ORDER BY t.id, j.n",
	.point_params_sql = "SELECT p.key, j.key, j.value FROM point p CROSS JOIN LATERAL "
			    "json_each_text(p.params::json) WITH ORDINALITY AS j(key, value, n) "
			    "ORDER BY p.id, j.n",
	.table_exists_sql = "SELECT count(*) FROM information_schema.tables "
			    "WHERE table_schema = current_schema() AND table_name = ?",
	.count_tables_sql = "SELECT count(*) FROM information_schema.tables "
			    "WHERE table_schema = current_schema()",
	.schema_lock_sql = "SELECT pg_advisory_xact_lock(7631586203)",
	.check = pg_check,
	.open = pg_open,
	.close = pg_close,
	.exec = pg_exec,
	.begin = pg_begin,
	.errmsg = pg_errmsg,
	.prepare = pg_prepare,
	.bind_text = pg_bind_text,
	.bind_int = pg_bind_int,
	.bind_double = pg_bind_double,
	.bind_null = pg_bind_null,
	.step = pg_step,
	.col_null = pg_col_null,
	.col_text = pg_col_text,
	.col_int = pg_col_int,
	.col_double = pg_col_double,
	.reset = pg_reset,
	.finalize = pg_finalize,
	.copy_begin = pg_copy_begin,
	.copy_row = pg_copy_row,
	.copy_end = pg_copy_end,
};
#endif /* VSB_HAVE_PG */
