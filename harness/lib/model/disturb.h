/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Disturbed samples (issue 11): what else happened on a worker's CPU
 * during one timed batch, read outside the timed window, the bounds past
 * which a sample is "disturbed", and the fate --disturbed gives it.
 *
 * The snapshots (user space) are per worker thread, taken just after the
 * sample's start barrier and just after the batch: involuntary context
 * switches (getrusage(RUSAGE_THREAD)), run delay (schedstat), the CPU
 * before and after (migrations), steal time and interrupts of the CPU
 * (/proc/stat, /proc/interrupts or /proc/softirqs; disturb_src.c says
 * which and why).  The module fills the same sample fields from the kernel's
 * own counters (kmod/run.c).  The decision and the accounting are pure
 * functions of the samples, shared by every backend and unit-tested.
 */
#ifndef VSB_DISTURB_H
#define VSB_DISTURB_H

#include <stdint.h>

struct vsb_sample;
struct vsb_result;

/* Reasons, also the bits of what a sample measured (vsb_sample.dist_valid) */
#define VSB_DIST_SWITCH		(1u << 0)	/* involuntary context switch */
#define VSB_DIST_MIGRATED	(1u << 1)	/* ran on another CPU */
#define VSB_DIST_RUNDELAY	(1u << 2)	/* runnable, not running */
#define VSB_DIST_STEAL		(1u << 3)	/* the hypervisor took the CPU */
#define VSB_DIST_IRQS		(1u << 4)	/* more interrupts than the tick */
#define VSB_DIST_NREASONS	5

/* --disturbed */
enum vsb_disturb_policy {
	VSB_DISTURB_RETRY,	/* rerun the repetition, bounded */
	VSB_DISTURB_KEEP,	/* keep it, marked */
	VSB_DISTURB_DROP,	/* leave it out */
	VSB_DISTURB_OFF,	/* no bookkeeping at all (the cost measurement) */
};

/* What becomes of one attempt of a repetition. */
enum vsb_disturb_fate {
	VSB_FATE_KEEP,
	VSB_FATE_DROP,
	VSB_FATE_RETRY,
};

/* Retry bounds: per repetition, and in all (at least this many). */
#define VSB_DISTURB_RETRIES_PER_REP	3
#define VSB_DISTURB_RETRIES_MIN_CAP	3

/*
 * Bounds.  A switch or a migration in the window is a disturbance
 * whatever its length.  Run delay and steal are judged against the
 * batch's own duration; interrupts against a tick allowance.
 */
struct vsb_disturb_bounds {
	uint64_t nivcsw;		/* more than this many switches */
	uint64_t migrations;
	double run_delay_frac;		/* of the batch's ns */
	double steal_frac;
	double irqs_base, irqs_per_sec;	/* more than base + rate * seconds */
};
extern const struct vsb_disturb_bounds vsb_disturb_default_bounds;

/* The run's accounting, in samples (one per busy worker per attempt). */
struct vsb_disturb_counts {
	int on;				/* bookkeeping done (policy != off) */
	int policy;			/* enum vsb_disturb_policy */
	unsigned long attempts;		/* samples timed */
	unsigned long kept;		/* in the result, disturbed or not */
	unsigned long kept_disturbed;	/* of which past a bound */
	unsigned long dropped;
	unsigned long retried;		/* discarded and timed again */
	unsigned long disturbed;	/* attempts past a bound */
	unsigned long reason[VSB_DIST_NREASONS];	/* disturbed, by reason */
	unsigned int valid;		/* VSB_DIST_* measured in every sample */
	double timed_ns;		/* sum of the attempts' ns */
	double lost_delay_ns, lost_steal_ns;	/* run delay, steal */
	unsigned int retries_rep;	/* current repetition's retries */
	unsigned long retries;		/* repetitions retried, in all */
	unsigned long retries_cap;	/* retries allowed in all */
	char sources[256];		/* how each quantity was read */
};

/* ---- decision (pure) ---- */
int vsb_disturb_parse_policy(const char *s);
const char *vsb_disturb_policy_name(int policy);
/* "switch", "migration", "run-delay", "steal", "irqs": bit i of VSB_DIST_* */
const char *vsb_disturb_reason_name(int i);
/* The VSB_DIST_* bounds @s passes; 0: not disturbed. */
unsigned int vsb_disturb_judge(const struct vsb_sample *s,
			       const struct vsb_disturb_bounds *b);
void vsb_disturb_counts_init(struct vsb_disturb_counts *c, int policy,
			     unsigned long repeat);
/* The fate of an attempt in which @ndisturbed of @n samples are disturbed. */
enum vsb_disturb_fate vsb_disturb_fate(const struct vsb_disturb_counts *c,
				       unsigned int ndisturbed);
/* Count one judged sample of an attempt; 1 when it is disturbed. */
int vsb_disturb_add(struct vsb_disturb_counts *c, const struct vsb_sample *s);
/*
 * Close an attempt of @n samples, @ndisturbed of them disturbed (each
 * already added): its fate, counted as kept, dropped or retried.
 */
enum vsb_disturb_fate vsb_disturb_settle(struct vsb_disturb_counts *c,
					 unsigned int n, unsigned int ndisturbed);
void vsb_disturb_merge(struct vsb_disturb_counts *dst,
		       const struct vsb_disturb_counts *src);
double vsb_disturb_lost_share(const struct vsb_disturb_counts *c);
/* Metadata lines and, with @warn, when another task competed, the warning. */
void vsb_disturb_report(struct vsb_result *r, int warn);
/* One line for the text table ("" when off). */
void vsb_disturb_format(const struct vsb_disturb_counts *c, char *buf,
			size_t len);

#endif /* VSB_DISTURB_H */
