// SPDX-License-Identifier: GPL-2.0
/*
 * cache.c - where `ab` finds the kernel cache, for the kernel checks
 * (check.c) and for the KVM verdict the mode follows (mode.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ab.h"

/*
 * The kernel cache: one per machine, in ci/cache.bash's order, so that
 * what is found here is what ci/kernel-cache.sh would find: VSB_VM_CACHE,
 * $XDG_CACHE_HOME/vmstat-bench/vm, ~/.cache/vmstat-bench/vm, and without
 * a writable home the checkout's .cache/vm.
 */
void vsb_ab_cache_dir(const struct vsb_ab *ab, char *buf, size_t len)
{
	const char *env = getenv("VSB_VM_CACHE");
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	char root[4096];
	struct stat st;

	if (env && *env) {
		snprintf(buf, len, "%s", env);
	} else if (xdg && *xdg) {
		snprintf(buf, len, "%s/vmstat-bench/vm", xdg);
	} else if (home && *home && stat(home, &st) == 0 && S_ISDIR(st.st_mode) &&
		   access(home, W_OK) == 0) {
		snprintf(buf, len, "%s/.cache/vmstat-bench/vm", home);
	} else {
		snprintf(root, sizeof(root), "%s", ab->script);
		*strrchr(root, '/') = '\0';		/* .../ci */
		*strrchr(root, '/') = '\0';		/* the checkout */
		snprintf(buf, len, "%s/.cache/vm", root);
	}
}
