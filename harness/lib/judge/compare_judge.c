// SPDX-License-Identifier: GPL-2.0
/*
 * The verdict of one matched point: ratio of medians with a bootstrap
 * CI, a Mann-Whitney p, the noise floor, and the three-way verdict of
 * compare_verdict.c: slower / faster, same, inconclusive.
 *
 * Runs are the unit when runs differ.  Repetitions inside one process
 * share that process's state (where the host put the vCPUs, the boot's
 * cache layout), so two sweeps run apart differ by more than their
 * repetitions say: 8 false regressions in 20 separate A/A pairs when
 * repetitions were the unit.  So with enough runs a side for the exact
 * rank test on per-run medians to reach alpha, that is the test, each
 * side's number is the median of its run medians, and the CI resamples
 * runs, then repetitions within them.  With fewer, the repetitions are
 * pooled as before, but the noise floor takes in the spread between the
 * runs there are (VSB_CMP_BETWEEN_K x their CV); with one run a side the
 * between-run noise is unknown and `compare` says so.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "stats.h"
#include "vsb.h"
#include "c2c_rule.h"

/* A point's samples grouped by run, in the order runs first appear. */
struct grouped {
	struct vsb_runs r;
	double *v;
	size_t *off;
};

static void group_runs(const struct vsb_cmp_point *p, struct grouped *g)
{
	unsigned int *ids = vsb_zalloc((p->n + 1) * sizeof(*ids));
	size_t nids = 0, i, j, k = 0;

	for (i = 0; i < p->n; i++) {
		for (j = 0; j < nids && ids[j] != p->run[i]; j++)
			;
		if (j == nids)
			ids[nids++] = p->run[i];
	}
	g->v = vsb_zalloc((p->n + 1) * sizeof(*g->v));
	g->off = vsb_zalloc((nids + 1) * sizeof(*g->off));
	for (j = 0; j < nids; j++) {
		g->off[j] = k;
		for (i = 0; i < p->n; i++)
			if (p->run[i] == ids[j])
				g->v[k++] = p->v[i];
	}
	g->off[nids] = k;
	g->r = (struct vsb_runs){ .v = g->v, .off = g->off, .nruns = nids };
	free(ids);
}

static void grouped_free(struct grouped *g)
{
	free(g->v);
	free(g->off);
}

static double cv_of(const double *v, size_t n)
{
	struct vsb_stats st;

	vsb_stats_compute(v, n, &st);
	return isnan(st.cv) ? 0 : st.cv;
}

static double median_of(const struct vsb_cmp_point *p)
{
	return vsb_median(p->v, p->n);
}

/* The rank test on per-run medians, when it can reach alpha at all. */
static void test_runs(struct vsb_cmp_verdict *v, const struct grouped *b,
		      const struct grouped *n, struct vsb_mwu *mw)
{
	double *mb = vsb_zalloc(b->r.nruns * sizeof(*mb));
	double *mn = vsb_zalloc(n->r.nruns * sizeof(*mn));

	vsb_runs_medians(&b->r, mb);
	vsb_runs_medians(&n->r, mn);
	vsb_mwu_exact_ties(mb, b->r.nruns, mn, n->r.nruns, mw);
	v->mb = vsb_runs_stat(&b->r, VSB_RUNS_MEDIANS);
	v->mn = vsb_runs_stat(&n->r, VSB_RUNS_MEDIANS);
	vsb_runs_ratio_ci(&b->r, &n->r, VSB_RUNS_MEDIANS, VSB_BOOT_SEED, &v->lo,
			  &v->hi);
	free(mb);
	free(mn);
}

/* Repetitions pooled; the CI still resamples runs where there are some. */
static void test_pooled(struct vsb_cmp_verdict *v, const struct grouped *b,
			const struct grouped *n, struct vsb_mwu *mw)
{
	vsb_mann_whitney(v->b->v, v->b->n, v->n->v, v->n->n, mw);
	v->mb = median_of(v->b);
	v->mn = median_of(v->n);
	/* one run a side: the plain bootstrap, numbers as they always were */
	if (b->r.nruns == 1 && n->r.nruns == 1)
		vsb_ratio_ci(v->b->v, v->b->n, v->n->v, v->n->n, VSB_BOOT_SEED,
			     &v->lo, &v->hi);
	else
		vsb_runs_ratio_ci(&b->r, &n->r, VSB_RUNS_POOLED, VSB_BOOT_SEED,
				  &v->lo, &v->hi);
}

static double median_c2c(const struct vsb_cmp_point *p)
{
	return vsb_median(p->c2c, p->nc2c);
}

/*
 * 1 when the two sides of a multi-CPU point ran with their CPUs clearly
 * nearer or farther apart (VSB_C2C_MOVED_RATIO): the environment changed
 * under the point, and a verdict would be the host's, not the code's.
 */
static int cpus_moved(struct vsb_cmp_verdict *v)
{
	v->c2c_b = median_c2c(v->b);
	v->c2c_n = median_c2c(v->n);
	return vsb_c2c_moved(v->c2c_b, v->c2c_n);
}

/*
 * A multi-CPU point whose runs on @p's side are all worker processes of
 * one sweep.  They ran seconds apart under one placement of the vCPUs and
 * one load of the host's other cores, so their spread says how runs of a
 * sweep differ, not how two sweeps do: measured on a 2-vCPU EPYC VM, 2 of
 * 20 A/A pairs of quick.sweep, one default sweep a side, called a 2-CPU
 * percpu-counter point 16% and 29% slower at p 0.008 (every run of one
 * side beyond every run of the other), while the c2c distance had not
 * moved.  One-CPU points are judged by their runs: without that no
 * default sweep could find a slowdown at all, and in 20 such pairs one
 * one-CPU point went past --max-regression (+5.1%).
 */
static int sweep_runs(const struct vsb_cmp_point *p)
{
	return p->nfiles == 1 && p->nsplit == 1;
}

static int one_sweep(const struct vsb_cmp_point *p)
{
	return p->multi_cpu && sweep_runs(p);
}

/*
 * AUTO, and the store's runs of BASE's point say how far runs of it
 * differ on this machine (compare_store.c).
 */
static int store_knows(const struct vsb_cmp_verdict *v, const struct vsb_cmp_opts *o)
{
	return o->model == VSB_CMP_MODEL_AUTO && !o->runs_only &&
	       v->b->store_runs >= VSB_CMP_STORE_MIN_RUNS && isfinite(v->b->store_cv);
}

/* The store's noise model holds for @v: runs too few for their own rank test. */
static int store_model(const struct vsb_cmp_verdict *v, const struct vsb_cmp_opts *o)
{
	return !v->by_runs && store_knows(v, o);
}

/*
 * A point judged by its runs where a side's runs are one sweep's worker
 * processes, and the store knows how far sweeps of it differ here.  The
 * runs' spread is that of seconds; two sweeps apart differ by more (on
 * the development VM an sd of 2.6 to 4.3% between sweeps 0.3 s apart,
 * docs/trust.md), which the rank test cannot see.  The store's earlier
 * sweeps of the point have measured it, one from the next.
 */
static int sweep_store_floor(const struct vsb_cmp_verdict *v, const struct vsb_cmp_opts *o)
{
	return v->by_runs && (sweep_runs(v->b) || sweep_runs(v->n)) && store_knows(v, o);
}

/*
 * The store's between-run CV c of the point (its runs: one a file, a
 * sweep's whole file one run): two runs made apart differ by sqrt(2) c
 * (sd of the difference), so a change is called only beyond z(alpha)
 * times that, what two runs of the same code differ by with probability
 * alpha.  @by_store: the store is the model (one run a side); else it
 * floors a verdict by runs (sweep_store_floor).
 */
static void floor_by_store(struct vsb_cmp_verdict *v, const struct vsb_cmp_opts *o,
			   int by_store)
{
	if (!by_store)
		v->model = "runs+store";
	v->model_cv = v->b->store_cv;
	v->model_n = v->b->store_runs;
	v->noise = fmax(v->noise, vsb_cmp_z(o->alpha) * M_SQRT2 * v->b->store_cv);
}

/* Why @v is not judged, or NULL when it is; the checks in their order. */
static const char *not_judged(struct vsb_cmp_verdict *v, const struct vsb_cmp_opts *o,
			      int by_store)
{
	/* too few runs comes first: it holds whatever the host did */
	if (o->runs_only && !v->by_runs)
		return vsb_compare_word(VSB_CW_FEW_RUNS);
	if (o->model == VSB_CMP_MODEL_AUTO && !v->by_runs && !by_store)
		return vsb_compare_word(v->one_sweep ? VSB_CW_ONE_SWEEP :
					v->rb >= 2 && v->rn >= 2 ? VSB_CW_FEW_RUNS :
					VSB_CW_NO_MODEL);
	if (cpus_moved(v))
		return vsb_compare_word(VSB_CW_MOVED);
	return NULL;
}

/* The MDE from what the test compared: run medians, or repetitions */
static void mde_of(struct vsb_cmp_verdict *v, const struct vsb_cmp_opts *o,
		   const struct grouped *b, const struct grouped *n)
{
	double *mb, *mn;

	if (!v->by_runs) {
		v->mde = vsb_cmp_mde(v, o, v->b->v, v->b->n, v->n->v, v->n->n);
		return;
	}
	mb = vsb_zalloc(b->r.nruns * sizeof(*mb));
	mn = vsb_zalloc(n->r.nruns * sizeof(*mn));
	vsb_runs_medians(&b->r, mb);
	vsb_runs_medians(&n->r, mn);
	v->mde = vsb_cmp_mde(v, o, mb, b->r.nruns, mn, n->r.nruns);
	free(mb);
	free(mn);
}

static void judge_pair(struct vsb_cmp_verdict *v, const struct vsb_cmp_opts *o)
{
	struct grouped gb, gn;
	struct vsb_mwu mw;
	const char *why;
	int by_store;

	if (vsb_cmp_exact_unit(v->b->unit)) {
		/* no noise model to want: the count is what ran (compare_verdict.c) */
		vsb_cmp_judge_exact(v, o);
		return;
	}
	group_runs(v->b, &gb);
	group_runs(v->n, &gn);
	v->rb = gb.r.nruns;
	v->rn = gn.r.nruns;
	v->between = vsb_runs_between_cv(&gb.r, &gn.r);
	v->by_runs = vsb_mwu_min_p(v->rb, v->rn) < o->alpha;
	/* AUTO: such runs are no model of between-sweep noise (one_sweep()) */
	v->one_sweep = o->model == VSB_CMP_MODEL_AUTO && !o->runs_only &&
		       (one_sweep(v->b) || one_sweep(v->n));
	if (v->one_sweep)
		v->by_runs = 0;
	by_store = store_model(v, o);
	if (v->by_runs)
		test_runs(v, &gb, &gn, &mw);
	else
		test_pooled(v, &gb, &gn, &mw);
	v->ratio = v->mn / v->mb;
	v->p = v->p_adj = mw.p;
	v->exact = mw.exact;
	/*
	 * Pooled, the repetitions' CV bounds what is called, as it always
	 * did; per run, the run medians' spread is the noise of the number
	 * tested, and a repetition far out inside one run moves neither.
	 */
	v->noise = o->noise_pct / 100;
	if (!v->by_runs)
		v->noise = fmax(v->noise, fmax(cv_of(v->b->v, v->b->n),
					       cv_of(v->n->v, v->n->n)));
	if (!isnan(v->between))
		v->noise = fmax(v->noise, VSB_CMP_BETWEEN_K * v->between);
	v->model = v->by_runs ? "runs" : by_store ? "store" : "reps";
	v->model_cv = v->between;
	v->model_n = v->rb + v->rn;
	if (by_store || sweep_store_floor(v, o))
		floor_by_store(v, o, by_store);
	mde_of(v, o, &gb, &gn);
	vsb_cmp_decide(v, o);
	why = not_judged(v, o, by_store);
	if (why) {
		v->verdict = why;
		v->regression = 0;
		v->model = "none";
		v->rule = "none";
		v->mde = NAN;
	}
	grouped_free(&gb);
	grouped_free(&gn);
}

/* Every repetition of a side was disturbed: nothing to judge it by. */
static void judge_disturbed(struct vsb_cmp_verdict *v)
{
	v->verdict = vsb_compare_word(VSB_CW_DISTURBED);
	v->model = "none";
	if (v->b->n)
		v->mb = median_of(v->b);
	if (v->n->n)
		v->mn = median_of(v->n);
}

/* What the judged pair @v adds to the counts `compare` warns from. */
static void count_pair(struct vsb_compare *c, const struct vsb_cmp_verdict *v)
{
	size_t fewer = v->rb < v->rn ? v->rb : v->rn;

	c->nreg += v->regression;
	c->moved += vsb_cmp_is(v, VSB_CW_MOVED);
	c->ndisturbed += v->b->ndist + v->n->ndist;
	c->by_runs += !strncmp(v->model, "runs", 4);
	c->runs_store += !strcmp(v->model, "runs+store");
	c->by_store += !strcmp(v->model, "store");
	c->by_reps += !strcmp(v->model, "reps");
	c->no_model += vsb_cmp_is(v, VSB_CW_NO_MODEL);
	c->nslow += vsb_cmp_is(v, VSB_CW_SLOWER);
	c->nfast += vsb_cmp_is(v, VSB_CW_FASTER);
	c->nsame += vsb_cmp_is(v, VSB_CW_SAME);
	c->nchanged += vsb_cmp_is(v, VSB_CW_CHANGED);
	if (vsb_cmp_is(v, VSB_CW_INCONCLUSIVE)) {
		c->ninconc++;
		c->mde_lo = isnan(c->mde_lo) ? v->mde : fmin(c->mde_lo, v->mde);
		c->mde_hi = isnan(c->mde_hi) ? v->mde : fmax(c->mde_hi, v->mde);
	}
	if (!strcmp(v->model, "exact")) {
		c->by_exact++;
		return;	/* no runs, floors or repetitions' count to warn of */
	}
	if (vsb_cmp_is(v, VSB_CW_DISTURBED)) {
		c->all_disturbed++;
		return;
	}
	if (v->rb == 1 && v->rn == 1)
		c->one_run++;
	else if (!v->by_runs && !v->one_sweep) {
		c->few_runs++;
		if (fewer < c->fewest_runs)
			c->fewest_runs = fewer;
	}
	/* the repetitions' count is not what the test sees, or no test ran */
	if (v->by_runs || vsb_cmp_is(v, VSB_CW_FEW_RUNS) ||
	    vsb_cmp_is(v, VSB_CW_NO_MODEL) || vsb_cmp_is(v, VSB_CW_ONE_SWEEP))
		return;
	if (v->b->n < c->fewest)
		c->fewest = v->b->n;
	if (v->n->n < c->fewest)
		c->fewest = v->n->n;
}

/* @v judged afresh under @o; not counted (count_pair) */
static void judge_one(struct vsb_cmp_verdict *v, const struct vsb_cmp_opts *o)
{
	v->mb = v->mn = v->ratio = v->lo = v->hi = v->p = v->p_adj = NAN;
	v->c2c_b = v->c2c_n = NAN;
	v->between = NAN;
	v->rb = v->rn = 0;
	v->by_runs = 0;
	v->one_sweep = 0;
	v->model = "none";
	v->rule = "none";
	v->model_cv = NAN;
	v->model_n = 0;
	v->mde = v->mde_min_p = v->mde_se = NAN;
	if (!v->b || !v->n) {
		v->verdict = vsb_compare_word(v->b ? VSB_CW_ONLY_BASE :
					      VSB_CW_ONLY_NEW);
		if (v->b)
			v->mb = median_of(v->b);
		else
			v->mn = median_of(v->n);
	} else if (v->b->n && v->n->n) {
		judge_pair(v, o);
	} else {
		judge_disturbed(v);
	}
}

static void judge_all(struct vsb_compare *c, const struct vsb_cmp_opts *o)
{
	size_t i;

	for (i = 0; i < c->nv; i++)
		judge_one(&c->vs[i], o);
}

/*
 * Every pair judged on its own; then, where the rank test judged more
 * than one, alpha shared over them (compare_family.c): their MDEs at
 * alpha / family, their verdicts on the adjusted p.
 */
void vsb_cmp_judge(struct vsb_compare *c, const struct vsb_cmp_opts *o)
{
	size_t i;

	c->nreg = c->unmatched = c->one_run = c->few_runs = c->moved = 0;
	c->by_runs = c->by_store = c->by_reps = c->no_model = c->runs_store = 0;
	c->all_disturbed = c->ndisturbed = 0;
	c->nslow = c->nfast = c->nsame = c->ninconc = c->by_exact = 0;
	c->nchanged = 0;
	c->mde_lo = c->mde_hi = NAN;
	c->fewest = c->fewest_runs = (size_t)-1;
	judge_all(c, o);
	c->family = o->per_point ? 0 : vsb_cmp_family_size(c);
	if (c->family > 1)
		vsb_cmp_share_alpha(c, o);
	for (i = 0; i < c->nv; i++) {
		if (!c->vs[i].b || !c->vs[i].n)
			c->unmatched++;
		else
			count_pair(c, &c->vs[i]);
	}
	vsb_cmp_common_shift(c);
}
