// SPDX-License-Identifier: GPL-2.0
/*
 * compare.csv's codec (compare_csv.c), writer against reader: every
 * verdict word to its enum and back, rows written by the codec read back
 * field for field (a quoted label, empty cells for figures not known),
 * a file from before the newer columns still read, and the refusals: no
 * label or verdict column is an error naming the file, a verdict word
 * this version does not know reads as unknown.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare_csv.h"
#include "tap.h"
#include "vsb.h"

/* a file in /tmp holding @text (NULL: the caller writes it), or NULL */
static FILE *new_file(char *path, const char *text)
{
	int fd = mkstemp(path);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");

	if (f && text) {
		fputs(text, f);
		fclose(f);
		return stdout;	/* written: anything but NULL */
	}
	return f;
}

/* equal, NAN equal to NAN: an empty cell written is one read back */
static int same_num(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

static int same_row(const struct vsb_compare_row *a, const struct vsb_compare_row *b)
{
	return a->index == b->index && !strcmp(a->label, b->label) &&
	       !strcmp(a->unit, b->unit) && a->n_base == b->n_base &&
	       a->n_new == b->n_new && same_num(a->median_base, b->median_base) &&
	       same_num(a->median_new, b->median_new) && same_num(a->ratio, b->ratio) &&
	       same_num(a->ratio_ci_lo, b->ratio_ci_lo) &&
	       same_num(a->ratio_ci_hi, b->ratio_ci_hi) && same_num(a->p, b->p) &&
	       a->exact == b->exact && same_num(a->noise_pct, b->noise_pct) &&
	       a->verdict == b->verdict && a->regression == b->regression &&
	       a->runs_base == b->runs_base && a->runs_new == b->runs_new &&
	       same_num(a->between_cv_pct, b->between_cv_pct) &&
	       !strcmp(a->test, b->test) && same_num(a->mde_pct, b->mde_pct) &&
	       !strcmp(a->rule, b->rule) && !strcmp(a->change, b->change) &&
	       !strcmp(a->why, b->why) && same_num(a->p_adj, b->p_adj);
}

static void test_words(void)
{
	int w, distinct = 1, back = 1;

	for (w = VSB_CW_UNKNOWN + 1; w < VSB_CW_COUNT; w++) {
		int k;

		back &= vsb_compare_word_of(vsb_compare_word(w)) == (enum vsb_compare_word)w;
		for (k = w + 1; k < VSB_CW_COUNT; k++)
			distinct &= !!strcmp(vsb_compare_word(w), vsb_compare_word(k));
	}
	TAP_OK(back, "every verdict word reads back as its enum");
	TAP_OK(distinct, "no two verdicts share a word");
	TAP_OK(!strcmp(vsb_compare_word(VSB_CW_SLOWER), "slower") &&
	       !strcmp(vsb_compare_word(VSB_CW_SAME), "same") &&
	       !strcmp(vsb_compare_word(VSB_CW_INCONCLUSIVE), "inconclusive"),
	       "the words are compare's: slower, same, inconclusive");
	TAP_OK(vsb_compare_word_of("no-change") == VSB_CW_SAME,
	       "no-change, same's old word, reads as same");
	TAP_OK(vsb_compare_word_of("sideways") == VSB_CW_UNKNOWN &&
	       vsb_compare_word_of("") == VSB_CW_UNKNOWN &&
	       vsb_compare_word_of("Slower") == VSB_CW_UNKNOWN,
	       "a word this version does not know is unknown");
}

static void test_round_trip(void)
{
	static const char *const params[] = { "threshold", "nthreads" };
	const char *pa[] = { "125", "4" }, *pb[] = { "0", "1" };
	const struct vsb_compare_row rows[] = {
		{ .index = 0, .label = "threshold=125 nthreads=4", .params = pa,
		  .unit = "ns", .n_base = 30, .n_new = 31, .median_base = 101.5,
		  .median_new = 112.25, .ratio = 1.10591, .ratio_ci_lo = 1.0625,
		  .ratio_ci_hi = 1.15, .p = 0.0012, .exact = 1, .noise_pct = 2.5,
		  .verdict = VSB_CW_SLOWER, .regression = 1, .runs_base = 5,
		  .runs_new = 5, .between_cv_pct = 1.25, .test = "runs",
		  .mde_pct = 3.5, .rule = "rank", .change = "", .why = "",
		  .p_adj = 0.0048 },
		{ .index = 1, .label = "a, with a comma", .params = pb,
		  .unit = "insn", .n_base = 3, .n_new = 3, .median_base = 812,
		  .median_new = 815, .ratio = 1.00369, .ratio_ci_lo = 1.00369,
		  .ratio_ci_hi = 1.00369, .p = NAN, .exact = 0, .noise_pct = 0.1,
		  .verdict = VSB_CW_CHANGED, .regression = 0, .runs_base = 0,
		  .runs_new = 0, .between_cv_pct = NAN, .test = "exact",
		  .mde_pct = INFINITY, .rule = "none",
		  .change = "+3 insn, +1 sti", .why = "skl and zen4 disagree, one way",
		  .p_adj = NAN },
		{ .index = 2, .label = "only here", .params = pb, .unit = "ns",
		  .n_base = 10, .n_new = 0, .median_base = 7, .median_new = NAN,
		  .ratio = NAN, .ratio_ci_lo = NAN, .ratio_ci_hi = NAN, .p = NAN,
		  .noise_pct = 0, .verdict = VSB_CW_ONLY_BASE, .between_cv_pct = NAN,
		  .test = "none", .mde_pct = NAN, .rule = "none", .change = "",
		  .why = "", .p_adj = NAN },
	};
	size_t n = sizeof(rows) / sizeof(rows[0]), i, ok = 0;
	char path[] = "/tmp/vsb-compare-csv-XXXXXX";
	struct vsb_compare_file back;
	FILE *f = new_file(path, NULL);

	if (!f) {
		TAP_OK(0, "a file in /tmp for the round trip");
		return;
	}
	fputs("# base: b.csv\n# new: n.csv\n", f);
	vsb_compare_csv_header(f, params, 2);
	for (i = 0; i < n; i++)
		vsb_compare_csv_row(f, &rows[i], 2);
	fclose(f);
	TAP_OK(!vsb_compare_csv_read(path, &back) && back.n == n,
	       "the written file reads back, %zu rows", back.n);
	for (i = 0; i < n && i < back.n; i++) {
		TAP_OK(same_row(&rows[i], &back.rows[i]), "row %zu (%s) reads back "
		       "field for field", i, rows[i].label);
		ok += !strcmp(back.rows[i].verdict_word, vsb_compare_word(rows[i].verdict));
	}
	TAP_OK(ok == n, "each row's word as written is kept for display");
	TAP_OK(back.n == n &&
	       !strcmp(vsb_csv_cell(&back.csv, 0, vsb_csv_col(&back.csv, "threshold")), "125") &&
	       !strcmp(vsb_csv_cell(&back.csv, 0, vsb_csv_col(&back.csv, "nthreads")), "4") &&
	       vsb_csv_col(&back.csv, "nthreads") == 3 &&
	       vsb_csv_col(&back.csv, VSB_CMPCOL_UNIT) == 4,
	       "the parameter columns sit between label and unit, by name");
	TAP_OK(back.n == n && vsb_compare_drawable(&back.csv),
	       "a file with a finite ratio and CI is drawable");
	vsb_compare_csv_free(&back);
	unlink(path);
}

/* compare.csv before between_cv_pct, test, mde_pct, rule, change, why, p_adj */
static void test_old_file(void)
{
	char path[] = "/tmp/vsb-compare-old-XXXXXX";
	struct vsb_compare_file back;
	int ok;

	if (!new_file(path, "# base: b\nindex,label,threshold,unit,n_base,n_new,"
		      "median_base,median_new,ratio,ratio_ci_lo,ratio_ci_hi,p,exact,"
		      "noise_pct,verdict,regression\n"
		      "0,t=1,1,ns,10,10,100,101,1.01,0.99,1.03,0.4,1,2,no-change,0\n"
		      "1,t=2,2,ns,10,10,100,90,0.9,0.88,0.92,0.001,1,2,faster,0\n")) {
		TAP_OK(0, "a file in /tmp for an old compare.csv");
		return;
	}
	ok = !vsb_compare_csv_read(path, &back);
	TAP_OK(ok && back.n == 2, "a compare.csv without the newer columns reads");
	TAP_OK(ok && back.n == 2 && back.rows[0].verdict == VSB_CW_SAME &&
	       !strcmp(back.rows[0].verdict_word, "no-change") &&
	       back.rows[1].verdict == VSB_CW_FASTER,
	       "its no-change is same, shown as written; faster is faster");
	TAP_OK(ok && back.n == 2 && back.rows[1].median_new == 90 &&
	       back.rows[1].ratio == 0.9 && back.rows[1].n_base == 10 &&
	       !strcmp(back.rows[1].unit, "ns"),
	       "its numbers read by name past a parameter column");
	TAP_OK(ok && back.n == 2 && isnan(back.rows[0].between_cv_pct) &&
	       isnan(back.rows[0].mde_pct) && isnan(back.rows[0].p_adj) &&
	       !strcmp(back.rows[0].test, "") && !strcmp(back.rows[0].rule, "") &&
	       back.rows[0].runs_base == 0,
	       "what it lacks comes back empty: NAN, \"\" and 0");
	if (ok)
		vsb_compare_csv_free(&back);
	unlink(path);
}

/* @text refused by the reader with an error naming the file */
static void refused(const char *text, const char *what)
{
	char path[] = "/tmp/vsb-compare-bad-XXXXXX";
	struct vsb_compare_file back;
	struct vsb_errlog log;
	int ret;

	if (!new_file(path, text)) {
		TAP_OK(0, "a file in /tmp for %s", what);
		return;
	}
	vsb_errlog_begin(&log);
	ret = vsb_compare_csv_read(path, &back);
	vsb_errlog_end(&log);
	TAP_OK(ret == VSB_EXIT_ERROR && strstr(log.text, path) &&
	       strstr(log.text, "not a compare.csv"),
	       "%s: refused, naming the file: %s", what, log.text);
	if (!ret)
		vsb_compare_csv_free(&back);
	unlink(path);
}

static void test_refusals(void)
{
	char path[] = "/tmp/vsb-compare-unk-XXXXXX";
	struct vsb_compare_file back;
	int ok;

	refused("index,label,unit,ratio\n0,a,ns,1\n", "no verdict column");
	refused("index,unit,ratio,verdict\n0,ns,1,same\n", "no label column");
	if (!new_file(path, "label,verdict\na,sideways\nb,slower\n")) {
		TAP_OK(0, "a file in /tmp for an unknown word");
		return;
	}
	ok = !vsb_compare_csv_read(path, &back);
	TAP_OK(ok && back.n == 2 && back.rows[0].verdict == VSB_CW_UNKNOWN &&
	       !strcmp(back.rows[0].verdict_word, "sideways") &&
	       back.rows[1].verdict == VSB_CW_SLOWER && isnan(back.rows[1].ratio) &&
	       !strcmp(back.rows[1].unit, ""),
	       "an unknown word reads as unknown, kept as written; the rest read");
	TAP_OK(ok && !vsb_compare_drawable(&back.csv),
	       "a file without ratios is not drawable");
	if (ok)
		vsb_compare_csv_free(&back);
	unlink(path);
}

int main(void)
{
	test_words();
	test_round_trip();
	test_old_file();
	test_refusals();
	return tap_done();
}
