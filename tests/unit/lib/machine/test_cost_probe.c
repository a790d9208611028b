// SPDX-License-Identifier: GPL-2.0
/*
 * calibrate --costs's own check, on this CPU (cost_probe.c): once the
 * dependent add chain has set the clock, a dependent imul chain measures
 * 3.0 cycles within 10% (its latency on every Intel core since Nehalem
 * and every AMD Zen, Agner Fog's tables), and a LOCK cmpxchg costs more
 * than a dependent add.  `make test` runs beside other tests on few
 * CPUs: the measurement is many short samples, medians, pinned, and a
 * failed check is measured again twice before it fails.  No timing
 * lock is taken: it is a check, not a figure written down.
 *
 * And the cache: the path under VSB_COST_CACHE and the key, a table
 * saved there found again, none found where none was saved.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cost_probe.h"
#include "vsb.h"
#include "tap.h"

#define TRIES 3

static void test_self_check(struct vsb_cost_table *t)
{
	char a[160], b[160];
	int i, ret = -1, bad = 1;

	for (i = 0; i < TRIES && bad; i++) {
		ret = vsb_cost_measure_n(t, -1, 101);
		if (ret)
			break;
		bad = vsb_cost_check(t, a, b, sizeof(a));
		printf("# try %d: %s; %s (tsc_per_cycle %.4f)\n", i + 1, a, b,
		       t->tsc_per_cycle);
	}
	if (ret == VSB_EXIT_SKIP) {
		printf("ok 1 # SKIP no x86-64 or no CPU key to time\n");
		tap_n++;
		return;
	}
	TAP_OK(ret == 0, "measured (exit %d)", ret);
	TAP_NEAR(t->p[VSB_PRIM_IMUL_CHAIN].median, 3.0, 0.3,
		 "imul chain 3.0 cycles within 10%%: %.3f (%d tries)",
		 t->p[VSB_PRIM_IMUL_CHAIN].median, i);
	TAP_OK(t->p[VSB_PRIM_LOCK_CMPXCHG].median > t->p[VSB_PRIM_ADD_CHAIN].median,
	       "lock cmpxchg %.3f cycles > a dependent add %.3f",
	       t->p[VSB_PRIM_LOCK_CMPXCHG].median, t->p[VSB_PRIM_ADD_CHAIN].median);
	TAP_OK(t->tsc_per_cycle > 0.05 && t->tsc_per_cycle < 20,
	       "a clock of %.4f TSC ticks a cycle", t->tsc_per_cycle);
	for (i = 0; i < VSB_PRIM_USER_N; i++)
		if (isnan(t->p[i].median) || t->p[i].n != 101 ||
		    !(t->p[i].lo <= t->p[i].median && t->p[i].median <= t->p[i].hi))
			break;
	TAP_OK(i == VSB_PRIM_USER_N, "every user-space row measured, lo <= median <= hi "
	       "(first bad: %s)", i < VSB_PRIM_USER_N ? vsb_prim_name(i) : "none");
	TAP_OK(isnan(t->p[VSB_PRIM_CLI_STI].median), "kernel rows left unmeasured");
}

static void test_cache(const struct vsb_cost_table *t)
{
	char dir[] = "/tmp/vsb-cost-cache-XXXXXX", path[4096], want[4200], line[4400];
	struct vsb_cost_table back;
	int ret;

	if (!mkdtemp(dir))
		return;
	setenv("VSB_COST_CACHE", dir, 1);
	TAP_OK(vsb_cost_cache_path(t, path, sizeof(path)) == 0 &&
	       snprintf(want, sizeof(want), "%s/%s.costs", dir, t->key) > 0 &&
	       !strcmp(path, want), "cache path VSB_COST_CACHE/KEY.costs: %s", path);
	TAP_OK(vsb_cost_table_cached(&back) == 1, "none cached yet");
	vsb_cost_meta_line(line, sizeof(line));
	TAP_OK(!strncmp(line, "none (not calibrated", 20), "metadata: %s", line);
	TAP_OK(vsb_cost_table_save(t, path, "cache") == 0, "saved");
	ret = vsb_cost_table_cached(&back);
	TAP_OK(ret == 0 && !strcmp(back.key, t->key) &&
	       fabs(back.p[VSB_PRIM_IMUL_CHAIN].median - t->p[VSB_PRIM_IMUL_CHAIN].median) < 1e-3,
	       "found again (%d), the same imul row", ret);
	snprintf(want, sizeof(want), "%s (%s)", t->key, path);
	vsb_cost_meta_line(line, sizeof(line));
	TAP_OK(!strcmp(line, want), "metadata: %s", line);
	unsetenv("VSB_COST_CACHE");
	setenv("XDG_CACHE_HOME", "/xdg", 1);
	TAP_OK(vsb_cost_cache_dir(path, sizeof(path)) == 0 &&
	       !strcmp(path, "/xdg/vmstat-bench/costs"), "then $XDG_CACHE_HOME: %s", path);
	unsetenv("XDG_CACHE_HOME");
	setenv("HOME", "/home/u", 1);
	TAP_OK(vsb_cost_cache_dir(path, sizeof(path)) == 0 &&
	       !strcmp(path, "/home/u/.cache/vmstat-bench/costs"), "then the home's: %s", path);
	snprintf(line, sizeof(line), "rm -rf %s", dir);
	if (system(line))
		printf("# could not remove %s\n", dir);
}

int main(void)
{
	struct vsb_cost_table t;

	test_self_check(&t);
	if (!t.key[0] && vsb_cost_host_key(&t))
		return tap_done();
	test_cache(&t);
	return tap_done();
}
