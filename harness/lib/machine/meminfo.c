// SPDX-License-Identifier: GPL-2.0
/*
 * meminfo.c - one field of /proc/meminfo, in kB: the suite's one reader
 * of that file, for whoever sizes work by the memory there is (ab
 * --jobs, a guest's default memory, the live benches' size check, the
 * committed_as batch of the environment record).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meminfo.h"

long vsb_meminfo_kb(const char *field)
{
	char line[256];
	size_t n = strlen(field);
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		/* "MemAvailable:    1234 kB" */
		if (!strncmp(line, field, n) && line[n] == ':') {
			kb = strtol(line + n + 1, NULL, 10);
			break;
		}
	fclose(f);
	return kb;
}
