// SPDX-License-Identifier: GPL-2.0
/*
 * cost_host.c - which measured cost table the cost model's host row
 * comes from (`--costs`): this CPU's cached one by default, a file the
 * user names, or none.
 *
 * A verdict on counts must hold on the CPU at hand as well as on the
 * cited cores, so compare and ab price every mix with the host's table
 * where there is one; where there is none they say so, and the verdict
 * goes by the cited tables alone.
 */
#include <string.h>

#include "cost_host.h"
#include "cost_probe.h"
#include "cost_table.h"
#include "insn_mix.h"
#include "vsb.h"

static char used[4096 + 64] = "none (not calibrated: vmstat-bench calibrate --costs)";

int vsb_host_costs_use(const char *spec)
{
	static struct vsb_cost_table t;
	struct vsb_uarch_cost u;
	int ret;

	vsb_uarch_set_host(NULL);
	if (spec && !strcmp(spec, "none")) {
		snprintf(used, sizeof(used), "none (--costs none)");
		return 0;
	}
	if (spec) {
		ret = vsb_cost_table_read(spec, &t);	/* one line said */
		if (ret)
			return ret;
		snprintf(used, sizeof(used), "%s (%s)", t.key, spec);
	} else {
		ret = vsb_cost_table_cached(&t);
		if (ret == 1)
			return 0;
		if (ret) {
			vsb_warn("this CPU's cached cost table is unreadable (said "
				 "above): the verdicts go by the cited tables alone; "
				 "vmstat-bench calibrate --costs measures it again");
			return 0;
		}
		snprintf(used, sizeof(used), "%s (cached)", t.key);
	}
	vsb_uarch_from_table(&t, &u);
	vsb_uarch_set_host(&u);
	return 0;
}

const char *vsb_host_costs_used(void)
{
	return used;
}
