// SPDX-License-Identifier: GPL-2.0
/*
 * points.txt, a sweep folder's list of its points: which are done,
 * partial, failed, skipped or not run yet.  The sweep writes it after
 * every round and on an interrupt, so that `compare` reads only the
 * points a sweep finished and never a stale file of an older sweep in
 * the same folder.  A format of the suite's files: writer and reader
 * live here together.
 */
#include <string.h>

#include "point_list.h"
#include "vsb.h"

/* "partial": pending with repetitions so far (in its .csv.partial) */
const char *vsb_sweep_state_name(const struct vsb_sweep_point *p)
{
	switch (p->state) {
	case VSB_PT_DONE:
		return "done";
	case VSB_PT_FAILED:
		return "failed";
	case VSB_PT_SKIPPED:
		return "skipped";
	default:
		return p->done && !p->opts.trace ? "partial" : "not-run";
	}
}

void vsb_point_list_write(FILE *f, const struct vsb_sweep *sw)
{
	size_t i;

	fprintf(f, "# point id\tstate\tparameters (axes of %s)\n", sw->path);
	for (i = 0; i < sw->npoints; i++)
		fprintf(f, "%s\t%s\t%s\n", sw->points[i].id,
			vsb_sweep_state_name(&sw->points[i]), sw->points[i].params);
}

const char *vsb_point_list_done(const char *list, size_t lineno, char *line,
				int *ret)
{
	char *state = strchr(line, '\t');

	if (line[0] == '#' || !state)
		return NULL;
	*state++ = '\0';
	if (strncmp(state, "done\t", 5))
		return NULL;
	/* an id is a file name in the folder, never a way out of it */
	if (!line[0] || strchr(line, '/')) {
		vsb_err("%s:%zu: point id '%.40s' is not a file name", list, lineno,
			line);
		*ret = VSB_EXIT_USAGE;
		return NULL;
	}
	return line;
}
