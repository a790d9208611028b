// SPDX-License-Identifier: GPL-2.0
/*
 * The placement policy names (--placement): their syntax alone, apart
 * from the topology code, so that checking an option links neither
 * likwid nor sysfs readers (topo.c places workers by the parsed policy).
 */
#include <string.h>

#include "placement.h"
#include "vsb.h"

int vsb_place_policy_parse(const char *s, enum vsb_policy *p, int *node)
{
	const char *end;
	long v;

	if (!strcmp(s, "compact"))
		*p = P_COMPACT;
	else if (!strcmp(s, "scatter"))
		*p = P_SCATTER;
	else if (!strcmp(s, "cores-first"))
		*p = P_CORES_FIRST;
	else if (!strncmp(s, "node:", 5) && s[5] >= '0' && s[5] <= '9') {
		/* the one integer syntax (numbers.c): node:01 is refused */
		end = vsb_scan_decimal(s + 5, &v);
		if (!end || *end || v < 0 || v > 65535)
			return -1;
		*p = P_NODE;
		*node = (int)v;
	} else {
		return -1;
	}
	return 0;
}

int vsb_placement_check(const char *policy, const char *where)
{
	enum vsb_policy p;
	int node;

	if (vsb_place_policy_parse(policy, &p, &node)) {
		vsb_err("%s: '%s' is not one of %s", where, policy, VSB_PLACEMENTS);
		return VSB_EXIT_USAGE;
	}
	return 0;
}
