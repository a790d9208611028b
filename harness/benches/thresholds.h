/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's counter-accuracy knobs as formulas: the per-CPU vmstat
 * stat_threshold (mm/vmstat.c), the watermarks it depends on, the
 * worst-case error of a counter read without folding,
 * and a model of refresh_zone_stat_thresholds' cost at CPU bring-up.
 */
#ifndef VSB_THRESHOLDS_H
#define VSB_THRESHOLDS_H

#include <stdint.h>

#define VSB_PAGE_SHIFT 12

/* calculate_normal_threshold(): 2 * fls(cpus) * (1 + fls(zone MB / 128)), max 125 */
int vsb_normal_threshold(unsigned int online_cpus, unsigned long managed_pages);
/* calculate_pressure_threshold(): (low - min watermark) / cpus, 1..125 */
int vsb_pressure_threshold(unsigned long low_wmark, unsigned long min_wmark,
			   unsigned int online_cpus);
/* the vm_committed_as batch: vsb_committed_as_batch() in env.h */

/*
 * Watermarks of a zone as __setup_per_zone_wmarks() sets them, for
 * machines we only know by size; on this machine /proc/zoneinfo has the
 * real ones.
 */
struct vsb_wmarks {
	unsigned long min, low, high;
};
unsigned long vsb_min_free_kbytes(unsigned long lowmem_pages);
void vsb_zone_wmarks(unsigned long managed_pages, unsigned long lowmem_pages,
		     unsigned long min_free_kbytes, unsigned int scale_factor,
		     struct vsb_wmarks *w);

/* One zone as /proc/zoneinfo reports it. */
struct vsb_zoneinfo {
	int node;
	char name[16];
	unsigned long managed, min, low, high;
	int threshold;		/* "vm stats threshold" of the first CPU, -1 if none */
};
int vsb_zoneinfo_parse(const char *path, struct vsb_zoneinfo *z, int max);

/*
 * refresh_zone_stat_thresholds() at CPU bring-up, as the 004 thread
 * describes it, on a synthetic machine.  Each approach brings CPUs
 * 1..ncpus online in order and reports the loop iterations it did
 * (per-CPU threshold stores) and the time it took on this machine.
 */
enum vsb_refresh_approach {
	VSB_REFRESH_EVERY_ONLINE,	/* today: full refresh at each online */
	VSB_REFRESH_DEFERRED,		/* the 004 patch: one refresh after boot */
	VSB_REFRESH_PER_NODE,		/* review: per-node values, set per CPU */
	VSB_REFRESH_NR
};
extern const char *const vsb_refresh_names[VSB_REFRESH_NR];

struct vsb_refresh_result {
	uint64_t iterations;
	double seconds;
	uint64_t tsc;		/* the same interval in TSC ticks */
};
int vsb_refresh_model(enum vsb_refresh_approach a, unsigned int ncpus,
		      unsigned int nodes, unsigned int zones_per_node,
		      struct vsb_refresh_result *res);
/* The 004 thread's estimate: nCPU * 2 * nodes * mean(CPUs online) */
uint64_t vsb_refresh_seed_estimate(unsigned int ncpus, unsigned int nodes);
/* What each approach must iterate, worked out in closed form */
uint64_t vsb_refresh_expected(enum vsb_refresh_approach a, unsigned int ncpus,
			      unsigned int nodes, unsigned int zones_per_node);
int vsb_refresh_approach(const char *name);

#endif /* VSB_THRESHOLDS_H */
