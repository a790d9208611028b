// SPDX-License-Identifier: GPL-2.0
/*
 * Child processes for bisect: the build script, `ab` (this binary run
 * again, or the fake that stands in for both in tests) and git.  A
 * child's stdout is read here, its last line kept (the build's kernel
 * spec) and the rest passed on to stderr: bisect's own stdout is its
 * steps and, last, the culprit, which a script reads with tail -n1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bisect.h"
#include "reaper.h"
#include "vsb.h"

#define GIT_ARGS_MAX	32

/*
 * A stop signal is passed on to the child running (ab keeps the boots it
 * finished, a build its objects), and no child is started after it: the
 * step is left undecided in bisect.state, for the same command to resume.
 */
static volatile pid_t child;
static int said;
/* a round's workers (split.c), each running one commit's ab */
#define WORKERS_MAX	8
static volatile pid_t workers[WORKERS_MAX];

static void on_stop(int sig)
{
	int i;

	vsb_interrupted = 1;
	if (child > 0)
		kill(child, sig);
	for (i = 0; i < WORKERS_MAX; i++)
		if (workers[i] > 0)
			kill(workers[i], sig);
}

void vsb_bisect_say_stop(void)
{
	if (!said++)
		vsb_err("bisect: interrupted; the same command resumes");
}

/*
 * The stop signals blocked from the fork until the worker's pid is
 * watched: one that came between would reach the worker never.  The
 * worker says nothing of a stop (bisect says it, once), and dies with
 * bisect (PR_SET_PDEATHSIG: its ab, under a reaper, with it).
 */
pid_t vsb_bisect_fork_worker(void)
{
	pid_t parent = getpid(), pid;
	sigset_t old;
	int i;

	for (i = 0; i < WORKERS_MAX && workers[i] > 0; i++)
		;
	if (i == WORKERS_MAX)
		return -1;
	fflush(NULL);
	vsb_block_stop_signals(&old);
	pid = fork();
	if (pid == 0) {
		int k;

		said = 1;
		child = 0;
		for (k = 0; k < WORKERS_MAX; k++)
			workers[k] = 0;
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != parent)
			_exit(127);
		return 0;
	}
	if (pid > 0)
		workers[i] = pid;
	sigprocmask(SIG_SETMASK, &old, NULL);
	return pid;
}

void vsb_bisect_unwatch(pid_t pid)
{
	int i;

	for (i = 0; i < WORKERS_MAX; i++)
		if (workers[i] == pid)
			workers[i] = 0;
}

void vsb_bisect_signals(void)
{
	vsb_on_stop_signals(on_stop);
}

/* Read @fd to its end: every line to stderr (if @echo), the last one kept. */
static char *drain(int fd, int echo, size_t *lenp)
{
	char *buf = NULL, chunk[4096];
	size_t len = 0, cap = 0;
	ssize_t n;

	for (;;) {
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (echo && fwrite(chunk, 1, n, stderr) != (size_t)n)
			echo = 0;
		buf = vsb_grow(buf, len + n + 1, &cap, 1);
		memcpy(buf + len, chunk, n);
		len += n;
	}
	if (!buf)
		buf = vsb_zalloc(1);
	buf[len] = '\0';
	*lenp = len;
	return buf;
}

static void last_line(const char *buf, size_t len, char *last, size_t size)
{
	size_t end = len, start;

	while (end && buf[end - 1] == '\n')
		end--;
	start = end;
	while (start && buf[start - 1] != '\n')
		start--;
	snprintf(last, size, "%.*s", (int)(end - start), buf + start);
}

/* Run @argv, its stdout into *@outp; the exit status, 128 + signal, or -1. */
static int spawn(char *const argv[], int echo, char **outp)
{
	int fds[2], st;
	size_t len;
	pid_t pid;
	char *out;

	pid_t parent = getpid();

	fflush(NULL);
	if (vsb_interrupted) {
		if (!said++)
			vsb_err("bisect: interrupted; the same command resumes");
		return -1;
	}
	if (pipe2(fds, O_CLOEXEC)) {
		vsb_err("bisect: pipe: %s", strerror(errno));
		return -1;
	}
	/*
	 * The build and ab under a reaper (lib/base/reaper.c): they die with
	 * bisect, SIGKILL included, and so does all they started (make's
	 * compilers, ab's scripts and QEMU), which held OUT's lock and went
	 * on.  git is a plain child: the housekeeping it may leave running
	 * on its own (gc --auto) is let finish.
	 */
	pid = echo ? vsb_fork_reaped(0) : fork();
	if (pid < 0) {
		vsb_err("bisect: fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		/* git dies with bisect; a parent gone first is seen by getppid() */
		if (!echo && (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent))
			_exit(127);
		/* git's output is read: in the words it is read in */
		if (!echo)
			setenv("LC_ALL", "C", 1);
		dup2(fds[1], STDOUT_FILENO);
		/* git's complaints are ours to word: one line, ours */
		if (!echo) {
			int null = open("/dev/null", O_WRONLY);

			if (null >= 0)
				dup2(null, STDERR_FILENO);
		}
		execvp(argv[0], argv);
		fprintf(stderr, "vmstat-bench: bisect: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	child = pid;
	close(fds[1]);
	out = drain(fds[0], echo, &len);
	close(fds[0]);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			child = 0;
			free(out);
			return -1;
		}
	child = 0;
	*outp = out;
	if (vsb_interrupted) {
		if (!said++)
			vsb_err("bisect: interrupted; the same command resumes");
		return -1;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int vsb_bisect_spawn(char *const argv[], char *last, size_t len)
{
	char *out = NULL;
	int rc = spawn(argv, 1, &out);

	if (rc >= 0 && last)
		last_line(out, strlen(out), last, len);
	free(out);
	return rc;
}

static int git_argv(char **argv, const char *dir, va_list ap)
{
	int n = 0;
	const char *a;

	argv[n++] = "git";
	argv[n++] = "-C";
	argv[n++] = (char *)dir;
	while ((a = va_arg(ap, const char *)) && n < GIT_ARGS_MAX - 1)
		argv[n++] = (char *)a;
	argv[n] = NULL;
	return n;
}

int vsb_bisect_git_all(const char *dir, char **out, ...)
{
	char *argv[GIT_ARGS_MAX];
	va_list ap;
	int rc;

	va_start(ap, out);
	git_argv(argv, dir, ap);
	va_end(ap);
	*out = NULL;
	rc = spawn(argv, 0, out);
	if (rc < 0 || !*out) {
		free(*out);
		*out = vsb_zalloc(1);
	}
	return rc;
}

int vsb_bisect_git(const char *dir, char *res, size_t len, ...)
{
	char *argv[GIT_ARGS_MAX], *out = NULL, *nl;
	va_list ap;
	int rc;

	va_start(ap, len);
	git_argv(argv, dir, ap);
	va_end(ap);
	rc = spawn(argv, 0, &out);
	if (rc >= 0 && res) {
		nl = strchr(out, '\n');
		if (nl)
			*nl = '\0';
		snprintf(res, len, "%s", out);
	}
	free(out);
	return rc;
}
