// SPDX-License-Identifier: GPL-2.0
/*
 * Which DAMON monitors run (damon.h).  Only the first context of each
 * kdamond is described: DAMON's sysfs takes at most one per kdamond.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "damon.h"
#include "vsb.h"

/* the in-kernel users of DAMON that run one of their own when enabled */
static const char *const damon_modules[] = { "damon_reclaim", "damon_lru_sort",
					     "damon_stat" };

/* Append to @buf[@len] at *@off, which stops growing once it is full. */
static void add(char *buf, size_t len, size_t *off, const char *sep, const char *s)
{
	if (*off < len)
		*off += (size_t)snprintf(buf + *off, len - *off, "%s%s",
					 *off ? sep : "", s);
}

/* The actions of context 0's schemes of kdamond @dir: "pageout, lru_prio". */
static void scheme_actions(const char *dir, char *buf, size_t len)
{
	char path[512], act[32];
	size_t off = 0;
	long n = 0, i;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/contexts/0/schemes/nr_schemes", dir);
	vsb_read_file_long(path, &n);
	for (i = 0; i < n && i < 64; i++) {
		snprintf(path, sizeof(path), "%s/contexts/0/schemes/%ld/action", dir, i);
		if (vsb_read_file_str(path, act, sizeof(act)))
			snprintf(act, sizeof(act), "?");
		add(buf, len, &off, ", ", act);
	}
}

/* Kdamond @k of @admin as "0: paddr, sampling every 500000 us, ...", if on. */
static int kdamond_on(const char *admin, long k, char *buf, size_t len)
{
	char dir[400], path[512], state[16], ops[32], acts[128], every[32] = "? us";
	long sample_us = -1;

	snprintf(dir, sizeof(dir), "%s/kdamonds/%ld", admin, k);
	snprintf(path, sizeof(path), "%s/state", dir);
	if (vsb_read_file_str(path, state, sizeof(state)) || strcmp(state, "on"))
		return 0;
	snprintf(path, sizeof(path), "%s/contexts/0/operations", dir);
	if (vsb_read_file_str(path, ops, sizeof(ops)))
		snprintf(ops, sizeof(ops), "?");
	snprintf(path, sizeof(path), "%s/contexts/0/monitoring_attrs/intervals/sample_us", dir);
	vsb_read_file_long(path, &sample_us);
	scheme_actions(dir, acts, sizeof(acts));
	if (sample_us >= 0)
		snprintf(every, sizeof(every), "%ld us", sample_us);
	snprintf(buf, len, "%ld: %s, sampling every %s, schemes: %s", k, ops, every,
		 acts[0] ? acts : "none");
	return 1;
}

void vsb_damon_describe(const char *admin, const char *modules, char *buf,
			size_t len)
{
	char path[512], one[600], on[512] = "", v[8];
	size_t off = 0, i, nmod = 0;
	long nr = -1, k, non = 0;

	snprintf(path, sizeof(path), "%s/kdamonds/nr_kdamonds", admin);
	vsb_read_file_long(path, &nr);
	for (k = 0; k < nr && k < 64; k++) {
		if (!kdamond_on(admin, k, one, sizeof(one)))
			continue;
		non++;
		add(on, sizeof(on), &off, "; ", one);
	}
	buf[0] = '\0';
	off = 0;
	if (non) {
		snprintf(one, sizeof(one), "%ld kdamond%s on (%s)", non,
			 non == 1 ? "" : "s", on);
		add(buf, len, &off, "", one);
	}
	for (i = 0; i < sizeof(damon_modules) / sizeof(damon_modules[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s/parameters/enabled", modules,
			 damon_modules[i]);
		if (vsb_read_file_str(path, v, sizeof(v)))
			continue;
		nmod++;
		snprintf(one, sizeof(one), "%s enabled", damon_modules[i]);
		if (v[0] == 'Y')
			add(buf, len, &off, "; ", one);
	}
	if (!off)
		snprintf(buf, len, "%s", nr >= 0 || nmod ? "none running" :
			 "unavailable (no DAMON in this kernel)");
}
