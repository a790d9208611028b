/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "key: value" files (keyval.c): ab's DIR/ab.txt and a boot's
 * ab-boot.txt.
 */
#ifndef VSB_KEYVAL_H
#define VSB_KEYVAL_H

#include <stddef.h>

/* The value of the first "key: value" line of @path into @val; 0, or -1. */
int vsb_keyval_get(const char *path, const char *key, char *val, size_t len);
/*
 * @key's value as an integer into @v: 0, or -1 when there is none or it
 * is not one as %d or %ld write it (numbers.c's syntax: "07", "+7",
 * "7 " and "" are refused, not read as 7 or 0).
 */
int vsb_keyval_long(const char *path, const char *key, long *v);

#endif /* VSB_KEYVAL_H */
