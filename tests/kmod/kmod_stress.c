// SPDX-License-Identifier: GPL-2.0
/*
 * kmod_stress - concurrency and signal checks of /dev/vmstat_bench.
 *
 * Runs inside the test guest.  Prints TAP-ish lines "ok - ..." /
 * "not ok - ..." that the tests/kmod scripts number on the host.
 *
 *   kmod_stress busy      a long run in a child; a second caller gets
 *                         EBUSY; SIGUSR1 to the child ends its ioctl with
 *                         EINTR within 1 s; no vmstat_bench kthread is left
 *   kmod_stress cli VSB   the same through the CLI: `VSB run --backend
 *                         kmod` interrupted by SIGINT exits 1 within 1 s
 *   kmod_stress unknown   an unknown ioctl gets ENOTTY, a short one EINVAL
 *   kmod_stress version   prints the ABI version (for reload loops)
 *   kmod_stress fold      ABI 2's fold words: unsafe combinations and bad
 *                         values get EINVAL, VSB_RUN_UNSAFE_FOLD lets one
 *                         through, a remote fold with the reader and a
 *                         quiet worker returns its figures, an ABI 1
 *                         request still runs; EINTR and ETIME with the
 *                         fold timers, shepherd and reader running leave
 *                         no kthread behind
 *   kmod_stress sigleak N N page-alloc-parallel runs cycling 4096 pages
 *                         per CPU (allocate them all, free them all),
 *                         each ended by a signal mid-run: EINTR every
 *                         time, and MemFree after within 8 MiB of before
 *                         (a run that left one CPU's pages allocated
 *                         would take 16 MiB; the runs' own noise is
 *                         under 2 MiB)
 *   kmod_stress kstat     the kernel's own statistics functions: every op
 *                         the module has runs sane on 2 CPUs and puts its
 *                         item back exactly; each bad delta, run length,
 *                         threshold, busy count and foreign field gets
 *                         EINVAL; a threshold without the module
 *                         parameter EPERM; percpu-counter-sum with a busy
 *                         adder; a set threshold is put back
 *   kmod_stress runs N    N short mixed runs (page orders, outstanding,
 *                         parallel, percpu-counter), each must succeed
 *                         and be sane: the page-leak check around it
 *                         compares MemFree
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../kmod/uapi/vmstat_bench.h"
#include "../../bench/kstat_ops.h"

static int failed;

static void tap(int cond, const char *what, double v)
{
	printf("%sok - %s (%.3f)\n", cond ? "" : "not ", what, v);
	fflush(stdout);
	failed += !cond;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int dev_open(void)
{
	int fd = open("/dev/vmstat_bench", O_RDWR);

	if (fd < 0) {
		perror("/dev/vmstat_bench");
		exit(1);
	}
	return fd;
}

static uint32_t cpus[2] = { 0, 1 };
static struct vsb_ioc_sample samples[4096];
/* applied by req_init() to counter requests: the fold mode's runs */
static uint32_t g_variant = 3, g_fold, g_flags;
/* applied to page requests: pages each worker holds (page_bench02) */
static uint32_t g_outstanding = 32;

static void req_init(struct vsb_ioc_run *r, uint32_t bench, uint64_t loops,
		     uint32_t repeat, uint32_t ncpus)
{
	memset(r, 0, sizeof(*r));
	r->size = sizeof(*r);
	r->version = VSB_ABI_VERSION;
	r->bench = bench;
	r->ncpus = ncpus;
	r->cpus_ptr = (uint64_t)(uintptr_t)cpus;
	r->loops = loops;
	r->repeat = repeat;
	r->samples_ptr = (uint64_t)(uintptr_t)samples;
	r->samples_cap = 4096;
	r->time_limit_ms = 60000;
	if (bench == VSB_BENCH_COUNTER) {
		r->variant = g_variant;	/* 3: cmpxchg-local */
		r->fold = g_fold;
		r->fold_interval_us = g_fold ? 100 : 0;
		r->flags = g_flags;
		r->diff_bits = 8;
		r->threshold = 125;
		r->items = 1;
		r->delta = 1;
		r->batch = 32;
	} else if (bench != VSB_BENCH_KSTAT) {
		r->outstanding = g_outstanding;	/* allocated, then all freed */
	}
}

/* vmstat_bench/N kthreads still alive */
static int kthreads_left(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char p[300], comm[64] = "";
		FILE *f;

		snprintf(p, sizeof(p), "/proc/%s/comm", e->d_name);
		f = fopen(p, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, "vmstat_bench/", 13))
			n++;
		fclose(f);
	}
	closedir(d);
	return n;
}

/*
 * kthread_stop() returns when the thread's "exited" completion fires in
 * exit_mm(), before exit_notify() unhashes the task: its /proc entry can
 * outlive the ioctl by a moment.  Poll up to 200 ms before counting.
 */
static int kthreads_settled(void)
{
	int i, n = kthreads_left();

	for (i = 0; i < 40 && n > 0; i++) {
		usleep(5000);
		n = kthreads_left();
	}
	return n;
}

static void on_usr1(int sig)
{
	(void)sig;
}

/* child: one long run, exit 0 if it ended with EINTR */
static int long_run(uint32_t bench, uint32_t ncpus)
{
	struct sigaction sa;
	struct vsb_ioc_run r;
	int fd = dev_open(), ret;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;	/* no SA_RESTART: the EINTR must show */
	sigaction(SIGUSR1, &sa, NULL);
	req_init(&r, bench, 1000000000ULL, 1000, ncpus);
	ret = ioctl(fd, VSB_IOC_RUN, &r);
	if (ret == 0)
		return 2;
	return errno == EINTR ? 0 : 3;
}

static void busy(uint32_t bench, uint32_t ncpus, const char *name)
{
	struct vsb_ioc_run r;
	int fd, ret, st = 0, err;
	double t0, t1;
	pid_t pid;
	char what[160];

	pid = fork();
	if (pid == 0)
		_exit(long_run(bench, ncpus));
	usleep(500000);		/* let the child get into the module */
	fd = dev_open();
	req_init(&r, VSB_BENCH_COUNTER, 100, 1, 1);
	ret = ioctl(fd, VSB_IOC_RUN, &r);
	err = errno;
	close(fd);
	snprintf(what, sizeof(what), "%s: a second caller gets EBUSY (got %d/%s)",
		 name, ret, ret ? strerror(err) : "0");
	tap(ret == -1 && err == EBUSY, what, 0);

	t0 = now();
	kill(pid, SIGUSR1);
	waitpid(pid, &st, 0);
	t1 = now();
	snprintf(what, sizeof(what), "%s: signal ends the run with EINTR (child exit %d)",
		 name, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	tap(WIFEXITED(st) && WEXITSTATUS(st) == 0, what, t1 - t0);
	snprintf(what, sizeof(what), "%s: ... within 1 s of the signal (s)", name);
	tap(t1 - t0 < 1.0, what, t1 - t0);
	snprintf(what, sizeof(what), "%s: no vmstat_bench kthread left", name);
	tap(kthreads_settled() == 0, what, kthreads_left());
}

static void cli(const char *vsb)
{
	char what[120];
	double t0, t1;
	int st = 0, i;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		execl(vsb, vsb, "run", "--backend", "kmod", "--bench",
		      "page-alloc-parallel", "--cpus", "0-1", "--loops", "1000000000",
		      "--repeat", "1000", "--time-limit", "600", (char *)NULL);
		_exit(127);
	}
	/*
	 * SIGINT once the run is inside the module (its workers exist), not
	 * after a fixed delay: under TCG on a loaded host the harness can take
	 * longer than any fixed delay to reach its handler, and a SIGINT before
	 * then kills it, which is not what this checks.
	 */
	for (i = 0; i < 600 && kthreads_left() <= 0; i++)
		usleep(50000);
	usleep(200000);
	t0 = now();
	kill(pid, SIGINT);
	waitpid(pid, &st, 0);
	t1 = now();
	snprintf(what, sizeof(what),
		 "cli: SIGINT during a kmod run: vmstat-bench exits 1 (%s %d)",
		 WIFEXITED(st) ? "exit" : "signal",
		 WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	tap(WIFEXITED(st) && WEXITSTATUS(st) == 1, what, 0);
	tap(t1 - t0 < 1.0, "cli: ... within 1 s (s)", t1 - t0);
	tap(kthreads_settled() == 0, "cli: no vmstat_bench kthread left", kthreads_left());
}

static int runs(long n)
{
	struct vsb_ioc_run r;
	int fd = dev_open(), bad = 0, ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	long i;

	for (i = 0; i < n; i++) {
		switch (i % 4) {
		case 0:
			req_init(&r, VSB_BENCH_PAGE_ALLOC, 8, 1, 1);
			r.order = (uint32_t)(i % 11);
			r.outstanding = 0;
			break;
		case 1:
			req_init(&r, VSB_BENCH_PAGE_ALLOC, 64, 1, 1);
			r.outstanding = 64;
			break;
		case 2:
			req_init(&r, VSB_BENCH_PAGE_ALLOC_PARALLEL, 64, 1,
				 ncpu > 1 ? 2 : 1);
			r.order = 2;
			break;
		default:
			req_init(&r, VSB_BENCH_COUNTER, 1000, 1, ncpu > 1 ? 2 : 1);
			r.variant = 6;	/* percpu-counter */
			break;
		}
		r.warmup = 0;
		if (ioctl(fd, VSB_IOC_RUN, &r) || !(r.result_flags & VSB_RES_SANITY_OK)) {
			fprintf(stderr, "run %ld: %s\n", i, strerror(errno));
			bad++;
		}
	}
	close(fd);
	return bad;
}

/* ioctl(@r) result: 0 or the errno */
static int run_err(int fd, struct vsb_ioc_run *r)
{
	return ioctl(fd, VSB_IOC_RUN, r) ? errno : 0;
}

static void fold(void)
{
	struct vsb_ioc_run r;
	int fd = dev_open(), err, ok;
	double t0;

	req_init(&r, VSB_BENCH_COUNTER, 2000, 2, 2);
	r.variant = 1;			/* plain-fold */
	r.fold = VSB_FOLD_POLICY_LOCAL;
	r.fold_interval_us = 100;
	err = run_err(fd, &r);
	tap(err == EINVAL, "fold: plain-fold with a local fold gets EINVAL", err);
	req_init(&r, VSB_BENCH_COUNTER, 2000, 2, 2);
	r.variant = 1;
	r.fold = VSB_FOLD_POLICY_LOCAL;
	r.fold_interval_us = 100;
	r.flags = VSB_RUN_UNSAFE_FOLD;
	err = run_err(fd, &r);
	tap(err == 0, "fold: ... runs with VSB_RUN_UNSAFE_FOLD", err);
	req_init(&r, VSB_BENCH_COUNTER, 2000, 2, 2);
	r.fold = VSB_FOLD_POLICY_REMOTE;	/* cmpxchg-local: no LOCK */
	r.fold_interval_us = 100;
	err = run_err(fd, &r);
	tap(err == EINVAL, "fold: cmpxchg-local with a remote fold gets EINVAL", err);
	req_init(&r, VSB_BENCH_COUNTER, 2000, 2, 2);
	r.variant = 6;			/* percpu-counter: no diffs to fold */
	r.fold = VSB_FOLD_POLICY_LOCAL;
	r.fold_interval_us = 100;
	r.flags = VSB_RUN_UNSAFE_FOLD;
	err = run_err(fd, &r);
	tap(err == EINVAL, "fold: percpu-counter with a fold gets EINVAL even unsafe", err);
	req_init(&r, VSB_BENCH_COUNTER, 2000, 2, 2);
	r.quiet_workers = 2;
	err = run_err(fd, &r);
	tap(err == EINVAL, "fold: quiet workers = CPUs gets EINVAL", err);
	req_init(&r, VSB_BENCH_COUNTER, 2000, 2, 2);
	r.fold = VSB_FOLD_POLICY_LOCAL;
	r.fold_interval_us = 9;
	err = run_err(fd, &r);
	tap(err == EINVAL, "fold: a 9 us interval gets EINVAL", err);
	r.fold_interval_us = 10000001;
	err = run_err(fd, &r);
	tap(err == EINVAL, "fold: a 10.000001 s interval gets EINVAL", err);
	req_init(&r, VSB_BENCH_COUNTER, 2000, 2, 2);
	r.fold_interval_us = 100;	/* with no fold */
	err = run_err(fd, &r);
	tap(err == EINVAL, "fold: an interval without a fold gets EINVAL", err);
	req_init(&r, VSB_BENCH_PAGE_ALLOC_PARALLEL, 16, 1, 2);
	r.flags = VSB_RUN_DRIFT;
	err = run_err(fd, &r);
	tap(err == EINVAL, "fold: the reader on a page bench gets EINVAL", err);

	/* remote fold, reader, one quiet worker: figures come back */
	req_init(&r, VSB_BENCH_COUNTER, 20000, 3, 2);
	r.variant = 4;			/* cmpxchg-locked */
	r.warmup = 1;
	r.fold = VSB_FOLD_POLICY_REMOTE;
	r.fold_interval_us = 100;
	r.quiet_workers = 1;
	r.flags = VSB_RUN_DRIFT;
	err = run_err(fd, &r);
	ok = !err && (r.result_flags & VSB_RES_SANITY_OK) && r.nsamples == 3 &&
	     r.drift_samples > 0 && r.fold_count > 0 &&
	     r.drift_p99 <= r.drift_max && r.stale_p99_ns <= r.stale_max_ns &&
	     !r.kstat_threshold && !r.kstat_folds;
	tap(ok, "fold: remote + reader + 1 quiet: sane, 3 samples, reader and "
	    "shepherd counts (reader samples)", ok ? (double)r.drift_samples : err);

	/* ABI 1's request under its old number still runs */
	req_init(&r, VSB_BENCH_COUNTER, 2000, 2, 2);
	r.size = VSB_IOC_RUN_V1_SIZE;
	r.version = 1;
	err = ioctl(fd, VSB_IOC_RUN_V1, &r) ? errno : 0;
	tap(!err && (r.result_flags & VSB_RES_SANITY_OK) && r.nsamples == 4,
	    "fold: an ABI 1 request (VSB_IOC_RUN_V1, 224 bytes) runs, sane", err);
	req_init(&r, VSB_BENCH_COUNTER, 2000, 2, 2);
	r.size = VSB_IOC_RUN_V1_SIZE;
	r.version = 1;
	r.flags = VSB_RUN_DRIFT;
	err = ioctl(fd, VSB_IOC_RUN_V1, &r) ? errno : 0;
	tap(err == EINVAL, "fold: an ABI 1 request with an ABI 2 flag gets EINVAL", err);
	req_init(&r, VSB_BENCH_COUNTER, 2000, 2, 2);
	r.size = VSB_IOC_RUN_V1_SIZE;
	r.version = 1;
	r.fold = VSB_FOLD_POLICY_LOCAL;		/* a reserved word in ABI 1 */
	r.fold_interval_us = 100;
	err = ioctl(fd, VSB_IOC_RUN_V1, &r) ? errno : 0;
	tap(err == EINVAL, "fold: an ABI 1 request with its reserved fold words set gets EINVAL",
	    err);

	/* the time limit with timers, shepherd and reader all running */
	g_flags = VSB_RUN_DRIFT;
	g_fold = VSB_FOLD_POLICY_LOCAL;
	req_init(&r, VSB_BENCH_COUNTER, 1000000000ULL, 1000, 2);
	r.time_limit_ms = 300;
	t0 = now();
	err = run_err(fd, &r);
	tap(err == ETIME && now() - t0 < 2.0,
	    "fold: local fold + reader cut by the time limit: ETIME (s)", now() - t0);
	g_variant = 4;
	g_fold = VSB_FOLD_POLICY_REMOTE;
	req_init(&r, VSB_BENCH_COUNTER, 1000000000ULL, 1000, 2);
	r.time_limit_ms = 300;
	r.quiet_workers = 1;
	t0 = now();
	err = run_err(fd, &r);
	tap(err == ETIME && now() - t0 < 2.0,
	    "fold: remote fold + reader + quiet cut by the time limit: ETIME (s)",
	    now() - t0);
	tap(kthreads_settled() == 0, "fold: no vmstat_bench kthread left", kthreads_left());
	close(fd);

	/* and a signal, both policies (busy() forks: the globals go along) */
	g_variant = 3;
	g_fold = VSB_FOLD_POLICY_LOCAL;
	busy(VSB_BENCH_COUNTER, 2, "counter, local fold + reader");
	g_variant = 4;
	g_fold = VSB_FOLD_POLICY_REMOTE;
	busy(VSB_BENCH_COUNTER, 2, "counter, remote fold + reader");
	g_variant = 3;
	g_fold = g_flags = 0;
}

static void kstat_init(struct vsb_ioc_run *r, uint32_t op, uint32_t ncpus)
{
	req_init(r, VSB_BENCH_KSTAT, 3000, 2, ncpus);
	r->kstat_op = op;
	r->delta = 1;
	r->run_length = 300;	/* past any stat_threshold (<= 125): folds */
	if (vsb_kstat_ops[op].flags & VSB_KF_PCC)
		r->batch = 32;
}

static int param_on(const char *name)
{
	char path[128], c = '0';
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/vmstat_bench/parameters/%s", name);
	f = fopen(path, "r");
	if (f) {
		if (fread(&c, 1, 1, f) != 1)
			c = '0';
		fclose(f);
	}
	return c == 'Y' || c == '1';
}

/* The folds moved @want units each, on average (vmstat_update may fold a part). */
static int fold_size_ok(const struct vsb_ioc_run *r, double want)
{
	double per = r->kstat_folds ? (double)r->kstat_moved / (double)r->kstat_folds : 0;

	return per > want - 0.5 && per < want + 0.5;
}

/* What one fold of @op moves at the run's threshold: t + 1, inc/dec t/2 more. */
static double fold_size(const struct vsb_ioc_run *r)
{
	unsigned int t = r->kstat_threshold_run;

	return vsb_kstat_ops[r->kstat_op].flags & VSB_KF_UNIT ? t + 1 + t / 2 : t + 1;
}

/* Every op the module has: sane, the item back, folds where it folds. */
static void kstat_ops_sane(int fd, uint64_t have)
{
	struct vsb_ioc_run r;
	uint32_t op;
	char what[160];

	for (op = 0; op < VSB_KSTAT_NR; op++) {
		unsigned int f = vsb_kstat_ops[op].flags;
		int err, ok, folds;

		if (!(have & (1ULL << op)))
			continue;
		kstat_init(&r, op, 2);
		err = run_err(fd, &r);
		/* the kernel's own fold rule, seen from the diffs it leaves */
		folds = f & (VSB_KF_ZONE | VSB_KF_NODE) ? fold_size_ok(&r, fold_size(&r)) :
			f & VSB_KF_PCC && !(f & VSB_KF_READ) ? r.kstat_folds > 0 :
			r.kstat_folds == 0;
		ok = !err && (r.result_flags & VSB_RES_SANITY_OK) && r.nsamples == 4 &&
		     (f & VSB_KF_PCC ? r.counted == r.applied : r.counted == 0) && folds;
		snprintf(what, sizeof(what), "kstat %s on 2 CPUs: sane, the item back "
			 "(after - before = %lld), %llu folds of the size its threshold %u "
			 "says (folds)", vsb_kstat_ops[op].name, (long long)r.counted,
			 (unsigned long long)r.kstat_folds, r.kstat_threshold_run);
		tap(ok, what, ok ? (double)r.kstat_folds : err);
	}
}

/* One field of a valid kstat request spoiled: EINVAL. */
static void kstat_einval(int fd, const char *what, uint32_t op,
			 void (*spoil)(struct vsb_ioc_run *r))
{
	struct vsb_ioc_run r;
	int err;
	char buf[160];

	kstat_init(&r, op, 2);
	spoil(&r);
	err = run_err(fd, &r);
	snprintf(buf, sizeof(buf), "kstat: %s gets EINVAL", what);
	tap(err == EINVAL, buf, err);
}

static void sp_delta0(struct vsb_ioc_run *r) { r->delta = 0; }
static void sp_delta_neg(struct vsb_ioc_run *r) { r->delta = -1; }
static void sp_delta_big(struct vsb_ioc_run *r) { r->delta = VSB_ABI_DELTA_MAX + 1; }
static void sp_delta2(struct vsb_ioc_run *r) { r->delta = 2; }
static void sp_run0(struct vsb_ioc_run *r) { r->run_length = 0; }
static void sp_run_big(struct vsb_ioc_run *r) { r->run_length = VSB_ABI_RUN_LENGTH_MAX + 1; }
static void sp_busy_all(struct vsb_ioc_run *r) { r->busy_workers = r->ncpus; }
static void sp_thr_big(struct vsb_ioc_run *r) { r->threshold = VSB_ABI_KSTAT_THRESHOLD_MAX + 1; }
static void sp_thr(struct vsb_ioc_run *r) { r->threshold = 32; }
static void sp_batch(struct vsb_ioc_run *r) { r->batch = 32; }
static void sp_batch0(struct vsb_ioc_run *r) { r->batch = 0; }
static void sp_op(struct vsb_ioc_run *r) { r->kstat_op = VSB_KSTAT_NR; }
static void sp_variant(struct vsb_ioc_run *r) { r->variant = 1; }
static void sp_res(struct vsb_ioc_run *r) { r->reserved_in32 = 1; }
static void sp_out(struct vsb_ioc_run *r) { r->kstat_folds = 1; }

static void kstat(void)
{
	struct vsb_ioc_version v;
	struct vsb_ioc_run r;
	int fd = dev_open(), err, ok;
	uint64_t all = ~0ULL >> (64 - VSB_KSTAT_NR);

	memset(&v, 0, sizeof(v));
	v.size = sizeof(v);
	err = ioctl(fd, VSB_IOC_VERSION, &v) ? errno : 0;
	ok = !err && (v.caps & VSB_CAP_KSTAT) && !(v.kstat_ops & ~all) &&
	     (v.kstat_ops & (1ULL << VSB_KSTAT_mod_zone));
	tap(ok, "kstat: VSB_CAP_KSTAT, an op mask within the table (mask)",
	    ok ? (double)v.kstat_ops : err);
	kstat_ops_sane(fd, v.kstat_ops);

	kstat_einval(fd, "delta 0", VSB_KSTAT_mod_zone, sp_delta0);
	kstat_einval(fd, "delta -1 (the first run is positive)", VSB_KSTAT_mod_zone, sp_delta_neg);
	kstat_einval(fd, "delta 101", VSB_KSTAT_mod_node, sp_delta_big);
	kstat_einval(fd, "inc-dec with delta 2", VSB_KSTAT_inc_dec_zone, sp_delta2);
	kstat_einval(fd, "run length 0", VSB_KSTAT_mod_zone, sp_run0);
	kstat_einval(fd, "run length 10^6 + 1", VSB_KSTAT_mod_zone, sp_run_big);
	kstat_einval(fd, "every worker busy", VSB_KSTAT_pcc_sum, sp_busy_all);
	kstat_einval(fd, "threshold 126 (s8 diffs)", VSB_KSTAT_mod_zone, sp_thr_big);
	kstat_einval(fd, "a threshold for a vm event", VSB_KSTAT_vm_event, sp_thr);
	kstat_einval(fd, "a batch for mod-zone", VSB_KSTAT_mod_zone, sp_batch);
	kstat_einval(fd, "batch 0 for percpu-counter-add", VSB_KSTAT_pcc_add, sp_batch0);
	kstat_einval(fd, "an op past the table", VSB_KSTAT_mod_zone, sp_op);
	kstat_einval(fd, "a counter variant", VSB_KSTAT_mod_zone, sp_variant);
	kstat_einval(fd, "a dirty reserved word", VSB_KSTAT_mod_zone, sp_res);
	kstat_einval(fd, "an out field not zero", VSB_KSTAT_mod_zone, sp_out);
	req_init(&r, VSB_BENCH_COUNTER, 1000, 1, 1);
	r.run_length = 10;
	err = run_err(fd, &r);
	tap(err == EINVAL, "kstat's words on a counter request get EINVAL", err);
	kstat_init(&r, VSB_KSTAT_mod_zone, 1);
	r.size = VSB_IOC_RUN_V1_SIZE;
	r.version = 1;
	err = ioctl(fd, VSB_IOC_RUN_V1, &r) ? errno : 0;
	tap(err == EINVAL, "kstat under ABI 1's request gets EINVAL", err);

	/* percpu-counter-sum timed on CPU 0 while CPU 1 adds */
	kstat_init(&r, VSB_KSTAT_pcc_sum, 2);
	r.busy_workers = 1;
	r.batch = 4;
	err = run_err(fd, &r);
	ok = !err && (r.result_flags & VSB_RES_SANITY_OK) && r.nsamples == 2 &&
	     samples[0].thread == 0 && samples[1].thread == 0 && r.counted == r.applied;
	tap(ok, "kstat percpu-counter-sum with a busy adder: worker 0's samples only, "
	    "the sum is what was added (added)", ok ? (double)r.applied : err);

	/* a threshold of the run's own, then the kernel's back */
	kstat_init(&r, VSB_KSTAT_mod_zone, 2);
	r.threshold = 7;
	err = run_err(fd, &r);
	if (!param_on("kstat_set_threshold")) {
		tap(err == EPERM, "kstat threshold without kstat_set_threshold=1 gets EPERM", err);
	} else {
		uint32_t thr = r.kstat_threshold;

		ok = !err && (r.result_flags & VSB_RES_SANITY_OK) && r.kstat_threshold_run == 7 &&
		     fold_size_ok(&r, 8);
		tap(ok, "kstat threshold 7 for the run: sane, each fold moves 8 (units per fold)",
		    r.kstat_folds ? (double)r.kstat_moved / (double)r.kstat_folds : err);
		kstat_init(&r, VSB_KSTAT_mod_zone, 2);
		err = run_err(fd, &r);
		tap(!err && r.kstat_threshold == thr && r.kstat_threshold_run == thr,
		    "kstat: the kernel's threshold is back after the run (threshold)",
		    (double)r.kstat_threshold);
	}
	close(fd);
}

static void unknown(void)
{
	struct vsb_ioc_version v;
	int fd = dev_open(), ret, err;

	ret = ioctl(fd, _IO(VSB_IOC_MAGIC, 0x7f), 0);
	err = errno;
	tap(ret == -1 && err == ENOTTY, "unknown ioctl gets ENOTTY", err);
	ret = ioctl(fd, _IOWR('x', 1, int), &v);
	err = errno;
	tap(ret == -1 && err == ENOTTY, "foreign ioctl gets ENOTTY", err);
	memset(&v, 0, sizeof(v));
	v.size = sizeof(v) - 8;
	ret = ioctl(fd, VSB_IOC_VERSION, &v);
	err = errno;
	tap(ret == -1 && err == EINVAL, "version with a wrong size gets EINVAL", err);
	memset(&v, 0, sizeof(v));
	v.size = sizeof(v);
	v.reserved[1] = 1;
	ret = ioctl(fd, VSB_IOC_VERSION, &v);
	err = errno;
	tap(ret == -1 && err == EINVAL, "version with a dirty reserved word gets EINVAL", err);
	ret = ioctl(fd, VSB_IOC_VERSION, NULL);
	err = errno;
	tap(ret == -1 && err == EFAULT, "version with a NULL pointer gets EFAULT", err);
	close(fd);
}

static long memfree_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long kb = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemFree: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

/*
 * A signal must not cost pages: the module notices it between chunks,
 * after a worker freed what it allocated, and this holds it to that
 * (a change that stopped mid-chunk would have to free the held array on
 * the EINTR path, or fail here).  The warm-up run fills
 * the per-CPU free lists first, so the two MemFree readings compare the
 * same steady state.
 */
static void sigleak(int n)
{
	int ncpu = sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 2 : 1, i, eintr = 0, st;
	struct vsb_ioc_run r;
	long m0, m1;
	char what[160];
	int fd = dev_open();
	pid_t pid;

	g_outstanding = 4096;
	req_init(&r, VSB_BENCH_PAGE_ALLOC_PARALLEL, 2, 1, (uint32_t)ncpu);
	if (ioctl(fd, VSB_IOC_RUN, &r))
		perror("sigleak warm-up run");
	close(fd);
	m0 = memfree_kb();
	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid == 0)
			_exit(long_run(VSB_BENCH_PAGE_ALLOC_PARALLEL, (uint32_t)ncpu));
		usleep(200000 + 37000 * (useconds_t)i);	/* land at varied points */
		kill(pid, SIGUSR1);
		st = 0;
		waitpid(pid, &st, 0);
		eintr += WIFEXITED(st) && WEXITSTATUS(st) == 0;
	}
	m1 = memfree_kb();
	snprintf(what, sizeof(what), "sigleak: %d of %d runs cycling 4096 pages/CPU ended by EINTR",
		 eintr, n);
	tap(eintr == n, what, eintr);
	snprintf(what, sizeof(what),
		 "sigleak: no pages lost to the signals (MemFree %ld -> %ld kB; drop, kB)",
		 m0, m1);
	tap(m0 > 0 && m1 > 0 && m0 - m1 < 8192, what, (double)(m0 - m1));
	g_outstanding = 32;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (!strcmp(mode, "busy")) {
		int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);

		busy(VSB_BENCH_COUNTER, ncpu > 1 ? 2 : 1, "counter");
		busy(VSB_BENCH_PAGE_ALLOC_PARALLEL, ncpu > 1 ? 2 : 1,
		     "page-alloc-parallel outstanding 32");
	} else if (!strcmp(mode, "cli") && argc > 2) {
		cli(argv[2]);
	} else if (!strcmp(mode, "sigleak") && argc > 2) {
		sigleak(atoi(argv[2]));
	} else if (!strcmp(mode, "runs") && argc > 2) {
		return runs(atol(argv[2])) ? 1 : 0;
	} else if (!strcmp(mode, "kstat")) {
		kstat();
	} else if (!strcmp(mode, "unknown")) {
		unknown();
	} else if (!strcmp(mode, "fold")) {
		fold();
	} else if (!strcmp(mode, "version")) {
		struct vsb_ioc_version v;
		int fd = dev_open();

		memset(&v, 0, sizeof(v));
		v.size = sizeof(v);
		if (ioctl(fd, VSB_IOC_VERSION, &v)) {
			perror("VSB_IOC_VERSION");
			return 1;
		}
		printf("%u\n", v.version);
		return 0;
	} else {
		fprintf(stderr, "usage: kmod_stress busy|cli VSB|unknown|fold|version|sigleak N|runs N\n");
		return 2;
	}
	return failed ? 1 : 0;
}
