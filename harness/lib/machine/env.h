/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parsers behind the environment record (meta.c, `vmstat-bench info`).
 *
 * Each takes a path or a stream so the unit tests can feed fake
 * kernel config files; meta.c passes the real ones.
 */
#ifndef VSB_ENV_H
#define VSB_ENV_H

#include "cpuinfo.h"
#include "vsb.h"

/* Kernel config bits that change what the benchmarks measure. */
struct vsb_kconfig {
	int found;
	char source[600];		/* which file, or why none */
	char cmpxchg_local;		/* 'y', or 0 when absent */
	char numa, smp, preempt_dynamic, no_hz_full, debug_vm, lockdep, kasan;
	char preempt[16];		/* none|voluntary|full|lazy|rt|? */
	long hz;
	long nr_cpus;
};

void vsb_kconfig_parse(FILE *f, struct vsb_kconfig *kc);
/* One config file, gzip or plain (zlib); 0, or -1 and @kc zeroed. */
int vsb_kconfig_read_path(const char *path, struct vsb_kconfig *kc);
/* /boot/config-RELEASE, else /proc/config.gz. */
int vsb_kconfig_read(const char *release, struct vsb_kconfig *kc);
/* "HAVE_CMPXCHG_LOCAL=y (vmstat: this_cpu_cmpxchg) NUMA=y PREEMPT=none ..." */
void vsb_kconfig_format(const struct vsb_kconfig *kc, char *buf, size_t len);

/*
 * vm_committed_as_batch as mm_compute_batch() (mm/mm_init.c, 5.9+)
 * computes it: max(2 * present CPUs, 32, RAM pages / CPUs / 4), the last
 * term / 256 instead under OVERCOMMIT_NEVER (2), capped at INT_MAX.
 */
long long vsb_committed_as_batch(int overcommit_policy,
				 unsigned long long ram_pages, int present_cpus);

/*
 * Read @file (e.g. "cpufreq/scaling_governor") below each online CPU of
 * @cpu_root and group equal values: "performance (0-3); powersave (4-7)";
 * CPUs without the file are "none".
 */
void vsb_env_per_cpu(const char *cpu_root, const char *file, char *buf,
		     size_t len);

/* Count the CPUs of a sysfs list file ("0-3,8"); -1 if unreadable. */
int vsb_env_count_list(const char *path);

#endif /* VSB_ENV_H */
