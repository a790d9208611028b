/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shape of a guest a point needs: vCPUs, possible CPUs (QEMU CPUs
 * the kernel's maxcpus= leaves offline), NUMA nodes, memory and extra
 * kernel parameters.  They are
 * run options (--guest-cpus, ...), so a sweep file makes axes of them;
 * `vmstat-bench ab` boots one guest per distinct shape, and inside a
 * guest a point whose shape is not this machine's is skipped.
 *
 * This file is syntax and combinations only, on the values alone, so
 * that a bad combination is refused before anything boots; whether the
 * running machine has a shape is lib/machine/guest.c's question.
 */
#ifndef VSB_GUEST_SHAPE_H
#define VSB_GUEST_SHAPE_H

#include <stddef.h>

#define VSB_GUEST_CPUS_MAX	64	/* vCPUs, as ab --smp */
#define VSB_GUEST_POSSIBLE_MAX	255	/* QEMU's pc machine: 255 CPUs without x2APIC */
#define VSB_GUEST_NODES_MAX	16
#define VSB_GUEST_MEM_MIN	128	/* MB: ci/vm-run.sh's floor */
#define VSB_GUEST_NODE_MEM_MIN	64	/* MB per node */
#define VSB_GUEST_CMDLINE_MAX	256

struct vsb_run_opts;

struct vsb_guest_shape {
	long cpus;		/* vCPUs online at boot; 0: not asked */
	long possible;		/* possible CPUs (the rest offline); 0: not asked */
	long nodes;		/* NUMA nodes; 0: not asked */
	long mem;		/* MB; 0: not asked */
	char cmdline[VSB_GUEST_CMDLINE_MAX];	/* extra parameters, "" none */
};

/* The --guest-* options of @o ("none" is an empty command line). */
void vsb_guest_shape_of(const struct vsb_run_opts *o, struct vsb_guest_shape *s);
/* 1 when any field is asked for */
int vsb_guest_shape_asked(const struct vsb_guest_shape *s);
/* @s with its fields not asked for taken from @def */
void vsb_guest_shape_merge(struct vsb_guest_shape *s, const struct vsb_guest_shape *def);
int vsb_guest_shape_equal(const struct vsb_guest_shape *a, const struct vsb_guest_shape *b);
/* "cpus=2 possible=8 nodes=1 mem=1024 cmdline=nohz_full=1" (0: not asked) */
void vsb_guest_shape_format(const struct vsb_guest_shape *s, char *buf, size_t len);

/*
 * The combination, once merged (every field it can check known): more
 * NUMA nodes than vCPUs, fewer possible CPUs than vCPUs, too little
 * memory per node, an isolated CPU (isolcpus=, nohz_full=, rcu_nocbs=)
 * that the guest does not have, or no housekeeping CPU left.  0, or
 * VSB_EXIT_USAGE after one line naming the option: --guest-nodes, or
 * with @ab ab's own (--smp, --possible, --nodes, --mem, --cmdline).
 */
int vsb_guest_shape_check(const struct vsb_guest_shape *s, int ab);

/*
 * The shape a point's fields not asked for take: set by `ab` (its
 * --smp, --possible, ...) before it parses the sweep; NULL until set,
 * and then the checks take this machine's own.
 */
void vsb_guest_shape_set_default(const struct vsb_guest_shape *def);
const struct vsb_guest_shape *vsb_guest_shape_default(void);

/* The option table's value check of --guest-cmdline (syntax only). */
int vsb_guest_cmdline_check(const char *v, const char *where);

/*
 * The CPUs a command line isolates (isolcpus=, nohz_full=, rcu_nocbs=,
 * their lists unioned) into @cpus[0..n); @max bounds n.  -1 after one
 * line naming @where when a list is not understood.
 */
int vsb_guest_isolated_cpus(const char *cmdline, int *cpus, int max, const char *where);

#endif /* VSB_GUEST_SHAPE_H */
