// SPDX-License-Identifier: GPL-2.0
/*
 * kstat.c - the running kernel's own statistics functions, timed.
 *
 * The counter bench (counter.c) times bench/'s copy of the update
 * algorithm; this bench calls the kernel's exported functions themselves
 * (mod_zone_page_state, __mod_node_page_state, __lruvec_stat_mod_folio,
 * percpu_counter_add_batch, ...: the rows of bench/kstat_ops.h), so a
 * patch to mm/vmstat.c moves what it measures.
 *
 * Each worker applies runs of --run-length updates of +delta followed by
 * as many of -delta, so the fold path runs as often as the run length
 * sets it against the threshold (pairs of +1/-1 never fold).  Between two
 * runs it reads its own per-CPU diff once: the difference between the
 * diff it would hold without folds and the one it holds is what the
 * folds moved, and with it the folds are counted (one read per run, in
 * the timed loop of every op, the floors included, so it cancels).
 *
 * Safety: the items (bench/kstat_ops.h says which and why) are ones no
 * kernel decision reads.  Every worker's net delta, which the common
 * stop can leave nonzero mid-run, is put back after the run; the sanity
 * check then demands that the item's exact value (the shared counter
 * plus every CPU's diff) equals its value before.  The kernel's own
 * stat_threshold is recorded; a different one for the run (the 001
 * curve on the kernel under test) is written into every CPU's
 * per-CPU threshold of the zone or node, as set_pgdat_percpu_threshold()
 * does, and put back after, only when the module was loaded with
 * kstat_set_threshold=1: kswapd or CPU hotplug could rewrite those
 * thresholds meanwhile and would then find ours put back over theirs,
 * which is acceptable in a throwaway guest, not on a host.
 *
 * The lruvec op's page is allocated with __GFP_ACCOUNT in the caller's
 * context, so it is charged to the caller's memory cgroup (the harness
 * moves itself --memcg-depth levels down first); in the root cgroup the
 * kernel takes its node-only path, which the result says.
 */
#include <linux/gfp.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/percpu_counter.h>
#include <linux/slab.h>
#include <linux/vmstat.h>

#include "vsb_kmod.h"
#include "../bench/kstat_ops.h"

#ifndef CONFIG_SMP
#error "vmstat_bench needs CONFIG_SMP: the per-CPU diffs it measures exist only there"
#endif

#define VSB_KSTAT_ZONE_ITEM	NR_BOUNCE
#define VSB_KSTAT_NODE_ITEM	WORKINGSET_NODERECLAIM
#define VSB_KSTAT_EVENT_ITEM	DROP_SLAB

static bool kstat_set_threshold;
module_param(kstat_set_threshold, bool, 0444);
MODULE_PARM_DESC(kstat_set_threshold,
		 "let a kstat run set the zone's or node's per-CPU stat_threshold for its duration (guests only)");

/*
 * Ops to leave out of what the module says it has: how the tests show
 * the harness's refusal of an op a kernel lacks (exit 4, with the
 * reason) on kernels that have them all.
 */
static unsigned long kstat_ops_off;
module_param(kstat_ops_off, ulong, 0444);
MODULE_PARM_DESC(kstat_ops_off, "bit i: say kstat op i is missing (tests)");

/* What one kstat run shares; c->kstat. */
struct vsb_kstat {
	struct page *page;		/* ours; its zone, node and memcg are used */
	struct zone *zone;
	struct pglist_data *pgdat;
	struct percpu_counter pcc;
	bool pcc_ready;
	s8 *saved_thr;			/* per possible CPU, when the run sets one */
	s64 sink;			/* the read op's sums, so none is dead */
};

/* The per-run diff read of the floors: a per-CPU byte nobody else uses. */
static DEFINE_PER_CPU(s8, vsb_kstat_dummy);

/*
 * The primitive ops' per-CPU slots (cli-sti .. this-cpu-add, the cost
 * table's kernel rows): the cmpxchg slot stays 0, each cmpxchg of 0 for
 * 0 succeeding as the statistics' fast path does; the add slot takes
 * the runs' +-delta.  Nobody else reads either.
 */
static DEFINE_PER_CPU(long, vsb_kstat_cx_slot);
static DEFINE_PER_CPU(long, vsb_kstat_add_slot);

/*
 * The empty op: what calling a kernel function with mod_zone_page_state's
 * arguments costs, without its body.  noinline and an asm that "uses"
 * the arguments, so the compiler can neither drop nor inline the call.
 */
static noinline void vsb_kstat_empty(struct zone *zone, enum zone_stat_item item,
				     long delta)
{
	asm volatile("" : : "r"(zone), "r"(item), "r"(delta) : "memory");
}

/* The ops this module has on this kernel: bit i for row i. */
u64 vsb_kstat_ops_mask(void)
{
	u64 have = ~0ULL >> (64 - VSB_KSTAT_NR);

	if (!IS_ENABLED(CONFIG_VM_EVENT_COUNTERS))
		have &= ~BIT_ULL(VSB_KSTAT_vm_event);
	if (!IS_ENABLED(CONFIG_MEMCG) || mem_cgroup_disabled())
		have &= ~BIT_ULL(VSB_KSTAT_lruvec);
	return have & ~(u64)kstat_ops_off;
}

static int vsb_kstat_validate(const struct vsb_ioc_run *req)
{
	unsigned int f;

	if (req->kstat_op >= VSB_KSTAT_NR)
		return -EINVAL;
	f = vsb_kstat_ops[req->kstat_op].flags;
	if (req->delta <= 0 || req->delta > VSB_ABI_DELTA_MAX ||
	    ((f & VSB_KF_UNIT) && req->delta != 1))
		return -EINVAL;
	if (!req->run_length || req->run_length > VSB_ABI_RUN_LENGTH_MAX)
		return -EINVAL;
	if (req->busy_workers >= req->ncpus)	/* somebody must be timed */
		return -EINVAL;
	if ((f & VSB_KF_PCC) ? !req->batch || req->batch > VSB_ABI_BATCH_MAX :
			       !!req->batch)
		return -EINVAL;
	if (req->threshold && (!(f & (VSB_KF_ZONE | VSB_KF_NODE)) ||
			       req->threshold > VSB_ABI_KSTAT_THRESHOLD_MAX))
		return -EINVAL;
	/* the other benches' fields must be unused */
	if (req->variant || req->diff_bits || req->items || req->gfp ||
	    req->order || req->outstanding || req->reserved_in32)
		return -EINVAL;
	if (!(vsb_kstat_ops_mask() & BIT_ULL(req->kstat_op)))
		return -EOPNOTSUPP;
	if (req->threshold && !kstat_set_threshold)
		return -EPERM;
	return 0;
}

/* The per-CPU threshold the op's item folds at, on @cpu. */
static s8 *vsb_kstat_thr(struct vsb_kstat *ks, unsigned int f, unsigned int cpu)
{
	if (f & VSB_KF_ZONE)
		return &per_cpu_ptr(ks->zone->per_cpu_zonestats, cpu)->stat_threshold;
	return &per_cpu_ptr(ks->pgdat->per_cpu_nodestats, cpu)->stat_threshold;
}

/*
 * The item's exact value: the shared counter plus every possible CPU's
 * diff (zone_page_state_snapshot() clamps at 0 and skips offline CPUs).
 * A fold in flight (vmstat_update between its xchg and its add) makes
 * one reading short: read until two agree.
 */
static s64 vsb_kstat_read_once(struct vsb_kstat *ks, unsigned int f)
{
	s64 v = 0;
	int cpu;

	if (f & VSB_KF_ZONE)
		v = atomic_long_read(&ks->zone->vm_stat[VSB_KSTAT_ZONE_ITEM]);
	else if (f & VSB_KF_NODE)
		v = atomic_long_read(&ks->pgdat->vm_stat[VSB_KSTAT_NODE_ITEM]);
	else if (f & VSB_KF_PCC)
		return percpu_counter_sum(&ks->pcc);
	for_each_possible_cpu(cpu) {
		if (f & VSB_KF_ZONE)
			v += per_cpu_ptr(ks->zone->per_cpu_zonestats, cpu)->vm_stat_diff[VSB_KSTAT_ZONE_ITEM];
		else if (f & VSB_KF_NODE)
			v += per_cpu_ptr(ks->pgdat->per_cpu_nodestats, cpu)->vm_node_stat_diff[VSB_KSTAT_NODE_ITEM];
#ifdef CONFIG_VM_EVENT_COUNTERS
		else if (f & VSB_KF_EVENT)
			v += (s64)per_cpu(vm_event_states, cpu).event[VSB_KSTAT_EVENT_ITEM];
#endif
	}
	return v;
}

static s64 vsb_kstat_read(struct vsb_kstat *ks, unsigned int f)
{
	s64 a = vsb_kstat_read_once(ks, f), b;
	int i;

	for (i = 0; i < 10; i++) {
		b = vsb_kstat_read_once(ks, f);
		if (a == b)
			break;
		a = b;
	}
	return a;
}

/* One update of the op by @d, on this CPU; @op is a constant in each caller. */
static __always_inline void vsb_kstat_op(struct vsb_kstat *ks, unsigned int op,
					 long d, u32 batch)
{
	unsigned long flags;

	switch (op) {
	case VSB_KSTAT_bare:
		barrier();
		break;
	case VSB_KSTAT_empty:
		vsb_kstat_empty(ks->zone, VSB_KSTAT_ZONE_ITEM, d);
		break;
	case VSB_KSTAT_mod_zone:
		mod_zone_page_state(ks->zone, VSB_KSTAT_ZONE_ITEM, d);
		break;
	case VSB_KSTAT___mod_zone:
		local_irq_save(flags);
		__mod_zone_page_state(ks->zone, VSB_KSTAT_ZONE_ITEM, d);
		local_irq_restore(flags);
		break;
	case VSB_KSTAT_inc_dec_zone:
		if (d > 0)
			inc_zone_page_state(ks->page, VSB_KSTAT_ZONE_ITEM);
		else
			dec_zone_page_state(ks->page, VSB_KSTAT_ZONE_ITEM);
		break;
	case VSB_KSTAT_mod_node:
		mod_node_page_state(ks->pgdat, VSB_KSTAT_NODE_ITEM, d);
		break;
	case VSB_KSTAT___mod_node:
		local_irq_save(flags);
		__mod_node_page_state(ks->pgdat, VSB_KSTAT_NODE_ITEM, d);
		local_irq_restore(flags);
		break;
	case VSB_KSTAT_vm_event:
		count_vm_events(VSB_KSTAT_EVENT_ITEM, d);
		break;
	case VSB_KSTAT_lruvec:
		/* 6.1 has it as an inline around __mod_lruvec_page_state */
		local_irq_save(flags);
		__lruvec_stat_mod_folio(page_folio(ks->page), VSB_KSTAT_NODE_ITEM, (int)d);
		local_irq_restore(flags);
		break;
	case VSB_KSTAT_pcc_add:
		percpu_counter_add_batch(&ks->pcc, d, (s32)batch);
		break;
	case VSB_KSTAT_pcc_sum:
		ks->sink += __percpu_counter_sum(&ks->pcc);
		break;
	case VSB_KSTAT_cli_sti:
		local_irq_disable();
		local_irq_enable();
		break;
	case VSB_KSTAT_irqsave:
		local_irq_save(flags);
		local_irq_restore(flags);
		break;
	case VSB_KSTAT_this_cpu_cmpxchg:
		(void)this_cpu_cmpxchg(vsb_kstat_cx_slot, 0L, 0L);
		break;
	case VSB_KSTAT_lock_cmpxchg:
		/* the worker is bound to its CPU: raw_, no preemption check */
		(void)cmpxchg(raw_cpu_ptr(&vsb_kstat_cx_slot), 0L, 0L);
		break;
	case VSB_KSTAT_this_cpu_add:
		this_cpu_add(vsb_kstat_add_slot, d);
		break;
	}
}

/* This CPU's diff of the op's item: once per run, to count its folds. */
static __always_inline long vsb_kstat_diff(struct vsb_kstat *ks, unsigned int op)
{
	unsigned int f = vsb_kstat_ops[op].flags;

	if (f & VSB_KF_ZONE)
		return this_cpu_read(ks->zone->per_cpu_zonestats->vm_stat_diff[VSB_KSTAT_ZONE_ITEM]);
	if (f & VSB_KF_NODE)
		return this_cpu_read(ks->pgdat->per_cpu_nodestats->vm_node_stat_diff[VSB_KSTAT_NODE_ITEM]);
	if (f & VSB_KF_PCC)
		return this_cpu_read(*ks->pcc.counters);
#ifdef CONFIG_VM_EVENT_COUNTERS
	if (f & VSB_KF_EVENT)	/* never folds: what it moved must be 0 */
		return (long)this_cpu_read(vm_event_states.event[VSB_KSTAT_EVENT_ITEM]);
#endif
	return this_cpu_read(vsb_kstat_dummy);
}

/* Whether @op changes its item (the floors and the read op do not). */
static __always_inline bool vsb_kstat_updates(unsigned int op)
{
	unsigned int f = vsb_kstat_ops[op].flags;

	return !(f & (VSB_KF_NOCALL | VSB_KF_READ));
}

/*
 * What one fold moves with steps of @d on this CPU: past the threshold t
 * the kernel folds the whole diff, t + 1 for steps of one, and inc/dec
 * add their overstep of t/2 on top; larger steps fold anywhere in
 * (t, t + d], so the middle is used.  percpu_counter folds once |count|
 * reaches the batch.  0: the op never folds.
 */
static __always_inline long vsb_kstat_per_fold(struct vsb_kstat *ks, unsigned int op,
					       long d, u32 batch)
{
	unsigned int f = vsb_kstat_ops[op].flags;
	long t;

	if (f & VSB_KF_PCC)
		return (long)batch + (d - 1) / 2;
	if (f & VSB_KF_ZONE)
		t = this_cpu_read(ks->zone->per_cpu_zonestats->stat_threshold);
	else if (f & VSB_KF_NODE)
		t = this_cpu_read(ks->pgdat->per_cpu_nodestats->stat_threshold);
	else
		return 0;
	if (f & VSB_KF_UNIT)
		return t + 1 + (t >> 1);
	return t + (d + 1) / 2;
}

/* Folds in @moved units, @per_fold each, rounded; at least one if any moved. */
static u64 vsb_kstat_folds(long moved, long per_fold)
{
	if (!moved || per_fold <= 0)
		return 0;
	return max_t(u64, 1, ((u64)moved + per_fold / 2) / per_fold);
}

/*
 * One worker's batch of @loops updates of @op, continuing its runs
 * where the last batch left them (a run may span batches); a stop check
 * every VSB_COUNTER_CHUNK updates at most, on a run boundary or inside
 * a long run.  The read op (percpu-counter-sum) has no runs: each
 * operation is one sum.
 */
static __always_inline int vsb_kstat_loop(struct vsb_worker *w, const unsigned int op,
					  u64 loops, u64 deadline, u64 *opsp)
{
	struct vsb_ctl *c = w->ctl;
	struct vsb_kstat *ks = c->kstat;
	struct vsb_kstat_worker *k = &w->kw;
	const long d = c->req.delta, len = c->req.run_length;
	const u32 batch = c->req.batch;
	u64 done = 0;
	int st = 0;

	while (done < loops) {
		long n = min3((u64)(len - k->pos), loops - done, (u64)VSB_COUNTER_CHUNK);
		long sd = k->sign * d, a, b, moved, i;

		a = vsb_kstat_diff(ks, op);
		for (i = 0; i < n; i++)
			vsb_kstat_op(ks, op, sd, batch);
		b = vsb_kstat_diff(ks, op);
		if (vsb_kstat_updates(op)) {
			/* what the diff would hold without a fold, minus what it holds */
			moved = abs(a + n * sd - b);
			w->cw.folds += vsb_kstat_folds(moved,
						vsb_kstat_per_fold(ks, op, d, batch));
			k->moved += moved;
			k->net += n * sd;
		}
		k->pos += n;
		done += n;
		if (k->pos == len) {
			k->pos = 0;
			k->sign = -k->sign;
		}
		if (done == loops)
			break;
		st = vsb_between_chunks(c, deadline);
		if (st)
			break;
	}
	*opsp = done;
	return st < 0 ? st : 0;
}

/* The op's update side, for a busy worker of a read op. */
static unsigned int vsb_kstat_update_op(unsigned int op)
{
	return op == VSB_KSTAT_pcc_sum ? VSB_KSTAT_pcc_add : op;
}

/* One loop per op, each with its op a constant: no call per update. */
static int vsb_kstat_dispatch(struct vsb_worker *w, unsigned int op, u64 loops,
			      u64 deadline, u64 *opsp)
{
	switch (op) {
#define VSB_X_CASE(id, name, flags, fn, why, desc)			\
	case VSB_KSTAT_##id:						\
		return vsb_kstat_loop(w, VSB_KSTAT_##id, loops, deadline, opsp);
	VSB_KSTAT_OPS(VSB_X_CASE)
#undef VSB_X_CASE
	}
	return -EINVAL;
}

static int vsb_kstat_sample(struct vsb_worker *w, u64 loops, u64 deadline,
			    u64 *opsp)
{
	return vsb_kstat_dispatch(w, w->ctl->req.kstat_op, loops, deadline, opsp);
}

/* A busy worker: update until the timed workers' common stop. */
static int vsb_kstat_busy(struct vsb_worker *w, u64 deadline, u64 *opsp)
{
	return vsb_kstat_dispatch(w, vsb_kstat_update_op(w->ctl->req.kstat_op),
				  U64_MAX, deadline, opsp);
}

/* Every possible CPU's threshold of the op's zone or node, saved and set. */
static int vsb_kstat_set_threshold(struct vsb_ctl *c, unsigned int f)
{
	struct vsb_kstat *ks = c->kstat;
	unsigned int cpu;

	ks->saved_thr = kcalloc(nr_cpu_ids, sizeof(*ks->saved_thr), GFP_KERNEL);
	if (!ks->saved_thr)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		s8 *t = vsb_kstat_thr(ks, f, cpu);

		ks->saved_thr[cpu] = READ_ONCE(*t);
		WRITE_ONCE(*t, (s8)c->req.threshold);
	}
	return 0;
}

static void vsb_kstat_teardown(struct vsb_ctl *c)
{
	struct vsb_kstat *ks = c->kstat;
	unsigned int f = vsb_kstat_ops[c->req.kstat_op].flags, cpu;

	if (!ks)
		return;
	if (ks->saved_thr) {
		for_each_possible_cpu(cpu)
			WRITE_ONCE(*vsb_kstat_thr(ks, f, cpu), ks->saved_thr[cpu]);
		kfree(ks->saved_thr);
	}
	if (ks->pcc_ready)
		percpu_counter_destroy(&ks->pcc);
	if (ks->page)
		__free_page(ks->page);
	kfree(ks);
	c->kstat = NULL;
}

static int vsb_kstat_setup(struct vsb_ctl *c)
{
	unsigned int f = vsb_kstat_ops[c->req.kstat_op].flags, i;
	int node = cpu_to_node(c->w[0].cpu), ret;
	struct vsb_kstat *ks;

	ks = kzalloc(sizeof(*ks), GFP_KERNEL);
	if (!ks)
		return -ENOMEM;
	c->kstat = ks;
	/*
	 * In the caller's context: __GFP_ACCOUNT charges the page to its
	 * memory cgroup, which the lruvec op's updates then reach.  The
	 * first worker's node: its zone and node are the ones updated.
	 */
	ret = -ENOMEM;
	ks->page = alloc_pages_node(node, GFP_KERNEL_ACCOUNT | __GFP_NOWARN, 0);
	if (!ks->page)
		goto err;
	ks->zone = page_zone(ks->page);
	ks->pgdat = page_pgdat(ks->page);
	if ((f & VSB_KF_MEMCG) && folio_memcg(page_folio(ks->page)))
		c->req.result_flags |= VSB_RES_MEMCG;
	if (f & VSB_KF_PCC) {
		ret = percpu_counter_init(&ks->pcc, 0, GFP_KERNEL);
		if (ret)
			goto err;
		ks->pcc_ready = true;
	}
	if (f & (VSB_KF_ZONE | VSB_KF_NODE)) {
		c->req.kstat_threshold = (u8)READ_ONCE(*vsb_kstat_thr(ks, f, c->w[0].cpu));
		if (c->req.threshold) {
			ret = vsb_kstat_set_threshold(c, f);
			if (ret)
				goto err;
		}
		c->req.kstat_threshold_run = c->req.threshold ?: c->req.kstat_threshold;
	}
	for (i = 0; i < c->nworkers; i++) {
		c->w[i].kw.sign = 1;
		c->w[i].busy = i >= c->nworkers - c->req.busy_workers;
	}
	c->req.kstat_before = vsb_kstat_read(ks, f);
	return 0;

err:
	vsb_kstat_teardown(c);
	return ret;
}

/* Put back what the runs left (off the workers' CPUs: the sum is what counts). */
static void vsb_kstat_put_back(struct vsb_ctl *c, long net)
{
	struct vsb_kstat *ks = c->kstat;
	unsigned long flags;

	if (!net)
		return;
	switch (c->req.kstat_op) {
	case VSB_KSTAT_mod_zone:
	case VSB_KSTAT___mod_zone:
	case VSB_KSTAT_inc_dec_zone:
		mod_zone_page_state(ks->zone, VSB_KSTAT_ZONE_ITEM, -net);
		break;
	case VSB_KSTAT_mod_node:
	case VSB_KSTAT___mod_node:
		mod_node_page_state(ks->pgdat, VSB_KSTAT_NODE_ITEM, -net);
		break;
	case VSB_KSTAT_vm_event:
		count_vm_events(VSB_KSTAT_EVENT_ITEM, -net);
		break;
	case VSB_KSTAT_lruvec:
		/* the memcg's counts too, not only the node's */
		local_irq_save(flags);
		__lruvec_stat_mod_folio(page_folio(ks->page), VSB_KSTAT_NODE_ITEM, (int)-net);
		local_irq_restore(flags);
		break;
	}
}

static void vsb_kstat_check(struct vsb_ctl *c)
{
	unsigned int f = vsb_kstat_ops[c->req.kstat_op].flags, i;
	s64 net = 0, after;
	u64 folds = 0, moved = 0;

	for (i = 0; i < c->nworkers; i++) {
		net += c->w[i].kw.net;
		folds += c->w[i].cw.folds;
		moved += c->w[i].kw.moved;
	}
	/* the percpu_counter is the run's own: nothing to put back */
	if (!(f & VSB_KF_PCC))
		vsb_kstat_put_back(c, net);
	after = vsb_kstat_read(c->kstat, f);
	c->req.applied = net;
	c->req.counted = after - c->req.kstat_before;
	c->req.kstat_folds = folds;
	c->req.kstat_moved = moved;
	c->req.sanity_item = f & VSB_KF_ZONE ? VSB_KSTAT_ZONE_ITEM :
			     f & VSB_KF_NODE ? VSB_KSTAT_NODE_ITEM :
			     f & VSB_KF_EVENT ? VSB_KSTAT_EVENT_ITEM : 0;
	/* the run's own percpu_counter must hold exactly what was added */
	if ((f & VSB_KF_PCC) ? c->req.counted == net : !c->req.counted)
		c->req.result_flags |= VSB_RES_SANITY_OK;
}

const struct vsb_bench_ops vsb_kstat_bench_ops = {
	.validate = vsb_kstat_validate,
	.setup = vsb_kstat_setup,
	.sample = vsb_kstat_sample,
	.busy = vsb_kstat_busy,
	.check = vsb_kstat_check,
	.teardown = vsb_kstat_teardown,
};
