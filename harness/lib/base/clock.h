/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The clocks (clock.c): CLOCK_MONOTONIC_RAW nanoseconds, the TSC and its
 * calibrated rate.  A header of its own, not a section of vsb.h, so that
 * the TSC read's fallback to vsb_now_ns() sits with the clock it falls
 * back to.
 */
#ifndef VSB_CLOCK_H
#define VSB_CLOCK_H

#include <stdint.h>

uint64_t vsb_now_ns(void);
double vsb_tsc_hz(void);		/* calibrated once, cached */

static inline uint64_t vsb_rdtscp(void)
{
#if defined(__x86_64__) || defined(__i386__)
	uint32_t lo, hi, aux;

	/*
	 * rdtscp waits for earlier instructions to finish; the lfence
	 * keeps later ones from starting before the read.  Batches are
	 * long, so the read's own ~30 cycles do not matter.
	 */
	__asm__ __volatile__("rdtscp; lfence" : "=a"(lo), "=d"(hi), "=c"(aux)
			     :: "memory");
	return ((uint64_t)hi << 32) | lo;
#else
	return vsb_now_ns();
#endif
}

#endif /* VSB_CLOCK_H */
