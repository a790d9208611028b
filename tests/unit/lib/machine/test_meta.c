// SPDX-License-Identifier: GPL-2.0
/*
 * The noise warnings of the environment record (meta.c) on synthetic
 * machines: a quiet one (no warning), then each condition alone (a
 * non-release build, a debug kernel, governors other than performance
 * everywhere, turbo, a guest without a PMU, SMT siblings both running
 * workers), the cases that must stay quiet (no cpufreq, unknown turbo,
 * a guest with a PMU), everything at once, and the warning lines.
 */
#define _GNU_SOURCE
#include <string.h>

#include "meta.h"
#include "tap.h"

static struct vsb_kconfig kc_plain, kc_debug;

/* A machine nothing is wrong with: the base every case changes one field of. */
static struct vsb_noise_in quiet(void)
{
	struct vsb_noise_in in = {
		.build = "release",
		.kc = &kc_plain,
		.governor = "performance (0-7)",
		.turbo = 0,
		.hypervisor = 0,
		.core_pmu = 1,
		.smt_shared = 0,
	};
	return in;
}

static unsigned int gov(const char *g)
{
	struct vsb_noise_in in = quiet();

	in.governor = g;
	return vsb_meta_noise(&in);
}

static void test_decision(void)
{
	struct vsb_noise_in in = quiet();

	TAP_OK(vsb_meta_noise(&in) == 0,
	       "quiet machine: release build, performance everywhere, turbo off: no warning");
	in.kc = NULL;
	in.governor = NULL;
	in.turbo = -1;
	TAP_OK(vsb_meta_noise(&in) == 0,
	       "nothing known (no kconfig, no governor, turbo unknown): no warning");

	in = quiet();
	in.build = "sanitize";
	TAP_OK(vsb_meta_noise(&in) == VSB_NOISE_BUILD, "sanitize build: the build warning only");
	in.build = "debug";
	TAP_OK(vsb_meta_noise(&in) == VSB_NOISE_BUILD, "debug build: the build warning only");

	in = quiet();
	kc_debug.debug_vm = 'y';
	in.kc = &kc_debug;
	TAP_OK(vsb_meta_noise(&in) == VSB_NOISE_DEBUG_KERNEL, "DEBUG_VM=y: debug kernel");
	kc_debug.debug_vm = 0;
	kc_debug.lockdep = 'y';
	TAP_OK(vsb_meta_noise(&in) == VSB_NOISE_DEBUG_KERNEL, "LOCKDEP=y: debug kernel");
	kc_debug.lockdep = 0;
	kc_debug.kasan = 'y';
	TAP_OK(vsb_meta_noise(&in) == VSB_NOISE_DEBUG_KERNEL, "KASAN=y: debug kernel");
	kc_debug.kasan = 'm';
	TAP_OK(vsb_meta_noise(&in) == 0, "KASAN=m (not 'y'): no debug-kernel warning");

	TAP_OK(gov("powersave (0-7)") == VSB_NOISE_GOVERNOR, "governor powersave: warned");
	TAP_OK(gov("schedutil (0-3)") == VSB_NOISE_GOVERNOR, "governor schedutil: warned");
	TAP_OK(gov("performance (0-3); powersave (4-7)") == VSB_NOISE_GOVERNOR,
	       "performance on some CPUs only: warned");
	TAP_OK(gov("performance (0-3); none (4-7)") == VSB_NOISE_GOVERNOR,
	       "performance on some CPUs, no cpufreq on the rest: warned");
	TAP_OK(gov("performancex (0-7)") == VSB_NOISE_GOVERNOR,
	       "a governor merely starting with 'performance': warned");
	TAP_OK(gov("none (0-1)") == 0, "no cpufreq on any CPU (a VM): not warned");
	TAP_OK(gov("unavailable") == 0, "governor unreadable: not warned");

	in = quiet();
	in.turbo = 1;
	TAP_OK(vsb_meta_noise(&in) == VSB_NOISE_TURBO, "turbo on: warned");
	in.turbo = -1;
	TAP_OK(vsb_meta_noise(&in) == 0, "turbo unknown: not warned");

	in = quiet();
	in.hypervisor = 1;
	in.core_pmu = 0;
	TAP_OK(vsb_meta_noise(&in) == VSB_NOISE_VM_NO_PMU, "guest without a PMU: warned");
	in.core_pmu = 1;
	TAP_OK(vsb_meta_noise(&in) == 0, "guest with a virtual PMU: not warned");
	in.hypervisor = 0;
	in.core_pmu = 0;
	TAP_OK(vsb_meta_noise(&in) == 0,
	       "bare metal without a cpu PMU: no VM warning (pmu.c says why per event)");

	in = quiet();
	in.smt_shared = 1;
	TAP_OK(vsb_meta_noise(&in) == VSB_NOISE_SMT_SHARED, "SMT siblings in the CPU list: warned");

	in.build = "sanitize";
	kc_debug.kasan = 'y';
	in.kc = &kc_debug;
	in.governor = "powersave (0-1)";
	in.turbo = 1;
	in.hypervisor = 1;
	in.core_pmu = 0;
	TAP_OK(vsb_meta_noise(&in) == (VSB_NOISE_BUILD | VSB_NOISE_DEBUG_KERNEL |
				       VSB_NOISE_GOVERNOR | VSB_NOISE_TURBO |
				       VSB_NOISE_VM_NO_PMU | VSB_NOISE_SMT_SHARED),
	       "everything wrong at once: every warning (0x%x)", vsb_meta_noise(&in));
}

static void test_messages(void)
{
	struct vsb_noise_in in = quiet();
	char buf[512];

	in.build = "sanitize";
	vsb_meta_noise_msg(VSB_NOISE_BUILD, &in, buf, sizeof(buf));
	TAP_OK(strstr(buf, "sanitize build") && strstr(buf, "not comparable"),
	       "build line names the build type (%s)", buf);
	in.governor = "performance (0-3); powersave (4-7)";
	vsb_meta_noise_msg(VSB_NOISE_GOVERNOR, &in, buf, sizeof(buf));
	TAP_OK(strstr(buf, "not performance everywhere (performance (0-3); powersave (4-7))"),
	       "governor line quotes the per-CPU governors (%s)", buf);
	vsb_meta_noise_msg(VSB_NOISE_SMT_SHARED, &in, buf, sizeof(buf));
	TAP_OK(strstr(buf, "SMT siblings") && strstr(buf, "--placement cores-first"),
	       "SMT line names the fix (%s)", buf);
	vsb_meta_noise_msg(VSB_NOISE_TURBO, &in, buf, sizeof(buf));
	TAP_OK(strstr(buf, "turbo/boost is on") != NULL, "turbo line (%s)", buf);
	vsb_meta_noise_msg(VSB_NOISE_DEBUG_KERNEL, &in, buf, sizeof(buf));
	TAP_OK(strstr(buf, "debug kernel") != NULL, "debug kernel line (%s)", buf);
	strcpy(buf, "x");
	vsb_meta_noise_msg(VSB_NOISE_VM_NO_PMU, &in, buf, sizeof(buf));
	TAP_OK(buf[0] == '\0', "the VM line is pmu.c's (vsb_pmu_warn_vm), none here");
}

int main(void)
{
	test_decision();
	test_messages();
	return tap_done();
}
