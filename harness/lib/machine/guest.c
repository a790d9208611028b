// SPDX-License-Identifier: GPL-2.0
/*
 * The running machine's shape, and whether it is the one a point asks
 * for (guest.h).  Counts come from sysfs, which says what the kernel
 * made of QEMU's -smp and -numa: possible CPUs are the ones it sized
 * its per-CPU areas for, which is what the spawn bench's axis is about.
 */
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "guest.h"
#include "meminfo.h"

#define SYS_CPU		"/sys/devices/system/cpu"
#define SYS_NODE	"/sys/devices/system/node"

/* vsb.shape='s field @key ("mem"), -1 when absent */
static long shape_field(const char *shape, const char *key)
{
	size_t n = strlen(key);
	const char *p;
	long v;

	for (p = shape; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, key, n) && p[n] == ':') {
			char num[24];

			snprintf(num, sizeof(num), "%.*s", (int)strcspn(p + n + 1, ","),
				 p + n + 1);
			return vsb_parse_long(num, &v) ? -1 : v;
		}
	return -1;
}

static void read_cmdline(char *buf, size_t len)
{
	if (vsb_read_file_str("/proc/cmdline", buf, len))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/* The word of @cmdline that starts with @prefix, its value into @buf */
static void cmdline_value(const char *cmdline, const char *prefix, char *buf, size_t len)
{
	const char *w = cmdline;
	size_t pl = strlen(prefix), n;

	buf[0] = '\0';
	while (*w) {
		n = strcspn(w, " ");
		if (n > pl && !strncmp(w, prefix, pl)) {
			snprintf(buf, len, "%.*s", (int)(n - pl), w + pl);
			return;
		}
		w += n + (w[n] == ' ');
	}
}

void vsb_guest_booted_as(char *buf, size_t len)
{
	char cmdline[4096];

	read_cmdline(cmdline, sizeof(cmdline));
	cmdline_value(cmdline, VSB_GUEST_SHAPE_PARAM, buf, len);
}

static int count_nodes(void)
{
	int n = vsb_env_count_list(SYS_NODE "/online");

	return n > 0 ? n : 1;	/* no NUMA: one node, as a guest without -numa has */
}

/* The memory the guest was booted with, else MemTotal in MB */
static long mem_mb(const char *cmdline)
{
	char shape[256];
	long v;

	cmdline_value(cmdline, VSB_GUEST_SHAPE_PARAM, shape, sizeof(shape));
	v = shape[0] ? shape_field(shape, "mem") : -1;
	if (v > 0)
		return v;
	v = vsb_meminfo_kb("MemTotal");
	return v < 0 ? 0 : v / 1024;
}

void vsb_guest_this(struct vsb_guest_shape *s, char *cmdline, size_t len)
{
	memset(s, 0, sizeof(*s));
	read_cmdline(cmdline, len);
	/* online: a guest's possible CPUs beyond its vCPUs are present, offline */
	s->cpus = vsb_env_count_list(SYS_CPU "/online");
	s->possible = vsb_env_count_list(SYS_CPU "/possible");
	s->nodes = count_nodes();
	s->mem = mem_mb(cmdline);
}

/* every word of @want is a word of @have */
static const char *missing_word(const char *want, const char *have, size_t *n)
{
	const char *w = want, *h;

	while (*w) {
		int found = 0;

		*n = strcspn(w, " ");
		for (h = have; *h && !found; h += strcspn(h, " "), h += *h == ' ')
			found = strcspn(h, " ") == *n && !strncmp(h, w, *n);
		if (!found)
			return w;
		w += *n + (w[*n] == ' ');
	}
	return NULL;
}

static int mem_matches(long want, long have, const char *cmdline)
{
	char shape[256];

	cmdline_value(cmdline, VSB_GUEST_SHAPE_PARAM, shape, sizeof(shape));
	if (shape_field(shape, "mem") > 0)
		return want == have;
	/* MemTotal: what the firmware and the kernel leave of it */
	return have <= want && have >= want * 8 / 10;
}

int vsb_guest_matches(const struct vsb_guest_shape *want, char *why, size_t len)
{
	struct vsb_guest_shape is;
	char cmdline[4096];
	const char *w;
	size_t n;

	vsb_guest_this(&is, cmdline, sizeof(cmdline));
	if (want->cpus && want->cpus != is.cpus)
		snprintf(why, len, "%ld vCPUs, this machine has %ld online", want->cpus,
			 is.cpus);
	else if (want->possible && want->possible != is.possible)
		snprintf(why, len, "%ld possible CPUs, this machine has %ld", want->possible,
			 is.possible);
	else if (want->nodes && want->nodes != is.nodes)
		snprintf(why, len, "%ld NUMA nodes, this machine has %ld", want->nodes,
			 is.nodes);
	else if (want->mem && !mem_matches(want->mem, is.mem, cmdline))
		snprintf(why, len, "%ld MB, this machine has %ld", want->mem, is.mem);
	else if ((w = missing_word(want->cmdline, cmdline, &n)))
		snprintf(why, len, "kernel parameter %.*s, not on this machine's command "
			 "line", (int)n, w);
	else
		return 1;
	return 0;
}
