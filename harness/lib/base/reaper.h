/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A child that takes all its descendants with it (reaper.c).  A header
 * of its own: only the places that start long chains of processes (ab's
 * scripts, bisect's builds and ab) use it.
 */
#ifndef VSB_REAPER_H
#define VSB_REAPER_H

#include <sys/types.h>

/* the reaper and its child in a process group of their own */
#define VSB_REAPED_OWN_GROUP	1

/*
 * fork(), with a reaper between the caller and its child: 0 in the
 * child (which goes on to exec the command; its SIGINT, SIGTERM and
 * SIGHUP at their defaults, not the caller's handlers), the reaper's
 * pid in the caller, -1 (errno set) if the first fork failed.  The caller waits
 * for the reaper as for the child: it exits with the child's status, or
 * 128 + the signal that ended it.  A stop signal sent to the reaper
 * goes to every descendant; once the caller is gone (SIGKILL
 * included), or the child has exited, no descendant outlives it.
 */
pid_t vsb_fork_reaped(unsigned int flags);

#endif
