// SPDX-License-Identifier: GPL-2.0
/*
 * --split 3: more than one commit at once.  A round tests git's pick
 * (BISECT_HEAD) and both of the commits git would ask for next, the one
 * if the pick is bad and the one if it is good (ahead.c's
 * vsb_bisect_next_picks: git's own choice over the range each verdict
 * leaves), so that a round cuts the range in four where a step cuts it
 * in two: ceil(log4 N) rounds for ceil(log2 N) steps.  The three are
 * built one after the other (or taken from the builds ahead), then their
 * `ab`s run at once, each in a worker process of its own, each step
 * with its own folder and verdict exactly as alone; then every verdict
 * is recorded and given to git as a mark (each is valid on its own, git
 * narrows to the first bad), so merges and skips stay git's.
 *
 * Only beside exact boots: an exact count does not depend on what else
 * the machine does, a time does (three abs at once would time each
 * other).  The CPUs are shared out: each ab gets the --jobs it would
 * have alone divided by the round's abs, at least one, and no more abs
 * run at once than the CPUs hold at that many boots each.
 *
 * A stop signal reaches every worker (proc.c), which stops its ab as a
 * step alone does; the steps that finished are recorded, the others not,
 * and the same command resumes from bisect.state.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bisect.h"
#include "vsb.h"

#define ROUND_MAX	3

/* a worker's answer, through its pipe: its ab's end and its step */
struct answer {
	int rc;		/* 0: @s decided (a skip included); else VSB_EXIT_* */
	struct vsb_bisect_step s;
};

struct worker {
	pid_t pid;	/* 0: not started, or reaped */
	int fd;		/* the answer's read end */
	int state;	/* 0 to build or boot, 1 answered, 2 no answer */
	char spec[4096];
	struct answer a;
};

int vsb_bisect_split_check(const struct vsb_bisect *b)
{
	if (b->split <= 1 || vsb_bisect_exact(b))
		return 0;
	vsb_err("--split %ld: the endpoints' ab booted timed (ab's choice here); "
		"timed boots at once would time each other: give --exact, or --split 1",
		b->split);
	return VSB_EXIT_USAGE;
}

/* --jobs N, -j N, --jobs=N or -jN among ab's options: N, else 0 */
static long given_jobs(const struct vsb_bisect *b, int *at, int *words)
{
	const char *v = NULL;
	long n;
	int i;

	for (i = 0; i < b->nab && !v; i++) {
		const char *a = b->ab_args[i];

		*at = i;
		*words = 1;
		if ((!strcmp(a, "--jobs") || !strcmp(a, "-j")) && i + 1 < b->nab) {
			v = b->ab_args[i + 1];
			*words = 2;
		} else if (!strncmp(a, "--jobs=", 7)) {
			v = a + 7;
		} else if (!strncmp(a, "-j", 2) && a[2]) {
			v = a + 2;
		}
	}
	return v && !vsb_parse_long(v, &n) && n > 0 ? n : 0;
}

/*
 * The boots each of @n abs may run at once (*@jobs) and how many abs at
 * once (the return): alone an ab boots --jobs, or as many as the CPUs
 * (ab's default); a round divides that, so that all its boots at once
 * stay within the CPUs, and queues the abs the CPUs cannot take.
 */
static size_t share_cpus(const struct vsb_bisect *b, size_t n, long *jobs)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN), alone;
	int at, words;

	if (cpus < 1)
		cpus = 1;
	alone = given_jobs(b, &at, &words) ?: cpus;
	*jobs = cpus / (long)n;
	if (*jobs > alone)
		*jobs = alone;
	if (*jobs < 1)
		*jobs = 1;
	return cpus / *jobs < (long)n ? (size_t)(cpus / *jobs) : n;
}

/* in the worker: ab's --jobs replaced by @jobs (b is the worker's copy) */
static void set_jobs(struct vsb_bisect *b, long jobs)
{
	static char word[32];
	int at, words;

	while (given_jobs(b, &at, &words)) {
		memmove(&b->ab_args[at], &b->ab_args[at + words],
			(b->nab - at - words) * sizeof(b->ab_args[0]));
		b->nab -= words;
	}
	snprintf(word, sizeof(word), "%ld", jobs);
	b->ab_args[b->nab++] = "--jobs";
	b->ab_args[b->nab++] = word;
}

static void __attribute__((noreturn))
work(struct vsb_bisect *b, struct worker *w, long jobs, int fd)
{
	struct answer a = { .s = w->a.s };

	if (jobs)
		set_jobs(b, jobs);
	a.rc = vsb_bisect_judge(b, w->spec, &a.s);
	_exit(write(fd, &a, sizeof(a)) == (ssize_t)sizeof(a) ? 0 : 1);
}

static int start(struct vsb_bisect *b, struct worker *w, long jobs)
{
	int fds[2];

	if (pipe2(fds, O_CLOEXEC)) {
		vsb_err("bisect: pipe: %s", strerror(errno));
		return VSB_EXIT_ERROR;
	}
	w->pid = vsb_bisect_fork_worker();
	if (w->pid == 0) {
		close(fds[0]);
		work(b, w, jobs, fds[1]);
	}
	close(fds[1]);
	if (w->pid < 0) {
		close(fds[0]);
		w->pid = 0;
		vsb_err("bisect: fork: %s", strerror(errno));
		return VSB_EXIT_ERROR;
	}
	w->fd = fds[0];
	return 0;
}

/* @w's end, if it came: its answer read; 1 when it ended */
static int reap(struct worker *w)
{
	int st;
	pid_t r = waitpid(w->pid, &st, WNOHANG);

	if (r != w->pid)
		return 0;
	vsb_bisect_unwatch(w->pid);
	w->pid = 0;
	w->state = read(w->fd, &w->a, sizeof(w->a)) == (ssize_t)sizeof(w->a) &&
		   WIFEXITED(st) && !WEXITSTATUS(st) ? 1 : 2;
	close(w->fd);
	return 1;
}

/*
 * The abs of @w[0..@n) with state 0, at most @slots at once; every
 * worker ended when it returns (a stop signal reaches them all, and
 * none starts after it).
 */
static int boot_all(struct vsb_bisect *b, struct worker *w, size_t n, size_t slots,
		    long jobs)
{
	struct timespec nap = { 0, 20 * 1000 * 1000 };
	size_t next = 0, live = 0, i;
	int rc = 0;

	for (;;) {
		for (; next < n && live < slots && !rc && !vsb_interrupted; next++)
			if (!w[next].state) {
				rc = start(b, &w[next], jobs);
				live += !rc;
			}
		if (!live)
			break;
		nanosleep(&nap, NULL);
		for (i = 0; i < n; i++)
			if (w[i].pid && reap(&w[i]))
				live--;
	}
	return rc;
}

/*
 * The round's commits built, one after the other (taken from the
 * builds ahead where there are some): a commit that does not build is
 * a skip, as a step alone; the others' specs into @w.
 */
static int build_all(struct vsb_bisect *b, struct worker *w, size_t n)
{
	size_t i;
	int rc;

	vsb_bisect_touch_good(b);
	vsb_bisect_ahead_launch(b);
	for (i = 0; i < n; i++) {
		rc = vsb_bisect_build_once(b, w[i].a.s.sha, w[i].spec, sizeof(w[i].spec));
		if (rc == 125) {
			snprintf(w[i].a.s.why, sizeof(w[i].a.s.why), "does not build");
			snprintf(w[i].a.s.verdict, sizeof(w[i].a.s.verdict), "skip");
			w[i].state = 1;
		} else if (rc) {
			return rc;
		}
	}
	return 0;
}

int vsb_bisect_round(struct vsb_bisect *b, const char *head, char **out)
{
	char cand[ROUND_MAX][41];
	struct worker *w = vsb_zalloc(ROUND_MAX * sizeof(*w));
	size_t n, i, first = b->nsteps, slots, boots = 0;
	unsigned int round = b->nround + 1;
	long jobs = 0;
	int rc;

	snprintf(cand[0], sizeof(cand[0]), "%s", head);
	n = 1 + vsb_bisect_next_picks(b, head, &cand[1], ROUND_MAX - 1);
	vsb_note("bisect: round %u: %zu commit(s) at once: %.12s%s%.12s%s%.12s", round,
		 n, cand[0], n > 1 ? " " : "", n > 1 ? cand[1] : "", n > 2 ? " " : "",
		 n > 2 ? cand[2] : "");
	for (i = 0; i < n; i++)
		vsb_bisect_step_init(b, cand[i], first + i, &w[i].a.s);
	/* the candidates, then (--ahead 6) the picks after them, built ahead */
	vsb_bisect_ahead_plan(b, head);
	rc = build_all(b, w, n);
	for (i = 0; i < n; i++)
		boots += !w[i].state;
	slots = boots > 1 ? share_cpus(b, boots, &jobs) : 1;
	rc = rc ?: boot_all(b, w, n, slots, jobs);
	/* what finished is recorded, a stop or not: a resume does not redo it */
	for (i = 0; i < n; i++) {
		struct answer *a = &w[i].a;

		if (w[i].state != 1)
			continue;
		if (a->rc) {
			rc = rc ?: a->rc;
			continue;
		}
		if (!vsb_bisect_record_round(b, &a->s, round))
			vsb_bisect_say_step(b, &a->s);
		else
			rc = rc ?: VSB_EXIT_ERROR;
	}
	if (!rc && !vsb_interrupted)
		for (i = 0; i < n; i++)
			if (w[i].state == 2) {
				vsb_err("bisect: the worker of %.12s ended with no verdict",
					w[i].a.s.sha);
				rc = VSB_EXIT_ERROR;
			}
	free(w);
	if (vsb_interrupted) {
		vsb_bisect_say_stop();
		return VSB_EXIT_ERROR;
	}
	return rc ?: vsb_bisect_mark(b, first, b->nsteps, out);
}
