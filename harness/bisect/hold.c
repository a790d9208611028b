// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel's build folder held while a step boots it.  kernel-build.sh
 * removes a lineage's older builds (--reuse, VSB_KBUILD_KEEP) each under
 * its lock, kbuild/<key>/.vsb-lock taken exclusive without waiting, and
 * skips one somebody holds; a build of a key holds the same lock.  So a
 * step holds its kernels' locks shared for as long as it boots them
 * (good's for the whole bisect, or bisect-step), and no build of the
 * tree (another bisect's, a build ahead of this one's) can remove or
 * replace the folder under a running boot.  A complete build is read
 * without the lock, so holding it makes nobody wait.  Only a .vsb-lock
 * kernel-build.sh made is opened, never created here: a kernel it did
 * not build (debian:ABI, a bzImage of one's own) has nothing to hold.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bisect.h"
#include "vsb.h"

/* @spec's build folder + @name: 0, or -1 for a spec that names none */
static int in_build(const char *spec, const char *name, char *path, size_t len)
{
	const char *colon = strchr(spec, ':');

	if (!colon || !colon[1])
		return -1;
	snprintf(path, len, "%s/%s", colon + 1, name);
	return 0;
}

/*
 * @wait: a lock taken exclusive (a build of this key under way, or a
 * prune removing it) is waited for; the caller then asks whether the
 * build is still there (vsb_bisect_spec_complete).  Without @wait it is
 * not held at all.
 */
int vsb_bisect_hold(const char *spec, int wait)
{
	char path[4096 + 32];
	int fd;

	if (in_build(spec, ".vsb-lock", path, sizeof(path)))
		return -1;
	fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (!flock(fd, LOCK_SH | LOCK_NB))
		return fd;
	if (wait) {
		vsb_note("bisect: waiting for %s (a build or a removal of it holds it)",
			 path);
		while (flock(fd, LOCK_SH))
			if (errno != EINTR || vsb_interrupted) {
				close(fd);
				return -1;
			}
		return fd;
	}
	close(fd);
	return -1;
}

/*
 * A build kernel-build.sh made (a .vsb-lock in it) is complete once its
 * .vsb-complete is there; a folder removed since is not.  A kernel of
 * another kind is taken as it is (ab judges it).
 */
int vsb_bisect_spec_complete(const char *spec)
{
	char path[4096 + 32];
	struct stat st;

	if (in_build(spec, "", path, sizeof(path)))
		return 1;
	if (lstat(path, &st))
		return 0;
	if (in_build(spec, ".vsb-lock", path, sizeof(path)) || lstat(path, &st))
		return 1;
	in_build(spec, ".vsb-complete", path, sizeof(path));
	return !lstat(path, &st);
}

void vsb_bisect_release(int fd)
{
	if (fd >= 0)
		close(fd);
}
