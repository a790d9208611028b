// SPDX-License-Identifier: GPL-2.0
/*
 * What a bisect leaves in OUT: bisect.txt (every commit measured: its
 * subject, each point the endpoints differ on with its metric against
 * the base and compare's verdict, the step's verdict; last, the culprit
 * or the range skips leave), bisect.csv (the metric of each such point
 * for each commit tried, by its place between good and bad) and its
 * chart (plots/bisect.gp through the chart driver).  Rewritten whole
 * after the run from bisect.state and the steps' compare.csv files, so
 * a resumed bisect's files say the same as an uninterrupted one's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bisect.h"
#include "plot.h"
#include "vsb.h"

#define CHART_SERIES_MAX	8
#define SUBJECTS_MAX		64

/*
 * A commit's subject, asked of git once a run: a full SHA's never
 * changes, and each step's is said as it ends, again in bisect.txt
 * (rewritten at each end) and beside the culprit: a git process each.
 */
static struct {
	char sha[41], subj[256];
} subjects[SUBJECTS_MAX];
static size_t nsubjects;

void vsb_bisect_subject(const struct vsb_bisect *b, const char *sha, char *buf,
			size_t len)
{
	char gd[2048 + 16], subj[256];
	size_t i;

	for (i = 0; i < nsubjects; i++)
		if (!strcmp(subjects[i].sha, sha)) {
			snprintf(buf, len, "%s", subjects[i].subj);
			return;
		}
	snprintf(gd, sizeof(gd), "%s/git", b->out);
	if (vsb_bisect_git(gd, subj, sizeof(subj), "log", "-1", "--format=%s", sha,
			   (char *)NULL)) {
		snprintf(buf, len, "?");
		return;
	}
	snprintf(buf, len, "%s", subj);
	if (strlen(sha) == 40 && strspn(sha, "0123456789abcdef") == 40 &&
	    nsubjects < SUBJECTS_MAX) {
		snprintf(subjects[nsubjects].sha, sizeof(subjects[0].sha), "%s", sha);
		snprintf(subjects[nsubjects++].subj, sizeof(subjects[0].subj), "%s", subj);
	}
}

/* a step's latest compare: the retry with more boots when there was one */
static int step_cmp(const struct vsb_bisect *b, const struct vsb_bisect_step *s,
		    struct vsb_bisect_cmp *c)
{
	char p[2048 + 160];

	snprintf(p, sizeof(p), "%s/%s-more/compare/compare.csv", b->out, s->dir);
	if (access(p, R_OK))
		snprintf(p, sizeof(p), "%s/%s/compare/compare.csv", b->out, s->dir);
	if (access(p, R_OK))
		return -1;
	return vsb_bisect_read_cmp(p, c) ? -1 : 0;
}

static const struct vsb_bisect_row *row_of(const struct vsb_bisect_cmp *c,
					   const char *label)
{
	size_t k;

	for (k = 0; k < c->n; k++)
		if (!strcmp(c->rows[k].label, label))
			return &c->rows[k];
	return NULL;
}

static void txt_step(FILE *f, const struct vsb_bisect *b, const struct vsb_bisect_step *s,
		     struct vsb_bisect_cmp *c, size_t n)
{
	char subj[256];
	size_t i;

	vsb_bisect_subject(b, s->sha, subj, sizeof(subj));
	fprintf(f, "\nstep %zu %s %s %s\n", n, s->role, s->sha, subj);
	for (i = 0; b->round[n] && i < b->nsteps; i++)
		if (i != n && b->round[i] == b->round[n]) {
			fprintf(f, "  round %u: booted at once with the other steps of "
				"round %u\n", b->round[n], b->round[n]);
			break;
		}
	if (s->base_sha[0] && !step_cmp(b, s, c)) {
		fprintf(f, "  against %.12s:\n", s->base_sha);
		for (i = 0; i < c->n; i++) {
			const struct vsb_bisect_row *r = &c->rows[i];

			fprintf(f, "  %s: %.4g -> %.4g %s (x%.3f) %s\n", r->label, r->base,
				r->new, r->unit, r->ratio, r->verdict);
		}
	}
	fprintf(f, "  verdict: %s%s%s\n", s->verdict, s->why[0] ? ", " : "", s->why);
}

/*
 * The culprit's effect on stdout: each point against its parent, with
 * compare's verdict, and the rule that made the step's verdict.
 */
void vsb_bisect_effect(const struct vsb_bisect *b, const struct vsb_bisect_step *s)
{
	struct vsb_bisect_cmp *c = vsb_zalloc(sizeof(*c));
	size_t i;

	if (!step_cmp(b, s, c)) {
		for (i = 0; i < c->n; i++) {
			const struct vsb_bisect_row *r = &c->rows[i];

			printf("  %s: %.4g -> %.4g %s (x%.3f) %s\n", r->label, r->base,
			       r->new, r->unit, r->ratio, r->verdict);
		}
		printf("  rule: its parent against it, bad when a point the endpoints "
		       "differ on moves the way it moved from good to bad\n");
	}
	free(c);
}

static int write_txt(const struct vsb_bisect *b, const char *culprit, const char *range)
{
	struct vsb_bisect_cmp *c = vsb_zalloc(sizeof(*c));
	struct vsb_outfile o;
	char path[2048 + 32], subj[256];
	size_t i;
	int ret;

	snprintf(path, sizeof(path), "%s/bisect.txt", b->out);
	ret = vsb_outfile_open(&o, path, "-o");
	if (ret) {
		free(c);
		return ret;
	}
	fprintf(o.f, "# vmstat-bench bisect\ntree: %s\n", b->tree);
	vsb_bisect_subject(b, b->good, subj, sizeof(subj));
	fprintf(o.f, "good: %s %s\n", b->good, subj);
	vsb_bisect_subject(b, b->bad, subj, sizeof(subj));
	fprintf(o.f, "bad: %s %s\nsweep: %s\nab options:", b->bad, subj, b->sweep);
	for (i = 0; i < (size_t)b->nab; i++)
		fprintf(o.f, " %s", b->ab_args[i]);
	fprintf(o.f, "\nrule: a commit is bad when a point the endpoints differ on "
		"is slower or faster against good the way bad is; good when every such "
		"point is the same; else one more ab with twice the boots, then skip\n");
	for (i = 0; i < b->nsteps; i++)
		txt_step(o.f, b, &b->steps[i], c, i);
	if (range) {
		fprintf(o.f, "\nskipped commits hide the culprit; it is one of:\n");
		fputs(range, o.f);
	}
	if (culprit)
		fprintf(o.f, "\nculprit: %s\n", culprit);
	free(c);
	return vsb_outfile_commit(&o);
}

/* place of @sha between good (0) and bad, in git's topological order */
static long place(const char *list, const char *sha, const struct vsb_bisect *b)
{
	const char *p = strstr(list, sha);

	if (!strcmp(sha, b->good))
		return 0;
	return p ? (p - list) / 41 + 1 : -1;
}

static void csv_rows(FILE *f, const struct vsb_bisect *b, const char *list,
		     struct vsb_bisect_cmp *c)
{
	const struct vsb_bisect_row *r;
	size_t i, k;

	for (i = 0; i < b->nsteps; i++) {
		const struct vsb_bisect_step *s = &b->steps[i];
		int end = !strcmp(s->role, "endpoints");

		if ((!end && strcmp(s->role, "step")) || step_cmp(b, s, c))
			continue;
		for (k = 0; k < b->nchanged && k < CHART_SERIES_MAX; k++) {
			r = row_of(c, b->changed[k]);
			if (!r)
				continue;
			if (end)
				fprintf(f, "0,%.12s,good,%zu,%.6g,%s\n", b->good, k + 1,
					r->base, r->unit);
			fprintf(f, "%ld,%.12s,%s,%zu,%.6g,%s\n", place(list, s->sha, b),
				s->sha, end ? "bad" : s->verdict, k + 1, r->new, r->unit);
		}
	}
}

static int write_csv(const struct vsb_bisect *b, const char *path)
{
	struct vsb_bisect_cmp *c = vsb_zalloc(sizeof(*c));
	char gd[2048 + 16], range[100], *list;
	struct vsb_outfile o;
	int ret;

	snprintf(gd, sizeof(gd), "%s/git", b->out);
	snprintf(range, sizeof(range), "%s..%s", b->good, b->bad);
	vsb_bisect_git_all(gd, &list, "rev-list", "--reverse", "--topo-order", range,
			   (char *)NULL);
	ret = vsb_outfile_open(&o, path, "-o");
	if (!ret) {
		fprintf(o.f, "# good: %s\n# bad: %s\n# commits: %zu\n", b->good, b->bad,
			strlen(list) / 41);
		fputs("place,commit,verdict,series,metric,unit\n", o.f);
		csv_rows(o.f, b, list, c);
		ret = vsb_outfile_commit(&o);
	}
	free(list);
	free(c);
	return ret;
}

/* The chart: one series per point the endpoints differ on (at most 8). */
static void chart(const struct vsb_bisect *b, const char *csv)
{
	char vars[8192], q[1024];
	size_t k, n = b->nchanged < CHART_SERIES_MAX ? b->nchanged : CHART_SERIES_MAX;

	if (!n || !vsb_have_gnuplot() || !vsb_plots_dir())
		return;
	snprintf(vars, sizeof(vars), "nseries=%zu; ", n);
	for (k = 0; k < n; k++) {
		if (vsb_gp_string(q, sizeof(q), b->changed[k]))
			snprintf(q, sizeof(q), "'point %zu'", k + 1);
		snprintf(vars + strlen(vars), sizeof(vars) - strlen(vars), "t%zu=%s; ",
			 k + 1, q);
	}
	if (vsb_plot_chart("bisect", csv, b->out, "vmstat-bench bisect", vars))
		vsb_warn("bisect: no chart (see above); bisect.csv has the numbers");
}

int vsb_bisect_write(const struct vsb_bisect *b, const char *culprit, const char *range)
{
	char csv[2048 + 32];
	int ret = write_txt(b, culprit, range);

	snprintf(csv, sizeof(csv), "%s/bisect.csv", b->out);
	if (!ret && b->nchanged && !write_csv(b, csv))
		chart(b, csv);
	return ret;
}
