// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/vmstat as the live benches and `trace` read it: the counters
 * they cross-check against, and one line by name.
 */
#include <stdio.h>
#include <string.h>

#include "vmstat.h"

/* Page counters from /proc/vmstat; pgalloc sums every zone's pgalloc_*. */
int vsb_vmstat_read(struct vsb_vmstat_snap *s)
{
	char name[64];
	unsigned long long v;
	FILE *f = fopen("/proc/vmstat", "r");

	memset(s, 0, sizeof(*s));
	if (!f)
		return -1;
	while (fscanf(f, "%63s %llu", name, &v) == 2) {
		if (!strcmp(name, "pgfault"))
			s->pgfault = v;
		else if (!strncmp(name, "pgalloc_", 8))
			s->pgalloc += v;
		else if (!strcmp(name, "pgfree"))
			s->pgfree = v;
		else if (!strcmp(name, "thp_fault_alloc"))
			s->thp_fault_alloc = v;
	}
	fclose(f);
	return 0;
}

/* One /proc/vmstat line by name: 0 and *v, or -1 when absent. */
int vsb_vmstat_value(const char *key, unsigned long long *v)
{
	char name[64];
	unsigned long long x;
	FILE *f = fopen("/proc/vmstat", "re");
	int ret = -1;

	if (!f)
		return -1;
	while (ret && fscanf(f, "%63s %llu", name, &x) == 2)
		if (!strcmp(name, key)) {
			*v = x;
			ret = 0;
		}
	fclose(f);
	return ret;
}
