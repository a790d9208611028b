/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sysctls as run parameters (`--sysctl vm.numa_stat=0`): checked before
 * anything runs, applied just before a bench runs, and put back on every
 * way out.  The original values are written to a state file before the
 * first change, so that even a SIGKILLed run is undone by the next start
 * or by `vmstat-bench restore`.  A run that changes sysctls owns them
 * exclusively (a lock held until they are back); values are kept and
 * restored byte for byte, whatever their length.
 */
#ifndef VSB_SYSCTL_H
#define VSB_SYSCTL_H

#include <stddef.h>

#include "sysctl_spec.h"
#include "vsb.h"

struct vsb_result;

#define VSB_SYSCTL_READ_MAX	(1u << 20)	/* one value as read, whole */
#define VSB_SYSCTL_STATE_MAX	(16u << 20)	/* the state file */
#define VSB_SYSCTL_MAX		16	/* distinct sysctls one process may touch */
#define VSB_SYSCTL_STATE_DEFAULT "/run/vmstat-bench/sysctl.state"

/*
 * Everything that can be known before the run: the sysctl exists (2),
 * we are root (4), it is writable (2) and the value is one it accepts (2).
 */
int vsb_sysctl_check(const char *spec, const char *where);

/*
 * Make @spec ("" for none) the sysctl state of the next bench: sysctls
 * an earlier point changed and this one does not set go back to their
 * original values; @spec's sysctl is saved (state file first) and set.
 * Records what was set in @r's metadata.  VSB_EXIT_*.
 */
int vsb_sysctl_enter(const char *spec, struct vsb_result *r);

/* Put every changed sysctl back and remove the state file (atexit too). */
int vsb_sysctl_restore_all(void);

/*
 * A state file left by a run that is gone: put its values back and
 * remove it.  @force also takes a file whose owner is alive and holds
 * the lock (the restore command, for a hung run); otherwise a live owner
 * is an error ("in use by pid N", 1), or nothing at all with
 * @quiet_if_alive (a run that changes no sysctl may go on).  A state
 * file that is not a regular file is refused (2) and left as it is.
 * 0 when nothing was left or all was restored.
 */
int vsb_sysctl_recover(int force, int quiet_if_alive);

/* The state file's path ($VSB_SYSCTL_STATE overrides, for tests). */
const char *vsb_sysctl_state_path(void);

#endif /* VSB_SYSCTL_H */
