// SPDX-License-Identifier: GPL-2.0
/*
 * A results folder written by one vmstat-bench at a time: two sweeps
 * into one -o both passed the "holds a sweep already" check (points.txt
 * is written at the end) and mixed their points under one points.txt.
 *
 * The lock is flock() on the folder itself, not on a file in it: there
 * is no lock file to leave in a results folder, or for a file of the
 * folder's own (ab's copy of a sweep named .lock) to be renamed over.
 * It is held for the process's life and dies with it, SIGKILL included.
 * The descriptor stays open across exec and is named in
 * $VSB_DIR_LOCKS, so that processes a command starts to write in the
 * same folder (a sweep's worker processes) hold the lock with it,
 * while any other process, a second sweep or ab on the folder, is
 * refused.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vsb.h"

#define LOCKS_ENV "VSB_DIR_LOCKS"

/* Does an inherited descriptor in $VSB_DIR_LOCKS lock the folder @st is? */
static int inherited(const struct stat *st)
{
	const char *env = getenv(LOCKS_ENV), *p;
	struct stat fst;
	long fd;

	for (p = env; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
		char one[24];

		snprintf(one, sizeof(one), "%.*s", (int)strcspn(p, ","), p);
		if (vsb_parse_long(one, &fd) || fd < 0 || fd > 65535 ||
		    fstat((int)fd, &fst))
			continue;
		if (S_ISDIR(fst.st_mode) && fst.st_dev == st->st_dev &&
		    fst.st_ino == st->st_ino)
			return 1;
	}
	return 0;
}

static void name_in_env(int fd)
{
	const char *env = getenv(LOCKS_ENV);
	char buf[1024];

	snprintf(buf, sizeof(buf), "%s%s%d", env && *env ? env : "",
		 env && *env ? "," : "", fd);
	setenv(LOCKS_ENV, buf, 1);
}

int vsb_dir_lock(const char *dir, const char *opt)
{
	struct stat st;
	int fd;

	fd = open(dir, O_RDONLY | O_DIRECTORY);	/* no O_CLOEXEC: see above */
	if (fd < 0 || fstat(fd, &st)) {
		vsb_err("%s %s: cannot open the folder to lock it: %s", opt, dir,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return VSB_EXIT_USAGE;
	}
	if (inherited(&st)) {
		close(fd);
		return 0;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int e = errno;

		close(fd);
		if (e == EWOULDBLOCK) {
			vsb_err("%s %s: another vmstat-bench (a sweep or ab) is writing "
				"this folder now: refused, nothing run", opt, dir);
			return VSB_EXIT_USAGE;
		}
		vsb_err("%s %s: cannot lock the folder: %s", opt, dir, strerror(e));
		return VSB_EXIT_ERROR;
	}
	name_in_env(fd);
	return 0;	/* held until the process ends */
}
