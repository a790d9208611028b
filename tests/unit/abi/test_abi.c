// SPDX-License-Identifier: GPL-2.0
/*
 * The module ABI, pinned: every size and offset of
 * kmod/uapi/vmstat_bench.h.  The checks are compile-time
 * (_Static_assert), so a layout change fails the build of this test; the
 * runtime part only reports them as TAP and checks the ioctl numbers
 * encode the struct sizes.  Changing a number here means a new ABI
 * version: append fields into reserved space or add a new ioctl instead.
 * ABI 2 did both: named reserved words and appended 64 bytes, keeping
 * ABI 1's request under its old ioctl number (VSB_IOC_RUN_V1).
 */
#include <stddef.h>
#include <stdio.h>

#include "kmod/uapi/vmstat_bench.h"
#include "bench/variants.h"
#include "tap.h"

#define PIN(type, field, off) \
	_Static_assert(offsetof(struct type, field) == (off), #type "." #field)
#define SIZE(type, sz) \
	_Static_assert(sizeof(struct type) == (sz), "sizeof " #type)

SIZE(vsb_ioc_version, 48);
PIN(vsb_ioc_version, size, 0);
PIN(vsb_ioc_version, version, 4);
PIN(vsb_ioc_version, nr_cpu_ids, 8);
PIN(vsb_ioc_version, caps, 12);
PIN(vsb_ioc_version, loops_max, 16);
PIN(vsb_ioc_version, kstat_ops, 24);	/* was reserved[0] */
PIN(vsb_ioc_version, reserved, 32);

SIZE(vsb_ioc_run, 288);
PIN(vsb_ioc_run, size, 0);
PIN(vsb_ioc_run, version, 4);
PIN(vsb_ioc_run, bench, 8);
PIN(vsb_ioc_run, variant, 12);
PIN(vsb_ioc_run, flags, 16);
PIN(vsb_ioc_run, gfp, 20);
PIN(vsb_ioc_run, order, 24);
PIN(vsb_ioc_run, outstanding, 28);
PIN(vsb_ioc_run, threshold, 32);
PIN(vsb_ioc_run, diff_bits, 36);
PIN(vsb_ioc_run, items, 40);
PIN(vsb_ioc_run, delta, 44);
PIN(vsb_ioc_run, batch, 48);
PIN(vsb_ioc_run, repeat, 52);
PIN(vsb_ioc_run, warmup, 56);
PIN(vsb_ioc_run, ncpus, 60);
PIN(vsb_ioc_run, loops, 64);
PIN(vsb_ioc_run, cpus_ptr, 72);
PIN(vsb_ioc_run, samples_ptr, 80);
PIN(vsb_ioc_run, samples_cap, 88);
PIN(vsb_ioc_run, time_limit_ms, 92);
PIN(vsb_ioc_run, fold, 96);
PIN(vsb_ioc_run, fold_interval_us, 100);
PIN(vsb_ioc_run, quiet_workers, 104);
PIN(vsb_ioc_run, sample_size, 108);	/* was reserved_in32 */
/* kstat (VSB_CAP_KSTAT): was reserved_in[2] */
PIN(vsb_ioc_run, kstat_op, 112);
PIN(vsb_ioc_run, run_length, 116);
PIN(vsb_ioc_run, busy_workers, 120);
PIN(vsb_ioc_run, reserved_in32, 124);
PIN(vsb_ioc_run, nsamples, 128);
PIN(vsb_ioc_run, result_flags, 132);
PIN(vsb_ioc_run, pmu_error, 136);
PIN(vsb_ioc_run, sanity_item, 140);
PIN(vsb_ioc_run, applied, 144);
PIN(vsb_ioc_run, counted, 152);
PIN(vsb_ioc_run, pages, 160);
PIN(vsb_ioc_run, vm_pgalloc, 168);
PIN(vsb_ioc_run, vm_pgfree, 176);
PIN(vsb_ioc_run, elapsed_ns, 184);
PIN(vsb_ioc_run, drift_samples, 192);
PIN(vsb_ioc_run, fold_count, 200);
PIN(vsb_ioc_run, drift_max, 208);
PIN(vsb_ioc_run, drift_p99, 216);
/* ABI 2 appended from here: ABI 1's request is the 224 bytes before */
PIN(vsb_ioc_run, drift_mean_milli, 224);
PIN(vsb_ioc_run, stale_max_ns, 232);
PIN(vsb_ioc_run, stale_p99_ns, 240);
PIN(vsb_ioc_run, stale_mean_ns, 248);
/* kstat (VSB_CAP_KSTAT): was reserved_out[4] */
PIN(vsb_ioc_run, kstat_threshold, 256);
PIN(vsb_ioc_run, kstat_threshold_run, 260);
PIN(vsb_ioc_run, kstat_before, 264);
PIN(vsb_ioc_run, kstat_moved, 272);
PIN(vsb_ioc_run, kstat_folds, 280);
_Static_assert(VSB_IOC_RUN_V1_SIZE == 224, "ABI 1 request size");

/* flag and fold numbers are ABI too */
_Static_assert(VSB_RUN_IRQS_OFF == 2 && VSB_RUN_NO_PMU == 4 &&
	       VSB_RUN_DRIFT == 8 && VSB_RUN_UNSAFE_FOLD == 16 &&
	       VSB_RUN_EXACT == 32 &&
	       VSB_RUN_FLAGS_ALL == 0x3f && VSB_RUN_FLAGS_V1 == 0x7,
	       "run flags");
_Static_assert(VSB_FOLD_POLICY_NONE == 0 && VSB_FOLD_POLICY_LOCAL == 1 &&
	       VSB_FOLD_POLICY_REMOTE == 2 && VSB_FOLD_POLICY_NR == 3, "fold policies");

/* ABI 2 appended 48 bytes (VSB_CAP_DISTURB); the first 80 are ABI 2's */
SIZE(vsb_ioc_sample, 128);
_Static_assert(VSB_IOC_SAMPLE_V2_SIZE == 80, "ABI 2 sample size");
_Static_assert(VSB_CAP_DISTURB == 4 && VSB_SAMPLE_RUN_DELAY == 4, "disturb bits");
_Static_assert(VSB_CAP_KSTAT == 8 && VSB_BENCH_KSTAT == 3 && VSB_RES_MEMCG == 16,
	       "kstat numbers");
PIN(vsb_ioc_sample, thread, 0);
PIN(vsb_ioc_sample, cpu, 4);
PIN(vsb_ioc_sample, rep, 8);
PIN(vsb_ioc_sample, flags, 12);
PIN(vsb_ioc_sample, ops, 16);
PIN(vsb_ioc_sample, cycles, 24);
PIN(vsb_ioc_sample, ns, 32);
PIN(vsb_ioc_sample, folds, 40);
PIN(vsb_ioc_sample, pmu_cycles, 48);
PIN(vsb_ioc_sample, pmu_instr, 56);
PIN(vsb_ioc_sample, pmu_enabled, 64);
PIN(vsb_ioc_sample, pmu_running, 72);
PIN(vsb_ioc_sample, nivcsw, 80);
PIN(vsb_ioc_sample, run_delay_ns, 88);
PIN(vsb_ioc_sample, steal_ns, 96);
PIN(vsb_ioc_sample, irqs, 104);
PIN(vsb_ioc_sample, exact_window, 112);	/* was reserved[0] */
PIN(vsb_ioc_sample, reserved, 120);

/* 8-byte multiples: identical for i386 and x86_64 callers (compat) */
_Static_assert(sizeof(struct vsb_ioc_run) % 8 == 0, "run padding");
_Static_assert(sizeof(struct vsb_ioc_sample) % 8 == 0, "sample padding");

/* variant ids travel as rows of bench/variants.h: append-only */
_Static_assert(VSB_V_this_cpu_add == 0 && VSB_V_plain_fold == 1 &&
	       VSB_V_irqsave == 2 && VSB_V_cmpxchg_local == 3 &&
	       VSB_V_cmpxchg_locked == 4 && VSB_V_atomic_global == 5 &&
	       VSB_V_percpu_counter == 6, "variant rows are ABI");

int main(void)
{
	TAP_OK(VSB_ABI_VERSION == 2, "ABI version 2");
	TAP_OK(_IOC_SIZE(VSB_IOC_VERSION) == sizeof(struct vsb_ioc_version),
	       "VSB_IOC_VERSION encodes sizeof(struct vsb_ioc_version) = 48");
	TAP_OK(_IOC_SIZE(VSB_IOC_RUN) == sizeof(struct vsb_ioc_run),
	       "VSB_IOC_RUN encodes sizeof(struct vsb_ioc_run) = 288");
	TAP_OK(_IOC_SIZE(VSB_IOC_RUN_V1) == 224 && _IOC_NR(VSB_IOC_RUN_V1) == 1 &&
	       _IOC_DIR(VSB_IOC_RUN_V1) == (_IOC_READ | _IOC_WRITE) &&
	       VSB_IOC_RUN_V1 != VSB_IOC_RUN,
	       "VSB_IOC_RUN_V1 is ABI 1's _IOWR(0xB5, 1) of 224 bytes, distinct");
	TAP_OK(_IOC_DIR(VSB_IOC_RUN) == (_IOC_READ | _IOC_WRITE) &&
	       _IOC_TYPE(VSB_IOC_RUN) == VSB_IOC_MAGIC && _IOC_NR(VSB_IOC_RUN) == 1,
	       "VSB_IOC_RUN is _IOWR(0xB5, 1)");
	TAP_OK(sizeof(struct vsb_ioc_sample) == 128, "vsb_ioc_sample is 128 bytes (80 of ABI 2 + 48 appended)");
	TAP_OK(VSB_V_NR >= 7, "7 counter variants at least (append-only)");
	return tap_done();
}
