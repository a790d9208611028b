// SPDX-License-Identifier: GPL-2.0
/*
 * CPU list parsing and formatting: the syntax users type for --cpus and
 * what every result row records.
 */
#include <stdio.h>
#include <string.h>

#include "vsb.h"
#include "tap.h"

static struct vsb_cpulist cl;

static int parses(const char *s)
{
	return vsb_cpulist_parse(s, &cl, "--cpus") == 0;
}

int main(void)
{
	char buf[256];

	TAP_OK(parses("0") && cl.n == 1 && cl.cpu[0] == 0, "single CPU");
	TAP_OK(parses("0-3,8,10-11") && cl.n == 7 && cl.cpu[4] == 8 && cl.cpu[6] == 11,
	       "ranges and singles");
	vsb_cpulist_format(&cl, buf, sizeof(buf), ',');
	TAP_OK(!strcmp(buf, "0-3,8,10-11"), "formats back to the same list (%s)", buf);
	vsb_cpulist_format(&cl, buf, sizeof(buf), ';');
	TAP_OK(!strcmp(buf, "0-3;8;10-11"), "CSV form uses ';' (%s)", buf);
	TAP_OK(parses("3,1") && cl.cpu[0] == 3 && cl.cpu[1] == 1, "order is kept (worker i on cpu[i])");
	TAP_OK(!parses(""), "empty list refused");
	TAP_OK(!parses("1-"), "open range refused");
	TAP_OK(!parses("3-1"), "reversed range refused");
	TAP_OK(!parses("0,,1"), "empty element refused");
	TAP_OK(!parses("a"), "letters refused");
	TAP_OK(!parses("-1"), "negative refused");
	TAP_OK(!parses("0,0"), "duplicate CPU refused");
	TAP_OK(!parses("0-2,1"), "overlap refused");
	TAP_OK(!parses("99999"), "CPU beyond the maximum refused");
	TAP_OK(!parses("0 1"), "spaces refused");
	return tap_done();
}
