// SPDX-License-Identifier: GPL-2.0
/*
 * User-space disturbance snapshots, one source per worker thread, read
 * just after the sample's start barrier and just after its batch (never
 * inside the timed window).
 *
 * What is read, and why:
 * - involuntary context switches: getrusage(RUSAGE_THREAD) ru_nivcsw
 *   (under a microsecond);
 * - run delay, the time the thread was runnable but not running:
 *   /proc/thread-self/schedstat, second field (CONFIG_SCHED_INFO; a
 *   pread of a few bytes, about a microsecond);
 * - migrations: sched_getcpu() before and after (vDSO/rseq, free);
 * - steal of the CPU: its cpuN line of /proc/stat, in USER_HZ ticks,
 *   so per batch it is quantised to 10 ms (tens of microseconds a read:
 *   the kernel sums every irq for the file's "intr" line);
 * - interrupts on the CPU: the sum of its column of /proc/interrupts
 *   (hard irqs, the local timer and IPIs included).  That file is slow
 *   (130 us on a 2-CPU VM, O(irqs x CPUs) on big machines) and
 *   /proc/stat's "intr" line is a machine-wide total.  So each read is
 *   timed when the source opens and vsb_disturb_fit() keeps a per-batch
 *   read only while its two reads cost under 1% of a batch; else
 *   /proc/softirqs' column (a tenth of the size; every tick and most
 *   device interrupts raise a softirq, so it tracks them), else no
 *   interrupt count.  The metadata says which.
 * Nothing here is a library's: no library reads per-thread schedstat
 * or one CPU's column of these files.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "clock.h"
#include "result.h"
#include "disturb_src.h"

#define COST_READS	3	/* the cheapest of three reads is the cost */

/* The whole of @fd into src->buf from offset 0; its length, or -1. */
static ssize_t read_all(struct vsb_disturb_src *src, int fd)
{
	ssize_t n;

	for (;;) {
		n = pread(fd, src->buf, src->buflen - 1, 0);
		if (n < 0)
			return -1;
		if ((size_t)n < src->buflen - 1)
			break;
		src->buflen *= 2;	/* too small: grow, read again */
		src->buf = realloc(src->buf, src->buflen);
		if (!src->buf) {
			vsb_err("out of memory");
			exit(VSB_EXIT_ERROR);
		}
	}
	src->buf[n] = '\0';
	return n;
}

/*
 * The sum of CPU @cpu's column of /proc/interrupts or /proc/softirqs:
 * the header names the online CPUs ("CPU0 CPU2 ..."); lines with fewer
 * numbers than columns (ERR:, MIS:) are machine-wide and skipped.
 */
static int sum_column(const char *text, int cpu, uint64_t *sum)
{
	char want[24];
	const char *p = text, *eol = strchr(text, '\n');
	int col = -1, ncol = 0;

	snprintf(want, sizeof(want), "CPU%d", cpu);
	while (eol && p < eol) {
		char *end;

		while (*p == ' ')
			p++;
		end = strpbrk(p, " \n");
		if (!end || end > eol)
			end = (char *)eol;
		if ((size_t)(end - p) == strlen(want) && !strncmp(p, want, strlen(want)))
			col = ncol;
		if (end > p)
			ncol++;
		p = end;
	}
	if (col < 0 || !eol)
		return -1;
	*sum = 0;
	for (p = eol + 1; *p; p = eol + 1) {
		const char *colon = strchr(p, ':');
		unsigned long long v = 0;
		int i;

		eol = strchr(p, '\n');
		if (!eol)
			break;
		if (!colon || colon > eol)
			continue;
		p = colon + 1;
		for (i = 0; i < ncol; i++) {
			char *end;

			v = strtoull(p, &end, 10);
			if (end == p || end > eol)
				break;
			if (i == col)
				*sum += v;
			p = end;
		}
	}
	return 0;
}

/* Steal of @cpu from /proc/stat's "cpuN" line, in ns. */
static int parse_steal(const char *text, int cpu, uint64_t *ns)
{
	char want[24];
	const char *p;
	unsigned long long v[8];

	snprintf(want, sizeof(want), "\ncpu%d ", cpu);
	p = strstr(text, want);
	if (!p || sscanf(p + strlen(want), "%llu %llu %llu %llu %llu %llu %llu %llu",
			 &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 8)
		return -1;
	*ns = v[7] * (uint64_t)(1e9 / (double)sysconf(_SC_CLK_TCK));
	return 0;
}

static uint64_t read_irqs(struct vsb_disturb_src *src, int *ok)
{
	uint64_t sum = 0;

	*ok = read_all(src, src->fd_irq) > 0 && !sum_column(src->buf, src->cpu, &sum);
	return sum;
}

/* The cheapest of COST_READS reads of @fd, parsed as the snapshot does. */
static double read_cost(struct vsb_disturb_src *src, int fd, int irq, int *ok)
{
	double best = 0;
	uint64_t t0, v;
	int i;

	*ok = 1;
	for (i = 0; i < COST_READS && *ok; i++) {
		t0 = vsb_now_ns();
		if (irq)
			read_irqs(src, ok);
		else
			*ok = read_all(src, fd) > 0 && !parse_steal(src->buf, src->cpu, &v);
		if (!i || (double)(vsb_now_ns() - t0) < best)
			best = (double)(vsb_now_ns() - t0);
	}
	return best;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* /proc/interrupts, else (or with @softirqs) /proc/softirqs, timed. */
static void open_irqs(struct vsb_disturb_src *src, int softirqs)
{
	int ok;

	close_fd(&src->fd_irq);
	src->valid &= ~VSB_DIST_IRQS;
	src->irq_softirqs = softirqs;
	src->fd_irq = open(softirqs ? "/proc/softirqs" : "/proc/interrupts",
			   O_RDONLY | O_CLOEXEC);
	if (src->fd_irq < 0)
		return;
	src->cost_irq_ns = read_cost(src, src->fd_irq, 1, &ok);
	if (ok)
		src->valid |= VSB_DIST_IRQS;
	else
		close_fd(&src->fd_irq);
}

void vsb_disturb_open(struct vsb_disturb_src *src, int cpu)
{
	int ok;

	memset(src, 0, sizeof(*src));
	src->cpu = cpu;
	src->fd_sched = src->fd_stat = src->fd_irq = -1;
	src->buflen = 8192;
	src->buf = vsb_zalloc(src->buflen);
	src->valid = VSB_DIST_SWITCH | VSB_DIST_MIGRATED;
	src->fd_sched = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	if (src->fd_sched >= 0)
		src->valid |= VSB_DIST_RUNDELAY;
	src->fd_stat = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	if (src->fd_stat >= 0) {
		src->cost_stat_ns = read_cost(src, src->fd_stat, 0, &ok);
		if (ok)
			src->valid |= VSB_DIST_STEAL;
		else
			close_fd(&src->fd_stat);
	}
	open_irqs(src, 0);
	if (src->fd_irq < 0)
		open_irqs(src, 1);
}

void vsb_disturb_fit(struct vsb_disturb_src *src, double batch_ns)
{
	double budget = batch_ns / 100 / 2;	/* two reads in 1% of a batch */

	if (batch_ns <= 0)
		return;
	if (src->fd_stat >= 0 && src->cost_stat_ns > budget) {
		close_fd(&src->fd_stat);
		src->valid &= ~VSB_DIST_STEAL;
	}
	if (src->fd_irq >= 0 && !src->irq_softirqs && src->cost_irq_ns > budget)
		open_irqs(src, 1);
	if (src->fd_irq >= 0 && src->cost_irq_ns > budget) {
		close_fd(&src->fd_irq);
		src->valid &= ~VSB_DIST_IRQS;
	}
}

void vsb_disturb_snap(struct vsb_disturb_src *src, struct vsb_disturb_snap *s)
{
	struct rusage ru;
	char b[128];
	ssize_t n;
	int ok;

	memset(s, 0, sizeof(*s));
	s->cpu = sched_getcpu();
	if (!getrusage(RUSAGE_THREAD, &ru))
		s->nivcsw = (uint64_t)ru.ru_nivcsw;
	if (src->fd_sched >= 0) {
		n = pread(src->fd_sched, b, sizeof(b) - 1, 0);
		b[n > 0 ? n : 0] = '\0';
		if (sscanf(b, "%*u %llu", (unsigned long long *)&s->run_delay_ns) != 1)
			src->valid &= ~VSB_DIST_RUNDELAY;
	}
	if (src->fd_stat >= 0 &&
	    (read_all(src, src->fd_stat) <= 0 || parse_steal(src->buf, src->cpu, &s->steal_ns)))
		src->valid &= ~VSB_DIST_STEAL;
	if (src->fd_irq >= 0) {
		s->irqs = read_irqs(src, &ok);
		if (!ok)
			src->valid &= ~VSB_DIST_IRQS;
	}
}

void vsb_disturb_diff(const struct vsb_disturb_src *src,
		      const struct vsb_disturb_snap *a,
		      const struct vsb_disturb_snap *b, struct vsb_sample *out)
{
	out->dist_valid = src->valid;
	out->nivcsw = b->nivcsw - a->nivcsw;
	out->migrations = (a->cpu != b->cpu) + (a->cpu != src->cpu);
	out->run_delay_ns = src->valid & VSB_DIST_RUNDELAY ?
			    b->run_delay_ns - a->run_delay_ns : 0;
	out->steal_ns = src->valid & VSB_DIST_STEAL ? b->steal_ns - a->steal_ns : 0;
	out->irqs = src->valid & VSB_DIST_IRQS ? b->irqs - a->irqs : 0;
}

void vsb_disturb_close(struct vsb_disturb_src *src)
{
	close_fd(&src->fd_sched);
	close_fd(&src->fd_stat);
	close_fd(&src->fd_irq);
	free(src->buf);
	src->buf = NULL;
}

void vsb_disturb_describe(const struct vsb_disturb_src *src, double batch_ns,
			  char *buf, size_t len)
{
	char irq[160];

	if (src->valid & VSB_DIST_IRQS)
		snprintf(irq, sizeof(irq), "%s column of CPU%d (%.0f us a read)",
			 src->irq_softirqs ? "/proc/softirqs" : "/proc/interrupts",
			 src->cpu, src->cost_irq_ns / 1e3);
	else
		snprintf(irq, sizeof(irq), "not counted (two reads of /proc/softirqs "
			 "or /proc/interrupts exceed 1%% of a %.0f us batch)", batch_ns / 1e3);
	snprintf(buf, len, "switches getrusage(RUSAGE_THREAD); run delay %s; "
		 "migrations sched_getcpu() before/after; steal %s; interrupts %s",
		 src->valid & VSB_DIST_RUNDELAY ? "/proc/thread-self/schedstat" :
		 "unavailable (no schedstat)",
		 src->valid & VSB_DIST_STEAL ? "/proc/stat cpuN (USER_HZ ticks)" :
		 "not read per batch (/proc/stat costs over 1% of a batch)", irq);
}
