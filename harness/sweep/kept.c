// SPDX-License-Identifier: GPL-2.0
/*
 * A finished point's DIR/<id>.summary.csv, read back before it is used:
 * by --resume, which keeps the point instead of running it, and by
 * sweep.csv, which copies its row.  Only a summary this tool wrote, for
 * this point, with the options and repetitions this run asks for, is
 * used; anything else makes the point run again (--resume) or fails the
 * sweep.csv it would have gone into.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csvread.h"
#include "sweep_int.h"

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
	const char *v = vsb_csv_meta(c, "sweep_point");
	long reps = 0;

	if (!v || strcmp(v, p->id))
		return "it belongs to another point";
	v = vsb_csv_meta(c, "sweep_match");
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

int vsb_sweep_summary_read(const struct vsb_sweep_point *p, struct vsb_csv *c,
			   char *why, size_t wlen)
{
	char path[4096], msg[160];
	struct vsb_errlog log;
	const char *bad;
	int ret;

	snprintf(path, sizeof(path), "%s.summary.csv", p->stem);
	if (!vsb_sweep_exists(path))
		return 1;
	vsb_errlog_begin(&log);
	ret = vsb_csv_read(path, c);
	vsb_errlog_end(&log);
	if (ret) {
		snprintf(why, wlen, "%s", log.text[0] ? log.text : "not a CSV file");
		return -1;
	}
	bad = header_ok(c) ? summary_rows(c) :
	      "not a summary this tool writes (other columns)";
	bad = bad ?: summary_match(p, c, msg, sizeof(msg));
	snprintf(path, sizeof(path), "%s.csv", p->stem);
	if (!bad && !vsb_sweep_exists(path))
		bad = "its raw samples (<id>.csv) are missing";
	if (!bad)
		return 0;
	snprintf(why, wlen, "%s", bad);
	vsb_csv_free(c);
	return -1;
}
