// SPDX-License-Identifier: GPL-2.0
/*
 * The sysctl state file's text (lib/machine/sysctl_state.c keeps the
 * file, its lock and the recovery): each original whole, '\\', tab,
 * newline and other control characters escaped, under the pid (and
 * start time) of its writer.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysctl_spec.h"
#include "sysctl_state_file.h"
#include "vsb.h"

/* @v with '\\', tab, newline and other control characters escaped. */
char *vsb_sysctl_escaped(const char *v)
{
	char *out = vsb_zalloc(4 * strlen(v) + 1), *p = out;

	for (; *v; v++) {
		unsigned char c = (unsigned char)*v;

		if (c == '\\' || c == '\t' || c == '\n') {
			*p++ = '\\';
			*p++ = c == '\\' ? '\\' : c == '\t' ? 't' : 'n';
		} else if (c < 0x20 || c == 0x7f) {
			p += sprintf(p, "\\x%02x", c);
		} else {
			*p++ = (char)c;
		}
	}
	return out;
}

/* The first lines: what the file is, and its writer */
void vsb_sysctl_state_head(FILE *f, long pid, unsigned long long start)
{
	fprintf(f, "# vmstat-bench: sysctl values to put back (`vmstat-bench restore`)\n");
	fprintf(f, "%s %ld %llu\n", VSB_SYSCTL_STATE_PID, pid, start);
}

/* One sysctl @name and its original value @orig, escaped */
void vsb_sysctl_state_line(FILE *f, const char *name, const char *orig)
{
	char *e = vsb_sysctl_escaped(orig);

	fprintf(f, "%s\t%s\n", name, e);
	free(e);
}

/* escaped()'s inverse, in place; -1 on a malformed escape */
static int unescape(char *s)
{
	char *w = s;
	unsigned int x;

	for (; *s; s++) {
		if (*s != '\\') {
			*w++ = *s;
			continue;
		}
		s++;
		if (*s == '\\' || *s == 't' || *s == 'n') {
			*w++ = *s == '\\' ? '\\' : *s == 't' ? '\t' : '\n';
		} else if (*s == 'x' && isxdigit((unsigned char)s[1]) &&
			   isxdigit((unsigned char)s[2]) && sscanf(s + 1, "%2x", &x) == 1 &&
			   x) {
			*w++ = (char)x;
			s += 2;
		} else {
			return -1;
		}
	}
	*w = '\0';
	return 0;
}

/*
 * Parse the state file's text: every line checked before anything is
 * written, so a damaged file changes nothing.  The number of entries,
 * or -1 after one error line.
 */
int vsb_sysctl_state_parse(const char *path, char *buf,
			   struct vsb_sysctl_state_ent *se, int max, long *pid,
			   unsigned long long *start)
{
	char *line, *next, *tab, sp[256];
	int n = 0, lineno = 0;

	for (line = buf; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (line[0] == '#' || !line[0])
			continue;
		if (!strncmp(line, VSB_SYSCTL_STATE_PID " ",
			     sizeof(VSB_SYSCTL_STATE_PID))) {
			if (sscanf(line + sizeof(VSB_SYSCTL_STATE_PID), "%ld %llu",
				   pid, start) < 1)
				*pid = 0;
			continue;
		}
		tab = strchr(line, '\t');
		if (tab)
			*tab = '\0';
		if (!tab || n == max || vsb_sysctl_path(line, sp, sizeof(sp)) ||
		    unescape(tab + 1)) {
			vsb_err("%s:%d: not a vmstat-bench sysctl state line: refused, "
				"nothing restored, file left as it is", path, lineno);
			return -1;
		}
		/* only what --sysctl could have set: never kernel.* as root */
		if (!vsb_sysctl_settable(line)) {
			vsb_err("%s:%d: %s is not a sysctl vmstat-bench sets (vm.* only): "
				"refused, nothing restored, file left as it is", path,
				lineno, line);
			return -1;
		}
		se[n].name = line;
		se[n].val = tab + 1;
		n++;
	}
	return n;
}

