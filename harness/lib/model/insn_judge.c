// SPDX-License-Identifier: GPL-2.0
/*
 * insn_judge.c - which way an exact change goes, through the cost model
 * (insn_mix.h): fewer instructions is not faster.
 *
 * The rule, in two steps.  Where every class of the mix moved the same
 * way (or not at all), one side does all the other's work and more, so
 * it is slower on any core whose costs are not negative: the mix alone
 * decides, and no cost is needed.  Where classes moved both ways (three
 * irq instructions in, one cmpxchg and five plain ones out), only costs
 * can say, and the verdict is slower or faster only when every model the
 * run estimates for (the cited tables and the host's measured one)
 * prices every class that moved and moves the same way beyond its
 * tolerance.  Anything else is "changed": the count did change, and
 * which way the cycles go depends on costs that disagree or are not
 * known.  A count alone never decides.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "insn_mix.h"

/*
 * The classes shown in the one-line change: instructions and the special
 * ones first (irq by its parts when known), then the memory operations
 * after a ';', then the estimates: "-4.89 insn, +1 cli, +1 sti, -1
 * cmpxchg; -1.99 loads; est +6.78 skl, ? zen3".  A chart's label is
 * the part before the first ';'.
 */
static const int shown[] = {
	VSB_MIX_INSN, VSB_MIX_LOCK, VSB_MIX_CMPXCHG, VSB_MIX_CMPXCHG_LOCAL,
	VSB_MIX_PUSHF, VSB_MIX_CLI, VSB_MIX_STI, VSB_MIX_POPF, VSB_MIX_PAUSE,
	VSB_MIX_SERIAL,
};
static const int shown_mem[] = { VSB_MIX_LOADS, VSB_MIX_STORES, VSB_MIX_REP_BYTES };

static double tol_of(double base, double abs_tol)
{
	return fmax(VSB_MIX_REL_TOL * fabs(base), abs_tol);
}

/* -1, 0 or +1: how class @k moved; 0 where either side lacks it */
static int moved(const struct vsb_mix *b, const struct vsb_mix *n, int k)
{
	double d = n->c[k] - b->c[k];

	if (isnan(d) || fabs(d) <= tol_of(b->c[k], VSB_MIX_ABS_TOL))
		return 0;
	return d > 0 ? 1 : -1;
}

/* old results carry irq, not its parts: it stands in for them */
static int class_moves(const struct vsb_mix *b, const struct vsb_mix *n,
		       int *up, int *down)
{
	int k, any = 0, d;

	*up = *down = 0;
	for (k = 0; k < VSB_EXACT_RESULT_CLASSES; k++) {
		d = moved(b, n, k);
		*up |= d > 0;
		*down |= d < 0;
		any |= d != 0;
	}
	return any;
}

/*
 * Model @u's change in cycles per op, new less base: NAN where a class
 * that moved has no cost on @u.  Classes that did not move cancel,
 * priced or not.
 */
static double est_delta(const struct vsb_mix *b, const struct vsb_mix *n,
			const struct vsb_uarch_cost *u, const char **unpriced)
{
	double kb[VSB_COST_N], kn[VSB_COST_N], d;
	int j;

	vsb_mix_charges(b, kb);
	vsb_mix_charges(n, kn);
	d = vsb_mix_plain(kn, u) - vsb_mix_plain(kb, u);
	*unpriced = NULL;
	for (j = VSB_COST_FIRST_CHARGED; j < VSB_COST_N; j++) {
		double dk = kn[j] - kb[j];

		if (fabs(dk) <= tol_of(kb[j], VSB_MIX_ABS_TOL))
			continue;
		if (isnan(u->c[j]) || isnan(dk)) {
			*unpriced = vsb_cost_class_name((enum vsb_cost_class)j);
			return NAN;
		}
		d += dk * u->c[j];
	}
	return d;
}

/* " +1 cli" for each of @k[0..n) that moved; the offset after them */
static size_t moved_words(const struct vsb_mix *b, const struct vsb_mix *n,
			  const int *k, size_t nk, char *buf, size_t len, size_t off)
{
	double d;
	size_t i;

	for (i = 0; i < nk && off < len; i++) {
		if (!moved(b, n, k[i]))
			continue;
		d = n->c[k[i]] - b->c[k[i]];
		/* a local cmpxchg gone with the cmpxchg says nothing more */
		if (k[i] == VSB_MIX_CMPXCHG_LOCAL &&
		    fabs(d - (n->c[VSB_MIX_CMPXCHG] - b->c[VSB_MIX_CMPXCHG])) < 1e-9)
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%+.3g %s",
					off ? ", " : "", d, vsb_exact_classes[k[i]].name);
	}
	return off;
}

static void change_line(const struct vsb_mix *b, const struct vsb_mix *n,
			struct vsb_mix_verdict *v)
{
	size_t len = sizeof(v->line), off, mem, i;

	off = moved_words(b, n, shown, sizeof(shown) / sizeof(shown[0]),
			  v->line, len, 0);
	if (moved(b, n, VSB_MIX_IRQ) && isnan(b->c[VSB_MIX_CLI]) && off < len)
		off += (size_t)snprintf(v->line + off, len - off, "%s%+.3g irq",
					off ? ", " : "",
					n->c[VSB_MIX_IRQ] - b->c[VSB_MIX_IRQ]);
	if (off < len) {
		char m[96];

		mem = moved_words(b, n, shown_mem, 3, m, sizeof(m), 0);
		if (mem)
			off += (size_t)snprintf(v->line + off, len - off, "%s%s",
						off ? "; " : "", m);
	}
	for (i = 0; i < v->nmodels && off < len; i++) {
		const char *pre = i ? ", " : "; est ";

		if (isnan(v->d_est[i]))
			off += (size_t)snprintf(v->line + off, len - off, "%s? %s",
						pre, v->model[i]);
		else
			off += (size_t)snprintf(v->line + off, len - off, "%s%+.3g %s",
						pre, v->d_est[i], v->model[i]);
	}
}

/* the direction every model agrees on beyond its tolerance, else CHANGED */
static enum vsb_mix_dir by_costs(struct vsb_mix_verdict *v,
				 const struct vsb_uarch_cost *const *u,
				 const char *const *unpriced)
{
	int up = 0, down = 0, flat = 0;
	size_t i, off = 0;

	for (i = 0; i < v->nmodels; i++) {
		double tol = tol_of(v->est_base[i],
				    VSB_MIX_ABS_TOL / u[i]->c[VSB_COST_WIDTH]);

		if (isnan(v->d_est[i])) {
			off += (size_t)snprintf(v->why + off, sizeof(v->why) - off,
						"%s%s has no cost for %s", off ? "; " : "",
						v->model[i], unpriced[i]);
			if (off >= sizeof(v->why))
				off = sizeof(v->why) - 1;
			continue;
		}
		up += v->d_est[i] > tol;
		down += v->d_est[i] < -tol;
		flat += fabs(v->d_est[i]) <= tol;
	}
	if (off)
		return VSB_MIX_CHANGED;
	if (up == (int)v->nmodels)
		return VSB_MIX_SLOWER;
	if (down == (int)v->nmodels)
		return VSB_MIX_FASTER;
	snprintf(v->why, sizeof(v->why), "the models disagree: %d slower, %d "
		 "faster, %d within tolerance", up, down, flat);
	return VSB_MIX_CHANGED;
}

void vsb_mix_judge(const struct vsb_mix *b, const struct vsb_mix *n,
		   struct vsb_mix_verdict *v)
{
	const struct vsb_uarch_cost *u[VSB_UARCH_MAX];
	const char *unpriced[VSB_UARCH_MAX];
	int up, down;
	size_t i;

	memset(v, 0, sizeof(*v));
	v->nmodels = vsb_uarch_models(u);
	for (i = 0; i < v->nmodels; i++) {
		v->model[i] = u[i]->name;
		v->est_base[i] = vsb_mix_estimate(b, u[i]);
		v->d_est[i] = est_delta(b, n, u[i], &unpriced[i]);
		v->rel_est[i] = v->est_base[i] > 0 ? v->d_est[i] / v->est_base[i] : NAN;
	}
	if (!class_moves(b, n, &up, &down)) {
		v->dir = VSB_MIX_SAME;
		return;
	}
	change_line(b, n, v);
	if (up != down) {
		v->dir = up ? VSB_MIX_SLOWER : VSB_MIX_FASTER;
		return;
	}
	v->by_costs = 1;
	v->dir = by_costs(v, u, unpriced);
}
