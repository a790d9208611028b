// SPDX-License-Identifier: GPL-2.0
/*
 * The "key: value" files of `ab`: its state, DIR/ab.txt (ab/boot.c
 * writes it, a line at a time through vsb_keyval_put), and a boot's
 * ab-boot.txt (ci/ab-run.sh writes it, one printf).  Written and read
 * here, so that no layer above encodes or decodes them by hand.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keyval.h"
#include "vsb.h"

int vsb_keyval_get(const char *path, const char *key, char *val, size_t len)
{
	size_t kl = strlen(key);
	char line[8192];
	int ret = -1;
	FILE *f;
	int e;

	/* a FIFO planted in DIR blocked here; a folder's state is small */
	f = vsb_fopen_regular(path, 1 << 20, &e);
	if (!f)
		return -1;
	while (ret && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, kl) && !strncmp(line + kl, ": ", 2)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(val, len, "%s", line + kl + 2);
			ret = 0;
		}
	fclose(f);
	return ret;
}

int vsb_keyval_long(const char *path, const char *key, long *v)
{
	char val[64];

	if (vsb_keyval_get(path, key, val, sizeof(val)))
		return -1;
	return vsb_parse_long(val, v) ? -1 : 0;
}

int vsb_keyval_put(FILE *f, const char *key, const char *fmt, ...)
{
	va_list ap;
	char *val;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&val, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	for (n = 0; val[n]; n++)
		if (val[n] == '\n')
			val[n] = ' ';
	n = fprintf(f, "%s: %s\n", key, val);
	free(val);
	return n < 0 ? -1 : 0;
}
