/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-CPU counter update algorithm, written once for both sides.
 *
 * A worker (a pinned harness thread, or a pinned kthread in the module)
 * owns one slot array of K signed diffs, each of the chosen width; a shared
 * array of K longs plays zone->vm_stat.  An update adds a delta to the
 * worker's diff and, once |diff| exceeds the threshold, folds it into the
 * shared counter, exactly as mm/vmstat.c does.  The variants differ only in
 * the primitive used for the read-modify-write (see variants.h).
 *
 * Nothing here allocates, prints or calls libc: the environment comes from
 * prim-user.h or prim-kernel.h, which provide the same names on both sides.
 * The loops are generated per variant and per diff width so that the timed
 * loop has no indirect call and no variant test per operation; callers
 * pick a loop once per timed batch through vsb_counter_loop().
 */
#ifndef VSB_BENCH_COUNTER_H
#define VSB_BENCH_COUNTER_H

#ifdef __KERNEL__
#include "prim-kernel.h"
#else
#include "prim-user.h"
#endif
#include "variants.h"

/* Per-run constants, computed once by vsb_counter_params_init(). */
struct vsb_counter_params {
	long threshold;		/* fold when |diff| > threshold */
	long overstep;		/* kernel's overstep: +-threshold/2 for inc/dec */
	long delta;		/* added by every update */
	long batch;		/* percpu-counter batch */
	unsigned int items;	/* K: items updated round-robin */
	unsigned int bits;	/* diff width */
};

/*
 * One worker's view.  In the module @diffs is the __percpu base of the
 * slot array and the pinned kthread's this_cpu_*() ops resolve it to its
 * own CPU; in user space it is the thread's own padded array.
 */
struct vsb_counter_worker {
	void VSB_PCPU *diffs;	/* K diffs of params.bits (s32 for pcc) */
	vsb_shared_t *shared;	/* K shared counters (zone->vm_stat) */
	vsb_pcc_t *pcc;		/* K percpu counters (percpu-counter only) */
	unsigned int idx;	/* next item, carried across batches */
	unsigned long long folds; /* folds into shared counters so far */
};

static inline long vsb_labs(long x)
{
	return x < 0 ? -x : x;
}

/*
 * mm/vmstat.c applies an overstep of half the threshold on the inc/dec
 * paths (__inc_zone_state, mod_zone_state with overstep_mode +-1) so
 * that a steadily increasing counter does not fold again right away; the
 * general __mod_zone_page_state path has none.  Mirror that: deltas of
 * +1/-1 are inc/dec, anything else is a plain mod.
 */
static inline void vsb_counter_params_init(struct vsb_counter_params *p,
					   long threshold, long delta,
					   long batch, unsigned int items,
					   unsigned int bits)
{
	int mode = (delta == 1) - (delta == -1);

	p->threshold = threshold;
	p->overstep = mode * (threshold >> 1);
	p->delta = delta;
	p->batch = batch;
	p->items = items;
	p->bits = bits;
}

/*
 * The fold decision shared by every folding variant: returns the amount
 * to add to the shared counter (never 0 when folding) and sets *n to the
 * diff to store.
 */
static __always_inline long vsb_fold(long *n, const struct vsb_counter_params *p)
{
	long z;

	if (likely(vsb_labs(*n) <= p->threshold))
		return 0;
	z = *n + p->overstep;
	*n = -p->overstep;
	return z;
}

typedef void (*vsb_counter_loop_fn)(struct vsb_counter_worker *w,
				    const struct vsb_counter_params *p,
				    unsigned long long nops);

/* Instantiate the update functions and loops once per diff width. */
#define VSB_DIFF_T s8
#define VSB_SFX _s8
#include "counter_update.h"
#define VSB_DIFF_T s16
#define VSB_SFX _s16
#include "counter_update.h"
#define VSB_DIFF_T s32
#define VSB_SFX _s32
#include "counter_update.h"

/*
 * The loop for (@variant, @bits) on this side, or NULL when the variant
 * has no form here (irqsave in user space) or the width is invalid.
 * percpu-counter always uses s32 per-CPU counts, like lib/percpu_counter.c.
 */
static inline vsb_counter_loop_fn vsb_counter_loop(unsigned int variant,
						   unsigned int bits)
{
	static const vsb_counter_loop_fn loops[VSB_V_NR][VSB_NR_WIDTHS] = {
#define VSB_X_LOOPS(id, n, sides, f, w, d)				\
		[VSB_V_##id] = {					\
			(sides) & VSB_SIDE_HERE ? vsb_loop_##id##_s8 : NULL,  \
			(sides) & VSB_SIDE_HERE ? vsb_loop_##id##_s16 : NULL, \
			(sides) & VSB_SIDE_HERE ? vsb_loop_##id##_s32 : NULL, \
		},
		VSB_COUNTER_VARIANTS(VSB_X_LOOPS)
#undef VSB_X_LOOPS
	};
	int wi;

	if (variant >= VSB_V_NR)
		return NULL;
	if (vsb_variants[variant].flags & VSB_VF_PCC)
		bits = 32;
	wi = vsb_width_index(bits);
	return wi < 0 ? NULL : loops[variant][wi];
}

/*
 * Fold every diff of @w into the shared counters: from its own CPU
 * (@cpu < 0, vmstat_update) or from another one (the remote shepherd).
 * Not on a timed path, so one switch on the width is fine.
 */
static inline void vsb_counter_fold(const struct vsb_counter_worker *w,
				    unsigned int bits, unsigned int items, int cpu)
{
	switch (bits) {
	case 8:
		if (cpu < 0)
			vsb_fold_local_s8(w, items);
		else
			vsb_fold_remote_s8(w, cpu, items);
		break;
	case 16:
		if (cpu < 0)
			vsb_fold_local_s16(w, items);
		else
			vsb_fold_remote_s16(w, cpu, items);
		break;
	case 32:
		if (cpu < 0)
			vsb_fold_local_s32(w, items);
		else
			vsb_fold_remote_s32(w, cpu, items);
		break;
	}
}

#endif /* VSB_BENCH_COUNTER_H */
