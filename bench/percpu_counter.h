/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lib/percpu_counter.c's add path, for user space.
 *
 * The kernel module calls the real percpu_counter_add_batch(); the harness
 * needs the same algorithm on its own threads: a per-CPU s32 count, and
 * once its magnitude reaches the batch, the whole local count is moved
 * into the s64 global under a spinlock (raw_spin_lock_irqsave in the
 * kernel; a test-and-test-and-set lock here, since there are no irqs to
 * mask).  The spinlock is the contention the 003 thread measured.
 */
#ifndef VSB_BENCH_PERCPU_COUNTER_H
#define VSB_BENCH_PERCPU_COUNTER_H

/* One percpu_counter's global part, alone on its cache line like a
 * separately allocated struct percpu_counter would usually be. */
typedef struct vsb_pcc {
	int lock;
	s64 count;
} __attribute__((__aligned__(64))) vsb_pcc_t;

static inline void vsb_spin_lock(int *lock)
{
	while (__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(lock, __ATOMIC_RELAXED))
			vsb_cpu_relax();
}

static inline void vsb_spin_unlock(int *lock)
{
	__atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}

/* Returns 1 when the local count was moved into the global one. */
static __always_inline int vsb_pcc_add(vsb_pcc_t *g, s32 *mine, long amount,
				       long batch)
{
	long count = (long)vsb_pcpu_read(*mine) + amount;

	if (unlikely(count >= batch || count <= -batch)) {
		vsb_spin_lock(&g->lock);
		g->count += count;
		/* the kernel subtracts count - amount; with one writer per
		 * slot that leaves exactly 0 */
		vsb_pcpu_write(*mine, 0);
		vsb_spin_unlock(&g->lock);
		return 1;
	}
	vsb_pcpu_add(*mine, (s32)amount);
	return 0;
}

/* percpu_counter_sum(): the global plus every per-CPU part, locked. */
static inline s64 vsb_pcc_global(vsb_pcc_t *g)
{
	s64 v;

	vsb_spin_lock(&g->lock);
	v = g->count;
	vsb_spin_unlock(&g->lock);
	return v;
}

#endif /* VSB_BENCH_PERCPU_COUNTER_H */
