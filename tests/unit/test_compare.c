// SPDX-License-Identifier: GPL-2.0
/*
 * The compare library (harness/lib/compare.c) on the hand-written raw
 * CSVs of tests/fixtures/compare/, whose answers are known: BASE's
 * this-cpu-add has per-repetition means 10..14 (two workers averaged),
 * a slower NEW 20..24 (x1.8333, completely separated 5 vs 5: exact
 * two-sided Mann-Whitney p = 2/252), a faster one 5..7 (x0.5); the
 * cmpxchg-local point is the same on every side (a tie).  Also: points
 * on one side only, units that differ, an empty side, several runs on a
 * side and a sweep folder's points.txt.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare.h"
#include "vsb.h"
#include "tap.h"

static const struct vsb_cmp_opts opts = {
	.alpha = 0.01, .noise_pct = 2, .max_regression_pct = 5,
};

static char fixtures[4096];
static char errbuf[4096];
static int saved_stderr = -1;
static FILE *errfile;

static const char *fx(const char *name)
{
	static char path[4][4096 + 64];
	static int slot;

	slot = (slot + 1) % 4;
	snprintf(path[slot], sizeof(path[slot]), "%s/%s", fixtures, name);
	return path[slot];
}

/* stderr into errbuf between these two, to check what an error says */
static void capture(void)
{
	fflush(stderr);
	errfile = tmpfile();
	saved_stderr = dup(STDERR_FILENO);
	dup2(fileno(errfile), STDERR_FILENO);
}

static void release(void)
{
	size_t n;

	fflush(stderr);
	dup2(saved_stderr, STDERR_FILENO);
	close(saved_stderr);
	rewind(errfile);
	n = fread(errbuf, 1, sizeof(errbuf) - 1, errfile);
	errbuf[n] = '\0';
	fclose(errfile);
}

/* load BASE and NEW, match; judge when that worked; the status */
static int run(struct vsb_compare *c, const char *base, const char *new)
{
	int ret;

	vsb_cmp_init(c);
	ret = vsb_cmp_load(c, &c->base, base);
	ret = ret ?: vsb_cmp_load(c, &c->new, new);
	ret = ret ?: vsb_cmp_match(c);
	if (!ret)
		vsb_cmp_judge(c, &opts);
	return ret;
}

static const struct vsb_cmp_verdict *find(const struct vsb_compare *c,
					  const char *variant)
{
	int k = vsb_cmp_col(c, "variant");
	size_t i;

	for (i = 0; i < c->nv; i++)
		if (!strcmp(vsb_cmp_any(&c->vs[i])->vals[k], variant))
			return &c->vs[i];
	return NULL;
}

static void test_columns(void)
{
	struct vsb_compare c;

	vsb_cmp_init(&c);
	TAP_OK(vsb_cmp_col(&c, "variant") >= 0 && vsb_cmp_col(&c, "cpus") >= 0 &&
	       vsb_cmp_col(&c, "threshold") >= 0, "bench parameters are match columns");
	TAP_OK(vsb_cmp_col(&c, "loops") < 0 && vsb_cmp_col(&c, "repeat") < 0 &&
	       vsb_cmp_col(&c, "warmup") < 0,
	       "loops, repeat, warmup are not (cost is per op)");
	TAP_OK(vsb_cmp_col(&c, "per_op") < 0, "a measurement is not a match column");
	vsb_cmp_free(&c);
}

static void test_regression(void)
{
	const struct vsb_cmp_verdict *v, *tie;
	struct vsb_compare c;

	TAP_OK(run(&c, fx("base.csv"), fx("slower.csv")) == 0, "base vs slower loads");
	TAP_OK(c.nv == 2 && c.unmatched == 0, "two points, both matched (loops differ)");
	v = find(&c, "this-cpu-add");
	TAP_OK(v && v->b && v->n && v->b->n == 5 && v->n->n == 5,
	       "5 repetitions a side; the two workers of a repetition are one sample");
	if (v) {
		TAP_NEAR(v->mb, 12, 1e-12, "base median 12 (worker means 10..14)");
		TAP_NEAR(v->mn, 22, 1e-12, "new median 22");
		TAP_NEAR(v->ratio, 22.0 / 12, 1e-12, "ratio 1.8333");
		TAP_OK(v->lo <= v->ratio && v->ratio <= v->hi && v->lo > 1,
		       "the CI holds the ratio and excludes 1 [%g, %g]", v->lo, v->hi);
		TAP_NEAR(v->p, 2.0 / 252, 1e-9, "exact Mann-Whitney p = 2/252");
		TAP_OK(v->exact, "exact test");
		TAP_OK(!strcmp(v->verdict, "slower") && v->regression,
		       "verdict slower, a regression beyond 5%%");
		TAP_OK(!strcmp(v->label, "this-cpu-add"), "labelled by its variant (%s)",
		       v->label);
	}
	tie = find(&c, "cmpxchg-local");
	TAP_OK(tie && !strcmp(tie->verdict, "no-change") && !tie->regression,
	       "identical samples: no-change");
	if (tie) {
		TAP_NEAR(tie->ratio, 1, 1e-12, "tie: ratio 1");
		TAP_OK(tie->p > 0.5, "tie: p %g, nowhere near alpha", tie->p);
	}
	TAP_OK(c.nreg == 1 && c.fewest == 5, "one regression, fewest 5 repetitions");
	vsb_cmp_free(&c);
}

static void test_improvement(void)
{
	const struct vsb_cmp_verdict *v;
	struct vsb_compare c;

	TAP_OK(run(&c, fx("base.csv"), fx("faster.csv")) == 0, "base vs faster loads");
	v = find(&c, "this-cpu-add");
	TAP_OK(v != NULL, "this-cpu-add matched");
	if (v) {
		TAP_NEAR(v->ratio, 0.5, 1e-12, "ratio 0.5");
		TAP_OK(!strcmp(v->verdict, "faster") && !v->regression,
		       "verdict faster, not a regression");
	}
	TAP_OK(c.nreg == 0, "no regression");
	vsb_cmp_free(&c);

	/* the other way round the same change is a regression */
	TAP_OK(run(&c, fx("faster.csv"), fx("base.csv")) == 0 && c.nreg == 1,
	       "swapped sides: the regression");
	vsb_cmp_free(&c);
}

static void test_missing(void)
{
	const struct vsb_cmp_verdict *ob, *on, *both;
	struct vsb_compare c;

	TAP_OK(run(&c, fx("base.csv"), fx("missing.csv")) == 0, "base vs missing loads");
	ob = find(&c, "this-cpu-add");
	on = find(&c, "atomic-global");
	both = find(&c, "cmpxchg-local");
	TAP_OK(c.nv == 3 && c.unmatched == 2, "3 rows, 2 of them on one side");
	TAP_OK(ob && ob->b && !ob->n && !strcmp(ob->verdict, "only-base"),
	       "a point only in BASE is reported as only-base");
	TAP_OK(on && !on->b && on->n && !strcmp(on->verdict, "only-new"),
	       "a point only in NEW is reported as only-new");
	if (ob && on) {
		TAP_OK(isnan(ob->ratio) && isnan(ob->p) && !ob->regression &&
		       isnan(on->ratio) && !on->regression, "neither is judged");
		TAP_NEAR(ob->mb, 12, 1e-12, "only-base keeps its median");
		TAP_NEAR(on->mn, 32, 1e-12, "only-new keeps its median");
	}
	TAP_OK(c.nv && &c.vs[c.nv - 1] == on, "NEW's extra point comes last");
	TAP_OK(both && !strcmp(both->verdict, "no-change"), "the common point is judged");
	vsb_cmp_free(&c);
}

static void test_units(void)
{
	struct vsb_compare c;
	int ret;

	capture();
	ret = run(&c, fx("base.csv"), fx("ns.csv"));
	release();
	TAP_OK(ret == VSB_EXIT_USAGE, "tsc vs ns: refused with a usage error (%d)", ret);
	TAP_OK(strstr(errbuf, "different units (tsc vs ns)") &&
	       strstr(errbuf, "refusing to compare"), "the error names both units");
	TAP_OK(c.vs && c.nv == 2, "refused at matching, before any verdict");
	vsb_cmp_free(&c);
}

static void test_empty(void)
{
	struct vsb_compare c;
	int ret;

	TAP_OK(run(&c, fx("base.csv"), fx("empty.csv")) == 0,
	       "a file without samples is an empty side, not an error");
	TAP_OK(c.new.n == 0 && c.nv == 2 && c.unmatched == 2 && c.nreg == 0,
	       "every BASE point unmatched, nothing judged");
	vsb_cmp_free(&c);

	capture();
	ret = run(&c, fx("empty-dir"), fx("base.csv"));
	release();
	TAP_OK(ret == VSB_EXIT_USAGE && strstr(errbuf, "no finished points with raw samples"),
	       "a folder without raw CSVs is refused");
	vsb_cmp_free(&c);

	capture();
	ret = run(&c, fx("base.csv"), fx("nope.csv"));
	release();
	TAP_OK(ret == VSB_EXIT_USAGE && strstr(errbuf, "no such file"),
	       "a missing side is a usage error");
	vsb_cmp_free(&c);
}

static void test_runs(void)
{
	const struct vsb_cmp_verdict *v;
	struct vsb_compare c;

	TAP_OK(run(&c, fx("runs"), fx("sweep")) == 0, "a folder of runs vs a sweep folder");
	TAP_OK(c.base.n == 1 && c.base.pts[0].n == 6,
	       "two runs of 3 repetitions make one point of 6 samples (summary not read)");
	TAP_OK(c.new.n == 1, "the sweep folder: only the point points.txt calls done");
	v = find(&c, "this-cpu-add");
	if (v && v->b && v->n) {
		TAP_NEAR(v->mb, 12.5, 1e-12, "base median over both runs: 12.5");
		TAP_NEAR(v->mn, 12, 1e-12, "new median 12");
		TAP_OK(!strcmp(v->verdict, "no-change"), "no-change");
	} else {
		TAP_OK(0, "this-cpu-add matched across the folders");
	}
	vsb_cmp_free(&c);

	/* a side may be given as several paths: repetitions add up */
	vsb_cmp_init(&c);
	TAP_OK(!vsb_cmp_load(&c, &c.base, fx("runs/run1.csv")) &&
	       !vsb_cmp_load(&c, &c.base, fx("runs/run2.csv")) &&
	       c.base.n == 1 && c.base.pts[0].n == 6, "two files loaded into one side");
	vsb_cmp_free(&c);
}

static void test_ignore(void)
{
	const struct vsb_cmp_verdict *v;
	struct vsb_compare c;
	int k;

	/* variant ignored: BASE's this-cpu-add vs NEW's atomic-global ... */
	vsb_cmp_init(&c);
	k = vsb_cmp_col(&c, "variant");
	c.ignored |= 1u << k;
	TAP_OK(!vsb_cmp_load(&c, &c.base, fx("sweep/p-done.csv")) &&
	       !vsb_cmp_load(&c, &c.new, fx("sweep/p-stale.csv")) &&
	       !vsb_cmp_match(&c), "--ignore variant: loads and matches");
	vsb_cmp_judge(&c, &opts);
	v = c.nv ? &c.vs[0] : NULL;
	TAP_OK(c.nv == 1 && v && v->b && v->n, "the two variants are one point");
	TAP_OK(v && !strcmp(v->label, "this-cpu-add"), "labelled with BASE's values");
	vsb_cmp_free(&c);
}

int main(void)
{
	const char *root = getenv("VSB_ROOT");

	snprintf(fixtures, sizeof(fixtures), "%s/tests/fixtures/compare",
		 root && *root ? root : ".");
	test_columns();
	test_regression();
	test_improvement();
	test_missing();
	test_units();
	test_empty();
	test_runs();
	test_ignore();
	return tap_done();
}
