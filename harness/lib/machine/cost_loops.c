// SPDX-License-Identifier: GPL-2.0
/*
 * cost_loops.c - what calibrate --costs times, as uarch-bench and
 * nanoBench do: each loop iteration is a long unrolled run (.rept) of one
 * instruction, so that the loop's own dec+jnz is a small share, and
 * cost_probe.c subtracts the empty loop's time as well.
 *
 * Chains (add_chain, imul_chain) make each instruction wait for the last:
 * they time latency.  Everything else is independent of its neighbours
 * where the instruction allows it (distinct registers, or a destination
 * nothing reads), or back to back on one location where it cannot be
 * otherwise (a LOCK RMW, a cmpxchg: these are the costs the kernel's
 * per-CPU counters pay one after another).  The adds take a register
 * operand, not an immediate: some cores fold small immediate adds in the
 * renamer, which would make the clock chain run faster than 1 a cycle.
 */
#include <stddef.h>

#include "cost_loops.h"

#if defined(__x86_64__)

/* the loop around each body: %0 counts down to 0 */
#define LOOP(body)	"1:\n\t" body "\n\tdec %0\n\tjnz 1b\n\t"
/* the red zone below %rsp is the compiler's: pushes go below it */
#define BELOW_RED_ZONE(body) \
	"lea -128(%%rsp), %%rsp\n\t" body "lea 128(%%rsp), %%rsp\n\t"

static void loop_empty(uint64_t n, void *mem)
{
	(void)mem;
	__asm__ __volatile__(LOOP("") : "+r"(n) :: "cc");
}

static void loop_add_chain(uint64_t n, void *mem)
{
	uint64_t a = 0, one = 1;

	(void)mem;
	__asm__ __volatile__(LOOP(".rept 200\n\tadd %2, %1\n\t.endr")
			     : "+r"(n), "+r"(a) : "r"(one) : "cc");
}

static void loop_imul_chain(uint64_t n, void *mem)
{
	uint64_t a = 7, one = 1;

	(void)mem;
	__asm__ __volatile__(LOOP(".rept 100\n\timul %2, %1\n\t.endr")
			     : "+r"(n), "+r"(a) : "r"(one) : "cc");
}

/* eight registers, each its own chain: more chains than any core's ALUs */
static void loop_add_tput(uint64_t n, void *mem)
{
	uint64_t a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0, one = 1;

	(void)mem;
	__asm__ __volatile__(LOOP(".rept 25\n\t"
				  "add %9, %1\n\tadd %9, %2\n\tadd %9, %3\n\tadd %9, %4\n\t"
				  "add %9, %5\n\tadd %9, %6\n\tadd %9, %7\n\tadd %9, %8\n\t"
				  ".endr")
			     : "+r"(n), "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e),
			       "+r"(f), "+r"(g), "+r"(h) : "r"(one) : "cc");
}

/* eight offsets of one line; each load's result is overwritten unread */
static void loop_load(uint64_t n, void *mem)
{
	uint64_t x;

	__asm__ __volatile__(LOOP(".rept 25\n\t"
				  "mov 0(%2), %1\n\tmov 8(%2), %1\n\tmov 16(%2), %1\n\t"
				  "mov 24(%2), %1\n\tmov 32(%2), %1\n\tmov 40(%2), %1\n\t"
				  "mov 48(%2), %1\n\tmov 56(%2), %1\n\t.endr")
			     : "+r"(n), "=&r"(x) : "r"(mem) : "memory");
}

static void loop_store(uint64_t n, void *mem)
{
	uint64_t x = 1;

	__asm__ __volatile__(LOOP(".rept 25\n\t"
				  "mov %1, 0(%2)\n\tmov %1, 8(%2)\n\tmov %1, 16(%2)\n\t"
				  "mov %1, 24(%2)\n\tmov %1, 32(%2)\n\tmov %1, 40(%2)\n\t"
				  "mov %1, 48(%2)\n\tmov %1, 56(%2)\n\t.endr")
			     : "+r"(n) : "r"(x), "r"(mem) : "memory");
}

/*
 * cmpxchg with %rax == (mem) == %rdx == 0: it always succeeds and
 * stores what was there, as this_cpu_cmpxchg does on an uncontended slot
 */
static void loop_lock_cmpxchg(uint64_t n, void *mem)
{
	uint64_t old = 0, new = 0;

	*(volatile uint64_t *)mem = 0;
	__asm__ __volatile__(LOOP(".rept 50\n\tlock cmpxchg %2, (%3)\n\t.endr")
			     : "+r"(n), "+a"(old) : "d"(new), "r"(mem) : "memory", "cc");
}

static void loop_lock_xadd(uint64_t n, void *mem)
{
	uint64_t v = 1;

	__asm__ __volatile__(LOOP(".rept 50\n\tlock xadd %1, (%2)\n\t.endr")
			     : "+r"(n), "+r"(v) : "r"(mem) : "memory", "cc");
}

static void loop_cmpxchg(uint64_t n, void *mem)
{
	uint64_t old = 0, new = 0;

	*(volatile uint64_t *)mem = 0;
	__asm__ __volatile__(LOOP(".rept 50\n\tcmpxchg %2, (%3)\n\t.endr")
			     : "+r"(n), "+a"(old) : "d"(new), "r"(mem) : "memory", "cc");
}

/* through the GS base the caller set to @mem: %gs:0 is mem[0] */
static void loop_cmpxchg_gs(uint64_t n, void *mem)
{
	uint64_t old = 0, new = 0;

	*(volatile uint64_t *)mem = 0;
	__asm__ __volatile__(LOOP(".rept 50\n\tcmpxchg %2, %%gs:0\n\t.endr")
			     : "+r"(n), "+a"(old) : "d"(new) : "memory", "cc");
}

/* pushf's row: with a pop into a register, which costs about 1 cycle */
static void loop_pushf(uint64_t n, void *mem)
{
	uint64_t x;

	(void)mem;
	__asm__ __volatile__(BELOW_RED_ZONE(LOOP(".rept 50\n\tpushfq\n\tpop %1\n\t.endr"))
			     : "+r"(n), "=&r"(x) :: "memory", "cc");
}

/* the flags just pushed, popped back: IF (and every flag) unchanged */
static void loop_pushf_popf(uint64_t n, void *mem)
{
	(void)mem;
	__asm__ __volatile__(BELOW_RED_ZONE(LOOP(".rept 50\n\tpushfq\n\tpopfq\n\t.endr"))
			     : "+r"(n) :: "memory", "cc");
}

static void loop_pause(uint64_t n, void *mem)
{
	(void)mem;
	__asm__ __volatile__(LOOP(".rept 10\n\tpause\n\t.endr") : "+r"(n) :: "memory");
}

static void loop_lfence(uint64_t n, void *mem)
{
	(void)mem;
	__asm__ __volatile__(LOOP(".rept 50\n\tlfence\n\t.endr") : "+r"(n) :: "memory");
}

static void loop_mfence(uint64_t n, void *mem)
{
	(void)mem;
	__asm__ __volatile__(LOOP(".rept 50\n\tmfence\n\t.endr") : "+r"(n) :: "memory");
}

/* leaf 0, each with its xor: the xor is noise beside a cpuid */
static void loop_cpuid(uint64_t n, void *mem)
{
	(void)mem;
	__asm__ __volatile__(LOOP(".rept 5\n\txor %%eax, %%eax\n\tcpuid\n\t.endr")
			     : "+r"(n) :: "rax", "rbx", "rcx", "rdx", "memory");
}

/* 4 KiB of @mem zeroed each time, the setup movs included */
static void loop_rep_stosb(uint64_t n, void *mem)
{
	__asm__ __volatile__(LOOP(".rept 4\n\tmov %1, %%rdi\n\tmov $4096, %%ecx\n\t"
				  "rep stosb\n\t.endr")
			     : "+r"(n) : "r"(mem), "a"(0) : "rdi", "rcx", "memory");
}

static const struct vsb_cost_loop_def loops[] = {
	{ -1, "empty", loop_empty, 1, 0 },
	{ -1, "pushf_popf", loop_pushf_popf, 50, 0 },
	{ VSB_PRIM_ADD_CHAIN, "add_chain", loop_add_chain, 200, 0 },
	{ VSB_PRIM_IMUL_CHAIN, "imul_chain", loop_imul_chain, 100, 0 },
	{ VSB_PRIM_ADD_TPUT, "add_tput", loop_add_tput, 200, 0 },
	{ VSB_PRIM_LOAD, "load", loop_load, 200, 0 },
	{ VSB_PRIM_STORE, "store", loop_store, 200, 0 },
	{ VSB_PRIM_LOCK_CMPXCHG, "lock_cmpxchg", loop_lock_cmpxchg, 50, 0 },
	{ VSB_PRIM_LOCK_XADD, "lock_xadd", loop_lock_xadd, 50, 0 },
	{ VSB_PRIM_CMPXCHG, "cmpxchg", loop_cmpxchg, 50, 0 },
	{ VSB_PRIM_CMPXCHG_GS, "cmpxchg_gs", loop_cmpxchg_gs, 50, 1 },
	{ VSB_PRIM_PUSHF, "pushf", loop_pushf, 50, 0 },
	{ VSB_PRIM_PAUSE, "pause", loop_pause, 10, 0 },
	{ VSB_PRIM_LFENCE, "lfence", loop_lfence, 50, 0 },
	{ VSB_PRIM_MFENCE, "mfence", loop_mfence, 50, 0 },
	{ VSB_PRIM_CPUID, "cpuid", loop_cpuid, 5, 0 },
	{ VSB_PRIM_REP_STOSB_4K, "rep_stosb_4k", loop_rep_stosb, 4, 0 },
};

const struct vsb_cost_loop_def *vsb_cost_loops(unsigned int *n)
{
	*n = sizeof(loops) / sizeof(loops[0]);
	return loops;
}

#else

const struct vsb_cost_loop_def *vsb_cost_loops(unsigned int *n)
{
	*n = 0;
	return NULL;
}

#endif
