// SPDX-License-Identifier: GPL-2.0
/*
 * Builds ahead.  A step is a build, then a boot (ab); while it boots,
 * the commits git can ask for next are known: its pick if the step is
 * bad, and its pick if it is good (`git rev-list --bisect-vars` over
 * the range each verdict leaves: git bisect's own choice).  With
 * --ahead N the N nearest of them (the next step's two, then the four of
 * the step after, ...) are built meanwhile, so the next step finds its
 * kernel built.  Once git names the next commit, the builds under way of
 * commits it can no longer ask for are cancelled; those done are kept
 * (around a skip, git may still ask).  Only beside exact boots, whose
 * counts do not depend on the load (vsb_bisect_exact()).
 *
 * Each build ahead is run by a supervisor (a child forked here, no exec)
 * that leads its own process group: cancelling it is one kill of the
 * group, make and the compilers included, and the supervisor dies with
 * bisect (PR_SET_PDEATHSIG, then the group with it), so no build stays
 * behind a kill.  The supervisors take turns, nearest first: each waits
 * for the end of the one before (a pipe, the baton, whose write end
 * only that one holds); their builds share the tree's clone in the
 * cache, which ci/bisect-build.sh locks anyway.  Their output goes to
 * OUT/kernels/<sha12>.ahead.log, the spec line to .ahead.out.
 *
 * A build ahead only saves time: its result is taken when it built (its
 * spec, as the step's own build would print it) or failed to (exit 1:
 * the commit is skipped, as it would be); any other end (cancelled,
 * killed, a refusal, a folder removed since) leaves the step to build
 * the commit itself.  The verdicts are those of a bisect without it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bisect.h"
#include "keyval.h"
#include "vsb.h"

/* free disk a build ahead may take (a build folder is ~250 MB copied) */
#define AHEAD_DISK	(1ULL << 30)
/* how long a cancelled build's processes get to end before SIGKILL */
#define AHEAD_GRACE_MS	5000

/* a range git may be left with: its bad end and the goods it learned */
struct range {
	char bad[41];
	char good[4][41];
	size_t ngood;
};

/*
 * The machine's CPUs decide: on one, a build beside a boot only slows
 * the boot; from 2, the next step's two candidates (measured:
 * docs/bisect.md); from 8, the step after's four as well.
 */
long vsb_bisect_ahead_default(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n >= 8 ? 6 : n >= 2 ? 2 : 0;
}

/*
 * git's pick in @r: 0 with @out, or -1 (none: the culprit is r->bad).
 * `rev-list --bisect-vars` runs git bisect's own choice (find_bisection,
 * the first commit of best distance); plain --bisect would add the
 * bisect's refs/bisect/bad to @r's bad end, and the pick would be that
 * of the range git is in now, not of the one a verdict leaves.
 */
static int pick(const struct vsb_bisect *b, const struct range *r, char *out)
{
	static const char key[] = "bisect_rev='";
	const char *g[4] = { NULL };
	char gd[2048 + 16], line[128];
	size_t i, k = sizeof(key) - 1;

	for (i = 0; i < r->ngood; i++)
		g[i] = r->good[i];
	snprintf(gd, sizeof(gd), "%s/git", b->out);
	if (vsb_bisect_git(gd, line, sizeof(line), "rev-list", "--bisect-vars", r->bad,
			   "--not", "--glob=refs/bisect/good-*", b->good, g[0], g[1], g[2],
			   g[3], (char *)NULL) ||
	    strncmp(line, key, k) || strspn(line + k, "0123456789abcdef") != 40 ||
	    strcmp(line + k + 40, "'"))
		return -1;
	snprintf(out, 41, "%.40s", line + k);
	return strcmp(out, r->bad) ? 0 : -1;
}

static int planned(const struct vsb_bisect *b, const char *sha)
{
	size_t i;

	for (i = 0; i < b->nplan; i++)
		if (!strcmp(b->plan[i], sha))
			return 1;
	return 0;
}

/*
 * a commit a step skipped (it did not build, or stayed undecided): git
 * picks around it, so a pick of it is no build to make
 */
static int skipped(const struct vsb_bisect *b, const char *sha)
{
	size_t i;

	for (i = 0; i < b->nsteps; i++)
		if (!strcmp(b->steps[i].sha, sha) && !strcmp(b->steps[i].verdict, "skip"))
			return 1;
	return 0;
}

static void plan_add(struct vsb_bisect *b, const char *sha)
{
	snprintf(b->plan[b->nplan++], sizeof(b->plan[0]), "%s", sha);
}

/* the ranges the two verdicts on @x leave of @r, queued */
static size_t fork_range(const struct range *r, const char *x, struct range *q, size_t n)
{
	q[n] = *r;
	snprintf(q[n].bad, sizeof(q[n].bad), "%s", x);
	n++;
	if (r->ngood < 4) {
		q[n] = *r;
		snprintf(q[n].good[q[n].ngood++], sizeof(q[n].good[0]), "%s", x);
		n++;
	}
	return n;
}

static int measured(const struct vsb_bisect *b, const char *sha)
{
	size_t i;

	for (i = 0; i < b->nsteps; i++)
		if (!strcmp(b->steps[i].sha, sha))
			return 1;
	return 0;
}

size_t vsb_bisect_next_picks(const struct vsb_bisect *b, const char *head,
			     char (*out)[41], size_t max)
{
	struct range q[2], root = { .ngood = 0 };
	char gd[2048 + 16], x[64];
	size_t n, i, k = 0, j;

	snprintf(gd, sizeof(gd), "%s/git", b->out);
	if (vsb_bisect_git(gd, x, sizeof(x), "rev-parse", "refs/bisect/bad",
			   (char *)NULL) || strlen(x) != 40)
		return 0;
	snprintf(root.bad, sizeof(root.bad), "%s", x);
	n = fork_range(&root, head, q, 0);
	for (i = 0; i < n && k < max; i++) {
		if (pick(b, &q[i], x) || !strcmp(x, head) || measured(b, x))
			continue;
		for (j = 0; j < k && strcmp(out[j], x); j++)
			;
		if (j == k)
			snprintf(out[k++], sizeof(out[0]), "%s", x);
	}
	return k;
}

/* drop the pre-build @i from the table (its processes ended) */
static void drop(struct vsb_bisect *b, size_t i)
{
	memmove(&b->pre[i], &b->pre[i + 1], (b->npre - i - 1) * sizeof(b->pre[0]));
	b->npre--;
}

static void reap(struct vsb_bisect_pre *p, int block)
{
	int st;
	pid_t r;

	if (!p->pid)
		return;
	do
		r = waitpid(p->pid, &st, block ? 0 : WNOHANG);
	while (r < 0 && errno == EINTR && !vsb_interrupted);
	if (r != p->pid)
		return;
	p->pid = 0;
	p->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/*
 * Kill the groups of @n pre-builds from @p and wait until every process
 * of them is gone (a group outlives its supervisor while make ends).
 */
static void cancel(struct vsb_bisect_pre *p, size_t n)
{
	struct timespec nap = { 0, 20 * 1000 * 1000 };
	pid_t pg[VSB_BISECT_PRE_MAX];
	size_t i, live;
	int ms;

	for (i = 0; i < n; i++) {
		pg[i] = p[i].pid;
		if (pg[i])
			kill(-pg[i], SIGTERM);
	}
	for (ms = 0; ms < 2 * AHEAD_GRACE_MS; ms += 20) {
		for (i = live = 0; i < n; i++) {
			reap(&p[i], 0);
			live += pg[i] && !kill(-pg[i], 0);
		}
		if (!live)
			break;
		if (ms == AHEAD_GRACE_MS)
			for (i = 0; i < n; i++)
				if (pg[i])
					kill(-pg[i], SIGKILL);
		nanosleep(&nap, NULL);
	}
	for (i = 0; i < n; i++)
		if (pg[i])
			p[i].status = -1;	/* cancelled: never taken */
}

void vsb_bisect_ahead_plan(struct vsb_bisect *b, const char *head)
{
	struct range q[2 * VSB_BISECT_AHEAD_MAX + 4], root = { .ngood = 0 };
	char gd[2048 + 16], x[64];
	size_t n = 0, i;

	b->nplan = 0;
	if (b->ahead <= 0 && !b->npre)
		return;
	snprintf(gd, sizeof(gd), "%s/git", b->out);
	if (!head) {
		snprintf(root.bad, sizeof(root.bad), "%s", b->bad);
		q[n++] = root;
	} else if (!vsb_bisect_git(gd, x, sizeof(x), "rev-parse", "refs/bisect/bad",
				   (char *)NULL) && strlen(x) == 40) {
		snprintf(root.bad, sizeof(root.bad), "%s", x);
		n = fork_range(&root, head, q, n);
	}
	for (i = 0; i < n && b->nplan < (size_t)b->ahead; i++) {
		if (pick(b, &q[i], x) || planned(b, x) || skipped(b, x))
			continue;
		plan_add(b, x);
		if (n + 2 <= sizeof(q) / sizeof(q[0]))
			n = fork_range(&q[i], x, q, n);
	}
	/*
	 * what git can no longer ask for: cancelled, its files left; @head's
	 * own build ahead is the step's, taken next
	 */
	for (i = 0; i < b->npre; i++) {
		struct vsb_bisect_pre *p = &b->pre[i];

		if (planned(b, p->sha) || (head && !strcmp(p->sha, head)))
			continue;
		reap(p, 0);
		/* done: kept, git may still ask for it (around a skip) */
		if (!p->pid && (p->status == 0 || p->status == 1))
			continue;
		cancel(p, 1);
		drop(b, i--);
	}
}

/* a free row in b->pre: the oldest build done and not planned goes */
static int make_room(struct vsb_bisect *b)
{
	size_t i;

	if (b->npre < VSB_BISECT_PRE_MAX)
		return 0;
	for (i = 0; i < b->npre; i++)
		if (!b->pre[i].pid && !planned(b, b->pre[i].sha)) {
			drop(b, i);
			return 0;
		}
	return -1;
}

static int built(const struct vsb_bisect *b, const char *sha)
{
	size_t i;

	for (i = 0; i < b->nbuilt; i++)
		if (!strcmp(b->built[i].sha, sha))
			return 1;
	for (i = 0; i < b->npre; i++)
		if (!strcmp(b->pre[i].sha, sha))
			return 1;
	return 0;
}

static void out_path(const struct vsb_bisect *b, const char *sha, const char *ext,
		     char *buf, size_t len)
{
	snprintf(buf, len, "%s/kernels/%.12s.ahead.%s", b->out, sha, ext);
}

static volatile sig_atomic_t sup_stop;

static void sup_on_stop(int sig)
{
	(void)sig;
	if (!sup_stop) {
		sup_stop = 1;
		kill(0, SIGTERM);	/* the group: the build, make, its compilers */
	}
}

/* The supervisor: its turn, then the build, its exit status its own. */
static void __attribute__((noreturn))
supervise(const struct vsb_bisect *b, const char *sha, int baton, int mine, pid_t parent)
{
	struct vsb_bisect_cmdline c = { .argv = { NULL } };
	struct sigaction sa = { .sa_handler = sup_on_stop };
	char path[2048 + 64], ch;
	int fd, st, out, log;
	long max = sysconf(_SC_OPEN_MAX);
	sigset_t none;
	pid_t pid;

	setpgid(0, 0);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != parent)
		_exit(127);
	/* nothing of bisect's held here: OUT's lock, good's, other batons */
	for (fd = 3; fd < (max > 0 && max < 65536 ? max : 65536); fd++)
		if (fd != baton && fd != mine)
			close(fd);
	while (baton >= 0 && read(baton, &ch, 1) != 0)
		if (sup_stop || errno != EINTR)
			break;
	if (sup_stop)
		_exit(128 + SIGTERM);
	out_path(b, sha, "out", path, sizeof(path));
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	out_path(b, sha, "log", path, sizeof(path));
	log = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (out < 0 || log < 0)
		_exit(127);
	vsb_bisect_build_argv(b, sha, &c);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		dup2(null, STDIN_FILENO);
		dup2(out, STDOUT_FILENO);
		dup2(log, STDERR_FILENO);
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		execvp(c.argv[0], c.argv);
		_exit(127);
	}
	if (pid < 0)
		_exit(127);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			_exit(127);
	_exit(WIFEXITED(st) && !sup_stop ? WEXITSTATUS(st) : 128 + SIGTERM);
}

/*
 * Builds ahead run only beside boots that count instructions: an exact
 * count does not depend on what else the machine does, a time does (a
 * build beside a timed boot would be part of what it times, and could
 * change a verdict).  --timed among ab's options: never (an explicit
 * --ahead with it is refused up front); --exact: always; else ab's
 * choice, read from the endpoints' ab.txt once they ran (exact mode is
 * the default under TCG), so with neither the first pick is built only
 * after the endpoints.
 */
int vsb_bisect_exact(const struct vsb_bisect *b)
{
	char path[2048 + 64], mode[32];
	int i;

	for (i = 0; i < b->nab; i++) {
		if (!strcmp(b->ab_args[i], "--timed"))
			return 0;
		if (!strcmp(b->ab_args[i], "--exact"))
			return 1;
	}
	snprintf(path, sizeof(path), "%s/steps/00-endpoints/ab.txt", b->out);
	return !vsb_keyval_get(path, "mode", mode, sizeof(mode)) && !strcmp(mode, "exact");
}

/* disk for one more build folder where the cache is (good's folder) */
static int disk_allows(const struct vsb_bisect *b, size_t inflight)
{
	const char *colon = strchr(b->good_spec, ':');
	struct statvfs sv;

	if (!colon || statvfs(colon + 1, &sv))
		return 0;
	return (unsigned long long)sv.f_bavail * sv.f_frsize >= (inflight + 2) * AHEAD_DISK;
}

static void start(struct vsb_bisect *b, const char *sha)
{
	pid_t parent = getpid(), pid;
	int fds[2];

	if (pipe2(fds, O_CLOEXEC))
		return;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		supervise(b, sha, b->baton, fds[1], parent);
	}
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return;
	}
	setpgid(pid, pid);	/* as the child does: killable as a group at once */
	if (b->baton >= 0)
		close(b->baton);
	b->baton = fds[0];
	snprintf(b->pre[b->npre].sha, sizeof(b->pre[0].sha), "%s", sha);
	b->pre[b->npre].pid = pid;
	b->pre[b->npre++].status = -2;
	vsb_note("bisect: building %.12s ahead (log: %s/kernels/%.12s.ahead.log)", sha,
		 b->out, sha);
}

void vsb_bisect_ahead_launch(struct vsb_bisect *b)
{
	char k[2048 + 16];
	size_t i, inflight = 0;

	if (b->ahead <= 0 || vsb_interrupted || !vsb_bisect_exact(b))
		return;
	for (i = 0; i < b->npre; i++) {
		reap(&b->pre[i], 0);
		inflight += !!b->pre[i].pid;
	}
	snprintf(k, sizeof(k), "%s/kernels", b->out);
	if (vsb_mkdir_p(k, 0755))
		return;
	for (i = 0; i < b->nplan; i++) {
		if (built(b, b->plan[i]))
			continue;
		if (make_room(b))
			return;
		if (!disk_allows(b, inflight)) {
			vsb_note("bisect: no disk for more builds ahead (%llu MB free needed "
				 "each)", AHEAD_DISK >> 20);
			return;
		}
		start(b, b->plan[i]);
		inflight++;
	}
}

static void last_line(const char *path, char *spec, size_t len)
{
	char *buf = NULL, *end, *start;
	size_t n;

	spec[0] = '\0';
	if (vsb_read_whole(path, 1 << 20, &buf, &n))
		return;
	end = buf + n;
	while (end > buf && end[-1] == '\n')
		end--;
	*end = '\0';
	start = strrchr(buf, '\n');
	snprintf(spec, len, "%s", start ? start + 1 : buf);
	free(buf);
}

int vsb_bisect_ahead_take(struct vsb_bisect *b, const char *sha, char *spec, size_t len)
{
	char path[2048 + 64];
	size_t i;
	int rc;

	for (i = 0; i < b->npre && strcmp(b->pre[i].sha, sha); i++)
		;
	if (i == b->npre)
		return -1;
	reap(&b->pre[i], 1);
	if (b->pre[i].pid) {	/* interrupted while waiting */
		vsb_err("bisect: interrupted; the same command resumes");
		return VSB_EXIT_ERROR;
	}
	rc = b->pre[i].status;
	drop(b, i);
	if (rc != 0 && rc != 1)
		return -1;	/* cancelled, refused, killed: built by the step */
	out_path(b, sha, "out", path, sizeof(path));
	last_line(path, spec, len);
	rc = vsb_bisect_build_rc(rc, spec, sha);
	if (rc == 0 && !vsb_bisect_spec_complete(spec))
		return -1;	/* removed since (another build's prune) */
	vsb_note("bisect: %.12s %s ahead", sha, rc ? "did not build" : "built");
	return rc;
}

void vsb_bisect_ahead_stop(struct vsb_bisect *b)
{
	size_t i;

	cancel(b->pre, b->npre);
	for (i = 0; i < b->npre; i++)
		if (b->pre[i].status != 0 && b->pre[i].status != 1)
			drop(b, i--);
	if (b->baton >= 0)
		close(b->baton);
	b->baton = -1;
}
