// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel cache's kvm.verdict, which ci/vm-run.sh appends to after
 * probing whether a guest kernel boots under KVM: one line per probe,
 * "HOST_RELEASE QEMU_VERSION GUEST_RELEASE => kvm" (or "=> tcg").  `ab`
 * reads it to choose exact or timed mode (ab/mode.c).
 */
#include <stdio.h>
#include <string.h>

#include "kvm_verdict.h"

int vsb_kvm_verdict_read(const char *path, const char *release)
{
	char line[1024], want[512];
	int kvm = 0;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return 0;
	snprintf(want, sizeof(want), " %s => kvm", release);
	while (fgets(line, sizeof(line), f)) {
		size_t n = strcspn(line, "\n"), w = strlen(want);

		line[n] = '\0';
		if (n >= w && !strcmp(line + n - w, want))
			kvm = 1;
	}
	fclose(f);
	return kvm;
}
