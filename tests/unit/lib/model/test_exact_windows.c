// SPDX-License-Identifier: GPL-2.0
/*
 * A result's exact_windows list (exact_windows.c), writer against
 * reader: the windows noted as samples are kept come back as the runs
 * they make, in order, and a list the writer would not write is
 * refused, not read as something near it.
 */
#include <stdio.h>
#include <string.h>

#include "exact_windows.h"
#include "tap.h"

/* the runs of @list as "v:a-b;" each, or "bad" after a refused word */
static const char *runs(const char *list, char *buf, size_t len)
{
	const char *p = list;
	unsigned long long lo, hi;
	unsigned int v;
	int r;

	buf[0] = '\0';
	while ((r = vsb_exact_windows_next(&p, &v, &lo, &hi)) > 0)
		snprintf(buf + strlen(buf), len - strlen(buf), "%u:%llu-%llu;", v, lo, hi);
	if (r < 0)
		snprintf(buf + strlen(buf), len - strlen(buf), "bad");
	return buf;
}

int main(void)
{
	static const char *const bad[] = {
		"boot=x 0:2-1",		/* last before first */
		"boot=x 0:+1-2",	/* a sign */
		"boot=x 0:1-2 ",	/* a blank after */
		"boot=x 0:1-2  1:1-1",	/* two blanks */
		"boot=x a:1-2",		/* no vCPU number */
		"boot=x 0:1",		/* no last */
		"boot=x 4294967296:1-1",	/* past an unsigned vCPU */
	};
	char list[64] = "", got[256];
	size_t i;

	TAP_OK(!vsb_exact_windows_add(list, sizeof(list), "b1", 0, 5) &&
	       !strcmp(list, "boot=b1 0:5-5"), "the first window names the boot: %s", list);
	vsb_exact_windows_add(list, sizeof(list), "ignored", 1, 0);
	vsb_exact_windows_add(list, sizeof(list), "ignored", 0, 6);
	vsb_exact_windows_add(list, sizeof(list), "ignored", 1, 1);
	vsb_exact_windows_add(list, sizeof(list), "ignored", 0, 9);
	TAP_OK(!strcmp(list, "boot=b1 0:5-6 1:0-1 0:9-9"),
	       "a window next to a run extends it, a gap starts another: %s", list);
	TAP_OK(!strcmp(runs(list, got, sizeof(got)), "0:5-6;1:0-1;0:9-9;"),
	       "the runs read back in order: %s", got);
	TAP_OK(!strcmp(runs("boot=b1", got, sizeof(got)), ""), "a boot and no run: none");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		runs(bad[i], got, sizeof(got));
		TAP_OK(strlen(got) >= 3 && !strcmp(got + strlen(got) - 3, "bad"),
		       "refused: \"%s\" (%s)", bad[i], got);
	}
	TAP_OK(!strcmp(runs("boot=x 0:1-1 1:x", got, sizeof(got)), "0:1-1;bad"),
	       "a bad word after good runs: the runs, then refused");
	snprintf(list, sizeof(list), "boot=%s 0:1-1", "0123456789012345678901234567890123456789");
	snprintf(got, sizeof(got), "%s", list);
	TAP_OK(vsb_exact_windows_add(list, sizeof(list), "b", 1, 100000) == -1 &&
	       !strcmp(list, got), "a run that does not fit: refused, the list as it was");
	TAP_OK(vsb_exact_windows_add(list, 26, "b", 0, 2) == -1 && !strcmp(list, got),
	       "an extension that does not fit: refused too");
	return tap_done();
}
