/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The result store: raw samples of many runs, machines and kernels in one
 * database, SQLite by default and PostgreSQL for a fleet, with one schema
 * and one set of queries behind a small table of backend operations.
 *
 * A store is named by a URL: a path or sqlite:PATH, or postgresql://...
 * (postgres://... too, handed to libpq as is).  Default: $VSB_DB, else
 * results/vmstat-bench.db.  Opening checks the schema version and brings
 * an older store up to date (the migrations are an ordered list of SQL
 * steps in store.c); a newer store is refused with both versions named.
 *
 * Identity: a run is one result file.  Its id is the file's `# run_id:`
 * line, or where that is missing (older results) "c-" and a hash of the
 * file's bytes, so the same file imported twice is stored once.  A
 * machine is a fingerprint of stable fields (store_import.c), a kernel
 * its release, version string and config line, a point its parameter
 * columns (every column before `thread`).
 *
 * Every function prints one line on failure and returns VSB_EXIT_*.
 */
#ifndef VSB_STORE_H
#define VSB_STORE_H

#include <stddef.h>
#include <stdio.h>

#include "result_load.h"

#define VSB_STORE_DEFAULT "results/vmstat-bench.db"
#define VSB_STORE_SCHEMA 2	/* the newest schema this build knows */

struct vsb_store;

enum vsb_store_mode {
	VSB_STORE_READ,		/* the store must exist */
	VSB_STORE_WRITE,	/* create it when missing */
	/* as READ, but an empty database is an empty store (db list:
	 * a new fleet store is reachable before its first import) */
	VSB_STORE_READ_EMPTY,
};

/* @url NULL: $VSB_DB, else VSB_STORE_DEFAULT.  The URL in use, for messages. */
const char *vsb_store_url(const char *url);
/* 1 when @url (NULL: as vsb_store_url()) names a PostgreSQL store */
int vsb_store_url_is_pg(const char *url);
/*
 * Check @url as vsb_store_open(@mode) would take it, with no side effect
 * (nothing created, written, locked or connected to), for commands that
 * open the store only after their work (run and sweep --db).  The kind
 * of URL must be known.  SQLite: the path absent (READ refuses that; to
 * be created in a folder that is there or can be made) or a regular
 * file, not a symbolic link, either empty or an SQLite store of a
 * schema this build reads.  PostgreSQL: the URL's syntax only, so a
 * server need not be up before a run.  VSB_EXIT_USAGE after one line;
 * _SKIP when this build lacks the backend's library, _ERROR when an
 * existing file cannot be read.
 */
int vsb_store_check(const char *url, enum vsb_store_mode mode);
/*
 * run and sweep --db ARG, imported into after the work: `default` names
 * the default store (vsb_store_arg() gives NULL for it).  The check,
 * before the work, refuses an empty ARG, then is vsb_store_check(WRITE).
 */
const char *vsb_store_arg(const char *arg);
int vsb_store_check_arg(const char *arg);
/*
 * Check as vsb_store_check() does, then open and check or migrate the
 * schema.  VSB_EXIT_SKIP when this build lacks the backend's library
 * (the line says which), VSB_EXIT_USAGE for a store that is not one
 * (corrupt, foreign, newer schema: left as it was; a path that is no
 * regular file), VSB_EXIT_ERROR when it cannot be reached.
 */
int vsb_store_open(const char *url, enum vsb_store_mode mode, struct vsb_store **sp);
void vsb_store_close(struct vsb_store *s);
/* 1 for a store READ_EMPTY opened with no schema in it: nothing to query */
int vsb_store_empty(const struct vsb_store *s);
const char *vsb_store_backend(const struct vsb_store *s);	/* "sqlite", "postgresql" */

/* Transactions; vsb_store_begin() takes the write lock (waits for it). */
int vsb_store_begin(struct vsb_store *s);
int vsb_store_commit(struct vsb_store *s);
void vsb_store_rollback(struct vsb_store *s);

/* ---- import (store_import.c) ---- */
enum vsb_import_result {
	VSB_IMPORT_STORED,
	VSB_IMPORT_DUPLICATE,	/* the same run (same bytes) is already stored */
};
struct vsb_import_info {
	enum vsb_import_result result;
	char run_id[128];
	size_t nsamples, npoints;
	char machine[24];	/* fingerprint */
	char missing[256];	/* machine fields the result did not carry */
};
/*
 * For `db import`, `run --db` and `sweep --db`: check the store
 * (vsb_store_check()), load every path (a result file, or a directory
 * whose raw results are taken, summaries, sweep.csv and partial points
 * left out), refuse all of them with exit 2 if one is bad, then import
 * them all in one transaction (all or nothing; the one error line says
 * nothing was stored); prints one line per file unless @quiet.  Into
 * PostgreSQL each row is checked as it goes into the COPY, the rest of
 * a file before the store is opened: a bad row then rolls the import
 * back, with the same line and exit 2.
 */
int vsb_store_import_paths(const char *url, char *const *paths, size_t n, int quiet);

/* The machine fields of a result's metadata, for the fingerprint. */
#define VSB_MACHINE_FIELDS 9
struct vsb_machine_id {
	char val[VSB_MACHINE_FIELDS][256];	/* "" where unknown */
	int from_host[VSB_MACHINE_FIELDS];	/* read here at import time */
	char fingerprint[24];			/* "m-" and 16 hex digits */
	char missing[256];			/* names, space-separated */
};
extern const char *const vsb_machine_field_names[VSB_MACHINE_FIELDS];
/*
 * @meta_get(@ctx, key) reads the result's metadata.  With @allow_host,
 * fields the result lacks are read from this host (/proc/cpuinfo,
 * /proc/meminfo), and only when the result's cpu_model is this host's:
 * a result copied from another machine never gets this one's microcode.
 * Unit tests pass 0 so the answer depends on the metadata alone.
 */
void vsb_machine_identify(const char *(*meta_get)(const void *ctx, const char *key),
			  const void *ctx, int allow_host, struct vsb_machine_id *m);

/* ---- queries (store_query.c) ---- */
int vsb_store_list(struct vsb_store *s, FILE *out);
/* Every point with the number of runs that have it, keys in full. */
int vsb_store_list_points(struct vsb_store *s, FILE *out);
/* The raw CSV of one run: metadata lines, header, rows as imported.
 * @run_id: a run id or a unique prefix of one; NULL: the last imported. */
int vsb_store_export(struct vsb_store *s, const char *run_id, FILE *out);

/*
 * The history of one point (`history`, later): every stored run that has
 * it, oldest first (by the run's start date, then import order).  The
 * samples are per repetition, the mean over the run's workers of per_op
 * in that repetition (as compare and the summary's "all" row count), in
 * repetition order; median is theirs.
 */
struct vsb_series_run {
	char run_id[128];
	char machine[24];	/* fingerprint */
	char cpu_model[128];
	char kernel[128];	/* release */
	char revision[64];	/* harness git revision */
	char date[32];		/* the run's # date: */
	char unit[16];
	double c2c_ns;		/* its CPUs' distance; NAN: unknown or one CPU */
	size_t n;
	double *samples;
	double median;
};
struct vsb_series {
	char point_key[1024];
	size_t n;
	struct vsb_series_run *runs;
};
/* @point_key: the canonical key (name=value,... as `db list --points`
 * shows); @machine: a fingerprint to keep to, or NULL for all. */
int vsb_store_series(struct vsb_store *s, const char *point_key,
		     const char *machine, struct vsb_series *out);
void vsb_series_free(struct vsb_series *se);

/* store_points.c: what the store holds, for selecting series */
struct vsb_store_point {
	char *key;		/* canonical point key */
	size_t n, cap;		/* its parameters, in the order stored */
	char **name, **val;
};
struct vsb_store_machine {
	char fingerprint[24];
	char cpu_model[128];
};
/* Every stored point with its parameters, in the order first stored. */
int vsb_store_points(struct vsb_store *s, struct vsb_store_point **pts, size_t *n);
void vsb_store_points_free(struct vsb_store_point *pts, size_t n);
/* The value of parameter @name of @p, NULL when it has none. */
const char *vsb_store_point_param(const struct vsb_store_point *p, const char *name);
int vsb_store_machines(struct vsb_store *s, struct vsb_store_machine **ms, size_t *n);

#endif /* VSB_STORE_H */
