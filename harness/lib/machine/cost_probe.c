// SPDX-License-Identifier: GPL-2.0
/*
 * cost_probe.c - calibrate --costs's measurement: every user-space row
 * of the cost table timed on one pinned CPU, in core cycles.
 *
 * Each loop of cost_loops.c is timed with the TSC in many short samples
 * (about 50k ticks each, so that a preemption spoils a sample, not the
 * row), every loop once a round, round after round, so that a slow
 * stretch of the machine hits every row alike rather than one.  Beside
 * each sample the empty loop runs the same number of iterations; the
 * median empty time is subtracted, leaving the instructions alone.
 *
 * The dependent add chain, one cycle an add on every x86 core since the
 * P6, is the clock: its median TSC ticks per add is tsc_per_cycle, and
 * every row is its ticks over that.  The TSC runs at a fixed rate, the
 * core at whatever its governor and boost give it, so cycles are what
 * carries over between runs; the imul chain (3 cycles on every Intel
 * core since Nehalem and every AMD Zen) checks the conversion.
 */
#define _GNU_SOURCE
#if defined(__x86_64__)
#include <asm/prctl.h>
#include <cpuid.h>
#else
#define ARCH_SET_GS	0	/* no GS base to set: cost_loops.c has no loops */
#define ARCH_GET_GS	0
#endif
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "vsb.h"
#include "clock.h"
#include "stats.h"
#include "cost_loops.h"
#include "cost_probe.h"

/* a sample's length in TSC ticks: long beside rdtscp, short beside a tick */
#define SAMPLE_TICKS	50000.0
#define ITERS_MAX	1000000ull

struct loop_run {
	const struct vsb_cost_loop_def *d;
	uint64_t iters;
	double *x, *e;		/* ticks of each sample: the loop, the empty loop */
	double *per;		/* ticks an instruction, the empty median off */
};

/* arch_prctl has no glibc wrapper before 2.34 */
static long gs_base(int code, unsigned long v)
{
	return syscall(SYS_arch_prctl, code, v);
}

/* One timed run of @d over @mem; the GS base set to @mem around it. */
static double time_loop(const struct vsb_cost_loop_def *d, uint64_t iters, void *mem)
{
	unsigned long old = 0;
	uint64_t t0, t1;

	if (d->gs) {
		gs_base(ARCH_GET_GS, (unsigned long)&old);
		gs_base(ARCH_SET_GS, (unsigned long)mem);
	}
	t0 = vsb_rdtscp();
	d->fn(iters, mem);
	t1 = vsb_rdtscp();
	if (d->gs)
		gs_base(ARCH_SET_GS, old);
	return (double)(t1 - t0);
}

/*
 * Whether this thread may set its GS base (a seccomp filter may refuse
 * arch_prctl): the %gs loop would fault without it.  0, or VSB_EXIT_SKIP
 * after one line.
 */
static int gs_usable(void *mem)
{
	unsigned long old = 0;

	if (gs_base(ARCH_GET_GS, (unsigned long)&old) ||
	    gs_base(ARCH_SET_GS, (unsigned long)mem)) {
		vsb_err("calibrate --costs: arch_prctl(ARCH_SET_GS): %s: cannot time "
			"cmpxchg through %%gs here", strerror(errno));
		return VSB_EXIT_SKIP;
	}
	gs_base(ARCH_SET_GS, old);
	return 0;
}

/* iterations for a sample of about SAMPLE_TICKS, from the fastest of a few */
static uint64_t size_loop(const struct vsb_cost_loop_def *d, void *mem)
{
	double best = INFINITY, t, it;
	int i;

	time_loop(d, 1, mem);	/* warm: code, data, the GS path */
	for (i = 0; i < 5; i++) {
		t = time_loop(d, 1, mem);
		if (t < best)
			best = t;
	}
	it = SAMPLE_TICKS / (best > 1 ? best : 1);
	return it < 1 ? 1 : it > (double)ITERS_MAX ? ITERS_MAX : (uint64_t)it;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* @v's median and 10th/90th percentiles, over @k ticks a cycle */
static void summarize(const double *v, size_t n, double k, struct vsb_prim_cost *c)
{
	double *s = vsb_zalloc(n * sizeof(*s));
	size_t i;

	for (i = 0; i < n; i++)
		s[i] = v[i] / k;
	qsort(s, n, sizeof(*s), cmp_double);
	c->median = vsb_median_sorted(s, n);
	c->lo = vsb_quantile_sorted(s, n, 0.10);
	c->hi = vsb_quantile_sorted(s, n, 0.90);
	c->n = n;
	free(s);
}

/* The rounds: every loop once a round, each beside an empty loop. */
static void sample_all(struct loop_run *r, unsigned int nl, size_t ns, void *mem)
{
	const struct vsb_cost_loop_def *empty = r[0].d;
	size_t s;
	unsigned int i;

	for (s = 0; s < ns; s++) {
		for (i = 0; i < nl; i++) {
			r[i].e[s] = time_loop(empty, r[i].iters, mem);
			r[i].x[s] = time_loop(r[i].d, r[i].iters, mem);
		}
	}
	for (i = 0; i < nl; i++) {
		double em = vsb_median(r[i].e, ns), div = (double)r[i].iters * r[i].d->per_iter;

		for (s = 0; s < ns; s++)
			r[i].per[s] = (r[i].x[s] - em) / div;
	}
}

/* The table from the samples: the add chain's ticks are the clock. */
static void fill_table(struct vsb_cost_table *t, struct loop_run *r,
		       unsigned int nl, size_t ns)
{
	const double *pair = NULL, *pushf = NULL;
	double k = NAN, *popf;
	unsigned int i;
	size_t s;

	for (i = 0; i < nl; i++)
		if (r[i].d->prim == VSB_PRIM_ADD_CHAIN)
			k = vsb_median(r[i].per, ns);
	t->tsc_per_cycle = k;
	for (i = 0; i < nl; i++) {
		if (r[i].d->prim >= 0)
			summarize(r[i].per, ns, k, &t->p[r[i].d->prim]);
		if (r[i].d->prim == VSB_PRIM_PUSHF)
			pushf = r[i].per;
		else if (i == VSB_LOOP_PUSHF_POPF)
			pair = r[i].per;
	}
	/* popf: the pair less pushf's row, sample by sample of one round */
	popf = vsb_zalloc(ns * sizeof(*popf));
	for (s = 0; pair && pushf && s < ns; s++)
		popf[s] = pair[s] - pushf[s];
	if (pair && pushf)
		summarize(popf, ns, k, &t->p[VSB_PRIM_POPF]);
	free(popf);
}

/* the calling thread on @cpu alone, its old set into @old */
static int pin(int cpu, cpu_set_t *old)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(*old), old)) {
		vsb_err("cannot read this thread's CPUs: %s", strerror(errno));
		return VSB_EXIT_ERROR;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		vsb_err("--cpu: cannot pin to CPU %d: %s", cpu, strerror(errno));
		return VSB_EXIT_USAGE;
	}
	return 0;
}

static void stamp_when(struct vsb_cost_table *t)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(t->when, sizeof(t->when), "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int vsb_cost_measure_n(struct vsb_cost_table *t, int cpu, size_t ns)
{
	unsigned int nl, i;
	const struct vsb_cost_loop_def *defs = vsb_cost_loops(&nl);
	struct loop_run *r;
	cpu_set_t old;
	void *mem;
	int ret;

	memset(t, 0, sizeof(*t));
	vsb_cost_table_clear(t);
	if (!defs) {
		vsb_err("calibrate --costs: times x86-64 instructions, and this is "
			"not an x86-64 build: skipped");
		return VSB_EXIT_SKIP;
	}
	ret = vsb_cost_host_key(t);
	if (ret)
		return ret;
	ret = pin(cpu < 0 ? vsb_cpu_first_allowed() : cpu, &old);
	if (ret)
		return ret;
	if (ns < 11)
		ns = 11;
	mem = vsb_zalloc_page(VSB_COST_MEM);
	ret = gs_usable(mem);
	if (ret) {
		free(mem);
		sched_setaffinity(0, sizeof(old), &old);
		return ret;
	}
	r = vsb_zalloc(nl * sizeof(*r));
	for (i = 0; i < nl; i++) {
		r[i].d = &defs[i];
		r[i].x = vsb_zalloc(3 * ns * sizeof(double));
		r[i].e = r[i].x + ns;
		r[i].per = r[i].x + 2 * ns;
		r[i].iters = size_loop(r[i].d, mem);
	}
	stamp_when(t);
	sample_all(r, nl, ns, mem);
	fill_table(t, r, nl, ns);
	for (i = 0; i < nl; i++)
		free(r[i].x);
	free(r);
	free(mem);
	sched_setaffinity(0, sizeof(old), &old);
	return 0;
}

int vsb_cost_check(const struct vsb_cost_table *t, char *a, char *b, size_t len)
{
	double imul = t->p[VSB_PRIM_IMUL_CHAIN].median;
	double lock = t->p[VSB_PRIM_LOCK_CMPXCHG].median;
	double add = t->p[VSB_PRIM_ADD_CHAIN].median;
	int imul_ok = fabs(imul - 3.0) <= 0.3, lock_ok = lock > add;

	snprintf(a, len, "imul_chain %.3f cycles (want 3.0 within 10%%): %s", imul,
		 imul_ok ? "ok" : "FAILED (the add chain's clock is off)");
	snprintf(b, len, "lock_cmpxchg %.3f cycles > add_chain %.3f: %s", lock, add,
		 lock_ok ? "ok" : "FAILED");
	return imul_ok && lock_ok ? 0 : 1;
}

void vsb_cost_hypervisor(char *buf, size_t len)
{
	char sig[13] = "";
#if defined(__x86_64__)
	unsigned int a, b, c, d;

	__cpuid(1, a, b, c, d);
	if (c & (1u << 31)) {		/* the hypervisor bit */
		__cpuid(0x40000000, a, b, c, d);
		memcpy(sig, &b, 4);
		memcpy(sig + 4, &c, 4);
		memcpy(sig + 8, &d, 4);
		sig[12] = '\0';
	}
#endif
	snprintf(buf, len, "%s", sig);
}

int vsb_cost_measure(struct vsb_cost_table *t, int cpu)
{
	return vsb_cost_measure_n(t, cpu, VSB_COST_SAMPLES);
}
