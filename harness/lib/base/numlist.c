// SPDX-License-Identifier: GPL-2.0
/*
 * A comma list of positive integers (zone sizes, node counts), each
 * through vsb_parse_long so that a list follows the one integer syntax.
 */
#include <string.h>

#include "vsb.h"

int vsb_parse_ulong_list(const char *s, unsigned long *v, int max)
{
	char buf[512], *tok, *save = NULL;
	int n = 0;
	long x;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == max || vsb_parse_long(tok, &x) || x < 1 || x > (1L << 30))
			return -1;
		v[n++] = (unsigned long)x;
	}
	return n ? n : -1;
}
