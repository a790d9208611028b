// SPDX-License-Identifier: GPL-2.0
/*
 * A sweep spread over worker processes (`sweep --procs`, cmd_sweep_procs.c):
 * what worker K hands on to worker K + 1 besides the points' partial
 * files, in DIR/procs.txt.  Each worker is a fresh process (the binary
 * re-executed), so the points' states must travel on disk: which are
 * done (a --trace point, which worker 1 runs whole; one kept by the
 * user's --resume), which failed or skipped at run time and why (they
 * must not start again), and of the pending ones how many repetitions a
 * --resume continued (for the last worker's summary and the point's
 * `# sweep_resumed:` line).  The last worker removes the file, and so
 * does an interrupted one: --resume starts a new series of workers from
 * the partial files and points.txt, as after any interrupt.  The
 * file's lines are lib/model/handoff.c's.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "handoff.h"
#include "sweep_int.h"

#define PROCS_FILE "procs.txt"

static int procs_path(const struct vsb_sweep_run_opts *ro, char *buf, size_t len)
{
	return vsb_sweep_path_join(buf, len, ro->dir, PROCS_FILE, "");
}

int vsb_sweep_handoff_write(const struct vsb_sweep *sw,
			    const struct vsb_sweep_run_opts *ro)
{
	struct vsb_outfile o;
	char path[4096];
	int ret;

	ret = procs_path(ro, path, sizeof(path));
	ret = ret ?: vsb_outfile_open(&o, path, "-o");
	if (ret)
		return ret;
	vsb_handoff_write(o.f, sw, ro->worker, ro->procs);
	return vsb_outfile_commit(&o);
}

void vsb_sweep_handoff_remove(const struct vsb_sweep_run_opts *ro)
{
	char path[4096];

	if (!procs_path(ro, path, sizeof(path)))
		unlink(path);
}

int vsb_sweep_handoff_read(struct vsb_sweep *sw, const struct vsb_sweep_run_opts *ro)
{
	char path[4096], *buf = NULL, *line, *next;
	unsigned char *seen;
	size_t len, nseen = 0, i, lineno = 0;
	int ret;

	ret = procs_path(ro, path, sizeof(path));
	if (ret)
		return ret;
	ret = vsb_read_whole(path, VSB_READ_MAX, &buf, &len);
	if (ret) {
		vsb_err("%s: worker process %ld cannot read what worker %ld handed on: %s",
			path, ro->worker, ro->worker - 1, vsb_read_strerror(ret));
		return VSB_EXIT_ERROR;
	}
	seen = vsb_zalloc(sw->npoints + 1);
	for (line = buf; line && *line && !ret; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (line[0] == '#')
			continue;
		if (vsb_handoff_line(sw, line, seen)) {
			vsb_err("%s:%zu: not a line this sweep's worker %ld wrote",
				path, lineno, ro->worker - 1);
			ret = VSB_EXIT_ERROR;
		}
	}
	for (i = 0; i < sw->npoints; i++)
		nseen += seen[i];
	if (!ret && nseen != sw->npoints) {
		vsb_err("%s: %zu of %zu points handed on: not this sweep's", path, nseen,
			sw->npoints);
		ret = VSB_EXIT_ERROR;
	}
	free(seen);
	free(buf);
	return ret;
}
