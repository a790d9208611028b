// SPDX-License-Identifier: GPL-2.0
/*
 * Is NEW slower than BASE, point by point?  The data half of `compare`.
 *
 * Points are matched by their parameter columns; per point the samples
 * are the per-repetition costs (the mean over workers of each
 * repetition, as in the summary's "all" row).  A verdict needs two
 * things: a two-sided Mann-Whitney p below alpha (the change is not
 * chance) and a change of the medians beyond the noise floor (the
 * change is large enough to matter on this machine).  Neither alone is
 * enough: with many repetitions a 0.3% shift is "significant", and with
 * few a 20% shift can be noise.  See docs/sweeps.md.
 *
 * This file loads one result file into a side (compare_walk.c finds
 * the files a path stands for, compare_match.c matches); every sample
 * keeps the run (process, boot) it came from, for compare_judge.c to
 * judge runs as the unit.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "csvread.h"
#include "opts.h"
#include "result_load.h"
#include "vsb.h"
#include "c2c_rule.h"
#include "store.h"
#include "worker_list.h"

/*
 * The parameter columns a result file may carry: the option table's
 * (vsb_param_columns, as the writers use).  Columns a file lacks are
 * skipped.
 */
static size_t cmp_param_columns(const char *const **cols)
{
	static struct vsb_param_col pc[VSB_PARAM_COLS_MAX];
	static const char *names[VSB_PARAM_COLS_MAX];
	static size_t n;
	size_t i;

	if (!n) {
		n = vsb_param_columns(pc, VSB_PARAM_COLS_MAX);
		for (i = 0; i < n; i++)
			names[i] = pc[i].name;
	}
	*cols = names;
	return n;
}

/*
 * What makes two rows the same point: every parameter column but these.
 * The cost is per operation, so a quicker setting on one side still
 * compares.
 */
static const char *const not_matched[] = { "loops", "repeat", "warmup" };

void vsb_cmp_init(struct vsb_compare *c)
{
	const char *const *cols;
	size_t n = cmp_param_columns(&cols), i, j;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < n && c->ncols < VSB_CMP_MAX_COLS; i++) {
		for (j = 0; j < sizeof(not_matched) / sizeof(not_matched[0]); j++)
			if (!strcmp(cols[i], not_matched[j]))
				break;
		if (j == sizeof(not_matched) / sizeof(not_matched[0]))
			c->cols[c->ncols++] = cols[i];
	}
	c->fewest = c->fewest_runs = (size_t)-1;
}

static void side_free(struct vsb_cmp_side *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->pts[i].v);
		free(s->pts[i].run);
		free(s->pts[i].c2c);
		free(s->pts[i].skey);
		free(s->pts[i].mix);
	}
	free(s->pts);
	s->pts = NULL;
	s->n = 0;
	for (i = 0; i < s->nruns; i++)
		free(s->runs[i]);
	free(s->runs);
	s->runs = NULL;
	s->nruns = 0;
}

void vsb_cmp_free(struct vsb_compare *c)
{
	side_free(&c->base);
	side_free(&c->new);
	free(c->vs);
	c->vs = NULL;
	c->nv = 0;
}

int vsb_cmp_col(const struct vsb_compare *c, const char *name)
{
	size_t k;

	for (k = 0; k < c->ncols; k++)
		if (!strcmp(c->cols[k], name))
			return (int)k;
	return -1;
}

/* ---- loading ---- */

static struct vsb_cmp_point *side_point(struct vsb_cmp_side *s, const char *key)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->pts[i].key, key))
			return &s->pts[i];
	s->pts = realloc(s->pts, (s->n + 1) * sizeof(*s->pts));
	if (!s->pts) {
		vsb_err("out of memory");
		exit(VSB_EXIT_ERROR);
	}
	memset(&s->pts[s->n], 0, sizeof(s->pts[0]));
	snprintf(s->pts[s->n].key, sizeof(s->pts[0].key), "%s", key);
	return &s->pts[s->n++];
}

static void point_push(struct vsb_cmp_point *p, double v, unsigned int run)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 16;
		p->v = realloc(p->v, p->cap * sizeof(*p->v));
		p->run = realloc(p->run, p->cap * sizeof(*p->run));
		if (!p->v || !p->run) {
			vsb_err("out of memory");
			exit(VSB_EXIT_ERROR);
		}
	}
	p->run[p->n] = run;
	p->v[p->n++] = v;
}

/*
 * Which run of side @s file @path is: its `# run_id:` line, written by
 * every process that writes results, else the path itself (older files:
 * one file, one run).  The index into s->runs goes to s->cur.
 */
static unsigned int side_run_id(struct vsb_cmp_side *s, const char *id)
{
	size_t i;

	for (i = 0; i < s->nruns; i++)
		if (!strcmp(s->runs[i], id))
			break;
	if (i == s->nruns) {
		char **more = realloc(s->runs, (s->nruns + 1) * sizeof(*more));

		if (!more || !(more[s->nruns] = strdup(id))) {
			vsb_err("out of memory");
			exit(VSB_EXIT_ERROR);
		}
		s->runs = more;
		s->nruns++;
	}
	return (unsigned int)i;
}

static void side_run(struct vsb_cmp_side *s, const struct vsb_rl_file *f,
		     const char *path)
{
	const char *id = vsb_rl_meta(f, "run_id");

	s->cur = side_run_id(s, id && *id ? id : path);
}

/*
 * One raw-sample file, read and checked whole by the store's loader
 * (result_load.c: integers, repetition numbers, costs, units), and the
 * columns matching needs.
 */
#define CMP_MAX_PROCS	100	/* sweep --procs takes at most this many */

struct cmp_file {
	struct vsb_rl_file rl;
	int cm[VSB_CMP_MAX_COLS];	/* by vsb_compare.cols; -1: absent */
	double c2c;		/* its c2c_ns metadata; NAN: none */
	int cdist;		/* the `disturbed` column; -1: none */
	/*
	 * Worker processes (`# sweep_procs:`): repetitions lo[j]..hi[j] ran
	 * in process j, one run each: run[j] on the side.  0: the file is
	 * one run (s->cur).
	 */
	size_t nprocs;
	unsigned int lo[CMP_MAX_PROCS], hi[CMP_MAX_PROCS], run[CMP_MAX_PROCS];
	char machine[24];	/* fingerprint, when the store is wanted */
};

/*
 * Row @r's match key into @key: the values of the columns not --ignore'd,
 * each followed by '|'.  -1 when they do not fit: a key cut short could
 * merge two points.
 */
static int row_key(const struct vsb_compare *c, const struct cmp_file *f,
		   size_t r, char *key, size_t len)
{
	struct vsb_csv_span cells[VSB_RL_MAX_COLS];
	size_t k, off = 0;

	vsb_rl_cells(&f->rl, r, cells);
	for (k = 0; k < c->ncols; k++) {
		int col = c->ignored & (1ull << k) ? -1 : f->cm[k];
		size_t n = col < 0 ? 0 : cells[col].len;

		if (off + n + 1 >= len)
			return -1;
		if (n)
			memcpy(key + off, cells[col].s, n);
		key[off + n] = '|';
		off += n + 1;
	}
	key[off] = '\0';
	return 0;
}

/* Row @r's repetition number and cost; the loader checked both. */
static void row_sample(const struct cmp_file *f, size_t r, size_t *rep,
		       double *cost)
{
	struct vsb_csv_span cells[VSB_RL_MAX_COLS];
	struct vsb_rl_sample s;

	vsb_rl_cells(&f->rl, r, cells);
	vsb_rl_sample(&f->rl, cells, &s);
	*rep = (size_t)s.rep;
	*cost = s.per_op;
}

/*
 * 1 when row @r was disturbed: its `disturbed` cell names a reason (as
 * --disturbed retry writes a sample kept after its retries); "no" or
 * empty (--disturbed off) is clean.
 */
static int row_disturbed(const struct cmp_file *f, size_t r)
{
	struct vsb_csv_span cells[VSB_RL_MAX_COLS];
	const struct vsb_csv_span *d;

	if (f->cdist < 0)
		return 0;
	vsb_rl_cells(&f->rl, r, cells);
	d = &cells[f->cdist];
	return d->len && !(d->len == 2 && !memcmp(d->s, "no", 2));
}

/* The run of repetition @rep: its worker process's, else the file's. */
static unsigned int rep_run(const struct cmp_file *f, size_t rep,
			    unsigned int run)
{
	size_t j;

	for (j = 0; j < f->nprocs; j++)
		if (rep >= f->lo[j] && rep <= f->hi[j])
			return f->run[j];
	return run;
}

/*
 * The rows of one point are contiguous in our files: the first row past
 * @r's point, and the highest repetition number on the way.
 */
static size_t point_end(const struct vsb_compare *c, const struct cmp_file *f,
			size_t r, const char *key, size_t *maxrep)
{
	size_t end;

	*maxrep = 0;
	for (end = r; end < f->rl.nrows; end++) {
		char k2[VSB_CMP_KEY_MAX];
		size_t rep;
		double cost;

		if (row_key(c, f, end, k2, sizeof(k2)) || strcmp(k2, key))
			break;
		row_sample(f, end, &rep, &cost);
		if (rep > *maxrep)
			*maxrep = rep;
	}
	return end;
}

/*
 * Rows [@r, @end) of @p: one sample per repetition, its workers' mean;
 * with @drop, a repetition any of whose workers was disturbed is left
 * out (counted in p->ndist): its cost holds another task's time.
 */
static void add_reps(struct vsb_cmp_point *p, const struct cmp_file *f,
		     size_t r, size_t end, size_t maxrep, unsigned int run,
		     int drop)
{
	/* maxrep < VSB_REPEAT_MAX: the loader refuses larger ones */
	double *sum = vsb_zalloc((maxrep + 1) * sizeof(double));
	double *cnt = vsb_zalloc((maxrep + 1) * sizeof(double));
	unsigned char *bad = vsb_zalloc(maxrep + 1);
	size_t i, rep;
	double v;

	for (i = r; i < end; i++) {
		row_sample(f, i, &rep, &v);
		sum[rep] += v;
		cnt[rep] += 1;
		bad[rep] |= drop && row_disturbed(f, i);
	}
	for (i = 0; i <= maxrep; i++) {
		if (!(cnt[i] > 0))
			continue;
		if (bad[i])
			p->ndist++;
		else
			point_push(p, sum[i] / cnt[i], rep_run(f, i, run));
	}
	free(sum);
	free(cnt);
	free(bad);
}

/* The unit of row @r: its loader point's, one unit per such point. */
static const char *row_unit(const struct cmp_file *f, size_t r)
{
	return f->rl.points[f->rl.row_point[r]].unit;
}

/*
 * Rows [@r, @end) in one unit.  The loader holds one unit to a point of
 * all its parameters; compare's point leaves out loops and repeat (and
 * --ignore'd columns), so it may join loader points of different units.
 */
static int one_unit(const struct cmp_file *f, size_t r, size_t end)
{
	size_t i;

	for (i = r + 1; i < end; i++)
		if (strcmp(row_unit(f, i), row_unit(f, r))) {
			vsb_err("%s: row %zu: unit %s on a point whose row %zu is in %s: "
				"mixed units on one point (%s)", f->rl.path, i + 1,
				row_unit(f, i), r + 1, row_unit(f, r),
				f->rl.points[f->rl.row_point[i]].key);
			return VSB_EXIT_USAGE;
		}
	return 0;
}

/* Unit insn: the file's mix of the point, for the exact rule to price. */
static void add_mix(struct vsb_cmp_point *p, const struct cmp_file *f,
		    size_t r, size_t end)
{
	struct vsb_mix m;

	if (!vsb_cmp_exact_unit(p->unit) || vsb_mix_of_rows(&f->rl, r, end, &m))
		return;
	p->mix = vsb_grow(p->mix, p->nmix, &p->mixcap, sizeof(*p->mix));
	p->mix[p->nmix++] = m;
}

/* The point of rows [@r, @end) on side @s, with its values and unit. */
static int add_point(const struct vsb_compare *c, struct vsb_cmp_side *s,
		     const struct cmp_file *f, size_t r, size_t end,
		     const char *key, size_t maxrep)
{
	struct vsb_csv_span cells[VSB_RL_MAX_COLS];
	const char *unit = row_unit(f, r);
	struct vsb_cmp_point *p;
	size_t k;

	if (one_unit(f, r, end))
		return VSB_EXIT_USAGE;
	p = side_point(s, key);
	vsb_rl_cells(&f->rl, r, cells);
	for (k = 0; k < c->ncols; k++)
		snprintf(p->vals[k], sizeof(p->vals[k]), "%.*s",
			 f->cm[k] < 0 ? 0 : (int)cells[f->cm[k]].len,
			 f->cm[k] < 0 ? "" : cells[f->cm[k]].s);
	if (p->unit[0] && strcmp(p->unit, unit)) {
		vsb_err("%s: the same point in %s and %s units: refusing to mix",
			f->rl.path, p->unit, unit);
		return VSB_EXIT_USAGE;
	}
	snprintf(p->unit, sizeof(p->unit), "%s", unit);
	if (!isnan(f->c2c)) {
		p->c2c = vsb_grow(p->c2c, p->nc2c, &p->c2ccap, sizeof(*p->c2c));
		p->c2c[p->nc2c++] = f->c2c;
	}
	p->multi_cpu |= vsb_rl_meta(&f->rl, VSB_C2C_KEY) != NULL;
	p->nfiles++;
	p->nsplit += f->nprocs >= 2;
	/* the store's noise model asks for this point as it was stored */
	if (c->store_url && !p->skey) {
		p->skey = strdup(f->rl.points[f->rl.row_point[r]].key);
		if (!p->skey) {
			vsb_err("out of memory");
			exit(VSB_EXIT_ERROR);
		}
		snprintf(p->machine, sizeof(p->machine), "%s", f->machine);
	}
	add_reps(p, f, r, end, maxrep, s->cur, c->drop_disturbed);
	add_mix(p, f, r, end);
	return 0;
}

static const char *rl_meta_get(const void *ctx, const char *key)
{
	return vsb_rl_meta(ctx, key);
}

/*
 * A sweep spread over worker processes names each one's repetitions
 * (`# sweep_procs:`): each process a run, "RUN_ID#pK".  A line that
 * does not parse leaves the file one run.
 */
static void open_procs(struct vsb_compare *c, struct vsb_cmp_side *s,
		       struct cmp_file *f)
{
	const char *id = s->runs[s->cur];
	char name[600];
	size_t j;

	f->nprocs = vsb_worker_list_read(vsb_rl_meta(&f->rl, VSB_WORKER_LIST_KEY),
					 f->lo, f->hi, CMP_MAX_PROCS);
	if (f->nprocs < 2) {
		f->nprocs = 0;
		return;
	}
	c->runs_split++;
	for (j = 0; j < f->nprocs; j++) {
		snprintf(name, sizeof(name), "%.500s#p%zu", id, j + 1);
		f->run[j] = side_run_id(s, name);
	}
}

static int open_file(struct vsb_compare *c, struct vsb_cmp_side *s,
		     struct cmp_file *f, const char *path)
{
	const char *m;
	size_t k;
	int ret;

	/*
	 * A header without samples is an empty side, not an error; every
	 * sample needs its cost, and a repetition number a run can write
	 * (add_reps() allocates by the largest).
	 */
	ret = vsb_rl_read(path, VSB_RL_EMPTY_OK | VSB_RL_NEED_COST |
			  VSB_RL_REP_BOUND, &f->rl);
	if (ret)
		return ret;
	for (k = 0; k < c->ncols; k++)
		f->cm[k] = vsb_rl_col(&f->rl, c->cols[k]);
	if (!s->cpu_model[0] && (m = vsb_rl_meta(&f->rl, "cpu_model")))
		snprintf(s->cpu_model, sizeof(s->cpu_model), "%s", m);
	if (!s->kernel[0] && (m = vsb_rl_meta(&f->rl, "kernel")))
		snprintf(s->kernel, sizeof(s->kernel), "%s", m);
	if (!s->kernel_config[0] && (m = vsb_rl_meta(&f->rl, "kernel_config")))
		snprintf(s->kernel_config, sizeof(s->kernel_config), "%s", m);
	side_run(s, &f->rl, path);
	f->c2c = vsb_c2c_parse(vsb_rl_meta(&f->rl, VSB_C2C_KEY));
	f->cdist = vsb_rl_col(&f->rl, "disturbed");
	f->nprocs = 0;
	if (!c->runs_only)
		open_procs(c, s, f);
	f->machine[0] = '\0';
	if (c->store_url) {
		struct vsb_machine_id m;

		vsb_machine_identify(rl_meta_get, &f->rl, 1, &m);
		snprintf(f->machine, sizeof(f->machine), "%s", m.fingerprint);
	}
	return 0;
}

/* One raw-sample CSV into @s: per point and repetition, the mean cost. */
int vsb_cmp_load_file(struct vsb_compare *c, struct vsb_cmp_side *s,
		      const char *path)
{
	struct cmp_file f;
	size_t r, end;
	int ret;

	ret = open_file(c, s, &f, path);
	if (ret)
		return ret;
	for (r = 0; r < f.rl.nrows && !ret; r = end) {
		char key[VSB_CMP_KEY_MAX];
		size_t maxrep;

		if (row_key(c, &f, r, key, sizeof(key))) {
			vsb_err("%s: row %zu: its parameters are longer than %zu "
				"characters: not a vmstat-bench result", path, r + 1,
				sizeof(key) - 1);
			ret = VSB_EXIT_USAGE;
			break;
		}
		end = point_end(c, &f, r, key, &maxrep);
		ret = add_point(c, s, &f, r, end, key, maxrep);
	}
	vsb_rl_free(&f.rl);
	return ret;
}
