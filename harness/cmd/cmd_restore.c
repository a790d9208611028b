// SPDX-License-Identifier: GPL-2.0
/*
 * `vmstat-bench restore`: put back the sysctls a killed run left
 * changed, from the state file it wrote before changing them, and
 * remove the memory cgroups (and the cgroup2 mount) a killed run left
 * (cgroup.h).  Every run and sweep does the same on start; this command
 * is for doing it now, by hand or from a boot script.
 */
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "cmds.h"
#include "scratch.h"
#include "sysctl.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: vmstat-bench restore [--force]\n"
"\n"
"Restore the sysctls that a killed vmstat-bench run left changed, from the\n"
"state file %s ($VSB_SYSCTL_STATE overrides),\n"
"and remove the file; remove the memory cgroups a killed run made\n"
"(vmstat-bench.PID below the memory hierarchy's root) and the cgroup2\n"
"mount it made at " VSB_MEMCG_MOUNT "; unmount the tmpfs and tracefs\n"
"mounts and remove the tracefs instances it made (" VSB_SCRATCH_DIR "/*.PID,\n"
"instances/" VSB_TRACE_INSTANCE "PID).  Nothing to do is not an error.\n"
"\n"
"options:\n"
"  --force    restore even while the run that wrote the file is alive and\n"
"             holds its lock (a hung run)\n"
"  -h, --help this text\n"
"\n"
"examples:\n"
"  vmstat-bench restore\n"
"  vmstat-bench restore --force     # the run that changed them hangs (kill -STOP)\n"
"\n"
"The file is only read if it is a regular file (never a link, device or\n"
"FIFO), and only that file is removed, after every value reads back\n"
"byte for byte as it was.\n"
"\n"
"exit status: 0 restored or nothing to do, 1 a value could not be written\n"
"or a running vmstat-bench holds the sysctls, 2 the state file is not a\n"
"regular file or is damaged (left as it is), 4 not root.\n",
		VSB_SYSCTL_STATE_DEFAULT);
}

int vsb_cmd_restore(int argc, char **argv)
{
	int i, force = 0, ret, n;
	struct stat st;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return VSB_EXIT_OK;
		}
		if (!strcmp(argv[i], "--force")) {
			force = 1;
			continue;
		}
		vsb_err("restore: unknown argument '%s' (see restore --help)", argv[i]);
		return VSB_EXIT_USAGE;
	}
	/* the mounts first: their files hold pages charged to the cgroups */
	n = vsb_scratch_sweep_stale();
	if (n > 0)
		printf("restore: removed %d mount%s or tracefs instance%s a killed run "
		       "left\n", n, n > 1 ? "s" : "", n > 1 ? "s" : "");
	n = vsb_memcg_sweep_stale();
	if (n > 0)
		printf("restore: removed %d memory cgroup chain%s a killed run left\n", n,
		       n > 1 ? "s" : "");
	/* lstat: a dangling link there is refused by recover, not "nothing" */
	if (lstat(vsb_sysctl_state_path(), &st)) {
		printf("restore: no sysctl to restore (no %s)\n", vsb_sysctl_state_path());
		return VSB_EXIT_OK;
	}
	ret = vsb_sysctl_recover(force, 0);
	if (!ret)
		printf("restore: done; %s removed\n", vsb_sysctl_state_path());
	return ret;
}
