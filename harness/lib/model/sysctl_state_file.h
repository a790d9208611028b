/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sysctl state file's text (sysctl_state_file.c), without the
 * machine: its writer's lines, their escaping and the parser.
 */
#ifndef VSB_SYSCTL_STATE_FILE_H
#define VSB_SYSCTL_STATE_FILE_H

#include <stdio.h>

#define VSB_SYSCTL_STATE_PID	"pid"	/* the writer's line: "pid PID START" */

struct vsb_sysctl_state_ent {
	char *name, *val;	/* into the file's buffer */
};

/* @v with '\\', tab, newline and other control characters escaped (malloc'd) */
char *vsb_sysctl_escaped(const char *v);

/* The file's first lines into @f: what it is, and its writer's @pid, @start */
void vsb_sysctl_state_head(FILE *f, long pid, unsigned long long start);

/* One line: sysctl @name and its original value @orig, escaped */
void vsb_sysctl_state_line(FILE *f, const char *name, const char *orig);

/*
 * @buf, the text of the state file @path, cut in place into at most
 * @max entries @se and the writer's @pid and @start: their number, or
 * -1 after one error line.
 */
int vsb_sysctl_state_parse(const char *path, char *buf,
			   struct vsb_sysctl_state_ent *se, int max, long *pid,
			   unsigned long long *start);

#endif /* VSB_SYSCTL_STATE_FILE_H */
