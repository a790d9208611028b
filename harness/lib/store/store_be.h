/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the result store: the operations each backend (store_sqlite.c,
 * store_pg.c) provides, and the store handle the shared code
 * (store.c, store_import.c, store_query.c) works through.  SQL is
 * written once, with `?` placeholders and RETURNING, which both SQLite
 * (3.35 on) and PostgreSQL take; the PostgreSQL backend renumbers the
 * placeholders to $1, $2, ...  Not for use outside the store.
 */
#ifndef VSB_STORE_BE_H
#define VSB_STORE_BE_H

#include "store.h"

struct vsb_db;
struct vsb_stmt;

/* One typed value of a row loaded in bulk (struct vsb_rows). */
enum vsb_val_type { VSB_VAL_NULL, VSB_VAL_INT, VSB_VAL_DOUBLE, VSB_VAL_TEXT };
struct vsb_val {
	enum vsb_val_type t;
	long long i;
	double d;
	const char *s;	/* VSB_VAL_TEXT: @len bytes */
	int len;
};

struct vsb_store_ops {
	const char *name;
	/* replaces %PK% in the schema: an integer key the database assigns */
	const char *pk;
	/* replaces %CLUSTERED% after a table kept in its primary key's order */
	const char *clustered;
	/* replaces %DROP_SAMPLE_FKS% (schema version 2): the statement that
	 * drops sample's foreign keys, "" where none are enforced */
	const char *drop_sample_fks;
	/* SQL of a JSON text column's string member: printf with the
	 * column, then the member's name */
	const char *json_member_sql;
	/*
	 * The members of a JSON object column, a row each: the row's id,
	 * the member's name, its value; in id, then stored order.  printf
	 * with the table, the column and a WHERE condition.
	 */
	const char *json_pairs_sql;
	/* every stored point's parameters, a row each: the point's key, the
	 * parameter's name, its value; in point, then stored order */
	const char *point_params_sql;
	/* a query of one count: is table ?1 there */
	const char *table_exists_sql;
	/* a query of one count: how many tables in the store's schema */
	const char *count_tables_sql;
	/* run after begin() by a migration and by an import, to keep two
	 * apart; NULL where begin() already excludes other writers */
	const char *schema_lock_sql;
	/*
	 * The first load into an empty sample table (store_bulk.c): SQL
	 * that drops sample's indexes, and SQL that makes them again as
	 * the schema has them.  NULL: kept up row by row.
	 */
	const char *index_drop_sql;
	const char *index_build_sql;
	/*
	 * vsb_store_check()'s part for this backend: is @target one open()
	 * may be handed in @mode?  Judged with no side effect (nothing
	 * created, written, locked or connected to).  *@peek: NULL, or a
	 * read-only connection to an existing store whose schema the
	 * caller reads, then closes.  0, or VSB_EXIT_* after one line.
	 */
	int (*check)(const char *target, enum vsb_store_mode mode, struct vsb_db **peek);
	/* after check(): VSB_EXIT_*, one line printed on failure */
	int (*open)(const char *target, enum vsb_store_mode mode, struct vsb_db **db);
	void (*close)(struct vsb_db *db);
	/* statements without parameters or results; 0 or -1 */
	int (*exec)(struct vsb_db *db, const char *sql);
	/* BEGIN that holds the write lock until commit (waits for it) */
	int (*begin)(struct vsb_db *db);
	const char *(*errmsg)(struct vsb_db *db);
	int (*prepare)(struct vsb_db *db, const char *sql, struct vsb_stmt **st);
	/* @len -1: NUL-terminated; @s must stay valid until the statement is
	 * stepped and reset (SQLite binds it without a copy) */
	void (*bind_text)(struct vsb_stmt *st, int i, const char *s, int len);
	void (*bind_int)(struct vsb_stmt *st, int i, long long v);
	void (*bind_double)(struct vsb_stmt *st, int i, double v);
	void (*bind_null)(struct vsb_stmt *st, int i);
	/* 1 a row, 0 done, -1 error (errmsg says) */
	int (*step)(struct vsb_stmt *st);
	int (*col_null)(struct vsb_stmt *st, int i);
	const char *(*col_text)(struct vsb_stmt *st, int i);	/* "" for NULL */
	long long (*col_int)(struct vsb_stmt *st, int i);
	double (*col_double)(struct vsb_stmt *st, int i);
	void (*reset)(struct vsb_stmt *st);	/* keeps the bindings' slots */
	void (*finalize)(struct vsb_stmt *st);
	/*
	 * Optional bulk load (NULL: one prepared INSERT per row, which is
	 * already fast in SQLite): PostgreSQL's binary COPY FROM STDIN, one
	 * stream for the whole table instead of a round trip per row; its
	 * columns must be BIGINT for VSB_VAL_INT, DOUBLE PRECISION for
	 * VSB_VAL_DOUBLE and TEXT for VSB_VAL_TEXT.  copy_begin
	 * takes "table (col, ...)"; copy_end(@ok 1) ends the copy and says
	 * whether the server took every row; copy_end(@ok 0) abandons it
	 * (the transaction then fails), keeping errmsg, and returns 0.
	 * 0 or -1 (errmsg says).
	 */
	int (*copy_begin)(struct vsb_db *db, const char *target);
	int (*copy_row)(struct vsb_db *db, const struct vsb_val *v, int n);
	int (*copy_end)(struct vsb_db *db, int ok);
};

extern const struct vsb_store_ops vsb_store_sqlite_ops;
extern const struct vsb_store_ops vsb_store_pg_ops;

struct vsb_store {
	const struct vsb_store_ops *ops;
	struct vsb_db *db;
	char url[4096];
	int in_txn;
	int empty;	/* READ_EMPTY of a database with no schema */
};

/* store.c: prepare or print "store: WHAT: error" and return -1 */
int vsb_store_prepare(struct vsb_store *s, const char *what, const char *sql,
		      struct vsb_stmt **st);
int vsb_store_fail(struct vsb_store *s, const char *what);	/* VSB_EXIT_ERROR */
/*
 * Many rows into one table (store_rows.c): COPY where the backend has
 * it, else a prepared INSERT stepped per row; the same rows stored
 * either way.  begin: 0 or -1 said ("store: WHAT: ..."); put: 0 or -1
 * (said by end); end(@ok): 0, or VSB_EXIT_ERROR after one line.
 */
struct vsb_rows {
	struct vsb_store *s;
	const char *what;
	struct vsb_stmt *st;	/* NULL when copying */
	int ncols, failed;
};
int vsb_rows_begin(struct vsb_rows *r, struct vsb_store *s, const char *what,
		   const char *table, const char *cols, int ncols);
int vsb_rows_put(struct vsb_rows *r, const struct vsb_val *v);
int vsb_rows_end(struct vsb_rows *r, int ok);

/*
 * store_bulk.c: called after the import's queueing lock; *@deferred says
 * whether the indexes were dropped, for vsb_bulk_end() to make them
 * again before commit.  0, or VSB_EXIT_ERROR after one line.
 */
int vsb_bulk_begin(struct vsb_store *s, int *deferred);
int vsb_bulk_end(struct vsb_store *s, int deferred);

/* JSON string of @n bytes of @s (quotes included) appended to *buf */
void vsb_json_str(char **buf, size_t *len, size_t *cap, const char *s, size_t n);
void vsb_buf_add(char **buf, size_t *len, size_t *cap, const char *s, size_t n);

#endif /* VSB_STORE_BE_H */
