// SPDX-License-Identifier: GPL-2.0
/*
 * The one growable array: room for element @n of an array of @size-byte
 * elements with capacity *@cap, doubling.  Running out of memory ends the
 * process with one line, as every allocation in the harness does (a
 * benchmark that cannot allocate its bookkeeping has nothing to report).
 */
#include <stdlib.h>

#include "vsb.h"

void *vsb_grow(void *p, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? 2 * *cap : 16;
	if (*cap <= n)
		*cap = n + 1;
	p = realloc(p, *cap * size);
	if (!p) {
		vsb_err("out of memory (%zu elements of %zu bytes)", *cap, size);
		exit(VSB_EXIT_ERROR);
	}
	return p;
}
