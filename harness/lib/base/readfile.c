// SPDX-License-Identifier: GPL-2.0
/*
 * Reading files: small sysfs/procfs values, and the files a user names,
 * which must be regular files (never a FIFO, device or folder) and are
 * read whole up to a size cap, so no input can block or fill memory.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vsb.h"

/*
 * Through vsb_open_regular() too: most callers read /proc and /sys
 * (regular files there), but some read a path the user chose (a kernel
 * build folder's kernel.release, a state file), and a FIFO planted
 * there blocked the open for good.  One read of at most @len - 1 bytes.
 */
int vsb_read_file_str(const char *path, char *buf, size_t len)
{
	struct stat st;
	ssize_t n;
	int fd = vsb_open_regular(path, 0, &st);

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

/*
 * The one way a file the user names is opened for reading (sweep files,
 * partials, CSVs for compare and plot, the sysctl state file): without
 * blocking (a FIFO opens at once instead of waiting for a writer), then
 * fstat() of the descriptor itself, so what is checked is what is read,
 * and anything but a regular file refused.  A symlink is followed (a
 * link to a results file is fine), but a link to /dev/zero is refused
 * because its target is a device.  @flags adds O_NOFOLLOW where a link
 * is suspect.  Returns the descriptor, or -(errno), or -(VSB_ENOTREG +
 * the file type) for vsb_read_strerror().
 */
int vsb_open_regular(const char *path, int flags, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | flags);

	if (fd < 0)
		return -errno;
	if (fstat(fd, st)) {
		int e = errno;

		close(fd);
		return -e;
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		return S_ISDIR(st->st_mode) ? -EISDIR :
		       -(VSB_ENOTREG + (int)((st->st_mode & S_IFMT) >> 12));
	}
	/* reads of a regular file never block; the flag is not wanted */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

/*
 * A file the user names, as a stream, for line-by-line readers: through
 * vsb_open_regular() and refused past @max bytes (clamped to
 * VSB_READ_MAX) from its size.  NULL with *@err set for
 * vsb_read_strerror().
 */
FILE *vsb_fopen_regular(const char *path, size_t max, int *err)
{
	struct stat st;
	int fd = vsb_open_regular(path, 0, &st);
	FILE *f;

	if (max > VSB_READ_MAX)
		max = VSB_READ_MAX;
	if (fd >= 0 && (unsigned long long)st.st_size > max) {
		close(fd);
		fd = -EFBIG;
	}
	if (fd < 0) {
		*err = -fd;
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		*err = errno;
		close(fd);
	}
	return f;
}

/* strerror() that also names vsb_open_regular()'s refusals */
const char *vsb_read_strerror(int e)
{
	mode_t t;

	if (e == EFBIG)
		return "too large to be a vmstat-bench input";
	if (e == ELOOP)
		return "a symbolic link (refused here)";
	if (e < VSB_ENOTREG)
		return strerror(e);
	t = (mode_t)(e - VSB_ENOTREG) << 12;
	return S_ISFIFO(t) ? "not a regular file (a FIFO)" :
	       S_ISCHR(t) ? "not a regular file (a character device)" :
	       S_ISBLK(t) ? "not a regular file (a block device)" :
	       S_ISSOCK(t) ? "not a regular file (a socket)" :
	       "not a regular file";
}

/*
 * The whole of @path, NUL-terminated, into a malloc'd *@bufp, through
 * vsb_open_regular().  0, or an error for vsb_read_strerror(): the
 * open's or the read's, EISDIR, VSB_ENOTREG+type, EFBIG past @max bytes
 * (clamped to VSB_READ_MAX; nothing is kept then).  A file that grows
 * while it is read is cut at the cap, never read without end.
 */
int vsb_read_whole(const char *path, size_t max, char **bufp, size_t *lenp)
{
	struct stat st;
	int fd, e;

	fd = vsb_open_regular(path, 0, &st);
	if (fd < 0)
		return -fd;
	e = vsb_read_fd(fd, &st, max, bufp, lenp);
	close(fd);
	if (e == ENOMEM) {
		vsb_err("out of memory reading %s", path);
		exit(VSB_EXIT_ERROR);
	}
	return e;
}

/* The rest of vsb_read_whole(), for a descriptor vsb_open_regular() gave. */
int vsb_read_fd(int fd, const struct stat *st, size_t max, char **bufp,
		size_t *lenp)
{
	size_t cap = 1 << 16, len = 0;
	ssize_t n;
	char *buf, *nb;
	int e = 0;

	if (max > VSB_READ_MAX)
		max = VSB_READ_MAX;
	if ((unsigned long long)st->st_size > max)
		return EFBIG;
	buf = malloc(cap + 1);
	if (!buf)
		return ENOMEM;
	while (!e && (n = read(fd, buf + len, cap - len)) != 0) {
		if (n < 0) {
			if (errno != EINTR)
				e = errno;
			continue;
		}
		len += (size_t)n;
		if (len > max) {
			e = EFBIG;
		} else if (len == cap) {
			cap *= 2;
			nb = realloc(buf, cap + 1);
			if (!nb)
				e = ENOMEM;
			else
				buf = nb;
		}
	}
	if (e) {
		free(buf);
		return e;
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
}

int vsb_read_file_long(const char *path, long *out)
{
	char buf[64];

	if (vsb_read_file_str(path, buf, sizeof(buf)))
		return -1;
	return vsb_parse_long(buf, out);
}
