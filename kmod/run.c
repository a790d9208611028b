// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - one benchmark run: pinned kthreads, barrier, timing, PMU, abort.
 *
 * The ioctl caller is the controller.  It sets the bench up, creates one
 * kthread per requested CPU with kthread_create_on_cpu() (bound before it
 * first runs, so nothing it touches is first-touched elsewhere), opens
 * kernel-mode PMU counters on those CPUs when there is a PMU, wakes the
 * workers and sleeps interruptibly until they are done.
 *
 * Every sample, all workers meet at a spinning barrier, time one batch
 * with get_cycles() and ktime_get_ns() just outside the loop, and the
 * first to finish its --loops ends the batch for everybody (the common
 * stop): every CPU measures the same contended window, unlike
 * page_bench03 where early finishers leave the slow ones uncontended.
 * Each sample records the operations it actually did.
 *
 * Between chunks of operations a worker checks the common stop, the run's
 * abort word, the caller's pending signals and the deadline
 * (vsb_check_stop), so a signal or the time limit ends a run within one
 * chunk on every CPU, even when the controller itself cannot run.  With
 * preemption enabled the chunk boundary is also a cond_resched() point:
 * Debian's kernels default to voluntary preemption, where a kthread in a
 * tight loop would otherwise never yield its CPU.
 *
 * The counter bench's fold policies and drift reader (fold.c) hook in
 * here: fold timers are armed by each worker on its own CPU before its
 * first sample, a quiet worker cancels its own when timing starts and
 * then only waits for each common stop; the shepherd and reader
 * kthreads are created with the workers and stopped, and every timer
 * cancelled, before the sanity check reads the slots, on every path.
 *
 * Around each batch, next to the PMU reads and outside the timed (and
 * irq/preempt-off) section, a worker snapshots what else used its CPU:
 * its own involuntary switches and run delay, and the CPU's steal and
 * interrupt counts (issue 11; the harness judges and retries).
 */
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/kernel_stat.h>
#include <linux/kthread.h>
#include <linux/sched/clock.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/timex.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "vsb_kmod.h"
#include "uapi/vsb_exact.h"

/* Exact mode's window markers (uapi/vsb_exact.h), as the plugin finds them */
#define VSB_EXACT_MARK(disp) \
	asm volatile(VSB_EXACT_MARK_ASM :: "i" (disp) : "memory")
#define vsb_exact_start()	VSB_EXACT_MARK(VSB_EXACT_MARK_START)
#define vsb_exact_stop()	VSB_EXACT_MARK(VSB_EXACT_MARK_STOP)

/* windows opened on each CPU since load; the plugin counts them from boot */
static DEFINE_PER_CPU(u64, vsb_exact_windows);

void vsb_abort(struct vsb_ctl *c, int err)
{
	cmpxchg(&c->abort, 0, err);
}

/* 0: go on; 1: the common stop ended this sample; <0: the run ends. */
int vsb_check_stop(struct vsb_ctl *c, u64 deadline)
{
	int err = READ_ONCE(c->abort);

	if (unlikely(err))
		return err;
	if (unlikely(task_sigpending(c->caller))) {
		vsb_abort(c, -EINTR);
		return -EINTR;
	}
	if (unlikely(local_clock() > deadline)) {
		vsb_abort(c, -ETIME);
		return -ETIME;
	}
	return READ_ONCE(c->stop) ? 1 : 0;
}

/*
 * Between two chunks of a timed loop: stop if told to, and otherwise
 * give the CPU away if something else needs it, unless the loop runs
 * with preemption or irqs off on purpose (--preempt off, --irqs off).
 */
int vsb_between_chunks(struct vsb_ctl *c, u64 deadline)
{
	int st = vsb_check_stop(c, deadline);

	if (!st && !(c->req.flags & (VSB_RUN_IRQS_OFF | VSB_RUN_PREEMPT_OFF)))
		cond_resched();
	return st;
}

/*
 * Sense-reversing spin barrier.  The last worker in clears the common
 * stop for the next sample (every worker has finished the previous one
 * by then) and releases the others.  Spinning rather than sleeping keeps
 * the wake-up skew between CPUs at a few hundred cycles; the spin checks
 * the abort word so a worker that left early cannot strand the others,
 * and yields now and then for whatever else must run on the CPU.
 */
static int vsb_barrier(struct vsb_ctl *c)
{
	unsigned int gen = smp_load_acquire(&c->bar_gen);
	unsigned long spins = 0;
	int err;

	if (atomic_inc_return(&c->bar_count) == (int)c->nworkers) {
		atomic_set(&c->bar_count, 0);
		WRITE_ONCE(c->stop, 0);
		smp_store_release(&c->bar_gen, gen + 1);
		return READ_ONCE(c->abort);
	}
	while (smp_load_acquire(&c->bar_gen) == gen) {
		if (++spins % 1024 == 0) {
			err = vsb_check_stop(c, c->deadline);
			if (err < 0)
				return err;
			cond_resched();
		}
		cpu_relax();
	}
	return READ_ONCE(c->abort);
}

/*
 * A quiet worker's sample: touch nothing until the common stop (or the
 * end of the run), sleeping so the CPU is idle like a nohz_full CPU with
 * nothing to do.  Returns 0 or the run's -errno.  Here, next to the stop
 * it waits for, rather than in fold.c, which marks workers quiet: fold.c
 * calls nothing in run.c, run.c calls fold.c's hooks.
 */
static int vsb_quiet_wait(struct vsb_worker *w)
{
	struct vsb_ctl *c = w->ctl;
	int st;

	while (!(st = vsb_check_stop(c, c->deadline)))
		usleep_range(50, 100);
	return st < 0 ? st : 0;
}

/*
 * A busy worker's sample (kstat --busy-workers): update, untimed, until
 * the timed workers' common stop, which it never sets itself.
 */
static int vsb_busy_batch(struct vsb_worker *w)
{
	u64 ops = 0;
	int ret = w->ctl->ops->busy(w, w->ctl->deadline, &ops);

	w->total_ops += ops;
	cond_resched();
	return ret;
}

static void vsb_pmu_read(struct vsb_worker *w, struct vsb_pmu_snap *s)
{
	u64 en, run;

	if (!w->ev_cycles)
		return;
	s->cycles = perf_event_read_value(w->ev_cycles, &s->enabled,
					  &s->running);
	s->instr = perf_event_read_value(w->ev_instr, &en, &run);
}

struct vsb_dist_snap {
	u64 nivcsw, run_delay, steal, irqs;
};

/*
 * Interrupts on @cpu so far: kstat's irqs_sum counts the generic irqs
 * (devices); x86 counts its local APIC timer, IPIs and NMIs apart, in
 * irq_stat, as /proc/interrupts' LOC, RES, CAL, TLB... lines show.
 */
static u64 vsb_cpu_irqs(unsigned int cpu)
{
	u64 n = kstat_cpu_irqs_sum(cpu);
#ifdef CONFIG_X86
	const irq_cpustat_t *st = &per_cpu(irq_stat, cpu);

	n += READ_ONCE(st->__nmi_count) + READ_ONCE(st->x86_platform_ipis) +
	     READ_ONCE(st->apic_irq_work_irqs) + READ_ONCE(st->irq_tlb_count);
#ifdef CONFIG_X86_LOCAL_APIC
	n += READ_ONCE(st->apic_timer_irqs);
#endif
#ifdef CONFIG_SMP
	n += READ_ONCE(st->irq_resched_count) + READ_ONCE(st->irq_call_count);
#endif
#endif
	return n;
}

/* On the worker's own CPU, outside the timed section. */
static void vsb_dist_snap(struct vsb_worker *w, struct vsb_dist_snap *d)
{
	d->nivcsw = READ_ONCE(current->nivcsw);
#ifdef CONFIG_SCHED_INFO
	d->run_delay = READ_ONCE(current->sched_info.run_delay);
#else
	d->run_delay = 0;
#endif
	d->steal = READ_ONCE(kcpustat_cpu(w->cpu).cpustat[CPUTIME_STEAL]);
	d->irqs = vsb_cpu_irqs(w->cpu);
}

static void vsb_dist_fill(struct vsb_ioc_sample *s, const struct vsb_dist_snap *a,
			  const struct vsb_dist_snap *b)
{
	s->nivcsw = b->nivcsw - a->nivcsw;
	s->run_delay_ns = b->run_delay - a->run_delay;
	s->steal_ns = b->steal - a->steal;
	s->irqs = b->irqs - a->irqs;
	if (IS_ENABLED(CONFIG_SCHED_INFO))
		s->flags |= VSB_SAMPLE_RUN_DELAY;
}

static int vsb_one_sample(struct vsb_worker *w, unsigned int r)
{
	struct vsb_ctl *c = w->ctl;
	u32 fl = c->req.flags;
	struct vsb_pmu_snap pa = {}, pb = {};
	struct vsb_dist_snap da, db;
	unsigned long irqflags = 0;
	u64 deadline = c->deadline, folds0 = w->cw.folds, ops = 0;
	u64 t0, t1, n0, n1, window = 0;
	bool exact = (fl & VSB_RUN_EXACT) && r >= c->req.warmup;
	int ret;

	/* a quiet worker (nohz_full CPU) neither updates nor ends the window */
	if (w->quiet && r >= c->req.warmup)
		return vsb_quiet_wait(w);
	if (w->busy)
		return vsb_busy_batch(w);

	/*
	 * The PMU is read outside the irq/preempt-off section (the read
	 * may sleep), so those counts include the irq disable and enable
	 * themselves: a handful of cycles on a batch of thousands.
	 */
	vsb_dist_snap(w, &da);
	vsb_pmu_read(w, &pa);
	if (fl & (VSB_RUN_IRQS_OFF | VSB_RUN_PREEMPT_OFF))
		deadline = min(deadline, local_clock() + c->atomic_max_ns);
	if (fl & VSB_RUN_IRQS_OFF)
		local_irq_save(irqflags);
	else if (fl & VSB_RUN_PREEMPT_OFF)
		preempt_disable();
	if (exact)
		window = this_cpu_inc_return(vsb_exact_windows) - 1;
	n0 = ktime_get_ns();
	t0 = get_cycles();
	if (exact)
		vsb_exact_start();
	ret = c->ops->sample(w, c->req.loops, deadline, &ops);
	if (exact)
		vsb_exact_stop();
	t1 = get_cycles();
	n1 = ktime_get_ns();
	if (fl & VSB_RUN_IRQS_OFF)
		local_irq_restore(irqflags);
	else if (fl & VSB_RUN_PREEMPT_OFF)
		preempt_enable();
	vsb_pmu_read(w, &pb);
	vsb_dist_snap(w, &db);

	/*
	 * First one done ends everybody's window; in exact mode nobody's:
	 * where the others stop would set where their next batch starts in
	 * the op's cycle of folds, and so its count, by which CPU the
	 * emulator happened to run first.  Counts see no contention anyway.
	 */
	if (!(fl & VSB_RUN_EXACT) && !READ_ONCE(c->stop))
		WRITE_ONCE(c->stop, 1);
	w->total_ops += ops;
	if (ret < 0)
		return ret;
	if (r >= c->req.warmup) {
		struct vsb_ioc_sample *s = &w->samples[r - c->req.warmup];

		s->thread = w->index;
		s->cpu = w->cpu;
		s->rep = r - c->req.warmup;
		s->ops = ops;
		s->cycles = t1 - t0;
		s->ns = n1 - n0;
		s->folds = w->cw.folds - folds0;
		vsb_dist_fill(s, &da, &db);
		if (exact) {
			s->exact_window = window;
			s->flags |= VSB_SAMPLE_EXACT;
		}
		if (raw_smp_processor_id() != w->cpu)
			s->flags |= VSB_SAMPLE_MIGRATED;
		if (w->ev_cycles) {
			s->pmu_cycles = pb.cycles - pa.cycles;
			s->pmu_instr = pb.instr - pa.instr;
			s->pmu_enabled = pb.enabled - pa.enabled;
			s->pmu_running = pb.running - pa.running;
			if (s->pmu_running < s->pmu_enabled)
				s->flags |= VSB_SAMPLE_MULTIPLEXED;
		}
	}
	cond_resched();
	return 0;
}

static int vsb_worker_fn(void *arg)
{
	struct vsb_worker *w = arg;
	struct vsb_ctl *c = w->ctl;
	unsigned int r, nr = c->req.warmup + c->req.repeat;
	int ret = 0;

	vsb_fold_worker_arm(w);
	for (r = 0; r < nr; r++) {
		/*
		 * A quiet CPU's fold timer goes before its last warm-up
		 * sample: those updates are its last writes, and no fold
		 * may land between them and the quiet time (else the diff
		 * it leaves depends on where the last timer fell).
		 */
		if (w->quiet && r + 1 == c->req.warmup)
			vsb_fold_worker_quiet(w);
		ret = vsb_barrier(c);
		if (ret)
			break;
		ret = vsb_one_sample(w, r);
		if (ret)
			break;
	}
	if (ret)
		vsb_abort(c, ret);
	if (atomic_dec_and_test(&c->running))
		complete(&c->done);

	/* stay until kthread_stop(): the controller owns our lifetime */
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/* Kernel-mode core cycles and instructions on @w's CPU, or an error. */
static int vsb_pmu_open(struct vsb_worker *w)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.exclude_user = 1,	/* the cost under study is kernel time */
		.exclude_hv = 1,
		.exclude_idle = 1,
	};
	struct perf_event *ev;

	ev = perf_event_create_kernel_counter(&attr, w->cpu, NULL, NULL, NULL);
	if (IS_ERR(ev))
		return PTR_ERR(ev);
	w->ev_cycles = ev;
	attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	ev = perf_event_create_kernel_counter(&attr, w->cpu, NULL, NULL, NULL);
	if (IS_ERR(ev)) {
		perf_event_release_kernel(w->ev_cycles);
		w->ev_cycles = NULL;
		return PTR_ERR(ev);
	}
	w->ev_instr = ev;
	return 0;
}

static void vsb_pmu_close(struct vsb_ctl *c)
{
	unsigned int i;

	for (i = 0; i < c->nworkers; i++) {
		struct vsb_worker *w = &c->w[i];

		if (w->ev_instr)
			perf_event_release_kernel(w->ev_instr);
		if (w->ev_cycles)
			perf_event_release_kernel(w->ev_cycles);
		w->ev_instr = w->ev_cycles = NULL;
	}
}

/* All events or none: a mix would make the rows incomparable. */
static void vsb_pmu_setup(struct vsb_ctl *c)
{
	unsigned int i;
	int err;

	if (c->req.flags & VSB_RUN_NO_PMU) {
		c->req.pmu_error = -EOPNOTSUPP;
		return;
	}
	for (i = 0; i < c->nworkers; i++) {
		err = vsb_pmu_open(&c->w[i]);
		if (err) {
			vsb_pmu_close(c);
			c->req.pmu_error = err;
			return;
		}
	}
	c->req.result_flags |= VSB_RES_PMU;
}

static void vsb_stop_workers(struct vsb_ctl *c, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		kthread_stop(c->w[i].task);
		put_task_struct(c->w[i].task);
		c->w[i].task = NULL;
	}
}

/*
 * The samples into the user's buffer at its stride: whole, or ABI 2's
 * first 80 bytes of each for a client that asked for those.
 */
static int vsb_copy_samples(const struct vsb_ioc_run *req,
			    const struct vsb_ioc_sample *s, size_t n)
{
	size_t stride = vsb_sample_stride(req), i;
	void __user *to = u64_to_user_ptr(req->samples_ptr);

	if (stride == sizeof(*s))
		return copy_to_user(to, s, n * sizeof(*s)) ? -EFAULT : 0;
	for (i = 0; i < n; i++)
		if (copy_to_user(to + i * stride, &s[i], stride))
			return -EFAULT;
	return 0;
}

/*
 * Run @req on @cpus (already checked: distinct, below nr_cpu_ids) and
 * fill its out fields and the user's sample buffer.  Called with the
 * run mutex held.
 */
int vsb_run(struct vsb_ioc_run *req, const u32 *cpus)
{
	u64 t_start = ktime_get_ns(), limit_ms;
	size_t nsamples = (size_t)req->ncpus * req->repeat;
	/* quiet and busy workers come last and write no samples */
	size_t nout = (size_t)(req->ncpus - req->quiet_workers -
			       req->busy_workers) * req->repeat;
	struct vsb_ctl *c;
	unsigned int i, created = 0;
	long left;
	int ret;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->req = *req;
	c->ops = vsb_bench_table[req->bench];	/* checked below NR by main.c */
	c->caller = current;
	c->nworkers = req->ncpus;
	init_completion(&c->done);
	limit_ms = req->time_limit_ms ? req->time_limit_ms :
					VSB_ABI_TIME_LIMIT_DEF_MS;
	c->atomic_max_ns = (u64)VSB_ABI_ATOMIC_SAMPLE_MAX_MS * NSEC_PER_MSEC;

	ret = -ENOMEM;
	c->w = kcalloc(c->nworkers, sizeof(*c->w), GFP_KERNEL);
	if (!c->w)
		goto err_free_ctl;
	c->samples = kvcalloc(nsamples, sizeof(*c->samples), GFP_KERNEL);
	if (!c->samples)
		goto err_free_workers;
	for (i = 0; i < c->nworkers; i++) {
		c->w[i].ctl = c;
		c->w[i].index = i;
		c->w[i].cpu = cpus[i];
		c->w[i].samples = &c->samples[(size_t)i * req->repeat];
	}

	ret = c->ops->setup(c);
	if (ret)
		goto err_free_samples;
	ret = vsb_fold_setup(c);
	if (ret)
		goto err_teardown;

	/*
	 * Hold CPU hotplug off from the online check until the workers are
	 * stopped: a bound kthread whose CPU goes away would be moved.
	 */
	cpus_read_lock();
	for (i = 0; i < c->nworkers; i++) {
		if (!cpu_online(cpus[i])) {
			ret = -EINVAL;
			goto err_unlock;
		}
	}
	for (i = 0; i < c->nworkers; i++) {
		struct task_struct *t;

		t = kthread_create_on_cpu(vsb_worker_fn, &c->w[i], cpus[i],
					  "vmstat_bench/%u");
		if (IS_ERR(t)) {
			ret = PTR_ERR(t);
			goto err_stop;
		}
		get_task_struct(t);
		c->w[i].task = t;
		created++;
	}
	ret = vsb_fold_create(c);
	if (ret)
		goto err_stop;
	vsb_pmu_setup(c);

	atomic_set(&c->running, c->nworkers);
	c->deadline = local_clock() + limit_ms * NSEC_PER_MSEC;
	vsb_fold_wake(c);
	for (i = 0; i < c->nworkers; i++)
		wake_up_process(c->w[i].task);

	/*
	 * Sleep until done, a signal, or a second past the deadline (the
	 * workers enforce the deadline themselves; this is the backstop).
	 * After an abort the workers leave within one chunk or barrier spin.
	 */
	left = wait_for_completion_interruptible_timeout(&c->done,
			msecs_to_jiffies(limit_ms + 1000));
	if (left <= 0) {
		vsb_abort(c, left == 0 ? -ETIME : -EINTR);
		wait_for_completion(&c->done);
	}
	/* every worker has armed its timer by now: cancel them all */
	vsb_fold_stop(c);
	vsb_stop_workers(c, created);
	cpus_read_unlock();
	vsb_pmu_close(c);

	ret = READ_ONCE(c->abort);
	if (!ret) {
		c->ops->check(c);
		vsb_fold_results(c);
		for (i = 0; i < nout; i++) {
			if (c->samples[i].flags & VSB_SAMPLE_MIGRATED)
				c->req.result_flags |= VSB_RES_MIGRATED;
			if (c->samples[i].flags & VSB_SAMPLE_MULTIPLEXED)
				c->req.result_flags |= VSB_RES_MULTIPLEXED;
		}
		c->req.nsamples = nout;
		c->req.elapsed_ns = ktime_get_ns() - t_start;
		if (vsb_copy_samples(req, c->samples, nout))
			ret = -EFAULT;
		else
			*req = c->req;
	}
	vsb_fold_teardown(c);
	c->ops->teardown(c);
	kvfree(c->samples);
	kfree(c->w);
	kfree(c);
	return ret;

err_stop:
	vsb_fold_stop(c);
	vsb_stop_workers(c, created);
err_unlock:
	cpus_read_unlock();
	vsb_fold_teardown(c);
err_teardown:
	c->ops->teardown(c);
err_free_samples:
	kvfree(c->samples);
err_free_workers:
	kfree(c->w);
err_free_ctl:
	kfree(c);
	return ret;
}
