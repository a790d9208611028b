// SPDX-License-Identifier: GPL-2.0
/*
 * Children that die with their parent, and their own children with them.
 *
 * ab runs ci/ab-run.sh, which runs ci/vm-run.sh, which runs `timeout`,
 * which runs QEMU; bisect runs ab and the kernel build (make and its
 * compilers).  Each of them inherits the descriptor that holds OUT's
 * lock (dirlock.c).  PR_SET_PDEATHSIG on the first child alone did not
 * reach the rest: it is not inherited across fork, bash defers a trapped
 * SIGTERM until its foreground child returns, and `timeout` moves itself
 * and QEMU to a process group of their own, out of reach of a signal to
 * the script's group.  A SIGKILLed ab left QEMU booting and OUT locked.
 *
 * So a reaper sits between the caller and the child: a forked copy of
 * the caller that only waits.  As PR_SET_CHILD_SUBREAPER, it keeps every
 * descendant below it whatever the tree does (setsid, a new group, a
 * parent that exits before its children), and finds them by their
 * parent links in /proc/PID/stat (/proc/PID/task/TID/children needs
 * CONFIG_PROC_CHILDREN, which some kernels lack).  It has
 * PR_SET_PDEATHSIG, and polls getppid() besides.  While the caller
 * lives, a stop signal to the reaper goes to every descendant and the
 * caller decides what follows.  Once the caller is gone nobody else
 * will stop the tree: every descendant gets SIGTERM (the scripts' traps
 * stop QEMU and remove their unfinished folders), and what is left
 * REAP_GRACE_S later SIGKILL.  The same when the child has exited and
 * left something running.  The reaper exits when no descendant is
 * left, so OUT's lock, which it holds too, is free then and not before.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "reaper.h"
#include "vsb.h"

#define REAP_GRACE_S	5	/* SIGTERM to SIGKILL: QEMU stops in well under it */
#define REAP_TICK_NS	100000000L	/* how often getppid() is asked */

struct link {
	pid_t pid, ppid;
};

static int by_pid(const void *a, const void *b)
{
	const struct link *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* A process's parent from /proc/@name/stat; -1 if it is gone or odd. */
static pid_t parent_of(const char *name)
{
	char path[64], buf[1024], *p;
	ssize_t len;
	long ppid;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/stat", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return -1;
	buf[len] = '\0';
	/* "PID (COMM) STATE PPID ...": COMM may hold anything, ')' too */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %ld", &ppid) != 1)
		return -1;
	return (pid_t)ppid;
}

/* Every process and its parent, sorted by pid; how many, -1 without /proc. */
static long read_links(struct link **out)
{
	struct link *l = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	DIR *d = opendir("/proc");
	pid_t ppid;

	*out = NULL;
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		ppid = parent_of(e->d_name);
		if (ppid < 0)
			continue;
		if (n == cap) {
			/*
			 * Not vsb_grow(): its exit() on failure would run the
			 * caller's atexit handlers and flush its stdio in
			 * this copy of it.  What was read is signalled.
			 */
			struct link *more = realloc(l, (cap ? 2 * cap : 256) * sizeof(*l));

			if (!more)
				break;
			l = more;
			cap = cap ? 2 * cap : 256;
		}
		l[n].pid = (pid_t)atol(e->d_name);
		l[n++].ppid = ppid;
	}
	closedir(d);
	if (n)
		qsort(l, n, sizeof(*l), by_pid);
	*out = l;
	return (long)n;
}

static int marked(const struct link *l, const char *in, long n, pid_t pid)
{
	const struct link key = { .pid = pid };
	const struct link *f = bsearch(&key, l, n, sizeof(*l), by_pid);

	return f && in[f - l];
}

/*
 * @sig to every descendant of this process.  The tree is read once; a
 * process forked after it is reached by a later call (the loop below
 * sends SIGKILL every tick once the grace is over).
 */
static void signal_tree(int sig)
{
	struct link *l;
	long n = read_links(&l), i, changed;
	pid_t self = getpid();
	char *in;

	if (n <= 0) {
		free(l);
		return;
	}
	in = calloc(n, 1);	/* not vsb_zalloc(), as above */
	if (!in) {
		free(l);
		return;
	}
	do {		/* a pass per generation: ours, then theirs, ... */
		changed = 0;
		for (i = 0; i < n; i++)
			if (!in[i] && (l[i].ppid == self || marked(l, in, n, l[i].ppid)))
				in[i] = changed = 1;
	} while (changed);
	for (i = 0; i < n; i++)
		if (in[i])
			kill(l[i].pid, sig);
	free(in);
	free(l);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The reaper's life: reap, pass stop signals on, end the tree when it
 * must; exit with @child's status once no descendant is left.  @sigs
 * (the stop signals and SIGCHLD) are blocked and taken here.
 */
static void reap(pid_t parent, pid_t child, const sigset_t *sigs)
{
	const struct timespec tick = { 0, REAP_TICK_NS };
	int st, status = 0, done = 0, sig;
	double kill_at = 0;
	pid_t w;

	for (;;) {
		while ((w = waitpid(-1, &st, WNOHANG)) > 0)
			if (w == child) {
				status = st;
				done = 1;
			}
		if (w < 0 && errno == ECHILD)
			break;	/* no child left, so no descendant either */
		if (!kill_at && (done || getppid() != parent)) {
			signal_tree(SIGTERM);
			kill_at = now_s() + REAP_GRACE_S;
		}
		if (kill_at && now_s() >= kill_at)
			signal_tree(SIGKILL);
		sig = sigtimedwait(sigs, NULL, &tick);
		if (sig > 0 && sig != SIGCHLD)
			signal_tree(sig);
	}
	if (!done)	/* reaped by someone else: cannot be, but not 0 */
		_exit(VSB_EXIT_ERROR);
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

pid_t vsb_fork_reaped(unsigned int flags)
{
	pid_t parent = getpid(), reaper, pid;
	sigset_t sigs, old;

	/*
	 * The reaper's signals are taken by sigtimedwait(), so they are
	 * blocked before it exists: the death signal included, and a stop
	 * signal sent to the group at once, which would otherwise meet the
	 * caller's handler copied with the fork and be lost.
	 */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	sigaddset(&sigs, SIGCHLD);
	sigprocmask(SIG_BLOCK, &sigs, &old);
	pid = fork();
	if (pid) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return pid;
	}
	signal(SIGCHLD, SIG_DFL);	/* an inherited SIG_IGN would reap for us */
	/* a caller gone before the prctl is seen by getppid() */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != parent ||
	    prctl(PR_SET_CHILD_SUBREAPER, 1))
		_exit(VSB_EXIT_ERROR);
	if (flags & VSB_REAPED_OWN_GROUP)
		setpgid(0, 0);
	reaper = getpid();
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "vmstat-bench: cannot fork: %s\n", strerror(errno));
		_exit(VSB_EXIT_ERROR);
	}
	if (pid) {
		reap(parent, pid, &sigs);
		_exit(VSB_EXIT_ERROR);	/* not reached */
	}
	/*
	 * The child: the stop signals at their defaults, then the caller's
	 * mask.  It goes on to exec, and until then it held the caller's
	 * handlers, which only note a signal: a SIGTERM sent while ab
	 * started a boot was noted in this copy and lost, and the boot ran
	 * to its end.  One that came meanwhile, blocked until now, ends it.
	 */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != reaper)
		_exit(VSB_EXIT_ERROR);
	return 0;
}
