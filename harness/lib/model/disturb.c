// SPDX-License-Identifier: GPL-2.0
/*
 * Disturbed samples: judging a sample against the bounds, the fate
 * --disturbed gives each attempt, the run's accounting and its report
 * (disturb_src.c reads the user-space snapshots).
 *
 * A repetition is judged as a whole: every worker measures the same
 * common window, so a disturbed worker's peers were measured against a
 * disturbed competitor too.  `drop` leaves the whole repetition out and
 * `retry` times it again, at most VSB_DISTURB_RETRIES_PER_REP times and
 * at most max(repeat, VSB_DISTURB_RETRIES_MIN_CAP) repetitions in all
 * (the timed work at most doubles); past either bound the last attempt
 * is kept, marked.  Counts are in samples, one per busy worker and
 * attempt: kept + dropped + retried = attempts.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "result.h"

/*
 * Any involuntary switch or migration in the window: another task had
 * the CPU.  Run delay above 0.1% and steal above 1% of the batch.  The
 * tick (HZ 100..1000) and the odd IPI are normal: interrupts count as a
 * disturbance above 2 + 2000 per second of batch.
 */
const struct vsb_disturb_bounds vsb_disturb_default_bounds = {
	.nivcsw = 0,
	.migrations = 0,
	.run_delay_frac = 0.001,
	.steal_frac = 0.01,
	.irqs_base = 2,
	.irqs_per_sec = 2000,
};

static const char *const policy_names[] = { "retry", "keep", "drop", "off" };
static const char *const reason_names[VSB_DIST_NREASONS] = {
	"switch", "migration", "run-delay", "steal", "irqs",
};

const char *vsb_disturb_reason_name(int i)
{
	return reason_names[i];
}

int vsb_disturb_parse_policy(const char *s)
{
	int i;

	for (i = 0; i < 4; i++)
		if (!strcmp(s, policy_names[i]))
			return i;
	return -1;
}

const char *vsb_disturb_policy_name(int policy)
{
	return policy >= 0 && policy < 4 ? policy_names[policy] : "?";
}

unsigned int vsb_disturb_judge(const struct vsb_sample *s,
			       const struct vsb_disturb_bounds *b)
{
	unsigned int v = s->dist_valid, why = 0;

	if (v & VSB_DIST_SWITCH && s->nivcsw > b->nivcsw)
		why |= VSB_DIST_SWITCH;
	if (v & VSB_DIST_MIGRATED && s->migrations > b->migrations)
		why |= VSB_DIST_MIGRATED;
	if (v & VSB_DIST_RUNDELAY && (double)s->run_delay_ns > b->run_delay_frac * s->ns)
		why |= VSB_DIST_RUNDELAY;
	if (v & VSB_DIST_STEAL && (double)s->steal_ns > b->steal_frac * s->ns)
		why |= VSB_DIST_STEAL;
	if (v & VSB_DIST_IRQS &&
	    (double)s->irqs > b->irqs_base + b->irqs_per_sec * s->ns / 1e9)
		why |= VSB_DIST_IRQS;
	return why;
}

void vsb_disturb_counts_init(struct vsb_disturb_counts *c, int policy,
			     unsigned long repeat)
{
	memset(c, 0, sizeof(*c));
	c->policy = policy;
	c->on = policy != VSB_DISTURB_OFF;
	c->retries_cap = repeat > VSB_DISTURB_RETRIES_MIN_CAP ? repeat :
			 VSB_DISTURB_RETRIES_MIN_CAP;
}

enum vsb_disturb_fate vsb_disturb_fate(const struct vsb_disturb_counts *c,
				       unsigned int ndisturbed)
{
	if (!ndisturbed || c->policy == VSB_DISTURB_KEEP ||
	    c->policy == VSB_DISTURB_OFF)
		return VSB_FATE_KEEP;
	if (c->policy == VSB_DISTURB_DROP)
		return VSB_FATE_DROP;
	if (c->retries_rep < VSB_DISTURB_RETRIES_PER_REP &&
	    c->retries < c->retries_cap)
		return VSB_FATE_RETRY;
	return VSB_FATE_KEEP;	/* out of retries: kept, marked */
}

int vsb_disturb_add(struct vsb_disturb_counts *c, const struct vsb_sample *s)
{
	int i;

	c->valid = c->attempts ? c->valid & s->dist_valid : s->dist_valid;
	c->attempts++;
	c->timed_ns += s->ns;
	if (s->dist_valid & VSB_DIST_RUNDELAY)
		c->lost_delay_ns += (double)s->run_delay_ns;
	if (s->dist_valid & VSB_DIST_STEAL)
		c->lost_steal_ns += (double)s->steal_ns;
	if (!s->disturbed)
		return 0;
	c->disturbed++;
	for (i = 0; i < VSB_DIST_NREASONS; i++)
		if (s->disturbed & (1u << i))
			c->reason[i]++;
	return 1;
}

enum vsb_disturb_fate vsb_disturb_settle(struct vsb_disturb_counts *c,
					 unsigned int n, unsigned int ndisturbed)
{
	enum vsb_disturb_fate f = vsb_disturb_fate(c, ndisturbed);

	switch (f) {
	case VSB_FATE_KEEP:
		c->kept += n;
		c->kept_disturbed += ndisturbed;
		c->retries_rep = 0;
		break;
	case VSB_FATE_DROP:
		c->dropped += n;
		c->retries_rep = 0;
		break;
	case VSB_FATE_RETRY:
		c->retried += n;
		c->retries_rep++;
		c->retries++;
		break;
	}
	return f;
}

void vsb_disturb_merge(struct vsb_disturb_counts *dst,
		       const struct vsb_disturb_counts *src)
{
	int i;

	if (!src->on)
		return;
	if (!dst->on || !dst->attempts) {
		dst->on = 1;
		dst->policy = src->policy;
		dst->valid = src->valid;
		memcpy(dst->sources, src->sources, sizeof(dst->sources));
	} else if (src->attempts) {
		dst->valid &= src->valid;
	}
	dst->attempts += src->attempts;
	dst->kept += src->kept;
	dst->kept_disturbed += src->kept_disturbed;
	dst->dropped += src->dropped;
	dst->retried += src->retried;
	dst->disturbed += src->disturbed;
	dst->retries += src->retries;
	dst->retries_cap += src->retries_cap;
	for (i = 0; i < VSB_DIST_NREASONS; i++)
		dst->reason[i] += src->reason[i];
	dst->timed_ns += src->timed_ns;
	dst->lost_delay_ns += src->lost_delay_ns;
	dst->lost_steal_ns += src->lost_steal_ns;
}

double vsb_disturb_lost_share(const struct vsb_disturb_counts *c)
{
	return c->timed_ns > 0 ?
	       (c->lost_delay_ns + c->lost_steal_ns) / c->timed_ns : 0;
}

/* "switch 3, run-delay 2" over the reasons seen, or "none". */
static void format_reasons(const struct vsb_disturb_counts *c, char *buf,
			   size_t len)
{
	size_t at = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < VSB_DIST_NREASONS && at < len; i++)
		if (c->reason[i])
			at += (size_t)snprintf(buf + at, len - at, "%s%s %lu",
					       at ? ", " : "", reason_names[i],
					       c->reason[i]);
	if (!buf[0])
		snprintf(buf, len, "none");
}

void vsb_disturb_format(const struct vsb_disturb_counts *c, char *buf,
			size_t len)
{
	char why[160];

	if (!c->on) {
		buf[0] = '\0';
		return;
	}
	format_reasons(c, why, sizeof(why));
	snprintf(buf, len, "disturbed: %lu of %lu samples (%s); --disturbed %s: "
		 "%lu kept (%lu of them disturbed), %lu dropped, %lu retried; "
		 "%.1f%% of the timed time lost", c->disturbed, c->attempts, why,
		 vsb_disturb_policy_name(c->policy), c->kept, c->kept_disturbed,
		 c->dropped, c->retried, 100 * vsb_disturb_lost_share(c));
}

/* "switch, migration, ..." of what every sample measured. */
