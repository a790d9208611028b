// SPDX-License-Identifier: GPL-2.0
/*
 * The environment record's DAMON line, read from fake sysfs trees: a
 * kdamond on with its operations, sampling interval and schemes, one
 * off, DAMON's own modules, and a kernel without DAMON at all.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "damon.h"
#include "tap.h"

static char dir[] = "/tmp/vsb-damonXXXXXX";

/* write @text to @dir/@rel, making the folders on the way */
static void put(const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	if (system(cmd))
		return;
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void describe(const char *admin, const char *modules, char *buf, size_t len)
{
	char a[300], m[300];

	snprintf(a, sizeof(a), "%s/%s", dir, admin);
	snprintf(m, sizeof(m), "%s/%s", dir, modules);
	vsb_damon_describe(a, m, buf, len);
}

int main(void)
{
	char buf[512], cmd[64];

	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	/* the development VM's: one paddr kdamond, proactive reclaim */
	put("a/kdamonds/nr_kdamonds", "2\n");
	put("a/kdamonds/0/state", "on\n");
	put("a/kdamonds/0/contexts/0/operations", "paddr\n");
	put("a/kdamonds/0/contexts/0/monitoring_attrs/intervals/sample_us", "500000\n");
	put("a/kdamonds/0/contexts/0/schemes/nr_schemes", "2\n");
	put("a/kdamonds/0/contexts/0/schemes/0/action", "pageout\n");
	put("a/kdamonds/0/contexts/0/schemes/1/action", "lru_prio\n");
	put("a/kdamonds/1/state", "off\n");
	put("a/kdamonds/1/contexts/0/operations", "vaddr\n");
	put("m/damon_reclaim/parameters/enabled", "N\n");
	describe("a", "m", buf, sizeof(buf));
	TAP_OK(!strcmp(buf, "1 kdamond on (0: paddr, sampling every 500000 us, "
		       "schemes: pageout, lru_prio)"),
	       "damon: the kdamond on, its operations, interval and schemes; the one off left out (%s)", buf);

	put("m/damon_stat/parameters/enabled", "Y\n");
	put("a/kdamonds/1/state", "on\n");
	describe("a", "m", buf, sizeof(buf));
	TAP_OK(!strcmp(buf, "2 kdamonds on (0: paddr, sampling every 500000 us, "
		       "schemes: pageout, lru_prio; 1: vaddr, sampling every ? us, "
		       "schemes: none); damon_stat enabled"),
	       "damon: two on, missing files shown as such, an enabled module named (%s)", buf);

	put("a/kdamonds/0/state", "off\n");
	put("a/kdamonds/1/state", "off\n");
	put("m/damon_stat/parameters/enabled", "N\n");
	describe("a", "m", buf, sizeof(buf));
	TAP_OK(!strcmp(buf, "none running"), "damon: all off is 'none running' (%s)", buf);

	describe("nonexistent", "nonexistent", buf, sizeof(buf));
	TAP_OK(!strcmp(buf, "unavailable (no DAMON in this kernel)"),
	       "damon: no sysfs interface and no module is 'unavailable' (%s)", buf);

	describe("a", "m", buf, 8);
	TAP_OK(strlen(buf) < 8, "damon: a short buffer is cut, not overrun (%s)", buf);
	put("a/kdamonds/0/state", "on\n");
	describe("a", "m", buf, 12);
	TAP_OK(strlen(buf) == 11 && !strncmp(buf, "1 kdamond o", 11),
	       "damon: the line cut at the buffer's end (%s)", buf);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		printf("# could not remove %s\n", dir);
	return tap_done();
}
