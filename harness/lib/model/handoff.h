/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DIR/procs.txt, what a worker process of `sweep --procs` hands on to
 * the next (handoff.c): the points' states.  harness/sweep/procs.c
 * writes and reads the file; its lines are here.
 */
#ifndef VSB_HANDOFF_H
#define VSB_HANDOFF_H

#include <stdio.h>

#include "sweepfile.h"

/*
 * procs.txt's text into @f: worker @worker of @procs hands on @sw's
 * points, each with its state (a point's kept: done by the user's --resume).
 */
void vsb_handoff_write(FILE *f, const struct vsb_sweep *sw, long worker, long procs);

/*
 * One line of procs.txt (cut up here) into its point of @sw and @seen
 * (each point once): 0, or -1 when it is not a line the writer above
 * makes for one of @sw's points.
 */
int vsb_handoff_line(struct vsb_sweep *sw, char *line, unsigned char *seen);

#endif /* VSB_HANDOFF_H */
