/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The table of kstat ops: the running kernel's own statistics functions
 * that `--bench kstat --op NAME` times in the module.
 *
 * Unlike the counter variants (variants.h), which time bench/'s copy of
 * the update algorithm, each op here calls the kernel's exported function
 * itself, so a patch to mm/vmstat.c, mm/memcontrol.c or
 * lib/percpu_counter.c changes what is timed.  The table drives the
 * enum, the names the CLI accepts, `vmstat-bench list`, docs/kmod.md's
 * table and the module's loop dispatch (kmod/kstat.c); adding an op is
 * one row here plus one case in kmod/kstat.c's vsb_kstat_op().
 *
 * The position of a row is ABI (the module is told the op by its index,
 * and reports the ops it has as a bit mask): append only.
 *
 * Columns: X(id, "cli-name", flags, "kernel function(s) timed" ("": none),
 *            "why it may be missing", "one-line description")
 */
#ifndef VSB_BENCH_KSTAT_OPS_H
#define VSB_BENCH_KSTAT_OPS_H

/* What an op updates, hence which counts its sanity check compares. */
#define VSB_KF_ZONE	0x1u	/* a zone item: kmod/kstat.c's VSB_KSTAT_ZONE_ITEM */
#define VSB_KF_NODE	0x2u	/* a node item: VSB_KSTAT_NODE_ITEM */
#define VSB_KF_EVENT	0x4u	/* a vm event: VSB_KSTAT_EVENT_ITEM (never folds) */
#define VSB_KF_PCC	0x8u	/* the run's own struct percpu_counter, --batch */
#define VSB_KF_IRQ	0x10u	/* called under local_irq_save, as its callers do */
#define VSB_KF_UNIT	0x20u	/* +-1 only (inc/dec): --delta must be 1 */
#define VSB_KF_MEMCG	0x40u	/* on a page charged to the caller's memory cgroup */
#define VSB_KF_READ	0x80u	/* a read: --busy-workers run the update side */
#define VSB_KF_NOCALL	0x100u	/* no kernel call at all (the floors, the primitives) */

/*
 * The items updated, per kernel (Debian 6.1 and 6.12): chosen because no
 * kernel decision reads them, only reports do, and nothing updates them
 * in a guest, so a run's transient +-run_length moves nothing and its
 * sanity check can demand that every count comes back exactly.
 *  - NR_BOUNCE (zone): only written by the block layer's bounce buffers
 *    (none on x86_64 virtio); read by show_mem and /proc/vmstat.
 *  - WORKINGSET_NODERECLAIM (node, and a memcg stat in both kernels, so
 *    the lruvec op can use it): only written when shadow nodes are
 *    reclaimed under memory pressure; read by memory.stat and
 *    /proc/vmstat.
 *  - DROP_SLAB (vm event): only counted by a write to vm.drop_caches.
 * The /proc/vmstat names, for the harness's before/after comparison:
 */
#define VSB_KSTAT_ZONE_ITEM_NAME	"nr_bounce"
#define VSB_KSTAT_NODE_ITEM_NAME	"workingset_nodereclaim"
#define VSB_KSTAT_EVENT_ITEM_NAME	"drop_slab"

#define VSB_KSTAT_OPS(X)							\
	X(bare, "bare", VSB_KF_NOCALL, "", "",				\
	  "the timed loop alone, no call: the floor of every op")	\
	X(empty, "empty", VSB_KF_NOCALL, "vsb_kstat_empty() (module)", "",	\
	  "an empty noinline function with mod_zone_page_state's arguments: the loop and a call") \
	X(mod_zone, "mod-zone", VSB_KF_ZONE, "mod_zone_page_state", "",	\
	  "the zone update as the kernel does it (this_cpu_try_cmpxchg on x86)") \
	X(__mod_zone, "__mod-zone", VSB_KF_ZONE | VSB_KF_IRQ,		\
	  "__mod_zone_page_state", "",					\
	  "under local_irq_save, as its callers do") \
	X(inc_dec_zone, "inc-dec-zone", VSB_KF_ZONE | VSB_KF_UNIT,	\
	  "inc_zone_page_state / dec_zone_page_state", "",		\
	  "inc/dec with the kernel's overstep of half the threshold")	\
	X(mod_node, "mod-node", VSB_KF_NODE, "mod_node_page_state", "",	\
	  "the node update as the kernel does it (this_cpu_try_cmpxchg on x86)") \
	X(__mod_node, "__mod-node", VSB_KF_NODE | VSB_KF_IRQ,		\
	  "__mod_node_page_state", "",					\
	  "under local_irq_save, as its callers do") \
	X(vm_event, "vm-event", VSB_KF_EVENT, "count_vm_events",		\
	  "the kernel has no CONFIG_VM_EVENT_COUNTERS (count_vm_events is empty)", \
	  "a vm event: this_cpu_add on vm_event_states, never folds") \
	X(lruvec, "lruvec", VSB_KF_NODE | VSB_KF_IRQ | VSB_KF_MEMCG,	\
	  "__lruvec_stat_mod_folio (6.1: __mod_lruvec_page_state)",	\
	  "the kernel has no CONFIG_MEMCG, or memcg is disabled (cgroup_disable=memory)", \
	  "the memcg-aware update under local_irq_save, on a page charged --memcg-depth down") \
	X(pcc_add, "percpu-counter-add", VSB_KF_PCC,			\
	  "percpu_counter_add_batch", "",				\
	  "on the run's own percpu_counter, folding at --batch")	\
	X(pcc_sum, "percpu-counter-sum", VSB_KF_PCC | VSB_KF_READ,	\
	  "__percpu_counter_sum", "",					\
	  "the read side: every online CPU's count under the lock; --busy-workers add") \
	X(cli_sti, "cli-sti", VSB_KF_NOCALL,				\
	  "local_irq_disable + local_irq_enable", "",			\
	  "a cli+sti pair, no statistics: calibrate --costs --kernel's cli_sti row") \
	X(irqsave, "irqsave", VSB_KF_NOCALL,				\
	  "local_irq_save + local_irq_restore", "",			\
	  "the pair __mod-zone's callers wrap it in, alone")		\
	X(this_cpu_cmpxchg, "this-cpu-cmpxchg", VSB_KF_NOCALL,		\
	  "this_cpu_cmpxchg (module's per-CPU slot)", "",		\
	  "one this_cpu_cmpxchg that succeeds, as mod-zone's fast path does") \
	X(lock_cmpxchg, "lock-cmpxchg", VSB_KF_NOCALL,			\
	  "cmpxchg (LOCK) on the module's per-CPU slot", "",		\
	  "the same cmpxchg with the LOCK prefix: what seed 002's patch pays") \
	X(this_cpu_add, "this-cpu-add", VSB_KF_NOCALL,			\
	  "this_cpu_add (module's per-CPU slot)", "",			\
	  "one this_cpu_add, as vm-event's count_vm_events does")

enum vsb_kstat_op {
#define VSB_X_ENUM(id, name, flags, fn, why, desc) VSB_KSTAT_##id,
	VSB_KSTAT_OPS(VSB_X_ENUM)
#undef VSB_X_ENUM
	VSB_KSTAT_NR
};

struct vsb_kstat_op_info {
	const char *name;
	unsigned int flags;
	const char *fn;		/* the kernel function(s) timed */
	const char *why_not;	/* why a module may lack it, "" if never */
	const char *desc;
};

static const struct vsb_kstat_op_info vsb_kstat_ops[VSB_KSTAT_NR] = {
#define VSB_X_INFO(id, n, f, k, w, d) \
	[VSB_KSTAT_##id] = { .name = n, .flags = f, .fn = k, .why_not = w, .desc = d },
	VSB_KSTAT_OPS(VSB_X_INFO)
#undef VSB_X_INFO
};

#endif /* VSB_BENCH_KSTAT_OPS_H */
