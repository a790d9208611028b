/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counter update variants for one diff width: a template.
 *
 * counter.h includes this file once per width with VSB_DIFF_T (s8, s16,
 * s32) and VSB_SFX (_s8, ...) defined, the way one would write a C++
 * template.  Each variant is one vsb_update_<id>() function that performs
 * a single update of item @i and returns 1 if it folded into the shared
 * counter; the loop around it is generated from the variants table.
 *
 * No include guard, on purpose.
 */
#define VSB_CAT_(a, b) a##b
#define VSB_CAT(a, b) VSB_CAT_(a, b)
#define VSB_FN(name) VSB_CAT(name, VSB_SFX)

static __always_inline VSB_DIFF_T VSB_PCPU *
VSB_FN(vsb_slot)(const struct vsb_counter_worker *w, unsigned int i)
{
	return (VSB_DIFF_T VSB_PCPU *)w->diffs + i;
}

/* this_cpu_add(): one add instruction, no read, no fold. */
static __always_inline int
VSB_FN(vsb_update_this_cpu_add)(const struct vsb_counter_worker *w,
				const struct vsb_counter_params *p,
				unsigned int i)
{
	vsb_pcpu_add(*VSB_FN(vsb_slot)(w, i), (VSB_DIFF_T)p->delta);
	return 0;
}

/*
 * __mod_zone_page_state(): read, add, maybe fold, write back.  Only
 * correct while nothing else can run on this CPU in between: the caller
 * has irqs off (irqsave) or is the only writer (user space).
 */
static __always_inline int
VSB_FN(vsb_update_plain_fold)(const struct vsb_counter_worker *w,
			      const struct vsb_counter_params *p,
			      unsigned int i)
{
	VSB_DIFF_T VSB_PCPU *d = VSB_FN(vsb_slot)(w, i);
	long n = (long)vsb_pcpu_read(*d) + p->delta;
	long z = vsb_fold(&n, p);

	if (z)
		vsb_shared_add(&w->shared[i], z);
	vsb_pcpu_write(*d, (VSB_DIFF_T)n);
	return z != 0;
}

/*
 * mod_zone_page_state() without CONFIG_HAVE_CMPXCHG_LOCAL: the plain fold
 * inside local_irq_save/restore.  Only the kernel can do this; in user
 * space the function is empty and the dispatch table never points at it.
 */
static __always_inline int
VSB_FN(vsb_update_irqsave)(const struct vsb_counter_worker *w,
			   const struct vsb_counter_params *p,
			   unsigned int i)
{
#if VSB_HAVE_IRQ_DISABLE
	unsigned long flags;
	int folded;

	vsb_irq_save(flags);
	folded = VSB_FN(vsb_update_plain_fold)(w, p, i);
	vsb_irq_restore(flags);
	return folded;
#else
	(void)w; (void)p; (void)i;
	return 0;
#endif
}

/*
 * mod_zone_state(): compute the new diff and the fold from a snapshot,
 * publish with cmpxchg, retry if the slot changed underneath (an irq on
 * this CPU, or with @locked, a remote folder).  The fold is added to the
 * shared counter only once the cmpxchg succeeded.  @locked is a constant
 * at every call site, so each variant compiles to its own loop.
 */
static __always_inline int
VSB_FN(vsb_update_cmpxchg)(const struct vsb_counter_worker *w,
			   const struct vsb_counter_params *p,
			   unsigned int i, int locked)
{
	VSB_DIFF_T VSB_PCPU *d = VSB_FN(vsb_slot)(w, i);
	VSB_DIFF_T o = vsb_pcpu_read(*d), prev;
	long n, z;

	for (;;) {
		n = (long)o + p->delta;
		z = vsb_fold(&n, p);
		if (locked)
			prev = vsb_pcpu_cmpxchg_locked(*d, o, (VSB_DIFF_T)n);
		else
			prev = vsb_pcpu_cmpxchg(*d, o, (VSB_DIFF_T)n);
		if (likely(prev == o))
			break;
		o = prev;
	}
	if (z)
		vsb_shared_add(&w->shared[i], z);
	return z != 0;
}

static __always_inline int
VSB_FN(vsb_update_cmpxchg_local)(const struct vsb_counter_worker *w,
				 const struct vsb_counter_params *p,
				 unsigned int i)
{
	return VSB_FN(vsb_update_cmpxchg)(w, p, i, 0);
}

static __always_inline int
VSB_FN(vsb_update_cmpxchg_locked)(const struct vsb_counter_worker *w,
				  const struct vsb_counter_params *p,
				  unsigned int i)
{
	return VSB_FN(vsb_update_cmpxchg)(w, p, i, 1);
}

/* No per-CPU state at all: every update bounces the shared line. */
static __always_inline int
VSB_FN(vsb_update_atomic_global)(const struct vsb_counter_worker *w,
				 const struct vsb_counter_params *p,
				 unsigned int i)
{
	vsb_shared_add(&w->shared[i], p->delta);
	return 1;
}

/*
 * percpu_counter_add_batch(): the real one in the kernel, the same
 * algorithm (percpu_counter.h) in user space.  Only the s32 instance is
 * ever dispatched; the others exist because the loop table is generated.
 */
static __always_inline int
VSB_FN(vsb_update_percpu_counter)(const struct vsb_counter_worker *w,
				  const struct vsb_counter_params *p,
				  unsigned int i)
{
	return vsb_pcc_add(&w->pcc[i], (s32 VSB_PCPU *)w->diffs + i,
			   p->delta, p->batch);
}

/*
 * refresh_cpu_vm_stats() on the writer's own CPU (vmstat_update): move
 * every diff into the shared counters with this_cpu_xchg, which on x86 is
 * a cmpxchg loop without LOCK, safe against this CPU's own updates only
 * when they retry (the cmpxchg variants) or cannot be split (irqs off).
 */
static inline void VSB_FN(vsb_fold_local)(const struct vsb_counter_worker *w,
					  unsigned int items)
{
	unsigned int i;

	for (i = 0; i < items; i++) {
		long v = vsb_pcpu_xchg(*VSB_FN(vsb_slot)(w, i), 0);

		if (v)
			vsb_shared_add(&w->shared[i], v);
	}
}

/*
 * The 002 proposal: vmstat_shepherd folds @cpu's diffs from another CPU
 * with a LOCK xchg, so quiet (nohz_full) CPUs are never interrupted.
 * Only a LOCKed update on the owner's side is atomic against it.
 */
static inline void VSB_FN(vsb_fold_remote)(const struct vsb_counter_worker *w,
					   int cpu, unsigned int items)
{
	unsigned int i;

	for (i = 0; i < items; i++) {
		VSB_DIFF_T *d = vsb_remote_ptr(VSB_FN(vsb_slot)(w, i), cpu);
		long v = vsb_xchg(d, (VSB_DIFF_T)0);

		if (v)
			vsb_shared_add(&w->shared[i], v);
	}
}

/*
 * The timed loop.  The worker and parameters are copied into locals so
 * the compiler can keep them in registers: the diffs are written through
 * a char-sized type that may alias anything, which would otherwise force
 * a reload of every field on every iteration.
 */
#define VSB_X_LOOP(id, n, s, f, wn, d)					\
static noinline void VSB_FN(vsb_loop_##id)(struct vsb_counter_worker *wp, \
					   const struct vsb_counter_params *pp, \
					   unsigned long long nops)	\
{									\
	const struct vsb_counter_worker w = *wp;			\
	const struct vsb_counter_params p = *pp;			\
	unsigned long long folds = 0, k;				\
	unsigned int i = wp->idx;					\
									\
	for (k = 0; k < nops; k++) {					\
		folds += VSB_FN(vsb_update_##id)(&w, &p, i);		\
		if (++i == p.items)					\
			i = 0;						\
	}								\
	wp->idx = i;							\
	wp->folds += folds;						\
}
VSB_COUNTER_VARIANTS(VSB_X_LOOP)
#undef VSB_X_LOOP

#undef VSB_FN
#undef VSB_DIFF_T
#undef VSB_SFX
