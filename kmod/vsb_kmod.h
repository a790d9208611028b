/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vsb_kmod.h - what the parts of vmstat_bench.ko share.
 *
 * main.c owns the device and checks requests; run.c owns a run: one
 * pinned kthread per requested CPU, the per-sample barrier and common
 * stop, timing, PMU counters, the abort path; counter.c, pages.c and
 * kstat.c (the kernel's own statistics functions) are the benches, each
 * a vsb_bench_ops whose sample() runs one timed batch;
 * fold.c adds, to the counter bench, the fold policies (a pinned hrtimer
 * per worker CPU, or one shepherd kthread), quiet workers and the drift
 * reader kthread.  Calls go one way: run.c calls fold.c's hooks, fold.c
 * calls nothing of run.c (a quiet worker's wait for the common stop is
 * run.c's).
 */
#ifndef VSB_KMOD_H
#define VSB_KMOD_H

#include <linux/cache.h>
#include <linux/completion.h>
#include <linux/hrtimer.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/types.h>

#include "uapi/vmstat_bench.h"
#include "../bench/counter.h"

/*
 * Operations between two stop checks.  The check is a few loads and one
 * local_clock() read (and cond_resched() when the loop is preemptible),
 * paid once per chunk inside the timed region: under 0.1% of a chunk of
 * counter updates, and a page allocation costs far more than a check.
 */
#define VSB_COUNTER_CHUNK	1024
#define VSB_PAGE_CHUNK		16

struct vsb_ctl;

struct vsb_kstat;

/* A kstat worker's runs (kstat.c): carried across its samples. */
struct vsb_kstat_worker {
	long pos;			/* updates done in the current run */
	long sign;			/* +1: the +delta half, -1: the -delta half */
	s64 net;			/* sum of what it applied */
	u64 moved;			/* |units| its folds moved */
};

struct vsb_pmu_snap {
	u64 cycles, instr, enabled, running;
};

struct vsb_worker {
	struct vsb_ctl *ctl;
	struct task_struct *task;
	unsigned int index;
	unsigned int cpu;
	u64 total_ops;			/* warm-up included */
	u64 pages;			/* page benches: 4 KiB pages allocated */
	struct perf_event *ev_cycles;	/* NULL without PMU */
	struct perf_event *ev_instr;
	struct vsb_ioc_sample *samples;	/* this worker's repeat samples */
	struct vsb_counter_worker cw;	/* counter bench; cw.folds: kstat's too */
	struct vsb_kstat_worker kw;	/* kstat bench */
	struct page **held;		/* page benches with outstanding > 0 */
	bool quiet;			/* stops updating when timing starts */
	bool busy;			/* kstat: only updates, never timed */
	/*
	 * --fold local: armed by the worker on its own CPU, expires there
	 * in hardirq context; the counts are written by the callback only
	 * and read after hrtimer_cancel().
	 */
	struct hrtimer fold_timer;
	u64 timer_folds;
	u64 timer_strays;		/* expired off the worker's CPU: not folded */
} ____cacheline_aligned_in_smp;

struct vsb_bench_ops {
	int (*validate)(const struct vsb_ioc_run *req);	/* its own words: 0 or -EINVAL */
	int (*setup)(struct vsb_ctl *c);		/* before any kthread */
	int (*sample)(struct vsb_worker *w, u64 loops, u64 deadline,
		      u64 *ops);			/* the timed batch */
	/* a busy worker's batch: update until the common stop; may be NULL */
	int (*busy)(struct vsb_worker *w, u64 deadline, u64 *ops);
	void (*check)(struct vsb_ctl *c);		/* sanity, after the run */
	void (*teardown)(struct vsb_ctl *c);		/* undo setup */
};

struct vsb_ctl {
	struct vsb_ioc_run req;
	const struct vsb_bench_ops *ops;
	struct task_struct *caller;	/* its pending signals end the run */
	unsigned int nworkers;
	struct vsb_worker *w;
	struct vsb_ioc_sample *samples;
	u64 deadline;			/* local_clock() value ending the run */
	u64 atomic_max_ns;		/* one sample with preempt/irqs off */

	/* counter bench */
	struct vsb_counter_params params;
	vsb_counter_loop_fn loop;
	void __percpu *diffs;
	vsb_shared_t *shared;
	struct percpu_counter *pcc;
	unsigned int npcc;		/* initialised percpu_counters */

	/* fold policy and drift reader (fold.c), counter bench only */
	unsigned int nquiet;		/* the last nquiet workers go quiet */
	ktime_t fold_interval;
	bool timers_ready;		/* every worker's fold_timer initialised */
	struct task_struct *shepherd;	/* --fold remote */
	u64 shepherd_passes;		/* written by the shepherd only */
	struct task_struct *reader;	/* VSB_RUN_DRIFT */
	u64 *drift_abs, *stale_ns;	/* one entry per reader sample */
	u32 drift_cap, drift_n;		/* drift_n written by the reader only */
	long *rd_last;			/* per (worker, item): last value seen */
	u64 *rd_since;			/* and since when, ns */

	/* kstat bench */
	struct vsb_kstat *kstat;

	/* page benches */
	gfp_t gfp;
	unsigned long *ev0, *ev1;	/* all_vm_events() before/after */

	/*
	 * Written once per sample at most, read by every worker at each
	 * chunk: read-mostly, on a line of their own away from the
	 * barrier counter that every worker writes.
	 */
	int stop ____cacheline_aligned_in_smp;	/* common end of the sample */
	int abort;				/* first -errno, ends the run */

	atomic_t bar_count ____cacheline_aligned_in_smp;
	unsigned int bar_gen;

	atomic_t running ____cacheline_aligned_in_smp;
	struct completion done;
};

/* Bytes per sample in the user's buffer (main.c checked sample_size). */
static inline size_t vsb_sample_stride(const struct vsb_ioc_run *req)
{
	return req->sample_size ? req->sample_size : VSB_IOC_SAMPLE_V2_SIZE;
}

/* run.c */
int vsb_run(struct vsb_ioc_run *req, const u32 *cpus);
void vsb_abort(struct vsb_ctl *c, int err);
int vsb_check_stop(struct vsb_ctl *c, u64 deadline);
int vsb_between_chunks(struct vsb_ctl *c, u64 deadline);

/* fold.c */
int vsb_fold_validate(const struct vsb_ioc_run *req);
int vsb_fold_setup(struct vsb_ctl *c);		/* after ops->setup */
int vsb_fold_create(struct vsb_ctl *c);		/* kthreads, not woken */
void vsb_fold_wake(struct vsb_ctl *c);
void vsb_fold_stop(struct vsb_ctl *c);		/* no folder runs after it */
void vsb_fold_results(struct vsb_ctl *c);
void vsb_fold_teardown(struct vsb_ctl *c);
void vsb_fold_worker_arm(struct vsb_worker *w);	/* on the worker's CPU */
void vsb_fold_worker_quiet(struct vsb_worker *w);

/*
 * The benches by their uapi number (VSB_BENCH_*): a row each, the ops in
 * the bench's own file.  A new bench is its file, its number and its
 * row here; bench_table.c checks at compile time that the rows are
 * exactly the numbers 0..VSB_BENCH_NR-1, each once.
 */
#define VSB_KMOD_BENCHES(row)						\
	row(VSB_BENCH_COUNTER, vsb_counter_ops)	/* counter.c */		\
	row(VSB_BENCH_PAGE_ALLOC, vsb_pages_ops)	/* pages.c */		\
	row(VSB_BENCH_PAGE_ALLOC_PARALLEL, vsb_pages_ops)			\
	row(VSB_BENCH_KSTAT, vsb_kstat_bench_ops)	/* kstat.c */

#define VSB_KMOD_BENCH_DECL(nr, ops)	extern const struct vsb_bench_ops ops;
VSB_KMOD_BENCHES(VSB_KMOD_BENCH_DECL)

/* the ops of uapi bench @nr, below VSB_BENCH_NR (bench_table.c) */
extern const struct vsb_bench_ops *const vsb_bench_table[VSB_BENCH_NR];
u64 vsb_kstat_ops_mask(void);

#endif /* VSB_KMOD_H */
