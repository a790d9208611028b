// SPDX-License-Identifier: GPL-2.0
/*
 * Zeroed allocation that never returns NULL: out of memory ends the
 * process with one line (a benchmark half-run on a failed malloc would
 * be worse than none).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vsb.h"

void *vsb_zalloc(size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (!p) {
		vsb_err("out of memory (%zu bytes)", size);
		exit(VSB_EXIT_ERROR);
	}
	return p;
}

/* Cache-line aligned and padded, so no two workers ever share a line. */
void *vsb_zalloc_aligned(size_t size)
{
	size_t padded = (size + VSB_CACHELINE - 1) & ~(size_t)(VSB_CACHELINE - 1);
	void *p = NULL;

	if (posix_memalign(&p, VSB_CACHELINE, padded ? padded : VSB_CACHELINE)) {
		vsb_err("out of memory (%zu bytes)", padded);
		exit(VSB_EXIT_ERROR);
	}
	memset(p, 0, padded ? padded : VSB_CACHELINE);
	return p;
}

/*
 * Page-aligned and page-padded: for the data the bench measures (each
 * worker's diffs, the shared counters).  Cache-line padding alone is not
 * enough: adjacent-line prefetchers fetch 128-byte pairs, so two workers'
 * slots 64 bytes apart still interfere, and did, bimodally, from one run
 * to the next.  A page each is what separate per-CPU units give.
 */
void *vsb_zalloc_page(size_t size)
{
	size_t padded = (size + 4095) & ~(size_t)4095;
	void *p = NULL;

	if (!padded)
		padded = 4096;
	if (posix_memalign(&p, 4096, padded)) {
		vsb_err("out of memory (%zu bytes)", padded);
		exit(VSB_EXIT_ERROR);
	}
	memset(p, 0, padded);
	return p;
}
