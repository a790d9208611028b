// SPDX-License-Identifier: GPL-2.0
/*
 * The spinning barrier every bench's workers meet at (threads, or
 * processes when it sits in shared memory).
 */
#include "vsb.h"

static inline void spin_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/*
 * A spinning barrier for the workers of every bench (threads, or
 * processes when it sits in shared memory): pthread_barrier_wait sleeps
 * in the kernel, and the wake-up skew would leave some CPUs running alone
 * at the start of a sample.  The last worker in decides whether the run
 * goes on (the signal flag, or the caller's @stop_req word), so every
 * worker sees the same verdict; once stopped, nobody waits any more.
 */
int vsb_barrier_wait(struct vsb_barrier *b, const unsigned int *stop_req)
{
	unsigned int gen = __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE);
	unsigned long spins = 0;

	if (__atomic_load_n(&b->stop, __ATOMIC_ACQUIRE))
		return 1;
	if (__atomic_add_fetch(&b->count, 1, __ATOMIC_ACQ_REL) == b->n) {
		b->count = 0;
		if (vsb_interrupted ||
		    (stop_req && __atomic_load_n(stop_req, __ATOMIC_ACQUIRE)))
			__atomic_store_n(&b->stop, 1, __ATOMIC_RELEASE);
		__atomic_store_n(&b->gen, gen + 1, __ATOMIC_RELEASE);
	} else {
		while (__atomic_load_n(&b->gen, __ATOMIC_ACQUIRE) == gen)
			if (++spins % 4096 == 0)
				sched_yield();	/* an unpinned helper may need this CPU */
			else
				spin_relax();
	}
	return __atomic_load_n(&b->stop, __ATOMIC_ACQUIRE);
}

/* A worker that never started cannot fill the barrier: release the rest. */
void vsb_barrier_break(struct vsb_barrier *b)
{
	__atomic_store_n(&b->stop, 1, __ATOMIC_RELEASE);
	__atomic_add_fetch(&b->gen, 1, __ATOMIC_RELEASE);
}
