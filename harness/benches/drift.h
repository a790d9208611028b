/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The accuracy side of the counter bench: who folds the per-CPU diffs
 * (--fold none|local|remote) and what a reader of the shared counters
 * sees meanwhile (--drift): how far off it is and how long a change stays
 * invisible.
 */
#ifndef VSB_DRIFT_H
#define VSB_DRIFT_H

#include <time.h>

#include "bench/counter.h"
#include "result.h"

enum vsb_fold_policy {
	VSB_FOLD_NONE,
	VSB_FOLD_LOCAL,		/* each writer folds its own diffs on a timer */
	VSB_FOLD_REMOTE,	/* one shepherd thread folds everyone's */
};

int vsb_fold_policy(const char *name);
int vsb_fold_check(const struct vsb_run_opts *o);

struct vsb_drift;

/*
 * @ws[i] is worker i's view; its diffs pointer may still be NULL when
 * this is called (workers allocate after pinning) and is read with
 * acquire semantics by the shepherd and the reader.
 */
struct vsb_drift *vsb_drift_start(const struct vsb_run_opts *o,
				  const struct vsb_counter_params *p,
				  struct vsb_counter_worker *const *ws,
				  const int *cpus, int n, vsb_shared_t *shared);
void vsb_drift_stop(struct vsb_drift *d, struct vsb_result *r);

/* Per writer thread, for --fold local: a timer that interrupts it. */
struct vsb_local_fold {
	timer_t timer;
	int armed;
};
int vsb_local_fold_arm(struct vsb_drift *d, const struct vsb_counter_worker *w,
		       struct vsb_local_fold *lf);
void vsb_local_fold_disarm(struct vsb_local_fold *lf);

#endif /* VSB_DRIFT_H */
