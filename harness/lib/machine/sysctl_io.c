// SPDX-License-Identifier: GPL-2.0
/*
 * Reading and writing one sysctl through /proc/sys, whole and exactly:
 * what the run-time side (sysctl.c) and the state file and its lock
 * (sysctl_state.c) both do, apart so that neither calls back into the
 * other.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysctl.h"
#include "sysctl_int.h"

const char *vsb_sysctl_state_path(void)
{
	const char *p = getenv("VSB_SYSCTL_STATE");

	return p && *p ? p : VSB_SYSCTL_STATE_DEFAULT;
}

int vsb_sysctl_is_int(const char *s, long *v)
{
	return !vsb_parse_long(s, v);
}

/*
 * The whole value of a sysctl, whatever its length, into a malloc'd
 * *@out; the kernel's one trailing newline dropped.  0 or an errno.
 */
int vsb_sysctl_read_value(const char *path, char **out)
{
	size_t len;
	char *buf;
	int e = vsb_read_whole(path, VSB_SYSCTL_READ_MAX, &buf, &len);

	if (e)
		return e;
	if (strlen(buf) != len) {
		free(buf);
		return EINVAL;
	}
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	*out = buf;
	return 0;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(vsb_zalloc(n), s, n);
}

int vsb_sysctl_value_fits(const char *cur, const char *val)
{
	char *a = xstrdup(cur), *b = xstrdup(val);
	char *sa, *sb, *ta, *tb;
	int fits;
	long v;

	ta = strtok_r(a, " \t", &sa);
	tb = strtok_r(b, " \t", &sb);
	while (ta && tb) {
		if (vsb_sysctl_is_int(ta, &v) && !vsb_sysctl_is_int(tb, &v))
			break;
		ta = strtok_r(NULL, " \t", &sa);
		tb = strtok_r(NULL, " \t", &sb);
	}
	fits = !ta && !tb;
	free(a);
	free(b);
	return fits;
}

/*
 * Write @val to sysctl @name in one write() and read it back: with
 * @exact (a restore) the read-back must be byte-identical to @val; a
 * new value may be reformatted by its handler, but an integer must come
 * back as the same integer (a clamp is ERANGE).  0, an errno, or
 * WRITE_DIFFERS with the read-back in *@back (malloc'd) when @back.
 */
int vsb_sysctl_write(const char *name, const char *val, int exact, char **back)
{
	size_t len = strlen(val);
	char path[256], *got = NULL;
	int fd, err = 0;
	ssize_t n;
	long a, b;

	if (vsb_sysctl_path(name, path, sizeof(path)))
		return EINVAL;
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return errno;
	/* an empty string value is written as its newline */
	n = len ? write(fd, val, len) : write(fd, "\n", 1);
	if (n < 0 || (size_t)n != (len ? len : 1))
		err = n < 0 ? errno : EIO;
	if (close(fd) && !err)
		err = errno;
	if (err)
		return err;
	err = vsb_sysctl_read_value(path, &got);
	if (err)
		return err;
	if (exact ? strcmp(got, val) != 0 :
	    vsb_sysctl_value_fits(got, val) && vsb_sysctl_is_int(got, &a) && vsb_sysctl_is_int(val, &b) && a != b)
		err = exact ? WRITE_DIFFERS : ERANGE;
	if (err == WRITE_DIFFERS && back)
		*back = got;
	else
		free(got);
	return err;
}

int vsb_sysctl_restore_one(const char *name, const char *val, const char *where)
{
	char *back = NULL;
	int err = vsb_sysctl_write(name, val, 1, &back);

	if (err == WRITE_DIFFERS)
		vsb_err("%s: restored %s but it reads back as '%s', not the original "
			"'%s'; %s keeps the original", where, name, back, val,
			vsb_sysctl_state_path());
	else if (err)
		vsb_err("%s: cannot restore %s='%s': %s; %s keeps it "
			"(`vmstat-bench restore`)", where, name, val, strerror(err),
			vsb_sysctl_state_path());
	free(back);
	return !!err;
}
