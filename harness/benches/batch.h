/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The timed batch, written once for every user-space bench: what a
 * worker reads around the work it times, in this order.
 *
 *   disturbance snapshot (/proc: switches, run delay, steal, irqs)
 *   [the --monitor window, likwid's marker]
 *   PMU group read
 *   clock_gettime, rdtscp  [start marker] | the work | [stop marker]
 *   rdtscp, clock_gettime
 *   PMU group read
 *   [marker, window]
 *   disturbance snapshot
 *
 * Everything but the two clock pairs lies outside the timed window, and
 * the disturbance reads lie outside the PMU's too: with --events cycles
 * the PMU reading is the sample.  Inline, so the hot path has no call.
 * The markers (exact mode under qemu-x86_64, exact_user.h) lie inside
 * the clocks, so the plugin's window is the work and a test of a flag.
 */
#ifndef VSB_BENCH_BATCH_H
#define VSB_BENCH_BATCH_H

#include <errno.h>
#include <string.h>

#include "clock.h"
#include "disturb_src.h"
#include "exact_user.h"
#include "pmu.h"
#include "result.h"
#include "vsb.h"
#include "window.h"

/* How a worker times its batches; set up once, before the first. */
struct vsb_batch {
	struct vsb_pmu_group *pmu;	/* its open group (n 0: none) */
	int *pmu_error;			/* set to EIO when a read fails */
	struct vsb_disturb_src *dsrc;	/* NULL: disturbances not read */
	enum vsb_unit unit;		/* of `elapsed` */
	int cycles;			/* active index of core cycles, or -1 */
	int window;			/* mark the sample's --monitor window */
	int marker;			/* likwid marker region (make LIKWID=1) */
	int exact;			/* the plugin's window markers */
};

/* What vsb_batch_begin() read, for vsb_batch_end(). */
struct vsb_batch_mark {
	struct vsb_disturb_snap dist;
	struct vsb_pmu_reading pmu;
	uint64_t tsc, ns;
};

static inline void vsb_batch_begin(const struct vsb_batch *b, struct vsb_batch_mark *m)
{
	if (b->dsrc)
		vsb_disturb_snap(b->dsrc, &m->dist);
	if (b->window)
		vsb_window_begin();
	if (b->marker)
		VSB_MARKER_START("vsb-batch");
	if (b->pmu->n && vsb_pmu_group_read(b->pmu, &m->pmu))
		*b->pmu_error = EIO;
	m->ns = vsb_now_ns();
	m->tsc = vsb_rdtscp();
	if (b->exact)
		vsb_exact_mark_start();
}

/* The batch's figures into @s (elapsed, ns, PMU, disturbances). */
static inline void vsb_batch_end(const struct vsb_batch *b, const struct vsb_batch_mark *m,
				 struct vsb_sample *s)
{
	struct vsb_pmu_reading pb;
	struct vsb_disturb_snap db;
	uint64_t tsc, ns;

	if (b->exact)
		vsb_exact_mark_stop();
	tsc = vsb_rdtscp();
	ns = vsb_now_ns();

	if (b->pmu->n && vsb_pmu_group_read(b->pmu, &pb))
		*b->pmu_error = EIO;
	if (b->marker)
		VSB_MARKER_STOP("vsb-batch");
	if (b->window)
		vsb_window_end();
	if (b->dsrc)
		vsb_disturb_snap(b->dsrc, &db);
	vsb_pmu_fill_sample(s, b->pmu->n, !*b->pmu_error, &m->pmu, &pb, b->unit,
			    b->cycles, tsc - m->tsc, ns - m->ns);
	if (b->dsrc) {
		vsb_disturb_diff(b->dsrc, &m->dist, &db, s);
		s->disturbed = vsb_disturb_judge(s, &vsb_disturb_default_bounds);
	}
}

#endif /* VSB_BENCH_BATCH_H */
