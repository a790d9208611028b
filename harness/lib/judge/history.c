// SPDX-License-Identifier: GPL-2.0
/*
 * Building a point's history (history.h): runs split by machine, put in
 * kernel, revision or date order, summarised per entry (median and
 * bootstrap 95% CI of its repetitions), then searched for change points
 * on the entries' medians (changepoint.c) and judged by the --check rule.
 * An entry is one run: several runs on one kernel stay apart, so a noisy
 * run shows as such and the change-point search sees every measurement.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vsb.h"
#include "history.h"
#include "c2c_rule.h"
#include "stats.h"

static const char *const by_names[] = {
	[VSB_HIST_BY_DATE] = "date",
	[VSB_HIST_BY_KERNEL] = "kernel",
	[VSB_HIST_BY_REVISION] = "revision",
};

int vsb_hist_by_parse(const char *s, enum vsb_hist_by *by)
{
	size_t i;

	for (i = 0; i < sizeof(by_names) / sizeof(by_names[0]); i++)
		if (s && !strcmp(s, by_names[i])) {
			*by = (enum vsb_hist_by)i;
			return 0;
		}
	return -1;
}

const char *vsb_hist_by_name(enum vsb_hist_by by)
{
	return by_names[by];
}

static int is_rc(const char *s)
{
	return s[0] == '-' && s[1] == 'r' && s[2] == 'c';
}

/*
 * By hand: dpkg's comparison lives in libdpkg (static, unstable API) and
 * libapt-pkg (C++), and glibc's strverscmp() puts 6.2 before 6.2-rc3.
 */
int vsb_kernel_vercmp(const char *a, const char *b)
{
	while (*a || *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			size_t la, lb;

			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			for (la = 0; isdigit((unsigned char)a[la]); la++)
				;
			for (lb = 0; isdigit((unsigned char)b[lb]); lb++)
				;
			if (la != lb)
				return la < lb ? -1 : 1;	/* more digits: larger */
			if (memcmp(a, b, la))
				return memcmp(a, b, la);
			a += la;
			b += lb;
			continue;
		}
		/* a release candidate comes before whatever else follows */
		if (is_rc(a) != is_rc(b))
			return is_rc(a) ? -1 : 1;
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return 0;
}

int vsb_hist_mixed_units(const struct vsb_series *se, const char **u1, const char **u2)
{
	/* each machine's first run: a fleet holds a handful of machines */
	const struct vsb_series_run **first = vsb_zalloc((se->n + 1) * sizeof(*first));
	size_t i, j, nm = 0;
	int mixed = 0;

	for (i = 0; i < se->n && !mixed; i++) {
		const struct vsb_series_run *r = &se->runs[i];

		for (j = 0; j < nm && strcmp(first[j]->machine, r->machine); j++)
			;
		if (j == nm)
			first[nm++] = r;
		else if (strcmp(first[j]->unit, r->unit)) {
			*u1 = first[j]->unit;
			*u2 = r->unit;
			mixed = 1;
		}
	}
	free(first);
	return mixed;
}

/* The sort key of an entry: a group (kernel, revision) then the date. */
struct ord {
	struct vsb_hist_entry e;
	const char *first;	/* revision order: its revision's first date */
	size_t pos;		/* stability */
	enum vsb_hist_by by;
};

static int cmp_ord(const void *pa, const void *pb)
{
	const struct ord *a = pa, *b = pb;
	const struct vsb_series_run *ra = a->e.run, *rb = b->e.run;
	int c = 0;

	if (a->by == VSB_HIST_BY_KERNEL)
		c = vsb_kernel_vercmp(ra->kernel, rb->kernel);
	else if (a->by == VSB_HIST_BY_REVISION)
		c = strcmp(a->first, b->first) ?: strcmp(ra->revision, rb->revision);
	if (!c)
		c = strcmp(ra->date, rb->date);
	return c ?: (a->pos > b->pos) - (a->pos < b->pos);
}

void vsb_hist_order(struct vsb_hist_entry *e, size_t n, enum vsb_hist_by by)
{
	struct ord *o = vsb_zalloc((n ?: 1) * sizeof(*o));
	size_t i, j;

	for (i = 0; i < n; i++) {
		o[i] = (struct ord){ .e = e[i], .pos = i, .by = by,
				     .first = e[i].run->date };
		/* O(n^2) only over distinct revisions' runs: fine for 1000s */
		for (j = 0; by == VSB_HIST_BY_REVISION && j < n; j++)
			if (!strcmp(e[j].run->revision, e[i].run->revision) &&
			    strcmp(e[j].run->date, o[i].first) < 0)
				o[i].first = e[j].run->date;
	}
	qsort(o, n, sizeof(*o), cmp_ord);
	for (i = 0; i < n; i++)
		e[i] = o[i].e;
	free(o);
}

/* Each entry's segment median: the median of the medians between cuts. */
static void segment_medians(struct vsb_hist_series *hs, const double *med)
{
	size_t a = 0, k, i;

	for (k = 0; k <= hs->ncp; k++) {
		size_t e = k < hs->ncp ? hs->cp[k].index : hs->n;
		double m = vsb_median(med + a, e - a);

		for (i = a; i < e; i++)
			hs->e[i].seg_median = m;
		if (k < hs->ncp)
			hs->e[e].cp = k + 1;
		a = e;
	}
}

/* median c2c_ns of entries [a, b) of @hs; NAN when none is known */
static double c2c_median(const struct vsb_hist_series *hs, size_t a, size_t b)
{
	double *t = vsb_zalloc((b > a ? b - a : 1) * sizeof(*t)), m;
	size_t i, n = 0;

	for (i = a; i < b && i < hs->n; i++)
		if (hs->e[i].run->c2c_ns > 0)	/* NAN or 0: unknown */
			t[n++] = hs->e[i].run->c2c_ns;
	m = vsb_median(t, n);
	free(t);
	return m;
}

int vsb_hist_cp_moved(const struct vsb_hist_series *hs, size_t k)
{
	return k < hs->ncp && vsb_c2c_moved(hs->cp_c2c[k][0], hs->cp_c2c[k][1]);
}

/* The entries [*a, *b) of the two segments either side of change point @k */
static void cp_segments(const struct vsb_hist_series *hs, size_t k, size_t *a, size_t *b)
{
	*a = k ? hs->cp[k - 1].index : 0;
	*b = k + 1 < hs->ncp ? hs->cp[k + 1].index : hs->n;
}

/*
 * compare's rule, over time: a multi-CPU point's cost follows where the
 * host put its vCPUs (c2c.c), so a step between entries whose CPUs were
 * clearly nearer or farther apart is marked, and a newest entry that is
 * slower only next to such a move is not called a regression.
 */
static void apply_moved(struct vsb_hist_series *hs)
{
	struct vsb_cp_verdict *v = &hs->verdict;
	size_t k;

	for (k = 0; k < hs->ncp; k++) {
		size_t a, b;

		cp_segments(hs, k, &a, &b);
		hs->cp_c2c[k][0] = c2c_median(hs, a, hs->cp[k].index);
		hs->cp_c2c[k][1] = c2c_median(hs, hs->cp[k].index, b);
	}
	hs->c2c_base = c2c_median(hs, v->base_start, v->base_end);
	hs->c2c_new = c2c_median(hs, v->new_start, hs->n);
	hs->moved = v->regression && vsb_c2c_moved(hs->c2c_base, hs->c2c_new);
	if (hs->moved)
		v->regression = 0;
}

/*
 * 1 when entries [a, b) of @hs all ran one build: the same kernel and
 * the same known revision.  A bare "-dirty" revision names a tree with
 * edits that may differ from run to run, "unknown" none at all; one with
 * the hash of its edits ("-dirty+1a2b3c4d", ci/git-rev.sh) names them.
 */
static int one_build(const struct vsb_hist_series *hs, size_t a, size_t b)
{
	const struct vsb_series_run *r0 = hs->e[a].run;
	size_t len = strlen(r0->revision), i;

	if (!len || !strcmp(r0->revision, "unknown") || !strcmp(r0->revision, "?") ||
	    (len >= 6 && !strcmp(r0->revision + len - 6, "-dirty")))
		return 0;
	for (i = a + 1; i < b; i++)
		if (strcmp(hs->e[i].run->kernel, r0->kernel) ||
		    strcmp(hs->e[i].run->revision, r0->revision))
			return 0;
	return 1;
}

int vsb_hist_cp_one_build(const struct vsb_hist_series *hs, size_t k)
{
	return k < hs->ncp && hs->cp_one_build[k];
}

size_t vsb_hist_ncode(const struct vsb_hist_series *hs)
{
	size_t k, n = 0;

	for (k = 0; k < hs->ncp; k++)
		n += !hs->cp_one_build[k];
	return n;
}

/*
 * A step where the code did not change is not the code's.  The segments
 * either side of each change point, not just its two entries: a step is
 * found within an entry or two of where it happened, and a kernel that
 * changed anywhere in them may be what moved.  The --check verdict the
 * same way, over its baseline and newest entries (after apply_moved: a
 * regression not called for moved CPUs stays so).
 */
static void apply_one_build(struct vsb_hist_series *hs)
{
	struct vsb_cp_verdict *v = &hs->verdict;
	size_t k;

	for (k = 0; k < hs->ncp; k++) {
		size_t a, b;

		cp_segments(hs, k, &a, &b);
		hs->cp_one_build[k] = (unsigned char)one_build(hs, a, b);
	}
	hs->one_build_newest = v->regression && one_build(hs, v->base_start, hs->n);
	if (hs->one_build_newest)
		v->regression = 0;
}

/*
 * Keep the change points whose step is at least VSB_HIST_CP_MIN_REL,
 * each one's sides taken again over the cuts that are left (a step
 * dropped joins its two segments).
 */
static void keep_steps(struct vsb_hist_series *hs, const double *med)
{
	size_t k, kept, a, e;
	int again = 1;

	while (again) {
		again = 0;
		for (k = kept = 0; k < hs->ncp; k++) {
			a = kept ? hs->cp[kept - 1].index : 0;
			e = k + 1 < hs->ncp ? hs->cp[k + 1].index : hs->n;
			hs->cp[k].before = vsb_median(med + a, hs->cp[k].index - a);
			hs->cp[k].after = vsb_median(med + hs->cp[k].index,
						     e - hs->cp[k].index);
			hs->cp[k].rel_change = hs->cp[k].before != 0 ?
				(hs->cp[k].after - hs->cp[k].before) / hs->cp[k].before : NAN;
			if (fabs(hs->cp[k].rel_change) >= VSB_HIST_CP_MIN_REL)
				hs->cp[kept++] = hs->cp[k];
			else
				again = 1;
		}
		hs->ncp = kept;
	}
}

/*
 * A newest entry that is not a regression is not thereby the same: the
 * same only when the 95% CI of its median over the baseline's (entries
 * are runs, so the CI is over runs, the spread that matters) lies inside
 * 1 +- VSB_CP_THRESHOLD; a store too short to have a baseline, or too
 * noisy for that, is inconclusive and says so, with the rule's margin
 * (the smallest step it would call) as what it could not tell.
 */
static void judge_check(struct vsb_hist_series *hs, const double *med)
{
	const struct vsb_cp_verdict *v = &hs->verdict;
	double thr = VSB_CP_THRESHOLD;

	hs->check_lo = hs->check_hi = NAN;
	hs->check = v->regression ? "slower" : hs->moved ? "moved" :
		    hs->one_build_newest ? "one-build" : "inconclusive";
	if (v->regression || hs->moved || hs->one_build_newest ||
	    v->rule == VSB_CP_RULE_NONE || !(v->base > 0))
		return;
	vsb_ratio_ci(med + v->base_start, v->base_end - v->base_start,
		     med + v->new_start, hs->n - v->new_start, VSB_BOOT_SEED,
		     &hs->check_lo, &hs->check_hi);
	if (v->rel_change < -v->margin && hs->check_hi < 1)
		hs->check = "faster";
	else if (hs->check_lo >= 1 - thr && hs->check_hi <= 1 + thr)
		hs->check = "same";
}

int vsb_hist_analyse(struct vsb_hist_series *hs)
{
	double *med = vsb_zalloc((hs->n ?: 1) * sizeof(*med));
	size_t i;
	int ret;

	for (i = 0; i < hs->n; i++) {
		struct vsb_hist_entry *e = &hs->e[i];

		e->median = vsb_median(e->run->samples, e->run->n);
		vsb_median_ci(e->run->samples, e->run->n, VSB_BOOT_SEED, &e->ci_lo,
			      &e->ci_hi);
		e->cp = 0;
		med[i] = e->median;
	}
	memset(&hs->verdict, 0, sizeof(hs->verdict));
	ret = vsb_changepoints(med, hs->n, VSB_HIST_CP_ALPHA, VSB_CP_PERMUTATIONS,
			       VSB_CP_SEED, VSB_CP_MIN_SEGMENT, hs->cp,
			       VSB_HIST_MAX_CP, &hs->ncp);
	if (!ret)
		keep_steps(hs, med);
	if (!ret && hs->n)
		segment_medians(hs, med);
	if (!ret && hs->n)
		ret = vsb_cp_newest_regression(med, hs->n, hs->cp, hs->ncp,
					       VSB_CP_THRESHOLD, VSB_CP_TAIL,
					       VSB_CP_CHECK_ALPHA, &hs->verdict);
	hs->moved = 0;
	hs->c2c_base = hs->c2c_new = NAN;
	if (!ret && hs->n)
		apply_moved(hs);
	memset(hs->cp_one_build, 0, sizeof(hs->cp_one_build));
	hs->one_build_newest = 0;
	if (!ret && hs->n)
		apply_one_build(hs);
	if (!ret)
		judge_check(hs, med);
	free(med);
	return ret;
}

/* The series of @machine in @hs[0..*n), appended when new. */
static struct vsb_hist_series *series_of(struct vsb_hist_series **hs, size_t *n,
					 const struct vsb_series *se,
					 const struct vsb_series_run *r)
{
	struct vsb_hist_series *s;
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*hs)[i].machine, r->machine))
			return &(*hs)[i];
	s = realloc(*hs, (*n + 1) * sizeof(**hs));
	if (!s)
		return NULL;
	*hs = s;
	s = &s[(*n)++];
	memset(s, 0, sizeof(*s));
	s->point_key = se->point_key;
	snprintf(s->machine, sizeof(s->machine), "%s", r->machine);
	snprintf(s->cpu_model, sizeof(s->cpu_model), "%s", r->cpu_model);
	snprintf(s->unit, sizeof(s->unit), "%s", r->unit);
	s->e = calloc(se->n, sizeof(*s->e));
	return s->e ? s : NULL;
}

int vsb_hist_build(const struct vsb_series *se, enum vsb_hist_by by,
		   struct vsb_hist_series **out, size_t *nout)
{
	struct vsb_hist_series *hs = NULL;
	const char *u1, *u2;
	size_t i, n = 0;
	int ret = 0;

	*out = NULL;
	*nout = 0;
	if (vsb_hist_mixed_units(se, &u1, &u2))
		return -EINVAL;
	for (i = 0; i < se->n; i++) {
		struct vsb_hist_series *s;

		if (!se->runs[i].n)
			continue;	/* no per_op in any repetition */
		s = series_of(&hs, &n, se, &se->runs[i]);
		if (!s) {
			ret = -ENOMEM;
			goto err_free;
		}
		s->e[s->n++].run = &se->runs[i];
	}
	for (i = 0; i < n && !ret; i++) {
		vsb_hist_order(hs[i].e, hs[i].n, by);
		ret = vsb_hist_analyse(&hs[i]);
	}
	if (ret)
		goto err_free;
	*out = hs;
	*nout = n;
	return 0;
err_free:
	vsb_hist_free(hs, n);
	return ret;
}

void vsb_hist_free(struct vsb_hist_series *hs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(hs[i].e);
	free(hs);
}
