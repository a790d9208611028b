// SPDX-License-Identifier: GPL-2.0
/*
 * compare's three-way verdict on inputs whose answer is known
 * (tests/fixtures/compare/verdicts/, written by make-verdicts.py): a
 * narrow A/A is "same", a narrow pair with a real 20% slowdown
 * "slower", a pair whose runs spread 70 to 140 "inconclusive" with an
 * MDE that says how much it could not see; the exact rule of instruction
 * counts (unit insn) on counts a hair apart and 0.4% apart; the headline
 * and the exit status that follow from them.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "stats.h"
#include "vsb.h"
#include "tap.h"

static const struct vsb_cmp_opts opts = {
	.alpha = 0.01, .noise_pct = 2, .max_regression_pct = 5,
	.model = VSB_CMP_MODEL_AUTO,
};

static char fixtures[4096];

static const char *fx(const char *name)
{
	static char path[2][4096 + 64];
	static int slot;

	slot = !slot;
	snprintf(path[slot], sizeof(path[slot]), "%s/%s", fixtures, name);
	return path[slot];
}

/* BASE against NEW judged; the one verdict row, NULL when it failed */
static const struct vsb_cmp_verdict *judge(struct vsb_compare *c, const char *base,
					   const char *new)
{
	int ret;

	vsb_cmp_init(c);
	ret = vsb_cmp_load(c, &c->base, fx(base));
	ret = ret ?: vsb_cmp_load(c, &c->new, fx(new));
	ret = ret ?: vsb_cmp_match(c);
	if (ret || c->nv != 1)
		return NULL;
	vsb_cmp_judge(c, &opts);
	return &c->vs[0];
}

static void test_narrow(void)
{
	const struct vsb_cmp_verdict *v;
	struct vsb_compare c;
	char line[512];

	v = judge(&c, "narrow-base", "narrow-aa");
	TAP_OK(v && v->by_runs && !strcmp(v->verdict, "same") && !v->regression,
	       "narrow A/A, 5 runs a side: same");
	if (v) {
		TAP_OK(v->lo >= 0.95 && v->hi <= 1.05, "its CI [%.4f, %.4f] inside 1 +- 5%%",
		       v->lo, v->hi);
		TAP_OK(v->mde > 0 && v->mde < 0.05, "MDE %.2f%%: it could have seen 5%%",
		       100 * v->mde);
	}
	vsb_cmp_headline(&c, &opts, line, sizeof(line));
	TAP_OK(strstr(line, "no regression beyond 5%") &&
	       strstr(line, "0 slower, 0 faster, 1 same, 0 inconclusive"),
	       "headline: no regression, with the counts (%s)", line);
	TAP_OK(vsb_cmp_status(&c) == VSB_EXIT_OK, "exit 0");
	vsb_cmp_free(&c);

	v = judge(&c, "narrow-base", "narrow-slow");
	TAP_OK(v && !strcmp(v->verdict, "slower") && v->regression,
	       "narrow pair, NEW 20%% slower: slower, a regression");
	if (v)
		TAP_NEAR(v->ratio, 1.2, 0.005, "ratio 1.2");
	vsb_cmp_headline(&c, &opts, line, sizeof(line));
	TAP_OK(strstr(line, "REGRESSION") && !strstr(line, "no regression"),
	       "headline: REGRESSION (%s)", line);
	TAP_OK(vsb_cmp_status(&c) == VSB_EXIT_ERROR, "exit 1");
	vsb_cmp_free(&c);
}

static void test_wide(void)
{
	const struct vsb_cmp_verdict *v;
	struct vsb_compare c;
	char line[512];

	v = judge(&c, "wide-base", "wide-new");
	TAP_OK(v && !strcmp(v->verdict, "inconclusive") && !v->regression,
	       "runs spread 70 to 140 a side: inconclusive, not no-change");
	if (v) {
		TAP_OK(v->lo < 0.95 || v->hi > 1.05, "its CI [%.3f, %.3f] reaches past "
		       "+-5%%", v->lo, v->hi);
		TAP_OK(v->mde > 0.3 && v->mde >= v->noise,
		       "MDE %.0f%%, at least the floor %.0f%%", 100 * v->mde, 100 * v->noise);
	}
	vsb_cmp_headline(&c, &opts, line, sizeof(line));
	TAP_OK(!strstr(line, "no regression") && strstr(line, "inconclusive: 1 of 1") &&
	       strstr(line, "could not tell changes below"),
	       "headline: inconclusive, with the MDE (%s)", line);
	TAP_OK(vsb_cmp_status(&c) == VSB_EXIT_INCONCLUSIVE, "exit %d (inconclusive)",
	       VSB_EXIT_INCONCLUSIVE);
	vsb_cmp_free(&c);

	/* the same wide spread, the threshold at 0: nothing can be the same */
	v = judge(&c, "narrow-base", "narrow-aa");
	if (v) {
		struct vsb_cmp_opts o = opts;

		o.max_regression_pct = 0;
		TAP_OK(!strcmp(vsb_cmp_three_way(v, &o), "inconclusive"),
		       "--max-regression 0: an A/A cannot be the same within 0%%");
	}
	vsb_cmp_free(&c);
}

static void test_exact(void)
{
	static const struct {
		const char *base, *new, *verdict, *what;
	} cases[] = {
		{ "insn/base.csv", "insn/base.csv", "same", "A/A, identical counts" },
		{ "insn/base.csv", "insn/aa.csv", "same", "+0.04%: within 0.1%" },
		{ "insn/base.csv", "insn/slower.csv", "changed",
		  "+0.4% (1 insn/op), no mix: a count alone says no direction" },
		{ "insn/base.csv", "insn/faster.csv", "changed", "-0.4%, no mix" },
		{ "insn/small-base.csv", "insn/small-new.csv", "same",
		  "20 -> 20.04 insn/op: within the 0.05 insn floor" },
		{ "insn/small-new.csv", "insn/small-base.csv", "same", "and back" },
	};
	const struct vsb_cmp_verdict *v;
	struct vsb_compare c;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		v = judge(&c, cases[i].base, cases[i].new);
		TAP_OK(v && !strcmp(v->verdict, cases[i].verdict) &&
		       !strcmp(v->model, "exact") && !v->regression,
		       "insn, one run a side, %s: %s (%s)", cases[i].what,
		       cases[i].verdict, v ? v->verdict : "no row");
		vsb_cmp_free(&c);
	}
	v = judge(&c, "insn/base.csv", "insn/slower.csv");
	if (v)
		TAP_NEAR(v->mde, 0.001, 1e-12, "insn: the MDE is the tolerance, 0.1%% of 250");
	TAP_OK(c.ninconc == 0 && c.by_exact == 1 && c.nchanged == 1 &&
	       vsb_cmp_status(&c) == VSB_EXIT_INCONCLUSIVE,
	       "insn without a mix: changed, exit %d, judged exactly",
	       VSB_EXIT_INCONCLUSIVE);
	vsb_cmp_free(&c);
	v = judge(&c, "insn/small-base.csv", "insn/small-new.csv");
	if (v)
		TAP_NEAR(v->mde, 0.05 / 20, 1e-12, "insn at 20/op: the MDE is 0.05 insn, 0.25%%");
	vsb_cmp_free(&c);
}

/* exact verdicts through the cost model, on mixes whose answer is known */
static void test_mix(void)
{
	static const struct {
		const char *new, *verdict, *rule, *what;
		int regression;
	} cases[] = {
		{ "mix/aa.csv", "same", "mix", "an A/A", 0 },
		{ "mix/irqsave.csv", "changed", "none",
		  "irqsave (-4.89 insn, +pushf +cli +sti, -1 cmpxchg): not faster", 0 },
		{ "mix/nop.csv", "slower", "mix", "+1 nop", 0 },
		{ "mix/lock5.csv", "slower", "mix", "+5 insn, +1 LOCK", 1 },
		{ "mix/lock.csv", "slower", "costs",
		  "the LOCK patch: every model agrees", 1 },
		{ "mix/removal.csv", "faster", "mix", "3 plain instructions out", 0 },
	};
	const struct vsb_cmp_verdict *v;
	struct vsb_compare c;
	char line[512];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		v = judge(&c, "mix/base.csv", cases[i].new);
		TAP_OK(v && !strcmp(v->verdict, cases[i].verdict) &&
		       !strcmp(v->rule, cases[i].rule) &&
		       v->regression == cases[i].regression,
		       "mix, %s: %s by %s%s (%s by %s, %s)", cases[i].what,
		       cases[i].verdict, cases[i].rule,
		       cases[i].regression ? ", a regression" : "",
		       v ? v->verdict : "no row", v ? v->rule : "-",
		       v ? v->mixv.line : "");
		vsb_cmp_free(&c);
	}
	v = judge(&c, "mix/base.csv", "mix/irqsave.csv");
	vsb_cmp_headline(&c, &opts, line, sizeof(line));
	TAP_OK(v && strstr(line, "changed: 1 of 1") &&
	       vsb_cmp_status(&c) == VSB_EXIT_INCONCLUSIVE,
	       "irqsave: the headline says changed, exit %d (%s)",
	       VSB_EXIT_INCONCLUSIVE, line);
	vsb_cmp_free(&c);
	v = judge(&c, "mix/base.csv", "mix/nop.csv");
	vsb_cmp_headline(&c, &opts, line, sizeof(line));
	TAP_OK(v && strstr(line, "1 slower (+2.5% at most; none beyond "
			   "--max-regression 5%)") && vsb_cmp_status(&c) == 0,
	       "+1 nop: the headline says how much slower at most (%s)", line);
	vsb_cmp_free(&c);
}

/*
 * Timed, ten boots a side at ab's first-look alpha: whole boots the
 * emulator ran 1.7x slower.  The rank test and the CI see them, so the
 * MDE must too: never below the 35% the run saw and could not call.
 */
static void test_boots20(void)
{
	struct vsb_cmp_opts o = opts;
	const struct vsb_cmp_verdict *v;
	struct vsb_compare c;

	o.alpha = 0.005;
	vsb_cmp_init(&c);
	if (vsb_cmp_load(&c, &c.base, fx("boots20-base")) ||
	    vsb_cmp_load(&c, &c.new, fx("boots20-new")) || vsb_cmp_match(&c) ||
	    c.nv != 1) {
		TAP_OK(0, "boots20 loads");
		vsb_cmp_free(&c);
		return;
	}
	vsb_cmp_judge(&c, &o);
	v = &c.vs[0];
	TAP_OK(!strcmp(v->verdict, "inconclusive") && v->by_runs,
	       "20 boot medians, alpha 0.005: inconclusive, by runs (%s, p %.4f, "
	       "ratio %.3f [%.3f, %.3f])", v->verdict, v->p, v->ratio, v->lo, v->hi);
	TAP_OK(v->mde >= 0.35, "its MDE %.1f%% is at least the 35%% it saw",
	       100 * v->mde);
	TAP_OK(v->mde >= fabs(v->ratio - 1) && v->mde >= (v->hi - v->lo) / 2,
	       "never below the change seen, nor inside its CI's half-width");
	vsb_cmp_free(&c);
}

int main(void)
{
	const char *root = getenv("VSB_ROOT");

	snprintf(fixtures, sizeof(fixtures), "%s/tests/fixtures/compare/verdicts",
		 root && *root ? root : ".");
	test_narrow();
	test_wide();
	test_exact();
	test_mix();
	test_boots20();
	return tap_done();
}
