// SPDX-License-Identifier: GPL-2.0
/*
 * How far apart two CPUs are, as a cache line sees it: the round trip of
 * a line bounced between two threads pinned to them.
 *
 * Why: on a VM the host places the vCPUs on SMT siblings one minute and
 * on distant cores the next, and a contended point (a shared counter, a
 * spinlock) then costs up to twice as much.  Runs made minutes apart
 * (the two sides of an A/B) can differ by that much with no change to
 * the code, and no statistic over the samples tells that from a patch.
 * The result's metadata carries the distance (c2c_ns), measured after
 * the run and outside every timed window, and compare declines to judge
 * a multi-CPU point whose two sides ran at clearly different distances.
 */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "c2c.h"
#include "clock.h"
#include "vsb.h"

#define C2C_TRIPS	2000	/* round trips a try: ~0.1-1 ms */
#define C2C_TRIES	5
#define C2C_DEADLINE_NS	200000000ull	/* a starved partner: give up */

struct c2c {
	int flag __attribute__((aligned(VSB_CACHELINE)));	/* the bounced line */
	int stop __attribute__((aligned(VSB_CACHELINE)));
	int cpu;
};

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* The partner: answers every ping (1) with a pong (0) until told to stop. */
static void *pong(void *arg)
{
	struct c2c *c = arg;

	if (pin(c->cpu))
		return NULL;
	while (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE))
		if (__atomic_load_n(&c->flag, __ATOMIC_ACQUIRE) == 1)
			__atomic_store_n(&c->flag, 0, __ATOMIC_RELEASE);
	return NULL;
}

/* One try: ns per round trip, or NaN past the deadline. */
static double one_try(struct c2c *c, uint64_t deadline)
{
	uint64_t t0 = vsb_now_ns();
	unsigned long spins = 0;
	int i;

	for (i = 0; i < C2C_TRIPS; i++) {
		__atomic_store_n(&c->flag, 1, __ATOMIC_RELEASE);
		while (__atomic_load_n(&c->flag, __ATOMIC_ACQUIRE) == 1)
			if (!(++spins & 0xffff) && vsb_now_ns() > deadline)
				return NAN;
	}
	return (double)(vsb_now_ns() - t0) / C2C_TRIPS;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double vsb_c2c_ns(int cpu_a, int cpu_b)
{
	struct c2c *c = vsb_zalloc_aligned(sizeof(*c));
	double t[C2C_TRIES], ret = NAN;
	cpu_set_t old;
	pthread_t th;
	uint64_t deadline;
	int i;

	c->cpu = cpu_b;
	pthread_getaffinity_np(pthread_self(), sizeof(old), &old);
	if (pin(cpu_a) || pthread_create(&th, NULL, pong, c))
		goto out;
	deadline = vsb_now_ns() + C2C_DEADLINE_NS;
	for (i = 0; i < C2C_TRIES; i++) {
		t[i] = one_try(c, deadline);
		if (isnan(t[i]))
			break;
	}
	__atomic_store_n(&c->stop, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	if (i == C2C_TRIES) {
		qsort(t, C2C_TRIES, sizeof(t[0]), cmp_double);
		ret = t[C2C_TRIES / 2];
	}
out:
	pthread_setaffinity_np(pthread_self(), sizeof(old), &old);
	free(c);
	return ret;
}
