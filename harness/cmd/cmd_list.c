// SPDX-License-Identifier: GPL-2.0
/*
 * `vmstat-bench list`: every bench and variant, where it runs, and why a
 * variant is missing from a side.  Generated from the tables, so it
 * cannot fall out of date.
 */
#include <string.h>
#include <unistd.h>

#include "bench/kstat_ops.h"
#include "benches.h"
#include "kmod_client.h"
#include "cmds.h"
#include "kmod_abi.h"

static const char *sides_str(unsigned int sides, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s", sides & VSB_SIDE_USER ? "user " : "",
		 sides & VSB_SIDE_KMOD ? "kmod " : "",
		 sides & VSB_SIDE_LIVE ? "live " : "", sides ? "" : "none");
	if (buf[0] && buf[strlen(buf) - 1] == ' ')
		buf[strlen(buf) - 1] = '\0';
	return buf;
}

/*
 * The kstat ops, and which of them the loaded module lacks on this
 * kernel (when it is loaded and answers: root).
 */
static void list_kstat_ops(void)
{
	struct vsb_ioc_version v;
	int fd, loaded = 0;
	size_t i;

	if (!access(VSB_KMOD_DEVICE, F_OK) && !vsb_kmod_handshake(&fd, &v) &&
	    v.version == VSB_ABI_VERSION) {
		loaded = 1;
		close(fd);
	}
	printf("\nkstat ops (--op), the running kernel's own functions:\n");
	for (i = 0; i < VSB_KSTAT_NR; i++) {
		const struct vsb_kstat_op_info *op = &vsb_kstat_ops[i];

		printf("  %-20s %-15s %s%s%s\n", op->name, "kmod", op->fn,
		       op->fn[0] ? ": " : "", op->desc);
		if (loaded && !(v.kstat_ops & (1ULL << i)))
			printf("  %-20s %-15s not in the loaded module: %s\n", "", "",
			       op->why_not);
	}
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
		printf("  %-20s %-15s %s\n", vsb_benches[i]->name,
		       sides_str(vsb_benches[i]->sides, s, sizeof(s)),
		       vsb_benches[i]->desc);
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
	list_kstat_ops();
	return VSB_EXIT_OK;
}
