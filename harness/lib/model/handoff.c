// SPDX-License-Identifier: GPL-2.0
/*
 * The lines of DIR/procs.txt, what worker process K of `sweep --procs`
 * hands on to worker K + 1 (harness/sweep/procs.c says why it is
 * needed and when it is removed).  A format of the suite's files, so
 * its writer and its reader live here together:
 *
 *   # sweep: FILE; handed on by worker process K of W
 *   id <TAB> state <TAB> resumed <TAB> status <TAB> reason
 *
 * state: done, kept (done, by --resume), failed, skipped, pending.
 */
#include <limits.h>
#include <string.h>

#include "handoff.h"
#include "vsb.h"

static const char *handoff_state(const struct vsb_sweep_point *p)
{
	switch (p->state) {
	case VSB_PT_DONE:
		return p->kept ? "kept" : "done";
	case VSB_PT_FAILED:
		return "failed";
	case VSB_PT_SKIPPED:
		return "skipped";
	default:
		return "pending";
	}
}

void vsb_handoff_write(FILE *f, const struct vsb_sweep *sw, long worker, long procs)
{
	size_t i;

	fprintf(f, "# sweep: %s; handed on by worker process %ld of %ld\n"
		"# id\tstate\tresumed\tstatus\treason\n", sw->path, worker,
		procs);
	for (i = 0; i < sw->npoints; i++) {
		const struct vsb_sweep_point *p = &sw->points[i];
		int bad = p->state == VSB_PT_FAILED || p->state == VSB_PT_SKIPPED;
		char *nl, err[sizeof(p->err)];

		/* a reason on one line: the file is one point a line */
		snprintf(err, sizeof(err), "%s", bad ? p->err : "");
		while ((nl = strpbrk(err, "\t\n")))
			*nl = ' ';
		fprintf(f, "%s\t%s\t%ld\t%d\t%s\n", p->id, handoff_state(p),
			p->resumed, bad ? p->status : 0, err);
	}
}

/* Cut @line at its tabs into @f: 0 when it has the writer's five fields */
static int split_tabs(char *line, char **f)
{
	char *t = line;
	int n;

	for (n = 0; n < 5 && t; n++) {
		f[n] = t;
		t = n < 4 ? strchr(t, '\t') : NULL;
		if (t)
			*t++ = '\0';
	}
	return n == 5 ? 0 : -1;
}

/*
 * One line of procs.txt into its point; 0, or -1 when it does not
 * parse.  Its numbers in numbers.c's syntax, as the writer's %ld and
 * %d write them: "06" or "6x" is no count of ours.
 */
int vsb_handoff_line(struct vsb_sweep *sw, char *line, unsigned char *seen)
{
	struct vsb_sweep_point *p;
	long resumed, status;
	char *f[5];
	size_t i;

	if (split_tabs(line, f) || vsb_parse_long(f[2], &resumed) || resumed < 0 ||
	    vsb_parse_long(f[3], &status) || status < INT_MIN || status > INT_MAX)
		return -1;
	for (i = 0; i < sw->npoints && strcmp(sw->points[i].id, f[0]); i++)
		;
	if (i == sw->npoints || seen[i])
		return -1;
	seen[i] = 1;
	p = &sw->points[i];
	p->resumed = resumed;
	if (!strcmp(f[1], "done") || !strcmp(f[1], "kept")) {
		p->state = VSB_PT_DONE;
		p->kept = f[1][0] == 'k';
	} else if (!strcmp(f[1], "failed") || !strcmp(f[1], "skipped")) {
		p->state = f[1][0] == 'f' ? VSB_PT_FAILED : VSB_PT_SKIPPED;
		p->status = (int)status;
		snprintf(p->err, sizeof(p->err), "%s", f[4]);
	} else if (strcmp(f[1], "pending")) {
		return -1;
	}
	return 0;
}
