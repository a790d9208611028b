/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading back the CSV files the harness writes (raw samples, summaries,
 * sweep.csv): the `# key: value` metadata header, one header row of
 * column names, then data rows.  `compare`, `plot` and `sweep --resume`
 * read results only through this, by column name, so appended columns
 * never break them; the result loader (result_load.h), which keeps a
 * million-row file as one pointer a row, cuts its rows with this file's
 * tokenizer, so there is one CSV syntax.
 */
#ifndef VSB_CSVREAD_H
#define VSB_CSVREAD_H

#include <stddef.h>

#define VSB_CSV_MAX_CELLS	256	/* columns a row may have */

/* One cell of a line: its bytes, not NUL-terminated; no quotes. */
struct vsb_csv_span {
	const char *s;
	size_t len;
};

/*
 * The cells of @line (to its NUL) into @cells, at most @max of them
 * (@cells may be NULL with @max 0, to count); returns how many it has.
 */
size_t vsb_csv_split(const char *line, struct vsb_csv_span *cells, size_t max);
/*
 * The first @n cells of @line only, the rest of it not read: how many
 * it has, at most @n (the result loader's first pass wants a row's
 * parameter cells, the point, and nothing after them).
 */
size_t vsb_csv_head(const char *line, struct vsb_csv_span *cells, size_t n);
/*
 * "# key: value": 0, @line cut at the colon, *key and *val into it;
 * -1 for any other line (a comment keeps its colons).
 */
int vsb_csv_meta_line(char *line, char **key, char **val);

struct vsb_csv_meta {
	char *key;
	char *val;
};

struct vsb_csv {
	char path[4096];
	size_t nmeta;
	struct vsb_csv_meta *meta;
	size_t ncols;
	char **cols;		/* column names */
	size_t nrows;
	char ***rows;		/* rows[i][j]: cell j of data row i */
	char *buf;		/* the file; every string points into it */
};

/*
 * The whole of @path into a malloc'd, NUL-terminated *@bufp: a regular
 * file (vsb_read_whole), at most @max bytes, with no NUL byte in it.
 * 0, or VSB_EXIT_USAGE after one line naming the file and what is wrong.
 * Every text input the harness reads back comes through here.
 */
int vsb_csv_slurp(const char *path, size_t max, char **bufp, size_t *lenp);
/* 0, or VSB_EXIT_* after one error line naming the file (and line). */
int vsb_csv_read(const char *path, struct vsb_csv *c);
void vsb_csv_free(struct vsb_csv *c);
int vsb_csv_col(const struct vsb_csv *c, const char *name);	/* -1: absent */
const char *vsb_csv_cell(const struct vsb_csv *c, size_t row, int col);
double vsb_csv_num(const struct vsb_csv *c, size_t row, int col); /* NAN if not */
const char *vsb_csv_meta(const struct vsb_csv *c, const char *key); /* NULL */

#endif /* VSB_CSVREAD_H */
