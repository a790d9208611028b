// SPDX-License-Identifier: GPL-2.0
/*
 * The seed estimate of a threshold-refresh result: the iterations the
 * kernel's refresh_zone_stat_thresholds() walks at a CPU bring-up, by
 * the formula the line names.  The bench writes it, the chart of a
 * refresh sweep draws the bench's measure against it.  A format of the
 * suite's files: its writer and its reader live here together.
 */
#include <string.h>

#include "refresh_seed.h"
#include "vsb.h"

void vsb_refresh_seed_write(struct vsb_result *r, unsigned long long n)
{
	vsb_result_meta(r, VSB_REFRESH_SEED_KEY,
			"%llu iterations (nCPU * 2 * nodes * nCPU/2)", n);
}

/*
 * "16777216 iterations (...)": the number in front, in numbers.c's
 * syntax, as the writer's %llu writes it, and the writer's word after.
 */
double vsb_refresh_seed_read(const char *val)
{
	const char *end;
	long n;

	end = val ? vsb_scan_decimal(val, &n) : NULL;
	return end && n >= 0 && !strncmp(end, " iterations", 11) ? (double)n : 0.0;
}
