/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "key: value" files (keyval.c): ab's DIR/ab.txt, written and read
 * here, and a boot's ab-boot.txt, read.
 */
#ifndef VSB_KEYVAL_H
#define VSB_KEYVAL_H

#include <stddef.h>
#include <stdio.h>

/* The value of the first "key: value" line of @path into @val; 0, or -1. */
int vsb_keyval_get(const char *path, const char *key, char *val, size_t len);
/*
 * @key's value as an integer into @v: 0, or -1 when there is none or it
 * is not one as %d or %ld write it (numbers.c's syntax: "07", "+7",
 * "7 " and "" are refused, not read as 7 or 0).
 */
int vsb_keyval_long(const char *path, const char *key, long *v);

/*
 * The line "@key: VALUE" to @f, VALUE as @fmt makes it: the line that
 * vsb_keyval_get reads back as VALUE.  A line break in VALUE (a path
 * holds one) would end it there and make the rest a line of its own,
 * read as another key: each is written as a blank.  0, or -1.
 */
int vsb_keyval_put(FILE *f, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* VSB_KEYVAL_H */
