/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/vmstat, read by the live benches, `trace` and kstat's
 * before/after check of its item.
 */
#ifndef VSB_VMSTAT_H
#define VSB_VMSTAT_H

/* the counters the live benches and `trace` cross-check against */
struct vsb_vmstat_snap {
	unsigned long long pgfault, pgalloc, pgfree, thp_fault_alloc;
};
int vsb_vmstat_read(struct vsb_vmstat_snap *s);
/* One line by name: 0 and *v, or -1 when absent. */
int vsb_vmstat_value(const char *key, unsigned long long *v);

#endif /* VSB_VMSTAT_H */
