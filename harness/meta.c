// SPDX-License-Identifier: GPL-2.0
/*
 * The environment record written into every result: enough to tell,
 * months later, what machine and kernel a number came from and whether
 * it should have been trusted.
 */
#define _GNU_SOURCE
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "result.h"

#ifndef VSB_GIT_REV
#define VSB_GIT_REV "unknown"
#endif
#ifndef VSB_BUILD
#define VSB_BUILD "release"
#endif
#define VSB_VERSION "0.1"

static char cmdline[2048];

void vsb_meta_set_cmdline(int argc, char **argv)
{
	size_t off = 0;
	int i;

	for (i = 0; i < argc && off < sizeof(cmdline); i++)
		off += snprintf(cmdline + off, sizeof(cmdline) - off, "%s%s",
				i ? " " : "", argv[i]);
}

/* "model name" and whether the hypervisor bit is set, from cpuinfo. */
static void cpu_model(char *model, size_t len, int *hypervisor)
{
	char line[4096];
	FILE *f = fopen("/proc/cpuinfo", "r");

	snprintf(model, len, "unknown");
	*hypervisor = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		if (!strncmp(line, "model name", 10)) {
			snprintf(model, len, "%s", colon + 2);
			model[strcspn(model, "\n")] = '\0';
		}
		if (!strncmp(line, "flags", 5)) {
			*hypervisor = strstr(line, " hypervisor") != NULL;
			break;
		}
	}
	fclose(f);
}

static void meta_file(struct vsb_result *r, const char *key, const char *path)
{
	char buf[512];

	if (vsb_read_file_str(path, buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "unavailable");
	vsb_result_meta(r, key, "%s", buf);
}

void vsb_meta_collect(struct vsb_result *r)
{
	struct utsname u;
	char model[256], date[64];
	time_t now = time(NULL);
	int hyp;

	vsb_result_meta(r, "vmstat-bench", "%s (git %s, %s build)", VSB_VERSION,
			VSB_GIT_REV, VSB_BUILD);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	vsb_result_meta(r, "date", "%s", date);
	vsb_result_meta(r, "command", "%s", cmdline);
	if (uname(&u) == 0)
		vsb_result_meta(r, "kernel", "%s %s %s %s", u.sysname, u.release,
				u.version, u.machine);
	cpu_model(model, sizeof(model), &hyp);
	vsb_result_meta(r, "cpu_model", "%s", model);
	vsb_result_meta(r, "hypervisor", "%s", hyp ? "yes" : "no");
	vsb_result_meta(r, "online_cpus", "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	meta_file(r, "cpu0_governor",
		  "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
	vsb_result_meta(r, "tsc_hz", "%.0f", vsb_tsc_hz());
	vsb_result_meta(r, "tsc_flags", "%s",
			vsb_tsc_flags()[0] ? vsb_tsc_flags() : "none");
	vsb_result_meta(r, "clock", "%s", r->event[0] ? r->event : "rdtscp");
	vsb_result_meta(r, "unit", "%s", r->unit);
	meta_file(r, "vm.stat_interval", "/proc/sys/vm/stat_interval");
	meta_file(r, "vm.numa_stat", "/proc/sys/vm/numa_stat");
	meta_file(r, "vm.overcommit_memory", "/proc/sys/vm/overcommit_memory");
	meta_file(r, "vm.percpu_pagelist_high_fraction",
		  "/proc/sys/vm/percpu_pagelist_high_fraction");
}
