// SPDX-License-Identifier: GPL-2.0
/*
 * The syntax of a sysctl spec (NAME=VALUE) and of a sysctl sweep axis,
 * checked without touching the machine: what `run` options and sweep
 * files are parsed with.  Reading, applying and restoring are sysctl.c.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "sysctl_spec.h"
#include "vsb.h"

/* Split "NAME=VALUE" into @name and @val; -1 if it is not that shape. */
int vsb_sysctl_split(const char *spec, char *name, char *val)
{
	const char *eq = strchr(spec, '=');
	size_t n;

	if (!eq || eq == spec)
		return -1;
	n = (size_t)(eq - spec);
	if (n >= VSB_SYSCTL_NAME_MAX || strlen(eq + 1) >= VSB_SYSCTL_VAL_MAX)
		return -1;
	memcpy(name, spec, n);
	name[n] = '\0';
	strcpy(val, eq + 1);
	return *val ? 0 : -1;
}

/*
 * The sysctls vmstat-bench sets: the page allocator's, vm.*.  One rule
 * for --sysctl and for what a state file may restore: a state file is
 * only ever a list of what a run set, so a name outside it (a planted
 * file naming kernel.*) is refused, not written as root.
 */
int vsb_sysctl_settable(const char *name)
{
	return !strncmp(name, "vm.", 3);
}

int vsb_sysctl_check_syntax(const char *spec, const char *where)
{
	char name[VSB_SYSCTL_NAME_MAX], val[VSB_SYSCTL_VAL_MAX], path[256];

	if (!*spec)
		return 0;	/* "" is "no sysctl" (the default) */
	if (strchr(spec, ',')) {
		vsb_err("%s: '%s': a list of values is a sweep axis; `run` takes one "
			"NAME=VALUE", where, spec);
		return VSB_EXIT_USAGE;
	}
	if (vsb_sysctl_split(spec, name, val) || vsb_sysctl_path(name, path, sizeof(path))) {
		vsb_err("%s: '%s' is not NAME=VALUE with a dotted sysctl name "
			"(e.g. vm.numa_stat=0)", where, spec);
		return VSB_EXIT_USAGE;
	}
	if (!vsb_sysctl_settable(name)) {
		vsb_err("%s: '%s': vmstat-bench sets vm.* sysctls only (the page "
			"allocator's), not %s", where, spec, name);
		return VSB_EXIT_USAGE;
	}
	return 0;
}

char *vsb_sysctl_axis_token(const char *first, char *tok, char *buf, size_t len)
{
	size_t n;

	if (strchr(tok, '=') || !strchr(first, '='))
		return tok;
	n = (size_t)(strchr(first, '=') - first);
	snprintf(buf, len, "%.*s=%s", (int)n, first, tok);
	return buf;
}

/* Lower-case dotted names only: a name never becomes "../" in the path. */
int vsb_sysctl_path(const char *name, char *buf, size_t len)
{
	const char *c;
	size_t i = 0;

	if (!*name || *name == '.' || strstr(name, "..") ||
	    name[strlen(name) - 1] == '.' || !strchr(name, '.'))
		return -1;
	for (c = name; *c; c++)
		if (!(islower((unsigned char)*c) || isdigit((unsigned char)*c) ||
		      *c == '_' || *c == '.' || *c == '-'))
			return -1;
	if (strlen(name) + sizeof("/proc/sys/") > len)
		return -1;
	i = (size_t)snprintf(buf, len, "/proc/sys/%s", name);
	for (c = buf + sizeof("/proc/sys/") - 1; *c; c++)
		if (*c == '.')
			buf[c - buf] = '/';
	return i < len ? 0 : -1;
}
