// SPDX-License-Identifier: GPL-2.0
/*
 * The sysctl state file and the lock that makes a run the one owner of
 * the sysctls it changes (sysctl.c says why a record lock), and the
 * recovery that puts back what a killed run left changed.  The file's
 * text, its writer's lines and their parser, is lib/model's
 * (sysctl_state_file.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysctl.h"
#include "sysctl_int.h"
#include "sysctl_state_file.h"

static int lock_fd = -1;	/* held from the first change to the last restore */
static struct stat state_st;	/* the state file this process wrote */

/* Field 22 of /proc/PID/stat: distinguishes a reused pid. */
static unsigned long long proc_start_time(long pid)
{
	char path[64], buf[1024], *p;
	unsigned long long t = 0;
	int i;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (vsb_read_file_str(path, buf, sizeof(buf)))
		return 0;
	p = strrchr(buf, ')');	/* the command name may hold spaces */
	for (i = 2; p && i < 22; i++)
		p = strchr(p + 1, ' ');
	if (p)
		t = strtoull(p + 1, NULL, 10);
	return t;
}

static int mkdir_parent(const char *path)
{
	char dir[4096], *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -1;
	return 0;
}

/*
 * Take STATE.lock: 0 when this process holds it (now or already), the
 * holder's pid when another process does, -1 with errno on failure.
 * Never opened twice while held: closing any descriptor of the file
 * would drop a record lock.
 */
long vsb_sysctl_lock_take(void)
{
	struct flock fl;
	char path[4096 + 8];
	struct stat st;
	int fd, tries;

	if (lock_fd >= 0)
		return 0;
	snprintf(path, sizeof(path), "%s.lock", vsb_sysctl_state_path());
	if (mkdir_parent(path))
		return -1;
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	for (tries = 0; tries < 10; tries++) {
		memset(&fl, 0, sizeof(fl));
		fl.l_type = F_WRLCK;
		fl.l_whence = SEEK_SET;
		if (!fcntl(fd, F_SETLK, &fl)) {
			lock_fd = fd;
			return 0;
		}
		if (errno != EACCES && errno != EAGAIN)
			break;
		memset(&fl, 0, sizeof(fl));
		fl.l_type = F_WRLCK;
		fl.l_whence = SEEK_SET;
		if (!fcntl(fd, F_GETLK, &fl) && fl.l_type != F_UNLCK) {
			close(fd);
			return fl.l_pid > 0 ? (long)fl.l_pid : 1;
		}
		/* released between the two calls: try again */
	}
	tries = errno;
	close(fd);
	errno = tries;
	return -1;
}

void vsb_sysctl_lock_release(void)
{
	if (lock_fd >= 0)
		close(lock_fd);
	lock_fd = -1;
}

/* Write every saved original, atomically: a reader sees all or the old. */
int vsb_sysctl_state_write(const struct vsb_sysctl_saved *ents, int nents)
{
	const char *path = vsb_sysctl_state_path();
	struct vsb_outfile of;
	int i, ret;

	if (mkdir_parent(path)) {
		vsb_err("--sysctl: cannot create the directory of %s: %s (nothing "
			"changed)", path, strerror(errno));
		return VSB_EXIT_ERROR;
	}
	ret = vsb_outfile_open(&of, path, "--sysctl: state file");
	if (ret)
		return ret;
	vsb_sysctl_state_head(of.f, (long)getpid(), proc_start_time(getpid()));
	for (i = 0; i < nents; i++)
		vsb_sysctl_state_line(of.f, ents[i].name, ents[i].orig);
	ret = vsb_outfile_commit(&of);
	if (ret)
		return ret;
	if (lstat(path, &state_st))
		memset(&state_st, 0, sizeof(state_st));
	return 0;
}

/* Remove the state file if it is the one @st describes, and nothing else. */
static void state_remove(const struct stat *st)
{
	const char *path = vsb_sysctl_state_path();
	struct stat now;

	if (lstat(path, &now))
		return;
	if (!S_ISREG(now.st_mode) || now.st_dev != st->st_dev || now.st_ino != st->st_ino) {
		vsb_warn("%s was replaced during the run: left as it is", path);
		return;
	}
	unlink(path);
}

/*
 * A state file is acted on only when this user wrote it: owned by the
 * user running the tool and writable by no one else.  Root's runs write
 * what it names, so a file another user could plant or edit (a
 * $VSB_SYSCTL_STATE in a shared folder) would make root set any sysctl
 * it liked.  A run that is not root only reports a state file, and root
 * may have written that one.  0, or VSB_EXIT_USAGE after one line.
 */
static int state_trusted(const char *path, const struct stat *st, int report_only)
{
	uid_t me = geteuid();

	if (st->st_uid != me && !(report_only && st->st_uid == 0)) {
		vsb_err("state file %s: owned by uid %u, not by this user (uid %u): "
			"refused, nothing restored, left as it is", path,
			(unsigned int)st->st_uid, (unsigned int)me);
		return VSB_EXIT_USAGE;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		vsb_err("state file %s: writable by others (mode %04o): refused, "
			"nothing restored, left as it is", path,
			(unsigned int)(st->st_mode & 07777));
		return VSB_EXIT_USAGE;
	}
	return 0;
}

/*
 * Put back what the state file lists and remove it (only that very
 * file).  Called with the lock held (or with --force while a hung run
 * holds it), or with @report_only when we are not root.  0, or VSB_EXIT_*.
 */
int vsb_sysctl_recover_locked(long holder, int report_only)
{
	const char *path = vsb_sysctl_state_path();
	struct vsb_sysctl_state_ent se[VSB_SYSCTL_MAX];
	unsigned long long start = 0;
	int fd, e, n, i, nul, bad = 0;
	struct stat st;
	long pid = 0;
	size_t len;
	char *buf;

	fd = vsb_open_regular(path, O_NOFOLLOW, &st);
	if (fd == -ENOENT)
		return 0;
	if (fd < 0) {
		vsb_err("state file %s: %s: refused, left as it is", path,
			vsb_read_strerror(-fd));
		return VSB_EXIT_USAGE;
	}
	if (state_trusted(path, &st, report_only)) {
		close(fd);
		return VSB_EXIT_USAGE;
	}
	e = vsb_read_fd(fd, &st, VSB_SYSCTL_STATE_MAX, &buf, &len);
	close(fd);
	if (e) {
		vsb_err("state file %s: %s: refused, left as it is", path,
			vsb_read_strerror(e));
		return VSB_EXIT_USAGE;
	}
	/* before parsing, which cuts the lines in place */
	nul = strlen(buf) != len;
	n = nul ? -1 : vsb_sysctl_state_parse(path, buf, se, VSB_SYSCTL_MAX, &pid, &start);
	if (n < 0) {
		if (nul)
			vsb_err("state file %s: contains NUL bytes: refused, left as it is",
				path);
		free(buf);
		return VSB_EXIT_USAGE;
	}
	if (report_only && n) {
		vsb_err("a killed run left %s changed (original '%s' in %s): run "
			"`sudo vmstat-bench restore`", se[0].name, se[0].val, path);
		free(buf);
		return VSB_EXIT_SKIP;
	}
	for (i = 0; i < n; i++) {
		if (vsb_sysctl_restore_one(se[i].name, se[i].val, "restore")) {
			bad = 1;
			continue;
		}
		vsb_warn("restored %s=%s, left changed by an earlier run (pid %ld) "
			 "that did not finish%s", se[i].name, se[i].val, pid,
			 holder > 0 ? " (--force: it still holds the lock)" : "");
	}
	free(buf);
	if (bad)
		return VSB_EXIT_ERROR;
	state_remove(&st);
	return 0;
}

/* Not root: no lock to take; say what a dead run left, or nothing. */
static int recover_unprivileged(int quiet_if_alive)
{
	const char *path = vsb_sysctl_state_path();
	unsigned long long start = 0;
	char buf[256], *p;
	long pid = 0;

	if (vsb_read_file_str(path, buf, sizeof(buf)))
		return 0;
	p = strstr(buf, "\npid ");
	if (p && sscanf(p + 5, "%ld %llu", &pid, &start) >= 1 && pid > 0 &&
	    kill((pid_t)pid, 0) == 0 && proc_start_time(pid) == start) {
		if (quiet_if_alive)
			return 0;
		vsb_err("sysctls are in use by pid %ld (state file %s): wait for it "
			"to end", pid, path);
		return VSB_EXIT_ERROR;
	}
	return vsb_sysctl_recover_locked(0, 1);
}

int vsb_sysctl_recover(int force, int quiet_if_alive)
{
	const char *path = vsb_sysctl_state_path();
	struct stat st;
	long holder;
	int ret;

	if (lock_fd >= 0)
		return 0;	/* this process owns the state file */
	if (lstat(path, &st))
		return 0;	/* nothing left behind */
	if (!S_ISREG(st.st_mode))
		return vsb_sysctl_recover_locked(0, 0);	/* refused there, untouched */
	if (geteuid() != 0)
		return recover_unprivileged(quiet_if_alive);
	holder = vsb_sysctl_lock_take();
	if (holder < 0) {
		vsb_err("cannot lock %s.lock: %s", path, strerror(errno));
		return VSB_EXIT_ERROR;
	}
	if (holder > 0 && !force) {
		if (quiet_if_alive)
			return 0;
		vsb_err("sysctls are in use by pid %ld, a running vmstat-bench (state "
			"file %s): wait for it to end (or `vmstat-bench restore --force` "
			"if it hangs)", holder, path);
		return VSB_EXIT_ERROR;
	}
	ret = vsb_sysctl_recover_locked(holder, 0);
	vsb_sysctl_lock_release();
	return ret;
}

/* The file this process wrote, at the end of its run */
void vsb_sysctl_state_remove(void)
{
	state_remove(&state_st);
}
