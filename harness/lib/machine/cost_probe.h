/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cost_probe.h - the cost table of this CPU: measured in user space on
 * one pinned CPU (cost_probe.c), and kept in the cache under the CPU's
 * key (cost_cache.c).  The table and its file are lib/model's
 * (cost_table.h); docs/costs.md says how each row is timed.
 */
#ifndef VSB_COST_PROBE_H
#define VSB_COST_PROBE_H

#include <stddef.h>

#include "cost_table.h"

/* samples of each row a measurement takes by default */
#define VSB_COST_SAMPLES	201

/*
 * Every user-space row of @t timed on @cpu (-1: the first this process
 * may use), the calling thread pinned there for the while and its
 * affinity put back after; @t's key from this CPU.  0, or an exit code
 * after one line: VSB_EXIT_SKIP where there is no x86-64 to time.
 */
int vsb_cost_measure(struct vsb_cost_table *t, int cpu);
/* the same with @samples samples of each row (at least 11) */
int vsb_cost_measure_n(struct vsb_cost_table *t, int cpu, size_t samples);

/*
 * The measurement's own check: the imul chain at 3.0 cycles within 10%
 * (its latency on every Intel core since Nehalem and every AMD Zen, per
 * Agner Fog's tables), so the add chain's clock held; and a LOCK cmpxchg
 * dearer than a dependent add.  0 when both hold, else 1; either way
 * the two lines of what was found into @a and @b ("imul_chain 3.012
 * cycles (want 3.0 within 10%): ok").
 */
int vsb_cost_check(const struct vsb_cost_table *t, char *a, char *b, size_t len);

/*
 * The hypervisor's CPUID signature into @buf (leaf 0x40000000: "KVMKVMKVM",
 * "TCGTCGTCGTCG", ...), "" on bare metal (no CPUID hypervisor bit) or
 * off x86.  Under TCG a time is the emulator's, not this CPU's.
 */
void vsb_cost_hypervisor(char *buf, size_t len);

/*
 * The folder of cost tables: $VSB_COST_CACHE, else
 * $XDG_CACHE_HOME/vmstat-bench/costs, else ~/.cache/vmstat-bench/costs.
 * 0, or -1 (quietly) when there is no home to keep it in.
 */
int vsb_cost_cache_dir(char *buf, size_t len);
/* The cache folder's KEY.costs of @t's key: 0, or -1 (quietly) as above. */
int vsb_cost_cache_path(const struct vsb_cost_table *t, char *buf, size_t len);
/*
 * Fills vendor..key of this CPU (and cpu_name) from /proc/cpuinfo: 0,
 * or VSB_EXIT_SKIP after one line where it names no family or model.
 */
int vsb_cost_host_key(struct vsb_cost_table *t);
/* this CPU's cached table: 0 found, 1 none cached, or VSB_EXIT_USAGE (bad file) */
int vsb_cost_table_cached(struct vsb_cost_table *t);
/*
 * @t into @path, complete or not at all (a temporary renamed over it),
 * its folder made if missing; @opt names the option in the one line of
 * a failure.  0, or an exit code after that line.
 */
int vsb_cost_table_save(const struct vsb_cost_table *t, const char *path,
			const char *opt);
/*
 * The `# cost_table:` line of a result's record into @buf: "KEY (PATH)",
 * or "none (...)" with why.  Quiet: a bad file is named, not reported.
 */
void vsb_cost_meta_line(char *buf, size_t len);

#endif /* VSB_COST_PROBE_H */
