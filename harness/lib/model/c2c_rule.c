// SPDX-License-Identifier: GPL-2.0
/*
 * The CPUs-moved rule, and the c2c_ns metadata it reads (its writer
 * beside its reader: lib/machine/meta.c measures, this says it): a multi-CPU
 * point whose two sides ran at clearly different CPU distances (c2c.c
 * measures them) is not judged, by compare and history alike.  Pure:
 * no measuring here, so the judging layers can use it.
 */
#include <math.h>
#include <string.h>

#include "c2c_rule.h"
#include "result.h"
#include "vsb.h"

int vsb_c2c_moved(double a, double b)
{
	double r = b / a;

	if (isnan(a) || isnan(b))
		return 0;
	return r > VSB_C2C_MOVED_RATIO || r < 1 / VSB_C2C_MOVED_RATIO;
}

/*
 * The figure in numbers.c's syntax of fractions, as the writer's %.1f
 * writes it, and its " (" after; "unknown (...)" and anything the
 * writer never writes are unknown.
 */
double vsb_c2c_parse(const char *meta)
{
	const char *end;
	double v;

	end = meta ? vsb_scan_real(meta, &v) : NULL;
	return end && !strncmp(end, " (", 2) && v > 0 ? v : NAN;
}

void vsb_c2c_line_write(struct vsb_meta_rec *m, double ns, int a, int b)
{
	if (isnan(ns))
		vsb_meta_rec_add(m, VSB_C2C_KEY, "unknown (CPUs %d and %d: no round trip "
				 "within 200 ms)", a, b);
	else
		vsb_meta_rec_add(m, VSB_C2C_KEY, "%.1f (CPUs %d and %d: a cache line's round "
				 "trip, after the run)", ns, a, b);
}
