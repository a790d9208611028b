// SPDX-License-Identifier: GPL-2.0
/*
 * cost_cache.c - where this CPU's cost table is kept, and who this CPU
 * is: the table is keyed by vendor-family-model-stepping from
 * /proc/cpuinfo (cpuinfo.c, the reader the result record uses), so a
 * home shared by machines of several kinds keeps one table each, and a
 * table is never applied to a part it was not measured on.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vsb.h"
#include "cpuinfo.h"
#include "cost_probe.h"

int vsb_cost_host_key(struct vsb_cost_table *t)
{
	const struct vsb_cpuinfo *ci = vsb_cpuinfo_host();

	if (ci->family < 0 || ci->model_id < 0 || ci->stepping < 0 ||
	    !strcmp(ci->vendor, "unknown")) {
		vsb_err("/proc/cpuinfo names no vendor, family, model and stepping: "
			"no key to keep a cost table under");
		return VSB_EXIT_SKIP;
	}
	snprintf(t->vendor, sizeof(t->vendor), "%.15s", ci->vendor);
	t->family = (unsigned int)ci->family;
	t->model = (unsigned int)ci->model_id;
	t->stepping = (unsigned int)ci->stepping;
	snprintf(t->cpu_name, sizeof(t->cpu_name), "%.127s", ci->model);
	vsb_cost_table_set_key(t);
	return 0;
}

int vsb_cost_cache_dir(char *buf, size_t len)
{
	const char *env = getenv("VSB_COST_CACHE");
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	int n;

	if (env && *env)
		n = snprintf(buf, len, "%s", env);
	else if (xdg && *xdg)
		n = snprintf(buf, len, "%s/vmstat-bench/costs", xdg);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.cache/vmstat-bench/costs", home);
	else
		return -1;
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int vsb_cost_cache_path(const struct vsb_cost_table *t, char *buf, size_t len)
{
	char dir[4096];
	int n;

	if (vsb_cost_cache_dir(dir, sizeof(dir)))
		return -1;
	n = snprintf(buf, len, "%s/%s.costs", dir, t->key);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int vsb_cost_table_cached(struct vsb_cost_table *t)
{
	struct vsb_cost_table host;
	char path[4096];
	struct stat st;
	int ret;

	memset(&host, 0, sizeof(host));
	ret = vsb_cost_host_key(&host);
	if (ret)
		return ret == VSB_EXIT_SKIP ? 1 : ret;
	if (vsb_cost_cache_path(&host, path, sizeof(path)))
		return 1;
	if (lstat(path, &st) && errno == ENOENT)
		return 1;
	ret = vsb_cost_table_read(path, t);
	if (ret)
		return ret;
	if (strcmp(t->key, host.key)) {
		vsb_err("%s: a cost table of %s, not of this CPU (%s): refused",
			path, t->key, host.key);
		return VSB_EXIT_USAGE;
	}
	return 0;
}

int vsb_cost_table_save(const struct vsb_cost_table *t, const char *path,
			const char *opt)
{
	struct vsb_outfile o;
	char dir[4096], *slash;
	int ret;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (vsb_mkdir_p(dir, 0755)) {
			vsb_err("%s: cannot make the folder %s: %s", opt, dir,
				strerror(errno));
			return VSB_EXIT_USAGE;
		}
	}
	ret = vsb_outfile_open(&o, path, opt);
	if (ret)
		return ret;
	if (vsb_cost_table_write(o.f, t)) {
		vsb_err("%s: %s: write error", opt, path);
		vsb_outfile_abort(&o);
		return VSB_EXIT_ERROR;
	}
	return vsb_outfile_commit(&o);
}

void vsb_cost_meta_line(char *buf, size_t len)
{
	struct vsb_cost_table t;
	struct vsb_errlog log;
	char path[4096];
	int ret;

	vsb_errlog_begin(&log);
	ret = vsb_cost_table_cached(&t);
	vsb_errlog_end(&log);
	if (ret == 0 && !vsb_cost_cache_path(&t, path, sizeof(path)))
		snprintf(buf, len, "%s (%s)", t.key, path);
	else if (ret == 1)
		snprintf(buf, len, "none (not calibrated: vmstat-bench calibrate --costs)");
	else
		snprintf(buf, len, "none (%s)", log.text);
}
