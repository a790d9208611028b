// SPDX-License-Identifier: GPL-2.0
/*
 * vsb_fork_reaped(): the caller sees the child's exit status through the
 * reaper, a stop signal to the reaper reaches every descendant, and no
 * descendant outlives the child or the caller, a process that moved to
 * a session of its own included (as `timeout` and QEMU leave the
 * script's process group).  This process is a child subreaper itself, so
 * that whatever is left is ours to see and wait for.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "reaper.h"
#include "vsb.h"
#include "tap.h"

#define GONE_WITHIN_S	8	/* the reaper's 5 s grace, and a loaded machine's slack */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * A process that waits in a session of its own, and writes its pid to
 * @fd once it is set up.  @deaf: it ignores SIGTERM, as a hung QEMU may.
 */
static void start_stray(int fd, int deaf)
{
	sigset_t term, old;
	pid_t self;

	/*
	 * SIGTERM held until the pid is written: a child that exits at once
	 * has the reaper end its tree at once, and a stray ended before it
	 * said its pid left the test nothing to check.
	 */
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_BLOCK, &term, &old);
	if (fork()) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return;
	}
	setsid();
	if (deaf)
		signal(SIGTERM, SIG_IGN);
	self = getpid();
	if (write(fd, &self, sizeof(self)) != sizeof(self))
		_exit(99);
	sigprocmask(SIG_SETMASK, &old, NULL);
	for (;;)
		pause();
}

/* @pid has ended: reaped here (we are its subreaper) or gone already. */
static int gone(pid_t pid)
{
	double until = now_s() + GONE_WITHIN_S;

	while (now_s() < until) {
		if (waitpid(pid, NULL, WNOHANG) == pid ||
		    (kill(pid, 0) && errno == ESRCH))
			return 1;
		usleep(20000);
	}
	return 0;
}

/*
 * @pid's status as the reaper passes it on, if it ends within
 * GONE_WITHIN_S; -1 (and @pid and @stray SIGKILLed) if not, so that a
 * reaper that fails fails the test rather than hangs it.
 */
static int status_of(pid_t pid, pid_t stray)
{
	double until = now_s() + GONE_WITHIN_S;
	int st;

	while (now_s() < until) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		usleep(20000);
	}
	kill(pid, SIGKILL);
	if (stray > 0)
		kill(stray, SIGKILL);
	return -1;
}

/* Every child of ours has exited within GONE_WITHIN_S: 0, else -1. */
static int waitpid_all(void)
{
	double until = now_s() + GONE_WITHIN_S;
	pid_t w;

	while (now_s() < until) {
		w = waitpid(-1, NULL, WNOHANG);
		if (w < 0 && errno == ECHILD)
			return 0;
		if (!w)
			usleep(20000);
	}
	return -1;
}

/* The child's status, through the reaper: an exit, then a signal. */
static void test_status(void)
{
	pid_t r = vsb_fork_reaped(0);

	if (!r)
		_exit(7);
	TAP_OK(status_of(r, 0) == 7, "the child's exit status comes through");
	r = vsb_fork_reaped(0);
	if (!r) {
		raise(SIGKILL);
		_exit(0);
	}
	TAP_OK(status_of(r, 0) == 128 + SIGKILL, "a child killed by a signal: 128 + it");
}

/* The child exits and leaves a process behind: the reaper ends it. */
static void test_leftover(void)
{
	int fds[2];
	pid_t r, stray = 0;

	if (pipe(fds))
		return;
	r = vsb_fork_reaped(0);
	if (!r) {
		start_stray(fds[1], 0);
		_exit(0);
	}
	close(fds[1]);
	TAP_OK(read(fds[0], &stray, sizeof(stray)) == sizeof(stray), "the child started a stray");
	close(fds[0]);
	TAP_OK(status_of(r, stray) == 0 && gone(stray),
	       "the reaper exits with the child's 0 once the stray it left is gone");
}

/* A stop signal to the reaper reaches the child and what it started. */
static void test_stop(void)
{
	int fds[2];
	pid_t r, stray = 0;

	if (pipe(fds))
		return;
	r = vsb_fork_reaped(VSB_REAPED_OWN_GROUP);
	if (!r) {
		start_stray(fds[1], 0);
		for (;;)
			pause();
	}
	close(fds[1]);
	if (read(fds[0], &stray, sizeof(stray)) != sizeof(stray))
		stray = 0;
	close(fds[0]);
	TAP_OK(getpgid(r) == r, "VSB_REAPED_OWN_GROUP: the reaper leads a group");
	kill(r, SIGTERM);
	TAP_OK(status_of(r, stray) == 128 + SIGTERM && stray && gone(stray),
	       "SIGTERM to the reaper ends the child (128 + 15) and its stray");
}

static volatile sig_atomic_t noted;
static void note(int sig)
{
	(void)sig;
	noted = 1;
}

/*
 * A SIGTERM to the group while the child has not exec'd yet: the child
 * holds copies of the caller's handlers until exec, which would note the
 * signal and lose it (ab's boot then ran to its end).  The child gets
 * the defaults, so the signal ends it there.
 */
static void test_stop_before_exec(void)
{
	struct sigaction sa = { .sa_handler = note }, old;
	double t0;
	pid_t r;

	sigaction(SIGTERM, &sa, &old);
	r = vsb_fork_reaped(VSB_REAPED_OWN_GROUP);
	if (!r) {
		usleep(300000);		/* the signal comes meanwhile */
		execlp("sleep", "sleep", "20", (char *)NULL);
		_exit(127);
	}
	setpgid(r, r);
	t0 = now_s();
	kill(-r, SIGTERM);
	TAP_OK(status_of(r, 0) == 128 + SIGTERM && now_s() - t0 < 5,
	       "SIGTERM before the child's exec ends it, not its copy of our handler "
	       "(%.1f s)", now_s() - t0);
	sigaction(SIGTERM, &old, NULL);
}

/*
 * The caller SIGKILLed: the reaper ends the child and the stray, then
 * itself; a @deaf stray by SIGKILL, after the reaper's grace.  A middle
 * process plays the caller; its reaper, orphaned, comes to us.
 */
static void test_caller_killed(int deaf)
{
	int fds[2];
	pid_t mid, pids[2] = { 0, 0 };
	double t0;
	int ok;

	if (pipe(fds))
		return;
	mid = fork();
	if (!mid) {
		pid_t r = vsb_fork_reaped(0);

		if (!r) {
			pid_t self = getpid();

			if (write(fds[1], &self, sizeof(self)) != sizeof(self))
				_exit(99);
			start_stray(fds[1], deaf);
			for (;;)
				pause();
		}
		for (;;)
			pause();
	}
	close(fds[1]);
	if (read(fds[0], &pids[0], sizeof(pid_t)) != sizeof(pid_t) ||
	    read(fds[0], &pids[1], sizeof(pid_t)) != sizeof(pid_t))
		pids[0] = 0;
	close(fds[0]);
	TAP_OK(pids[0] > 0 && pids[1] > 0, "the child and its %sstray run",
	       deaf ? "SIGTERM-deaf " : "");
	t0 = now_s();
	kill(mid, SIGKILL);
	waitpid(mid, NULL, 0);
	ok = pids[0] > 0 && gone(pids[0]) && gone(pids[1]);
	TAP_OK(ok, "caller SIGKILLed: the child and its %sstray gone in %.1f s",
	       deaf ? "SIGTERM-deaf " : "", now_s() - t0);
	if (!ok && pids[0] > 0) {	/* what a failed reaper left: ours to end */
		kill(pids[0], SIGKILL);
		kill(pids[1], SIGKILL);
	}
	/* the reaper, orphaned, is ours: it exits once they are gone */
	TAP_OK(!waitpid_all(), "and the reaper exits");
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);	/* each line out before a fork */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1)) {
		printf("# no PR_SET_CHILD_SUBREAPER here: %s\n", strerror(errno));
		return VSB_EXIT_SKIP;
	}
	test_status();
	test_leftover();
	test_stop();
	test_stop_before_exec();
	test_caller_killed(0);
	test_caller_killed(1);
	return tap_done();
}
