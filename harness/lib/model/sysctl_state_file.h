/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sysctl state file's text (sysctl_state_file.c), without the
 * machine: its escaping and its parser.
 */
#ifndef VSB_SYSCTL_STATE_FILE_H
#define VSB_SYSCTL_STATE_FILE_H

struct vsb_sysctl_state_ent {
	char *name, *val;	/* into the file's buffer */
};

/* @v with '\\', tab, newline and other control characters escaped (malloc'd) */
char *vsb_sysctl_escaped(const char *v);

/*
 * @buf, the text of the state file @path, cut in place into at most
 * @max entries @se and the writer's @pid and @start: their number, or
 * -1 after one error line.
 */
int vsb_sysctl_state_parse(const char *path, char *buf,
			   struct vsb_sysctl_state_ent *se, int max, long *pid,
			   unsigned long long *start);

#endif /* VSB_SYSCTL_STATE_FILE_H */
