# SPDX-License-Identifier: GPL-2.0
#
# Host side of the kmod tests: build the module, boot one guest with
# the module, the harness, the helpers and the in-guest scripts, and turn
# the guest's "ok - ..." / "not ok - ..." lines into numbered TAP (via
# tests/lib.sh).  Sourced by tests/kmod/*.sh; not a test itself.
#
# VSB_KERNEL_ABI chooses the guest kernel (ci/kernel-cache.sh); KDIR= builds
# the module against other headers (then they must match that kernel).
#
# vsb_vm_tap SCRIPT VM-RUN-ARGS...: run tests/kmod/guest/SCRIPT in a guest;
# sets VM_RC (the runner's exit status) and VM_SECS, leaves the guest's
# /out in $TMP/out.  Exits 4 (skip) when the VM cannot run here.

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${VSB_BUILD_DIR:-build}
# shellcheck source=../lib.sh
. "$REPO/tests/lib.sh"
export TMPDIR=$TMP	# the runner's work and out folders go away with ours

# The guest kernel (VSB_KERNEL_ABI picks it, see ci/kernel-cache.sh) and
# the module built for it in a tree of its own, $BUILD/kmod/<release>/
# (ci/kmod-build.sh --tree): tests on different kernels, or a `make kmod`
# meanwhile, never load each other's .ko.  Sets VM_KERNEL, VM_KDIR,
# VM_KREL and VM_KO (a copy in $TMP, taken under the tree's lock:
# --ko-to).
vsb_vm_prepare() {
	local rc=0 f kc ukdir=${KDIR:-} tree

	for f in "$BUILD/vmstat-bench" "$BUILD/tests-kmod/kmod_fuzz" \
		 "$BUILD/tests-kmod/kmod_stress"; do
		[[ -x $REPO/$f ]] || { echo "# $f missing: run make first"; exit 1; }
	done
	kc=$(cd "$REPO" && ci/kernel-cache.sh 2>"$TMP/cache.log") || rc=$?
	if ((rc == 4)); then
		# a TAP skip line, so tests/run.sh shows why
		skip "guest kernel${VSB_KERNEL_ABI:+ VSB_KERNEL_ABI=$VSB_KERNEL_ABI}" \
			"$(tail -n1 "$TMP/cache.log" | sed 's/^kernel-cache: SKIP: //')"
		done_testing
		exit 4
	fi
	if ((rc != 0)); then
		sed 's/^/# /' "$TMP/cache.log" | tail -20
		not_ok "guest kernel and headers (ci/kernel-cache.sh${VSB_KERNEL_ABI:+, VSB_KERNEL_ABI=$VSB_KERNEL_ABI})"
		done_testing
		exit 1
	fi
	eval "$kc"
	VM_KERNEL=$KERNEL VM_KDIR=${ukdir:-$KDIR}
	VM_KREL=${KERNEL##*/vmlinuz-}
	tree=$REPO/$BUILD/kmod/$VM_KREL
	VM_KO=$TMP/vmstat_bench.ko
	rc=0
	(cd "$REPO" && KDIR=$VM_KDIR ci/kmod-build.sh --tree "$tree" --ko-to "$VM_KO" -s modules) \
		>"$TMP/build.log" 2>&1 || rc=$?
	if ((rc == 4)); then
		echo "# SKIP: no kernel headers for the VM: $(tail -n1 "$TMP/build.log")"
		exit 4
	fi
	if ((rc != 0)); then
		sed 's/^/# /' "$TMP/build.log" | tail -20
		not_ok "module builds against $VM_KREL's headers"
		done_testing
		exit 1
	fi
	if grep -q 'warning:' "$TMP/build.log"; then
		not_ok "module builds without warnings ($VM_KREL)" "$(grep -m3 'warning:' "$TMP/build.log")"
	else
		ok "module builds against $VM_KREL's headers, no warnings"
	fi
}

# One boot of the guest running tests/kmod/guest/$1; sets VM_RC.
vsb_vm_boot() {
	local script=$1
	shift
	rm -rf "$TMP/out"
	mkdir -p "$TMP/out"
	VM_RC=0
	# shellcheck disable=SC2016  # expanded by the guest's shell
	"$REPO/ci/vm-run.sh" "$@" --out "$TMP/out" \
		--kernel "$VM_KERNEL" --kdir "$VM_KDIR" \
		--add "$VM_KO:kmod/vmstat_bench.ko" --add "$REPO/$BUILD/vmstat-bench" \
		--add "$REPO/$BUILD/tests-kmod" --add "$REPO/tests/kmod/guest" -- \
		'insmod kmod/vmstat_bench.ko || exit 1
		 VSB=/vsb/'"$BUILD"'/vmstat-bench H='"$BUILD"'/tests-kmod
		 export VSB H
		 sh tests/kmod/guest/'"$script"'
		 rmmod vmstat_bench && echo "ok - module unloads at the end" ||
			echo "not ok - module unloads at the end"' \
		>"$TMP/guest.out" 2>"$TMP/guest.err" || VM_RC=$?
}

# A guest that vanished without any kernel report (vm-run exits 5 and
# says whether QEMU saw a triple fault) is an emulator event under TCG on
# a starved host, not a verdict on the module: boot it once more, and say
# so in a skip line that tests/run.sh always shows.  A second vanishing
# fails; a panic, WARN or timeout is never retried, nor is any oops but
# the one below.
VM_VANISHED_RC=5

# The one oops that is TCG's: an int3 trap at an address in the core
# kernel's own text (the RIP line names no module) while the kernel
# patches its text at run time (static keys: a module load, a cgroup or
# perf event switching one on).  text_poke_bp() puts an int3 on the
# instruction it rewrites and handles that trap until every CPU is
# synced; under TCG another vCPU can still run a stale translation of
# the int3 after that, and the trap is then an oops.  Seen on 6.12 in
# __schedule+0x407, idle CPU 1, the instruction there a whole jmp by the
# time it was dumped.  A trap inside the module's own code is not this.
# The byte before the one RIP points at (the Code line's <xx>) is where
# the int3 was: still 0xcc there (a breakpoint, SLS padding after a ret
# reached through a bad pointer) is a real trap, not this.
tcg_text_poke_race() {
	local code

	grep -q '^ *! .*Oops: int3' "$TMP/guest.err" || return 1
	grep -m1 '^ *! .*RIP: 0010:' "$TMP/guest.err" | grep -q 'RIP: 0010:[^ ]* \[' && return 1
	code=$(grep -m1 '^ *! .*Code: ' "$TMP/guest.err")
	[[ $code =~ ([0-9a-f]{2})\ \<[0-9a-f]{2}\> ]] && [ "${BASH_REMATCH[1]}" != cc ]
}

vsb_vm_tap() {
	local script=$1 t0 why
	shift
	t0=$(date +%s.%N)
	vsb_vm_boot "$script" "$@"
	if ((VM_RC == VM_VANISHED_RC)); then
		why=$(grep -m1 '^vm-run: guest died' "$TMP/guest.err")
		skip "first boot of the guest for $script" "${why#vm-run: }; booted again"
		grep '^ *|' "$TMP/guest.err" | tail -n 8 | sed 's/^ */# first boot: /'
		vsb_vm_boot "$script" "$@"
	elif ((VM_RC != 0)) && tcg_text_poke_race; then
		why=$(grep -m1 '^ *! .*RIP: 0010:' "$TMP/guest.err" | sed 's/^ *! *//')
		skip "first boot of the guest for $script" \
			"an int3 oops in the kernel's own text, TCG's text_poke race ($why); booted again"
		vsb_vm_boot "$script" "$@"
	fi
	VM_SECS=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
	if ((VM_RC == 4)); then
		echo "# SKIP: $(grep -m1 SKIP "$TMP/guest.err")"
		exit 4
	fi
	tap_from_guest "$TMP/guest.out"
	if ((VM_RC == 0)); then
		ok "guest ($VM_KREL) ran $script without a WARN, oops or panic (${VM_SECS} s)"
	else
		not_ok "guest ran $script without a WARN, oops or panic (rc $VM_RC)" \
			"$(grep -v '^ *[|!]' "$TMP/guest.err" | tail -n 3)" \
			"$(grep '^ *!' "$TMP/guest.err" | head -n 46)" \
			"$(grep '^ *|' "$TMP/guest.err" | tail -n 8)"
	fi
}
