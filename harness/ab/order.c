// SPDX-License-Identifier: GPL-2.0
/*
 * What the ab runner (ab_boot.c) and its report (ab_report.c) share: the
 * ABBA order of boots and the names of the two sides.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "ab.h"
#include "vsb.h"

const char *const vsb_ab_side_name[2] = { "base", "new" };

int vsb_ab_side(long i)
{
	return ((i + 1) / 2) % 2 ? VSB_AB_NEW : VSB_AB_BASE;
}

long vsb_ab_side_boot(long i)
{
	long j, n = 0;

	for (j = 0; j <= i; j++)
		n += vsb_ab_side(j) == vsb_ab_side(i);
	return n;
}

void vsb_ab_order_str(const struct vsb_ab *ab, char *buf, size_t len)
{
	long i;

	buf[0] = '\0';
	for (i = 0; i < 2 * ab->now; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s%ld", i ? " " : "",
			 vsb_ab_side(i) == VSB_AB_BASE ? "A" : "B", vsb_ab_side_boot(i));
}

void vsb_ab_pin_str(const struct vsb_ab *ab, char *buf, size_t len)
{
	if (ab->pin[0])
		snprintf(buf, len, "vCPU threads pinned to host CPUs %s", ab->pin);
	else
		snprintf(buf, len, "not pinned: %s", ab->pin_why);
}
