// SPDX-License-Identifier: GPL-2.0
/*
 * The compare library (harness/lib/judge/compare.c) on the hand-written raw
 * CSVs of tests/fixtures/compare/, whose answers are known: BASE's
 * this-cpu-add has per-repetition means 10..14 (two workers averaged),
 * a slower NEW 20..24 (x1.8333, completely separated 5 vs 5: exact
 * two-sided Mann-Whitney p = 2/252), a faster one 5..7 (x0.5); the
 * cmpxchg-local point is the same on every side (a tie).  Also: points
 * on one side only, units that differ, an empty side, several runs on a
 * side and a sweep folder's points.txt.
 *
 * Runs as the unit: the hierarchical statistics of stats.h on synthetic
 * runs, and compare on the fixtures make-runs.sh writes (a between-run
 * spread that pooled repetitions would call a regression; a real 10%
 * slowdown in every run; two runs a side; two files of one run_id).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_model.h"
#include "compare.h"
#include "stats.h"
#include "vsb.h"
#include "tap.h"

/*
 * The per-point rule, each fixture point at alpha on its own; alpha
 * shared over the points (compare's default) is test_family() here and
 * test_family.c.
 */
static const struct vsb_cmp_opts opts = {
	.alpha = 0.01, .noise_pct = 2, .max_regression_pct = 5, .per_point = 1,
};

static char fixtures[4096];
static char errbuf[4096];

static const char *fx(const char *name)
{
	static char path[4][4096 + 64];
	static int slot;

	slot = (slot + 1) % 4;
	snprintf(path[slot], sizeof(path[slot]), "%s/%s", fixtures, name);
	return path[slot];
}

/* the messages between these two recorded (errlog.c) into errbuf */
static struct vsb_errlog errlog;

static void capture(void)
{
	vsb_errlog_begin(&errlog);
}

static void release(void)
{
	vsb_errlog_end(&errlog);
	snprintf(errbuf, sizeof(errbuf), "%s", errlog.text);
}

/* load BASE and NEW, match; judge with @o when that worked; the status */
static int run_opts(struct vsb_compare *c, const char *base, const char *new,
		    const struct vsb_cmp_opts *o)
{
	int ret;

	vsb_cmp_init(c);
	ret = vsb_cmp_load(c, &c->base, base);
	ret = ret ?: vsb_cmp_load(c, &c->new, new);
	ret = ret ?: vsb_cmp_match(c);
	if (!ret)
		vsb_cmp_judge(c, o);
	return ret;
}

static int run(struct vsb_compare *c, const char *base, const char *new)
{
	return run_opts(c, base, new, &opts);
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
	/* ratio 1, CI [1, 1], but its 5 repetitions spread 20..24: a floor of 7% */
	TAP_OK(tie && !strcmp(tie->verdict, "inconclusive") && !tie->regression &&
	       tie->noise > 0.05 && tie->mde >= tie->noise,
	       "identical samples, but a floor (%.1f%%) wider than 5%%: inconclusive, "
	       "MDE %.1f%%", tie ? 100 * tie->noise : NAN, tie ? 100 * tie->mde : NAN);
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
	TAP_OK(both && (!strcmp(both->verdict, "same") ||
			!strcmp(both->verdict, "inconclusive")), "the common point is judged");
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
		TAP_OK(!strcmp(v->verdict, "inconclusive") && v->mde > 0.05,
		       "not different, but 3 and 3 repetitions cannot show the same "
		       "within 5%%: inconclusive (MDE %.0f%%)", 100 * v->mde);
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

/* ---- runs as the unit ---- */

/* @nr runs of @per samples: centre[r] x (1 + spread x (j - mid) / per) */
static void make_runs(double *v, size_t *off, const double *centre, size_t nr,
		      size_t per, double spread, struct vsb_runs *r)
{
	size_t i, j;

	for (i = 0; i < nr; i++) {
		off[i] = i * per;
		for (j = 0; j < per; j++)
			v[i * per + j] = centre[i] *
				(1 + spread * ((double)j - (double)(per - 1) / 2) / (double)per);
	}
	off[nr] = nr * per;
	*r = (struct vsb_runs){ .v = v, .off = off, .nruns = nr };
}

static void test_runs_stats(void)
{
	static const double cb[] = { 94, 97, 100, 103, 106 };
	static const double cn[] = { 103, 106, 94, 100, 97 };	/* cb shuffled */
	double vb[5 * 9], vn[5 * 9], pooled[5 * 9], lo, hi, lo2, hi2, c10[5];
	size_t ob[6], on[6], i;
	struct vsb_runs rb, rn;

	TAP_NEAR(vsb_mwu_min_p(5, 5), 2.0 / 252, 1e-12, "min p 5 vs 5: 2/252");
	TAP_NEAR(vsb_mwu_min_p(3, 3), 0.1, 1e-12, "min p 3 vs 3: 0.1 (never < 0.01)");
	TAP_NEAR(vsb_mwu_min_p(4, 6), 2.0 / 210, 1e-12, "min p 4 vs 6: 2/210");
	TAP_NEAR(vsb_mwu_min_p(1, 1), 1, 1e-12, "min p 1 vs 1: 1");

	make_runs(vb, ob, cb, 5, 9, 0.01, &rb);
	make_runs(vn, on, cn, 5, 9, 0.01, &rn);
	TAP_NEAR(vsb_runs_stat(&rb, VSB_RUNS_MEDIANS), 100, 1e-9,
		 "median of run medians 100");
	/* deviations 0, 3, 3, 6, 6%% a side: median 3%% x 1.4826 */
	TAP_NEAR(vsb_runs_between_cv(&rb, &rn), 0.03 * 1.4826, 1e-9,
		 "between-run CV, robust, pooled over both sides: 4.45%%");
	memcpy(pooled, vb, sizeof(vb));
	for (i = 4 * 9; i < 5 * 9; i++)
		pooled[i] *= 10;	/* run 5 disturbed: 10x slower */
	TAP_NEAR(vsb_runs_between_cv(&(struct vsb_runs){ pooled, ob, 5 }, &rn),
		 0.03 * 1.4826, 1e-9, "one disturbed run does not move it");
	TAP_OK(isnan(vsb_runs_between_cv(&(struct vsb_runs){ vb, ob, 1 },
					 &(struct vsb_runs){ vn, on, 1 })),
	       "one run a side: between-run CV unknown (NAN)");

	/* the same runs in another order: noise, and the CI says how much */
	vsb_runs_ratio_ci(&rb, &rn, VSB_RUNS_MEDIANS, VSB_BOOT_SEED, &lo, &hi);
	TAP_OK(lo < 1 && hi > 1 && lo < 0.97 && hi > 1.03,
	       "between-run spread: the CI holds 1 and is run-wide [%.3f, %.3f]", lo,
	       hi);
	vsb_runs_ratio_ci(&rb, &rn, VSB_RUNS_MEDIANS, VSB_BOOT_SEED, &lo2, &hi2);
	TAP_OK(lo == lo2 && hi == hi2, "seeded: the same data give the same CI");

	/* a real 10%% in every run, runs tight (98..102) */
	for (i = 0; i < 5; i++)
		c10[i] = 1.10 * (98 + (double)i);
	make_runs(vb, ob, (const double[]){ 98, 99, 100, 101, 102 }, 5, 9, 0.01, &rb);
	make_runs(vn, on, c10, 5, 9, 0.01, &rn);
	vsb_runs_ratio_ci(&rb, &rn, VSB_RUNS_MEDIANS, VSB_BOOT_SEED, &lo, &hi);
	TAP_OK(lo > 1.05 && lo <= 1.10 && hi >= 1.10 && hi < 1.15,
	       "a 10%% shift in every run: CI [%.3f, %.3f] holds 1.10, excludes 1",
	       lo, hi);

	/* pooled statistic over uneven runs: every sample counts once */
	memcpy(pooled, (const double[]){ 1, 2, 3, 10, 11 }, 5 * sizeof(double));
	rb = (struct vsb_runs){ pooled, (const size_t[]){ 0, 3, 5 }, 2 };
	TAP_NEAR(vsb_runs_stat(&rb, VSB_RUNS_POOLED), 3, 1e-12, "pooled median 3");
	TAP_NEAR(vsb_runs_stat(&rb, VSB_RUNS_MEDIANS), 6.25, 1e-12,
		 "median of run medians (2, 10.5): 6.25");
}

/* The two-sided exact p with ties by brute force over every split. */
static double brute_p(const double *x, size_t na, size_t n)
{
	double obs = 0, mean = 0, tail = 0, total = 0, rk[16];
	unsigned int m, i, j;

	for (i = 0; i < n; i++) {
		double lt = 0, eq = 0;

		for (j = 0; j < n; j++) {
			lt += x[j] < x[i];
			eq += x[j] == x[i];
		}
		rk[i] = lt + (eq + 1) / 2;	/* midrank */
		obs += i < na ? rk[i] : 0;
	}
	mean = (double)na * (double)(n + 1) / 2;
	for (m = 0; m < 1u << n; m++) {
		double sum = 0;

		if ((size_t)__builtin_popcount(m) != na)
			continue;
		for (i = 0; i < n; i++)
			sum += (m >> i & 1) ? rk[i] : 0;
		total++;
		tail += fabs(sum - mean) >= fabs(obs - mean) - 1e-9;
	}
	return tail / total;
}

static void test_exact_ties(void)
{
	static const double sep[] = { 1, 2, 2, 3, 4, 5, 6, 7, 8, 9 };
	static const double mix[] = { 1, 3, 3, 5, 3, 4, 5, 6, 6 };
	static const double none[] = { 1.5, 2, 7, 4, 3, 9, 8, 6 };
	struct vsb_mwu mw, plain;

	vsb_mwu_exact_ties(sep, 5, sep + 5, 5, &mw);
	vsb_mann_whitney(sep, 5, sep + 5, 5, &plain);
	TAP_OK(mw.exact && fabs(mw.p - 2.0 / 252) < 1e-12 && plain.p > 0.01,
	       "5 vs 5 apart, a tie inside one side: exact p 2/252 (normal approx. %.4f)",
	       plain.p);
	vsb_mwu_exact_ties(mix, 4, mix + 4, 5, &mw);
	TAP_NEAR(mw.p, brute_p(mix, 4, 9), 1e-12,
		 "ties across the sides: p %.4f, as every split counted by hand", mw.p);
	vsb_mwu_exact_ties(none, 4, none + 4, 4, &mw);
	vsb_mann_whitney(none, 4, none + 4, 4, &plain);
	TAP_OK(mw.p == plain.p && mw.exact, "no ties: the same p as vsb_mann_whitney");
	TAP_NEAR(mw.p, brute_p(none, 4, 8), 1e-12, "... and as every split counted");
}

static void test_runs_compare(void)
{
	const struct vsb_cmp_verdict *v;
	struct vsb_compare c;

	TAP_OK(run(&c, fx("shift/base"), fx("shift/new")) == 0, "shift: loads");
	v = c.nv == 1 ? &c.vs[0] : NULL;
	TAP_OK(v && v->rb == 5 && v->rn == 5 && v->by_runs,
	       "5 runs a side (one per run_id): per-run medians tested");
	if (v) {
		struct vsb_mwu mw;

		vsb_mann_whitney(v->b->v, v->b->n, v->n->v, v->n->n, &mw);
		TAP_OK(mw.p < 0.001 && v->ratio > 1.05,
		       "pooled, 25 vs 25 would call +%.1f%% significant (p %.2g)",
		       100 * (v->ratio - 1), mw.p);
		TAP_OK(v->p > 0.1, "per run it is not (p %.3f)", v->p);
		TAP_NEAR(v->noise, 2 * v->between, 1e-12,
			 "floor 2 x between-run CV (%.1f%%)", 100 * v->noise);
		TAP_OK(!strcmp(v->verdict, "inconclusive") && !v->regression &&
		       v->mde >= v->noise && !(v->lo >= 0.95 && v->hi <= 1.05),
		       "a between-run shift is noise, not a regression, nor the same: "
		       "inconclusive, CI [%.3f, %.3f], MDE %.1f%%", v->lo, v->hi,
		       100 * v->mde);
	}
	TAP_OK(c.nreg == 0 && c.one_run == 0 && c.few_runs == 0, "no warning to give");
	vsb_cmp_free(&c);

	TAP_OK(run(&c, fx("ten/base"), fx("ten/new")) == 0, "ten: loads");
	v = c.nv == 1 ? &c.vs[0] : NULL;
	if (v) {
		TAP_NEAR(v->ratio, 1.10, 1e-9, "ratio of run-median medians 1.10");
		TAP_NEAR(v->p, 2.0 / 252, 1e-9, "runs completely separated: p 2/252");
		TAP_OK(v->lo > 1 && v->hi >= 1.10, "CI [%.3f, %.3f] excludes 1", v->lo,
		       v->hi);
		TAP_OK(!strcmp(v->verdict, "slower") && v->regression,
		       "a real 10%% slowdown in every run: slower, a regression");
	} else {
		TAP_OK(0, "ten: one point");
	}
	vsb_cmp_free(&c);

	TAP_OK(run(&c, fx("two/base"), fx("two/new")) == 0, "two: loads");
	v = c.nv == 1 ? &c.vs[0] : NULL;
	TAP_OK(v && !v->by_runs && v->rb == 2 && c.few_runs == 1 && c.fewest_runs == 2,
	       "2 runs a side: repetitions pooled, counted as too few runs");
	if (v) {
		TAP_OK(v->noise >= 2 * v->between && v->between > 0.06,
		       "the floor still takes in the between-run spread (%.1f%%)",
		       100 * v->noise);
		TAP_OK(!strcmp(v->verdict, "inconclusive"), "+4%% across runs 10%% apart: "
		       "inconclusive");
	}
	vsb_cmp_free(&c);

	TAP_OK(run(&c, fx("runid"), fx("base.csv")) == 0, "runid: loads");
	TAP_OK(c.base.nruns == 2 && c.base.n == 1 && c.base.pts[0].n == 15,
	       "3 files, 2 run ids: 2 runs, 15 repetitions of one point");
	TAP_OK(c.one_run == 0, "not a one-run side");
	vsb_cmp_free(&c);
}

/*
 * --runs-only (what ab passes, a boot being a run): too few runs for the
 * rank test is `few-runs`, never a verdict from pooled repetitions, even
 * where the pooled test would call a regression; enough runs judge as
 * before.
 */
static void test_runs_only(void)
{
	struct vsb_cmp_opts ro = opts;
	const struct vsb_cmp_verdict *v;
	struct vsb_compare c;

	ro.runs_only = 1;
	TAP_OK(run_opts(&c, fx("base.csv"), fx("slower.csv"), &ro) == 0,
	       "runs-only: one run a side loads");
	v = find(&c, "this-cpu-add");
	TAP_OK(v && !strcmp(v->verdict, "few-runs") && !v->regression && c.nreg == 0,
	       "one run a side, +83%% pooled: few-runs, no regression");
	TAP_OK(v && fabs(v->ratio - 22.0 / 12) < 1e-12,
	       "the ratio is still shown (%.4f)", v ? v->ratio : NAN);
	TAP_OK(c.one_run == 2, "both points counted as one run a side");
	vsb_cmp_free(&c);

	TAP_OK(run_opts(&c, fx("two/base"), fx("two/new"), &ro) == 0,
	       "runs-only: two runs a side loads");
	TAP_OK(c.nv == 1 && !strcmp(c.vs[0].verdict, "few-runs") && c.few_runs == 1,
	       "2 runs a side: few-runs");
	vsb_cmp_free(&c);

	TAP_OK(run_opts(&c, fx("ten/base"), fx("ten/new"), &ro) == 0,
	       "runs-only: five runs a side loads");
	v = c.nv == 1 ? &c.vs[0] : NULL;
	TAP_OK(v && v->by_runs && !strcmp(v->verdict, "slower") && v->regression &&
	       c.nreg == 1, "5 runs a side, +10%% in every run: still a regression");
	vsb_cmp_free(&c);
}

/*
 * compare's default noise model (AUTO, issue 20): a point is judged only
 * where its between-run noise is known.  Runs enough a side judge as
 * before; one run a side is `no-model` unless the store's spread of the
 * point is known (set by hand here: compare_store.c fills it from a
 * store, tests/cli/test_compare_auto.sh runs that end to end); 2 runs a
 * side are `few-runs`.  Nothing unjudged is ever a regression.
 */
static void test_auto(void)
{
	struct vsb_cmp_opts ao = opts;
	const struct vsb_cmp_verdict *v;
	struct vsb_compare c;

	ao.model = VSB_CMP_MODEL_AUTO;
	TAP_OK(run_opts(&c, fx("ten/base"), fx("ten/new"), &ao) == 0, "auto: ten loads");
	v = c.nv == 1 ? &c.vs[0] : NULL;
	TAP_OK(v && !strcmp(v->verdict, "slower") && v->regression &&
	       !strcmp(v->model, "runs") && c.by_runs == 1,
	       "known slowdown, 5 runs a side: slower, a regression, model runs");
	vsb_cmp_free(&c);

	TAP_OK(run_opts(&c, fx("shift/base"), fx("shift/new"), &ao) == 0, "auto: shift loads");
	v = c.nv == 1 ? &c.vs[0] : NULL;
	TAP_OK(v && !strcmp(v->verdict, "inconclusive") && !v->regression &&
	       !strcmp(v->model, "runs"), "A/A spread between runs: inconclusive, model runs");
	vsb_cmp_free(&c);

	TAP_OK(run_opts(&c, fx("base.csv"), fx("slower.csv"), &ao) == 0,
	       "auto: one run a side loads");
	v = find(&c, "this-cpu-add");
	TAP_OK(v && !strcmp(v->verdict, "no-model") && !v->regression && c.nreg == 0 &&
	       !strcmp(v->model, "none") && c.no_model == 2,
	       "one run a side, +83%% pooled, no noise model: no-model, no regression");
	TAP_OK(v && fabs(v->ratio - 22.0 / 12) < 1e-12, "the ratio is still shown");
	vsb_cmp_free(&c);

	/* the same with a store that knows the point: judged by its spread */
	vsb_cmp_init(&c);
	TAP_OK(!vsb_cmp_load(&c, &c.base, fx("base.csv")) &&
	       !vsb_cmp_load(&c, &c.new, fx("slower.csv")) && !vsb_cmp_match(&c),
	       "auto: loaded again for the store's model");
	for (size_t i = 0; i < c.nv; i++)
		if (c.vs[i].b) {
			c.vs[i].b->store_cv = 0.05;
			c.vs[i].b->store_runs = VSB_CMP_STORE_MIN_RUNS;
		}
	vsb_cmp_judge(&c, &ao);
	v = find(&c, "this-cpu-add");
	TAP_OK(v && !strcmp(v->verdict, "slower") && v->regression &&
	       !strcmp(v->model, "store") && c.by_store == 2,
	       "store CV 5%%: +83%% is beyond z x sqrt 2 x 5%%: slower, model store");
	TAP_NEAR(v ? v->noise : NAN, 2.5758293 * M_SQRT2 * 0.05, 1e-5,
		 "its floor z(0.01) x sqrt(2) x CV (%.2f%%)", v ? 100 * v->noise : NAN);
	for (size_t i = 0; i < c.nv; i++)
		if (c.vs[i].b) {
			c.vs[i].b->store_cv = 0.5;
			c.vs[i].b->store_runs = VSB_CMP_STORE_MIN_RUNS - 1;
		}
	vsb_cmp_judge(&c, &ao);
	v = find(&c, "this-cpu-add");
	TAP_OK(v && !strcmp(v->verdict, "no-model"), "fewer stored runs than %d: no-model",
	       VSB_CMP_STORE_MIN_RUNS);
	vsb_cmp_free(&c);

	TAP_OK(run_opts(&c, fx("two/base"), fx("two/new"), &ao) == 0, "auto: two loads");
	TAP_OK(c.nv == 1 && !strcmp(c.vs[0].verdict, "few-runs") && c.nreg == 0,
	       "2 runs a side: few-runs, not judged from pooled repetitions");
	vsb_cmp_free(&c);
}

/* Labels: the counter's variant, kstat's op, else the bench; then only
 * what varies among the points of the same bench. */
static void test_labels(void)
{
	static const char *const want[] = {
		"cmpxchg-local", "cmpxchg-locked", "kstat mod-zone cpus=0",
		"kstat mod-zone cpus=0-1", "kstat mod-node cpus=0", "page-alloc",
	};
	struct vsb_compare c;
	size_t i, ok = 0;
	int ret = run(&c, fx("mixed.csv"), fx("mixed.csv"));

	TAP_OK(!ret && c.nv == 6, "three benches matched: 6 points (%zu)", c.nv);
	for (i = 0; !ret && i < c.nv && i < 6; i++) {
		ok += !strcmp(c.vs[i].label, want[i]);
		if (strcmp(c.vs[i].label, want[i]))
			printf("#   label %zu: '%s', want '%s'\n", i, c.vs[i].label, want[i]);
	}
	TAP_OK(ok == 6, "labels name each bench's own selector, no other bench's options");
	vsb_cmp_free(&c);
}

/*
 * The same +83% at 5 repetitions a side (p 2/252), now with alpha shared
 * over the two points the rank test judged: Benjamini-Hochberg doubles
 * the smaller p (the other's is 1) to 0.0159 > 0.01, so no slower (and
 * no regression) is called, and the MDE says at these counts none could
 * be (alpha / 2 is out of reach).
 */
static void test_family(void)
{
	struct vsb_cmp_opts fo = opts;
	const struct vsb_cmp_verdict *v;
	struct vsb_compare c;

	fo.per_point = 0;
	TAP_OK(run_opts(&c, fx("base.csv"), fx("slower.csv"), &fo) == 0,
	       "family: base vs slower loads");
	TAP_OK(c.family == 2, "family: the 2 judged points share alpha (%zu)", c.family);
	v = find(&c, "this-cpu-add");
	TAP_OK(v && fabs(v->p - 2.0 / 252) < 1e-9 && fabs(v->p_adj - 4.0 / 252) < 1e-9,
	       "family: p 2/252, adjusted 2 x 2/252 (%g)", v ? v->p_adj : NAN);
	TAP_OK(v && !strcmp(v->verdict, "inconclusive") && !v->regression && c.nreg == 0,
	       "family: +83%% at p_adj 0.016 is not called (%s)", v ? v->verdict : "?");
	TAP_OK(v && isinf(v->mde), "family: its MDE infinite, 5 and 5 cannot reach 0.005 (%g)", v ? v->mde : NAN);
	vsb_cmp_free(&c);
}

/*
 * The bench table is above lib/judge: this test's stand-in gives two
 * benches label columns as their files do (benches/counter_user.c,
 * kstat.c), the counter first, as in the real table.
 */
static const struct vsb_bench_model *test_models(const char *name)
{
	static const struct vsb_bench_model counter = { .label = "variant" };
	static const struct vsb_bench_model kstat = { .label = "bench op" };

	return !strcmp(name, "counter") ? &counter : !strcmp(name, "kstat") ? &kstat : NULL;
}

int main(void)
{
	const char *root = getenv("VSB_ROOT");

	vsb_bench_models_set(test_models, "counter");

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
	test_runs_stats();
	test_exact_ties();
	test_runs_compare();
	test_runs_only();
	test_auto();
	test_labels();
	test_family();
	return tap_done();
}
