// SPDX-License-Identifier: GPL-2.0
/*
 * The `# sweep_procs:` line: which repetitions of a point each worker
 * process of `sweep --procs` ran.  A format of the suite's files, so
 * its writer and its reader live here together; the sweep writes it
 * and `compare` reads it back to judge each process as a run.
 */
#include <stdio.h>
#include <string.h>

#include "opts.h"
#include "vsb.h"
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

/*
 * Each number in numbers.c's one syntax, as the writer's %ld writes it:
 * "007" or "+7" is no list of ours.
 */
static const char *scan_rep(const char *p, long *v)
{
	return *p == '-' ? NULL : vsb_scan_decimal(p, v);
}

size_t vsb_worker_list_read(const char *line, unsigned int *lo, unsigned int *hi,
			    size_t max)
{
	const char *p = line ? strstr(line, WL_WORDS) : NULL;
	size_t n = 0;
	long a, b;

	for (p = p ? p + strlen(WL_WORDS) : NULL; p && n < max; p++) {
		p = scan_rep(p, &a);
		if (!p)
			return 0;
		b = a;
		if (*p == '-' && !(p = scan_rep(p + 1, &b)))
			return 0;
		if (b < a || b >= VSB_REPEAT_MAX || (n && a <= (long)hi[n - 1]))
			return 0;
		lo[n] = (unsigned int)a;
		hi[n++] = (unsigned int)b;
		if (*p != ',')
			return *p == ')' && !p[1] ? n : 0;
	}
	return 0;
}
