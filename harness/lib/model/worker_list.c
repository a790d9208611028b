// SPDX-License-Identifier: GPL-2.0
/*
 * The `# sweep_procs:` line: which repetitions of a point each worker
 * process of `sweep --procs` ran.  A format of the suite's files, so
 * its writer and its reader live here together; the sweep writes it
 * and `compare` reads it back to judge each process as a run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "worker_list.h"

#define WL_WORDS "repetitions by worker process: "

size_t vsb_worker_list_write(char *buf, size_t len, const long *end, size_t nprocs)
{
	char list[4096] = "";
	size_t off = 0, k, n = 0;
	long a = 0, b;

	for (k = 0; k < nprocs && off < sizeof(list); k++) {
		b = end[k];
		if (b <= a)
			continue;
		off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%ld",
					n ? "," : "", a);
		if (b - 1 > a && off < sizeof(list))
			off += (size_t)snprintf(list + off, sizeof(list) - off, "-%ld",
						b - 1);
		n++;
		a = b;
	}
	snprintf(buf, len, "%zu (" WL_WORDS "%s)", n, list);
	return n;
}

size_t vsb_worker_list_read(const char *line, unsigned int *lo, unsigned int *hi,
			    size_t max)
{
	const char *p = line ? strstr(line, WL_WORDS) : NULL;
	unsigned long a, b;
	size_t n = 0;
	char *end;

	for (p = p ? p + strlen(WL_WORDS) : NULL; p && n < max; p = end + 1) {
		if (*p < '0' || *p > '9')
			return 0;
		a = b = strtoul(p, &end, 10);
		if (*end == '-' && end[1] >= '0' && end[1] <= '9')
			b = strtoul(end + 1, &end, 10);
		if (b < a || b >= VSB_REPEAT_MAX || (n && a <= hi[n - 1]))
			return 0;
		lo[n] = (unsigned int)a;
		hi[n++] = (unsigned int)b;
		if (*end != ',')
			return *end == ')' || !*end ? n : 0;
	}
	return 0;
}
