// SPDX-License-Identifier: GPL-2.0
/*
 * The seed estimate of a threshold-refresh result: the iterations the
 * kernel's refresh_zone_stat_thresholds() walks at a CPU bring-up, by
 * the formula the line names.  The bench writes it, the chart of a
 * refresh sweep draws the bench's measure against it.  A format of the
 * suite's files: its writer and its reader live here together.
 */
#include <stdlib.h>

#include "refresh_seed.h"

void vsb_refresh_seed_write(struct vsb_result *r, unsigned long long n)
{
	vsb_result_meta(r, VSB_REFRESH_SEED_KEY,
			"%llu iterations (nCPU * 2 * nodes * nCPU/2)", n);
}

/* "16777216 iterations (...)": the number in front */
double vsb_refresh_seed_read(const char *val)
{
	return val ? atof(val) : 0.0;
}
