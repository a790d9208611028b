// SPDX-License-Identifier: GPL-2.0
/*
 * The environment record's parsers, fed fake files: /proc/cpuinfo
 * (model, hypervisor bit, invariant TSC), kernel configs (the vmstat
 * update path HAVE_CMPXCHG_LOCAL selects, preemption model), the
 * vm_committed_as batch formula of mm_compute_batch(), per-CPU sysfs
 * values grouped into CPU lists, and sysfs list counting.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "env.h"
#include "tap.h"

static char dir[] = "/tmp/vsb-envXXXXXX";

static const char *file(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return path;
}

static void test_cpuinfo(void)
{
	struct vsb_cpuinfo ci;

	TAP_OK(vsb_cpuinfo_read(file("vm", "processor\t: 0\n"
		"model name\t: Fake CPU @ 2.0GHz\n"
		"flags\t\t: fpu tsc constant_tsc nonstop_tsc hypervisor\n\n"
		"processor\t: 1\nmodel name\t: Fake CPU @ 2.0GHz\n"
		"flags\t\t: fpu tsc\n"), &ci) == 0, "cpuinfo: parses");
	TAP_OK(ci.nproc == 2 && !strcmp(ci.model, "Fake CPU @ 2.0GHz"),
	       "cpuinfo: 2 processors, model '%s'", ci.model);
	TAP_OK(ci.hypervisor && vsb_cpuinfo_tsc_invariant(&ci) && !ci.tsc_known_freq,
	       "cpuinfo: hypervisor bit and invariant TSC from the first CPU's flags");
	vsb_cpuinfo_read(file("metal", "processor\t: 0\n"
		"flags\t\t: fpu xhypervisor constant_tsc_x nonstop_tsc\n"), &ci);
	TAP_OK(!ci.hypervisor && !vsb_cpuinfo_tsc_invariant(&ci),
	       "cpuinfo: flags match whole words only");
	TAP_OK(!strcmp(vsb_cpuinfo_tsc_flags(&ci), "nonstop_tsc"),
	       "cpuinfo: the TSC flags the first CPU has, by name (%s)",
	       vsb_cpuinfo_tsc_flags(&ci));
	TAP_OK(vsb_cpuinfo_read("/nonexistent/cpuinfo", &ci) < 0 &&
	       !strcmp(ci.model, "unknown"), "cpuinfo: missing file is 'unknown'");
	if (vsb_cpuinfo_read("/proc/cpuinfo", &ci)) {
		printf("ok %d # SKIP cpuinfo: no /proc/cpuinfo here\n", ++tap_n);
		return;
	}
	TAP_OK(vsb_cpuinfo_host() == vsb_cpuinfo_host() &&
	       !strcmp(vsb_cpuinfo_host()->model, ci.model) &&
	       vsb_cpuinfo_host()->family == ci.family,
	       "cpuinfo: this host's, read once, is /proc/cpuinfo's (%s)", ci.model);
}

static void kconfig(const char *text, struct vsb_kconfig *kc)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	memset(kc, 0, sizeof(*kc));
	vsb_kconfig_parse(f, kc);
	fclose(f);
}

static void test_kconfig(void)
{
	struct vsb_kconfig kc;
	char buf[1024];

	kconfig("CONFIG_SMP=y\nCONFIG_HAVE_CMPXCHG_LOCAL=y\nCONFIG_NUMA=y\n"
		"CONFIG_PREEMPT_VOLUNTARY=y\n# CONFIG_PREEMPT is not set\nCONFIG_HZ=1000\n"
		"CONFIG_NR_CPUS=8192\n", &kc);
	vsb_kconfig_format(&kc, buf, sizeof(buf));
	TAP_OK(kc.cmpxchg_local == 'y' && !strcmp(kc.preempt, "voluntary") &&
	       kc.hz == 1000 && kc.nr_cpus == 8192, "kconfig: x86-like config");
	TAP_OK(strstr(buf, "HAVE_CMPXCHG_LOCAL=y (vmstat updates: this_cpu_cmpxchg)") &&
	       strstr(buf, "NUMA=y") && strstr(buf, "PREEMPT=voluntary "),
	       "kconfig: formatted (%s)", buf);
	kconfig("CONFIG_SMP=y\n# CONFIG_NUMA is not set\nCONFIG_PREEMPT=y\n"
		"CONFIG_PREEMPT_RT=y\nCONFIG_PREEMPT_DYNAMIC=y\nCONFIG_DEBUG_VM=y\n", &kc);
	vsb_kconfig_format(&kc, buf, sizeof(buf));
	TAP_OK(strstr(buf, "HAVE_CMPXCHG_LOCAL=n (vmstat updates: irq-disable)") &&
	       strstr(buf, "NUMA=n") && strstr(buf, "PREEMPT=rt(dynamic)") &&
	       strstr(buf, "DEBUG_VM=y"),
	       "kconfig: absent symbol means the irq-disable path; RT wins (%s)", buf);
	memset(&kc, 0, sizeof(kc));
	snprintf(kc.source, sizeof(kc.source), "none");
	vsb_kconfig_format(&kc, buf, sizeof(buf));
	TAP_OK(!strncmp(buf, "unknown", 7), "kconfig: no config is 'unknown', not guessed");
}

/*
 * The config files as the kernel ships them: gzip (/proc/config.gz) and
 * plain (/boot/config-*), one reader for both; a truncated gzip file is
 * refused whole rather than parsed half.
 */
static void test_kconfig_files(void)
{
	static const char text[] = "CONFIG_SMP=y\nCONFIG_HAVE_CMPXCHG_LOCAL=y\n"
				   "CONFIG_PREEMPT_NONE=y\nCONFIG_HZ=250\nCONFIG_KASAN=y\n";
	char gzpath[300], cut[300], pad[4096];
	struct vsb_kconfig kc;
	gzFile gz;
	FILE *f, *g;
	long size;
	size_t i;

	snprintf(gzpath, sizeof(gzpath), "%s/config.gz", dir);
	gz = gzopen(gzpath, "wb");
	gzputs(gz, text);
	/* enough that half the compressed file ends mid-stream */
	for (i = 0; i < 64; i++) {
		snprintf(pad, sizeof(pad), "# CONFIG_PAD_%zu_%lx is not set\n", i, random());
		gzputs(gz, pad);
	}
	gzclose(gz);
	TAP_OK(!vsb_kconfig_read_path(gzpath, &kc) && kc.found && kc.cmpxchg_local == 'y' &&
	       !strcmp(kc.preempt, "none") && kc.hz == 250 && kc.kasan == 'y',
	       "kconfig: a gzip config read through zlib");
	TAP_OK(!vsb_kconfig_read_path(file("config-plain", text), &kc) && kc.hz == 250 &&
	       kc.cmpxchg_local == 'y', "kconfig: a plain config read by the same reader");
	snprintf(cut, sizeof(cut), "%s/cut.gz", dir);
	f = fopen(gzpath, "rb");
	g = fopen(cut, "wb");
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	for (i = 0; i < (size_t)size / 2; i++)
		fputc(fgetc(f), g);
	fclose(f);
	fclose(g);
	TAP_OK(vsb_kconfig_read_path(cut, &kc) == -1 && !kc.found && !kc.hz,
	       "kconfig: a truncated gzip file is refused, nothing half-parsed");
	TAP_OK(vsb_kconfig_read_path("/nonexistent/config.gz", &kc) == -1 && !kc.found,
	       "kconfig: a missing file is -1");
}

static void test_batch(void)
{
	TAP_OK(vsb_committed_as_batch(0, 6170913, 2) == 771364,
	       "batch: 23.5 GiB, 2 CPUs, overcommit 0: RAM/ncpus/4");
	TAP_OK(vsb_committed_as_batch(2, 6170913, 2) == 12052,
	       "batch: OVERCOMMIT_NEVER divides by 256");
	TAP_OK(vsb_committed_as_batch(2, 1000, 64) == 128,
	       "batch: small RAM falls back to 2 * ncpus");
	TAP_OK(vsb_committed_as_batch(2, 1000, 4) == 32, "batch: and at least 32");
	TAP_OK(vsb_committed_as_batch(1, 1ull << 50, 1) == 2147483647LL,
	       "batch: capped at INT_MAX");
}

static void test_sysfs_values(void)
{
	char root[64], cmd[1024], buf[512];

	snprintf(root, sizeof(root), "%s/cpu", dir);
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p %s/cpu0/cpufreq %s/cpu1 %s/cpu2/cpufreq %s/cpu3/cpufreq && "
		 "echo performance > %s/cpu0/cpufreq/scaling_governor && "
		 "echo 0 > %s/cpu1/online && "
		 "echo powersave > %s/cpu2/cpufreq/scaling_governor && "
		 "echo performance > %s/cpu3/cpufreq/scaling_governor",
		 root, root, root, root, root, root, root, root);
	if (system(cmd)) {
		TAP_OK(0, "fake sysfs tree");
		return;
	}
	vsb_env_per_cpu(root, "cpufreq/scaling_governor", buf, sizeof(buf));
	TAP_OK(!strcmp(buf, "performance (0,3); powersave (2)"),
	       "per-cpu: grouped, offline CPU 1 left out (%s)", buf);
	vsb_env_per_cpu(root, "cpufreq/scaling_driver", buf, sizeof(buf));
	TAP_OK(!strcmp(buf, "none (0,2-3)"), "per-cpu: missing files are 'none' (%s)", buf);
	TAP_OK(vsb_env_count_list(file("present", "0-3,8,10-11\n")) == 7,
	       "count_list: 0-3,8,10-11 is 7 CPUs");
	TAP_OK(vsb_env_count_list("/nonexistent") == -1, "count_list: missing file");
}

int main(void)
{
	char cmd[64];

	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	test_cpuinfo();
	test_kconfig();
	test_kconfig_files();
	test_batch();
	test_sysfs_values();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		printf("# could not remove %s\n", dir);
	return tap_done();
}
