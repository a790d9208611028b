/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profile_diff.h - profile.csv read back, and its cg_diff-style table:
 * the functions whose count per op changed between base and new.
 */
#ifndef VSB_PROFILE_DIFF_H
#define VSB_PROFILE_DIFF_H

#include <stdio.h>

#include "exact_record.h"

struct vsb_prow {
	char label[256], side[16], fn[160];
	double calls;
	double c[VSB_EXACT_RESULT_CLASSES];	/* insn first */
};
struct vsb_prows {
	struct vsb_prow *r;
	size_t n;
};

/* 0, or VSB_EXIT_USAGE after one line (not a profile.csv) */
int vsb_prows_read(const char *path, struct vsb_prows *t);
void vsb_prows_free(struct vsb_prows *t);

/*
 * The table: per point with both sides, the functions whose insn per op
 * moved beyond max(0.1% of the point's base, 0.05) or whose calls per op
 * moved by more than 0.005, biggest change first, with calls per op and
 * the classes that moved; @md: markdown (summary.md), else text.  A
 * point of one side only: its functions, most first (at most @top).
 * Returns the number of changed functions.
 */
size_t vsb_prof_diff(FILE *f, const struct vsb_prows *t, int md, size_t top);

#endif /* VSB_PROFILE_DIFF_H */
