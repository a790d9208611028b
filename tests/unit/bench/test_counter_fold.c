// SPDX-License-Identifier: GPL-2.0
/*
 * The bench/ update algorithm against values worked out by hand from
 * mm/vmstat.c, one update at a time, for every variant that exists in
 * user space.  This is what makes the per-variant loops trustworthy: the
 * CLI tests then check that the threaded runs balance.
 */
#include <string.h>

#include "bench/counter.h"
#include "tap.h"

static s8 d8[8] __attribute__((aligned(64)));
static s16 d16[8] __attribute__((aligned(64)));
static s32 d32[8] __attribute__((aligned(64)));
static vsb_shared_t shared[8];
static vsb_pcc_t pcc[8];

static void reset(struct vsb_counter_worker *w, void *diffs)
{
	memset(d8, 0, sizeof(d8));
	memset(d16, 0, sizeof(d16));
	memset(d32, 0, sizeof(d32));
	memset(shared, 0, sizeof(shared));
	memset(pcc, 0, sizeof(pcc));
	memset(w, 0, sizeof(*w));
	w->diffs = diffs;
	w->shared = shared;
	w->pcc = pcc;
}

int main(void)
{
	struct vsb_counter_params p;
	struct vsb_counter_worker w;
	vsb_counter_loop_fn fn;
	int v, bits;

	/*
	 * __inc_zone_state with threshold 4: the 5th increment makes the
	 * diff 5 > 4, folds 5 + overstep 2 = 7 and leaves -2.
	 */
	vsb_counter_params_init(&p, 4, 1, 0, 1, 8);
	TAP_OK(p.overstep == 2, "inc overstep is threshold/2 (%ld)", p.overstep);
	reset(&w, d8);
	vsb_counter_loop(VSB_V_plain_fold, 8)(&w, &p, 4);
	TAP_OK(d8[0] == 4 && shared[0] == 0, "4 incs stay in the diff (diff %d)", d8[0]);
	vsb_counter_loop(VSB_V_plain_fold, 8)(&w, &p, 1);
	TAP_OK(shared[0] == 7 && d8[0] == -2 && w.folds == 1,
	       "5th inc folds 7 and leaves -2 (shared %ld diff %d)", shared[0], d8[0]);
	/* from -2 it takes 7 more increments to exceed 4 again */
	vsb_counter_loop(VSB_V_plain_fold, 8)(&w, &p, 6);
	TAP_OK(shared[0] == 7 && d8[0] == 4, "6 more incs reach 4 without folding");
	vsb_counter_loop(VSB_V_plain_fold, 8)(&w, &p, 1);
	TAP_OK(shared[0] == 14 && d8[0] == -2 && w.folds == 2, "the next folds again");

	/* dec: overstep mirrors; mod (delta 3): no overstep, diff goes to 0 */
	vsb_counter_params_init(&p, 4, -1, 0, 1, 16);
	reset(&w, d16);
	vsb_counter_loop(VSB_V_cmpxchg_local, 16)(&w, &p, 5);
	TAP_OK(shared[0] == -7 && d16[0] == 2, "5 decs fold -7 and leave +2 (s16, cmpxchg-local)");
	vsb_counter_params_init(&p, 4, 3, 0, 1, 32);
	TAP_OK(p.overstep == 0, "a delta of 3 is a plain mod: no overstep");
	reset(&w, d32);
	vsb_counter_loop(VSB_V_cmpxchg_locked, 32)(&w, &p, 2);
	TAP_OK(shared[0] == 6 && d32[0] == 0, "3+3 > 4 folds all 6 (s32, cmpxchg-locked)");

	/* items round-robin and carry across batches */
	vsb_counter_params_init(&p, 100, 1, 0, 3, 8);
	reset(&w, d8);
	vsb_counter_loop(VSB_V_plain_fold, 8)(&w, &p, 4);
	vsb_counter_loop(VSB_V_plain_fold, 8)(&w, &p, 3);
	TAP_OK(d8[0] == 3 && d8[1] == 2 && d8[2] == 2 && w.idx == 1,
	       "7 updates over 3 items give 3,2,2 and resume at item 1");

	/* threshold 0: every update folds (what atomic-global does always) */
	vsb_counter_params_init(&p, 0, 1, 0, 1, 8);
	reset(&w, d8);
	vsb_counter_loop(VSB_V_cmpxchg_local, 8)(&w, &p, 10);
	TAP_OK(shared[0] == 10 && d8[0] == 0 && w.folds == 10, "threshold 0 folds every update");
	reset(&w, d8);
	vsb_counter_loop(VSB_V_atomic_global, 8)(&w, &p, 10);
	TAP_OK(shared[0] == 10 && d8[0] == 0, "atomic-global adds straight to the shared counter");

	/* this-cpu-add never folds and wraps at the width */
	vsb_counter_params_init(&p, 125, 1, 0, 1, 8);
	reset(&w, d8);
	vsb_counter_loop(VSB_V_this_cpu_add, 8)(&w, &p, 300);
	TAP_OK(shared[0] == 0 && d8[0] == (s8)300, "this-cpu-add wraps an s8 (300 -> %d)", d8[0]);

	/* percpu_counter: batch 4, +1s: the 4th add moves 4 to the global */
	vsb_counter_params_init(&p, 0, 1, 4, 1, 32);
	reset(&w, d32);
	fn = vsb_counter_loop(VSB_V_percpu_counter, 8);	/* width ignored: s32 */
	TAP_OK(fn == vsb_counter_loop(VSB_V_percpu_counter, 32), "percpu-counter always uses s32");
	fn(&w, &p, 3);
	TAP_OK(pcc[0].count == 0 && d32[0] == 3, "3 adds stay per-CPU under batch 4");
	fn(&w, &p, 1);
	TAP_OK(pcc[0].count == 4 && d32[0] == 0 && w.folds == 1, "the 4th moves 4 to the global");

	/* the dispatch table: every user variant has a loop, irqsave none */
	for (v = 0; v < VSB_V_NR; v++)
		for (bits = 8; bits <= 32; bits *= 2)
			if (!(vsb_variants[v].sides & VSB_SIDE_USER) !=
			    !vsb_counter_loop((unsigned int)v, (unsigned int)bits))
				break;
	TAP_OK(v == VSB_V_NR, "user-space loops exist exactly for user-side variants");
	TAP_OK(!vsb_counter_loop(VSB_V_irqsave, 8), "irqsave has no user-space loop");
	TAP_OK(!vsb_counter_loop(VSB_V_plain_fold, 12), "12-bit diffs are refused");
	TAP_OK(vsb_threshold_max(8) == 125 && vsb_threshold_max(16) == 32765,
	       "threshold caps match the kernel's 125 and the 001 thread's 32765");
	return tap_done();
}
