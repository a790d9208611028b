// SPDX-License-Identifier: GPL-2.0
/*
 * The environment record written into every result and shown by
 * `vmstat-bench info`: enough to tell, months later, what machine and
 * kernel a number came from and whether it should have been trusted.
 *
 * Collecting it reads /proc and sysfs only (plus the kernel config,
 * gzip-compressed in /proc/config.gz), never during a timed sample:
 * cmd_run calls vsb_meta_collect() after the workers are joined.  Conditions that make
 * numbers noisy are warned about on stderr, once per process, and never
 * fail a run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "kmod/uapi/vmstat_bench.h"
#include "damon.h"
#include "env.h"
#include "guest.h"
#include "kernel_line.h"
#include "meta.h"
#include "meminfo.h"
#include "pmu.h"
#include "result.h"
#include "topo.h"
#include "c2c.h"
#include "c2c_rule.h"
#include "cost_probe.h"
#include "kmod_abi.h"

#ifndef VSB_GIT_REV
#define VSB_GIT_REV "unknown"
#endif
#ifndef VSB_BUILD
#define VSB_BUILD "release"
#endif
#define VSB_VERSION "0.1"
#define SYS_CPU "/sys/devices/system/cpu"

static char cmdline[2048];

void vsb_meta_set_cmdline(int argc, char **argv)
{
	size_t off = 0;
	int i;

	for (i = 0; i < argc && off < sizeof(cmdline); i++)
		off += snprintf(cmdline + off, sizeof(cmdline) - off, "%s%s",
				i ? " " : "", argv[i]);
}

/*
 * Fill @buf with whether the module is loaded and the ABI version its
 * VERSION ioctl reports; 0 when loaded and answering, -1 otherwise.
 */
int vsb_meta_kmod_abi(char *buf, size_t len)
{
	struct vsb_ioc_version v;
	int fd, ret;

	if (access(VSB_KMOD_DEVICE, F_OK)) {
		snprintf(buf, len, "not loaded (no %s)", VSB_KMOD_DEVICE);
		return -1;
	}
	ret = vsb_kmod_handshake(&fd, &v);
	if (ret) {
		snprintf(buf, len, "loaded (%s), version query failed: %s",
			 VSB_KMOD_DEVICE, strerror(-ret));
		return -1;
	}
	close(fd);
	snprintf(buf, len, "loaded (%s), ABI version %u", VSB_KMOD_DEVICE, v.version);
	return 0;
}

/*
 * What the record's parts share while it is made: the record, the
 * point's --sysctl, and what one part reads and another (or the noise
 * warnings) uses.
 */
struct env_ctx {
	struct vsb_meta_rec *m;
	const char *sysctl;		/* the point's NAME=VALUE, "" for none */
	struct vsb_cpuinfo ci;
	struct vsb_kconfig kc;
	char gov[1024];			/* scaling_governor, per CPU */
	int turbo, core_pmu;
	long long ram_kb;		/* MemTotal, 0 unknown */
};

/*
 * A sysctl as the point ran with it: a sweep writes its files after the
 * last round, when --sysctl values are back to their originals, so the
 * value the point set wins over what the file says now.
 */
static const char *point_sysctl(const char *sysctl, const char *key)
{
	size_t n = strlen(key);

	if (!strncmp(sysctl, key, n) && sysctl[n] == '=')
		return sysctl + n + 1;
	return NULL;
}

static void meta_file(struct env_ctx *e, const char *key, const char *path)
{
	const char *set = point_sysctl(e->sysctl, key);
	char buf[512];

	if (set) {
		vsb_meta_rec_add(e->m, key, "%s (set by --sysctl for this point)", set);
		return;
	}
	if (vsb_read_file_str(path, buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "unavailable");
	vsb_meta_rec_add(e->m, key, "%s", buf);
}

static const char *aslr_name(long v)
{
	return v == 0 ? "off" : v == 1 ? "on (conservative)" : v == 2 ? "on" : "?";
}

/* 1 on, 0 off, -1 unknown: intel_pstate's no_turbo, else cpufreq boost. */
static int turbo_state(void)
{
	long v;

	if (!vsb_read_file_long(SYS_CPU "/intel_pstate/no_turbo", &v))
		return v == 0;
	if (!vsb_read_file_long(SYS_CPU "/cpufreq/boost", &v))
		return v == 1;
	return -1;
}

static void read_or(const char *path, char *buf, size_t len, const char *def)
{
	if (vsb_read_file_str(path, buf, len) || !buf[0])
		snprintf(buf, len, "%s", def);
}

/*
 * The noise decision: pure, on the values vsb_meta_collect_env() and
 * vsb_meta_collect() read, so tests/unit/lib/machine/test_meta.c can
 * feed it any machine.  A governor nobody could read ("unavailable", or "none (...)"
 * on every CPU: no cpufreq, as in most VMs) is no warning: there is
 * nothing to fix there.
 */
unsigned int vsb_meta_noise(const struct vsb_noise_in *in)
{
	const char *gov = in->governor;
	unsigned int m = 0;

	if (in->build && strcmp(in->build, "release"))
		m |= VSB_NOISE_BUILD;
	if (in->kc && (in->kc->debug_vm == 'y' || in->kc->lockdep == 'y' ||
		       in->kc->kasan == 'y'))
		m |= VSB_NOISE_DEBUG_KERNEL;
	if (gov && gov[0] && strcmp(gov, "unavailable") && strncmp(gov, "none (", 6) &&
	    (strncmp(gov, "performance (", 13) || strchr(gov, ';')))
		m |= VSB_NOISE_GOVERNOR;
	if (in->turbo == 1)
		m |= VSB_NOISE_TURBO;
	if (in->hypervisor && !in->core_pmu)
		m |= VSB_NOISE_VM_NO_PMU;
	if (in->smt_shared)
		m |= VSB_NOISE_SMT_SHARED;
	return m;
}

void vsb_meta_noise_msg(unsigned int bit, const struct vsb_noise_in *in,
			char *buf, size_t len)
{
	switch (bit) {
	case VSB_NOISE_BUILD:
		snprintf(buf, len, "this is a %s build of vmstat-bench: numbers are "
			 "not comparable with a release build", in->build);
		break;
	case VSB_NOISE_DEBUG_KERNEL:
		snprintf(buf, len, "debug kernel (DEBUG_VM/LOCKDEP/KASAN): page "
			 "allocator costs are inflated");
		break;
	case VSB_NOISE_GOVERNOR:
		snprintf(buf, len, "CPU frequency governor is not performance "
			 "everywhere (%s): cycles and time per op will drift",
			 in->governor);
		break;
	case VSB_NOISE_TURBO:
		snprintf(buf, len, "turbo/boost is on: the clock changes with load "
			 "and temperature");
		break;
	case VSB_NOISE_SMT_SHARED:
		snprintf(buf, len, "SMT siblings of one core both run workers: they "
			 "share a pipeline (--placement cores-first avoids this)");
		break;
	default:
		buf[0] = '\0';
	}
}

/* Say each noise warning of @in on stderr; returns the bits said. */
static unsigned int warn_noise(const struct vsb_noise_in *in)
{
	unsigned int m = vsb_meta_noise(in), bit;
	char buf[1536];

	for (bit = 1; bit && bit <= m; bit <<= 1) {
		if (!(m & bit))
			continue;
		if (bit == VSB_NOISE_VM_NO_PMU) {
			vsb_pmu_warn_vm();
			continue;
		}
		vsb_meta_noise_msg(bit, in, buf, sizeof(buf));
		vsb_warn("%s", buf);
	}
	return m;
}

/*
 * What the result store fingerprints a machine by (db import): fields
 * that stay put across boots and kernels, never bogomips or the host
 * name.  RAM in whole GiB, as firmware reservations move MemTotal by a
 * few MB between kernels.
 */
static void machine_identity(struct env_ctx *e)
{
	const struct vsb_cpuinfo *ci = &e->ci;

	vsb_meta_rec_add(e->m, "cpu_vendor", "%s", ci->vendor);
	vsb_meta_rec_add(e->m, "cpu_family", "%d", ci->family);
	vsb_meta_rec_add(e->m, "cpu_model_id", "%d", ci->model_id);
	vsb_meta_rec_add(e->m, "cpu_stepping", "%d", ci->stepping);
	vsb_meta_rec_add(e->m, "cpu_microcode", "%s", ci->microcode);
	vsb_meta_rec_add(e->m, "mem_total", "%lld GiB", (e->ram_kb + (1 << 19)) >> 20);
}

/*
 * The machine's shape as the guest-shape axes read it (guest.c): the
 * possible CPUs the kernel sized its per-CPU areas for, the present
 * ones, its command line, and what ci/vm-run.sh says it booted.
 */
static void guest_meta(struct vsb_meta_rec *m)
{
	char buf[1024];

	read_or(SYS_CPU "/possible", buf, sizeof(buf), "unavailable");
	vsb_meta_rec_add(m, "cpus_possible", "%d (%s)",
			 vsb_env_count_list(SYS_CPU "/possible"), buf);
	read_or(SYS_CPU "/present", buf, sizeof(buf), "unavailable");
	vsb_meta_rec_add(m, "cpus_present", "%d (%s)",
			 vsb_env_count_list(SYS_CPU "/present"), buf);
	read_or("/proc/cmdline", buf, sizeof(buf), "unavailable");
	if (strstr(buf, " -- "))	/* what follows is init's, not the kernel's */
		*strstr(buf, " -- ") = '\0';
	vsb_meta_rec_add(m, "kernel_cmdline", "%s", buf);
	vsb_guest_booted_as(buf, sizeof(buf));
	vsb_meta_rec_add(m, "guest_shape", "%s", buf[0] ? buf :
			 "none (not a guest booted by ci/vm-run.sh)");
}

/* This build of the harness and the kernel it runs on */
static void build_part(struct env_ctx *e)
{
	struct vsb_meta_rec *m = e->m;
	struct utsname u;
	char buf[1024];

	vsb_meta_rec_add(m, VSB_META_WRITER, "%s (git %s, %s build)", VSB_VERSION,
			 VSB_GIT_REV, VSB_BUILD);
	vsb_meta_rec_add(m, "git_revision", "%s", VSB_GIT_REV);
	vsb_meta_rec_add(m, "build_type", "%s", VSB_BUILD);
	vsb_meta_rec_add(m, "command", "%s", cmdline);
	if (uname(&u) == 0)
		vsb_kernel_line_write(m, u.sysname, u.release, u.version, u.machine);
	else
		snprintf(u.release, sizeof(u.release), "unknown");
	vsb_kconfig_read(u.release, &e->kc);
	vsb_kconfig_format(&e->kc, buf, sizeof(buf));
	vsb_meta_rec_add(m, "kernel_config", "%s", buf);
	vsb_meta_rec_add(m, "kernel_config_source", "%s", e->kc.source);
	/* the active model of a PREEMPT_DYNAMIC kernel is only in debugfs */
	read_or("/sys/kernel/debug/sched/preempt", buf, sizeof(buf),
		"unavailable (debugfs not mounted or not root)");
	vsb_meta_rec_add(m, "preempt_model_dynamic", "%s", buf);
}

/* The CPUs: model, topology, SMT, the guest's shape, isolation */
static void cpu_part(struct env_ctx *e)
{
	const struct vsb_topo *t = vsb_topo_get();
	struct vsb_meta_rec *m = e->m;
	char buf[1024];
	long v;

	e->ci = *vsb_cpuinfo_host();
	vsb_meta_rec_add(m, "cpu_model", "%s", e->ci.model);
	vsb_meta_rec_add(m, "hypervisor", "%s", e->ci.hypervisor ? "yes" : "no");
	vsb_meta_rec_add(m, "online_cpus", "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	if (t) {
		vsb_topo_summary(t, buf, sizeof(buf));
		vsb_meta_rec_add(m, "topology", "%s", buf);
		vsb_meta_rec_add(m, "topology_source", "%s", t->source);
	} else {
		vsb_meta_rec_add(m, "topology", "unavailable");
	}
	read_or("/sys/devices/system/node/online", buf, sizeof(buf), "none (no NUMA)");
	vsb_meta_rec_add(m, "numa_nodes_online", "%s", buf);
	read_or(SYS_CPU "/smt/control", buf, sizeof(buf), "unavailable");
	vsb_meta_rec_add(m, "smt", "%s (control: %s)",
			 !vsb_read_file_long(SYS_CPU "/smt/active", &v) ?
			 (v ? "on" : "off") : "unknown", buf);
	guest_meta(m);
	read_or(SYS_CPU "/isolated", buf, sizeof(buf), "none");
	vsb_meta_rec_add(m, "isolated_cpus", "%s", buf);
	read_or(SYS_CPU "/nohz_full", buf, sizeof(buf), "none");
	vsb_meta_rec_add(m, "nohz_full_cpus", "%s", buf);
	/* the table exact mode's cost model prices this CPU with (docs/costs.md) */
	vsb_cost_meta_line(buf, sizeof(buf));
	vsb_meta_rec_add(m, "cost_table", "%s", buf);
}

/*
 * The clocks and the PMU: what the samples' units rest on.  A result's
 * TSC rate is not the record's: the process that timed its samples
 * noted it (vsb_bench_note_tsc), and a sweep's record is written by
 * its last worker process, which may have timed none of them.
 */
static void clock_part(struct env_ctx *e, int with_tsc)
{
	struct vsb_meta_rec *m = e->m;

	if (with_tsc)
		vsb_meta_rec_add(m, "tsc_hz", "%.0f", vsb_tsc_hz());
	vsb_meta_rec_add(m, "tsc_flags", "%s",
			 *vsb_cpuinfo_tsc_flags(&e->ci) ?
			 vsb_cpuinfo_tsc_flags(&e->ci) : "none");
	vsb_meta_rec_add(m, "tsc_invariant", "%s%s",
			 vsb_cpuinfo_tsc_invariant(&e->ci) ? "yes" : "no",
			 e->ci.tsc_known_freq ? " (tsc_known_freq)" : "");
	e->core_pmu = vsb_pmu_have_core_pmu("/sys/bus/event_source/devices");
	vsb_meta_rec_add(m, "perf_event_paranoid", "%d", vsb_pmu_paranoid());
	vsb_meta_rec_add(m, "pmu_core", "%s", e->core_pmu ? "yes" :
			 "no (no cpu PMU in /sys/bus/event_source/devices)");
	if (vsb_pmu_last_verdict()[0])
		vsb_meta_rec_add(m, "pmu_verdict", "%s", vsb_pmu_last_verdict());
}

/* Frequency scaling and ASLR: what moves a figure from run to run */
static void freq_part(struct env_ctx *e)
{
	struct vsb_meta_rec *m = e->m;
	char buf[1024];
	long v;

	meta_file(e, "cpu0_governor", SYS_CPU "/cpu0/cpufreq/scaling_governor");
	vsb_env_per_cpu(SYS_CPU, "cpufreq/scaling_governor", e->gov, sizeof(e->gov));
	vsb_meta_rec_add(m, "governor", "%s", e->gov);
	vsb_env_per_cpu(SYS_CPU, "cpufreq/scaling_driver", buf, sizeof(buf));
	vsb_meta_rec_add(m, "cpufreq_driver", "%s", buf);
	e->turbo = turbo_state();
	vsb_meta_rec_add(m, "turbo", "%s", e->turbo < 0 ? "unknown" :
			 e->turbo ? "on" : "off");
	vsb_meta_rec_add(m, "aslr", "%s",
			 !vsb_read_file_long("/proc/sys/kernel/randomize_va_space", &v) ?
			 aslr_name(v) : "unknown");
}

/* vm_committed_as's batch, as mm_compute_batch() sizes it for this machine */
static void committed_batch(struct env_ctx *e)
{
	const char *set = point_sysctl(e->sysctl, "vm.overcommit_memory");
	long v, pagesz = sysconf(_SC_PAGESIZE);
	int present = vsb_env_count_list(SYS_CPU "/present");

	/* MemTotal is totalram_pages(), the RAM mm_compute_batch uses */
	e->ram_kb = vsb_meminfo_kb("MemTotal");
	if (e->ram_kb < 0)
		e->ram_kb = 0;
	if (set ? vsb_parse_long(set, &v) :
	    vsb_read_file_long("/proc/sys/vm/overcommit_memory", &v))
		v = -1;
	if (e->ram_kb > 0 && present > 0 && pagesz > 0 && v >= 0)
		vsb_meta_rec_add(e->m, "vm_committed_as_batch",
				 "%lld pages (computed: overcommit_memory=%ld, %lld RAM pages, %d present CPUs)",
				 vsb_committed_as_batch((int)v,
							(unsigned long long)e->ram_kb * 1024 / (unsigned long long)pagesz,
							present),
				 v, e->ram_kb * 1024 / pagesz, present);
	else
		vsb_meta_rec_add(e->m, "vm_committed_as_batch", "unknown");
}

/* The vm sysctls the statistics depend on, DAMON, the module */
static void vm_part(struct env_ctx *e)
{
	char buf[1024];

	meta_file(e, "vm.stat_interval", "/proc/sys/vm/stat_interval");
	meta_file(e, "vm.numa_stat", "/proc/sys/vm/numa_stat");
	meta_file(e, "vm.overcommit_memory", "/proc/sys/vm/overcommit_memory");
	meta_file(e, "vm.overcommit_ratio", "/proc/sys/vm/overcommit_ratio");
	meta_file(e, "vm.percpu_pagelist_high_fraction",
		  "/proc/sys/vm/percpu_pagelist_high_fraction");
	vsb_damon_describe("/sys/kernel/mm/damon/admin", "/sys/module", buf, sizeof(buf));
	vsb_meta_rec_add(e->m, "damon", "%s", buf);
	committed_batch(e);
	vsb_meta_kmod_abi(buf, sizeof(buf));
	vsb_meta_rec_add(e->m, "module", "%s", buf);
}

/*
 * The machine's part of the record into @m, with @sysctl's values (the
 * point's --sysctl, "" for none) for the keys it sets, and this
 * process's TSC rate @with_tsc; its noise warnings on stderr, once a
 * process.
 */
static void env_record(struct vsb_meta_rec *m, const char *sysctl, int with_tsc)
{
	static int warned;
	static struct env_ctx e;
	struct vsb_noise_in noise = { 0 };

	memset(&e, 0, sizeof(e));
	e.m = m;
	e.sysctl = sysctl;
	build_part(&e);
	cpu_part(&e);
	clock_part(&e, with_tsc);
	freq_part(&e);
	vm_part(&e);
	machine_identity(&e);
	if (warned++)
		return;
	noise.build = VSB_BUILD;
	noise.kc = &e.kc;
	noise.governor = e.gov;
	noise.turbo = e.turbo;
	noise.hypervisor = e.ci.hypervisor;
	noise.core_pmu = e.core_pmu;
	warn_noise(&noise);
}

void vsb_meta_collect_env(struct vsb_result *r)
{
	static struct vsb_meta_rec m;

	m.n = 0;
	env_record(&m, r->opts.sysctl, 1);
	vsb_result_take_meta(r, &m);
}

/*
 * A result's identity: 128 random bits, so that a file imported twice
 * counts once and two files never share one (db import; a sweep's
 * points each get their own).
 */
static void run_id(struct vsb_meta_rec *m)
{
	unsigned char b[16];
	char hex[33];
	int i;

	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b)) {
		uint64_t t = vsb_now_ns() ^ ((uint64_t)getpid() << 32);

		memcpy(b, &t, sizeof(t));
		memcpy(b + 8, &m, sizeof(m) < 8 ? sizeof(m) : 8);
	}
	for (i = 0; i < 16; i++)
		snprintf(hex + 2 * i, 3, "%02x", b[i]);
	vsb_meta_rec_add(m, "run_id", "%s", hex);
}

/*
 * How far apart the first two workers' CPUs were, measured now, after the
 * run: a VM's vCPUs move between near and far host cores, and contended
 * points follow (c2c.c; compare reads it back).
 */
static void cpu_distance(struct vsb_meta_rec *m, int a, int b)
{
	double ns;

	if (a < 0 || b < 0 || a == b)
		return;
	ns = vsb_c2c_ns(a, b);
	vsb_c2c_line_write(m, ns, a, b);
}

/* The one warning that depends on the run's CPUs: once per process */
static void warn_smt(int shared)
{
	static int warned;
	struct vsb_noise_in noise = { .smt_shared = 1 };
	char buf[256];

	if (!shared || warned++)
		return;
	vsb_meta_noise_msg(VSB_NOISE_SMT_SHARED, &noise, buf, sizeof(buf));
	vsb_warn("%s", buf);
}

void vsb_meta_collect(struct vsb_result *r)
{
	static struct vsb_meta_rec m;
	const struct vsb_cpulist *cl = &r->opts.cpus;
	const struct vsb_topo *t = vsb_topo_get();
	char date[64];
	time_t now = time(NULL);

	m.n = 0;
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	vsb_meta_rec_add(&m, "date", "%s", date);
	env_record(&m, r->opts.sysctl, 0);
	vsb_meta_rec_add(&m, "clock", "%s", r->event[0] ? r->event : "rdtscp");
	vsb_meta_rec_add(&m, "unit", "%s", r->unit);
	warn_smt(t && vsb_topo_smt_shared(t, cl));
	cpu_distance(&m, cl->n > 1 ? cl->cpu[0] : -1, cl->n > 1 ? cl->cpu[1] : -1);
	run_id(&m);
	vsb_result_take_meta(r, &m);
}
