// SPDX-License-Identifier: GPL-2.0
/*
 * fold.c - fold policies, quiet workers and the drift reader of the
 * counter bench: the module side of harness/benches/drift.c, on real per-CPU
 * data with real interrupts.
 *
 * local (vmstat_update): each worker arms a pinned hrtimer on its own
 * CPU; every fold interval it expires in hardirq context, interrupting
 * the worker wherever it is, and moves that CPU's diffs into the shared
 * counters with this_cpu_xchg (bench/'s vsb_counter_fold, cpu < 0).  A
 * variant whose update is a plain read-modify-write loses updates to it:
 * that is why mm/vmstat.c disables irqs around __mod_zone_page_state.
 *
 * remote (the 002 proposal's vmstat_shepherd): one SCHED_FIFO kthread,
 * kept off the worker CPUs when any other CPU is online, folds every
 * worker CPU's diffs with xchg through per_cpu_ptr (vsb_counter_fold,
 * cpu >= 0).
 * Workers are never interrupted; only a LOCKed update on their side is
 * atomic against it (cmpxchg-locked).
 *
 * quiet workers (the nohz_full CPUs of the 002 thread): the last N
 * workers do the warm-up, then stop touching the counters and sleep until
 * each sample's common stop (run.c's vsb_quiet_wait); their fold timers
 * are cancelled before their last warm-up sample, as an isolated CPU must
 * not be interrupted, so the diff those last writes leave is what the CPU
 * sits on.  With a local fold their last diffs stay unfolded for the rest
 * of the run; a remote fold reaches them.
 *
 * The reader kthread samples every 100 us the shared counters' missing
 * part: the sum of every worker CPU's diffs (drift: the error of a reader
 * of the global alone), and per slot how long a nonzero diff has stayed
 * unchanged (staleness), exactly as harness/benches/drift.c's reader_main does.
 * Its samples go into a bounded buffer; max, p99 and mean are computed
 * here after the run and returned in the request.
 */
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/percpu_counter.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/version.h>

#include "vsb_kmod.h"

#define VSB_DRIFT_PERIOD_NS	((u64)VSB_ABI_DRIFT_PERIOD_US * NSEC_PER_USEC)

/*
 * HARD: expire in hardirq context even on PREEMPT_RT, so the fold really
 * interrupts the worker as an irq would; PINNED: expire on the CPU that
 * armed it, the worker's own, never migrated (hotplug is held off for the
 * whole run by run.c).
 */
#define VSB_FOLD_TIMER_MODE	HRTIMER_MODE_REL_PINNED_HARD

int vsb_fold_validate(const struct vsb_ioc_run *req)
{
	unsigned int vf;

	if (req->bench != VSB_BENCH_COUNTER) {
		if (req->fold || req->fold_interval_us || req->quiet_workers ||
		    (req->flags & (VSB_RUN_DRIFT | VSB_RUN_UNSAFE_FOLD)))
			return -EINVAL;
		return 0;
	}
	if (req->fold >= VSB_FOLD_POLICY_NR)
		return -EINVAL;
	if (req->quiet_workers >= req->ncpus)
		return -EINVAL;		/* somebody must update */
	if (req->fold == VSB_FOLD_POLICY_NONE)
		return req->fold_interval_us ? -EINVAL : 0;
	if (req->fold_interval_us < VSB_ABI_FOLD_INTERVAL_MIN_US ||
	    req->fold_interval_us > VSB_ABI_FOLD_INTERVAL_MAX_US)
		return -EINVAL;
	if (req->variant >= VSB_V_NR)
		return -EINVAL;
	vf = vsb_variants[req->variant].flags;
	/* no foldable diffs at all: refused even in the unsafe mode */
	if (vf & (VSB_VF_NOFOLD | VSB_VF_PCC | VSB_VF_NOTHRESH))
		return -EINVAL;
	if (req->flags & VSB_RUN_UNSAFE_FOLD)
		return 0;
	if (req->fold == VSB_FOLD_POLICY_LOCAL && !(vf & VSB_VF_LOCAL_FOLD_OK))
		return -EINVAL;
	if (req->fold == VSB_FOLD_POLICY_REMOTE && !(vf & VSB_VF_REMOTE_FOLD_OK))
		return -EINVAL;
	return 0;
}

static enum hrtimer_restart vsb_fold_timer_fn(struct hrtimer *t)
{
	struct vsb_worker *w = container_of(t, struct vsb_worker, fold_timer);
	struct vsb_ctl *c = w->ctl;

	/*
	 * Hardirq on the worker's CPU: this_cpu_xchg resolves to its slots.
	 * A pinned timer cannot expire elsewhere without hotplug; should it
	 * anyway, folding there would race with that CPU's own writer, so
	 * it only counts (and the result says migrated).
	 */
	if (likely(raw_smp_processor_id() == w->cpu)) {
		vsb_counter_fold(&w->cw, c->params.bits, c->params.items, -1);
		w->timer_folds++;
	} else {
		w->timer_strays++;
	}
	hrtimer_forward_now(t, c->fold_interval);
	return HRTIMER_RESTART;
}

static void vsb_fold_timer_init(struct hrtimer *t)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(t, vsb_fold_timer_fn, CLOCK_MONOTONIC,
		      VSB_FOLD_TIMER_MODE);
#else
	hrtimer_init(t, CLOCK_MONOTONIC, VSB_FOLD_TIMER_MODE);
	t->function = vsb_fold_timer_fn;
#endif
}

/* Called by the worker kthread itself, bound to w->cpu, before any sample. */
void vsb_fold_worker_arm(struct vsb_worker *w)
{
	struct vsb_ctl *c = w->ctl;

	if (c->req.fold != VSB_FOLD_POLICY_LOCAL)
		return;
	/* a quiet worker without warm-up never updates: never interrupt it */
	if (w->quiet && !c->req.warmup)
		return;
	hrtimer_start(&w->fold_timer, c->fold_interval, VSB_FOLD_TIMER_MODE);
}

/* The worker goes quiet: from now on nothing may interrupt its CPU. */
void vsb_fold_worker_quiet(struct vsb_worker *w)
{
	if (w->ctl->timers_ready)
		hrtimer_cancel(&w->fold_timer);	/* waits for a running callback */
}

/* Sleep about @ns, or less when kthread_stop() comes. */
static void vsb_kthread_sleep(u64 ns)
{
	ktime_t t = ns_to_ktime(ns);

	/* state before the check: a kthread_stop() wake-up cannot be lost */
	set_current_state(TASK_INTERRUPTIBLE);
	if (kthread_should_stop()) {
		__set_current_state(TASK_RUNNING);
		return;
	}
	schedule_hrtimeout_range(&t, ns / 10, HRTIMER_MODE_REL);
}

static int vsb_shepherd_fn(void *arg)
{
	struct vsb_ctl *c = arg;
	unsigned int i;

	while (!kthread_should_stop()) {
		vsb_kthread_sleep(ktime_to_ns(c->fold_interval));
		/*
		 * xchg on another CPU's slot: atomic against that CPU's
		 * LOCK cmpxchg only (validated, unless the unsafe test
		 * mode asked for a variant that is not).
		 */
		for (i = 0; i < c->nworkers; i++)
			vsb_counter_fold(&c->w[i].cw, c->params.bits,
					 c->params.items, c->w[i].cpu);
		c->shepherd_passes++;
		cond_resched();
	}
	return 0;
}

/* Slot @k of @cpu: the vsb diffs, or the real percpu_counter's count. */
static long vsb_slot_read(const struct vsb_ctl *c, unsigned int cpu,
			  unsigned int k)
{
	const void *base;

	if (c->npcc)
		return READ_ONCE(*per_cpu_ptr(c->pcc[k].counters, cpu));
	base = per_cpu_ptr(c->diffs, cpu);
	switch (c->params.bits) {
	case 8:
		return READ_ONCE(((const s8 *)base)[k]);
	case 16:
		return READ_ONCE(((const s16 *)base)[k]);
	default:
		return READ_ONCE(((const s32 *)base)[k]);
	}
}

/*
 * One reader sample, harness/benches/drift.c's reader_main: the writers change
 * the slots meanwhile, so the sum is a snapshot only in the sense a
 * /proc/vmstat reader gets one; READ_ONCE keeps each load whole.
 */
static void vsb_reader_sample(struct vsb_ctl *c)
{
	unsigned int items = c->params.items, i, k;
	u64 now = ktime_get_ns(), oldest = 0;
	long sum = 0;

	for (i = 0; i < c->nworkers; i++) {
		for (k = 0; k < items; k++) {
			size_t j = (size_t)i * items + k;
			long v = vsb_slot_read(c, c->w[i].cpu, k);

			sum += v;
			if (v != c->rd_last[j] || !v) {
				c->rd_last[j] = v;
				c->rd_since[j] = now;
			} else if (now - c->rd_since[j] > oldest) {
				oldest = now - c->rd_since[j];
			}
		}
	}
	c->drift_abs[c->drift_n] = sum < 0 ? -(u64)sum : (u64)sum;
	c->stale_ns[c->drift_n] = oldest;
	c->drift_n++;
}

static int vsb_reader_fn(void *arg)
{
	struct vsb_ctl *c = arg;

	while (!kthread_should_stop()) {
		if (c->drift_n < c->drift_cap)
			vsb_reader_sample(c);
		vsb_kthread_sleep(VSB_DRIFT_PERIOD_NS);
	}
	return 0;
}

int vsb_fold_setup(struct vsb_ctl *c)
{
	size_t nslots = (size_t)c->nworkers * c->params.items;
	u64 cap;
	unsigned int i;

	c->nquiet = c->req.quiet_workers;
	for (i = 0; i < c->nworkers; i++)
		c->w[i].quiet = i >= c->nworkers - c->nquiet;
	c->fold_interval = ns_to_ktime((u64)c->req.fold_interval_us *
				       NSEC_PER_USEC);
	if (c->req.fold == VSB_FOLD_POLICY_LOCAL) {
		for (i = 0; i < c->nworkers; i++)
			vsb_fold_timer_init(&c->w[i].fold_timer);
		c->timers_ready = true;
	}
	if (!(c->req.flags & VSB_RUN_DRIFT))
		return 0;

	/* enough for the whole time limit plus the backstop second */
	cap = ((u64)(c->req.time_limit_ms ? c->req.time_limit_ms :
		     VSB_ABI_TIME_LIMIT_DEF_MS) + 1000) * NSEC_PER_MSEC /
	      VSB_DRIFT_PERIOD_NS;
	c->drift_cap = min_t(u64, cap, VSB_ABI_DRIFT_SAMPLES_MAX);
	c->drift_abs = kvmalloc_array(c->drift_cap, sizeof(u64), GFP_KERNEL);
	c->stale_ns = kvmalloc_array(c->drift_cap, sizeof(u64), GFP_KERNEL);
	c->rd_last = kvcalloc(nslots, sizeof(long), GFP_KERNEL);
	c->rd_since = kvcalloc(nslots, sizeof(u64), GFP_KERNEL);
	if (!c->drift_abs || !c->stale_ns || !c->rd_last || !c->rd_since) {
		vsb_fold_teardown(c);
		return -ENOMEM;
	}
	return 0;
}

/*
 * Keep @t off the worker CPUs when another CPU is online (the kernel's
 * shepherd would run on a housekeeping CPU); with none, it shares.
 * Called with the hotplug lock held, before the first wake-up.
 */
static void vsb_housekeeping(struct vsb_ctl *c, struct task_struct *t)
{
	cpumask_var_t m;
	unsigned int i;

	if (!zalloc_cpumask_var(&m, GFP_KERNEL))
		return;
	cpumask_copy(m, cpu_online_mask);
	for (i = 0; i < c->nworkers; i++)
		cpumask_clear_cpu(c->w[i].cpu, m);
	if (!cpumask_empty(m))
		set_cpus_allowed_ptr(t, m);	/* best effort: else it shares */
	free_cpumask_var(m);
}

static struct task_struct *vsb_fold_kthread(struct vsb_ctl *c,
					    int (*fn)(void *), const char *name)
{
	struct task_struct *t = kthread_create(fn, c, "vmstat_bench/%s", name);

	if (IS_ERR(t))
		return t;
	get_task_struct(t);
	vsb_housekeeping(c, t);
	/*
	 * Above every CFS task: when it has to share a CPU with a worker,
	 * the worker's next cond_resched() (one chunk) lets it run on time.
	 * As a CFS task a woken reader could wait a whole scheduler slice
	 * behind a busy worker, and sample nothing during a short run.
	 */
	sched_set_fifo_low(t);
	return t;
}

int vsb_fold_create(struct vsb_ctl *c)
{
	struct task_struct *t;

	if (c->req.fold == VSB_FOLD_POLICY_REMOTE) {
		t = vsb_fold_kthread(c, vsb_shepherd_fn, "fold");
		if (IS_ERR(t))
			return PTR_ERR(t);
		c->shepherd = t;
	}
	if (c->req.flags & VSB_RUN_DRIFT) {
		t = vsb_fold_kthread(c, vsb_reader_fn, "drift");
		if (IS_ERR(t))
			return PTR_ERR(t);	/* vsb_fold_stop() ends the shepherd */
		c->reader = t;
	}
	return 0;
}

void vsb_fold_wake(struct vsb_ctl *c)
{
	if (c->shepherd)
		wake_up_process(c->shepherd);
	if (c->reader)
		wake_up_process(c->reader);
}

/*
 * After it, nothing folds or reads the slots: kthread_stop() returns once
 * the thread has exited (a never-woken one never runs its function), and
 * hrtimer_cancel() waits for a running callback and dequeues the timer
 * however often it re-armed itself.  Safe on every path, twice included.
 */
void vsb_fold_stop(struct vsb_ctl *c)
{
	unsigned int i;

	if (c->shepherd) {
		kthread_stop(c->shepherd);
		put_task_struct(c->shepherd);
		c->shepherd = NULL;
	}
	if (c->reader) {
		kthread_stop(c->reader);
		put_task_struct(c->reader);
		c->reader = NULL;
	}
	if (c->timers_ready)
		for (i = 0; i < c->nworkers; i++)
			hrtimer_cancel(&c->w[i].fold_timer);
}

static int vsb_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return (x > y) - (x < y);
}

/*
 * The mean of @n values, times @scale, without overflowing: the sum of
 * 2^20 drifts of up to 2^50 each would not fit, the sum of the
 * quotients and of the remainders does.
 */
static u64 vsb_mean(const u64 *v, u32 n, u64 scale)
{
	u64 q = 0, r = 0;
	u32 i, rem;

	for (i = 0; i < n; i++) {
		q += div_u64_rem(v[i], n, &rem);
		r += rem;
	}
	return q * scale + div_u64(r * scale, n);
}

/* After vsb_fold_stop(): the counts and the reader's statistics. */
void vsb_fold_results(struct vsb_ctl *c)
{
	u32 n = c->drift_n;
	unsigned int i;

	if (c->req.fold == VSB_FOLD_POLICY_REMOTE)
		c->req.fold_count = c->shepherd_passes;
	for (i = 0; c->timers_ready && i < c->nworkers; i++) {
		c->req.fold_count += c->w[i].timer_folds;
		if (c->w[i].timer_strays)
			c->req.result_flags |= VSB_RES_MIGRATED;
	}
	if (!(c->req.flags & VSB_RUN_DRIFT) || !n)
		return;
	sort(c->drift_abs, n, sizeof(u64), vsb_cmp_u64, NULL);
	sort(c->stale_ns, n, sizeof(u64), vsb_cmp_u64, NULL);
	c->req.drift_samples = n;
	c->req.drift_max = c->drift_abs[n - 1];
	c->req.drift_p99 = c->drift_abs[(u64)(n - 1) * 99 / 100];
	c->req.drift_mean_milli = vsb_mean(c->drift_abs, n, 1000);
	c->req.stale_max_ns = c->stale_ns[n - 1];
	c->req.stale_p99_ns = c->stale_ns[(u64)(n - 1) * 99 / 100];
	c->req.stale_mean_ns = vsb_mean(c->stale_ns, n, 1);
}

void vsb_fold_teardown(struct vsb_ctl *c)
{
	kvfree(c->drift_abs);
	kvfree(c->stale_ns);
	kvfree(c->rd_last);
	kvfree(c->rd_since);
	c->drift_abs = c->stale_ns = c->rd_since = NULL;
	c->rd_last = NULL;
}
