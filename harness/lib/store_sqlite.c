// SPDX-License-Identifier: GPL-2.0
/*
 * The SQLite backend of the result store: a file, by default
 * results/vmstat-bench.db.  WAL journal, so `db list` reads while an
 * import writes; synchronous=NORMAL, which in WAL mode still never
 * leaves a half transaction after a crash (only the last commits may be
 * lost on power failure, never a part of one).  Writers take the lock
 * at BEGIN IMMEDIATE and wait up to a minute for another importer,
 * so two importers at once queue instead of failing.
 *
 * A file that is not a SQLite database is refused before anything is
 * written to it, so a mistyped --db never damages the file it names.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vsb.h"
#include "store_be.h"

#ifdef VSB_HAVE_SQLITE
#include <sqlite3.h>

#define BUSY_WAIT_MS 60000
#define BEGIN_TRIES 5

struct vsb_db {
	sqlite3 *h;
	char path[4096];
};

static sqlite3_stmt *S(struct vsb_stmt *st)
{
	return (sqlite3_stmt *)st;
}

/* results/ may not exist yet: create the file's own folder (one level) */
static void make_parent(const char *path)
{
	char dir[4096], *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return;
	*slash = '\0';
	if (mkdir(dir, 0777) && errno != EEXIST)
		return;		/* sqlite3_open_v2 names the failure */
}

/* Read the schema before any write: corrupt or foreign files stop here. */
static int check_readable(struct vsb_db *d)
{
	int rc = sqlite3_exec(d->h, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);

	if (rc == SQLITE_OK)
		return 0;
	if (rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT)
		vsb_err("%s: not a SQLite database (%s); left as it is", d->path,
			sqlite3_errmsg(d->h));
	else
		vsb_err("%s: %s", d->path, sqlite3_errmsg(d->h));
	return rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT ? VSB_EXIT_USAGE : VSB_EXIT_ERROR;
}

static int sq_open(const char *target, enum vsb_store_mode mode, struct vsb_db **dbp)
{
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
	struct vsb_db *d = vsb_zalloc(sizeof(*d));
	int ret;

	snprintf(d->path, sizeof(d->path), "%s", target);
	if (mode == VSB_STORE_READ && access(target, F_OK)) {
		vsb_err("%s: no store there (`vmstat-bench db import` creates it)", target);
		ret = VSB_EXIT_USAGE;
		goto err_free;
	}
	if (mode == VSB_STORE_WRITE) {
		flags |= SQLITE_OPEN_CREATE;
		make_parent(target);
	}
	if (sqlite3_open_v2(target, &d->h, flags, NULL) != SQLITE_OK) {
		vsb_err("%s: cannot open: %s", target, d->h ? sqlite3_errmsg(d->h) :
			"out of memory");
		ret = VSB_EXIT_ERROR;
		goto err_close;
	}
	sqlite3_busy_timeout(d->h, BUSY_WAIT_MS);
	ret = check_readable(d);
	if (ret)
		goto err_close;
	/* WAL is a property of the file: set once, kept */
	sqlite3_exec(d->h, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
	sqlite3_exec(d->h, "PRAGMA synchronous=NORMAL", NULL, NULL, NULL);
	*dbp = d;
	return 0;

err_close:
	sqlite3_close(d->h);
err_free:
	free(d);
	return ret;
}

static void sq_close(struct vsb_db *d)
{
	if (!d)
		return;
	sqlite3_close(d->h);
	free(d);
}

static int sq_exec(struct vsb_db *d, const char *sql)
{
	return sqlite3_exec(d->h, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

static int sq_begin(struct vsb_db *d)
{
	int i, rc = SQLITE_BUSY;

	/* the busy handler waits inside each try; the loop outlasts a long import */
	for (i = 0; i < BEGIN_TRIES && rc == SQLITE_BUSY; i++)
		rc = sqlite3_exec(d->h, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	return rc == SQLITE_OK ? 0 : -1;
}

static const char *sq_errmsg(struct vsb_db *d)
{
	return sqlite3_errmsg(d->h);
}

static int sq_prepare(struct vsb_db *d, const char *sql, struct vsb_stmt **st)
{
	sqlite3_stmt *s;

	if (sqlite3_prepare_v2(d->h, sql, -1, &s, NULL) != SQLITE_OK)
		return -1;
	*st = (struct vsb_stmt *)s;
	return 0;
}

static void sq_bind_text(struct vsb_stmt *st, int i, const char *s, int len)
{
	sqlite3_bind_text(S(st), i, s, len, SQLITE_STATIC);
}

static void sq_bind_int(struct vsb_stmt *st, int i, long long v)
{
	sqlite3_bind_int64(S(st), i, v);
}

static void sq_bind_double(struct vsb_stmt *st, int i, double v)
{
	sqlite3_bind_double(S(st), i, v);
}

static void sq_bind_null(struct vsb_stmt *st, int i)
{
	sqlite3_bind_null(S(st), i);
}

static int sq_step(struct vsb_stmt *st)
{
	int rc = sqlite3_step(S(st));

	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

static int sq_col_null(struct vsb_stmt *st, int i)
{
	return sqlite3_column_type(S(st), i) == SQLITE_NULL;
}

static const char *sq_col_text(struct vsb_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(S(st), i);

	return t ? (const char *)t : "";
}

static long long sq_col_int(struct vsb_stmt *st, int i)
{
	return sqlite3_column_int64(S(st), i);
}

static double sq_col_double(struct vsb_stmt *st, int i)
{
	return sqlite3_column_double(S(st), i);
}

static void sq_reset(struct vsb_stmt *st)
{
	sqlite3_reset(S(st));
}

static void sq_finalize(struct vsb_stmt *st)
{
	sqlite3_finalize(S(st));
}

const struct vsb_store_ops vsb_store_sqlite_ops = {
	.name = "sqlite",
	.pk = "INTEGER PRIMARY KEY",
	.clustered = " WITHOUT ROWID",
	.json_member_sql = "json_extract(%s, '$.%s')",
	.table_exists_sql =
		"SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?",
	.count_tables_sql = "SELECT count(*) FROM sqlite_master WHERE type = 'table'",
	.open = sq_open,
	.close = sq_close,
	.exec = sq_exec,
	.begin = sq_begin,
	.errmsg = sq_errmsg,
	.prepare = sq_prepare,
	.bind_text = sq_bind_text,
	.bind_int = sq_bind_int,
	.bind_double = sq_bind_double,
	.bind_null = sq_bind_null,
	.step = sq_step,
	.col_null = sq_col_null,
	.col_text = sq_col_text,
	.col_int = sq_col_int,
	.col_double = sq_col_double,
	.reset = sq_reset,
	.finalize = sq_finalize,
};
#endif /* VSB_HAVE_SQLITE */
