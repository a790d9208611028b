// SPDX-License-Identifier: GPL-2.0
/*
 * A reader for the harness's own CSV files.  The writer never quotes
 * (CPU lists use ';' inside a cell), so a cell is whatever lies between
 * commas; a quoted cell is still accepted in case a file went through a
 * spreadsheet.  Every row must have as many cells as the header: a
 * truncated or hand-edited file is an error, never half-read.
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

/* Split @line in place at commas; returns the number of cells. */
static size_t split_cells(char *line, char **cells, size_t max)
{
	size_t n = 0;
	char *p = line;

	for (;;) {
		char *start = p, *end;

		if (*p == '"') {
			start = ++p;
			end = strchr(p, '"');
			if (end) {
				*end = '\0';
				p = end + 1;
			}
		}
		end = strchr(p, ',');
		if (n < max)
			cells[n] = start;
		n++;
		if (!end)
			break;
		*end = '\0';
		p = end + 1;
	}
	return n;
}

/* Cells in an unsplit line: commas outside double quotes, plus one. */
static size_t count_cells(const char *line)
{
	size_t n = 1;
	int quoted = 0;

	for (; *line; line++) {
		if (*line == '"')
			quoted = !quoted;
		else if (*line == ',' && !quoted)
			n++;
	}
	return n;
}

int vsb_csv_read(const char *path, struct vsb_csv *c)
{
	size_t len, lineno = 0, mcap = 0, rcap = 0;
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
			char *colon = strchr(p, ':');

			if (!colon || c->ncols)
				continue;	/* a comment, not metadata */
			*colon = '\0';
			c->meta = vsb_grow(c->meta, c->nmeta, &mcap, sizeof(*c->meta));
			c->meta[c->nmeta].key = p + 1 + (p[1] == ' ');
			c->meta[c->nmeta].val = colon + 1 + (colon[1] == ' ');
			c->nmeta++;
			continue;
		}
		if (!c->ncols) {
			c->ncols = count_cells(p);
			c->cols = vsb_zalloc(c->ncols * sizeof(*c->cols));
			split_cells(p, c->cols, c->ncols);
			continue;
		}
		c->rows = vsb_grow(c->rows, c->nrows, &rcap, sizeof(*c->rows));
		c->rows[c->nrows] = vsb_zalloc(c->ncols * sizeof(char *));
		if (count_cells(p) != c->ncols) {
			vsb_err("%s:%zu: %s cells than the %zu columns of the header",
				path, lineno, count_cells(p) < c->ncols ? "fewer" : "more",
				c->ncols);
			c->nrows++;
			vsb_csv_free(c);
			return VSB_EXIT_USAGE;
		}
		split_cells(p, c->rows[c->nrows], c->ncols);
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
