// SPDX-License-Identifier: GPL-2.0
/*
 * OUT/bisect.state (harness/bisect/run.c appends, fsyncs and reads it
 * back to resume): the question line (the bisect's arguments, so that a
 * resumed bisect is the same one), then one line for each commit
 * built (spec SHA SPEC) and each commit measured (step ROLE SHA BASE
 * VERDICT DIR).  A line is read only when the writer would write it
 * again to the byte: a state a bisect did not write is refused, not
 * half read.
 */
#include <stdio.h>
#include <string.h>

#include "bisect_state.h"
#include "vsb.h"

void vsb_bisect_step_write(char *buf, size_t len, const struct vsb_bisect_step *s)
{
	snprintf(buf, len, "step %s %s %s %s %s", s->role, s->sha, s->base_sha,
		 s->verdict, s->dir);
}

/* 40 lowercase hex digits: a commit as git rev-parse gives it */
static int full_sha(const char *s)
{
	return strlen(s) == 40 && strspn(s, "0123456789abcdef") == 40;
}

/* The next space-free word of *@line into @buf (@len): 0, or -1 if none or too long */
static int word(const char **line, char *buf, size_t len)
{
	size_t n = strcspn(*line, " ");

	if (!n || n >= len)
		return -1;
	memcpy(buf, *line, n);
	buf[n] = '\0';
	*line += n;
	if (**line == ' ')
		(*line)++;
	return 0;
}

int vsb_bisect_step_read(const char *line, struct vsb_bisect_step *s)
{
	char again[512];
	const char *p = line;

	memset(s, 0, sizeof(*s));
	if (strncmp(p, "step ", 5))
		return -1;
	p += 5;
	if (word(&p, s->role, sizeof(s->role)) || word(&p, s->sha, sizeof(s->sha)) ||
	    word(&p, s->base_sha, sizeof(s->base_sha)) ||
	    word(&p, s->verdict, sizeof(s->verdict)) || word(&p, s->dir, sizeof(s->dir)) ||
	    !full_sha(s->sha) || !full_sha(s->base_sha))
		return -1;
	vsb_bisect_step_write(again, sizeof(again), s);
	return strcmp(again, line) ? -1 : 0;
}

void vsb_bisect_spec_write(char *buf, size_t len, const char *sha, const char *spec)
{
	snprintf(buf, len, "spec %s %s", sha, spec);
}

int vsb_bisect_spec_read(const char *line, char *sha, char *spec, size_t len)
{
	if (strncmp(line, "spec ", 5) || strlen(line) < 47 || line[45] != ' ' ||
	    strlen(line + 46) >= len)
		return -1;
	memcpy(sha, line + 5, 40);
	sha[40] = '\0';
	if (!full_sha(sha))
		return -1;
	snprintf(spec, len, "%s", line + 46);
	return 0;
}

void vsb_bisect_round_write(char *buf, size_t len, unsigned int round, const char *sha)
{
	snprintf(buf, len, "round %u %s", round, sha);
}

int vsb_bisect_round_read(const char *line, long *round, char *sha)
{
	const char *sp;
	char num[16];

	if (strncmp(line, "round ", 6))
		return 1;
	line += 6;
	sp = strchr(line, ' ');
	if (!sp || sp == line || sp - line >= (long)sizeof(num))
		return -1;
	memcpy(num, line, sp - line);
	num[sp - line] = '\0';
	if (vsb_parse_long(num, round) || *round < 1 || !full_sha(sp + 1))
		return -1;
	memcpy(sha, sp + 1, 41);
	return 0;
}

void vsb_bisect_question_write(char *buf, size_t len, const char *tree,
			       const char *good, const char *bad, const char *sweep,
			       char *const ab_args[], int nab)
{
	int i;

	snprintf(buf, len, "question: tree=%s good=%s bad=%s sweep=%s ab=", tree,
		 good, bad, sweep);
	for (i = 0; i < nab; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? " " : "",
			 ab_args[i]);
}

char *vsb_bisect_state_line(char **cursor)
{
	char *line, *nl;

	while (**cursor == '\n')
		(*cursor)++;
	if (!**cursor)
		return NULL;
	line = *cursor;
	nl = strchr(line, '\n');
	if (nl) {
		*nl = '\0';
		*cursor = nl + 1;
	} else {
		*cursor = line + strlen(line);
	}
	return line;
}
