// SPDX-License-Identifier: GPL-2.0
/*
 * Importing result files into the store.  A file is loaded and checked
 * completely (result_load.c) before the store is opened; then the whole
 * import goes in as one transaction, each file its machine, kernel and
 * points (shared with earlier runs, inserted when new), its run row,
 * every sample.  A file refused, a store error or a kill leaves the
 * transaction uncommitted, so nothing of the import: never a part of it
 * stored under a message that says it was refused.
 *
 * Into PostgreSQL the rows are checked while they are stored: the first
 * pass over a file (its bytes, hash, header, points) comes before the
 * store is opened, the check of each row (its cells cut and read as
 * numbers) just before its row goes into the COPY, so that the server
 * stores rows while the client checks the next ones, one CPU each.  A row refused there abandons the COPY and rolls the import back,
 * and its line is said alone, as the check before the store says it:
 * the same line, exit 2, nothing stored.  Into SQLite, in this process,
 * nothing would overlap: every row is checked first.
 *
 * Two importers at once: SQLite queues them at BEGIN IMMEDIATE, and
 * PostgreSQL on the advisory lock migrations take (one import holds
 * the keys of all its runs and points until it commits, so two in
 * other orders would deadlock).  The shared rows go in with ON CONFLICT
 * DO NOTHING and are then read back, and the run's unique id makes the
 * later of two importers of one file find it stored.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "vsb.h"
#include "hash.h"
#include "kernel_line.h"
#include "store_be.h"

struct imp {
	struct vsb_store *s;
	struct vsb_rl_file *f;		/* rows checked up to f->nchecked */
	struct vsb_import_info *info;
	int refused;			/* a row of f failed its check */
	long long machine, kernel, run;
	long long *point;	/* f->npoints ids */
};

static const char *rl_meta_get(const void *ctx, const char *key)
{
	return vsb_rl_meta(ctx, key);
}

/*
 * INSERT .. ON CONFLICT DO NOTHING, then the row's id by its key (?1):
 * both statements prepared once (a round trip each on PostgreSQL) and
 * run for every row of their kind.
 */
struct upsert {
	struct imp *im;
	const char *what;
	struct vsb_stmt *ins, *sel;
};

static int upsert_begin(struct upsert *u, struct imp *im, const char *what,
			const char *ins, const char *sel)
{
	*u = (struct upsert){ .im = im, .what = what };
	if (vsb_store_prepare(im->s, what, ins, &u->ins))
		return VSB_EXIT_ERROR;
	if (vsb_store_prepare(im->s, what, sel, &u->sel)) {
		im->s->ops->finalize(u->ins);
		return VSB_EXIT_ERROR;
	}
	return 0;
}

static int upsert_row(struct upsert *u, const char *const *vals, int n, long long *id)
{
	const struct vsb_store_ops *o = u->im->s->ops;
	int i, rc;

	for (i = 0; i < n; i++)
		o->bind_text(u->ins, i + 1, vals[i], -1);
	rc = o->step(u->ins);
	o->reset(u->ins);
	if (rc >= 0) {
		o->bind_text(u->sel, 1, vals[0], -1);
		rc = o->step(u->sel);
		if (rc == 1)
			*id = o->col_int(u->sel, 0);
		o->reset(u->sel);
	}
	return rc == 1 ? 0 : vsb_store_fail(u->im->s, u->what);
}

static void upsert_end(struct upsert *u)
{
	u->im->s->ops->finalize(u->ins);
	u->im->s->ops->finalize(u->sel);
}

/* One row: upsert_begin, upsert_row, upsert_end. */
static int upsert(struct imp *im, const char *what, const char *ins,
		  const char *sel, const char *const *vals, int n, long long *id)
{
	struct upsert u;
	int ret = upsert_begin(&u, im, what, ins, sel);

	if (ret)
		return ret;
	ret = upsert_row(&u, vals, n, id);
	upsert_end(&u);
	return ret;
}

static int put_machine(struct imp *im)
{
	struct vsb_machine_id m;
	size_t len = 0, cap = 0;
	char *json = NULL;
	const char *vals[4];
	int k, ret;

	vsb_machine_identify(rl_meta_get, im->f, 1, &m);
	vsb_buf_add(&json, &len, &cap, "{", 1);
	for (k = 0; k < VSB_MACHINE_FIELDS; k++) {
		if (!*m.val[k])
			continue;
		if (len > 1)
			vsb_buf_add(&json, &len, &cap, ",", 1);
		vsb_json_str(&json, &len, &cap, vsb_machine_field_names[k],
			     strlen(vsb_machine_field_names[k]));
		vsb_buf_add(&json, &len, &cap, ":", 1);
		vsb_json_str(&json, &len, &cap, m.val[k], strlen(m.val[k]));
	}
	vsb_buf_add(&json, &len, &cap, "}", 1);
	vals[0] = m.fingerprint;
	vals[1] = m.val[1];
	vals[2] = json;
	vals[3] = m.missing;
	ret = upsert(im, "storing the machine",
		     "INSERT INTO machine (fingerprint, cpu_model, fields, missing) "
		     "VALUES (?, ?, ?, ?) ON CONFLICT (fingerprint) DO NOTHING",
		     "SELECT id FROM machine WHERE fingerprint = ?", vals, 4, &im->machine);
	snprintf(im->info->machine, sizeof(im->info->machine), "%s", m.fingerprint);
	snprintf(im->info->missing, sizeof(im->info->missing), "%s", m.missing);
	free(json);
	return ret;
}

/* `# kernel: Linux RELEASE VERSION... MACHINE` (uname -srvm) */
static int put_kernel(struct imp *im)
{
	const char *line = vsb_rl_meta(im->f, VSB_KERNEL_KEY);
	const char *cfg = vsb_rl_meta(im->f, "kernel_config");
	char release[128], version[512], fp[24], ch[24];
	const char *vals[5];
	uint64_t h;

	if (!cfg)
		cfg = "";
	vsb_kernel_line_read(line, release, sizeof(release), version, sizeof(version));
	h = vsb_fnv1a64(cfg, strlen(cfg), VSB_FNV_INIT);
	snprintf(ch, sizeof(ch), "%016llx", (unsigned long long)h);
	h = vsb_fnv1a64(line ? line : "", line ? strlen(line) : 0, h);
	snprintf(fp, sizeof(fp), "k-%016llx", (unsigned long long)h);
	vals[0] = fp;
	vals[1] = release;
	vals[2] = version;
	vals[3] = ch;
	vals[4] = cfg;
	return upsert(im, "storing the kernel",
		      "INSERT INTO kernel (fingerprint, release, version, config_hash, config) "
		      "VALUES (?, ?, ?, ?, ?) ON CONFLICT (fingerprint) DO NOTHING",
		      "SELECT id FROM kernel WHERE fingerprint = ?", vals, 5, &im->kernel);
}

static int put_points(struct imp *im)
{
	const struct vsb_rl_file *f = im->f;
	struct vsb_csv_span cells[VSB_RL_MAX_COLS];
	size_t i, j, row = 0;
	struct upsert u;
	int ret;

	im->point = vsb_zalloc(f->npoints * sizeof(*im->point));
	ret = upsert_begin(&u, im, "storing a point",
			   "INSERT INTO point (key, params) VALUES (?, ?) "
			   "ON CONFLICT (key) DO NOTHING",
			   "SELECT id FROM point WHERE key = ?");
	if (ret)
		return ret;
	for (i = 0; i < f->npoints && !ret; i++) {
		size_t len = 0, cap = 0;
		char *json = NULL;
		const char *vals[2];

		while (f->row_point[row] != i)
			row++;		/* the first row of the point */
		vsb_rl_cells(f, row, cells);
		vsb_buf_add(&json, &len, &cap, "{", 1);
		for (j = 0; j < f->nparam; j++) {
			vsb_buf_add(&json, &len, &cap, j ? "," : "", j ? 1 : 0);
			vsb_json_str(&json, &len, &cap, f->cols[j], strlen(f->cols[j]));
			vsb_buf_add(&json, &len, &cap, ":", 1);
			vsb_json_str(&json, &len, &cap, cells[j].s, cells[j].len);
		}
		vsb_buf_add(&json, &len, &cap, "}", 1);
		vals[0] = f->points[i].key;
		vals[1] = json;
		ret = upsert_row(&u, vals, 2, &im->point[i]);
		free(json);
	}
	upsert_end(&u);
	return ret;
}

/* The content hash of run @run_id if stored (into @hash), else "". */
static int stored_hash(struct imp *im, const char *run_id, char *hash, size_t len)
{
	const struct vsb_store_ops *o = im->s->ops;
	struct vsb_stmt *st;
	int rc;

	*hash = '\0';
	if (vsb_store_prepare(im->s, "looking up the run",
			      "SELECT content_hash FROM run WHERE run_id = ?", &st))
		return VSB_EXIT_ERROR;
	o->bind_text(st, 1, run_id, -1);
	rc = o->step(st);
	if (rc == 1)
		snprintf(hash, len, "%s", o->col_text(st, 0));
	o->finalize(st);
	return rc < 0 ? vsb_store_fail(im->s, "looking up the run") : 0;
}

static char *env_json(const struct vsb_rl_file *f)
{
	size_t i, len = 0, cap = 0;
	char *json = NULL;

	vsb_buf_add(&json, &len, &cap, "{", 1);
	for (i = 0; i < f->nmeta; i++) {
		vsb_buf_add(&json, &len, &cap, ",", i ? 1 : 0);
		vsb_json_str(&json, &len, &cap, f->meta[i].key, strlen(f->meta[i].key));
		vsb_buf_add(&json, &len, &cap, ":", 1);
		vsb_json_str(&json, &len, &cap, f->meta[i].val, strlen(f->meta[i].val));
	}
	vsb_buf_add(&json, &len, &cap, "}", 1);
	return json;
}

/*
 * Checks the run is new; inserts its row.  0 (info->result says whether
 * it was new or stored already) or VSB_EXIT_*: "stored already" is never
 * a return value of its own, since VSB_EXIT_ERROR is 1 too and a store
 * that refused the insert was once reported as a duplicate.
 */
static int put_run(struct imp *im)
{
	const struct vsb_store_ops *o = im->s->ops;
	const struct vsb_rl_file *f = im->f;
	const char *m, *run_id = im->info->run_id;
	char hash[64], now[32], src[PATH_MAX];
	struct vsb_stmt *st;
	time_t t = time(NULL);
	char *env;
	int rc;

	rc = stored_hash(im, run_id, hash, sizeof(hash));
	if (rc || *hash)
		goto stored;
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	if (!realpath(f->path, src))
		snprintf(src, sizeof(src), "%s", f->path);
	if (vsb_store_prepare(im->s, "storing the run",
			      "INSERT INTO run (run_id, content_hash, machine, kernel, "
			      "git_revision, started, command, env, columns, source, "
			      "nsamples, imported) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
			      "ON CONFLICT (run_id) DO NOTHING RETURNING id", &st))
		return VSB_EXIT_ERROR;
	env = env_json(f);
	o->bind_text(st, 1, run_id, -1);
	o->bind_text(st, 2, f->content_id, -1);
	o->bind_int(st, 3, im->machine);
	o->bind_int(st, 4, im->kernel);
	o->bind_text(st, 5, (m = vsb_rl_meta(f, "git_revision")) ? m : "", -1);
	o->bind_text(st, 6, (m = vsb_rl_meta(f, "date")) ? m : "", -1);
	o->bind_text(st, 7, (m = vsb_rl_meta(f, "command")) ? m : "", -1);
	o->bind_text(st, 8, env, -1);
	o->bind_text(st, 9, f->header, -1);
	o->bind_text(st, 10, src, -1);
	o->bind_int(st, 11, (long long)f->nrows);
	o->bind_text(st, 12, now, -1);
	rc = o->step(st);
	if (rc == 1)
		im->run = o->col_int(st, 0);
	o->finalize(st);
	free(env);
	if (rc < 0)
		return vsb_store_fail(im->s, "storing the run");
	if (rc == 1)
		return 0;
	/* PostgreSQL: another importer committed it after the lookup */
	rc = stored_hash(im, run_id, hash, sizeof(hash));
stored:
	if (rc)
		return rc;
	if (strcmp(hash, f->content_id)) {
		vsb_err("%s: run id %s is already stored, from a different file "
			"(content %s, this one %s)", f->path, run_id, hash,
			f->content_id);
		return VSB_EXIT_USAGE;
	}
	im->info->result = VSB_IMPORT_DUPLICATE;
	return 0;
}

/* a number, or NULL where the loader found none (vsb_rl_sample) */
static struct vsb_val num_val(double d)
{
	if (isnan(d))
		return (struct vsb_val){ .t = VSB_VAL_NULL };
	return (struct vsb_val){ .t = VSB_VAL_DOUBLE, .d = d };
}

/* a text cell, or NULL when empty or absent */
static struct vsb_val opt_text_val(const struct vsb_csv_span *cells, int col)
{
	if (col < 0 || !cells[col].len)
		return (struct vsb_val){ .t = VSB_VAL_NULL };
	return (struct vsb_val){ .t = VSB_VAL_TEXT, .s = cells[col].s,
				 .len = (int)cells[col].len };
}

static struct vsb_val int_val(long long i)
{
	return (struct vsb_val){ .t = VSB_VAL_INT, .i = i };
}

/* row @i cut into @c: checked now if the loader left it (vsb_rl_scan) */
static int sample_cells(struct imp *im, size_t i, struct vsb_csv_span *c)
{
	if (i < im->f->nchecked) {
		vsb_rl_cells(im->f, i, c);
		return 0;
	}
	im->refused = vsb_rl_check(im->f, i, c) != 0;
	return im->refused ? -1 : 0;
}

static int put_samples(struct imp *im)
{
	const struct vsb_rl_file *f = im->f;
	struct vsb_csv_span c[VSB_RL_MAX_COLS];
	struct vsb_rl_sample n;
	struct vsb_val v[16];
	struct vsb_rows rows;
	size_t i;
	int rc = 0;

	if (vsb_rows_begin(&rows, im->s, "storing samples", "sample",
			   "run, seq, point, thread, cpu, rep, ops, elapsed, unit, "
			   "per_op, ns_per_op, cycles, instructions, pmu_events, "
			   "pmu_values, cells", 16))
		return VSB_EXIT_ERROR;
	v[0] = int_val(im->run);
	for (i = 0; i < f->nrows && !rc; i++) {
		if (sample_cells(im, i, c))
			break;
		vsb_rl_sample(f, c, &n);
		v[1] = int_val((long long)i);
		v[2] = int_val(im->point[f->row_point[i]]);
		v[3] = int_val(n.thread);
		v[4] = int_val(n.cpu);
		v[5] = int_val(n.rep);
		v[6] = int_val(n.ops);
		v[7] = int_val(n.elapsed);
		v[8] = (struct vsb_val){ .t = VSB_VAL_TEXT, .s = c[f->c_unit].s,
					 .len = (int)c[f->c_unit].len };
		v[9] = num_val(n.per_op);
		v[10] = num_val(n.ns_per_op);
		v[11] = num_val(n.cycles);
		v[12] = num_val(n.instr);
		v[13] = opt_text_val(c, f->c_pmu_events);
		v[14] = opt_text_val(c, f->c_pmu_values);
		/* the rest of the row */
		v[15] = (struct vsb_val){ .t = VSB_VAL_TEXT, .s = c[f->nparam].s, .len = -1 };
		rc = vsb_rows_put(&rows, v);
	}
	if (im->refused) {
		vsb_rows_end(&rows, 0);		/* the COPY abandoned */
		return VSB_EXIT_USAGE;
	}
	return vsb_rows_end(&rows, 1);
}

/* The run id a file is stored under: its # run_id, else its content's. */
static const char *file_run_id(const struct vsb_rl_file *f)
{
	const char *rid = vsb_rl_meta(f, "run_id");

	return rid && *rid ? rid : f->content_id;
}

/*
 * One file inside the caller's transaction: 0 or VSB_EXIT_*; *@refused
 * 1 when that is a row's check.
 */
static int import_one(struct vsb_store *s, struct vsb_rl_file *f,
		      struct vsb_import_info *info, int *refused)
{
	struct imp im = { .s = s, .f = f, .info = info };
	int ret;

	memset(info, 0, sizeof(*info));
	snprintf(info->run_id, sizeof(info->run_id), "%s", file_run_id(f));
	info->nsamples = f->nrows;
	info->npoints = f->npoints;
	info->result = VSB_IMPORT_STORED;
	ret = put_machine(&im);
	ret = ret ?: put_kernel(&im);
	ret = ret ?: put_run(&im);
	if (!ret && info->result == VSB_IMPORT_STORED) {
		ret = put_points(&im);
		ret = ret ?: put_samples(&im);
	}
	/* stored already, from these bytes: their rows are still checked */
	if (!ret && (ret = vsb_rl_check_rest(f)))
		im.refused = 1;
	*refused = im.refused;
	free(im.point);
	return ret;
}

struct pathlist {
	char **v;
	size_t n, cap;
};

static void pl_add(struct pathlist *pl, const char *dir, const char *name)
{
	char *p;

	pl->v = vsb_grow(pl->v, pl->n, &pl->cap, sizeof(*pl->v));
	if (asprintf(&p, "%s%s%s", dir ? dir : "", dir ? "/" : "", name) < 0) {
		vsb_err("out of memory");
		exit(VSB_EXIT_ERROR);
	}
	pl->v[pl->n++] = p;
}

static int raw_csv_name(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && !strcmp(name + n - 4, ".csv") && !vsb_rl_is_derived_name(name);
}

/* What a folder walk found besides the results, for one line at the end. */
struct walk {
	size_t skipped;
	char example[256];
};

#define WALK_MAX_DEPTH 16	/* results/ab/base/boot-K is 4 */

/*
 * The results in folder @dir and every folder below it, each folder's
 * entries in name order: regular *.csv files a run wrote (not summaries,
 * sweep tables, partials or monitor series).  Links are not followed.
 */
static int walk(const char *dir, struct pathlist *pl, struct walk *w, int depth)
{
	struct dirent **names;
	char *path;
	struct stat sb;
	int i, n, ret = 0;

	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0) {
		vsb_err("%s: %m", dir);
		return VSB_EXIT_USAGE;
	}
	for (i = 0; i < n; i++) {
		const char *name = names[i]->d_name;

		if (ret || name[0] == '.' || asprintf(&path, "%s/%s", dir, name) < 0)
			goto next;
		if (lstat(path, &sb))
			;	/* gone meanwhile */
		else if (S_ISDIR(sb.st_mode) && depth < WALK_MAX_DEPTH)
			ret = walk(path, pl, w, depth + 1);
		else if (S_ISREG(sb.st_mode) && raw_csv_name(name)) {
			if (vsb_rl_written_by_a_run(path))
				pl_add(pl, dir, name);
			else if (!w->skipped++)
				snprintf(w->example, sizeof(w->example), "%s", path);
		}
		free(path);
next:
		free(names[i]);
	}
	free(names);
	return ret;
}

/* A file as named (it must be a raw result), or a folder's results. */
static int expand(const char *path, struct pathlist *pl)
{
	struct walk w = { 0 };
	struct stat sb;
	size_t before = pl->n;
	int ret;

	if (stat(path, &sb)) {
		vsb_err("%s: %m", path);
		return VSB_EXIT_USAGE;
	}
	if (!S_ISDIR(sb.st_mode)) {
		if (vsb_rl_is_derived_name(path)) {
			vsb_err("%s: a summary, sweep table or unfinished point, not raw "
				"samples: import the raw result file or its folder", path);
			return VSB_EXIT_USAGE;
		}
		pl_add(pl, NULL, path);
		return 0;
	}
	ret = walk(path, pl, &w, 0);
	if (ret)
		return ret;
	if (pl->n == before) {
		vsb_err("%s: no raw result files (*.csv a run wrote) in this folder or below",
			path);
		return VSB_EXIT_USAGE;
	}
	if (w.skipped)
		vsb_warn("%s: left out %zu CSV file%s no vmstat-bench run wrote (%s%s)", path,
			 w.skipped, w.skipped == 1 ? "" : "s", w.example,
			 w.skipped > 1 ? ", ..." : "");
	return 0;
}

static void report(const struct vsb_rl_file *f, const struct vsb_import_info *in)
{
	if (in->result == VSB_IMPORT_DUPLICATE) {
		printf("%s: run %s already stored\n", f->path, in->run_id);
		return;
	}
	printf("%s: stored run %s: %zu samples, %zu point%s, machine %s%s%s%s\n",
	       f->path, in->run_id, in->nsamples, in->npoints,
	       in->npoints == 1 ? "" : "s", in->machine,
	       *in->missing ? " (fingerprint of what the result carries; missing: " : "",
	       in->missing, *in->missing ? ")" : "");
}

/*
 * Two files of one import under one run id are one run only when their
 * bytes are the same (the same file named twice); otherwise the import
 * is refused before the store is opened.
 */
static int check_run_ids(const struct vsb_rl_file *files, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++)
		for (j = 0; j < i; j++) {
			if (strcmp(file_run_id(&files[i]), file_run_id(&files[j])) ||
			    !strcmp(files[i].content_id, files[j].content_id))
				continue;
			vsb_err("%s: run id %s is also %s's, with other content: "
				"nothing stored", files[i].path, file_run_id(&files[i]),
				files[j].path);
			return VSB_EXIT_USAGE;
		}
	return 0;
}

/*
 * Every file in one transaction: all of the import is stored or none of
 * it.  The failing step's line is recorded and said once, with what
 * became of the import; the per-file lines are printed only once the
 * whole import is committed.
 */
static int import_all(struct vsb_store *s, struct vsb_rl_file *files,
		      size_t n, int quiet)
{
	struct vsb_import_info *info = vsb_zalloc((n ? n : 1) * sizeof(*info));
	struct vsb_errlog log;
	size_t i;
	int ret, deferred = 0, refused = 0;

	vsb_errlog_begin(&log);
	ret = vsb_store_begin(s);
	/*
	 * One transaction of many files takes the unique keys of many runs
	 * and points: two PostgreSQL importers of overlapping files in other
	 * orders deadlocked on them.  Imports queue, as SQLite's do.
	 */
	if (!ret && s->ops->schema_lock_sql && s->ops->exec(s->db, s->ops->schema_lock_sql))
		ret = vsb_store_fail(s, "queueing behind another import");
	ret = ret ?: vsb_bulk_begin(s, &deferred);
	for (i = 0; i < n && !ret; i++)
		ret = import_one(s, &files[i], &info[i], &refused);
	ret = ret ?: vsb_bulk_end(s, deferred);
	if (ret)
		vsb_store_rollback(s);
	else
		ret = vsb_store_commit(s);
	vsb_errlog_end(&log);
	if (ret && refused)
		vsb_err("%s", log.text);	/* the file's line, as if before */
	else if (ret)
		vsb_err("%s%snothing of this import is stored (%zu file%s)", log.text,
			*log.text ? ": " : "", n, n == 1 ? "" : "s");
	for (i = 0; i < n && !ret && !quiet; i++)
		report(&files[i], &info[i]);
	free(info);
	return ret;
}

int vsb_store_import_paths(const char *url, char *const *paths, size_t n, int quiet)
{
	struct pathlist pl = { 0 };
	struct vsb_rl_file *files = NULL;
	struct vsb_store *s = NULL;
	size_t i, loaded = 0;
	/* a store that cannot be one is named before any file is read */
	int ret = vsb_store_check(url, VSB_STORE_WRITE);

	for (i = 0; i < n && !ret; i++)
		ret = expand(paths[i], &pl);
	if (ret)
		goto out;
	/*
	 * every file checked before the store is touched, but the rows of
	 * the files for PostgreSQL: those while they are stored
	 */
	files = vsb_zalloc((pl.n ? pl.n : 1) * sizeof(*files));
	for (loaded = 0; loaded < pl.n && !ret; loaded++)
		ret = vsb_store_url_is_pg(url) ? vsb_rl_scan(pl.v[loaded], 0, &files[loaded]) :
		      vsb_rl_load(pl.v[loaded], &files[loaded]);
	if (ret) {
		loaded--;	/* the failed one freed itself */
		goto out;
	}
	ret = check_run_ids(files, pl.n);
	ret = ret ?: vsb_store_open(url, VSB_STORE_WRITE, &s);
	ret = ret ?: import_all(s, files, pl.n, quiet);
out:
	vsb_store_close(s);
	for (i = 0; i < loaded; i++)
		vsb_rl_free(&files[i]);
	free(files);
	for (i = 0; i < pl.n; i++)
		free(pl.v[i]);
	free(pl.v);
	return ret;
}
