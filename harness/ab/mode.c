// SPDX-License-Identifier: GPL-2.0
/*
 * mode.c - whether `ab` counts instructions (exact mode) or times.
 *
 * Under TCG a guest's timings are the emulator's: boot-to-boot spread of
 * 10-31% on the kstat ops, enough to call a real patch "no change".  Its
 * instruction counts repeat to a few hundredths of a percent (docs/
 * exact.md).  So where the guests run under TCG, exact mode is the
 * default; under KVM times are real and timed mode is.  Whether KVM
 * works is what ci/vm-run.sh's probe found and cached for each guest
 * kernel (kvm.verdict in the kernel cache), or what VSB_VM_ACCEL forces.
 * With no verdict yet the guests are taken to run under TCG: exact mode
 * then forces TCG, slower under a working KVM but never wrong; --timed
 * says otherwise.  A kernel older than 6.12 in a guest of several CPUs
 * stays timed (icount_smp_boots()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vsb.h"
#include "ab.h"
#include "kvm_verdict.h"

/* 1 when the kernel cache's kvm.verdict says KVM runs @release */
static int kvm_verdict(const struct vsb_ab *ab, const char *release)
{
	char path[4096 + 32];

	vsb_ab_cache_dir(ab, path, sizeof(path) - 16);
	strcat(path, "/kvm.verdict");
	return vsb_kvm_verdict_read(path, release);
}

/*
 * An exact count repeats from boot to boot (every kstat op to the last
 * digit here), so one boot a side answers and no look adds more (an
 * insn row is never inconclusive); more are for a user who wants to see.
 */
static void mode_boots(struct vsb_ab *ab)
{
	if (!ab->exact)
		return;
	if (!ab->boots_given)
		ab->boots = 1;
	if (!ab->max_boots_given || ab->max_boots < ab->boots)
		ab->max_boots = ab->boots;
	ab->now = ab->boots;
}

/*
 * A kernel whose SMP guests boot under -icount: 6.12 on.  Debian's 6.1
 * hangs bringing up its second CPU there (with or without the plugin;
 * docs/exact.md), so exact mode is not its default, and --exact on it
 * wants one vCPU.  ci/vm-exact.bash (exact_smp_refusal) holds vm-run.sh
 * to the same rule: change both together.
 */
static int icount_smp_boots(const char *release)
{
	int major = 0, minor = 0;

	if (sscanf(release, "%d.%d", &major, &minor) != 2)
		return 0;
	return major > 6 || (major == 6 && minor >= 12);
}

static const char *icount_smp_hangs(const struct vsb_ab *ab)
{
	int s;

	for (s = VSB_AB_BASE; s <= VSB_AB_NEW; s++)
		if (!icount_smp_boots(ab->k[s].release))
			return ab->k[s].release;
	return NULL;
}

int vsb_ab_mode(struct vsb_ab *ab)
{
	const char *accel = getenv("VSB_VM_ACCEL");
	int kvm_forced = accel && !strcmp(accel, "kvm");
	const char *hangs = icount_smp_hangs(ab);

	if (ab->mode_given) {
		if (ab->exact && kvm_forced) {
			vsb_err("--exact counts instructions under TCG; VSB_VM_ACCEL=kvm "
				"asks for KVM, where no plugin sees them: use --timed");
			return VSB_EXIT_USAGE;
		}
		if (ab->exact && hangs && ab->smp > 1) {
			vsb_err("--exact: %s hangs bringing up its second CPU under QEMU's "
				"-icount (docs/exact.md): use --smp 1, or --timed", hangs);
			return VSB_EXIT_USAGE;
		}
		mode_boots(ab);
		return 0;
	}
	if (hangs && ab->smp > 1) {
		ab->exact = 0;
		return 0;
	}
	if (kvm_forced)
		ab->exact = 0;
	else if (accel && !strcmp(accel, "tcg"))
		ab->exact = 1;
	else
		ab->exact = !kvm_verdict(ab, ab->k[VSB_AB_BASE].release) &&
			    !kvm_verdict(ab, ab->k[VSB_AB_NEW].release);
	mode_boots(ab);
	return 0;
}
