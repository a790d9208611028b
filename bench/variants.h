/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The table of per-CPU counter update variants.
 *
 * Each row is one way the kernel (or a proposal on linux-mm) updates a
 * per-CPU vmstat-style counter.  The table drives everything else: the
 * enum, the names the CLI accepts, `vmstat-bench list`, and the loop
 * dispatch in counter.h.  Adding a variant is one row here plus one
 * vsb_update_<id>() inline function in counter_update.h.
 *
 * The position of a row is ABI (the module is told the variant by its
 * index): append only, never reorder or remove.
 *
 * Columns: X(id, "cli-name", sides, flags, "why it cannot run on a side",
 *            "one-line description")
 */
#ifndef VSB_BENCH_VARIANTS_H
#define VSB_BENCH_VARIANTS_H

/* Where a variant can exist. */
#define VSB_SIDE_USER	0x1u	/* the harness's own threads */
#define VSB_SIDE_KMOD	0x2u	/* the kernel module's kthreads */
#define VSB_SIDE_ALL	(VSB_SIDE_USER | VSB_SIDE_KMOD)

/* Variant properties the runner and the sanity check need to know. */
#define VSB_VF_NOFOLD	0x1u	/* never folds: diffs wrap, checked modulo 2^bits */
#define VSB_VF_PCC	0x2u	/* percpu_counter layout: s32 per CPU, --batch */
#define VSB_VF_NOTHRESH	0x4u	/* threshold is meaningless (always 0) */
/*
 * Which fold policies (--fold) a variant survives.  A local fold
 * (vmstat_update on the writer's own CPU) interrupts the writer: safe
 * when the update retries a failed cmpxchg, lost when it is a plain
 * read-modify-write (the kernel runs those with irqs off).  A remote fold
 * (another CPU's xchg, the 002 proposal) is only safe against a LOCKed
 * update.
 */
#define VSB_VF_LOCAL_FOLD_OK	0x8u
#define VSB_VF_REMOTE_FOLD_OK	0x10u

#define VSB_COUNTER_VARIANTS(X)						\
	X(this_cpu_add, "this-cpu-add", VSB_SIDE_ALL, VSB_VF_NOFOLD, "",	\
	  "plain per-CPU add (this_cpu_add), never folds: the floor")	\
	X(plain_fold, "plain-fold", VSB_SIDE_ALL, 0, "",			\
	  "plain read-modify-write + threshold fold (__mod_zone_page_state, irqs already off)") \
	X(irqsave, "irqsave", VSB_SIDE_KMOD, VSB_VF_LOCAL_FOLD_OK,	\
	  "user space cannot disable interrupts",			\
	  "local_irq_save + plain fold (mod_zone_page_state without CONFIG_HAVE_CMPXCHG_LOCAL)") \
	X(cmpxchg_local, "cmpxchg-local", VSB_SIDE_ALL, VSB_VF_LOCAL_FOLD_OK, "", \
	  "this_cpu_cmpxchg loop: cmpxchg without LOCK, one writer per slot") \
	X(cmpxchg_locked, "cmpxchg-locked", VSB_SIDE_ALL,		\
	  VSB_VF_LOCAL_FOLD_OK | VSB_VF_REMOTE_FOLD_OK, "",		\
	  "LOCK cmpxchg loop on the per-CPU slot (the remote-fold proposal)") \
	X(atomic_global, "atomic-global", VSB_SIDE_ALL, VSB_VF_NOTHRESH, "", \
	  "every update a LOCK add on the shared counter (threshold 0)")	\
	X(percpu_counter, "percpu-counter", VSB_SIDE_ALL, VSB_VF_PCC, "",	\
	  "percpu_counter_add_batch: per-CPU s32, spinlocked s64 past --batch")

enum vsb_counter_variant {
#define VSB_X_ENUM(id, name, sides, flags, why, desc) VSB_V_##id,
	VSB_COUNTER_VARIANTS(VSB_X_ENUM)
#undef VSB_X_ENUM
	VSB_V_NR
};

struct vsb_variant_info {
	const char *name;
	unsigned int sides;
	unsigned int flags;
	const char *why_not;	/* why it is missing from a side, "" if none */
	const char *desc;
};

static const struct vsb_variant_info vsb_variants[VSB_V_NR] = {
#define VSB_X_INFO(id, n, s, f, w, d) \
	[VSB_V_##id] = { .name = n, .sides = s, .flags = f, .why_not = w, .desc = d },
	VSB_COUNTER_VARIANTS(VSB_X_INFO)
#undef VSB_X_INFO
};

/* Supported per-CPU diff widths, in bits; index into per-width tables. */
#define VSB_NR_WIDTHS	3
static inline int vsb_width_index(unsigned int bits)
{
	switch (bits) {
	case 8:
		return 0;
	case 16:
		return 1;
	case 32:
		return 2;
	}
	return -1;
}

/*
 * The largest threshold a diff of @bits can hold.  The kernel caps the s8
 * vm_stat_diff threshold at 125 (two below S8_MAX) so that an increment
 * past the threshold still fits before it is folded; the 001 thread's s16
 * experiment likewise stops at 32765.  Same rule for every width.
 */
static inline long vsb_threshold_max(unsigned int bits)
{
	return (1L << (bits - 1)) - 3;
}

#endif /* VSB_BENCH_VARIANTS_H */
