// SPDX-License-Identifier: GPL-2.0
/*
 * The store's reader of raw-sample result files (result_load.h).  Every
 * check that can refuse a file runs here, before a store is opened, so
 * a bad file is refused with nothing written: a truncated row, a
 * non-number where a count belongs, a summary given as samples, two
 * units on one point.  The writer never quotes a cell (CPU lists use
 * ';'), so a cell is whatever lies between two commas.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vsb.h"
#include "result_load.h"

uint64_t vsb_fnv1a64(const void *p, size_t n, uint64_t h)
{
	const unsigned char *c = p;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= c[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

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
	char *p = line, *comma;
	int thread = -1;

	f->header = xstrndup(line, strlen(line));
	for (;;) {
		comma = strchr(p, ',');
		if (f->ncols == VSB_RL_MAX_COLS) {
			vsb_err("%s: more than %d columns: not a vmstat-bench result",
				f->path, VSB_RL_MAX_COLS);
			return VSB_EXIT_USAGE;
		}
		f->cols[f->ncols++] = xstrndup(p, comma ? (size_t)(comma - p) : strlen(p));
		if (!comma)
			break;
		p = comma + 1;
	}
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
		vsb_err("%s: not a raw-sample result (its header lacks parameter columns "
			"before thread, or cpu, rep, ops, elapsed, unit, per_op)", f->path);
		return VSB_EXIT_USAGE;
	}
	f->nparam = (size_t)thread;
	return 0;
}

/* Cut @p at its commas into at most @max cells; returns how many it has. */
static size_t split(const char *p, struct vsb_rl_cell *cells, size_t max)
{
	const char *start = p;
	size_t n = 0;

	/* one pass, byte by byte: most cells are a few bytes or empty */
	for (;; p++) {
		if (*p != ',' && *p)
			continue;
		if (n < max) {
			cells[n].s = start;
			cells[n].len = (size_t)(p - start);
		}
		n++;
		if (!*p)
			return n;
		start = p + 1;
	}
}

void vsb_rl_cells(const struct vsb_rl_file *f, size_t i, struct vsb_rl_cell *cells)
{
	split(f->rows[i], cells, f->ncols);
}

const char *vsb_rl_tail(const struct vsb_rl_file *f, size_t i, size_t *len)
{
	struct vsb_rl_cell cells[VSB_RL_MAX_COLS];
	const char *t;

	vsb_rl_cells(f, i, cells);
	t = cells[f->nparam].s;
	*len = strlen(t);
	return t;
}

static int cell_is_int(const struct vsb_rl_cell *c)
{
	char *end;

	if (!c->len)
		return 0;
	errno = 0;
	(void)strtoll(c->s, &end, 10);
	return !errno && end == c->s + c->len;
}

static int cell_is_num_or_empty(const struct vsb_rl_cell *c)
{
	char *end;

	if (!c->len)
		return 1;
	(void)strtod(c->s, &end);
	return end == c->s + c->len;
}

static struct vsb_rl_point *new_point(struct vsb_rl_file *f, const char *row,
				      size_t plen, const struct vsb_rl_cell *cells,
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
static uint32_t row_point(struct vsb_rl_file *f, const struct vsb_rl_cell *cells,
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

static int check_row(struct vsb_rl_file *f, size_t lineno, size_t *pcap)
{
	const int ints[] = { f->c_thread, f->c_cpu, f->c_rep, f->c_ops, f->c_elapsed };
	struct vsb_rl_cell cells[VSB_RL_MAX_COLS];
	struct vsb_rl_point *pt;
	size_t n, k;
	uint32_t pi;

	n = split(f->rows[f->nrows], cells, f->ncols);
	if (n != f->ncols) {
		vsb_err("%s:%zu: %zu cells, the header has %zu columns: truncated or "
			"not a vmstat-bench result", f->path, lineno, n, f->ncols);
		return VSB_EXIT_USAGE;
	}
	for (k = 0; k < sizeof(ints) / sizeof(ints[0]); k++)
		if (!cell_is_int(&cells[ints[k]])) {
			vsb_err("%s:%zu: column %s is '%.*s', not an integer", f->path,
				lineno, f->cols[ints[k]], (int)cells[ints[k]].len,
				cells[ints[k]].s);
			return VSB_EXIT_USAGE;
		}
	if (!cell_is_num_or_empty(&cells[f->c_per_op])) {
		vsb_err("%s:%zu: per_op is not a number", f->path, lineno);
		return VSB_EXIT_USAGE;
	}
	if (!cells[f->c_unit].len || cells[f->c_unit].len >= sizeof(pt->unit)) {
		vsb_err("%s:%zu: no unit, or an unknown one", f->path, lineno);
		return VSB_EXIT_USAGE;
	}
	pi = row_point(f, cells, pcap);
	pt = &f->points[pi];
	if (!pt->nsamples)
		memcpy(pt->unit, cells[f->c_unit].s, cells[f->c_unit].len);
	else if (strlen(pt->unit) != cells[f->c_unit].len ||
		 memcmp(pt->unit, cells[f->c_unit].s, cells[f->c_unit].len)) {
		vsb_err("%s:%zu: unit '%.*s' on a point whose earlier samples are in "
			"'%s': mixed units on one point (%s)", f->path, lineno,
			(int)cells[f->c_unit].len, cells[f->c_unit].s, pt->unit, pt->key);
		return VSB_EXIT_USAGE;
	}
	pt->nsamples++;
	f->row_point[f->nrows] = pi;
	return 0;
}

static int read_file(const char *path, struct vsb_rl_file *f)
{
	int e = vsb_read_whole(path, VSB_RL_MAX_BYTES, &f->buf, &f->len);

	if (e == EFBIG)
		vsb_err("%s: larger than %u MiB", path, VSB_RL_MAX_BYTES >> 20);
	else if (e)
		vsb_err("%s: %s", path, vsb_read_strerror(e));
	if (e)
		return VSB_EXIT_USAGE;
	if (memchr(f->buf, '\0', f->len)) {
		vsb_err("%s: contains NUL bytes: not a vmstat-bench result", path);
		return VSB_EXIT_USAGE;
	}
	f->hash = vsb_fnv1a64(f->buf, f->len, VSB_FNV_INIT);
	snprintf(f->content_id, sizeof(f->content_id), "c-%016llx",
		 (unsigned long long)f->hash);
	return 0;
}

static void add_meta(struct vsb_rl_file *f, char *line, size_t *mcap)
{
	char *colon = strchr(line, ':');

	if (!colon)
		return;		/* a comment, not metadata */
	*colon = '\0';
	f->meta = vsb_grow(f->meta, f->nmeta, mcap, sizeof(*f->meta));
	f->meta[f->nmeta].key = line + 1 + (line[1] == ' ');
	f->meta[f->nmeta].val = colon + 1 + (colon[1] == ' ');
	f->nmeta++;
}

int vsb_rl_load(const char *path, struct vsb_rl_file *f)
{
	size_t lineno = 0, mcap = 0, rcap = 0, pcap = 0;
	char *p, *next;
	int ret;

	memset(f, 0, sizeof(*f));
	snprintf(f->path, sizeof(f->path), "%s", path);
	f->c_cpu = f->c_rep = f->c_ops = f->c_elapsed = f->c_unit = -1;
	f->c_per_op = f->c_ns_per_op = f->c_cycles = f->c_instr = -1;
	f->c_pmu_events = f->c_pmu_values = -1;
	ret = read_file(path, f);
	for (p = f->buf; !ret && p && *p; p = next) {
		size_t n;

		next = strchr(p, '\n');
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
			size_t c = rcap;

			f->rows = vsb_grow(f->rows, f->nrows, &rcap, sizeof(*f->rows));
			f->row_point = vsb_grow(f->row_point, f->nrows, &c, sizeof(uint32_t));
		}
		f->rows[f->nrows] = p;
		ret = check_row(f, lineno, &pcap);
		if (!ret)
			f->nrows++;
	}
	if (!ret && !f->ncols) {
		vsb_err("%s: no header row: not a vmstat-bench result", path);
		ret = VSB_EXIT_USAGE;
	} else if (!ret && !f->nrows) {
		vsb_err("%s: a header but no samples: nothing to store", path);
		ret = VSB_EXIT_USAGE;
	}
	if (ret)
		vsb_rl_free(f);
	return ret;
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
