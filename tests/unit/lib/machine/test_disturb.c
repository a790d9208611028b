// SPDX-License-Identifier: GPL-2.0
/*
 * Disturbed samples (disturb.c) on synthetic snapshots: each bound on
 * its own side, fields a sample did not measure ignored, the fate of an
 * attempt under retry/keep/drop with the per-repetition and total retry
 * bounds, the accounting balance kept + dropped + retried = attempts,
 * the share of time lost, the merge of sweep rounds, and one live
 * snapshot pair of this thread (monotonic counters, the right CPU).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <string.h>

#include "result.h"
#include "tap.h"
#include "disturb_src.h"

#define ALL_VALID (VSB_DIST_SWITCH | VSB_DIST_MIGRATED | VSB_DIST_RUNDELAY | \
		   VSB_DIST_STEAL | VSB_DIST_IRQS)

/* A 10 ms batch nothing happened in. */
static struct vsb_sample quiet(void)
{
	struct vsb_sample s;

	memset(&s, 0, sizeof(s));
	s.ns = 10e6;
	s.ops = 1000;
	s.dist_valid = ALL_VALID;
	return s;
}

static unsigned int judge(const struct vsb_sample *s)
{
	return vsb_disturb_judge(s, &vsb_disturb_default_bounds);
}

static void test_bounds(void)
{
	struct vsb_sample s = quiet();

	TAP_OK(judge(&s) == 0, "a quiet batch is not disturbed");
	s.nivcsw = 1;
	TAP_OK(judge(&s) == VSB_DIST_SWITCH, "one involuntary switch disturbs");
	s = quiet();
	s.migrations = 1;
	TAP_OK(judge(&s) == VSB_DIST_MIGRATED, "a migration disturbs");
	s = quiet();
	s.run_delay_ns = 5000;	/* 0.05% of 10 ms */
	TAP_OK(judge(&s) == 0, "run delay of 0.05%% of the batch does not");
	s.run_delay_ns = 20000;	/* 0.2% */
	TAP_OK(judge(&s) == VSB_DIST_RUNDELAY, "run delay of 0.2%% does");
	s = quiet();
	s.steal_ns = 50000;	/* 0.5% */
	TAP_OK(judge(&s) == 0, "steal of 0.5%% does not");
	s.steal_ns = 200000;	/* 2% */
	TAP_OK(judge(&s) == VSB_DIST_STEAL, "steal of 2%% does");
	s = quiet();
	s.irqs = 22;		/* 2 + 2000/s * 10 ms */
	TAP_OK(judge(&s) == 0, "22 interrupts in 10 ms are the allowance");
	s.irqs = 23;
	TAP_OK(judge(&s) == VSB_DIST_IRQS, "23 are past it");
	s = quiet();
	s.nivcsw = 5;
	s.migrations = 2;
	s.run_delay_ns = 5000000;
	s.steal_ns = 5000000;
	s.irqs = 1000;
	s.dist_valid = 0;
	TAP_OK(judge(&s) == 0, "fields the sample did not measure are ignored");
	s.dist_valid = VSB_DIST_SWITCH | VSB_DIST_IRQS;
	TAP_OK(judge(&s) == (VSB_DIST_SWITCH | VSB_DIST_IRQS),
	       "only the measured ones count, every reason at once");
}

/* One attempt of @n workers, @nd of them switched; returns its fate. */
static enum vsb_disturb_fate attempt(struct vsb_disturb_counts *c,
				     unsigned int n, unsigned int nd)
{
	unsigned int i, got = 0;

	for (i = 0; i < n; i++) {
		struct vsb_sample s = quiet();

		if (i < nd) {
			s.nivcsw = 1;
			s.run_delay_ns = 2000000;	/* 20% of the batch */
		}
		s.disturbed = judge(&s);
		got += (unsigned int)vsb_disturb_add(c, &s);
	}
	return vsb_disturb_settle(c, n, got);
}

static int balanced(const struct vsb_disturb_counts *c)
{
	return c->kept + c->dropped + c->retried == c->attempts;
}

static void test_keep_drop(void)
{
	struct vsb_disturb_counts c;

	vsb_disturb_counts_init(&c, VSB_DISTURB_KEEP, 10);
	TAP_OK(attempt(&c, 2, 1) == VSB_FATE_KEEP && attempt(&c, 2, 0) == VSB_FATE_KEEP,
	       "keep: disturbed or not, kept");
	TAP_OK(c.kept == 4 && c.kept_disturbed == 1 && c.disturbed == 1 &&
	       c.reason[0] == 1 && c.reason[2] == 1 && balanced(&c),
	       "keep: 4 kept, 1 of them disturbed (switch and run delay), balanced");
	vsb_disturb_counts_init(&c, VSB_DISTURB_DROP, 10);
	TAP_OK(attempt(&c, 2, 1) == VSB_FATE_DROP && attempt(&c, 2, 0) == VSB_FATE_KEEP,
	       "drop: a disturbed repetition goes, a quiet one stays");
	TAP_OK(c.dropped == 2 && c.kept == 2 && c.kept_disturbed == 0 && balanced(&c),
	       "drop: both samples of the disturbed repetition dropped, balanced");
	vsb_disturb_counts_init(&c, VSB_DISTURB_OFF, 10);
	TAP_OK(!c.on && attempt(&c, 1, 1) == VSB_FATE_KEEP, "off: nothing decided");
	TAP_OK(vsb_disturb_parse_policy("retry") == VSB_DISTURB_RETRY &&
	       vsb_disturb_parse_policy("off") == VSB_DISTURB_OFF &&
	       vsb_disturb_parse_policy("maybe") < 0 &&
	       !strcmp(vsb_disturb_policy_name(VSB_DISTURB_DROP), "drop"),
	       "policy names");
}

static void test_retry(void)
{
	struct vsb_disturb_counts c;
	int i, n;

	vsb_disturb_counts_init(&c, VSB_DISTURB_RETRY, 10);
	for (i = 0; i < VSB_DISTURB_RETRIES_PER_REP; i++)
		TAP_OK(attempt(&c, 2, 2) == VSB_FATE_RETRY, "retry: attempt %d timed again",
		       i + 1);
	TAP_OK(attempt(&c, 2, 2) == VSB_FATE_KEEP,
	       "retry: after %d retries the repetition is kept, marked",
	       VSB_DISTURB_RETRIES_PER_REP);
	TAP_OK(c.retried == 6 && c.kept == 2 && c.kept_disturbed == 2 &&
	       c.attempts == 8 && balanced(&c), "retry: 6 retried, 2 kept disturbed, balanced");
	TAP_OK(attempt(&c, 2, 1) == VSB_FATE_RETRY && attempt(&c, 2, 0) == VSB_FATE_KEEP,
	       "the next repetition has its own retries; a quiet retry is kept");

	/* total cap: max(repeat, 3) = 4 for 4 repetitions, each always disturbed */
	vsb_disturb_counts_init(&c, VSB_DISTURB_RETRY, 4);
	for (i = 0, n = 0; i < 4; n++)
		if (attempt(&c, 1, 1) != VSB_FATE_RETRY)
			i++;
	TAP_OK(c.retries == 4 && c.retried == 4 && n == 8 && c.kept == 4 &&
	       c.kept_disturbed == 4 && balanced(&c),
	       "retry: at most 4 retries in all for 4 repetitions (%d attempts)", n);
	TAP_NEAR(vsb_disturb_lost_share(&c), 0.2, 1e-9, "share of time lost: 20%%");
}

static void test_merge_format(void)
{
	struct vsb_disturb_counts a, b;
	char line[512];

	vsb_disturb_counts_init(&a, VSB_DISTURB_RETRY, 1);
	vsb_disturb_counts_init(&b, VSB_DISTURB_RETRY, 1);
	attempt(&a, 2, 1);
	attempt(&a, 2, 0);
	attempt(&b, 2, 0);
	vsb_disturb_merge(&a, &b);
	TAP_OK(a.attempts == 6 && a.retried == 2 && a.kept == 4 && a.disturbed == 1 &&
	       balanced(&a), "merge: rounds add up, balanced");
	vsb_disturb_format(&a, line, sizeof(line));
	TAP_OK(strstr(line, "disturbed: 1 of 6 samples (switch 1, run-delay 1)") &&
	       strstr(line, "4 kept (0 of them disturbed), 0 dropped, 2 retried"),
	       "text line: %s", line);
	a.on = 0;
	vsb_disturb_format(&a, line, sizeof(line));
	TAP_OK(!line[0], "no text line when off");
}

/* This thread's own snapshots: the counters move forward, the CPU is ours. */
static void test_live(void)
{
	struct vsb_disturb_src src;
	struct vsb_disturb_snap a, b;
	struct vsb_sample s = quiet();
	cpu_set_t set;
	int cpu = sched_getcpu();
	volatile unsigned long x = 0;
	unsigned long i;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	vsb_disturb_open(&src, cpu);
	TAP_OK(src.valid & VSB_DIST_SWITCH && src.valid & VSB_DIST_MIGRATED,
	       "switches and migrations are always measured (valid %#x)", src.valid);
	vsb_disturb_snap(&src, &a);
	for (i = 0; i < 20000000; i++)
		x += i;
	vsb_disturb_snap(&src, &b);
	vsb_disturb_diff(&src, &a, &b, &s);
	TAP_OK(a.cpu == cpu && b.cpu == cpu && s.migrations == 0,
	       "pinned: no migration seen (CPU %d)", cpu);
	TAP_OK(b.nivcsw >= a.nivcsw && b.run_delay_ns >= a.run_delay_ns &&
	       b.irqs >= a.irqs && b.steal_ns >= a.steal_ns,
	       "counters only move forward (%llu switches, %llu ns delay, %llu irqs)",
	       (unsigned long long)s.nivcsw, (unsigned long long)s.run_delay_ns,
	       (unsigned long long)s.irqs);
	vsb_disturb_fit(&src, 1e3);	/* a 1 us batch affords no file read */
	TAP_OK(!(src.valid & (VSB_DIST_IRQS | VSB_DIST_STEAL)),
	       "a 1 us batch: no per-batch /proc/stat or interrupt reads");
	vsb_disturb_close(&src);
}

int main(void)
{
	test_bounds();
	test_keep_drop();
	test_retry();
	test_merge_format();
	test_live();
	return tap_done();
}
