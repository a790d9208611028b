// SPDX-License-Identifier: GPL-2.0
/*
 * The reader of raw-sample result files (result_load.h), for the store
 * and for `compare`.  Every check that can refuse a file runs here,
 * before a store is opened or a comparison made, so a bad file is
 * refused with nothing written: a truncated row, a non-number where a
 * count belongs, a repetition number no run can write, a cost that is
 * not a positive finite number, a summary given as samples, two units
 * on one point.  The writer never quotes a cell (CPU lists use ';'), so
 * a cell is whatever lies between two commas.
 */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "vsb.h"
#include "result.h"
#include "result_load.h"
int vsb_rl_is_derived_name(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (!strcmp(base, "sweep.csv") || !strcmp(base, "compare.csv"))
		return 1;
	if (n >= 12 && !strcmp(base + n - 12, ".summary.csv"))
		return 1;
	/* a monitor's series and the tables its chart is drawn from */
	if (strstr(base, ".monitor.csv") || strstr(base, ".monitor-"))
		return 1;
	return n >= 8 && !strcmp(base + n - 8, ".partial");
}

int vsb_rl_written_by_a_run(const char *path)
{
	static const char mark[] = "# " VSB_META_WRITER ": ";
	char line[512];
	int found = 0, e;
	FILE *f = vsb_fopen_regular(path, VSB_READ_MAX, &e);

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f) && line[0] == '#')
		found = !strncmp(line, mark, sizeof(mark) - 1);
	fclose(f);
	return found;
}

static char *xstrndup(const char *s, size_t n)
{
	char *d = strndup(s, n);

	if (!d) {
		vsb_err("out of memory");
		exit(VSB_EXIT_ERROR);
	}
	return d;
}

/* Split the header row into f->cols and find the sample columns. */
static int parse_header(struct vsb_rl_file *f, char *line)
{
	struct vsb_csv_span sp[VSB_RL_MAX_COLS];
	size_t n = vsb_csv_split(line, sp, VSB_RL_MAX_COLS), k;
	int thread = -1;

	f->header = xstrndup(line, strlen(line));
	if (n > VSB_RL_MAX_COLS) {
		vsb_err("%s: more than %d columns: not a vmstat-bench result",
			f->path, VSB_RL_MAX_COLS);
		return VSB_EXIT_USAGE;
	}
	for (k = 0; k < n; k++)
		f->cols[f->ncols++] = xstrndup(sp[k].s, sp[k].len);
	for (size_t j = 0; j < f->ncols; j++) {
		const char *c = f->cols[j];
		int *slot = !strcmp(c, "thread") ? &thread :
			    !strcmp(c, "cpu") ? &f->c_cpu :
			    !strcmp(c, "rep") ? &f->c_rep :
			    !strcmp(c, "ops") ? &f->c_ops :
			    !strcmp(c, "elapsed") ? &f->c_elapsed :
			    !strcmp(c, "unit") ? &f->c_unit :
			    !strcmp(c, "per_op") ? &f->c_per_op :
			    !strcmp(c, "ns_per_op") ? &f->c_ns_per_op :
			    !strcmp(c, "cycles") ? &f->c_cycles :
			    !strcmp(c, "instructions") ? &f->c_instr :
			    !strcmp(c, "pmu_events") ? &f->c_pmu_events :
			    !strcmp(c, "pmu_values") ? &f->c_pmu_values : NULL;

		if (slot && *slot < 0)
			*slot = (int)j;
	}
	f->c_thread = thread;
	if (thread < 1 || f->c_cpu < 0 || f->c_rep < 0 || f->c_ops < 0 ||
	    f->c_elapsed < 0 || f->c_unit < 0 || f->c_per_op < 0) {
		vsb_err("%s: not a raw-sample result: its header lacks parameter columns "
			"before thread, or cpu, rep, ops, elapsed, unit, per_op (give the raw "
			"sample file a run writes, not its .summary.csv)", f->path);
		return VSB_EXIT_USAGE;
	}
	f->nparam = (size_t)thread;
	return 0;
}

void vsb_rl_cells(const struct vsb_rl_file *f, size_t i, struct vsb_csv_span *cells)
{
	vsb_csv_split(f->rows[i], cells, f->ncols);
}

const char *vsb_rl_tail(const struct vsb_rl_file *f, size_t i, size_t *len)
{
	struct vsb_csv_span cells[VSB_RL_MAX_COLS];
	const char *t;

	vsb_rl_cells(f, i, cells);
	t = cells[f->nparam].s;
	*len = strlen(t);
	return t;
}

/* The harness's one integer syntax (vsb_scan_decimal): what the writer writes. */
static int cell_is_int(const struct vsb_csv_span *c, long *v)
{
	return vsb_scan_decimal(c->s, v) == c->s + c->len;
}

/*
 * A cost: a number in the one syntax of fractions (numbers.c: no hex,
 * inf, nan, sign or blank), positive: a zero or negative cost is no
 * measurement, and one NaN makes every statistic of its point NaN (a
 * stored -nan CI in `history`).
 */
static int cell_is_cost(const struct vsb_csv_span *c)
{
	double v;

	return c->len && vsb_scan_real(c->s, &v) == c->s + c->len && v > 0;
}

/* A whole cell in numbers.c's syntax of fractions; NAN otherwise */
static double cell_real(const struct vsb_csv_span *cells, int col)
{
	double v;

	if (col < 0 || !cells[col].len ||
	    vsb_scan_real(cells[col].s, &v) != cells[col].s + cells[col].len)
		return NAN;
	return v;
}

/* The integers are the loader's: cell_is_int() took each of them. */
void vsb_rl_sample(const struct vsb_rl_file *f, const struct vsb_csv_span *cells,
		   struct vsb_rl_sample *s)
{
	vsb_scan_decimal(cells[f->c_thread].s, &s->thread);
	vsb_scan_decimal(cells[f->c_cpu].s, &s->cpu);
	vsb_scan_decimal(cells[f->c_rep].s, &s->rep);
	vsb_scan_decimal(cells[f->c_ops].s, &s->ops);
	vsb_scan_decimal(cells[f->c_elapsed].s, &s->elapsed);
	s->per_op = cell_real(cells, f->c_per_op);
	s->ns_per_op = cell_real(cells, f->c_ns_per_op);
	s->cycles = cell_real(cells, f->c_cycles);
	s->instr = cell_real(cells, f->c_instr);
}

/* At most this much of a refused cell goes into the error line. */
static int shown(const struct vsb_csv_span *c)
{
	return c->len < 40 ? (int)c->len : 40;
}

/*
 * The one line about data row @i: "FILE: row N (line L): ...", N
 * counting data rows from 1 (as compare and plot count them), L the
 * line of the file (as an editor counts).  Returns VSB_EXIT_USAGE.
 */
static int __attribute__((format(printf, 3, 4)))
row_err(const struct vsb_rl_file *f, size_t i, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	vsb_err("%s: row %zu (line %u): %s", f->path, i + 1, f->row_line[i], msg);
	return VSB_EXIT_USAGE;
}

static struct vsb_rl_point *new_point(struct vsb_rl_file *f, const char *row,
				      size_t plen, const struct vsb_csv_span *cells,
				      size_t *pcap)
{
	struct vsb_rl_point *pt;
	size_t j, klen = 0, off = 0;

	f->points = vsb_grow(f->points, f->npoints, pcap, sizeof(*f->points));
	pt = &f->points[f->npoints++];
	memset(pt, 0, sizeof(*pt));
	pt->prefix = xstrndup(row, plen);
	for (j = 0; j < f->nparam; j++)
		klen += strlen(f->cols[j]) + cells[j].len + 2;
	pt->key = vsb_zalloc(klen + 1);
	for (j = 0; j < f->nparam; j++)
		off += (size_t)sprintf(pt->key + off, "%s%s=%.*s", j ? "," : "",
				       f->cols[j], (int)cells[j].len, cells[j].s);
	return pt;
}

/* The point of the row being added (f->rows[f->nrows]), found or new. */
static uint32_t row_point(struct vsb_rl_file *f, const struct vsb_csv_span *cells,
			  size_t *pcap)
{
	const char *row = f->rows[f->nrows];
	size_t j, plen = (size_t)(cells[f->nparam].s - 1 - row);

	/* rows of one point come together: the last one first */
	for (j = f->npoints; j-- > 0;)
		if (!strncmp(f->points[j].prefix, row, plen) &&
		    !f->points[j].prefix[plen])
			return (uint32_t)j;
	new_point(f, row, plen, cells, pcap);
	return (uint32_t)(f->npoints - 1);
}

/* The sample cells of a row: counts, repetition number and cost. */
static int check_values(const struct vsb_rl_file *f, size_t i,
			const struct vsb_csv_span *cells)
{
	const int ints[] = { f->c_thread, f->c_cpu, f->c_rep, f->c_ops, f->c_elapsed };
	const struct vsb_csv_span *cost = &cells[f->c_per_op];
	size_t k;
	long v, rep = 0;

	for (k = 0; k < sizeof(ints) / sizeof(ints[0]); k++) {
		if (!cell_is_int(&cells[ints[k]], &v))
			return row_err(f, i, "column %s is '%.*s', not an integer",
				       f->cols[ints[k]], shown(&cells[ints[k]]),
				       cells[ints[k]].s);
		if (ints[k] == f->c_rep)
			rep = v;
	}
	if (rep < 0)
		return row_err(f, i, "rep is %ld, not a repetition number (0 or "
			       "more)", rep);
	/*
	 * No run writes a repetition number of --repeat's maximum or more,
	 * and a reader that indexes by it (compare) would allocate for the
	 * largest: 99999999999 was 800 GB.
	 */
	if ((f->flags & VSB_RL_REP_BOUND) && rep >= VSB_REPEAT_MAX)
		return row_err(f, i, "rep is %ld, not a repetition number: 0 to "
			       "%ld (--repeat is at most %ld)", rep, VSB_REPEAT_MAX - 1,
			       VSB_REPEAT_MAX);
	/* an empty cost is a sample without one (the store keeps NULL) */
	if ((cost->len || (f->flags & VSB_RL_NEED_COST)) && !cell_is_cost(cost))
		return row_err(f, i, "per_op is %.*s, not a positive finite cost",
			       cost->len ? shown(cost) : 5, cost->len ? cost->s : "empty");
	return 0;
}

/*
 * The first pass over a row: its point, from its parameter cells alone.
 * -1 when the row is too short to have them: the second pass words why.
 */
static int scan_row(struct vsb_rl_file *f, size_t *pcap)
{
	struct vsb_csv_span cells[VSB_RL_MAX_COLS];

	if (vsb_csv_head(f->rows[f->nrows], cells, f->nparam + 1) <= f->nparam)
		return -1;
	f->row_point[f->nrows] = row_point(f, cells, pcap);
	return 0;
}

int vsb_rl_check(struct vsb_rl_file *f, size_t i, struct vsb_csv_span *cells)
{
	const struct vsb_csv_span *unit;
	struct vsb_rl_point *pt;
	size_t n;
	int ret;

	n = vsb_csv_split(f->rows[i], cells, f->ncols);
	if (n != f->ncols)
		return row_err(f, i, "%s cells than the %zu columns of the header: "
			       "truncated, or not a vmstat-bench result",
			       n < f->ncols ? "fewer" : "more", f->ncols);
	ret = check_values(f, i, cells);
	if (ret)
		return ret;
	unit = &cells[f->c_unit];
	if (!unit->len || unit->len >= sizeof(pt->unit))
		return row_err(f, i, "no unit, or an unknown one");
	pt = &f->points[f->row_point[i]];
	if (!pt->nsamples)
		memcpy(pt->unit, unit->s, unit->len);
	else if (strlen(pt->unit) != unit->len || memcmp(pt->unit, unit->s, unit->len))
		return row_err(f, i, "unit '%.*s' on a point whose earlier samples "
			       "are in '%s': mixed units on one point (%s)",
			       shown(unit), unit->s, pt->unit, pt->key);
	pt->nsamples++;
	f->nchecked = i + 1;
	return 0;
}

int vsb_rl_check_rest(struct vsb_rl_file *f)
{
	struct vsb_csv_span cells[VSB_RL_MAX_COLS];
	int ret = 0;

	while (!ret && f->nchecked < f->nrows)
		ret = vsb_rl_check(f, f->nchecked, cells);
	return ret;
}

/*
 * The content hash, FNV-1a 64 of the bytes as read: one multiply per
 * byte, each waiting for the last, 9% of the first pass over a million
 * rows (perf).  It runs on a thread of its own while the rows are cut
 * and matched to their points, on the machine's other CPU.  Cutting
 * writes NULs into the bytes, so the cutter waits (hash_wait) until the
 * hash is past a byte before it writes there.
 */
#define HASH_CHUNK (1u << 20)

struct hash_job {
	struct vsb_rl_file *f;
	size_t done;			/* bytes hashed: they may be written */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t th;
	int threaded;
};

static void *hash_bytes(void *arg)
{
	struct hash_job *h = arg;
	const struct vsb_rl_file *f = h->f;
	uint64_t v = VSB_FNV_INIT;
	size_t off, n;

	for (off = 0; off < f->len; off += n) {
		n = f->len - off < HASH_CHUNK ? f->len - off : HASH_CHUNK;
		v = vsb_fnv1a64(f->buf + off, n, v);
		pthread_mutex_lock(&h->mu);
		__atomic_store_n(&h->done, off + n, __ATOMIC_RELEASE);
		pthread_cond_signal(&h->cv);
		pthread_mutex_unlock(&h->mu);
	}
	h->f->hash = v;
	return NULL;
}

/* until the bytes before @end are hashed */
static void hash_wait(struct hash_job *h, const char *end)
{
	size_t want = (size_t)(end - h->f->buf);

	if (__atomic_load_n(&h->done, __ATOMIC_ACQUIRE) >= want)
		return;
	pthread_mutex_lock(&h->mu);
	while (__atomic_load_n(&h->done, __ATOMIC_ACQUIRE) < want)
		pthread_cond_wait(&h->cv, &h->mu);
	pthread_mutex_unlock(&h->mu);
}

static int read_file(const char *path, struct vsb_rl_file *f, struct hash_job *h)
{
	int ret = vsb_csv_slurp(path, VSB_RL_MAX_BYTES, &f->buf, &f->len);

	if (ret)
		return ret;
	h->f = f;
	pthread_mutex_init(&h->mu, NULL);
	pthread_cond_init(&h->cv, NULL);
	h->threaded = !pthread_create(&h->th, NULL, hash_bytes, h);
	if (!h->threaded)
		hash_bytes(h);		/* no thread to be had: here, now */
	return 0;
}

static void hash_done(struct hash_job *h)
{
	if (!h->f)
		return;		/* the file was not read */
	if (h->threaded)
		pthread_join(h->th, NULL);
	pthread_cond_destroy(&h->cv);
	pthread_mutex_destroy(&h->mu);
	snprintf(h->f->content_id, sizeof(h->f->content_id), "c-%016llx",
		 (unsigned long long)h->f->hash);
}

static void add_meta(struct vsb_rl_file *f, char *line, size_t *mcap)
{
	char *key, *val;

	if (vsb_csv_meta_line(line, &key, &val))
		return;		/* a comment, not metadata */
	f->meta = vsb_grow(f->meta, f->nmeta, mcap, sizeof(*f->meta));
	f->meta[f->nmeta].key = key;
	f->meta[f->nmeta].val = val;
	f->nmeta++;
}

/*
 * The first pass, and with @check the second too, row by row: one pass
 * over the bytes, each row checked while it is in the cache (a second
 * walk over a million rows made SQLite's import 5% slower).
 */
static int scan(const char *path, unsigned int flags, struct vsb_rl_file *f, int check)
{
	size_t lineno = 0, mcap = 0, rcap = 0, pcap = 0;
	struct hash_job hasher = { 0 };
	char *p, *next;
	int ret;

	memset(f, 0, sizeof(*f));
	f->flags = flags;
	snprintf(f->path, sizeof(f->path), "%s", path);
	f->c_cpu = f->c_rep = f->c_ops = f->c_elapsed = f->c_unit = -1;
	f->c_per_op = f->c_ns_per_op = f->c_cycles = f->c_instr = -1;
	f->c_pmu_events = f->c_pmu_values = -1;
	ret = read_file(path, f, &hasher);
	for (p = f->buf; !ret && p && *p; p = next) {
		size_t n;

		next = strchr(p, '\n');
		/* a line is cut (its newline, \r, a meta line's colon) once hashed */
		hash_wait(&hasher, next ? next + 1 : f->buf + f->len);
		if (next)
			*next++ = '\0';
		lineno++;
		n = strlen(p);
		if (n && p[n - 1] == '\r')
			p[--n] = '\0';
		if (!n)
			continue;
		if (*p == '#') {
			if (!f->ncols)
				add_meta(f, p, &mcap);
			continue;
		}
		if (!f->ncols) {
			ret = parse_header(f, p);
			continue;
		}
		if (f->nrows >= rcap) {
			size_t c = rcap, l = rcap;

			f->rows = vsb_grow(f->rows, f->nrows, &rcap, sizeof(*f->rows));
			f->row_point = vsb_grow(f->row_point, f->nrows, &c, sizeof(uint32_t));
			f->row_line = vsb_grow(f->row_line, f->nrows, &l, sizeof(uint32_t));
		}
		f->rows[f->nrows] = p;
		f->row_line[f->nrows] = (uint32_t)lineno;
		if (scan_row(f, &pcap)) {
			/* the first bad row up to this one, as the check words it */
			f->nrows++;
			ret = vsb_rl_check_rest(f);
			if (!ret)	/* not reached: a short row has too few cells */
				ret = row_err(f, f->nrows - 1, "too few cells");
			break;
		}
		f->nrows++;
		if (check)
			ret = vsb_rl_check_rest(f);
	}
	hash_done(&hasher);
	if (!ret && !f->ncols) {
		vsb_err("%s: no header row: not a vmstat-bench result", path);
		ret = VSB_EXIT_USAGE;
	} else if (!ret && !f->nrows && !(flags & VSB_RL_EMPTY_OK)) {
		vsb_err("%s: a header but no samples: nothing to store", path);
		ret = VSB_EXIT_USAGE;
	}
	if (ret)
		vsb_rl_free(f);
	return ret;
}

int vsb_rl_scan(const char *path, unsigned int flags, struct vsb_rl_file *f)
{
	return scan(path, flags, f, 0);
}

int vsb_rl_read(const char *path, unsigned int flags, struct vsb_rl_file *f)
{
	return scan(path, flags, f, 1);
}

int vsb_rl_load(const char *path, struct vsb_rl_file *f)
{
	return vsb_rl_read(path, 0, f);
}

void vsb_rl_free(struct vsb_rl_file *f)
{
	size_t i;

	for (i = 0; i < f->npoints; i++) {
		free(f->points[i].prefix);
		free(f->points[i].key);
	}
	for (i = 0; i < f->ncols; i++)
		free(f->cols[i]);
	free(f->points);
	free(f->rows);
	free(f->row_point);
	free(f->row_line);
	free(f->meta);
	free(f->header);
	free(f->buf);
	memset(f, 0, sizeof(*f));
}

const char *vsb_rl_meta(const struct vsb_rl_file *f, const char *key)
{
	size_t i;

	for (i = 0; i < f->nmeta; i++)
		if (!strcmp(f->meta[i].key, key))
			return f->meta[i].val;
	return NULL;
}

int vsb_rl_col(const struct vsb_rl_file *f, const char *name)
{
	size_t j;

	for (j = 0; j < f->ncols; j++)
		if (!strcmp(f->cols[j], name))
			return (int)j;
	return -1;
}
