// SPDX-License-Identifier: GPL-2.0
/*
 * FNV-1a 64: the content hash of result files (their content_id) and of
 * sweep files (ab.txt, a sweep's point keys).  Not cryptographic: it
 * tells copies apart, nobody forges them.
 */
#include "hash.h"

uint64_t vsb_fnv1a64(const void *p, size_t n, uint64_t h)
{
	const unsigned char *c = p;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= c[i];
		h *= 0x100000001b3ull;
	}
	return h;
}
