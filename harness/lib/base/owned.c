// SPDX-License-Identifier: GPL-2.0
/*
 * State the tool resumes from (a bisect's OUT and bisect.state, an ab
 * folder, its boot folders and their ab-boot.txt) is trusted only when
 * it is ours: not a symbolic link (a link planted at a name the tool
 * writes would make root write where the link points), of the type
 * expected, owned by the user running the tool, and writable by no one
 * else.  The state names build folders where root runs make, so a file
 * another user planted in a shared folder must not be read as ours.
 * The same rule as the sysctl state file's (docs/reliability.md).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pwd.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vsb.h"

static const char *type_name(mode_t m)
{
	return S_ISDIR(m) ? "a folder" : S_ISREG(m) ? "a regular file" :
	       S_ISLNK(m) ? "a symbolic link" : S_ISFIFO(m) ? "a FIFO" :
	       S_ISSOCK(m) ? "a socket" : "a device or other special file";
}

int vsb_owned_stat(const char *path, mode_t type, const char *opt, int follow)
{
	struct stat st;
	struct passwd *pw;

	if ((follow ? stat(path, &st) : lstat(path, &st)) && errno == ENOENT &&
	    (follow || lstat(path, &st)))
		return 1;
	if (!follow && S_ISLNK(st.st_mode)) {
		vsb_err("%s: %s is a symbolic link: not followed (the tool never "
			"made one there): refused, nothing run", opt, path);
		return VSB_EXIT_USAGE;
	}
	if ((st.st_mode & S_IFMT) != type) {
		vsb_err("%s: %s is %s, not %s: refused, nothing run", opt, path,
			type_name(st.st_mode), type == S_IFDIR ? "a folder" :
			"a regular file");
		return VSB_EXIT_USAGE;
	}
	if (st.st_uid != geteuid()) {
		pw = getpwuid(st.st_uid);
		vsb_err("%s: %s is owned by %s (uid %u), not by the user running "
			"this: not trusted, refused, nothing run", opt, path,
			pw ? pw->pw_name : "?", (unsigned)st.st_uid);
		return VSB_EXIT_USAGE;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		vsb_err("%s: %s is writable by %s (mode %04o): not trusted, refused, "
			"nothing run", opt, path, st.st_mode & S_IWOTH ? "everyone" :
			"its group", (unsigned)(st.st_mode & 07777));
		return VSB_EXIT_USAGE;
	}
	return 0;
}

int vsb_owned(const char *path, mode_t type, const char *opt)
{
	return vsb_owned_stat(path, type, opt, 0);
}

/*
 * The folder a user names with -o may be reached through a link of the
 * user's own (results -> /data/results); a link another user owns is
 * refused, and what it leads to must be ours as any folder.
 */
int vsb_owned_top(const char *path, const char *opt)
{
	struct stat st;

	if (lstat(path, &st))
		return 1;
	if (S_ISLNK(st.st_mode) && st.st_uid != geteuid())
		return vsb_owned(path, S_IFDIR, opt);
	return vsb_owned_stat(path, S_IFDIR, opt, 1);
}
