// SPDX-License-Identifier: GPL-2.0
/*
 * compare_exact.c - the verdict of a pair in unit insn: instruction
 * counts from exact mode's TCG plugin, judged by a tolerance instead of
 * a rank test (compare_verdict.c judges every other unit).
 */
#include <math.h>

#include "compare.h"
#include "stats.h"

/*
 * The exact rule, for instruction counts from the TCG plugin: one sample
 * per window, repeating to ~0.03% (what differs is interrupts and the
 * odd page fault inside a window, not the code).  A rank test over such
 * samples would call a 0.01% difference significant, and a CI would be
 * all but zero wide, so neither is used: the per-op medians differ by
 * more than max(0.1% of BASE, 0.05 instruction) -> slower (more
 * instructions per op) or faster, else same.  Never inconclusive: the
 * count is what ran.  The tolerance is the row's noise floor and MDE.
 */
void vsb_cmp_judge_exact(struct vsb_cmp_verdict *v, const struct vsb_cmp_opts *o)
{
	double tol, diff;

	v->mb = vsb_median(v->b->v, v->b->n);
	v->mn = vsb_median(v->n->v, v->n->n);
	v->ratio = v->mn / v->mb;
	v->lo = v->hi = v->ratio;	/* no sampling error to draw */
	v->p = NAN;
	v->exact = 0;
	v->model = "exact";
	tol = fmax(VSB_CMP_EXACT_REL * fabs(v->mb), VSB_CMP_EXACT_ABS);
	diff = v->mn - v->mb;
	v->noise = v->mde = v->mb > 0 ? tol / v->mb : INFINITY;
	v->verdict = diff > tol ? "slower" : diff < -tol ? "faster" : "same";
	v->regression = diff > tol && 100 * (v->ratio - 1) > o->max_regression_pct;
}
