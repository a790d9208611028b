// SPDX-License-Identifier: GPL-2.0
/*
 * Formulas for the accuracy side of the counter trade-off, transcribed
 * from mm/vmstat.c and mm/page_alloc.c (Linux 6.1), and a
 * timed model of threshold refresh at CPU bring-up (the 004 thread).
 *
 * The refresh model mirrors the kernel's data layout where it matters
 * for cost: every CPU's per-zone and per-node stat_threshold lives in
 * that CPU's own per-CPU unit, so a refresh touches one cache line per
 * (CPU, zone) spread over a large address range, which is why the thread
 * measured ~200 ns per iteration rather than a few.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "clock.h"
#include "thresholds.h"
#include "vsb.h"

static int fls_ul(unsigned long x)
{
	return x ? (int)(8 * sizeof(x)) - __builtin_clzl(x) : 0;
}

int vsb_normal_threshold(unsigned int online_cpus, unsigned long managed_pages)
{
	unsigned long mem = managed_pages >> (27 - VSB_PAGE_SHIFT);
	int t = 2 * fls_ul(online_cpus) * (1 + fls_ul(mem));

	return t < 125 ? t : 125;
}

int vsb_pressure_threshold(unsigned long low_wmark, unsigned long min_wmark,
			   unsigned int online_cpus)
{
	long dist = (long)low_wmark - (long)min_wmark;
	long t = online_cpus ? dist / (long)online_cpus : dist;

	if (t < 1)
		t = 1;
	return t < 125 ? (int)t : 125;
}

static unsigned long isqrt(unsigned long long x)
{
	unsigned long long r = 0, bit = 1ULL << 62;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return (unsigned long)r;
}

/* calculate_min_free_kbytes(): sqrt(lowmem KiB * 16), clamped 128..262144 */
unsigned long vsb_min_free_kbytes(unsigned long lowmem_pages)
{
	unsigned long kb = isqrt((unsigned long long)lowmem_pages * 4 * 16);

	if (kb < 128)
		kb = 128;
	if (kb > 262144)
		kb = 262144;
	return kb;
}

void vsb_zone_wmarks(unsigned long managed_pages, unsigned long lowmem_pages,
		     unsigned long min_free_kbytes, unsigned int scale_factor,
		     struct vsb_wmarks *w)
{
	unsigned long pages_min = min_free_kbytes >> (VSB_PAGE_SHIFT - 10);
	unsigned long long tmp;
	unsigned long step;

	tmp = lowmem_pages ? (unsigned long long)pages_min * managed_pages / lowmem_pages : 0;
	w->min = (unsigned long)tmp;
	step = (unsigned long)((unsigned long long)managed_pages * scale_factor / 10000);
	if (w->min / 4 > step)
		step = w->min / 4;
	w->low = w->min + step;
	w->high = w->low + step;
}

int vsb_zoneinfo_parse(const char *path, struct vsb_zoneinfo *z, int max)
{
	char line[512], name[16];
	FILE *f = fopen(path, "r");
	int n = -1, node;
	unsigned long v;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %d, zone %15s", &node, name) == 2) {
			if (n + 1 >= max)
				break;
			n++;
			memset(&z[n], 0, sizeof(z[n]));
			z[n].node = node;
			strcpy(z[n].name, name);
			z[n].threshold = -1;
		} else if (n < 0) {
			continue;
		} else if (sscanf(line, " min %lu", &v) == 1) {
			z[n].min = v;
		} else if (sscanf(line, " low %lu", &v) == 1) {
			z[n].low = v;
		} else if (sscanf(line, " high %lu", &v) == 1) {
			z[n].high = v;
		} else if (sscanf(line, " managed %lu", &v) == 1) {
			z[n].managed = v;
		} else if (z[n].threshold < 0 &&
			   sscanf(line, " vm stats threshold: %lu", &v) == 1) {
			z[n].threshold = (int)v;
		}
	}
	fclose(f);
	return n + 1;
}

/* ---- refresh model ---- */

const char *const vsb_refresh_names[VSB_REFRESH_NR] = {
	[VSB_REFRESH_EVERY_ONLINE] = "every-online",
	[VSB_REFRESH_DEFERRED] = "deferred",
	[VSB_REFRESH_PER_NODE] = "per-node",
};

/*
 * A per-CPU unit per CPU, as the percpu allocator lays them out: the
 * per-zone and per-node stat_threshold bytes of one CPU sit in its unit,
 * a cache line apart; units are VSB_UNIT bytes apart.
 */
#define VSB_UNIT (64 * 1024)

struct model {
	unsigned char *units;
	unsigned int ncpus, nodes, zones;	/* zones: total populated */
	unsigned long zone_pages;
	uint64_t iterations;
};

static unsigned char *zone_threshold(struct model *m, unsigned int cpu, unsigned int zone)
{
	return m->units + (size_t)cpu * VSB_UNIT + (size_t)zone * VSB_CACHELINE;
}

static unsigned char *node_threshold(struct model *m, unsigned int cpu, unsigned int node)
{
	return m->units + (size_t)cpu * VSB_UNIT + (size_t)(m->zones + node) * VSB_CACHELINE;
}

/* refresh_zone_stat_thresholds(): zero node thresholds, then per zone per CPU */
static void refresh_all(struct model *m, unsigned int online)
{
	unsigned int node, zone, cpu, zpn = m->zones / m->nodes;

	for (node = 0; node < m->nodes; node++)
		for (cpu = 0; cpu < online; cpu++) {
			*(volatile unsigned char *)node_threshold(m, cpu, node) = 0;
			m->iterations++;
		}
	for (zone = 0; zone < m->zones; zone++) {
		int t = vsb_normal_threshold(online, m->zone_pages);

		for (cpu = 0; cpu < online; cpu++) {
			volatile unsigned char *nt = node_threshold(m, cpu, zone / zpn);

			*(volatile unsigned char *)zone_threshold(m, cpu, zone) = (unsigned char)t;
			if (*nt < t)
				*nt = (unsigned char)t;
			m->iterations++;
		}
	}
}

/*
 * The reviewer's proposal: the threshold depends on the zone and on
 * fls(online CPUs) only, so keep it per zone; a CPU coming online copies
 * the per-zone values into its own unit, and everyone is refreshed only
 * when fls(online) changes (log2(ncpus) times in all).
 */
static void online_per_node(struct model *m, unsigned int online)
{
	unsigned int zone, cpu = online - 1;

	if (online == 1 || fls_ul(online) != fls_ul(online - 1)) {
		refresh_all(m, online);
		return;
	}
	for (zone = 0; zone < m->zones; zone++) {
		int t = vsb_normal_threshold(online, m->zone_pages);
		volatile unsigned char *nt = node_threshold(m, cpu, zone / (m->zones / m->nodes));

		*(volatile unsigned char *)zone_threshold(m, cpu, zone) = (unsigned char)t;
		if (*nt < t)
			*nt = (unsigned char)t;
		m->iterations++;
	}
}

int vsb_refresh_model(enum vsb_refresh_approach a, unsigned int ncpus,
		      unsigned int nodes, unsigned int zones_per_node,
		      struct vsb_refresh_result *res)
{
	struct model m = { 0 };
	size_t len;
	uint64_t t0, c0;
	unsigned int online;

	if (!ncpus || !nodes || !zones_per_node ||
	    (size_t)(nodes * (zones_per_node + 1)) * VSB_CACHELINE > VSB_UNIT)
		return -1;
	m.ncpus = ncpus;
	m.nodes = nodes;
	m.zones = nodes * zones_per_node;
	m.zone_pages = 4UL << 20;	/* 16 GiB zones: threshold grows with CPUs */
	len = (size_t)ncpus * VSB_UNIT;
	m.units = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (m.units == MAP_FAILED)
		return -1;

	t0 = vsb_now_ns();
	c0 = vsb_rdtscp();
	for (online = 1; online <= ncpus; online++) {
		if (a == VSB_REFRESH_EVERY_ONLINE)
			refresh_all(&m, online);
		else if (a == VSB_REFRESH_PER_NODE)
			online_per_node(&m, online);
	}
	if (a == VSB_REFRESH_DEFERRED)
		refresh_all(&m, ncpus);
	res->tsc = vsb_rdtscp() - c0;
	res->seconds = (double)(vsb_now_ns() - t0) / 1e9;
	res->iterations = m.iterations;
	munmap(m.units, len);
	return 0;
}

uint64_t vsb_refresh_seed_estimate(unsigned int ncpus, unsigned int nodes)
{
	return (uint64_t)ncpus * 2 * nodes * (ncpus / 2);
}

/*
 * A full refresh with k CPUs online stores (nodes + zones) * k thresholds;
 * every-online does one per k = 1..N, deferred one at N, per-node one at
 * k = 1 and at every power of two (fls changes) and the new CPU's zones
 * otherwise.
 */
uint64_t vsb_refresh_expected(enum vsb_refresh_approach a, unsigned int ncpus,
			      unsigned int nodes, unsigned int zones_per_node)
{
	uint64_t per = (uint64_t)nodes + (uint64_t)nodes * zones_per_node, sum = 0;
	unsigned int k;

	switch (a) {
	case VSB_REFRESH_EVERY_ONLINE:
		return per * ncpus * (ncpus + 1ULL) / 2;
	case VSB_REFRESH_DEFERRED:
		return per * ncpus;
	default:
		for (k = 1; k <= ncpus; k++)
			sum += (k & (k - 1)) == 0 ? per * k : (uint64_t)nodes * zones_per_node;
		return sum;
	}
}

int vsb_refresh_approach(const char *name)
{
	int a;

	for (a = 0; a < VSB_REFRESH_NR; a++)
		if (!strcmp(vsb_refresh_names[a], name))
			return a;
	return -1;
}
