/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A --monitor spec and the /proc text formats the sampler reads
 * (monitor_parse.c): pure, so options are checked and fixtures parsed
 * without a sampler (monitor.h runs one).
 */
#ifndef VSB_MONITOR_SPEC_H
#define VSB_MONITOR_SPEC_H

#include <stddef.h>

enum {
	VSB_MON_VMSTAT		= 1u << 0,
	VSB_MON_INTERRUPTS	= 1u << 1,
	VSB_MON_STAT		= 1u << 2,
	VSB_MON_ZONEINFO	= 1u << 3,
	VSB_MON_BUDDYINFO	= 1u << 4,
	VSB_MON_LOADAVG		= 1u << 5,
	VSB_MON_TRACE		= 1u << 6,
};

#define VSB_MON_INTERVAL_MIN_MS		100L
#define VSB_MON_INTERVAL_MAX_MS		3600000L
#define VSB_MON_INTERVAL_DEF_MS		1000L

struct vsb_monitor_spec {
	unsigned int sources;	/* VSB_MON_* */
	long interval_ms;
};

/* "vmstat,stat:250ms" -> spec; VSB_EXIT_USAGE naming the bad part. */
int vsb_monitor_parse_spec(const char *spec, struct vsb_monitor_spec *s,
			   const char *where);
/* The option table's value check: "" (off) or a valid spec. */
int vsb_monitor_check(const char *v, const char *where);
/* "vmstat,interrupts" for @sources, in table order */
void vsb_monitor_format_sources(unsigned int sources, char *buf, size_t len);
/* the file beside a result: results.csv -> results.monitor.csv */
void vsb_monitor_path(const char *result_path, char *buf, size_t len);

/*
 * The /proc parsers: each reads the whole text of one file and calls
 * @emit once per value (cpu -1: not per CPU, or every CPU together).
 * They return the number of values, or -1 when the text is not in the
 * format expected (then the source is dropped with a warning).
 */
typedef void (*vsb_monitor_emit_fn)(void *ctx, const char *source,
				    const char *key, int cpu, double value);
int vsb_monitor_parse_vmstat(const char *text, vsb_monitor_emit_fn emit, void *ctx);
/* per-CPU totals over every interrupt line: key "total" */
int vsb_monitor_parse_interrupts(const char *text, vsb_monitor_emit_fn emit, void *ctx);
/* the cpuN lines (and "cpu", as cpu -1): user nice system idle iowait irq softirq steal, in ticks */
int vsb_monitor_parse_stat(const char *text, vsb_monitor_emit_fn emit, void *ctx);
/* per zone "nodeN/Zone/free"; per zone and CPU pcp_count, pcp_high, pcp_batch, stat_threshold */
int vsb_monitor_parse_zoneinfo(const char *text, vsb_monitor_emit_fn emit, void *ctx);
/* "nodeN/Zone/orderK": free blocks of each order */
int vsb_monitor_parse_buddyinfo(const char *text, vsb_monitor_emit_fn emit, void *ctx);
/* load1 load5 load15 running tasks */
int vsb_monitor_parse_loadavg(const char *text, vsb_monitor_emit_fn emit, void *ctx);

#endif /* VSB_MONITOR_SPEC_H */
