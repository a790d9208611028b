/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mounts a run makes for itself, beside its memory cgroups (cgroup.h):
 * a tmpfs of its own for the files the fallocate and memcg-stat-read
 * benches charge pages with, and a tracefs instance for the isolated
 * bench's workqueue events (a tracefs mount of its own too where none
 * is mounted).  Each is named after the run's pid below
 * VSB_SCRATCH_DIR, removed when the bench is done and at exit, and
 * after a SIGKILL by the next run's vsb_scratch_sweep_stale() or by
 * `vmstat-bench restore`, once no live vmstat-bench has that pid.
 */
#ifndef VSB_SCRATCH_H
#define VSB_SCRATCH_H

#include <stddef.h>

#define VSB_SCRATCH_DIR		"/run/vmstat-bench"
#define VSB_SCRATCH_TMPFS	"tmpfs."	/* + pid */
#define VSB_SCRATCH_TRACEFS	"tracefs."	/* + pid: our own tracefs mount */
#define VSB_TRACE_INSTANCE	"vmstat-bench."	/* + pid, in tracefs's instances/ */

/*
 * A tmpfs mounted at VSB_SCRATCH_DIR/tmpfs.<pid> (@size bytes at most),
 * its path into @path.  0, or VSB_EXIT_SKIP (not root, no tmpfs) or
 * VSB_EXIT_ERROR after one line naming @opt.
 */
int vsb_scratch_tmpfs(char *path, size_t len, unsigned long long size, const char *opt);
/* Unmount it (the files in it go with it); nothing when none is mounted. */
void vsb_scratch_tmpfs_put(void);

/* A tracefs instance of our own, its folder into @path; as above. */
int vsb_scratch_trace(char *path, size_t len, const char *opt);
void vsb_scratch_trace_put(void);

/* Remove what killed runs left; how many mounts and instances, -1 on error. */
int vsb_scratch_sweep_stale(void);

/*
 * The lock a run holds from before it makes anything named after its
 * pid (tmpfs, tracefs instance, memory cgroups) to its end: 0 or -errno.
 */
int vsb_scratch_hold(void);
/* 1 when the run of @pid holds its lock (its leftovers are not stale) */
int vsb_scratch_pid_alive(long pid);

#endif /* VSB_SCRATCH_H */
