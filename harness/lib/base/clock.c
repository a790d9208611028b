// SPDX-License-Identifier: GPL-2.0
/*
 * Time sources: CLOCK_MONOTONIC_RAW nanoseconds and the TSC rate.
 *
 * The TSC rate is calibrated against CLOCK_MONOTONIC_RAW (not NTP-slewed)
 * over three 4 ms windows and the median taken.  Each window's ends are
 * (clock, TSC) pairs read back to back, the clock on both sides of the
 * TSC and read again while those two are more than 2 us apart, so an
 * interrupt or a preemption between them cannot skew a pair; one during
 * the sleep does nothing, only the ends count.  That bound (2 us in 4 ms,
 * 0.05%, typically a hundredth of it) is far below any spread a figure
 * is judged by, and calibrating takes 12 ms of every run, not the 60
 * that three unguarded 20 ms windows took.  A pair still wider after 100
 * tries (a host that stalls the vCPU all the while) is used as it is;
 * the median of three windows keeps one such end out of the rate.  The
 * CPU flags that
 * say whether the TSC is trustworthy across frequency changes and idle
 * (constant_tsc, nonstop_tsc) are reported with it.
 */
#define _GNU_SOURCE
#include <string.h>
#include <time.h>

#include "clock.h"
#include "vsb.h"

uint64_t vsb_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* One (clock, TSC) pair, the clock read on both sides of the TSC */
static void clock_pair(uint64_t *ns, uint64_t *tsc)
{
	uint64_t a, b, c;
	int tries = 0;

	do {
		a = vsb_now_ns();
		c = vsb_rdtscp();
		b = vsb_now_ns();
	} while (b - a > 2000 && ++tries < 100);
	*ns = a + (b - a) / 2;
	*tsc = c;
}

double vsb_tsc_hz(void)
{
	static double hz;
	double v[3];
	int i;

	if (hz > 0)
		return hz;
#if defined(__x86_64__) || defined(__i386__)
	{
		struct timespec d = { 0, 4 * 1000 * 1000 };
		uint64_t ns[4], tsc[4];

		for (i = 0; i < 4; i++) {
			if (i)
				nanosleep(&d, NULL);
			clock_pair(&ns[i], &tsc[i]);
		}
		for (i = 0; i < 3; i++)
			v[i] = (double)(tsc[i + 1] - tsc[i]) * 1e9 / (double)(ns[i + 1] - ns[i]);
	}
	/* median of three */
	if (v[0] > v[1]) { double t = v[0]; v[0] = v[1]; v[1] = t; }
	if (v[1] > v[2]) { double t = v[1]; v[1] = v[2]; v[2] = t; }
	if (v[0] > v[1]) { double t = v[0]; v[0] = v[1]; v[1] = t; }
	hz = v[1];
#else
	(void)v; (void)i; (void)clock_pair;
	hz = 1e9;	/* vsb_rdtscp() falls back to nanoseconds */
#endif
	return hz;
}
