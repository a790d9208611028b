/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The environment record every result carries (meta.c), and its noise
 * warnings: which conditions of this machine and build make numbers
 * noisy or incomparable.
 *
 * The decision is a pure function of values meta.c reads from sysfs,
 * /proc and the kernel config, so the unit tests feed it synthetic
 * machines; reading and printing stay in meta.c.
 */
#ifndef VSB_META_H
#define VSB_META_H

#include "env.h"

enum vsb_noise {
	VSB_NOISE_BUILD		= 1 << 0,	/* not a release build */
	VSB_NOISE_DEBUG_KERNEL	= 1 << 1,	/* DEBUG_VM, LOCKDEP or KASAN */
	VSB_NOISE_GOVERNOR	= 1 << 2,	/* not performance on every CPU */
	VSB_NOISE_TURBO		= 1 << 3,	/* turbo/boost on */
	VSB_NOISE_VM_NO_PMU	= 1 << 4,	/* a guest without a virtual PMU */
	VSB_NOISE_SMT_SHARED	= 1 << 5,	/* two workers on one core */
};

struct vsb_noise_in {
	const char *build;		/* VSB_BUILD: "release", "sanitize", ... */
	const struct vsb_kconfig *kc;	/* NULL: config unknown */
	/* vsb_env_per_cpu() of scaling_governor: "performance (0-3)", ... */
	const char *governor;
	int turbo;			/* 1 on, 0 off, -1 unknown */
	int hypervisor;			/* CPUID hypervisor bit */
	int core_pmu;			/* a cpu PMU in /sys/bus/event_source */
	int smt_shared;			/* vsb_topo_smt_shared() of the CPU list */
};

/* The VSB_NOISE_* bits that apply to @in; 0: nothing to warn about. */
unsigned int vsb_meta_noise(const struct vsb_noise_in *in);
/*
 * The warning line of one bit into @buf ("" for VSB_NOISE_VM_NO_PMU,
 * whose line pmu.c owns: vsb_pmu_warn_vm() says it once per process).
 */
void vsb_meta_noise_msg(unsigned int bit, const struct vsb_noise_in *in,
			char *buf, size_t len);

struct vsb_result;

/* ---- the record (meta.c) ---- */
/*
 * A finished result's record: the machine's, and the run's own lines.
 * Its TSC rate is not collected here but noted by the process that
 * timed the samples (benches.h, vsb_bench_note_tsc).
 */
void vsb_meta_collect(struct vsb_result *r);
void vsb_meta_set_cmdline(int argc, char **argv);
/*
 * The machine part only (no run keys), with this process's TSC rate:
 * `vmstat-bench info` prints it.
 */
void vsb_meta_collect_env(struct vsb_result *r);
/* Module ABI hook: 0 and the version in @buf when the module answers. */
int vsb_meta_kmod_abi(char *buf, size_t len);

#endif /* VSB_META_H */
