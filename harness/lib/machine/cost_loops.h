/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cost_loops.h - the timed runs of calibrate --costs (cost_loops.c): one
 * loop per primitive, each iteration a long unrolled run of the
 * instruction, and the empty loop they are measured against.
 * cost_probe.c times them; nothing here reads a clock.
 */
#ifndef VSB_COST_LOOPS_H
#define VSB_COST_LOOPS_H

#include <stdint.h>

#include "cost_table.h"

/*
 * @iters (at least 1) iterations of the loop over @mem: a 64-byte
 * aligned scratch area of VSB_COST_MEM bytes, which the loops that
 * touch memory use (the %gs one through its GS base, set by the caller).
 */
typedef void (*vsb_cost_loop_fn)(uint64_t iters, void *mem);

#define VSB_COST_MEM	8192

/* The measured loops, beyond the table's rows: popf is a difference. */
enum vsb_cost_loop {
	VSB_LOOP_EMPTY = 0,	/* the loop alone: dec, jnz */
	VSB_LOOP_PUSHF_POPF,	/* pushfq; popfq: popf's row less pushf's */
	VSB_LOOP_FIRST_PRIM,	/* then one a user-space row, popf's aside */
};

struct vsb_cost_loop_def {
	int prim;		/* enum vsb_prim, or -1 for the two above */
	const char *name;
	vsb_cost_loop_fn fn;
	unsigned int per_iter;	/* instructions (or 4 KiB stores) an iteration */
	int gs;			/* runs through %gs: the caller sets a GS base */
};

/* The loops, empty and pushf+popf first, then every user-space row but
 * popf's; the count into *@n.  NULL where there is no x86-64 to time. */
const struct vsb_cost_loop_def *vsb_cost_loops(unsigned int *n);

#endif /* VSB_COST_LOOPS_H */
