/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lines of a bisect's OUT/bisect.state (bisect_state.c), which
 * harness/bisect/run.c appends to and reads back to resume: the question,
 * then a line per commit built or measured.
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

/* A step's line, "step ROLE SHA BASE_SHA VERDICT DIR", into @buf */
void vsb_bisect_step_write(char *buf, size_t len, const struct vsb_bisect_step *s);
/* @line into @s (why left empty): 0, or -1 unless the writer wrote it */
int vsb_bisect_step_read(const char *line, struct vsb_bisect_step *s);
/* A built commit's line, "spec SHA SPEC" (SPEC: ab's BZIMAGE:BUILD_DIR) */
void vsb_bisect_spec_write(char *buf, size_t len, const char *sha, const char *spec);
/* @line into @sha (41 bytes) and @spec (@len): 0, or -1 as above */
int vsb_bisect_spec_read(const char *line, char *sha, char *spec, size_t len);

/*
 * A --split bisect's round line, "round K SHA", after the step of SHA:
 * that step was tested in round K beside the round's other steps.
 */
void vsb_bisect_round_write(char *buf, size_t len, unsigned int round, const char *sha);
/* @line into @round (>= 1) and @sha (41 bytes): 0, 1 when it is no round line, -1 */
int vsb_bisect_round_read(const char *line, long *round, char *sha);

/*
 * The question line, first in the file: the bisect asked, so that a
 * resumed bisect is the same one.  @ab_args: ab's options, as given.
 */
void vsb_bisect_question_write(char *buf, size_t len, const char *tree,
			       const char *good, const char *bad, const char *sweep,
			       char *const ab_args[], int nab);
/*
 * The next line of bisect.state's text at *@cursor (the whole file, read
 * into memory), cut there in place and *@cursor moved past it; a blank
 * line is no line.  NULL at the end.  The first line is the question.
 */
char *vsb_bisect_state_line(char **cursor);

#endif /* VSB_BISECT_STATE_H */
