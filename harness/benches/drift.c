// SPDX-License-Identifier: GPL-2.0
/*
 * Fold policies and the drift reader for the user-space counter bench.
 *
 * local: like vmstat_update, each writer folds its own diffs every
 * --fold-interval-us.  A POSIX timer aimed at the writer's thread
 * delivers a signal whose handler runs bench/'s vsb_counter_fold() on the
 * interrupted writer's own slots: exactly the interleaving an interrupt
 * or a kworker preempting the writer creates in the kernel.  Variants
 * whose update is a plain read-modify-write lose updates to it, which is
 * why the kernel disables irqs around __mod_zone_page_state.
 *
 * remote: like the 002 proposal's vmstat_shepherd, one thread folds every
 * writer's diffs with a LOCK xchg from another CPU; writers are never
 * interrupted, and only a LOCKed update is atomic against it.
 *
 * The reader samples, every 100 us, the shared counters (what
 * /proc/vmstat shows) and every per-CPU diff (what it misses).  Drift is
 * the sum of the diffs at a sample: the error of a reader that only looks
 * at the global.  Staleness is, per slot, how long a nonzero diff has sat
 * unchanged: a change nobody updated or folded since.  Busy writers change
 * their slots constantly (staleness ~0); quiet writers (--quiet-workers,
 * the nohz_full CPUs of the 002 thread) keep their last diff until a fold
 * reaches it, and only a remote fold can without interrupting them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "benches.h"
#include "clock.h"
#include "drift.h"

#define READER_PERIOD_NS	100000L
#define READER_MAX_SAMPLES	(1u << 20)
#define FOLD_SIGNAL		(SIGRTMIN + 1)

struct drift_sample {
	uint64_t t;
	long drift;		/* sum of all per-CPU diffs */
	uint64_t stale;		/* oldest unchanged nonzero slot, ns */
};

struct vsb_drift {
	int policy;
	long interval_ns;
	int reader;
	unsigned int bits, items;
	struct vsb_counter_worker *const *ws;
	const int *cpus;
	int n;
	pthread_t shepherd, reader_th;
	int have_shepherd, have_reader;
	int stop;
	uint64_t remote_folds;
	int shepherd_rt, reader_rt;	/* 1 when SCHED_FIFO took, else -errno */
	int shepherd_up, reader_up;
	struct vsb_cpulist spare;	/* where the shepherd and the reader run */
	struct drift_sample *hist;
	size_t nhist;
};

int vsb_fold_policy(const char *name)
{
	if (!strcmp(name, "local"))
		return VSB_FOLD_LOCAL;
	if (!strcmp(name, "remote"))
		return VSB_FOLD_REMOTE;
	return VSB_FOLD_NONE;
}

/*
 * Refuse the combinations that lose updates, with the reason.  The
 * environment variable VSB_UNSAFE_FOLD=1 lets them run: the test that
 * demonstrates the lost updates uses it, nothing else should.
 */
int vsb_fold_check(const struct vsb_run_opts *o)
{
	int policy = vsb_fold_policy(o->fold);
	const struct vsb_variant_info *v;

	if (policy == VSB_FOLD_NONE || o->variant_id < 0)
		return 0;
	v = &vsb_variants[o->variant_id];
	if (v->flags & (VSB_VF_NOFOLD | VSB_VF_PCC | VSB_VF_NOTHRESH)) {
		vsb_err_opt("fold", "--fold %s: %s does not keep foldable per-CPU diffs (see vmstat-bench list)",
			o->fold, v->name);
		return VSB_EXIT_USAGE;
	}
	if (getenv("VSB_UNSAFE_FOLD") && !strcmp(getenv("VSB_UNSAFE_FOLD"), "1"))
		return 0;
	if (policy == VSB_FOLD_LOCAL && !(v->flags & VSB_VF_LOCAL_FOLD_OK)) {
		vsb_err_opt("fold", "--fold local: unsafe with %s: the fold can land between its read and its write (the kernel runs it with irqs off)",
			v->name);
		return VSB_EXIT_USAGE;
	}
	if (policy == VSB_FOLD_REMOTE && !(v->flags & VSB_VF_REMOTE_FOLD_OK)) {
		vsb_err_opt("fold", "--fold remote: unsafe with %s: only a LOCKed update is atomic against another CPU's xchg (use cmpxchg-locked)",
			v->name);
		return VSB_EXIT_USAGE;
	}
	return 0;
}

static long slot_value(const void *diffs, unsigned int bits, unsigned int i)
{
	switch (bits) {
	case 8:
		return __atomic_load_n((const s8 *)diffs + i, __ATOMIC_RELAXED);
	case 16:
		return __atomic_load_n((const s16 *)diffs + i, __ATOMIC_RELAXED);
	default:
		return __atomic_load_n((const s32 *)diffs + i, __ATOMIC_RELAXED);
	}
}

static void *diffs_of(const struct vsb_drift *d, int i)
{
	return __atomic_load_n(&d->ws[i]->diffs, __ATOMIC_ACQUIRE);
}

static void sleep_ns(long ns)
{
	struct timespec ts = { ns / 1000000000L, ns % 1000000000L };

	nanosleep(&ts, NULL);
}

static void *shepherd_main(void *arg)
{
	struct vsb_drift *d = arg;
	int i;

	__atomic_store_n(&d->shepherd_up, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&d->stop, __ATOMIC_ACQUIRE)) {
		sleep_ns(d->interval_ns);
		for (i = 0; i < d->n; i++)
			if (diffs_of(d, i))
				vsb_counter_fold(d->ws[i], d->bits, d->items, d->cpus[i]);
		d->remote_folds++;
	}
	return NULL;
}

static void *reader_main(void *arg)
{
	struct vsb_drift *d = arg;
	size_t nslots = (size_t)d->n * d->items;
	long *last = vsb_zalloc(nslots * sizeof(*last));
	uint64_t *since = vsb_zalloc(nslots * sizeof(*since));
	unsigned int k;
	int i;

	__atomic_store_n(&d->reader_up, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&d->stop, __ATOMIC_ACQUIRE) &&
	       d->nhist < READER_MAX_SAMPLES) {
		struct drift_sample *s = &d->hist[d->nhist];
		uint64_t now = vsb_now_ns(), oldest = 0;
		long sum = 0;

		for (i = 0; i < d->n; i++) {
			const void *diffs = diffs_of(d, i);

			for (k = 0; diffs && k < d->items; k++) {
				size_t j = (size_t)i * d->items + k;
				long v = slot_value(diffs, d->bits, k);

				sum += v;
				if (v != last[j] || !v) {
					last[j] = v;
					since[j] = now;
				} else if (now - since[j] > oldest) {
					oldest = now - since[j];
				}
			}
		}
		s->t = now;
		s->drift = sum;
		s->stale = oldest;
		d->nhist++;
		sleep_ns(READER_PERIOD_NS);
	}
	free(last);
	free(since);
	return NULL;
}

/* The signal handler of --fold local: fold the interrupted writer's slots. */
static __thread const struct vsb_counter_worker *fold_self;
static __thread unsigned int fold_bits, fold_items;

static void fold_signal(int sig)
{
	(void)sig;
	if (fold_self)
		vsb_counter_fold(fold_self, fold_bits, fold_items, -1);
}

int vsb_local_fold_arm(struct vsb_drift *d, const struct vsb_counter_worker *w,
		       struct vsb_local_fold *lf)
{
	struct sigevent sev;
	struct itimerspec its;
	sigset_t set;

	memset(lf, 0, sizeof(*lf));
	if (!d || d->policy != VSB_FOLD_LOCAL)
		return 0;
	fold_self = w;
	fold_bits = d->bits;
	fold_items = d->items;
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = FOLD_SIGNAL;
	sev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
	if (timer_create(CLOCK_MONOTONIC, &sev, &lf->timer))
		return -errno;
	its.it_value.tv_sec = d->interval_ns / 1000000000L;
	its.it_value.tv_nsec = d->interval_ns % 1000000000L;
	its.it_interval = its.it_value;
	if (timer_settime(lf->timer, 0, &its, NULL)) {
		int e = errno;

		timer_delete(lf->timer);
		return -e;
	}
	lf->armed = 1;
	sigemptyset(&set);
	sigaddset(&set, FOLD_SIGNAL);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	return 0;
}

void vsb_local_fold_disarm(struct vsb_local_fold *lf)
{
	sigset_t set;

	if (!lf->armed)
		return;
	sigemptyset(&set);
	sigaddset(&set, FOLD_SIGNAL);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	timer_delete(lf->timer);
	lf->armed = 0;
	fold_self = NULL;
}

/*
 * The shepherd and the reader run beside busy writers.  Like the module's
 * kthreads they keep off the writers' CPUs when there are others they may
 * use: a writer they preempted would pay for their every wake-up.  When
 * the writers take every CPU, a normal-priority thread may not run at all
 * inside a few-millisecond window (CFS gives a new thread its first slice
 * late), and a drift figure from no samples would be a lie; so, again
 * like the module (sched_set_fifo_low), they start at the lowest
 * SCHED_FIFO priority, set at creation so that even their first wake-up
 * preempts a writer for the few microseconds they need, as the kernel's
 * own shepherd would.  Without the privilege they start at normal
 * priority, and the result says both where they ran and at what priority.
 * Either way they are running before the first writer exists.
 */
static int start_helper(struct vsb_drift *d, pthread_t *t, void *(*fn)(void *), int *rt,
			int *up)
{
	struct sched_param sp = { .sched_priority = 1 };
	pthread_attr_t attr;
	int e;

	pthread_attr_init(&attr);
	vsb_cpulist_pin_attr(&d->spare, &attr);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
	pthread_attr_setschedparam(&attr, &sp);
	e = pthread_create(t, &attr, fn, d);
	*rt = e ? -e : 1;
	if (e) {	/* no SCHED_FIFO for us: the same, at normal priority */
		pthread_attr_setinheritsched(&attr, PTHREAD_INHERIT_SCHED);
		e = pthread_create(t, &attr, fn, d);
	}
	pthread_attr_destroy(&attr);
	if (e)
		return 0;
	while (!__atomic_load_n(up, __ATOMIC_ACQUIRE))
		sched_yield();
	return 1;
}

/* "on CPUs 2-3 (no writer), SCHED_FIFO 1" for the metadata */
static const char *helper_place(const struct vsb_drift *d, int rt, char *buf, size_t len)
{
	char cpus[192];

	vsb_cpulist_format(&d->spare, cpus, sizeof(cpus), ',');
	snprintf(buf, len, "%s%s%s, %s", d->spare.n ? "on CPUs " : "sharing the writers' CPUs",
		 d->spare.n ? cpus : "", d->spare.n ? " (no writer)" : "",
		 rt > 0 ? "SCHED_FIFO 1" : "normal priority: SCHED_FIFO refused");
	return buf;
}

struct vsb_drift *vsb_drift_start(const struct vsb_run_opts *o,
				  const struct vsb_counter_params *p,
				  struct vsb_counter_worker *const *ws,
				  const int *cpus, int n, vsb_shared_t *shared)
{
	struct vsb_drift *d;

	(void)shared;
	if (vsb_fold_policy(o->fold) == VSB_FOLD_NONE && !o->drift)
		return NULL;
	d = vsb_zalloc(sizeof(*d));
	d->policy = vsb_fold_policy(o->fold);
	d->interval_ns = o->fold_interval_us * 1000L;
	d->bits = p->bits;
	d->items = p->items;
	d->ws = ws;
	d->cpus = cpus;
	d->n = n;
	/* the writers' CPUs, a view while the spare list is built */
	vsb_cpulist_spare(&(struct vsb_cpulist){ .n = n, .cpu = cpus }, &d->spare);
	if (d->policy == VSB_FOLD_LOCAL) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = fold_signal;
		sa.sa_flags = SA_RESTART;
		sigemptyset(&sa.sa_mask);
		sigaction(FOLD_SIGNAL, &sa, NULL);
	}
	if (d->policy == VSB_FOLD_REMOTE)
		d->have_shepherd = start_helper(d, &d->shepherd, shepherd_main,
						&d->shepherd_rt, &d->shepherd_up);
	if (o->drift) {
		d->hist = vsb_zalloc(READER_MAX_SAMPLES * sizeof(*d->hist));
		d->have_reader = start_helper(d, &d->reader_th, reader_main,
					      &d->reader_rt, &d->reader_up);
	}
	return d;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

void vsb_drift_stop(struct vsb_drift *d, struct vsb_result *r)
{
	char place[320];
	size_t i, n;

	if (!d)
		return;
	__atomic_store_n(&d->stop, 1, __ATOMIC_RELEASE);
	if (d->have_shepherd)
		pthread_join(d->shepherd, NULL);
	if (d->have_reader)
		pthread_join(d->reader_th, NULL);
	vsb_result_meta(r, "fold", "%s every %ld us%s%s%s", r->opts.fold,
			r->opts.fold_interval_us,
			d->policy == VSB_FOLD_REMOTE ? " (shepherd thread, LOCK xchg, " :
			d->policy == VSB_FOLD_LOCAL ? " (timer signal on each writer, this_cpu_xchg)" :
			" (threshold folds only)",
			d->policy == VSB_FOLD_REMOTE ? helper_place(d, d->shepherd_rt, place,
								  sizeof(place)) : "",
			d->policy == VSB_FOLD_REMOTE ? ")" : "");
	n = d->nhist;
	if (d->have_reader && !n) {
		/* say it rather than print a drift of zero from nothing */
		vsb_warn_opt("drift", "--drift: the reader thread took no samples: it never ran while the writers did (%s); run longer or leave a CPU free",
			 d->reader_rt > 0 ? "even at SCHED_FIFO 1" : strerror(-d->reader_rt));
		vsb_result_meta(r, "drift", "0 reader samples: the reader never ran during the window");
	}
	if (d->have_reader && n) {
		long *dr = vsb_zalloc(n * sizeof(*dr));
		uint64_t *st = vsb_zalloc(n * sizeof(*st));
		double dsum = 0, ssum = 0;

		for (i = 0; i < n; i++) {
			dr[i] = labs(d->hist[i].drift);
			st[i] = d->hist[i].stale;
			dsum += (double)dr[i];
			ssum += (double)st[i];
		}
		qsort(dr, n, sizeof(*dr), cmp_long);
		qsort(st, n, sizeof(*st), cmp_u64);
		r->have_drift = 1;
		r->drift_samples = n;
		r->drift_max = (double)dr[n - 1];
		r->drift_p99 = (double)dr[(n - 1) * 99 / 100];
		r->drift_mean = dsum / (double)n;
		r->stale_max_us = (double)st[n - 1] / 1e3;
		r->stale_p99_us = (double)st[(n - 1) * 99 / 100] / 1e3;
		r->stale_mean_us = ssum / (double)n / 1e3;
		vsb_result_meta(r, "drift",
				"%zu reader samples every %ld us (%s): |sum of per-CPU diffs| max %.0f p99 %.0f mean %.1f; "
				"staleness max %.0f us p99 %.0f us mean %.1f us",
				n, READER_PERIOD_NS / 1000,
				helper_place(d, d->reader_rt, place, sizeof(place)),
				r->drift_max, r->drift_p99,
				r->drift_mean, r->stale_max_us, r->stale_p99_us,
				r->stale_mean_us);
		free(dr);
		free(st);
	}
	free(d->hist);
	free(d);
}
