// SPDX-License-Identifier: GPL-2.0
/*
 * A reader for the harness's own CSV files.  The writer never quotes
 * (a comma inside a value is written ';': CPU lists, a guest command
 * line), so a cell is whatever lies between commas; a quoted cell is
 * still accepted in case a file went through a spreadsheet.  Every row
 * must have as many cells as the header: a truncated or hand-edited file
 * is an error, never half-read.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vsb.h"
#include "csvread.h"

#define CSV_MAX_BYTES (256u << 20)

int vsb_csv_slurp(const char *path, size_t max, char **bufp, size_t *lenp)
{
	int e = vsb_read_whole(path, max, bufp, lenp);

	/* regular files only, size-capped: vsb_read_whole() is the one reader */
	if (e == EFBIG)
		vsb_err("%s: larger than %u MiB", path,
			(unsigned int)((max < VSB_READ_MAX ? max : VSB_READ_MAX) >> 20));
	else if (e)
		vsb_err("%s: %s", path, vsb_read_strerror(e));
	if (e)
		return VSB_EXIT_USAGE;
	if (memchr(*bufp, '\0', *lenp)) {
		vsb_err("%s: contains NUL bytes: not a file vmstat-bench writes", path);
		free(*bufp);
		*bufp = NULL;
		return VSB_EXIT_USAGE;
	}
	return 0;
}

/*
 * The one tokenizer of every CSV the harness reads: cells end at commas
 * outside double quotes; a quoted cell's quotes are not part of it.
 * Nothing is copied or changed, so the result loader can cut a row of a
 * million-row file on demand and this reader can cut every row at once.
 */
static size_t split(const char *line, struct vsb_csv_span *cells, size_t max,
		    int stop)
{
	const char *p = line;
	size_t n = 0;

	for (;;) {
		const char *start = p, *end;

		if (*p == '"') {
			start = ++p;
			end = strchr(p, '"');
			p = end ? end + 1 : p + strlen(p);
		} else {
			end = NULL;
		}
		/*
		 * A byte loop, not strcspn(): a result's cells are a few bytes
		 * long, and glibc's vector strcspn spends more setting up than
		 * scanning them (13% of a million-row import, perf).
		 */
		while (*p && *p != ',')
			p++;
		if (cells && n < max) {
			cells[n].s = start;
			cells[n].len = (size_t)((end ? end : p) - start);
		}
		n++;
		if (!*p || (stop && n == max))
			return n;
		p++;
	}
}

size_t vsb_csv_split(const char *line, struct vsb_csv_span *cells, size_t max)
{
	return split(line, cells, max, 0);
}

size_t vsb_csv_head(const char *line, struct vsb_csv_span *cells, size_t n)
{
	return n ? split(line, cells, n, 1) : 0;
}

int vsb_csv_meta_line(char *line, char **key, char **val)
{
	char *colon = strchr(line, ':');

	if (line[0] != '#' || !colon)
		return -1;	/* a comment, not metadata */
	*colon = '\0';
	*key = line + 1 + (line[1] == ' ');
	*val = colon + 1 + (colon[1] == ' ');
	return 0;
}

/* @line's cells as NUL-terminated strings in place, at most @max. */
static void cut_cells(char *line, char **cells, size_t max)
{
	struct vsb_csv_span sp[VSB_CSV_MAX_CELLS];
	size_t n = vsb_csv_split(line, sp, max < VSB_CSV_MAX_CELLS ? max : VSB_CSV_MAX_CELLS), i;

	/* each cell ends at a comma, a quote or the line's end: ours to cut */
	for (i = 0; i < n && i < max; i++) {
		cells[i] = (char *)sp[i].s;
		cells[i][sp[i].len] = '\0';
	}
}

int vsb_csv_read(const char *path, struct vsb_csv *c)
{
	size_t len, lineno = 0, mcap = 0, rcap = 0, n;
	char *p, *next;
	int ret;

	memset(c, 0, sizeof(*c));
	snprintf(c->path, sizeof(c->path), "%s", path);
	ret = vsb_csv_slurp(path, CSV_MAX_BYTES, &c->buf, &len);
	if (ret)
		return ret;
	for (p = c->buf; p && *p; p = next) {
		next = strchr(p, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (*p && p[strlen(p) - 1] == '\r')
			p[strlen(p) - 1] = '\0';
		if (!*p)
			continue;
		if (*p == '#') {
			char *key, *val;

			if (c->ncols || vsb_csv_meta_line(p, &key, &val))
				continue;	/* a comment, not metadata */
			c->meta = vsb_grow(c->meta, c->nmeta, &mcap, sizeof(*c->meta));
			c->meta[c->nmeta].key = key;
			c->meta[c->nmeta].val = val;
			c->nmeta++;
			continue;
		}
		if (!c->ncols) {
			c->ncols = vsb_csv_split(p, NULL, 0);
			if (c->ncols > VSB_CSV_MAX_CELLS) {
				vsb_err("%s:%zu: more than %d columns: not a vmstat-bench CSV "
					"file", path, lineno, VSB_CSV_MAX_CELLS);
				vsb_csv_free(c);
				return VSB_EXIT_USAGE;
			}
			c->cols = vsb_zalloc(c->ncols * sizeof(*c->cols));
			cut_cells(p, c->cols, c->ncols);
			continue;
		}
		c->rows = vsb_grow(c->rows, c->nrows, &rcap, sizeof(*c->rows));
		c->rows[c->nrows] = vsb_zalloc(c->ncols * sizeof(char *));
		n = vsb_csv_split(p, NULL, 0);
		if (n != c->ncols) {
			vsb_err("%s:%zu: %s cells than the %zu columns of the header",
				path, lineno, n < c->ncols ? "fewer" : "more", c->ncols);
			c->nrows++;
			vsb_csv_free(c);
			return VSB_EXIT_USAGE;
		}
		cut_cells(p, c->rows[c->nrows], c->ncols);
		c->nrows++;
	}
	if (!c->ncols) {
		vsb_err("%s: no header row: not a vmstat-bench CSV file", path);
		vsb_csv_free(c);
		return VSB_EXIT_USAGE;
	}
	return 0;
}

void vsb_csv_free(struct vsb_csv *c)
{
	size_t i;

	for (i = 0; i < c->nrows; i++)
		free(c->rows[i]);
	free(c->rows);
	free(c->cols);
	free(c->meta);
	free(c->buf);
	memset(c, 0, sizeof(*c));
}

int vsb_csv_col(const struct vsb_csv *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->ncols; i++)
		if (!strcmp(c->cols[i], name))
			return (int)i;
	return -1;
}

const char *vsb_csv_cell(const struct vsb_csv *c, size_t row, int col)
{
	if (col < 0 || (size_t)col >= c->ncols || row >= c->nrows)
		return "";
	return c->rows[row][col];
}

double vsb_csv_num(const struct vsb_csv *c, size_t row, int col)
{
	const char *s = vsb_csv_cell(c, row, col);
	char *end;
	double v;

	if (!*s)
		return NAN;
	v = strtod(s, &end);
	return *end ? NAN : v;
}

const char *vsb_csv_meta(const struct vsb_csv *c, const char *key)
{
	size_t i;

	for (i = 0; i < c->nmeta; i++)
		if (!strcmp(c->meta[i].key, key))
			return c->meta[i].val;
	return NULL;
}
