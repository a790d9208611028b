// SPDX-License-Identifier: GPL-2.0
/*
 * The module's benches by their uapi number (VSB_KMOD_BENCHES in
 * vsb_kmod.h): main.c validates a request and run.c runs it through the
 * row its number picks, so no bench is named anywhere else, and a number
 * without ops (which run.c's old ternary chain ran as the pages bench)
 * does not compile.
 */
#include <linux/build_bug.h>

#include "vsb_kmod.h"

#define TABLE_ROW(nr, ops)	[nr] = &ops,
#define COUNT_ROW(nr, ops)	+ 1
#define MASK_ROW(nr, ops)	| (1ULL << (nr))

const struct vsb_bench_ops *const vsb_bench_table[VSB_BENCH_NR] = {
	VSB_KMOD_BENCHES(TABLE_ROW)
};

/* as many rows as numbers, and every number 0..NR-1 among them: each once */
static_assert(0 VSB_KMOD_BENCHES(COUNT_ROW) == VSB_BENCH_NR,
	      "a VSB_BENCH_* number without its row, or a row too many");
static_assert((0 VSB_KMOD_BENCHES(MASK_ROW)) == (1ULL << VSB_BENCH_NR) - 1,
	      "VSB_KMOD_BENCHES does not cover every VSB_BENCH_* number");
