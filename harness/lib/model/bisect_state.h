/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lines of a bisect's OUT/bisect.state (bisect_state.c), which
 * harness/bisect/run.c appends to and reads back to resume.
 */
#ifndef VSB_BISECT_STATE_H
#define VSB_BISECT_STATE_H

#include <stddef.h>

/* One commit measured: an endpoint, a step or the culprit's check. */
struct vsb_bisect_step {
	char role[16];		/* endpoints, step, confirm */
	char sha[41];
	char base_sha[41];	/* what it was compared with */
	char verdict[16];	/* good, bad, skip, differ, same, ... */
	char dir[64];		/* its ab folder, relative to OUT */
	char why[128];
};

#endif /* VSB_BISECT_STATE_H */
