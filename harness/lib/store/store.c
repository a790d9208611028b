// SPDX-License-Identifier: GPL-2.0
/*
 * The result store (store.h): URLs, the schema and its migrations, and
 * transactions.  The schema is one ordered list of SQL steps; a store
 * records the last step it has had (vsb_meta.schema_version), and
 * opening it runs the steps after that one, each in the transaction that
 * records it.  A store whose version is newer than this build's list is
 * refused untouched: an older vmstat-bench must not write rows a newer
 * schema's readers would misread.  Steps are appended, never edited.
 */
#include <stdlib.h>
#include <string.h>

#include "vsb.h"
#include "json.h"
#include "store_be.h"

/*
 * Version 1.  Sample rows keep the typed columns queries need and
 * `cells`, the row as written from `thread` on, so export gives the file
 * back byte for byte whatever columns later versions append; the
 * parameter cells before it are the point's.  `seq` is the row's place
 * in its file.  Indexes: export reads by (run, seq), history by point.
 */
static const char schema_v1[] =
"CREATE TABLE machine (id %PK%, fingerprint TEXT NOT NULL UNIQUE,"
" cpu_model TEXT NOT NULL, fields TEXT NOT NULL, missing TEXT NOT NULL);"
"CREATE TABLE kernel (id %PK%, fingerprint TEXT NOT NULL UNIQUE,"
" release TEXT NOT NULL, version TEXT NOT NULL, config_hash TEXT NOT NULL,"
" config TEXT NOT NULL);"
"CREATE TABLE point (id %PK%, key TEXT NOT NULL UNIQUE, params TEXT NOT NULL);"
"CREATE TABLE run (id %PK%, run_id TEXT NOT NULL UNIQUE,"
" content_hash TEXT NOT NULL,"
" machine BIGINT NOT NULL REFERENCES machine (id),"
" kernel BIGINT NOT NULL REFERENCES kernel (id),"
" git_revision TEXT NOT NULL, started TEXT NOT NULL, command TEXT NOT NULL,"
" env TEXT NOT NULL, columns TEXT NOT NULL, source TEXT NOT NULL,"
" nsamples BIGINT NOT NULL, imported TEXT NOT NULL);"
"CREATE TABLE sample (run BIGINT NOT NULL REFERENCES run (id),"
" seq BIGINT NOT NULL, point BIGINT NOT NULL REFERENCES point (id),"
" thread BIGINT NOT NULL, cpu BIGINT NOT NULL, rep BIGINT NOT NULL,"
" ops BIGINT NOT NULL, elapsed BIGINT NOT NULL, unit TEXT NOT NULL,"
" per_op DOUBLE PRECISION, ns_per_op DOUBLE PRECISION,"
" cycles DOUBLE PRECISION, instructions DOUBLE PRECISION,"
" pmu_events TEXT, pmu_values TEXT, cells TEXT NOT NULL,"
" PRIMARY KEY (run, seq))%CLUSTERED%;"
"CREATE INDEX sample_point ON sample (point, run);";

/*
 * Version 2: no foreign keys on sample.  PostgreSQL checks a foreign
 * key with one query per inserted row: of the 34 s a million samples
 * took to COPY on a loaded host, 26 s were those 2,000,000 lookups
 * (docs/measurements.md).  The importer is the only writer of sample,
 * and it takes the run's and points' ids from rows it inserted or read
 * in the same transaction, so the checks could never fail.  SQLite
 * never enforced them (PRAGMA foreign_keys is off) and cannot drop a
 * constraint in place: its step is empty.
 */
static const char schema_v2[] = "%DROP_SAMPLE_FKS%";

static const char *const migrations[] = {
	schema_v1,
	schema_v2,
};
_Static_assert(sizeof(migrations) / sizeof(migrations[0]) == VSB_STORE_SCHEMA,
	       "one migration step per schema version");

const char *vsb_store_url(const char *url)
{
	const char *env = getenv("VSB_DB");

	if (url && *url)
		return url;
	return env && *env ? env : VSB_STORE_DEFAULT;
}

const char *vsb_store_backend(const struct vsb_store *s)
{
	return s->ops->name;
}

int vsb_store_fail(struct vsb_store *s, const char *what)
{
	vsb_err("store: %s: %s", what, s->ops->errmsg(s->db));
	return VSB_EXIT_ERROR;
}

int vsb_store_prepare(struct vsb_store *s, const char *what, const char *sql,
		      struct vsb_stmt **st)
{
	if (s->ops->prepare(s->db, sql, st)) {
		vsb_store_fail(s, what);
		return -1;
	}
	return 0;
}

void vsb_buf_add(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
	if (*len + n + 1 > *cap) {
		*cap = 2 * (*len + n + 1) + 256;
		*buf = realloc(*buf, *cap);
		if (!*buf) {
			vsb_err("out of memory");
			exit(VSB_EXIT_ERROR);
		}
	}
	memcpy(*buf + *len, s, n);
	*len += n;
	(*buf)[*len] = '\0';
}

void vsb_json_str(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
	char esc[8];
	size_t i, k;

	vsb_buf_add(buf, len, cap, "\"", 1);
	for (i = 0; i < n; i++) {
		k = vsb_json_escape((unsigned char)s[i], esc);
		vsb_buf_add(buf, len, cap, esc, k);
	}
	vsb_buf_add(buf, len, cap, "\"", 1);
}

/* One count from @sql with an optional text parameter; -1 on error. */
static long long count_of(struct vsb_store *s, const char *sql, const char *arg)
{
	struct vsb_stmt *st;
	long long n = -1;

	if (vsb_store_prepare(s, "reading the schema", sql, &st))
		return -1;
	if (arg)
		s->ops->bind_text(st, 1, arg, -1);
	if (s->ops->step(st) == 1)
		n = s->ops->col_int(st, 0);
	else
		vsb_store_fail(s, "reading the schema");
	s->ops->finalize(st);
	return n;
}

/*
 * A store of the newest version has every table the schema made; one
 * dropped is damage, found when the store is opened or checked (before
 * a run's work), not as "no such table" from the import after it.
 */
static int check_tables(struct vsb_store *s)
{
	static const char *const tables[] = { "machine", "kernel", "point", "run",
					      "sample" };
	long long n;
	size_t k;

	for (k = 0; k < sizeof(tables) / sizeof(tables[0]); k++) {
		n = count_of(s, s->ops->table_exists_sql, tables[k]);
		if (n < 0)
			return VSB_EXIT_ERROR;
		if (!n) {
			vsb_err("%s: damaged store: table %s is missing; left as it is",
				s->url, tables[k]);
			return VSB_EXIT_USAGE;
		}
	}
	return 0;
}

/* The store's schema version into *v (0: an empty database). */
static int read_version(struct vsb_store *s, int *v)
{
	struct vsb_stmt *st;
	long long n = count_of(s, s->ops->table_exists_sql, "vsb_meta");
	char val[64] = "";
	long lv;
	int rc;

	*v = 0;
	if (n < 0)
		return VSB_EXIT_ERROR;
	if (!n) {
		n = count_of(s, s->ops->count_tables_sql, NULL);
		if (n < 0)
			return VSB_EXIT_ERROR;
		if (n) {
			vsb_err("%s: not a vmstat-bench store (%lld tables, views, "
				"triggers or indexes of something else); left as it is",
				s->url, n);
			return VSB_EXIT_USAGE;
		}
		return 0;
	}
	if (vsb_store_prepare(s, "reading the schema version",
			      "SELECT value FROM vsb_meta WHERE key = 'schema_version'", &st))
		return VSB_EXIT_ERROR;
	rc = s->ops->step(st);
	if (rc == 1)
		snprintf(val, sizeof(val), "%s", s->ops->col_text(st, 0));
	s->ops->finalize(st);
	if (rc < 0)
		return vsb_store_fail(s, "reading the schema version");
	/*
	 * A migration writes vsb_meta and its version in one transaction,
	 * so a store with the table has a version 1..N; anything else
	 * (no row, empty, text, 0, negative: migrations[] indexed by it) is
	 * damage, refused before anything reads or migrates it.
	 */
	if (rc != 1 || vsb_parse_long(val, &lv) || lv < 1) {
		vsb_err("%s: damaged store: schema_version is %s%s%s (want 1..%d); left "
			"as it is", s->url, rc == 1 ? "'" : "", rc == 1 ? val : "missing",
			rc == 1 ? "'" : "", VSB_STORE_SCHEMA);
		return VSB_EXIT_USAGE;
	}
	*v = lv > VSB_STORE_SCHEMA ? VSB_STORE_SCHEMA + 1 : (int)lv;
	if (lv > VSB_STORE_SCHEMA) {
		vsb_err("%s: store schema version %ld is newer than this vmstat-bench's "
			"(%d): use a newer vmstat-bench; the store is left as it is",
			s->url, lv, VSB_STORE_SCHEMA);
		return VSB_EXIT_USAGE;
	}
	return lv == VSB_STORE_SCHEMA ? check_tables(s) : 0;
}

/*
 * @sql with the backend's words for %PK%, %CLUSTERED% and
 * %DROP_SAMPLE_FKS%, then run; a step that is empty for this backend
 * is only recorded.
 */
static int exec_step(struct vsb_store *s, const char *sql)
{
	const char *const tok[][2] = {
		{ "%PK%", s->ops->pk }, { "%CLUSTERED%", s->ops->clustered },
		{ "%DROP_SAMPLE_FKS%", s->ops->drop_sample_fks },
	};
	const size_t ntok = sizeof(tok) / sizeof(tok[0]);
	size_t len = 0, cap = 0, k;
	char *buf = NULL;
	int ret;

	while (*sql) {
		for (k = 0; k < ntok; k++)
			if (!strncmp(sql, tok[k][0], strlen(tok[k][0])))
				break;
		if (k < ntok) {
			vsb_buf_add(&buf, &len, &cap, tok[k][1], strlen(tok[k][1]));
			sql += strlen(tok[k][0]);
		} else {
			vsb_buf_add(&buf, &len, &cap, sql++, 1);
		}
	}
	ret = len ? s->ops->exec(s->db, buf) : 0;
	free(buf);
	return ret;
}

static int migrate(struct vsb_store *s)
{
	char sql[160];
	int v, ret;

	ret = vsb_store_begin(s);
	if (ret)
		return ret;
	if (s->ops->schema_lock_sql && s->ops->exec(s->db, s->ops->schema_lock_sql)) {
		ret = vsb_store_fail(s, "locking the schema");
		goto err_rollback;
	}
	/* another process may have migrated while this one waited */
	ret = read_version(s, &v);
	if (ret)
		goto err_rollback;
	if (s->ops->exec(s->db, "CREATE TABLE IF NOT EXISTS vsb_meta "
			 "(key TEXT PRIMARY KEY, value TEXT NOT NULL)")) {
		ret = vsb_store_fail(s, "creating vsb_meta");
		goto err_rollback;
	}
	for (; v < VSB_STORE_SCHEMA; v++) {
		if (exec_step(s, migrations[v])) {
			ret = vsb_store_fail(s, "migrating the schema");
			goto err_rollback;
		}
	}
	snprintf(sql, sizeof(sql), "INSERT INTO vsb_meta VALUES ('schema_version', '%d') "
		 "ON CONFLICT (key) DO UPDATE SET value = excluded.value", v);
	if (s->ops->exec(s->db, sql)) {
		ret = vsb_store_fail(s, "recording the schema version");
		goto err_rollback;
	}
	return vsb_store_commit(s);

err_rollback:
	vsb_store_rollback(s);
	return ret;
}

int vsb_store_url_is_pg(const char *url)
{
	url = vsb_store_url(url);
	return !strncmp(url, "postgresql://", 13) || !strncmp(url, "postgres://", 11);
}

static int pick_backend(const char *url, const struct vsb_store_ops **ops,
			const char **target)
{
	(void)ops;	/* unused when built with neither library */
	(void)target;
	if (vsb_store_url_is_pg(url)) {
#ifdef VSB_HAVE_PG
		*ops = &vsb_store_pg_ops;
		*target = url;
		return 0;
#else
		vsb_err("store: this vmstat-bench was built without PostgreSQL "
			"(libpq-dev missing at build time: `make deps`, then rebuild)");
		return VSB_EXIT_SKIP;
#endif
	}
	if (strstr(url, "://") && strncmp(url, "sqlite:", 7)) {
		vsb_err("store: '%s': unknown kind of URL (a path, sqlite:PATH or "
			"postgresql://...)", url);
		return VSB_EXIT_USAGE;
	}
#ifdef VSB_HAVE_SQLITE
	*ops = &vsb_store_sqlite_ops;
	*target = url;
	if (!strncmp(url, "sqlite:", 7))
		*target = url + 7 + 2 * !strncmp(url + 7, "//", 2);
	if (!**target) {
		vsb_err("store: '%s': no file named", url);
		return VSB_EXIT_USAGE;
	}
	return 0;
#else
	vsb_err("store: this vmstat-bench was built without SQLite "
		"(libsqlite3-dev missing at build time: `make deps`, then rebuild)");
	return VSB_EXIT_SKIP;
#endif
}

/*
 * A read command reads a store as it is: it never creates the schema
 * nor migrates (a read opens read-only), so an empty database or an
 * older schema is refused, left as it is.
 */
static int read_only_version(const char *url, enum vsb_store_mode mode, int v)
{
	if (mode == VSB_STORE_WRITE || v >= VSB_STORE_SCHEMA ||
	    (mode == VSB_STORE_READ_EMPTY && !v))
		return 0;
	if (!v)
		vsb_err("%s: an empty database: holds no runs, not a vmstat-bench store "
			"yet (`vmstat-bench db import` makes one); left as it is", url);
	else
		vsb_err("%s: store schema version %d is older than this vmstat-bench's "
			"(%d): `vmstat-bench db import` brings it up to date; left as it is",
			url, v, VSB_STORE_SCHEMA);
	return VSB_EXIT_USAGE;
}

/*
 * @url's backend and target, checked (vsb_store_check()).  Also the first
 * step of every open: an open for writing sets the journal mode, so a
 * foreign or newer file must be refused before it, from a look alone.
 */
static int check_url(const char *url, enum vsb_store_mode mode,
		     const struct vsb_store_ops **ops, const char **target)
{
	struct vsb_store s = { 0 };
	int v, ret = pick_backend(url, ops, target);

	if (!ret)
		ret = (*ops)->check(*target, mode, &s.db);
	if (ret || !s.db)
		return ret;
	s.ops = *ops;
	snprintf(s.url, sizeof(s.url), "%s", url);
	ret = read_version(&s, &v);
	(*ops)->close(s.db);
	return ret ?: read_only_version(url, mode, v);
}

int vsb_store_check(const char *url, enum vsb_store_mode mode)
{
	const struct vsb_store_ops *ops;
	const char *target;

	return check_url(vsb_store_url(url), mode, &ops, &target);
}

const char *vsb_store_arg(const char *arg)
{
	return strcmp(arg, "default") ? arg : NULL;
}

int vsb_store_check_arg(const char *arg)
{
	if (!*arg) {
		vsb_err("--db: empty store name (`default`: $VSB_DB, else %s)",
			VSB_STORE_DEFAULT);
		return VSB_EXIT_USAGE;
	}
	return vsb_store_check(vsb_store_arg(arg), VSB_STORE_WRITE);
}

int vsb_store_open(const char *url, enum vsb_store_mode mode, struct vsb_store **sp)
{
	const struct vsb_store_ops *ops = NULL;
	const char *target = NULL;
	struct vsb_store *s;
	int v, ret;

	url = vsb_store_url(url);
	ret = check_url(url, mode, &ops, &target);
	if (ret)
		return ret;
	s = vsb_zalloc(sizeof(*s));
	s->ops = ops;
	snprintf(s->url, sizeof(s->url), "%s", url);
	ret = ops->open(target, mode, &s->db);
	if (ret)
		goto err_free;
	ret = read_version(s, &v) ?: read_only_version(url, mode, v);
	if (!ret && v < VSB_STORE_SCHEMA && mode == VSB_STORE_WRITE)
		ret = migrate(s);
	s->empty = !ret && !v;
	if (ret)
		goto err_close;
	*sp = s;
	return 0;

err_close:
	ops->close(s->db);
err_free:
	free(s);
	return ret;
}

int vsb_store_empty(const struct vsb_store *s)
{
	return s->empty;
}

void vsb_store_close(struct vsb_store *s)
{
	if (!s)
		return;
	if (s->in_txn)
		vsb_store_rollback(s);
	s->ops->close(s->db);
	free(s);
}

int vsb_store_begin(struct vsb_store *s)
{
	if (s->ops->begin(s->db))
		return vsb_store_fail(s, "starting a transaction");
	s->in_txn = 1;
	return 0;
}

int vsb_store_commit(struct vsb_store *s)
{
	int ret = 0;

	s->in_txn = 0;
	if (s->ops->exec(s->db, "COMMIT")) {
		ret = vsb_store_fail(s, "committing");
		s->ops->exec(s->db, "ROLLBACK");	/* SQLite keeps it open */
	}
	return ret;
}

void vsb_store_rollback(struct vsb_store *s)
{
	s->in_txn = 0;
	s->ops->exec(s->db, "ROLLBACK");
}
