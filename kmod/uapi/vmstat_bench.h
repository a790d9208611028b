/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * vmstat_bench.h - the one ABI between vmstat_bench.ko and the harness.
 *
 * The module exposes /dev/vmstat_bench (root only).  A client first asks
 * VSB_IOC_VERSION and refuses to go on unless the version is the one it
 * was built for; then each VSB_IOC_RUN runs one benchmark point
 * synchronously in the caller's context and writes one vsb_sample per
 * worker and repetition into a caller-supplied buffer.
 *
 * Rules (docs/architecture.md): fixed-width types only, no pointers (user addresses
 * travel as __u64), no enums or bitfields inside structs, explicit
 * padding so the layout is the same for 32- and 64-bit callers, every
 * struct starts with `size` and `version`, every reserved field must be
 * zero on input (checked: -EINVAL).  Append, never renumber: a new field
 * goes into reserved space or a new struct with a new ioctl and a new
 * version.  tests/unit/abi/test_abi.c pins every size and offset below.
 *
 * ABI 2 (fold policies and the drift reader) named reserved words
 * (fold, fold_interval_us, quiet_workers; drift_samples, fold_count,
 * drift_max, drift_p99) and appended 64 bytes to vsb_ioc_run, which
 * changes the size _IOWR encodes and so the number of VSB_IOC_RUN.  The
 * module still takes the ABI 1 request under its old number,
 * VSB_IOC_RUN_V1 (size 224, version 1, no flag above VSB_RUN_NO_PMU):
 * the renamed in-words must be zero there, as reserved words were (zero
 * meant no fold, no reader), and only the first 224 bytes are copied
 * back.
 *
 * Errors: unknown ioctl -ENOTTY; bad size, version, reserved bits or
 * values -EINVAL; bad user address -EFAULT; another run in progress
 * -EBUSY; a signal during the run -EINTR; the time limit hit -ETIME; a
 * page allocation failed -ENOMEM; a kstat op this module or kernel
 * lacks -EOPNOTSUPP; a kstat threshold without the module parameter
 * kstat_set_threshold=1 -EPERM.
 */
#ifndef _UAPI_LINUX_VMSTAT_BENCH_H
#define _UAPI_LINUX_VMSTAT_BENCH_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define VSB_DEVICE_NAME		"vmstat_bench"
#define VSB_ABI_VERSION		2

/* ---- limits (documented maxima; larger values are -EINVAL) ---- */
#define VSB_ABI_LOOPS_MAX	1000000000ULL	/* operations per sample */
#define VSB_ABI_REPEAT_MAX	1000		/* timed samples per worker */
#define VSB_ABI_WARMUP_MAX	100		/* untimed samples before them */
#define VSB_ABI_ITEMS_MAX	64		/* counter items */
#define VSB_ABI_ORDER_MAX	10		/* page order */
#define VSB_ABI_OUTSTANDING_MAX	8192		/* pages held per worker */
#define VSB_ABI_DELTA_MAX	100		/* |delta| */
#define VSB_ABI_BATCH_MAX	(1U << 30)	/* percpu_counter batch */
#define VSB_ABI_TIME_LIMIT_MAX_MS 600000	/* whole run */
#define VSB_ABI_TIME_LIMIT_DEF_MS 60000		/* when time_limit_ms is 0 */
/*
 * With preemption or interrupts off one sample may hold its CPU for at
 * most this long; past it the run is cut (-ETIME).  Far below the RCU
 * stall (21 s) and soft-lockup (20 s) detectors on purpose.
 */
#define VSB_ABI_ATOMIC_SAMPLE_MAX_MS 1000
/* --fold-interval-us: the period of the fold timers or the shepherd */
#define VSB_ABI_FOLD_INTERVAL_MIN_US	10
#define VSB_ABI_FOLD_INTERVAL_MAX_US	10000000	/* 10 s */
/* the drift reader samples every 100 us, at most this many times a run */
#define VSB_ABI_DRIFT_PERIOD_US		100
#define VSB_ABI_DRIFT_SAMPLES_MAX	(1U << 20)
/* kstat: updates of +delta, then as many of -delta (--run-length) */
#define VSB_ABI_RUN_LENGTH_MAX	1000000
/* kstat: the kernel's s8 per-CPU diffs hold a threshold of at most 125 */
#define VSB_ABI_KSTAT_THRESHOLD_MAX 125

/* ---- VSB_IOC_VERSION: the handshake ---- */
struct vsb_ioc_version {
	__u32 size;		/* in: sizeof(struct vsb_ioc_version) */
	__u32 version;		/* out: VSB_ABI_VERSION of the module */
	__u32 nr_cpu_ids;	/* out: CPU ids are below this */
	__u32 caps;		/* out: VSB_CAP_* */
	__u64 loops_max;	/* out: VSB_ABI_LOOPS_MAX */
	__u64 kstat_ops;	/* out: bit i: kstat op i (bench/kstat_ops.h) exists
				 * in this module on this kernel (VSB_CAP_KSTAT) */
	__u64 reserved[2];	/* in: zero; out: zero */
};

#define VSB_CAP_IRQ_DISABLE	(1U << 0)	/* the irqsave variant exists */
#define VSB_CAP_PERCPU_COUNTER	(1U << 1)	/* the real percpu_counter */
/*
 * Samples carry the disturbance fields (nivcsw .. irqs) when the request
 * asks for them with sample_size = sizeof(struct vsb_ioc_sample).  No
 * version bump: a client that leaves sample_size 0 gets ABI 2's 80-byte
 * samples, unchanged.
 */
#define VSB_CAP_DISTURB		(1U << 2)
/*
 * VSB_BENCH_KSTAT: the running kernel's own statistics functions
 * (mod_zone_page_state and friends), the ops kstat_ops lists.  No version
 * bump: the request's words for it were reserved (zero) before.
 */
#define VSB_CAP_KSTAT		(1U << 3)
/*
 * VSB_RUN_EXACT: marker NOPs around every timed batch, for the QEMU
 * plugin of exact mode (vsb_exact.h), and each sample's window number.
 * No version bump: the flag was refused before, the sample's word reserved.
 */
#define VSB_CAP_EXACT		(1U << 4)

/* ---- VSB_IOC_RUN: one benchmark point ---- */

/* bench */
#define VSB_BENCH_COUNTER		0	/* bench/ counter algorithm */
#define VSB_BENCH_PAGE_ALLOC		1	/* page_bench01/02: one CPU */
#define VSB_BENCH_PAGE_ALLOC_PARALLEL	2	/* page_bench03: every CPU */
#define VSB_BENCH_KSTAT			3	/* the kernel's own statistics code */
#define VSB_BENCH_NR			4

/* flags (in) */
#define VSB_RUN_PREEMPT_OFF	(1U << 0)	/* timed loop under preempt_disable */
#define VSB_RUN_IRQS_OFF	(1U << 1)	/* timed loop under local_irq_save */
#define VSB_RUN_NO_PMU		(1U << 2)	/* do not even try the PMU */
#define VSB_RUN_DRIFT		(1U << 3)	/* counter: run the drift reader */
/*
 * counter: allow a fold policy the variant does not survive (plain-fold
 * with a local fold, anything but cmpxchg-locked with a remote one).
 * For the test that shows the lost updates; nothing else should set it.
 */
#define VSB_RUN_UNSAFE_FOLD	(1U << 4)
/*
 * exact mode (VSB_CAP_EXACT): mark each timed batch for the TCG plugin,
 * and let every worker run all its loops (no common stop)
 */
#define VSB_RUN_EXACT		(1U << 5)
#define VSB_RUN_FLAGS_ALL	0x3fU
#define VSB_RUN_FLAGS_V1	0x7U		/* what ABI 1 requests may set */

/* fold (in), counter only: who else folds the per-CPU diffs */
#define VSB_FOLD_POLICY_NONE	0	/* threshold folds only */
#define VSB_FOLD_POLICY_LOCAL	1	/* a pinned hrtimer on each worker CPU */
#define VSB_FOLD_POLICY_REMOTE	2	/* one shepherd kthread, xchg per slot */
#define VSB_FOLD_POLICY_NR	3

/* gfp (in), page benches only; __GFP_NOWARN always, __GFP_COMP if order > 0 */
#define VSB_GFP_KERNEL		0
#define VSB_GFP_ATOMIC		1	/* required with PREEMPT_OFF or IRQS_OFF */
#define VSB_GFP_NR		2

/* result_flags (out) */
#define VSB_RES_SANITY_OK	(1U << 0)	/* the sanity check passed */
#define VSB_RES_MIGRATED	(1U << 1)	/* a worker ran off its CPU */
#define VSB_RES_PMU		(1U << 2)	/* pmu_* fields of samples are valid */
#define VSB_RES_MULTIPLEXED	(1U << 3)	/* a PMU counter was not always on */
#define VSB_RES_MEMCG		(1U << 4)	/* kstat: the page is charged to a memcg */

struct vsb_ioc_run {
	__u32 size;		/* in: sizeof(struct vsb_ioc_run) */
	__u32 version;		/* in: VSB_ABI_VERSION */
	__u32 bench;		/* in: VSB_BENCH_* */
	__u32 variant;		/* in: counter: row of bench/variants.h; else 0 */
	__u32 flags;		/* in: VSB_RUN_* */
	__u32 gfp;		/* in: VSB_GFP_*; counter: 0 */
	__u32 order;		/* in: page benches: 0..VSB_ABI_ORDER_MAX */
	__u32 outstanding;	/* in: page benches: 0 or pages held, page_bench02 */
	__u32 threshold;	/* in: counter: fold when |diff| > threshold;
				 * kstat: 0 = the kernel's own, else set for the
				 * run (module parameter kstat_set_threshold=1) */
	__u32 diff_bits;	/* in: counter: 8, 16 or 32 */
	__u32 items;		/* in: counter: 1..VSB_ABI_ITEMS_MAX */
	__s32 delta;		/* in: counter: per update, nonzero; kstat: > 0 */
	__u32 batch;		/* in: counter, kstat percpu-counter ops: batch */
	__u32 repeat;		/* in: timed samples, 1..VSB_ABI_REPEAT_MAX */
	__u32 warmup;		/* in: 0..VSB_ABI_WARMUP_MAX */
	__u32 ncpus;		/* in: entries at cpus_ptr, 1..nr_cpu_ids */
	__u64 loops;		/* in: ops per sample per worker, 1..LOOPS_MAX */
	__u64 cpus_ptr;		/* in: user address of __u32[ncpus] CPU ids */
	__u64 samples_ptr;	/* in: user address of vsb_ioc_sample[samples_cap] */
	__u32 samples_cap;	/* in: >= ncpus * repeat */
	__u32 time_limit_ms;	/* in: 0 = default; at most TIME_LIMIT_MAX_MS */
	__u32 fold;		/* in: counter: VSB_FOLD_POLICY_*; else 0 */
	__u32 fold_interval_us;	/* in: 0 with FOLD_NONE, else FOLD_INTERVAL_* */
	__u32 quiet_workers;	/* in: counter: the last N workers go quiet, < ncpus */
	__u32 sample_size;	/* in: 0 or VSB_IOC_SAMPLE_V2_SIZE: 80-byte samples;
				 * sizeof(struct vsb_ioc_sample): all fields
				 * (VSB_CAP_DISTURB); ABI 1 and old clients: 0 */
	/* kstat (VSB_CAP_KSTAT); zero for every other bench */
	__u32 kstat_op;		/* in: row of bench/kstat_ops.h */
	__u32 run_length;	/* in: +delta this many times, then -delta as often */
	__u32 busy_workers;	/* in: the last N workers only update (no samples) */
	__u32 reserved_in32;	/* in: zero */

	/* out: written on success (0) only */
	__u32 nsamples;		/* written: (ncpus - quiet_workers) * repeat */
	__u32 result_flags;	/* VSB_RES_* */
	__s32 pmu_error;	/* 0, or the -errno why the PMU is unavailable */
	__u32 sanity_item;	/* counter: first item that failed; kstat: the item */
	__s64 applied;		/* counter: total delta applied, warm-up included;
				 * kstat: what the runs left before it was put back */
	__s64 counted;		/* counter: shared + per-CPU sums afterwards;
				 * kstat: the item after minus before (0 is ok) */
	__u64 pages;		/* page benches: 4 KiB pages allocated (all samples) */
	__u64 vm_pgalloc;	/* page benches: delta of sum(pgalloc_*) events */
	__u64 vm_pgfree;	/* page benches: delta of the pgfree event */
	__u64 elapsed_ns;	/* whole run, setup included */
	/* ABI 2, counter: the reader's figures (VSB_RUN_DRIFT), else 0 */
	__u64 drift_samples;	/* reader samples taken */
	__u64 fold_count;	/* local: timer folds, all CPUs; remote: shepherd passes */
	__u64 drift_max;	/* |sum of the per-CPU diffs| at a sample */
	__u64 drift_p99;

	/* ABI 2: appended (offset 224, VSB_IOC_RUN_V1 ends here) */
	__u64 drift_mean_milli;	/* mean |sum of diffs|, times 1000 */
	__u64 stale_max_ns;	/* oldest unchanged nonzero diff at a sample */
	__u64 stale_p99_ns;
	__u64 stale_mean_ns;
	/* kstat (VSB_CAP_KSTAT), else zero */
	__u32 kstat_threshold;	/* the kernel's stat_threshold on the first CPU */
	__u32 kstat_threshold_run; /* the one in force during the run */
	__s64 kstat_before;	/* the item's exact value (all diffs) before */
	__u64 kstat_moved;	/* |units| the folds moved, all workers */
	__u64 kstat_folds;	/* folds counted, all workers */
};

#define VSB_IOC_RUN_V1_SIZE	224	/* sizeof(struct vsb_ioc_run) in ABI 1 */

/* sample flags */
#define VSB_SAMPLE_MIGRATED	(1U << 0)
#define VSB_SAMPLE_MULTIPLEXED	(1U << 1)
#define VSB_SAMPLE_RUN_DELAY	(1U << 2)	/* run_delay_ns is valid (CONFIG_SCHED_INFO) */
#define VSB_SAMPLE_EXACT	(1U << 3)	/* exact_window is valid (VSB_RUN_EXACT) */

/* The sample as ABI 2 first wrote it: up to pmu_running. */
#define VSB_IOC_SAMPLE_V2_SIZE	80

/*
 * One worker's timed sample.  cycles is get_cycles() (the TSC on x86),
 * ns is ktime_get_ns(), both read just outside the timed loop; the pmu_*
 * values are kernel-mode core cycles and instructions from
 * perf_event_create_kernel_counter(), read around the sample outside any
 * irq-off section, valid when VSB_RES_PMU is set.
 */
struct vsb_ioc_sample {
	__u32 thread;		/* worker index, order of cpus_ptr */
	__u32 cpu;
	__u32 rep;		/* 0-based, warm-up excluded */
	__u32 flags;		/* VSB_SAMPLE_* */
	__u64 ops;		/* operations in the sample */
	__u64 cycles;		/* get_cycles() delta */
	__u64 ns;		/* ktime_get_ns() delta */
	__u64 folds;		/* counter: folds into the shared counter */
	__u64 pmu_cycles;	/* kernel-mode core cycles */
	__u64 pmu_instr;	/* kernel-mode instructions */
	__u64 pmu_enabled;	/* time_enabled delta of the cycles event */
	__u64 pmu_running;	/* time_running delta of the cycles event */
	/*
	 * Appended (VSB_CAP_DISTURB, written when sample_size asks): what
	 * else ran on the worker's CPU during the batch, read just outside
	 * it (with the PMU reads).
	 */
	__u64 nivcsw;		/* the worker's involuntary context switches */
	__u64 run_delay_ns;	/* the worker runnable, not running (sched_info) */
	__u64 steal_ns;		/* kcpustat CPUTIME_STEAL of its CPU */
	__u64 irqs;		/* interrupts on its CPU: kstat irqs_sum + x86 APIC/IPI counts */
	/*
	 * VSB_RUN_EXACT (was reserved[0]): the batch's window on its CPU,
	 * numbered from 0 since the module was loaded, as the plugin numbers
	 * them from boot; the harness checks the two agree (vsb_exact.h).
	 */
	__u64 exact_window;
	__u64 reserved[1];	/* zero */
};

#define VSB_IOC_MAGIC	0xB5
#define VSB_IOC_VERSION	_IOWR(VSB_IOC_MAGIC, 0x00, struct vsb_ioc_version)
#define VSB_IOC_RUN	_IOWR(VSB_IOC_MAGIC, 0x01, struct vsb_ioc_run)
/* ABI 1's VSB_IOC_RUN: the first VSB_IOC_RUN_V1_SIZE bytes, version 1 */
#define VSB_IOC_RUN_V1	_IOC(_IOC_READ | _IOC_WRITE, VSB_IOC_MAGIC, 0x01, \
			     VSB_IOC_RUN_V1_SIZE)

#endif /* _UAPI_LINUX_VMSTAT_BENCH_H */
