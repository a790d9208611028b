// SPDX-License-Identifier: GPL-2.0
/*
 * What a judged pair's numbers say, in three words, and what the whole
 * comparison says in one sentence and one exit status.
 *
 * A verdict of "no change" from a run that could not have seen a 40%
 * change is the most damaging answer a benchmark can give: the patch
 * goes in.  So compare decides three ways, as Chromium's Pinpoint does:
 * slower or faster (the rank test below alpha and a change beyond the
 * noise floor), same (the 95% CI of NEW/BASE lies inside +- the
 * regression threshold, and the floor is no wider: the run could have
 * seen a change that large), and inconclusive (anything else).  Each
 * pair carries its minimum detectable effect (MDE), the smallest change
 * its own spread and counts would call, so an inconclusive row says how
 * much it could not see.  Instruction counts (unit insn) are exact, and
 * judged by a tolerance instead (vsb_cmp_judge_exact).
 *
 * ab adds boots while points are undecided and looks again each time;
 * vsb_cmp_look_alpha() splits alpha over those looks so that an A/A
 * still raises a false alarm with probability alpha at most.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "stats.h"
#include "vsb.h"

double vsb_cmp_z(double alpha)
{
	double lo = 0, hi = 40, mid = 0;
	int i;

	for (i = 0; i < 80; i++) {
		mid = (lo + hi) / 2;
		if (erfc(mid / M_SQRT2) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return mid;
}

int vsb_cmp_exact_unit(const char *unit)
{
	return unit && !strcmp(unit, VSB_CMP_EXACT_UNIT);
}

const char *vsb_cmp_three_way(const struct vsb_cmp_verdict *v,
			      const struct vsb_cmp_opts *o)
{
	double change = v->ratio - 1, thr = o->max_regression_pct / 100;

	if (v->p_adj < o->alpha && fabs(change) > v->noise)
		return vsb_compare_word(change > 0 ? VSB_CW_SLOWER : VSB_CW_FASTER);
	/*
	 * Not different is not the same: only a CI inside the threshold
	 * says a change that large is ruled out, and only a floor no wider
	 * says the run could have called one (a store whose sweeps of the
	 * point differ by 20% cannot vouch for 5%).  A NAN CI fails both.
	 */
	if (v->lo >= 1 - thr && v->hi <= 1 + thr && v->noise <= thr)
		return vsb_compare_word(VSB_CW_SAME);
	return vsb_compare_word(VSB_CW_INCONCLUSIVE);
}

/*
 * The relative spread of what the test compared: the larger of a robust
 * CV (1.4826 x MAD / median) and the plain one (SD / mean).  The robust
 * one alone left out exactly what the rank test and the bootstrap CI
 * see: whole boots the emulator ran 1.7x slower gave an MDE of 3% to a
 * row whose CI was [0.97, 1.88] (issue 41).
 */
static double rel_spread(const double *x, size_t n)
{
	double m = vsb_median(x, n), mean = 0, ss = 0, robust, plain;
	size_t i;

	if (n < 2 || !(m > 0))
		return 0;
	for (i = 0; i < n; i++)
		mean += x[i] / (double)n;
	for (i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	robust = 1.4826 * vsb_mad(x, n) / m;
	plain = mean > 0 ? sqrt(ss / (double)(n - 1)) / mean : 0;
	return fmax(robust, plain);
}

/*
 * The usual MDE of a two-sample test at level alpha and 80% power,
 * (z(alpha/2) + z(0.8)) x the standard error of the relative change,
 * with each side's CV (rel_spread) over its count, widened by
 * sqrt(pi / 3) for the rank test's efficiency against a t test (3/pi
 * under normality).  An approximation (the exact test is discrete), but
 * of the right size; never below the noise floor, which blocks smaller
 * changes whatever p says; infinite where even complete separation
 * cannot reach alpha at these counts.  Its parts are kept in @v: where
 * points share alpha (compare_family.c), a change at this point alone
 * must reach alpha / family, and the MDE is had again at that level.
 */
double vsb_cmp_mde(struct vsb_cmp_verdict *v, const struct vsb_cmp_opts *o,
		   const double *b, size_t nb, const double *n, size_t nn)
{
	double sb = rel_spread(b, nb), sn = rel_spread(n, nn);

	v->mde_min_p = nb && nn ? vsb_mwu_min_p(nb, nn) : 1;
	v->mde_se = nb && nn ? sqrt(sb * sb / (double)nb + sn * sn / (double)nn) *
			       sqrt(M_PI / 3) : NAN;
	return vsb_cmp_mde_at(v, o->alpha);
}

double vsb_cmp_mde_at(const struct vsb_cmp_verdict *v, double alpha)
{
	if (v->mde_min_p >= alpha)
		return INFINITY;
	return fmax(v->noise, (vsb_cmp_z(alpha) + VSB_CMP_MDE_POWER_Z) * v->mde_se);
}

/*
 * An inconclusive row saw a change it could not call: its MDE is at
 * least that change, and at least half its CI's width (a CI from 0.97
 * to 1.88 cannot vouch for anything much smaller), whatever the
 * approximation above says.
 */
void vsb_cmp_mde_bound(struct vsb_cmp_verdict *v)
{
	if (!vsb_cmp_is(v, VSB_CW_INCONCLUSIVE) || isnan(v->mde))
		return;
	if (!isnan(v->ratio))
		v->mde = fmax(v->mde, fabs(v->ratio - 1));
	if (!isnan(v->lo) && !isnan(v->hi))
		v->mde = fmax(v->mde, (v->hi - v->lo) / 2);
}

/* The three-way verdict of a pair the rank test judged, from its p_adj */
void vsb_cmp_decide(struct vsb_cmp_verdict *v, const struct vsb_cmp_opts *o)
{
	double change = v->ratio - 1;

	v->verdict = vsb_cmp_three_way(v, o);
	vsb_cmp_mde_bound(v);
	v->rule = "rank";
	v->regression = change > 0 && vsb_cmp_is(v, VSB_CW_SLOWER) &&
			100 * change > o->max_regression_pct;
}

/* "below 41%" (or the range) of the inconclusive pairs' MDE */
static void mde_words(const struct vsb_compare *c, char *buf, size_t len)
{
	if (isinf(c->mde_lo))
		snprintf(buf, len, "no change at all could be called at these counts");
	else if (isinf(c->mde_hi))
		snprintf(buf, len, "this run could not tell changes below %.0f%% "
			 "(some points none at all at these counts)", 100 * c->mde_lo);
	else if (c->mde_hi - c->mde_lo < 0.005)
		snprintf(buf, len, "this run could not tell changes below %.0f%%",
			 100 * c->mde_hi);
	else
		snprintf(buf, len, "this run could not tell changes below %.0f%% to "
			 "%.0f%% (their MDE)", 100 * c->mde_lo, 100 * c->mde_hi);
}

/* the largest rise among the slower rows: count, or any model's estimate */
static double slower_most(const struct vsb_compare *c)
{
	double w = 0;
	size_t i, m;

	for (i = 0; i < c->nv; i++) {
		const struct vsb_cmp_verdict *v = &c->vs[i];

		if (!vsb_cmp_is(v, VSB_CW_SLOWER))
			continue;
		w = fmax(w, v->ratio - 1);
		for (m = 0; m < v->mixv.nmodels; m++)
			if (!isnan(v->mixv.rel_est[m]))
				w = fmax(w, v->mixv.rel_est[m]);
	}
	return w;
}

static void counts_words(const struct vsb_compare *c, size_t notj, char *buf,
			 size_t len)
{
	size_t off;

	snprintf(buf, len, "%zu slower, %zu faster, %zu same, %zu inconclusive",
		 c->nslow, c->nfast, c->nsame, c->ninconc);
	off = strlen(buf);
	if (c->nchanged)
		off += (size_t)snprintf(buf + off, len - off, ", %zu changed",
					c->nchanged);
	if (notj && off < len)
		snprintf(buf + off, len - off, ", %zu not judged", notj);
}

void vsb_cmp_headline(const struct vsb_compare *c, const struct vsb_cmp_opts *o,
		      char *buf, size_t len)
{
	size_t judged = c->nslow + c->nfast + c->nsame + c->ninconc + c->nchanged;
	size_t notj = c->nv - c->unmatched - judged;
	char counts[256], mde[160];
	double thr = o->max_regression_pct;

	counts_words(c, notj, counts, sizeof(counts));
	if (c->nreg) {
		snprintf(buf, len, "REGRESSION beyond %g%% at %zu point%s: %s", thr,
			 c->nreg, c->nreg == 1 ? "" : "s", counts);
	} else if (c->ninconc) {
		mde_words(c, mde, sizeof(mde));
		snprintf(buf, len, "inconclusive: %zu of %zu judged points could not "
			 "tell, %s: %s", c->ninconc, judged, mde, counts);
	} else if (c->nchanged) {
		snprintf(buf, len, "changed: %zu of %zu judged points changed their "
			 "instructions, and the cost models cannot say which way "
			 "(they disagree, or lack a cost for what moved): %s",
			 c->nchanged, judged, counts);
	} else if (!judged) {
		snprintf(buf, len, "not judged: no point could be judged: %s", counts);
	} else if (c->nsame == judged) {
		snprintf(buf, len, "no regression beyond %g%%: every judged point the "
			 "same within +-%g%%: %s", thr, thr, counts);
	} else if (c->nslow) {
		snprintf(buf, len, "%zu slower (+%.1f%% at most; none beyond "
			 "--max-regression %g%%): %s", c->nslow, 100 * slower_most(c),
			 thr, counts);
	} else {
		snprintf(buf, len, "none slower: %s", counts);
	}
}

int vsb_cmp_status(const struct vsb_compare *c)
{
	if (c->nreg)
		return VSB_EXIT_ERROR;
	return c->ninconc || c->nchanged ? VSB_EXIT_INCONCLUSIVE : VSB_EXIT_OK;
}

/*
 * ab looks at the verdict after its first --boots N a side, and again
 * after each ABBA pair it adds, up to --max-boots M: K = M - N + 1
 * looks.  Each look is a test at its own alpha_k, and an A/A raises a
 * false alarm if any look does, which the union bound holds below the
 * sum of the alpha_k (Bonferroni): so they sum to alpha.  The first look
 * keeps half (at N = 6, 0.005 still lets one boot out of line reach it:
 * p 0.0043), and the later looks share the other half alike (at 7 boots
 * a side 0.00125 is reachable with one inversion, p 0.0012).  Stopping
 * once every point is decided only drops looks, which cannot raise the
 * rate.  tests/unit/lib/judge/test_looks.c measures it on simulated A/As.
 */
double vsb_cmp_look_alpha(double alpha, long first, long max, long n)
{
	long k = max - first + 1;

	if (k <= 1)
		return alpha;
	if (n <= first)
		return alpha / 2;
	return alpha / (2 * (double)(k - 1));
}
