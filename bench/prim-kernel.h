/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel primitives for bench/: the names prim-user.h gives the harness,
 * mapped onto the real per-CPU operations mm/vmstat.c and
 * lib/percpu_counter.c use.
 *
 * The counter loops run in a kthread bound to one CPU (kthread_bind via
 * kthread_create_on_cpu), so "this CPU" never changes under them even
 * with preemption enabled; the this_cpu_*() ops are still the
 * preemption- and irq-safe forms the kernel uses (on x86 one %gs-relative
 * instruction each).  cmpxchg-locked resolves the slot's address once
 * per update with raw_cpu_ptr() (the thread is pinned, so the address is
 * stable; raw_ avoids the DEBUG_PREEMPT check that would fire in a
 * preemptible caller) and does a full cmpxchg() on it, i.e. LOCK
 * CMPXCHG on x86: the cost of the remote-fold proposal.
 */
#ifndef VSB_BENCH_PRIM_KERNEL_H
#define VSB_BENCH_PRIM_KERNEL_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/irqflags.h>
#include <linux/percpu.h>
#include <linux/percpu_counter.h>
#include <linux/types.h>

#define VSB_SIDE_HERE		VSB_SIDE_KMOD
#define VSB_HAVE_IRQ_DISABLE	1
#define VSB_PCPU		__percpu

/* zone->vm_stat[item] */
typedef atomic_long_t vsb_shared_t;

#define vsb_pcpu_read(var)		this_cpu_read(var)
#define vsb_pcpu_write(var, v)		this_cpu_write(var, v)
#define vsb_pcpu_add(var, v)		this_cpu_add(var, v)
#define vsb_pcpu_cmpxchg(var, o, n)	this_cpu_cmpxchg(var, o, n)
#define vsb_pcpu_cmpxchg_locked(var, o, n) cmpxchg(raw_cpu_ptr(&(var)), o, n)

#define vsb_pcpu_xchg(var, n)		this_cpu_xchg(var, n)
#define vsb_remote_ptr(p, cpu)		per_cpu_ptr(p, cpu)
#define vsb_xchg(ptr, n)		xchg(ptr, n)

#define vsb_irq_save(flags)		local_irq_save(flags)
#define vsb_irq_restore(flags)		local_irq_restore(flags)

static inline void vsb_shared_add(vsb_shared_t *z, long v)
{
	atomic_long_add(v, z);
}

static inline long vsb_shared_read(const vsb_shared_t *z)
{
	return atomic_long_read(z);
}

static inline void vsb_cpu_relax(void)
{
	cpu_relax();
}

/*
 * The real percpu_counter: its own per-CPU s32 counts live in
 * @g->counters, so the slot the user-space version uses (@mine) is not
 * touched.  percpu_counter_add_batch() returns nothing; after a fold it
 * leaves this CPU's count at exactly 0 (it subtracts count - amount from
 * the old value), which no non-folding add of a constant nonzero delta
 * starting from 0 can do, so one read of the line just written tells.
 */
typedef struct percpu_counter vsb_pcc_t;

static __always_inline int vsb_pcc_add(vsb_pcc_t *g, s32 __percpu *mine,
				       long amount, long batch)
{
	(void)mine;
	percpu_counter_add_batch(g, amount, (s32)batch);
	return this_cpu_read(*g->counters) == 0;
}

#endif /* VSB_BENCH_PRIM_KERNEL_H */
