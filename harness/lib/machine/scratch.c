// SPDX-License-Identifier: GPL-2.0
/*
 * The run's own mounts (scratch.h).  Every one is named after the pid
 * below VSB_SCRATCH_DIR, and its name is there before the thing itself:
 * a tmpfs's and a tracefs's mount point is their name, an instance has
 * a marker file, trace.<pid>, made before the instance is.  So a run
 * killed at any moment leaves a name the next one finds, without
 * scanning tracefs (or mounting it) on every start.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scratch.h"
#include "vsb.h"

#define TRACE_MARK	"trace."	/* + pid: a file naming the instance */
#define HOLD		"live."		/* + pid: the lock a live run holds */

static char tmpfs_path[256], trace_mnt[256], trace_inst[512], trace_mark[256];
static int own_tracefs, exit_hook;

/*
 * Liveness is a lock the run holds, not a name: /proc/PID/comm said
 * "vmstat-bench" only for a binary of that name, so a live run of a
 * copy or an -asan build had its tmpfs and cgroups removed by another
 * run as a killed one's.  Before a run makes anything named after its
 * pid, it takes flock() on VSB_SCRATCH_DIR/live.<pid> and keeps it to
 * its end (its forked workers hold it too); the lock dies with the
 * process, SIGKILL included, and the file goes at exit or with the
 * next run's sweep.
 */
static int hold_fd = -1;
static char hold_path[64];

static long hold_pid;

/* at exit of the run itself, not of a forked worker that inherited it */
static void hold_put(void)
{
	if (hold_fd >= 0 && (long)getpid() == hold_pid)
		unlink(hold_path);
}

int vsb_scratch_hold(void)
{
	if (hold_fd >= 0)
		return 0;
	if (vsb_mkdir_p(VSB_SCRATCH_DIR, 0700))
		return -errno;
	snprintf(hold_path, sizeof(hold_path), VSB_SCRATCH_DIR "/" HOLD "%ld",
		 (long)getpid());
	hold_fd = open(hold_path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (hold_fd < 0)
		return -errno;
	if (flock(hold_fd, LOCK_EX | LOCK_NB)) {
		close(hold_fd);
		hold_fd = -1;
		return -EBUSY;
	}
	hold_pid = (long)getpid();
	atexit(hold_put);
	return 0;
}

/*
 * No lock file: a run of an older vmstat-bench, which took none, is
 * still told by its name, as it was then; a killed run's file is gone
 * only once the sweep found its lock dead.
 */
static int older_run_alive(long pid)
{
	char path[64], comm[64];

	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	if (vsb_read_file_str(path, comm, sizeof(comm)))
		return 0;
	comm[strcspn(comm, "\n")] = '\0';
	return !strcmp(comm, "vmstat-bench");
}

/* The run's own process, not its workers, is gone (or a zombie). */
static int run_gone(long pid)
{
	char path[64], stat[256];
	const char *state;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (vsb_read_file_str(path, stat, sizeof(stat)))
		return 1;
	state = strrchr(stat, ')');	/* the name before it may hold anything */
	return state && state[1] == ' ' && (state[2] == 'Z' || state[2] == 'X');
}

static int lock_held(int fd)
{
	return flock(fd, LOCK_SH | LOCK_NB) && errno == EWOULDBLOCK;
}

/*
 * A SIGKILLed run's forked workers hold its lock until PR_SET_PDEATHSIG
 * has taken them too, which on a loaded machine takes seconds: `restore`
 * right after the kill found the lock held and left the run's tmpfs and
 * cgroups as a live run's.  So a lock whose run is gone is waited for,
 * two seconds at most (as cgroup.c waits for the workers' cgroups to
 * empty); one held longer is a live process's, and its names are kept.
 */
int vsb_scratch_pid_alive(long pid)
{
	char path[64];
	int fd, alive, i;

	snprintf(path, sizeof(path), VSB_SCRATCH_DIR "/" HOLD "%ld", pid);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return older_run_alive(pid);
	alive = lock_held(fd);
	for (i = 0; alive && i < 40 && run_gone(pid); i++) {
		usleep(50000);
		alive = lock_held(fd);
	}
	if (!alive)
		unlink(path);	/* a killed run's: its lock died with it */
	close(fd);
	return alive;
}

/* Unmount @path (lazily if busy) and remove the mount point. */
static int unmount_dir(const char *path)
{
	if (umount2(path, 0) && errno != EINVAL && errno != ENOENT)
		umount2(path, MNT_DETACH);
	return rmdir(path) && errno != ENOENT ? -errno : 0;
}

static void at_exit(void)
{
	vsb_scratch_trace_put();
	vsb_scratch_tmpfs_put();
}

/* VSB_SCRATCH_DIR/<prefix><pid> into @buf, the folder made */
static int own_dir(char *buf, size_t len, const char *prefix)
{
	int ret;

	if (!exit_hook) {
		atexit(at_exit);
		exit_hook = 1;
	}
	snprintf(buf, len, VSB_SCRATCH_DIR "/%s%ld", prefix, (long)getpid());
	ret = vsb_scratch_hold();
	if (ret)
		return ret;
	if (mkdir(buf, 0700) && errno != EEXIST)
		return -errno;
	return 0;
}

static int fail(const char *opt, const char *what, const char *path, int err)
{
	vsb_err_opt(opt, "--bench: cannot %s %s: %s%s", what, path, strerror(err),
		    err == EPERM || err == EACCES ? " (root does): skipped" : "");
	return err == EPERM || err == EACCES || err == ENODEV ? VSB_EXIT_SKIP :
	       VSB_EXIT_ERROR;
}

int vsb_scratch_tmpfs(char *path, size_t len, unsigned long long size, const char *opt)
{
	char data[64];
	int ret;

	vsb_scratch_sweep_stale();
	if (tmpfs_path[0]) {
		snprintf(path, len, "%s", tmpfs_path);
		return 0;
	}
	ret = own_dir(tmpfs_path, sizeof(tmpfs_path), VSB_SCRATCH_TMPFS);
	if (ret) {
		ret = fail(opt, "make", tmpfs_path, -ret);
		tmpfs_path[0] = '\0';
		return ret;
	}
	snprintf(data, sizeof(data), "size=%llu,mode=0700", size);
	if (mount("vmstat-bench", tmpfs_path, "tmpfs", MS_NOSUID | MS_NODEV, data)) {
		ret = fail(opt, "mount a tmpfs at", tmpfs_path, errno);
		rmdir(tmpfs_path);
		tmpfs_path[0] = '\0';
		return ret;
	}
	snprintf(path, len, "%s", tmpfs_path);
	return 0;
}

void vsb_scratch_tmpfs_put(void)
{
	if (!tmpfs_path[0])
		return;
	if (unmount_dir(tmpfs_path))
		vsb_warn("cannot remove the tmpfs at %s: %s", tmpfs_path, strerror(errno));
	tmpfs_path[0] = '\0';
}

/* A tracefs mount point from /proc/self/mountinfo, else "" */
static void find_tracefs(char *buf, size_t len)
{
	char line[4096], mpt[PATH_MAX], fstype[64];
	FILE *f = fopen("/proc/self/mountinfo", "re");

	buf[0] = '\0';
	while (f && !buf[0] && fgets(line, sizeof(line), f)) {
		char *dash = strstr(line, " - ");

		if (dash && sscanf(line, "%*s %*s %*s %*s %4095s", mpt) == 1 &&
		    sscanf(dash + 3, "%63s", fstype) == 1 && !strcmp(fstype, "tracefs"))
			snprintf(buf, len, "%.200s", mpt);
	}
	if (f)
		fclose(f);
}

/* trace_mnt: a tracefs there is, else one of ours */
static int tracefs_mount(const char *opt)
{
	int ret;

	find_tracefs(trace_mnt, sizeof(trace_mnt));
	if (trace_mnt[0])
		return 0;
	ret = own_dir(trace_mnt, sizeof(trace_mnt), VSB_SCRATCH_TRACEFS);
	if (!ret && mount("tracefs", trace_mnt, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
			  NULL))
		ret = -errno;
	if (ret) {
		ret = fail(opt, "mount tracefs at", trace_mnt, -ret);
		rmdir(trace_mnt);
		trace_mnt[0] = '\0';
		return ret;
	}
	own_tracefs = 1;
	return 0;
}

int vsb_scratch_trace(char *path, size_t len, const char *opt)
{
	int ret, fd;

	vsb_scratch_sweep_stale();
	if (trace_inst[0]) {
		snprintf(path, len, "%s", trace_inst);
		return 0;
	}
	ret = tracefs_mount(opt);
	if (ret)
		return ret;
	/* the marker first: a run killed from here on leaves its name */
	ret = vsb_scratch_hold();
	if (ret) {
		ret = fail(opt, "hold the run's lock in", VSB_SCRATCH_DIR, -ret);
		vsb_scratch_trace_put();
		return ret;
	}
	snprintf(trace_mark, sizeof(trace_mark), VSB_SCRATCH_DIR "/" TRACE_MARK "%ld",
		 (long)getpid());
	fd = open(trace_mark, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || dprintf(fd, "%s/instances/" VSB_TRACE_INSTANCE "%ld\n", trace_mnt,
			      (long)getpid()) < 0) {
		ret = fail(opt, "write", trace_mark, errno);
		if (fd >= 0)
			close(fd);
		vsb_scratch_trace_put();
		return ret;
	}
	close(fd);
	snprintf(trace_inst, sizeof(trace_inst), "%s/instances/" VSB_TRACE_INSTANCE "%ld",
		 trace_mnt, (long)getpid());
	if (mkdir(trace_inst, 0700) && errno != EEXIST) {
		ret = fail(opt, "make the tracefs instance", trace_inst, errno);
		vsb_scratch_trace_put();
		return ret;
	}
	snprintf(path, len, "%s", trace_inst);
	return 0;
}

void vsb_scratch_trace_put(void)
{
	if (trace_inst[0] && rmdir(trace_inst) && errno != ENOENT)
		vsb_warn("cannot remove the tracefs instance %s: %s", trace_inst,
			 strerror(errno));
	trace_inst[0] = '\0';
	if (trace_mark[0])
		unlink(trace_mark);
	trace_mark[0] = '\0';
	if (own_tracefs && unmount_dir(trace_mnt))
		vsb_warn("cannot unmount tracefs at %s: %s", trace_mnt, strerror(errno));
	own_tracefs = 0;
	trace_mnt[0] = '\0';
}

/* A killed run's instance, named in its marker: removed, through a tracefs */
static int stale_instance(const char *mark)
{
	char inst[PATH_MAX], mnt[256], *slash;
	int ret = 0, mounted = 0;

	if (vsb_read_file_str(mark, inst, sizeof(inst)))
		return unlink(mark) ? -errno : 0;
	inst[strcspn(inst, "\n")] = '\0';
	slash = strrchr(inst, '/');
	/* the tracefs it was made in may be gone (its own mount): any will do */
	if (access(inst, F_OK) && errno == ENOENT && slash) {
		find_tracefs(mnt, sizeof(mnt));
		if (!mnt[0]) {
			snprintf(mnt, sizeof(mnt), VSB_SCRATCH_DIR "/" VSB_SCRATCH_TRACEFS "%ld",
				 (long)getpid());
			mounted = !mkdir(mnt, 0700) &&
				  !mount("tracefs", mnt, "tracefs", MS_NOSUID | MS_NODEV, NULL);
		}
		snprintf(inst, sizeof(inst), "%s/instances%s", mnt, slash);
	}
	if (rmdir(inst) && errno != ENOENT)
		ret = -errno;
	if (mounted)
		unmount_dir(mnt);
	return ret ? ret : unlink(mark) ? -errno : 0;
}

/* One entry of VSB_SCRATCH_DIR: 1 removed, 0 not stale, -1 failed */
static int sweep_entry(const char *name)
{
	static const char *const kinds[] = { VSB_SCRATCH_TMPFS, VSB_SCRATCH_TRACEFS,
					      TRACE_MARK };
	char path[PATH_MAX];
	size_t i, n;
	long pid;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		n = strlen(kinds[i]);
		if (strncmp(name, kinds[i], n) || vsb_parse_long(name + n, &pid))
			continue;
		if (pid == (long)getpid() || vsb_scratch_pid_alive(pid))
			return 0;
		snprintf(path, sizeof(path), VSB_SCRATCH_DIR "/%s", name);
		if (i == 2 ? stale_instance(path) : unmount_dir(path)) {
			vsb_warn("a killed run's %s could not be removed: %s", path,
				 strerror(errno));
			return -1;
		}
		return 1;
	}
	return 0;
}

int vsb_scratch_sweep_stale(void)
{
	DIR *d = opendir(VSB_SCRATCH_DIR);
	struct dirent *e;
	int n = 0, r, bad = 0, pass;

	if (!d)
		return 0;
	/* markers first: the tracefs mount an instance was made in may be stale too */
	for (pass = 0; pass < 2; pass++) {
		rewinddir(d);
		while ((e = readdir(d))) {
			int mark = !strncmp(e->d_name, TRACE_MARK, strlen(TRACE_MARK));

			if (mark != (pass == 0))
				continue;
			r = sweep_entry(e->d_name);
			n += r > 0;
			bad |= r < 0;
		}
	}
	closedir(d);
	return bad ? -1 : n;
}
