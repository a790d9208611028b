/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space primitives for bench/: the names prim-kernel.h gives the
 * kernel module, implemented for pinned harness threads.
 *
 * The analogues are honest rather than exact: a pinned thread is the only
 * writer of its slot array, so a non-atomic add instruction (what
 * this_cpu_add compiles to on x86) and a cmpxchg without LOCK (what
 * this_cpu_cmpxchg compiles to) are valid there, but no interrupt can be
 * disabled, so the irqsave variant has no user-space form
 * (VSB_HAVE_IRQ_DISABLE is 0).  Every per-CPU access goes through an asm
 * or volatile access so the compiler cannot merge or drop updates that
 * the kernel would perform.
 */
#ifndef VSB_BENCH_PRIM_USER_H
#define VSB_BENCH_PRIM_USER_H

#include <stddef.h>	/* NULL, as <linux/types.h> gives the kernel side */
#include <stdint.h>

typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#define VSB_SIDE_HERE		VSB_SIDE_USER
#define VSB_HAVE_IRQ_DISABLE	0
#define VSB_PCPU		/* no address space: the thread's own array */

#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif
#ifndef noinline
#define noinline __attribute__((__noinline__))
#endif
#ifndef likely
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#endif

/* zone->vm_stat[item] is an atomic_long_t. */
typedef long vsb_shared_t;

#define vsb_pcpu_read(var)	(*(volatile __typeof__(var) *)&(var))
#define vsb_pcpu_write(var, v)	(*(volatile __typeof__(var) *)&(var) = (v))

#if defined(__x86_64__) || defined(__i386__)
/* this_cpu_add on x86: a single add to memory, no LOCK prefix. */
#define vsb_pcpu_add(var, v)						\
	__asm__ __volatile__("add %1, %0"				\
			     : "+m"(var)				\
			     : "q"((__typeof__(var))(v)) : "cc")

/* this_cpu_cmpxchg on x86: cmpxchg without LOCK; returns the old value. */
#define vsb_pcpu_cmpxchg(var, o, n)					\
({									\
	__typeof__(var) __ret;						\
	__asm__ __volatile__("cmpxchg %2, %1"				\
			     : "=a"(__ret), "+m"(var)			\
			     : "q"((__typeof__(var))(n)),		\
			       "0"((__typeof__(var))(o))		\
			     : "memory", "cc");				\
	__ret;								\
})

static inline void vsb_cpu_relax(void)
{
	__asm__ __volatile__("pause" ::: "memory");
}
#else
/*
 * Elsewhere there is no cheaper single-writer form to write by hand;
 * relaxed atomics are the closest analogue and are reported as such.
 */
#define vsb_pcpu_add(var, v)						\
	__atomic_fetch_add(&(var), (v), __ATOMIC_RELAXED)
#define vsb_pcpu_cmpxchg(var, o, n)	vsb_pcpu_cmpxchg_locked(var, o, n)
static inline void vsb_cpu_relax(void)
{
	__asm__ __volatile__("" ::: "memory");
}
#endif

/* LOCK cmpxchg (the remote-fold proposal); returns the old value. */
#define vsb_pcpu_cmpxchg_locked(var, o, n)				\
({									\
	__typeof__(var) __old = (o);					\
	__atomic_compare_exchange_n(&(var), &__old,			\
				    (__typeof__(var))(n), 0,		\
				    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED); \
	__old;								\
})

/*
 * this_cpu_xchg: on x86 a cmpxchg loop without LOCK (percpu_xchg_op),
 * atomic against this CPU only.
 */
#define vsb_pcpu_xchg(var, n)						\
({									\
	__typeof__(var) __o = vsb_pcpu_read(var), __p;			\
	while ((__p = vsb_pcpu_cmpxchg(var, __o, (n))) != __o)		\
		__o = __p;						\
	__o;								\
})

/* Another CPU's slot: the worker's own array here, per_cpu_ptr() there. */
#define vsb_remote_ptr(p, cpu)	((void)(cpu), (p))
/* xchg(): LOCK implied on x86 */
#define vsb_xchg(ptr, n)	__atomic_exchange_n((ptr), (n), __ATOMIC_SEQ_CST)

/* atomic_long_add(): a LOCK add, no ordering beyond that. */
static inline void vsb_shared_add(vsb_shared_t *z, long v)
{
	__atomic_fetch_add(z, v, __ATOMIC_RELAXED);
}

static inline long vsb_shared_read(const vsb_shared_t *z)
{
	return __atomic_load_n(z, __ATOMIC_RELAXED);
}

#include "percpu_counter.h"

#endif /* VSB_BENCH_PRIM_USER_H */
