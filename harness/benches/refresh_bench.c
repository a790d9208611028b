// SPDX-License-Identifier: GPL-2.0
/*
 * The threshold-refresh bench: the 004 thread's boot-time cost as a
 * benchmark point, so sweeps, statistics, comparisons and charts apply to
 * it like to any other bench.  One sample is one complete bring-up of
 * --model-cpus CPUs on --model-nodes nodes with the chosen --approach
 * (thresholds.c); ops are the per-CPU threshold stores it did, so the
 * cost per op is the cost of one store into another CPU's per-CPU unit.
 *
 * The sanity check compares the stores counted by the model with the
 * closed form of each approach: the model must do the loops it claims.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "benches.h"
#include "refresh_seed.h"
#include "thresholds.h"

/*
 * One bring-up of the model, in a child process, so that a signal ends
 * the run at once: a bring-up of 4096 CPUs on 64 nodes takes tens of
 * seconds, and the model (thresholds.c, shared with `refresh-model`)
 * has no stop check of its own, nor should its timed loops get one.
 * The child inherits the pinning and runs exactly the same code; its
 * timing is taken inside it, so the fork is outside the measurement.
 * The parent sleeps in ppoll() (no wake-ups on the pinned CPU) until the
 * result or a signal; on a signal it kills the child and says 1.
 * Returns 0 with *@res, 1 when interrupted, -1 when the model failed.
 */
struct model_msg {
	int rc;
	struct vsb_refresh_result res;
};

static void model_child(int fd, int a, unsigned int ncpus, unsigned int nodes,
			pid_t parent)
{
	struct model_msg m;

	prctl(PR_SET_PDEATHSIG, SIGKILL);	/* a SIGKILLed run takes it along */
	if (getppid() != parent)
		_exit(1);
	memset(&m, 0, sizeof(m));
	m.rc = vsb_refresh_model(a, ncpus, nodes, 1, &m.res);
	_exit(write(fd, &m, sizeof(m)) == (ssize_t)sizeof(m) ? 0 : 1);
}

static int model_wait(int fd, pid_t pid, struct model_msg *m)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	sigset_t old;
	ssize_t n = -1;
	int st;

	vsb_block_stop_signals(&old);
	/* the flag is read with the signals blocked: none is missed */
	while (!vsb_interrupted && ppoll(&pfd, 1, NULL, &old) < 0 && errno == EINTR)
		;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (vsb_interrupted)
		kill(pid, SIGKILL);
	else
		n = read(fd, m, sizeof(*m));
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (vsb_interrupted)
		return 1;
	return n == (ssize_t)sizeof(*m) && !m->rc ? 0 : -1;
}

static int model_run(int a, unsigned int ncpus, unsigned int nodes,
		     struct vsb_refresh_result *res)
{
	struct model_msg m;
	pid_t pid, self = getpid();
	int fd[2], ret;

	if (pipe2(fd, O_CLOEXEC))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		close(fd[0]);
		model_child(fd[1], a, ncpus, nodes, self);
	}
	close(fd[1]);
	if (pid < 0) {
		close(fd[0]);
		return -1;
	}
	ret = model_wait(fd[0], pid, &m);
	close(fd[0]);
	if (!ret)
		*res = m.res;
	return ret;
}

static int refresh_run(const struct vsb_run_opts *o, struct vsb_result *r)
{
	int a = vsb_refresh_approach(o->approach);
	unsigned int ncpus = (unsigned int)o->model_cpus;
	unsigned int nodes = (unsigned int)o->model_nodes;
	uint64_t want = vsb_refresh_expected(a, ncpus, nodes, 1);
	struct vsb_refresh_result res;
	cpu_set_t set;
	long rep;
	int ret;

	CPU_ZERO(&set);
	CPU_SET(o->cpus.cpu[0], &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		vsb_err_opt("cpus", "--cpus: cannot pin to CPU %d", o->cpus.cpu[0]);
		return VSB_EXIT_ERROR;
	}
	r->nthreads = 1;
	strcpy(r->unit, "tsc");
	strcpy(r->event, "rdtscp");
	vsb_result_meta(r, "refresh_model",
			"%u CPUs brought online one by one, %u node(s), 1 zone per node, "
			"one per-CPU unit of 64 KiB per CPU", ncpus, nodes);
	vsb_refresh_seed_write(r, vsb_refresh_seed_estimate(ncpus, nodes));
	r->sanity_ok = 1;
	snprintf(r->sanity, sizeof(r->sanity), "ok: %llu threshold stores per bring-up, as %s must do",
		 (unsigned long long)want, o->approach);
	for (rep = -o->warmup; rep < o->repeat && !vsb_interrupted; rep++) {
		struct vsb_sample s;

		ret = model_run(a, ncpus, nodes, &res);
		if (ret > 0)
			break;		/* interrupted: that sample is not data */
		if (ret) {
			vsb_err_opt("model-cpus", "--model-cpus: cannot map %u per-CPU units", ncpus);
			return VSB_EXIT_ERROR;
		}
		if (res.iterations != want) {
			r->sanity_ok = 0;
			snprintf(r->sanity, sizeof(r->sanity),
				 "FAILED: %s did %llu stores, the closed form says %llu",
				 o->approach, (unsigned long long)res.iterations,
				 (unsigned long long)want);
		}
		if (rep < 0)
			continue;
		memset(&s, 0, sizeof(s));
		s.cpu = o->cpus.cpu[0];
		s.rep = (unsigned int)rep;
		s.ops = res.iterations;
		s.elapsed = res.tsc;
		s.ns = res.seconds * 1e9;
		vsb_result_add(r, &s);
	}
	if (vsb_interrupted) {
		vsb_err("interrupted: no result written");
		return VSB_EXIT_ERROR;
	}
	r->applied = r->counted = (long long)want;
	return 0;
}

/* its point in the text header's words (bench_model.h) */
static void refresh_describe(const struct vsb_run_opts *o, FILE *f)
{
	fprintf(f, "%s, %ld CPUs x %ld nodes", o->approach, o->model_cpus,
		o->model_nodes);
}

const struct vsb_bench vsb_bench_threshold_refresh = {
	.name = "threshold-refresh", .sides = VSB_SIDE_USER,
	.desc = "model: refresh_zone_stat_thresholds at CPU bring-up, per --approach (004 thread)",
	.run_user = refresh_run,
	.takes = "model-cpus model-nodes approach",
	.model = { .describe = refresh_describe, .reps_are = "bring-ups",
		   .charts = VSB_CHARTS_REFRESH },
};
