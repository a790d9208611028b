// SPDX-License-Identifier: GPL-2.0
/*
 * cpuinfo.c - /proc/cpuinfo: the suite's one reader of that file, for
 * the environment record, the cost table's key and the store's machine
 * fingerprint.  See cpuinfo.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuinfo.h"

static int has_flag(const char *line, const char *flag)
{
	size_t n = strlen(flag);
	const char *p = line;

	while ((p = strstr(p, flag))) {
		if ((p == line || p[-1] == ' ' || p[-1] == '\t') &&
		    (p[n] == ' ' || p[n] == '\n' || p[n] == '\0'))
			return 1;
		p += n;
	}
	return 0;
}

/* vendor, family, model, stepping, microcode: 1 when @line was one */
static int id_field(const char *line, const char *v, struct vsb_cpuinfo *ci)
{
	if (!strncmp(line, "vendor_id", 9))
		snprintf(ci->vendor, sizeof(ci->vendor), "%s", v);
	else if (!strncmp(line, "cpu family", 10))
		ci->family = atoi(v);
	else if (!strncmp(line, "model\t", 6) || !strncmp(line, "model :", 7))
		ci->model_id = atoi(v);
	else if (!strncmp(line, "stepping", 8))
		ci->stepping = atoi(v);
	else if (!strncmp(line, "microcode", 9))
		snprintf(ci->microcode, sizeof(ci->microcode), "%s", v);
	else
		return 0;
	return 1;
}

int vsb_cpuinfo_read(const char *path, struct vsb_cpuinfo *ci)
{
	char line[8192];
	FILE *f = fopen(path, "r");
	int flags_seen = 0;

	memset(ci, 0, sizeof(*ci));
	snprintf(ci->model, sizeof(ci->model), "unknown");
	snprintf(ci->vendor, sizeof(ci->vendor), "unknown");
	snprintf(ci->microcode, sizeof(ci->microcode), "unknown");
	ci->family = ci->model_id = ci->stepping = -1;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		char *v;

		if (!colon)
			continue;
		v = colon + 1;
		while (*v == ' ' || *v == '\t')
			v++;
		v[strcspn(v, "\n")] = '\0';
		if (!strncmp(line, "processor", 9))
			ci->nproc++;
		else if (ci->nproc <= 1 && id_field(line, v, ci))
			continue;	/* the first CPU's identity speaks for all */
		else if (!strncmp(line, "model name", 10) && !strcmp(ci->model, "unknown"))
			snprintf(ci->model, sizeof(ci->model), "%s", v);
		else if (!flags_seen && !strncmp(line, "flags", 5)) {
			/* the first CPU's flags speak for all (hybrids aside) */
			flags_seen = 1;
			ci->hypervisor = has_flag(v, "hypervisor");
			ci->constant_tsc = has_flag(v, "constant_tsc");
			ci->nonstop_tsc = has_flag(v, "nonstop_tsc");
			ci->tsc_known_freq = has_flag(v, "tsc_known_freq");
		}
	}
	fclose(f);
	return 0;
}

int vsb_cpuinfo_tsc_invariant(const struct vsb_cpuinfo *ci)
{
	return ci->constant_tsc && ci->nonstop_tsc;
}

/*
 * The file does not change while a process runs (a CPU brought online
 * adds a block, but the first CPU's identity and flags are what is
 * read): once a process, whoever asks first.
 */
const struct vsb_cpuinfo *vsb_cpuinfo_host(void)
{
	static struct vsb_cpuinfo ci;
	static int done;

	if (!done++)
		vsb_cpuinfo_read("/proc/cpuinfo", &ci);
	return &ci;
}

const char *vsb_cpuinfo_tsc_flags(const struct vsb_cpuinfo *ci)
{
	if (ci->constant_tsc)
		return ci->nonstop_tsc ? "constant_tsc nonstop_tsc" : "constant_tsc";
	return ci->nonstop_tsc ? "nonstop_tsc" : "";
}
