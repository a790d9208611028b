// SPDX-License-Identifier: GPL-2.0
/*
 * What the runner's files share (sweep.c runs, partial.c keeps
 * unfinished points, kept.c checks finished ones, write.c and
 * dir_files.c write): the result folder's paths and the check of every
 * name the sweep writes there.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "result_load.h"
#include "sweep_int.h"

int vsb_sweep_path_join(char *buf, size_t len, const char *dir, const char *name,
			const char *suffix)
{
	if ((size_t)snprintf(buf, len, "%s/%s%s", dir, name, suffix) >= len) {
		vsb_err("%s: path too long", dir);
		return VSB_EXIT_USAGE;
	}
	return 0;
}

int vsb_sweep_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

int vsb_sweep_mkdir_p(const char *dir)
{
	int ret = vsb_dir_refusal(dir, "-o");

	if (ret)
		return ret;
	if (!vsb_mkdir_p(dir, 0755))
		return 0;
	vsb_err("-o: cannot create %s: %s", dir, strerror(errno));
	return VSB_EXIT_USAGE;
}

/*
 * The names the sweep writes in DIR: these, and per point <id> with each
 * suffix (the monitor's only with --monitor, the last).
 */
static const char *const dir_files[] = { "points.txt", "failed.txt",
	"sweep.csv", "meta.txt", "procs.txt" };
static const char *const point_suffixes[] = { ".csv", ".summary.csv",
	VSB_SWEEP_PARTIAL_SUFFIX, ".monitor.csv" };

/*
 * @path may be written by the sweep when nothing is there or a regular
 * file, which it replaces (the rule of every -o target, vsb_outfile_open).
 * lstat(): a link is refused whatever it points at, since the rename at
 * the end would replace the link; a FIFO or device is not ours either.
 */
static int target_check(const char *dir, const char *name, const char *suffix)
{
	char path[4096];
	struct stat st;
	const char *what;

	if (vsb_sweep_path_join(path, sizeof(path), dir, name, suffix))
		return VSB_EXIT_USAGE;
	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return 0;
		vsb_err("-o: cannot check %s: %s: refused, nothing run", path,
			strerror(errno));
		return VSB_EXIT_USAGE;
	}
	if (S_ISREG(st.st_mode))
		return 0;
	what = S_ISLNK(st.st_mode) ? "a symbolic link" :
	       S_ISDIR(st.st_mode) ? "a directory" :
	       vsb_read_strerror(VSB_ENOTREG + (int)((st.st_mode & S_IFMT) >> 12));
	vsb_err("-o: %s is %s, where the sweep writes a file of its own: refused, "
		"nothing run", path, what);
	return VSB_EXIT_USAGE;
}

/*
 * Every name the sweep will write in DIR, checked before the first point
 * runs: a link or FIFO found only when its file is written would cost the
 * whole sweep, and the points' files written by then would be left.
 */
int vsb_sweep_check_targets(const struct vsb_sweep *sw,
			    const struct vsb_sweep_run_opts *ro)
{
	size_t nsuf = sizeof(point_suffixes) / sizeof(point_suffixes[0]);
	size_t i, k;
	int ret = 0;

	if (!ro->monitor[0])
		nsuf--;
	for (k = 0; k < sizeof(dir_files) / sizeof(dir_files[0]) && !ret; k++)
		ret = target_check(ro->dir, dir_files[k], "");
	for (i = 0; i < sw->npoints && !ret; i++)
		for (k = 0; k < nsuf && !ret; k++)
			ret = target_check(ro->dir, sw->points[i].id, point_suffixes[k]);
	return ret;
}
