/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What else used a worker's CPU during a batch, read from /proc by the
 * worker around each batch (disturb_src.c); judging it is disturb.h's.
 */
#ifndef VSB_DISTURB_SRC_H
#define VSB_DISTURB_SRC_H

#include <stddef.h>
#include <stdint.h>

#include "disturb.h"

/* per worker thread */
struct vsb_disturb_snap {
	uint64_t nivcsw, run_delay_ns, steal_ns, irqs;
	int cpu;
};

struct vsb_disturb_src {
	int cpu;			/* the worker's CPU */
	int fd_sched;			/* /proc/thread-self/schedstat, or -1 */
	int fd_stat;			/* /proc/stat, or -1 */
	int fd_irq;			/* /proc/interrupts or /proc/softirqs, or -1 */
	int irq_softirqs;		/* fd_irq is /proc/softirqs */
	unsigned int valid;		/* VSB_DIST_* this source reads */
	double cost_stat_ns, cost_irq_ns;	/* one read each, measured */
	char *buf;
	size_t buflen;
};

/* Open what this thread can read; call on the worker, after pinning. */
void vsb_disturb_open(struct vsb_disturb_src *src, int cpu);
/*
 * Keep only the per-batch reads that cost under 1% of a batch of
 * @batch_ns (0: unknown, keep all): two reads per batch.
 */
void vsb_disturb_fit(struct vsb_disturb_src *src, double batch_ns);
void vsb_disturb_snap(struct vsb_disturb_src *src, struct vsb_disturb_snap *s);
/* Fill @out's disturbance fields from two snapshots around its batch. */
void vsb_disturb_diff(const struct vsb_disturb_src *src,
		      const struct vsb_disturb_snap *a,
		      const struct vsb_disturb_snap *b, struct vsb_sample *out);
void vsb_disturb_close(struct vsb_disturb_src *src);
/* The sources line of the metadata, from one worker's source. */
void vsb_disturb_describe(const struct vsb_disturb_src *src, double batch_ns,
			  char *buf, size_t len);

#endif /* VSB_DISTURB_SRC_H */
