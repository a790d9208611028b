// SPDX-License-Identifier: GPL-2.0
/*
 * What a result says about its disturbed samples: the metadata lines
 * (disturbed, disturbed_bounds, disturbed_sources) and the one warning
 * when another task competed for the workers' CPUs.  Apart from the
 * decision (disturb.c), which a result's merge uses and which knows no
 * result file.
 */
#include <stdio.h>
#include <string.h>

#include "disturb.h"
#include "result.h"

/* A warning when more than this share of the timed time was lost. */
#define VSB_DISTURB_WARN_SHARE	0.01

static void format_valid(unsigned int valid, char *buf, size_t len)
{
	size_t at = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < VSB_DIST_NREASONS && at < len; i++)
		if (valid & (1u << i))
			at += (size_t)snprintf(buf + at, len - at, "%s%s",
					       at ? "," : "", vsb_disturb_reason_name(i));
}

/*
 * The decision's words (disturb.c) worked out first, then the lines set
 * in one go, then the warning.
 */
void vsb_disturb_report(struct vsb_result *r, int warn)
{
	const struct vsb_disturb_counts *c = &r->dist;
	const struct vsb_disturb_bounds *b = &vsb_disturb_default_bounds;
	char line[512], valid[96];
	double share;
	const char *policy;

	format_valid(c->valid, valid, sizeof(valid));
	share = vsb_disturb_lost_share(c);
	policy = vsb_disturb_policy_name(c->policy);
	vsb_disturb_format(c, line, sizeof(line));
	if (!c->on) {
		vsb_result_meta(r, "disturbed", "off (--disturbed off: no bookkeeping)");
		return;
	}
	vsb_result_meta(r, "disturbed", "%s (run delay %.2f%%, steal %.2f%%)",
			line + strlen("disturbed: "),
			c->timed_ns > 0 ? 100 * c->lost_delay_ns / c->timed_ns : 0,
			c->timed_ns > 0 ? 100 * c->lost_steal_ns / c->timed_ns : 0);
	vsb_result_meta(r, "disturbed_bounds",
			"measured per batch: %s; disturbed when involuntary switches > %llu, "
			"migrations > %llu, run delay > %.1f%% or steal > %.0f%% of the batch, "
			"interrupts > %.0f + %.0f/s; retry: at most %d per repetition, "
			"%lu in all", valid[0] ? valid : "nothing",
			(unsigned long long)b->nivcsw, (unsigned long long)b->migrations,
			100 * b->run_delay_frac, 100 * b->steal_frac, b->irqs_base,
			b->irqs_per_sec, VSB_DISTURB_RETRIES_PER_REP, c->retries_cap);
	if (c->sources[0])
		vsb_result_meta(r, "disturbed_sources", "%s", c->sources);
	if (!warn || share < VSB_DISTURB_WARN_SHARE)
		return;
	vsb_warn("another task competes for the workers' CPUs: %.1f%% of the timed "
		 "time was lost (runnable but not running %.1f%%, steal %.1f%%); "
		 "%lu of %lu samples disturbed, --disturbed %s: %lu retried, "
		 "%lu dropped, %lu kept disturbed", 100 * share,
		 100 * c->lost_delay_ns / c->timed_ns,
		 100 * c->lost_steal_ns / c->timed_ns, c->disturbed, c->attempts,
		 policy, c->retried, c->dropped,
		 c->kept_disturbed);
}
