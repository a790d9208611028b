/* SPDX-License-Identifier: GPL-2.0 */
/* FNV-1a 64 (hash.c): content ids of result and sweep files. */
#ifndef VSB_HASH_H
#define VSB_HASH_H

#include <stddef.h>
#include <stdint.h>

#define VSB_FNV_INIT 0xcbf29ce484222325ull
/* Continue hash @h over @n bytes at @p (start with VSB_FNV_INIT). */
uint64_t vsb_fnv1a64(const void *p, size_t n, uint64_t h);

#endif /* VSB_HASH_H */
