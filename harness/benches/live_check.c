// SPDX-License-Identifier: GPL-2.0
/*
 * The live benches' own check of a run's options (the bench table's
 * hook): defaults that depend on the bench, memory the mappings need,
 * and THP when --thp always asks for it.  Apart from the runner
 * (live.c), which reads the system's THP mode through the same helper.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benches.h"

#define LIVE_PF_LOOPS	1	/* default rounds per sample: 128 MiB is 32768 faults */
#define LIVE_MMAP_LOOPS	10000	/* default mmap+munmap pairs per sample */
#define THP_ENABLED	"/sys/kernel/mm/transparent_hugepage/enabled"

void vsb_live_thp_mode(char *buf, size_t len)
{
	char raw[128], *l, *r;

	buf[0] = '\0';
	if (vsb_read_file_str(THP_ENABLED, raw, sizeof(raw)))
		return;
	l = strchr(raw, '[');
	r = l ? strchr(l, ']') : NULL;
	if (l && r)
		snprintf(buf, len, "%.*s", (int)(r - l - 1), l + 1);
}

long long vsb_live_meminfo_kb(const char *key)
{
	char line[256];
	long long v = -1;
	size_t n = strlen(key);
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':') {
			v = atoll(line + n + 1);
			break;
		}
	fclose(f);
	return v;
}

int vsb_live_check(const struct vsb_bench *b, struct vsb_run_opts *o)
{
	unsigned long long size, page = (unsigned long long)sysconf(_SC_PAGESIZE);
	int pf = !strcmp(b->name, "page-fault");
	char mode[32];
	long long avail;

	vsb_parse_size(o->size, &size);		/* checked when it was set */
	if (size % page) {
		vsb_err_opt("size", "--size: %s is not a multiple of the page size (%llu)",
			o->size, page);
		return VSB_EXIT_USAGE;
	}
	/* a sample of the counter bench's default 10^6 loops would take hours */
	if (!vsb_opt_given(o, "loops"))
		o->loops = pf ? LIVE_PF_LOOPS : LIVE_MMAP_LOOPS;
	if (!pf) {
		if (vsb_opt_given(o, "thp") && strcmp(o->thp, "never")) {
			vsb_err_opt("thp", "--thp: the mmap bench never touches its mapping; "
				"THP applies to page-fault");
			return VSB_EXIT_USAGE;
		}
		return 0;
	}
	avail = vsb_live_meminfo_kb("MemAvailable");
	if (avail > 0 && size / 1024 * (unsigned long long)o->cpus.n >
			 (unsigned long long)avail / 2) {
		vsb_err_opt("size", "--size: %d workers x %s would touch more than half of the "
			"%lld MiB available", o->cpus.n, o->size, avail >> 10);
		return VSB_EXIT_USAGE;
	}
	if (!strcmp(o->thp, "always")) {
		vsb_live_thp_mode(mode, sizeof(mode));
		if (!mode[0] || !strcmp(mode, "never")) {
			vsb_err_opt("thp", "--thp always: transparent huge pages are %s (%s): skipped",
				mode[0] ? "disabled" : "not built into this kernel",
				mode[0] ? THP_ENABLED " says never" : "no " THP_ENABLED);
			return VSB_EXIT_SKIP;
		}
		if (size % (2ull << 20))
			vsb_warn_opt("thp", "--thp always: %s is not a multiple of 2 MiB; the "
				 "rest is mapped with small pages", o->size);
	}
	return 0;
}
