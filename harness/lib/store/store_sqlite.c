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
 * written to it, so a mistyped --db never damages the file it names;
 * sq_check() refuses, before SQLite sees the path, anything but a
 * regular file or a path to create (SQLite would open /dev/null or a
 * FIFO and make PATH-journal beside it).  Paths reach SQLite as
 * file: URIs built here, so a name such as "file:x?mode=memory" is the
 * file it names, the one checked, and never read as a URI.
 */
#include <errno.h>
#include <fcntl.h>
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

/*
 * @path as a file: URI, '%', '?' and '#' escaped; an absolute path gets
 * an empty authority ("file:///..."), so "//x" is a path, not a host.
 * -1 when it does not fit.
 */
static int path_uri(const char *path, const char *query, char *uri, size_t len)
{
	size_t k = (size_t)snprintf(uri, len, "file:%s", *path == '/' ? "//" : "");

	for (; *path && k + 4 < len; path++)
		k += strchr("%?#", *path) ?
		     (size_t)snprintf(uri + k, len - k, "%%%02X", (unsigned char)*path) :
		     (size_t)snprintf(uri + k, len - k, "%c", *path);
	if (*path || k + strlen(query) >= len)
		return -1;
	strcpy(uri + k, query);
	return 0;
}

/* A connection to @target with @flags; VSB_EXIT_*, one line on failure. */
static int sq_connect(const char *target, int flags, const char *query,
		      struct vsb_db **dbp)
{
	struct vsb_db *d = vsb_zalloc(sizeof(*d));
	char uri[3 * 4096 + 64];
	int ret;

	snprintf(d->path, sizeof(d->path), "%s", target);
	if (path_uri(target, query, uri, sizeof(uri))) {
		vsb_err("%s: path too long", target);
		free(d);
		return VSB_EXIT_USAGE;
	}
	if (sqlite3_open_v2(uri, &d->h, flags | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		vsb_err("%s: cannot open: %s", target, d->h ? sqlite3_errmsg(d->h) :
			"out of memory");
		ret = VSB_EXIT_ERROR;
		goto err_close;
	}
	sqlite3_busy_timeout(d->h, BUSY_WAIT_MS);
	ret = check_readable(d);
	if (ret)
		goto err_close;
	*dbp = d;
	return 0;

err_close:
	sqlite3_close(d->h);
	free(d);
	return ret;
}

/* One line for what is at @target (an errno or vsb_open_regular()'s code). */
static int refuse(const char *target, int e)
{
	vsb_err("store %s: %s: a store is a regular file, or a path to create one at",
		target, vsb_read_strerror(e));
	return VSB_EXIT_USAGE;
}

/*
 * Nothing at @target: WRITE creates it, in a folder that is there or
 * that make_parent() can make (one level).  A folder on the way that is
 * a file made lstat() fail with ENOTDIR already.
 */
static int check_absent(const char *target, enum vsb_store_mode mode)
{
	char dir[4096], *slash;
	struct stat st;
	int up;

	if (mode != VSB_STORE_WRITE) {
		vsb_err("%s: no store there (`vmstat-bench db import` creates it)", target);
		return VSB_EXIT_USAGE;
	}
	snprintf(dir, sizeof(dir), "%s", target);
	for (up = 0; up < 2; up++) {
		slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			return 0;	/* the current folder or / */
		*slash = '\0';
		if (!stat(dir, &st))
			return 0;
	}
	vsb_err("store %s: folder %s does not exist (only the store's own folder is "
		"made)", target, dir);
	return VSB_EXIT_USAGE;
}

/*
 * The sidecar rule, applied before SQLite sees the path: SQLite trusts
 * whatever PATH-wal, PATH-shm and PATH-journal hold (it rolls a hot
 * journal back into the store and merges a WAL's frames), so anyone who
 * can write the store's folder could rewrite the store through them.
 * Each present sidecar must be a regular file (no link, FIFO, folder)
 * owned by the store's owner (by this user where the store is still to
 * be made), and a store to be made has none (SQLite would adopt them).
 * While nobody has the store open, a -journal with bytes in it is hot
 * (our stores are WAL: it is not ours, and rolling it back could
 * overwrite the store), and a -wal without its -shm is not one SQLite
 * left (it makes and removes the two together): both refused.  While
 * another process has it open they are its live files, passed.
 * Everything is left as it is; one line says what to look at.
 */
static const char *const sidecar_sfx[] = { "-wal", "-shm", "-journal" };

static int sidecar_refuse(const char *side, const char *why)
{
	vsb_err("store sidecar %s: %s; the store and it are left as they are "
		"(docs/reliability.md, \"The store\")", side, why);
	return VSB_EXIT_USAGE;
}

/*
 * Does another process hold any of SQLite's locks on @target (the
 * PENDING, RESERVED and SHARED bytes at 1 GiB; a WAL connection keeps a
 * SHARED one while it is open)?  Asked with F_GETLK: nothing taken.
 */
static int store_in_use(const char *target)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET,
			    .l_start = 0x40000000, .l_len = 512 };
	int fd = open(target, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	int busy;

	if (fd < 0)
		return 0;
	busy = !fcntl(fd, F_GETLK, &fl) && fl.l_type != F_UNLCK;
	close(fd);
	return busy;
}

static int sidecar_owned(const char *side, const struct stat *st, uid_t owner)
{
	char why[128];

	if (!S_ISREG(st->st_mode))
		return sidecar_refuse(side, S_ISLNK(st->st_mode) ?
				      "a symbolic link, not a file SQLite made" :
				      "not a regular file");
	if (st->st_uid == owner)
		return 0;
	snprintf(why, sizeof(why), "owned by uid %u, the store by uid %u: not made "
		 "for this store", (unsigned)st->st_uid, (unsigned)owner);
	return sidecar_refuse(side, why);
}

static int check_sidecars(const char *target, const struct stat *store)
{
	char side[3][4096 + 16];
	struct stat st[3], now;
	int k, ret, have[3];

	for (k = 0; k < 3; k++) {
		snprintf(side[k], sizeof(side[k]), "%s%s", target, sidecar_sfx[k]);
		have[k] = !lstat(side[k], &st[k]);
		if (!have[k] && errno != ENOENT)
			return refuse(side[k], errno);
	}
	/* a store another importer made meanwhile has its sidecars */
	if (!store && (have[0] || have[1] || have[2]) && !lstat(target, &now) &&
	    S_ISREG(now.st_mode))
		store = &now;
	for (k = 0; k < 3; k++) {
		if (!have[k])
			continue;
		ret = sidecar_owned(side[k], &st[k], store ? store->st_uid : geteuid());
		if (ret)
			return ret;
		if (!store)
			return sidecar_refuse(side[k], "beside no store: SQLite would take "
					      "it into the new store");
	}
	if (!(have[2] && st[2].st_size) && !(have[0] && !have[1]))
		return 0;
	if (store_in_use(target))
		return 0;
	if (have[2] && st[2].st_size)
		return sidecar_refuse(side[2], "a hot rollback journal (vmstat-bench keeps "
				      "its stores in WAL mode and leaves none): SQLite would "
				      "roll it back into the store");
	return sidecar_refuse(side[0], "a WAL without its -shm (SQLite makes and "
			      "removes the two together)");
}

/* The folder @target is in ("." for a bare name, "/" for one at the root). */
static void store_folder(const char *target, char *dir, size_t len)
{
	char *slash;

	snprintf(dir, len, "%s", target);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, len, ".");
	else
		slash[slash == dir] = '\0';
}

/*
 * A store in a folder everyone may write and that is not sticky can be
 * replaced, or have sidecars planted and removed, by anyone: refused
 * unless VSB_DB_SHARED_FOLDER=1 says the user means it.  A sticky
 * folder (/tmp) keeps others from renaming our files; their planted
 * sidecars are caught by check_sidecars().  A group-writable folder is
 * the owner's choice of collaborators and passes.
 */
static int check_folder(const char *target)
{
	const char *env = getenv("VSB_DB_SHARED_FOLDER");
	char dir[4096];
	struct stat st;

	store_folder(target, dir, sizeof(dir));
	if (stat(dir, &st) || !(st.st_mode & S_IWOTH) || (st.st_mode & S_ISVTX))
		return 0;
	if (env && !strcmp(env, "1"))
		return 0;
	vsb_err("store %s: folder %s is writable by everyone and not sticky: anyone "
		"could replace the store or plant its journal (VSB_DB_SHARED_FOLDER=1 "
		"to use it anyway)", target, dir);
	return VSB_EXIT_USAGE;
}

/*
 * A store that will be written: the file and its folder (where SQLite
 * makes -wal and -shm) writable by this user, found out before the
 * work, not at the import after it.
 */
static int check_writable(const char *target)
{
	char dir[4096];

	store_folder(target, dir, sizeof(dir));
	if (access(target, R_OK | W_OK)) {
		vsb_err("store %s: cannot be written (%s); left as it is", target,
			strerror(errno));
		return VSB_EXIT_USAGE;
	}
	if (access(dir, W_OK | X_OK)) {
		vsb_err("store %s: its folder %s cannot be written (%s), where SQLite "
			"keeps the store's -wal", target, dir, strerror(errno));
		return VSB_EXIT_USAGE;
	}
	return 0;
}

/*
 * How a read connects: read-only always; immutable (no lock taken, no
 * -wal or -shm made or written: even a read-only connection makes both
 * for a WAL store, and leaves them, owned by whoever read) unless a
 * -wal with frames is there, which the sidecar rule passed and whose
 * commits must be seen; a reader then marks the -shm as SQLite's
 * readers do.
 */
static const char *read_query(const char *target)
{
	char wal[4096 + 8];
	struct stat st;

	snprintf(wal, sizeof(wal), "%s-wal", target);
	return lstat(wal, &st) || !st.st_size ? "?immutable=1" : "";
}

/*
 * An existing file must be a SQLite database whose schema store.c then
 * reads through *@peek (or empty: a store to be, for WRITE only).  Both
 * without side effects: the header read by hand, the schema through a
 * read-only connection.  With no -wal it is immutable (no lock taken,
 * no -shm made); with one (passed by the sidecar rule) it reads the
 * WAL's commits too, so a foreign store in a WAL is refused as well.
 */
static int peek_file(const char *target, enum vsb_store_mode mode, struct vsb_db **peek)
{
	char magic[16];
	struct stat st;
	ssize_t n;
	int fd = vsb_open_regular(target, O_NOFOLLOW, &st);

	if (fd < 0)
		return refuse(target, -fd);
	n = read(fd, magic, sizeof(magic));
	close(fd);
	if (n == 0 && mode == VSB_STORE_READ) {
		vsb_err("%s: an empty file, not a store (`vmstat-bench db import` makes "
			"one); left as it is", target);
		return VSB_EXIT_USAGE;
	}
	if (n == 0)
		return 0;
	if (n != sizeof(magic) || memcmp(magic, "SQLite format 3", sizeof(magic))) {
		vsb_err("%s: not a SQLite database (no SQLite header); left as it is",
			target);
		return VSB_EXIT_USAGE;
	}
	return sq_connect(target, SQLITE_OPEN_READONLY, read_query(target), peek);
}

/*
 * The path rule.  A symbolic link is refused, as -o refuses one
 * (vsb_outfile_open()): a store is written, and the file a link points
 * at is not ours to write through it.  ENOTDIR and the like refuse too.
 * Then the folder's and the sidecars' rules, and for a store to write,
 * that it can be, all before SQLite opens anything.
 */
static int sq_check(const char *target, enum vsb_store_mode mode, struct vsb_db **peek)
{
	struct stat st;
	int ret;

	*peek = NULL;
	if (lstat(target, &st)) {
		if (errno != ENOENT)
			return refuse(target, errno);
		ret = check_absent(target, mode);
		return ret ?: check_folder(target) ?: check_sidecars(target, NULL);
	}
	if (!S_ISREG(st.st_mode))
		return refuse(target, S_ISLNK(st.st_mode) ? ELOOP :
			      S_ISDIR(st.st_mode) ? EISDIR :
			      VSB_ENOTREG + (int)((st.st_mode & S_IFMT) >> 12));
	ret = check_folder(target) ?: check_sidecars(target, &st);
	if (!ret && mode == VSB_STORE_WRITE)
		ret = check_writable(target);
	return ret ?: peek_file(target, mode, peek);
}

/*
 * After sq_check(): the path is one to open.  READ opens read-only and
 * sets nothing: a read never switches a store to WAL, never makes one,
 * never checkpoints (NO_CKPT_ON_CLOSE, though read-only could not).
 */
static int sq_open(const char *target, enum vsb_store_mode mode, struct vsb_db **dbp)
{
	int ret;

	if (mode != VSB_STORE_WRITE) {
		ret = sq_connect(target, SQLITE_OPEN_READONLY, read_query(target), dbp);
		if (!ret)
			sqlite3_db_config((*dbp)->h, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1,
					  NULL);
		return ret;
	}
	make_parent(target);
	ret = sq_connect(target, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, "", dbp);
	if (ret)
		return ret;
	/* WAL is a property of the file: set once, kept */
	sqlite3_exec((*dbp)->h, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
	sqlite3_exec((*dbp)->h, "PRAGMA synchronous=NORMAL", NULL, NULL, NULL);
	return 0;
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
	.drop_sample_fks = "",	/* never enforced: foreign_keys stays off */
	.json_member_sql = "json_extract(%s, '$.%s')",
	.json_pairs_sql = "SELECT t.id, j.key, j.value FROM %s t, json_each(t.%s) AS j "
			  "WHERE %s ORDER BY t.id, j.id",
	.point_params_sql = "SELECT p.key, j.key, j.value FROM point p, "
			    "json_each(p.params) AS j ORDER BY p.id, j.id",
	.table_exists_sql =
		"SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?",
	/* a view, trigger or index alone is someone's database too */
	.count_tables_sql = "SELECT count(*) FROM sqlite_master "
			    "WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
	.check = sq_check,
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
