// SPDX-License-Identifier: GPL-2.0
/*
 * compare_exact.c - the verdict of a pair in unit insn: instruction
 * counts from exact mode's TCG plugin, judged by a tolerance instead of
 * a rank test (compare_verdict.c judges every other unit).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "stats.h"
#include "vsb.h"

/* each class's median over the side's files (boots): one mix a side */
static int side_mix(const struct vsb_cmp_point *p, struct vsb_mix *m)
{
	if (!p->nmix)
		return -1;
	vsb_mix_median(p->mix, p->nmix, m);
	return 0;
}

/* the largest rise of a model's estimate, or of the count where none has one */
static double worst_rise(const struct vsb_cmp_verdict *v)
{
	double w = v->ratio - 1;
	size_t i;

	for (i = 0; i < v->mixv.nmodels; i++)
		if (!isnan(v->mixv.rel_est[i]))
			w = fmax(w, v->mixv.rel_est[i]);
	return w;
}

/*
 * The exact rule, for instruction counts from the TCG plugin: one sample
 * per window, repeating to ~0.03% (what differs is interrupts and the
 * odd page fault inside a window, not the code).  A rank test over such
 * samples would call a 0.01% difference significant, and a CI would be
 * all but zero wide, so neither is used.  Which way a change goes is
 * the cost model's to say (insn_judge.c): the mix alone where every
 * class moved one way, every model agreeing where classes moved both
 * ways, else "changed", which is inconclusive for the exit status: the
 * count is what ran, the cycles are not known.  A regression is slower
 * beyond --max-regression on the count or on any model's estimate.
 * The count's tolerance, max(0.1% of BASE, 0.05 instruction), is the
 * row's noise floor and MDE.
 */
void vsb_cmp_judge_exact(struct vsb_cmp_verdict *v, const struct vsb_cmp_opts *o)
{
	static const enum vsb_compare_word words[] = {
		[VSB_MIX_SAME] = VSB_CW_SAME, [VSB_MIX_SLOWER] = VSB_CW_SLOWER,
		[VSB_MIX_FASTER] = VSB_CW_FASTER, [VSB_MIX_CHANGED] = VSB_CW_CHANGED,
	};
	struct vsb_mix mb, mn;
	double tol;

	v->mb = vsb_median(v->b->v, v->b->n);
	v->mn = vsb_median(v->n->v, v->n->n);
	v->ratio = v->mn / v->mb;
	v->lo = v->hi = v->ratio;	/* no sampling error to draw */
	v->p = NAN;
	v->exact = 0;
	v->model = "exact";
	tol = fmax(VSB_CMP_EXACT_REL * fabs(v->mb), VSB_CMP_EXACT_ABS);
	v->noise = v->mde = v->mb > 0 ? tol / v->mb : INFINITY;
	if (side_mix(v->b, &mb) || side_mix(v->n, &mn)) {
		/* no mix to price: a count alone cannot say which way */
		memset(&v->mixv, 0, sizeof(v->mixv));
		v->mixv.dir = fabs(v->mn - v->mb) > tol ? VSB_MIX_CHANGED : VSB_MIX_SAME;
		snprintf(v->mixv.why, sizeof(v->mixv.why), "no instruction mix in the "
			 "results: a count alone cannot say which way");
	} else {
		vsb_mix_judge(&mb, &mn, &v->mixv);
	}
	v->verdict = vsb_compare_word(words[v->mixv.dir]);
	v->rule = v->mixv.dir == VSB_MIX_CHANGED ? "none" :
		  v->mixv.by_costs ? "costs" : "mix";
	v->regression = v->mixv.dir == VSB_MIX_SLOWER &&
			100 * worst_rise(v) > o->max_regression_pct;
}
