// SPDX-License-Identifier: GPL-2.0
/*
 * Time sources: CLOCK_MONOTONIC_RAW nanoseconds and the TSC rate.
 *
 * The TSC rate is calibrated against CLOCK_MONOTONIC_RAW (not NTP-slewed)
 * over three 20 ms windows and the median taken, so one preemption during
 * calibration cannot skew every ns figure of the run.  The CPU flags that
 * say whether the TSC is trustworthy across frequency changes and idle
 * (constant_tsc, nonstop_tsc) are reported with it.
 */
#define _GNU_SOURCE
#include <string.h>
#include <time.h>

#include "vsb.h"

uint64_t vsb_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static double calibrate_once(void)
{
	uint64_t t0, t1, c0, c1;
	struct timespec d = { 0, 20 * 1000 * 1000 };

	t0 = vsb_now_ns();
	c0 = vsb_rdtscp();
	nanosleep(&d, NULL);
	t1 = vsb_now_ns();
	c1 = vsb_rdtscp();
	return (double)(c1 - c0) * 1e9 / (double)(t1 - t0);
}

double vsb_tsc_hz(void)
{
	static double hz;
	double v[3];
	int i;

	if (hz > 0)
		return hz;
#if defined(__x86_64__) || defined(__i386__)
	for (i = 0; i < 3; i++)
		v[i] = calibrate_once();
	/* median of three */
	if (v[0] > v[1]) { double t = v[0]; v[0] = v[1]; v[1] = t; }
	if (v[1] > v[2]) { double t = v[1]; v[1] = v[2]; v[2] = t; }
	if (v[0] > v[1]) { double t = v[0]; v[0] = v[1]; v[1] = t; }
	hz = v[1];
#else
	(void)v; (void)i; (void)calibrate_once;
	hz = 1e9;	/* vsb_rdtscp() falls back to nanoseconds */
#endif
	return hz;
}

const char *vsb_tsc_flags(void)
{
	static char out[64];
	static int done;
	char line[4096];
	FILE *f;

	if (done)
		return out;
	done = 1;
	f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return out;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		if (strstr(line, " constant_tsc"))
			strcat(out, "constant_tsc");
		if (strstr(line, " nonstop_tsc"))
			strcat(out, out[0] ? " nonstop_tsc" : "nonstop_tsc");
		break;
	}
	fclose(f);
	return out;
}
