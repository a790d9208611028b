// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of harness/lib/judge/history.c on series built by hand, as the
 * store would return them (no database): kernel version order, the
 * three history orders, per-entry medians and CIs, splitting by
 * machine, mixed units refused, change points at a known step and the
 * --check verdict on a regressed and on a flat history.  Also the
 * parameter reader of history_query.c (the store's JSON objects).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vsb.h"
#include "history.h"
#include "tap.h"

static void test_vercmp(void)
{
	static const char *const asc[] = {
		"5.10.0-30-amd64", "6.1.0-9-cloud-amd64", "6.1.0-10-cloud-amd64",
		"6.1.0-47-cloud-amd64", "6.1.0-57-cloud-amd64", "6.2-rc3", "6.2",
		"6.2.1", "6.12.100+deb12-cloud-amd64", "6.12.101+deb12-cloud-amd64",
		"6.12.110+deb12-cloud-amd64", "6.18.44",
	};
	size_t n = sizeof(asc) / sizeof(asc[0]), i, j, bad = 0;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			int c = vsb_kernel_vercmp(asc[i], asc[j]);

			if ((i < j && c >= 0) || (i > j && c <= 0) || (i == j && c))
				bad++;
		}
	TAP_OK(!bad, "kernel releases: 6.1.0-9 < 6.1.0-57 < 6.12.100+deb12, -rc before "
	       "its release (%zu pairs wrong)", bad);
	TAP_OK(vsb_kernel_vercmp("6.1.0-09", "6.1.0-9") == 0, "leading zeros do not count");
}

/* A series of n runs: kernel, date, revision and a level per run. */
struct fake {
	struct vsb_series se;
	struct vsb_series_run runs[64];
	double samples[64][5];
};

static void fake_run(struct fake *f, const char *machine, const char *kernel,
		     const char *rev, const char *date, double level, const char *unit)
{
	struct vsb_series_run *r = &f->runs[f->se.n];
	size_t k;

	memset(r, 0, sizeof(*r));
	snprintf(r->run_id, sizeof(r->run_id), "run-%zu", f->se.n);
	snprintf(r->machine, sizeof(r->machine), "%s", machine);
	snprintf(r->cpu_model, sizeof(r->cpu_model), "Test CPU");
	snprintf(r->kernel, sizeof(r->kernel), "%s", kernel);
	snprintf(r->revision, sizeof(r->revision), "%s", rev);
	snprintf(r->date, sizeof(r->date), "%s", date);
	snprintf(r->unit, sizeof(r->unit), "%s", unit);
	/* five repetitions around the level: median = level */
	for (k = 0; k < 5; k++)
		f->samples[f->se.n][k] = level * (1 + 0.001 * ((double)k - 2));
	r->samples = f->samples[f->se.n];
	r->n = 5;
	f->se.runs = f->runs;
	f->se.n++;
}

static void test_orders(void)
{
	static struct fake f;
	struct vsb_hist_series *hs;
	size_t n;

	memset(&f, 0, sizeof(f));
	snprintf(f.se.point_key, sizeof(f.se.point_key), "bench=counter");
	/* stored in date order; kernels and revisions out of it */
	fake_run(&f, "m-a", "6.12.100+deb12", "bbb", "2026-01-01T00:00:00Z", 10, "tsc");
	fake_run(&f, "m-a", "6.1.0-57", "aaa", "2026-01-02T00:00:00Z", 11, "tsc");
	fake_run(&f, "m-a", "6.1.0-9", "bbb", "2026-01-03T00:00:00Z", 12, "tsc");
	fake_run(&f, "m-a", "6.1.0-57", "ccc", "2026-01-04T00:00:00Z", 13, "tsc");

	TAP_OK(!vsb_hist_build(&f.se, VSB_HIST_BY_KERNEL, &hs, &n) && n == 1 &&
	       hs->n == 4, "by kernel: one series of 4");
	TAP_OK(!strcmp(hs->e[0].run->kernel, "6.1.0-9") &&
	       !strcmp(hs->e[1].run->date, "2026-01-02T00:00:00Z") &&
	       !strcmp(hs->e[2].run->date, "2026-01-04T00:00:00Z") &&
	       !strcmp(hs->e[3].run->kernel, "6.12.100+deb12"),
	       "by kernel: version order, date within a kernel");
	vsb_hist_free(hs, n);

	TAP_OK(!vsb_hist_build(&f.se, VSB_HIST_BY_REVISION, &hs, &n) && n == 1,
	       "by revision: built");
	/* bbb first ran on day 1, aaa on day 2, ccc on day 4 */
	TAP_OK(!strcmp(hs->e[0].run->revision, "bbb") && !strcmp(hs->e[1].run->revision, "bbb") &&
	       !strcmp(hs->e[1].run->date, "2026-01-03T00:00:00Z") &&
	       !strcmp(hs->e[2].run->revision, "aaa") && !strcmp(hs->e[3].run->revision, "ccc"),
	       "by revision: revisions by their first run, date within one");
	vsb_hist_free(hs, n);

	TAP_OK(!vsb_hist_build(&f.se, VSB_HIST_BY_DATE, &hs, &n) && n == 1 &&
	       hs->e[0].median == 10 && hs->e[3].median == 13, "by date: as stored");
	TAP_OK(hs->e[0].ci_lo <= 10 && hs->e[0].ci_hi >= 10 && hs->e[0].ci_lo >= 10 * 0.998 &&
	       hs->e[0].ci_hi <= 10 * 1.002, "entry CI brackets the median within the samples' range");
	vsb_hist_free(hs, n);

	TAP_OK(vsb_hist_by_parse("kernel", &(enum vsb_hist_by){ 0 }) == 0 &&
	       vsb_hist_by_parse("kernels", &(enum vsb_hist_by){ 0 }) == -1,
	       "--by names: kernel yes, kernels no");
}

static void test_machines_units(void)
{
	static struct fake f;
	struct vsb_hist_series *hs;
	const char *u1, *u2;
	size_t n;

	memset(&f, 0, sizeof(f));
	fake_run(&f, "m-a", "6.1", "r", "2026-01-01", 10, "tsc");
	fake_run(&f, "m-b", "6.1", "r", "2026-01-02", 20, "tsc");
	fake_run(&f, "m-a", "6.1", "r", "2026-01-03", 11, "tsc");
	f.runs[1].n = 0;	/* a run without per_op: left out */
	fake_run(&f, "m-b", "6.1", "r", "2026-01-04", 21, "tsc");
	TAP_OK(!vsb_hist_build(&f.se, VSB_HIST_BY_DATE, &hs, &n) && n == 2 &&
	       !strcmp(hs[0].machine, "m-a") && hs[0].n == 2 &&
	       !strcmp(hs[1].machine, "m-b") && hs[1].n == 1,
	       "one series per machine; runs without samples left out");
	vsb_hist_free(hs, n);

	fake_run(&f, "m-c", "6.1", "r", "2026-01-05", 10, "cycles");
	TAP_OK(vsb_hist_mixed_units(&f.se, &u1, &u2) == 0 &&
	       !vsb_hist_build(&f.se, VSB_HIST_BY_DATE, &hs, &n) && n == 3 &&
	       !strcmp(hs[2].unit, "cycles"),
	       "a fleet: one machine in cycles, the others in tsc: a series each, no refusal");
	vsb_hist_free(hs, n);
	fake_run(&f, "m-a", "6.1", "r", "2026-01-05", 10, "ns");
	TAP_OK(vsb_hist_mixed_units(&f.se, &u1, &u2) == 1 && !strcmp(u1, "tsc") &&
	       !strcmp(u2, "ns"), "mixed units on one machine named");
	TAP_OK(vsb_hist_build(&f.se, VSB_HIST_BY_DATE, &hs, &n) == -EINVAL && !hs && !n,
	       "mixed units refused");
}

/*
 * 16 daily runs of one point on kernel 6.1: 8 at @lo of revision @rev1,
 * then 8 at @hi of @rev2, each times a small deterministic wobble when
 * @wobble; CPUs @c2c_lo then @c2c_hi ns apart.
 */
static void fill_builds(struct fake *f, double lo, double hi, int wobble, double c2c_lo,
			double c2c_hi, const char *rev1, const char *rev2)
{
	char date[32];
	size_t i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < 16; i++) {
		double wob = wobble ? 1 + 0.004 * ((double)((i * 37) % 7) - 3) : 1;

		snprintf(date, sizeof(date), "2026-01-%02zuT00:00:00Z", i + 1);
		fake_run(f, "m-a", "6.1", i < 8 ? rev1 : rev2, date,
			 wob * (i < 8 ? lo : hi), "tsc");
		f->runs[i].c2c_ns = i < 8 ? c2c_lo : c2c_hi;
	}
}

/* The same, the step coming with a new revision: a change of the code. */
static void fill_step(struct fake *f, double lo, double hi, int wobble, double c2c_lo,
		      double c2c_hi)
{
	fill_builds(f, lo, hi, wobble, c2c_lo, c2c_hi, "r1", "r2");
}

/* 8 entries at 100 then 8 at 100 * (1 + step), small deterministic wobble */
static void test_step(double step, int want_reg)
{
	static struct fake f;
	struct vsb_hist_series *hs;
	size_t n;

	fill_step(&f, 100, 100 * (1 + step), 1, 0, 0);
	TAP_OK(!vsb_hist_build(&f.se, VSB_HIST_BY_DATE, &hs, &n) && n == 1, "step %+.0f%%: built",
	       100 * step);
	if (want_reg) {
		TAP_OK(hs->ncp == 1 && hs->cp[0].index == 8 && hs->e[8].cp == 1 &&
		       hs->e[7].cp == 0, "step %+.0f%%: one change point, at entry 8 (%zu found)",
		       100 * step, hs->ncp);
		TAP_NEAR(hs->cp[0].rel_change, step, 0.02, "step %+.0f%%: its size", 100 * step);
		TAP_NEAR(hs->e[0].seg_median, 100, 1, "segment median before");
		TAP_NEAR(hs->e[15].seg_median, 100 * (1 + step), 1.5, "segment median after");
		TAP_OK(hs->verdict.regression && hs->verdict.new_start == 8,
		       "step %+.0f%%: newest entry is a regression since entry 8", 100 * step);
	} else {
		TAP_OK(!hs->verdict.regression, "step %+.0f%%: not a regression", 100 * step);
		TAP_OK(step != 0 || hs->ncp == 0, "flat: no change point (%zu)", hs->ncp);
	}
	vsb_hist_free(hs, n);
}

/*
 * A step the search finds with certainty (no wobble at all) is drawn only
 * when it is VSB_HIST_CP_MIN_REL or more: 1% is not, 3% is.
 */
static void test_small_step(double step, size_t want_ncp)
{
	static struct fake f;
	struct vsb_hist_series *hs;
	size_t n;

	fill_step(&f, 100, 100 * (1 + step), 0, 0, 0);
	TAP_OK(!vsb_hist_build(&f.se, VSB_HIST_BY_DATE, &hs, &n) && n == 1 &&
	       hs->ncp == want_ncp, "exact step %+.0f%%: %zu change points drawn (%zu)",
	       100 * step, want_ncp, hs->ncp);
	TAP_OK(want_ncp == 0 || (hs->cp[0].index == 8 &&
				 fabs(hs->cp[0].rel_change - step) < 1e-9),
	       "exact step %+.0f%%: at entry 8, its size", 100 * step);
	vsb_hist_free(hs, n);
}

/*
 * compare's moved-CPUs rule over a history: a 2x step at entry 8 whose
 * runs had their CPUs 2.5x farther apart (c2c 80 -> 200 ns) is marked
 * and not called a regression; the same step at one distance is.
 */
static void test_moved(double c2c_after, int want_reg)
{
	static struct fake f;
	struct vsb_hist_series *hs;
	size_t n;

	fill_step(&f, 10, 20, 0, 80, c2c_after);
	TAP_OK(!vsb_hist_build(&f.se, VSB_HIST_BY_DATE, &hs, &n) && n == 1 &&
	       hs->ncp == 1 && hs->cp[0].index == 8, "c2c %g after: one change point at 8",
	       c2c_after);
	TAP_OK(hs->verdict.regression == want_reg && hs->moved == !want_reg,
	       "c2c 80 -> %g ns: %s", c2c_after, want_reg ? "a regression" :
	       "moved, not called a regression");
	TAP_OK(vsb_hist_cp_moved(hs, 0) == !want_reg && hs->cp_c2c[0][0] == 80 &&
	       hs->cp_c2c[0][1] == c2c_after, "the change point is %smarked moved",
	       want_reg ? "not " : "");
	vsb_hist_free(hs, n);
}

/*
 * A +30% step where nothing measured changed (one kernel, one clean
 * revision in both segments) is the machine's: marked one build, not
 * counted as the code's, the newest entry not called a regression.  A
 * bare "-dirty" or unknown revision does not say the code was the same;
 * "-dirty+HASH" (ci/git-rev.sh) does, and another hash is other edits;
 * a new kernel in the second half is a change of the code.
 */
static void test_one_build(const char *rev1, const char *rev2, const char *k2,
			   int want_one)
{
	static struct fake f;
	struct vsb_hist_series *hs;
	size_t n, i;

	fill_builds(&f, 100, 130, 1, 0, 0, rev1, rev2);
	for (i = 8; i < 16; i++)
		snprintf(f.runs[i].kernel, sizeof(f.runs[i].kernel), "%s", k2);
	TAP_OK(!vsb_hist_build(&f.se, VSB_HIST_BY_DATE, &hs, &n) && n == 1 &&
	       hs->ncp == 1 && hs->cp[0].index == 8,
	       "revisions '%s' -> '%s', kernel 6.1 -> %s: a step at entry 8", rev1, rev2, k2);
	TAP_OK(vsb_hist_cp_one_build(hs, 0) == want_one &&
	       vsb_hist_ncode(hs) == (size_t)!want_one &&
	       hs->one_build_newest == want_one && hs->verdict.regression == !want_one,
	       "... %s", want_one ? "one build: a machine step, the newest entry not judged" :
	       "a change of the code and a regression");
	vsb_hist_free(hs, n);
}

int main(void)
{
	test_vercmp();
	test_orders();
	test_machines_units();
	test_step(0.30, 1);
	test_step(-0.30, 0);
	test_step(0, 0);
	test_small_step(0.01, 0);
	test_small_step(-0.01, 0);
	test_small_step(0.03, 1);
	test_moved(200, 0);
	test_moved(90, 1);
	test_one_build("abc1234", "abc1234", "6.1", 1);
	test_one_build("abc1234-dirty", "abc1234-dirty", "6.1", 0);
	test_one_build("abc1234-dirty+1a2b3c4d", "abc1234-dirty+1a2b3c4d", "6.1", 1);
	test_one_build("abc1234-dirty+1a2b3c4d", "abc1234-dirty+5e6f7a8b", "6.1", 0);
	test_one_build("", "", "6.1", 0);
	test_one_build("unknown", "unknown", "6.1", 0);
	test_one_build("abc1234", "abc1234", "6.12", 0);
	test_one_build("abc1234", "def5678", "6.1", 0);
	return tap_done();
}
