// SPDX-License-Identifier: GPL-2.0
/*
 * CPU list parsing and formatting: the syntax users type for --cpus and
 * what every result row records.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "vsb.h"
#include "tap.h"

static struct vsb_cpulist cl;

static int parses(const char *s)
{
	return vsb_cpulist_parse(s, &cl, "--cpus") == 0;
}

/*
 * The lists' arrays live in one pool: small structs that copy by value,
 * equal lists sharing an array, a copy unchanged when the original is
 * rebuilt, every CPU number up to the maximum.
 */
static void test_pool(void)
{
	struct vsb_cpulist a, b, copy;
	char buf[64], all[32];
	int cpu[2] = { 5, 7 };

	TAP_OK(sizeof(a) <= 16, "a list is %zu bytes, not an inline array", sizeof(a));
	TAP_OK(parses("0-3"), "0-3 parses");
	a = cl;
	TAP_OK(parses("0-3") && cl.cpu == a.cpu, "the same list twice: one array");
	copy = cl;
	TAP_OK(parses("8-9") && cl.cpu != copy.cpu, "another list: another array");
	vsb_cpulist_format(&copy, buf, sizeof(buf), ',');
	TAP_OK(copy.n == 4 && !strcmp(buf, "0-3"),
	       "the copy is untouched when its source is rebuilt (%s)", buf);
	vsb_cpulist_set(&b, cpu, 2);
	cpu[0] = 6;
	TAP_OK(b.n == 2 && b.cpu[0] == 5 && b.cpu[1] == 7,
	       "set copies its scratch array");
	vsb_cpulist_set(&b, cpu, 0);
	TAP_OK(b.n == 0 && !b.cpu, "an empty list has no array");
	snprintf(all, sizeof(all), "0-%d", VSB_MAX_CPUS - 1);
	TAP_OK(parses(all) && cl.n == VSB_MAX_CPUS && cl.cpu[VSB_MAX_CPUS - 1] ==
	       VSB_MAX_CPUS - 1, "every CPU number: %s", all);
	TAP_OK(!parses("0,0") && cl.n == 0, "a refused list leaves it empty");
}

static void *report_affinity(void *arg)
{
	pthread_getaffinity_np(pthread_self(), sizeof(cpu_set_t), arg);
	return NULL;
}

/*
 * Helper threads go where no worker runs: the allowed CPUs less the
 * busy ones, and a thread made with the pinned attributes runs there.
 * The test pins itself to CPU 0, and to CPUs 0-1 where there are two.
 */
static void test_spare(void)
{
	struct vsb_cpulist busy, spare;
	pthread_attr_t attr;
	pthread_t th;
	cpu_set_t set, got;
	int two;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	CPU_SET(1, &set);
	two = !sched_setaffinity(0, sizeof(set), &set) &&
	      !sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) == 2;
	if (!two) {
		CPU_ZERO(&set);
		CPU_SET(0, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	vsb_cpulist_set(&busy, NULL, 0);
	vsb_cpulist_spare(&busy, &spare);
	TAP_OK(spare.n == (two ? 2 : 1) && spare.cpu[0] == 0,
	       "no worker: every allowed CPU is spare (%d)", spare.n);
	parses("0");
	vsb_cpulist_spare(&cl, &spare);
	TAP_OK(two ? spare.n == 1 && spare.cpu[0] == 1 : spare.n == 0,
	       "a worker on CPU 0: %s", two ? "CPU 1 is spare" : "no CPU is spare");
	parses(two ? "0-1" : "0");
	vsb_cpulist_spare(&cl, &spare);
	TAP_OK(spare.n == 0, "workers on every allowed CPU: none is spare");
	if (!two) {
		printf("ok %d # SKIP a helper thread pinned to the spare CPU: one CPU here\n",
		       ++tap_n);
		return;
	}
	parses("0");
	vsb_cpulist_spare(&cl, &spare);
	pthread_attr_init(&attr);
	vsb_cpulist_pin_attr(&spare, &attr);
	CPU_ZERO(&got);
	TAP_OK(!pthread_create(&th, &attr, report_affinity, &got) && !pthread_join(th, NULL) &&
	       CPU_COUNT(&got) == 1 && CPU_ISSET(1, &got),
	       "a helper thread made with the pinned attributes runs on CPU 1 only");
	pthread_attr_destroy(&attr);
}

int main(void)
{
	char buf[256];

	TAP_OK(parses("0") && cl.n == 1 && cl.cpu[0] == 0, "single CPU");
	TAP_OK(parses("0-3,8,10-11") && cl.n == 7 && cl.cpu[4] == 8 && cl.cpu[6] == 11,
	       "ranges and singles");
	vsb_cpulist_format(&cl, buf, sizeof(buf), ',');
	TAP_OK(!strcmp(buf, "0-3,8,10-11"), "formats back to the same list (%s)", buf);
	vsb_cpulist_format(&cl, buf, sizeof(buf), ';');
	TAP_OK(!strcmp(buf, "0-3;8;10-11"), "CSV form uses ';' (%s)", buf);
	TAP_OK(parses("3,1") && cl.cpu[0] == 3 && cl.cpu[1] == 1, "order is kept (worker i on cpu[i])");
	TAP_OK(!parses(""), "empty list refused");
	TAP_OK(!parses("1-"), "open range refused");
	TAP_OK(!parses("3-1"), "reversed range refused");
	TAP_OK(!parses("0,,1"), "empty element refused");
	TAP_OK(!parses("a"), "letters refused");
	TAP_OK(!parses("-1"), "negative refused");
	TAP_OK(!parses("0,0"), "duplicate CPU refused");
	TAP_OK(!parses("0-2,1"), "overlap refused");
	TAP_OK(!parses("99999"), "CPU beyond the maximum refused");
	TAP_OK(!parses("0 1"), "spaces refused");
	test_pool();
	test_spare();
	TAP_OK(!vsb_cpulist_parse_sysfs("0-3,8\n", &cl) && cl.n == 5 && cl.cpu[4] == 8,
	       "a sysfs list, newline and all");
	TAP_OK(!vsb_cpulist_parse_sysfs("\n", &cl) && cl.n == 0 && !cl.cpu,
	       "an empty sysfs list: no CPU");
	TAP_OK(vsb_cpulist_parse_sysfs("0,,1\n", &cl) == -1 && cl.n == 0,
	       "a malformed sysfs list: -1, empty");
	return tap_done();
}
