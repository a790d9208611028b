// SPDX-License-Identifier: GPL-2.0
/*
 * `vmstat-bench calibrate --costs`: what each primitive the cost model
 * prices costs on this CPU, in core cycles (lib/machine/cost_probe.c
 * times them, docs/costs.md says how).  The table goes to stdout, to
 * the cache under the CPU's key, where every result's record names it,
 * and with --costs-out to a file of the user's; `--show-costs FILE`
 * reads one back, checked, and prints it.
 *
 * With --kernel the kernel rows too, timed in the module where it runs
 * natively (cmd_calibrate_kernel.c); refused before any timing where it
 * does not.
 *
 * A measurement whose own check fails (the imul chain off 3 cycles, so
 * the add chain's clock is wrong; a LOCK cmpxchg no dearer than an add)
 * is measured again, twice at most, and then printed but kept nowhere:
 * exit 3, as a table no model should price with.
 */
#include <string.h>

#include "cost_probe.h"
#include "cmd_calibrate.h"
#include "vsb.h"

#define COST_TRIES 3

static int show(const char *path)
{
	struct vsb_cost_table t;
	int ret = vsb_cost_table_read(path, &t);

	if (ret)
		return ret;
	if (vsb_cost_table_write(stdout, &t)) {
		vsb_err("stdout: write error");
		return VSB_EXIT_ERROR;
	}
	return 0;
}

/* Where the table goes, each refused (one line) before any timing. */
static int targets(const struct cal_costs_args *a, const struct vsb_cost_table *t,
		   char *cache, size_t len)
{
	if (vsb_cost_cache_path(t, cache, len)) {
		cache[0] = '\0';
		if (!a->out) {
			vsb_err("calibrate --costs: no cache folder (set HOME, "
				"XDG_CACHE_HOME or VSB_COST_CACHE) and no --costs-out: "
				"the table would be kept nowhere");
			return VSB_EXIT_USAGE;
		}
	}
	if (cache[0] && vsb_outfile_check(cache, "the cost cache"))
		return VSB_EXIT_USAGE;
	return a->out ? vsb_outfile_check(a->out, "--costs-out") : 0;
}

/* Measured until its check holds, COST_TRIES times at most: 0 held. */
static int measure(struct vsb_cost_table *t, long cpu, char *a, char *b,
		   size_t len, int *tries, int *ret)
{
	int bad = 1;

	for (*tries = 1; *tries <= COST_TRIES; ++*tries) {
		*ret = vsb_cost_measure(t, (int)cpu);
		if (*ret)
			return 1;
		bad = vsb_cost_check(t, a, b, len);
		if (!bad)
			break;
	}
	if (*tries > COST_TRIES)
		*tries = COST_TRIES;
	return bad;
}

int vsb_calibrate_costs(const struct cal_costs_args *a, long cpu)
{
	char cache[4096], ca[200], cb[200];
	struct vsb_cost_table t;
	int ret, tries, bad;

	if (a->show)
		return show(a->show);
	memset(&t, 0, sizeof(t));
	ret = vsb_cost_host_key(&t);
	if (ret)
		return ret;
	ret = targets(a, &t, cache, sizeof(cache));
	if (!ret && a->kernel)
		ret = vsb_calibrate_kernel_ready();
	if (ret)
		return ret;
	bad = measure(&t, cpu, ca, cb, sizeof(ca), &tries, &ret);
	if (!ret && !bad && a->kernel)
		ret = vsb_calibrate_kernel_rows(&t, cpu);
	if (ret)
		return ret;
	vsb_cost_table_write(stdout, &t);
	printf("# check: %s\n# check: %s\n# tries: %d of %d (a failed check is "
	       "measured again)\n# cpu: %ld (pinned)\n", ca, cb, tries, COST_TRIES, cpu);
	fflush(stdout);
	if (bad) {
		vsb_err("calibrate --costs: the table failed its own check %d times "
			"(%s): not trustworthy, kept nowhere", tries,
			strstr(ca, "FAILED") ? "imul_chain" : "lock_cmpxchg");
		return VSB_EXIT_UNTRUSTED;
	}
	if (cache[0]) {
		ret = vsb_cost_table_save(&t, cache, "the cost cache");
		if (ret)
			return ret;
		printf("# written: %s\n", cache);
	}
	if (a->out) {
		ret = vsb_cost_table_save(&t, a->out, "--costs-out");
		if (ret)
			return ret;
		printf("# written: %s\n", a->out);
	}
	return 0;
}
