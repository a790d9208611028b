/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DAMON beside the benchmark: a kernel thread (kdamond) that samples the
 * accessed bits of memory and may act on what it finds (reclaim, LRU
 * sorting, migration).  Cloud VMs run it for proactive reclaim; on the
 * development VM a paddr kdamond samples every 500 ms and pages out cold
 * unmapped memory.  An mm benchmark competes with it for CPU and memory,
 * so the environment record says whether one runs (meta.c, `info`).
 */
#ifndef VSB_DAMON_H
#define VSB_DAMON_H

#include <stddef.h>

/*
 * What runs, from DAMON's sysfs interface below @admin (normally
 * /sys/kernel/mm/damon/admin) and its in-kernel modules below @modules
 * (normally /sys/module): "1 kdamond on (0: paddr, sampling every
 * 500000 us, schemes: pageout); damon_reclaim enabled", "none running",
 * or "unavailable (no DAMON in this kernel)".
 */
void vsb_damon_describe(const char *admin, const char *modules, char *buf,
			size_t len);

#endif /* VSB_DAMON_H */
