// SPDX-License-Identifier: GPL-2.0
/*
 * Where results go: a file that appears complete or not at all (written
 * beside its target, renamed over it on commit), folders made with
 * mkdir -p, and the refusals checked before any work is done.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vsb.h"

/*
 * The directory part of @path ("." when there is none), for messages.
 * @path must not end in '/' (vsb_outfile_open refuses that first).
 */
static void path_dir(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(buf, len, ".");
	else if (slash == path)
		snprintf(buf, len, "/");
	else
		snprintf(buf, len, "%.*s", (int)(slash - path), path);
}

/* What is at @path if it is not a plain file or absent; NULL when fine. */
static const char *outfile_refusal(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return NULL;
	if (S_ISREG(st.st_mode))
		return NULL;
	return S_ISDIR(st.st_mode) ? "a directory (give a file name)" :
	       S_ISLNK(st.st_mode) ? "a symbolic link (the result would replace "
				     "the link, not its target: give the real path)" :
	       S_ISFIFO(st.st_mode) ? "a FIFO, not a regular file" :
	       S_ISCHR(st.st_mode) ? "a character device, not a regular file" :
	       S_ISBLK(st.st_mode) ? "a block device, not a regular file" :
	       S_ISSOCK(st.st_mode) ? "a socket, not a regular file" :
	       "not a regular file";
}

/*
 * "@base.tmp<pid>-XXXXXX" of a vmstat-bench that is gone: the temporary
 * of a SIGKILLed run, which no exit path could remove.  Only names of
 * exactly that shape for this exact target, only regular files, and
 * only when the pid in the name no longer exists (a live run's
 * temporary is its own).
 */
static void outfile_clean_stale(const char *dir, const char *base)
{
	size_t bl = strlen(base);
	struct dirent *de;
	struct stat st;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		const char *p = de->d_name;
		char *end;
		long pid;
		int i;

		if (strncmp(p, base, bl) || strncmp(p + bl, ".tmp", 4))
			continue;
		p += bl + 4;
		if (*p < '1' || *p > '9')
			continue;
		pid = strtol(p, &end, 10);
		if (*end != '-' || strlen(end + 1) != 6)
			continue;
		for (i = 1; i <= 6 && isalnum((unsigned char)end[i]); i++)
			;
		if (i <= 6 || pid == (long)getpid() || pid > INT_MAX ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode))
			continue;
		if (!unlinkat(dirfd(d), de->d_name, 0))
			vsb_warn("removed %s/%s, left by a killed run (pid %ld)", dir,
				 de->d_name, pid);
	}
	closedir(d);
}

/*
 * vsb_outfile_open()'s refusal alone, nothing created: for a command
 * that writes several files and must refuse before it writes the first.
 */
int vsb_outfile_check(const char *path, const char *opt)
{
	const char *why = outfile_refusal(path);

	if (!why)
		return 0;
	vsb_err("%s: %s is %s: refused, nothing written", opt, path, why);
	return VSB_EXIT_USAGE;
}

int vsb_outfile_open(struct vsb_outfile *o, const char *path, const char *opt)
{
	size_t n = strlen(path);
	const char *slash;
	char dir[4096];
	int fd;

	memset(o, 0, sizeof(*o));
	if (!n) {
		vsb_err("%s: empty file name", opt);
		return VSB_EXIT_USAGE;
	}
	if (n >= sizeof(o->path)) {
		vsb_err("%s: path too long", opt);
		return VSB_EXIT_USAGE;
	}
	/*
	 * The temporary file goes next to @path and is renamed over it at
	 * the end: that rename would replace a device node, a FIFO or a
	 * link with a regular file, and fail on a directory only after the
	 * whole run.  Refuse anything but a regular file now.
	 */
	if (path[n - 1] == '/') {
		vsb_err("%s: %s is a directory (give a file name)", opt, path);
		return VSB_EXIT_USAGE;
	}
	if (vsb_outfile_check(path, opt))
		return VSB_EXIT_USAGE;
	strcpy(o->path, path);
	path_dir(path, dir, sizeof(dir));
	slash = strrchr(path, '/');
	outfile_clean_stale(dir, slash ? slash + 1 : path);
	snprintf(o->tmp, sizeof(o->tmp), "%s.tmp%ld-XXXXXX", path, (long)getpid());
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		int e = errno;

		if (e == ENOENT)
			vsb_err("%s: cannot write %s: directory %s does not exist",
				opt, path, dir);
		else
			vsb_err("%s: cannot write %s: %s", opt, path, strerror(e));
		o->tmp[0] = '\0';
		return VSB_EXIT_USAGE;
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		close(fd);
		unlink(o->tmp);
		vsb_err("%s: %s: %s", opt, path, strerror(errno));
		return VSB_EXIT_ERROR;
	}
	return 0;
}

int vsb_outfile_commit(struct vsb_outfile *o)
{
	int bad;
	sigset_t all, old;

	bad = fflush(o->f) || ferror(o->f) || fsync(fileno(o->f));
	bad |= fclose(o->f);
	o->f = NULL;
	if (bad) {
		vsb_err("%s: write failed: %s", o->path, strerror(errno));
		unlink(o->tmp);
		return VSB_EXIT_ERROR;
	}
	/* mkstemp makes 0600; results are meant to be shared */
	chmod(o->tmp, 0644);
	/* the rename is the commit point: no signal between it and cleanup */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	/* something put there during the run is not ours to replace */
	if (outfile_refusal(o->path)) {
		vsb_err("%s is %s now: refused, result not written", o->path,
			outfile_refusal(o->path));
		unlink(o->tmp);
		o->tmp[0] = '\0';
		sigprocmask(SIG_SETMASK, &old, NULL);
		return VSB_EXIT_ERROR;
	}
	if (rename(o->tmp, o->path)) {
		vsb_err("%s: %s", o->path, strerror(errno));
		unlink(o->tmp);
		sigprocmask(SIG_SETMASK, &old, NULL);
		return VSB_EXIT_ERROR;
	}
	o->tmp[0] = '\0';
	sigprocmask(SIG_SETMASK, &old, NULL);
	return 0;
}

void vsb_outfile_abort(struct vsb_outfile *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp[0])
		unlink(o->tmp);
	o->tmp[0] = '\0';
}

int vsb_mkdir_p(const char *dir, mode_t mode)
{
	char p[4096];
	size_t i;

	if (strlen(dir) >= sizeof(p)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(p, dir);
	for (i = 1; p[i]; i++)
		if (p[i] == '/') {
			p[i] = '\0';
			if (mkdir(p, mode) && errno != EEXIST)
				return -1;
			p[i] = '/';
		}
	return mkdir(p, mode) && errno != EEXIST ? -1 : 0;
}

/*
 * What stands in the way of @dir being a directory: an existing path in
 * it (or @dir itself) that is not one.  Checked before anything is
 * created, so that `sweep -o results.csv` (a file) is refused before
 * any point runs and before a single folder is made.  Links to directories
 * are fine.
 */
/*
 * The deepest folder of @buf's path that exists (all of it, or "."),
 * which mkdir -p and the writes after it need to write in: an -o that
 * cannot be written is found before the work, not after the table.
 */
static int dir_writable(char *buf, size_t have, const char *opt)
{
	const char *at = have ? buf : *buf == '/' ? "/" : ".";

	buf[have] = '\0';
	if (!access(at, W_OK | X_OK))
		return 0;
	vsb_err("%s: %s cannot be written (%s): refused, nothing run", opt, at,
		strerror(errno));
	return VSB_EXIT_USAGE;
}

int vsb_dir_refusal(const char *dir, const char *opt)
{
	char buf[4096];
	struct stat st;
	size_t have = 0;
	char *p;

	if (strlen(dir) >= sizeof(buf)) {
		vsb_err("%s: path too long", opt);
		return VSB_EXIT_USAGE;
	}
	strcpy(buf, dir);
	for (p = buf + 1;; p++) {
		if (*p && *p != '/')
			continue;
		if (*p == '/' && p[-1] == '/')
			continue;
		*p = '\0';
		/* a link to nothing stands in the way too: mkdir() fails on it */
		if (stat(buf, &st) ? !lstat(buf, &st) : !S_ISDIR(st.st_mode)) {
			vsb_err("%s: %s is not a directory (results go into a "
				"folder): refused, nothing run", opt, buf);
			return VSB_EXIT_USAGE;
		}
		if (!stat(buf, &st))
			have = (size_t)(p - buf);
		if (p == buf + strlen(dir))
			return dir_writable(buf, have, opt);
		*p = '/';
	}
}
