# SPDX-License-Identifier: GPL-2.0
#
# Exact mode for ci/vm-run.sh (sourced by it): the QEMU arguments that
# make a guest count its instructions (docs/exact.md).
#
#   -accel tcg,thread=single   one host thread runs every vCPU: the
#                              plugin's global counters are race-free,
#                              and a vCPU switch falls between blocks
#   -icount shift=0,sleep=off,align=off
#                              the guest's clocks advance by instructions,
#                              so its timer interrupts land at the same
#                              instruction in every boot (deterministic)
#   -plugin vsb-insn.so,out=W/exact.img
#                              the counting (qemu-plugin/vsb_insn.c)
#   an NVMe disk, serial vsbexact, on the same file, read-only: where the
#   harness in the guest reads each window's counts back
#   vsb.exact=1 on the kernel command line: what `run --exact` checks,
#   and nokaslr, so that a kernel's System.map names its addresses
#   prof=W/profile.txt (the plugin's profile: each window's blocks),
#   which exact_profile_out puts beside the symbols the guest kept with
#   ci/exact-syms.sh (added to the guest as /vsb/ci/exact-syms.sh)
#
# KVM runs the guest's instructions on the host CPU, where no plugin sees
# them: exact mode with VSB_VM_ACCEL=kvm is refused.

# qemu_opt_path PATH: PATH as a value in QEMU's option syntax, where a
# comma ends the value: each comma doubled.  A checkout or work folder
# whose name held a comma made QEMU load another shared object as the
# plugin (-plugin /a,b/... loaded /a) and open another file as a disk.
qemu_opt_path() { printf '%s' "${1//,/,,}"; }

# exact_refusals: what exact mode cannot be given, before anything is
# made: one line, exit 2.  Sets PLUGIN.
exact_refusals() {
	if [[ ${VSB_VM_ACCEL:-} == kvm ]]; then
		log "--exact counts instructions under TCG; VSB_VM_ACCEL=kvm asks for KVM, where no plugin sees them"
		exit 2
	fi
	PLUGIN=$REPO/${VSB_BUILD_DIR:-build}/qemu-plugin/vsb-insn.so
	if [[ ! -f $PLUGIN ]]; then
		log "--exact: no TCG plugin at $PLUGIN: \`make\` builds it (it needs only gcc)"
		exit 2
	fi
	# what QEMU would refuse once the guest is set up: found now
	if command -v nm >/dev/null && ! LC_ALL=C nm -D --defined-only "$PLUGIN" 2>/dev/null | grep -qw qemu_plugin_install; then
		log "--exact: $PLUGIN is no TCG plugin QEMU can load (no qemu_plugin_install): rebuild it with \`make\`"
		exit 2
	fi
}

# exact_smp_refusal RELEASE CPUS: a kernel older than 6.12 hangs
# bringing up its second CPU under -icount (docs/exact.md; ab refuses
# the same, harness/ab/mode.c): refused, not a boot that times out after
# --timeout seconds.  An unknown release is let through.
exact_smp_refusal() {
	local major minor
	((${2} > 1)) || return 0
	[[ $1 =~ ^([0-9]+)\.([0-9]+) ]] || return 0
	major=${BASH_REMATCH[1]} minor=${BASH_REMATCH[2]}
	((major > 6 || (major == 6 && minor >= 12))) && return 0
	log "--exact: $1 hangs bringing up its second CPU under QEMU's -icount (docs/exact.md): use --smp 1, or a 6.12 kernel"
	exit 2
}

# exact_setup WORKDIR: sets ACCEL, ACCEL_ARGS and EXACT_ARGS.
exact_setup() {
	local w=$1

	ACCEL=tcg
	local prof=,prof=$(qemu_opt_path "$w/profile.txt")

	# VSB_EXACT_PROFILE=0: no profile (what its overhead was measured against)
	[[ ${VSB_EXACT_PROFILE:-1} == 0 ]] && prof=
	ACCEL_ARGS=(-accel tcg,thread=single -cpu max -icount shift=0,sleep=off,align=off
		-plugin "$(qemu_opt_path "$PLUGIN"),out=$(qemu_opt_path "$w/exact.img")$prof")
	ADDS+=("$REPO/ci/exact-syms.sh")
	# sparse: 64 vCPUs x 4096 windows x 256 bytes, written as windows close
	truncate -s 64M "$w/exact.img"
	EXACT_ARGS=(-drive "file=$(qemu_opt_path "$w/exact.img"),if=none,format=raw,id=vsbexact,readonly=on"
		-device nvme,drive=vsbexact,serial=vsbexact)
}

# A plugin QEMU would not load is bad input (exit 2), said with QEMU's words.
exact_check_loaded() {
	local qlog=$1

	if grep -qi 'plugin' "$qlog" 2>/dev/null &&
		grep -qiE 'could not load|failed|error' "$qlog" 2>/dev/null; then
		log "--exact: QEMU did not load the TCG plugin $PLUGIN: $(grep -i -m1 'plugin' "$qlog")"
		log "rebuild it with \`make\` (QEMU 7.2's plugin API, version 1)"
		exit 2
	fi
}

# The plugin's closing line (windows written, ...), from QEMU's log.
exact_report() {
	local dlog=$1 line

	line=$(grep -m1 '^vsb-insn:' "$dlog" 2>/dev/null || true)
	[[ -n $line ]] && log "exact: ${line#vsb-insn: }"
	return 0
}

# The plugin's profile into the guest's exact-profile/BOOT_ID/ folder,
# the one ci/exact-syms.sh made in this boot (the only one without it;
# a side's later guests bring the earlier ones' along).  No folder: the
# command kept no symbols (not a module run), and the profile is left out.
exact_profile_out() {
	local w=$1 out=$2 d

	[[ -s $w/profile.txt ]] || return 0
	for d in "$out"/exact-profile/*/; do
		[[ -d $d && ! -e $d/blocks ]] || continue
		cp "$w/profile.txt" "$d/blocks" && return 0
	done
	log "exact: no symbols kept in this boot (ci/exact-syms.sh did not run): no profile"
}
