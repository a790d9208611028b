// SPDX-License-Identifier: GPL-2.0
/*
 * The CPUs-moved rule, and the c2c_ns metadata it reads (its writer
 * beside its reader: lib/machine/meta.c measures, this says it): a multi-CPU
 * point whose two sides ran at clearly different CPU distances (c2c.c
 * measures them) is not judged, by compare and history alike.  Pure:
 * no measuring here, so the judging layers can use it.
 */
#include <math.h>
#include <stdlib.h>

#include "c2c_rule.h"
#include "result.h"

int vsb_c2c_moved(double a, double b)
{
	double r = b / a;

	if (isnan(a) || isnan(b))
		return 0;
	return r > VSB_C2C_MOVED_RATIO || r < 1 / VSB_C2C_MOVED_RATIO;
}

double vsb_c2c_parse(const char *meta)
{
	double v = meta ? strtod(meta, NULL) : NAN;	/* "unknown (...)" reads 0 */

	return v > 0 ? v : NAN;
}

void vsb_c2c_line_write(struct vsb_result *r, double ns, int a, int b)
{
	if (isnan(ns))
		vsb_result_meta(r, VSB_C2C_KEY, "unknown (CPUs %d and %d: no round trip "
				"within 200 ms)", a, b);
	else
		vsb_result_meta(r, VSB_C2C_KEY, "%.1f (CPUs %d and %d: a cache line's round "
				"trip, after the run)", ns, a, b);
}
