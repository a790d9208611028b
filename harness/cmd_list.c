// SPDX-License-Identifier: GPL-2.0
/*
 * `vmstat-bench list`: every bench and variant, where it runs, and why a
 * variant is missing from a side.  Generated from the tables, so it
 * cannot fall out of date.
 */
#include <string.h>

#include "benches.h"
#include "cmds.h"

static const char *sides_str(unsigned int sides, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s", sides & VSB_SIDE_USER ? "user " : "",
		 sides & VSB_SIDE_KMOD ? "kmod " : "",
		 sides & VSB_SIDE_LIVE ? "live " : "", sides ? "" : "none");
	if (buf[0] && buf[strlen(buf) - 1] == ' ')
		buf[strlen(buf) - 1] = '\0';
	return buf;
}

int vsb_cmd_list(int argc, char **argv)
{
	char s[64];
	size_t i;

	(void)argv;
	if (argc > 1) {
		if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
			printf("usage: vmstat-bench list\n\n"
			       "Lists benches and counter variants with where they run:\n"
			       "  user  threads of this harness (analogues of the kernel code)\n"
			       "  kmod  the vmstat_bench kernel module (the real kernel primitives)\n"
			       "  live  the running kernel's own paths, driven from user space\n"
			       "\nexamples:\n"
			       "  vmstat-bench list\n"
			       "  vmstat-bench list | grep -w live    # what drives the running kernel\n");
			return VSB_EXIT_OK;
		}
		vsb_err("list takes no arguments ('%s')", argv[1]);
		return VSB_EXIT_USAGE;
	}
	printf("benches (--bench):\n");
	for (i = 0; i < vsb_bench_count; i++)
		printf("  %-20s %-15s %s\n", vsb_benches[i].name,
		       sides_str(vsb_benches[i].sides, s, sizeof(s)),
		       vsb_benches[i].desc);
	printf("\ncounter variants (--variant):\n");
	for (i = 0; i < VSB_V_NR; i++) {
		const struct vsb_variant_info *v = &vsb_variants[i];

		printf("  %-20s %-15s %s\n", v->name,
		       sides_str(v->sides, s, sizeof(s)), v->desc);
		if (!(v->sides & VSB_SIDE_USER))
			printf("  %-20s %-15s not in user space: %s\n", "", "",
			       v->why_not);
		if (!(v->sides & VSB_SIDE_KMOD))
			printf("  %-20s %-15s not in the module: %s\n", "", "",
			       v->why_not);
	}
	return VSB_EXIT_OK;
}
