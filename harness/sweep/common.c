// SPDX-License-Identifier: GPL-2.0
/*
 * What the runner's files share (sweep.c runs, partial.c keeps
 * unfinished points, write.c writes): the result folder's paths and the
 * one progress line on stderr, which every message first clears.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sweep_int.h"

static int progress_shown;

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
 * A progress line on a terminal ends without a newline and is redrawn
 * with "\r"; a message printed under it would continue its line ("ETA
 * 0m00svmstat-bench: warning: ...").  Every message of the runner
 * clears it first; the next point draws it again.
 */
void vsb_sweep_progress_clear(void)
{
	if (!progress_shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	progress_shown = 0;
}

void vsb_sweep_progress(size_t done, size_t total, long round, long rounds,
		     const char *id, uint64_t start)
{
	double el = (double)(vsb_now_ns() - start) / 1e9;
	double eta = done ? el / (double)done * (double)(total - done) : 0;

	fprintf(stderr, "\r\033[K[%zu/%zu] round %ld/%ld %.40s  elapsed %.0fs  ETA %dm%02ds",
		done, total, round + 1, rounds, id, el, (int)eta / 60, (int)eta % 60);
	fflush(stderr);
	progress_shown = 1;
}
