// SPDX-License-Identifier: GPL-2.0
/*
 * ab.txt's lines (keyval.c), writer against reader: what vsb_keyval_put
 * writes, vsb_keyval_get and vsb_keyval_long read back, and a line
 * break inside a value cannot make a key of its own.  ab-boot.txt's
 * reads, and their refusals, are test_formats.c's.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "keyval.h"
#include "tap.h"

int main(void)
{
	char path[] = "/tmp/vsb-keyval-put-XXXXXX", val[256];
	int fd = mkstemp(path);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	long v = 0;

	if (!f) {
		printf("1..0 # SKIP cannot make a file in /tmp\n");
		return 4;
	}
	TAP_OK(!vsb_keyval_put(f, "base", "%s", "/k/a bzImage:/k/a") &&
	       !vsb_keyval_put(f, "boots_now", "%ld", 12L) &&
	       !vsb_keyval_put(f, "shape 1", "smp=%d mem=%d", 4, 2048) &&
	       !vsb_keyval_put(f, "cmdline", "%s", "quiet\nboots_now: 99") &&
	       !vsb_keyval_put(f, "sweep_hash", "%016llx", 0xabcULL),
	       "five lines written");
	fclose(f);
	TAP_OK(!vsb_keyval_get(path, "base", val, sizeof(val)) &&
	       !strcmp(val, "/k/a bzImage:/k/a"), "a value with blanks and a colon: %s", val);
	TAP_OK(!vsb_keyval_long(path, "boots_now", &v) && v == 12,
	       "a number reads back as one: %ld", v);
	TAP_OK(!vsb_keyval_get(path, "shape 1", val, sizeof(val)) &&
	       !strcmp(val, "smp=4 mem=2048"), "a key with a blank: %s", val);
	TAP_OK(!vsb_keyval_get(path, "cmdline", val, sizeof(val)) &&
	       !strcmp(val, "quiet boots_now: 99"),
	       "a line break in a value is written as a blank: %s", val);
	TAP_OK(!vsb_keyval_get(path, "sweep_hash", val, sizeof(val)) &&
	       !strcmp(val, "0000000000000abc"), "a hash keeps its zeros");
	TAP_OK(vsb_keyval_get(path, "shape", val, sizeof(val)) == -1,
	       "a key's prefix is not the key");
	unlink(path);
	return tap_done();
}
