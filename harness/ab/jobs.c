// SPDX-License-Identifier: GPL-2.0
/*
 * Exact boots side by side (`ab --jobs N`).  An exact boot counts
 * instructions under QEMU TCG with one host thread for the whole guest
 * (ci/vm-exact.bash), and its counts do not depend on the load beside
 * it; run one after the other, base and new left the second CPU idle
 * (an exact ab of configs/ab-exact.sweep: 1 min 27 s, two boots).  Here
 * up to N boots run at once, each in a worker process of its own that
 * runs boot.c's one boot (its retry and its messages included) and
 * exits with its status; this process reaps them, loads each finished
 * boot's folder and keeps ab.txt, which only it writes.  A failed boot
 * stops new ones from starting; the others finish and are kept, as a
 * continuation would find them.  Timed mode stays one boot at a time:
 * a boot beside it would be part of what it times (cmd_ab.c refuses
 * --jobs there).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ab.h"
#include "meminfo.h"
#include "vsb.h"

/* a guest's memory plus QEMU's own and the plugin's, in MB */
#define GUEST_OVERHEAD_MB	512

static long mem_available_mb(void)
{
	long kb = vsb_meminfo_kb("MemAvailable");

	return kb < 0 ? -1 : kb / 1024;
}

long vsb_ab_jobs_default(const struct vsb_ab *ab)
{
	const char *cap = getenv("VSB_AB_JOBS");
	cpu_set_t set;
	long cpus = 1, mem = mem_available_mb(), n, c;

	if (!ab->exact)
		return 1;
	if (!sched_getaffinity(0, sizeof(set), &set))
		cpus = CPU_COUNT(&set);
	n = cpus;
	if (mem > 0 && mem / (ab->mem + GUEST_OVERHEAD_MB) < n)
		n = mem / (ab->mem + GUEST_OVERHEAD_MB);
	/*
	 * VSB_AB_JOBS caps the default (tests/run.sh sets 1: its guest lane
	 * keeps one guest at a time beside the timing tests); --jobs wins.
	 */
	if (cap && !vsb_parse_long(cap, &c) && c >= 1 && c < n)
		n = c;
	return n < 1 ? 1 : n;
}

struct worker {
	pid_t pid;
	long boot;
	double t0;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Boot @i in a child of its own; its pid, or -1. */
static pid_t start_boot(struct vsb_ab_run *r, long i, const struct vsb_ab_boot_ops *ops)
{
	pid_t parent = getpid(), pid = fork();

	if (pid)
		return pid;
	/*
	 * Dies with ab, SIGKILL included; its boot's reaper (boot.c) then
	 * stops the script and QEMU, which hold OUT's lock.
	 */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(VSB_EXIT_ERROR);
	r->worker = 1;
	r->ab->progress = 0;	/* one progress line, this process's */
	r->tcg_said = 1;	/* and one note on TCG, at the end */
	_exit(ops->one(r, i));
}

static void draw(const struct vsb_ab_run *r, long running, double t0)
{
	long t = (long)(now_s() - t0);

	if (r->ab->progress)
		fprintf(stderr, "\rab: %ld boot%s running side by side, %ld of %ld done, "
			"%ld:%02ld\033[K", running, running == 1 ? "" : "s", r->ndone,
			2 * r->ab->now, t / 60, t % 60);
}

/* A worker ended with @st: its boot loaded, ab.txt rewritten. */
static int reaped(struct vsb_ab_run *r, const struct worker *w, int st,
		  const struct vsb_ab_boot_ops *ops)
{
	int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);

	if (r->ab->progress)
		fprintf(stderr, "\r\033[K");
	ops->load(r, w->boot);
	if (r->b[w->boot].done) {
		r->b[w->boot].secs = now_s() - w->t0;
		r->secs_this += r->b[w->boot].secs;
		r->nthis++;
	}
	return rc;
}

int vsb_ab_boots_parallel(struct vsb_ab_run *r, long jobs,
			  const struct vsb_ab_boot_ops *ops)
{
	struct worker w[64];
	long next = 0, running = 0, k;
	double t0 = now_s(), drawn = 0;
	int first = 0, rc, st;

	if (jobs > (long)(sizeof(w) / sizeof(w[0])))
		jobs = sizeof(w) / sizeof(w[0]);
	for (;;) {
		while (!first && !vsb_interrupted && running < jobs && next < 2 * r->ab->now) {
			if (r->b[next].done) {
				next++;
				continue;
			}
			w[running] = (struct worker){ .boot = next, .t0 = now_s() };
			w[running].pid = start_boot(r, next, ops);
			if (w[running].pid < 0) {
				vsb_err("ab: cannot start a boot: %s", strerror(errno));
				first = VSB_EXIT_ERROR;
				break;
			}
			running++;
			next++;
		}
		if (!running)
			break;
		for (k = 0; k < running; k++) {
			pid_t p = waitpid(w[k].pid, &st, WNOHANG);

			if (p != w[k].pid)
				continue;
			rc = reaped(r, &w[k], st, ops);
			if (rc && !first)
				first = rc;
			w[k--] = w[--running];
			if (ops->state(r, "running") && !first)
				first = VSB_EXIT_ERROR;
		}
		if (now_s() - drawn >= 1) {
			draw(r, running, t0);
			drawn = now_s();
		}
		usleep(100000);
	}
	if (r->ab->progress)
		fprintf(stderr, "\r\033[K");
	if (!first && vsb_interrupted)
		first = 130;
	if (!first)
		return 0;
	/* the worker said what failed; the state says how it ended */
	ops->state(r, first == 130 || first == 143 ? "interrupted" :
			   first == VSB_EXIT_SKIP ? "skipped" : "failed");
	return first == VSB_EXIT_SKIP ? VSB_EXIT_SKIP : VSB_EXIT_ERROR;
}
