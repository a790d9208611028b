// SPDX-License-Identifier: GPL-2.0
/*
 * A sweep point's summary CSV (DIR/<id>.summary.csv) read back: the
 * columns and rows its writer (result_write.c) makes, and the
 * sweep_point and sweep_match lines the sweep writes into it, checked
 * before --resume keeps the point or sweep.csv copies its row.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvread.h"
#include "point_match.h"
#include "result.h"
#include "summary_csv.h"
#include "vsb.h"

/*
 * The header row the summary writer writes: its own output for a result
 * without samples ends with it.  The same for every point (the columns
 * are the option table's), so made once, from the default options.
 */
static const char *summary_header(void)
{
	static char *header;
	static struct vsb_result r;
	static struct vsb_run_opts o;
	size_t len = 0;
	char *text = NULL, *nl;
	FILE *f;

	if (header)
		return header;
	f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	vsb_run_opts_defaults(&o);
	vsb_result_init(&r, &o);
	vsb_result_write_summary_csv(&r, f);
	vsb_result_free(&r);
	if (fclose(f) || !len) {
		free(text);
		return NULL;
	}
	text[len - 1] = '\0';
	nl = strrchr(text, '\n');
	header = strdup(nl ? nl + 1 : text);
	free(text);
	return header;
}

/* @c's column names, ','-joined, are the summary writer's header row */
static int header_ok(const struct vsb_csv *c)
{
	const char *want = summary_header();
	size_t i, n;

	if (!want || !c->ncols)
		return 0;
	for (i = 0; i < c->ncols; i++) {
		n = strlen(c->cols[i]);
		if (strncmp(want, c->cols[i], n))
			return 0;
		want += n;
		if (*want != (i + 1 < c->ncols ? ',' : '\0'))
			return 0;
		want += i + 1 < c->ncols;	/* past the comma */
	}
	return 1;
}

/*
 * Rows as the writer makes them: a worker number or "all" and a sample
 * count and median cost that are numbers; one "all" row when there are
 * several workers (the row sweep.csv takes).
 */
static const char *summary_rows(const struct vsb_csv *c)
{
	int th = vsb_csv_col(c, "thread"), n = vsb_csv_col(c, "n");
	int med = vsb_csv_col(c, "median");
	size_t i, nall = 0;
	long v;

	if (!c->nrows)
		return "it holds no rows";
	for (i = 0; i < c->nrows; i++) {
		const char *t = vsb_csv_cell(c, i, th);

		if (!strcmp(t, "all"))
			nall++;
		else if (vsb_parse_long(t, &v) || v < 0)
			return "a bad thread cell";
		if (vsb_parse_long(vsb_csv_cell(c, i, n), &v) || v < 1)
			return "a bad n cell";
		if (!isfinite(vsb_csv_num(c, i, med)))
			return "a bad median cell";
	}
	if (c->nrows > 1 && nall != 1)
		return "not one \"all\" row";
	return NULL;
}

/* What was made differently from this run's @p: NULL, or said in @msg. */
static const char *summary_match(const struct vsb_sweep_point *p,
				 const struct vsb_csv *c, char *msg, size_t len)
{
	const char *v = vsb_csv_meta(c, VSB_SWEEP_POINT_KEY);
	long reps = 0;

	if (!v || strcmp(v, p->id))
		return "it belongs to another point";
	v = vsb_csv_meta(c, VSB_SWEEP_MATCH_KEY);
	if (!v)
		return "no sweep_match line: not known to be made as this run asks";
	switch (vsb_sweep_point_match_read(v, p, &reps)) {
	case 0:
		return NULL;
	case VSB_MATCH_REPEAT:
		snprintf(msg, len, "it holds %ld repetition(s), this run wants %ld",
			 reps, p->reps);
		return msg;
	case VSB_MATCH_OPTIONS:
		return "it was made with other options";
	}
	return "its sweep_match line is not one a sweep writes";
}

const char *vsb_summary_csv_check(const struct vsb_csv *c,
				  const struct vsb_sweep_point *p, char *msg,
				  size_t len)
{
	const char *bad;

	bad = header_ok(c) ? summary_rows(c) :
	      "not a summary this tool writes (other columns)";
	return bad ?: summary_match(p, c, msg, len);
}

/*
 * A key of one point's own, which the sweep-wide files must not repeat
 * as if it held for every point: its monitor figures (monitor_pgalloc
 * of the first point read as the sweep's).
 */
int vsb_summary_point_own_key(const char *key)
{
	return !strncmp(key, "monitor", 7);
}

/*
 * sweep.csv's header holds a summary's metadata that holds for the
 * whole sweep: not the sweep's own lines of each point (sweep_*), nor
 * its verdict or migrations, nor its monitor figures.
 */
int vsb_summary_sweep_wide_key(const char *key)
{
	return strncmp(key, "sweep_", 6) && strcmp(key, "sanity") &&
	       strcmp(key, "migrated") && !vsb_summary_point_own_key(key);
}

/* the writer's "all" row of several workers, or the only one */
int vsb_summary_csv_row(const struct vsb_csv *c, size_t row)
{
	return c->nrows == 1 ||
	       !strcmp(vsb_csv_cell(c, row, vsb_csv_col(c, "thread")), "all");
}
