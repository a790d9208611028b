/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU topology (sockets, cores, SMT siblings, NUMA nodes, caches) and the
 * placement policies that turn a worker count into a CPU list.
 *
 * The topology comes from likwid's topology API when the harness is
 * built with it (VSB_HAVE_LIKWID) and is cross-checked against sysfs;
 * without likwid, or when the two disagree, sysfs is used and the record
 * says so.  Placement is a pure function of a topology struct, so the
 * unit tests feed it synthetic machines.
 */
#ifndef VSB_TOPO_H
#define VSB_TOPO_H

#include "vsb.h"
#include "placement.h"

struct vsb_topo_cpu {
	int cpu;	/* OS CPU number */
	int pkg;	/* physical package (socket) */
	int core;	/* core id, unique only within pkg */
	int node;	/* NUMA node, 0 without NUMA */
	int smt;	/* 0 for the first hardware thread of a core, 1.. for siblings */
	int allowed;	/* online and in this process's affinity mask */
};

struct vsb_topo_cache {
	int level;
	char type[16];		/* Data, Instruction, Unified */
	long size_kb;
	int shared_by;		/* hardware threads sharing one instance */
};

struct vsb_topo {
	int n;				/* entries of cpu[], sorted by cpu */
	struct vsb_topo_cpu cpu[VSB_MAX_CPUS];
	int nsockets, ncores, nnodes, threads_per_core;
	int ncaches;
	struct vsb_topo_cache cache[8];
	char source[160];		/* where it came from, and the cross-check */
};

/* Read sysfs below @cpu_root (/sys/devices/system/cpu) and @node_root. */
int vsb_topo_from_sysfs(const char *cpu_root, const char *node_root,
			struct vsb_topo *t);
/* Derive smt indices and the counts from the per-CPU fields. */
void vsb_topo_finish(struct vsb_topo *t);
/* Mark the CPUs this process may run on (affinity mask). */
void vsb_topo_mark_allowed(struct vsb_topo *t);
/* This machine: likwid cross-checked with sysfs, cached. NULL on failure. */
const struct vsb_topo *vsb_topo_get(void);
/*
 * Do two topologies describe the same machine: same CPUs, sibling sets,
 * sockets and nodes, whatever the ids?  -1 when they do, else the first
 * CPU that differs (the smaller CPU count when the counts differ).
 */
int vsb_topo_differs(const struct vsb_topo *a, const struct vsb_topo *b);
/*
 * vsb_topo_get()'s cross-check of likwid's topology @lk against sysfs's
 * @sys; the result is left in @sys.  Agreeing, @sys becomes @lk (keeping
 * sysfs's caches where likwid found none), source "likwid (agrees with
 * sysfs)"; else @sys stays, source "sysfs (likwid disagrees at CPU N;
 * sysfs used)".  Returns vsb_topo_differs(@lk, @sys).  Pure.
 */
int vsb_topo_cross_check(struct vsb_topo *sys, const struct vsb_topo *lk);
/* "1 socket x 2 cores x 1 thread, 1 NUMA node; L1d 32K, ..." */
void vsb_topo_summary(const struct vsb_topo *t, char *buf, size_t len);
const struct vsb_topo_cpu *vsb_topo_find(const struct vsb_topo *t, int cpu);
/* 1 when two CPUs of @cl are SMT siblings of one core. */
int vsb_topo_smt_shared(const struct vsb_topo *t, const struct vsb_cpulist *cl);

/*
 * The first @n CPUs of @policy among the allowed CPUs of @t (@n == 0:
 * all of them).  More workers than CPUs is refused unless
 * @allow_oversubscribe, then the order wraps.  Pure: on error returns
 * VSB_EXIT_USAGE and puts the reason in @err.
 */
int vsb_place(const struct vsb_topo *t, const char *policy, int n,
	      int allow_oversubscribe, struct vsb_cpulist *out,
	      char *err, size_t errlen);

#endif /* VSB_TOPO_H */
