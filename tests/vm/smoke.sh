#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# smoke.sh - TAP smoke test of the VM runner (ci/vm-run.sh).
#
# Every kernel-module test stands on the runner, so this checks the runner
# alone, with a throwaway hello module and a dynamically linked hello
# binary built into a temp folder: the guest boots, the command's exit
# status and stdout come back, /out comes back, added files and their
# shared libraries work, the kernel's config is at /boot, a module loads
# and unloads, a guest panic, a hang and a missing NUMA layout are all
# reported rather than passed, a boot that stalls before /init is booted
# again, then reported, and a guest that stays up after its command is
# stopped with its results taken.
#
# Usage: tests/vm/smoke.sh    (about 20 s under TCG)
# Exit status: 0 all ok; 1 a test failed; 4 the VM cannot run here.

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
VMRUN=$REPO/ci/vm-run.sh

# Our own TMPDIR: the runner keeps its work folder after a failure (the
# panic test fails on purpose) and the default --out folders go there too.
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export TMPDIR=$T

PLAN=11
echo "1..$PLAN"
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
skip_rest() {
	while ((n < PLAN)); do n=$((n + 1)); echo "ok $n # SKIP $*"; done
}
check() { # check DESCRIPTION COMMAND...
	local d=$1
	shift
	if "$@"; then ok "$d"; else not_ok "$d"; fi
}
diag() { sed 's/^/# /' "$@"; }

# run NAME ARGS... : run the runner, keep rc, stdout, stderr and wall time
run() {
	local name=$1 t0
	shift
	t0=$(date +%s.%N)
	rc=0
	"$VMRUN" "$@" >"$T/$name.out" 2>"$T/$name.err" || rc=$?
	secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
	echo "# $name: rc $rc, $secs s"
}

# --- 1-3: boot, stdout, /out and the exit status of a failing command, in
# one boot; skip everything if the VM cannot run -----------------------------
mkdir -p "$T/out1"
# shellcheck disable=SC2016  # expanded by the guest's shell
run boot --out "$T/out1" -- 'echo vsb-smoke-$((6 * 7)); echo payload >/out/result.txt
	grep -q "^CONFIG_SMP=y" /boot/config-$(uname -r) && echo "kconfig-at-boot"
	mkdir -p /out/sub; echo deep >/out/sub/f; echo to-stderr >&2; exit 3'
if ((rc == 4)); then
	diag "$T/boot.err"
	skip_rest "VM cannot run here"
	exit 4
fi
if grep -qx vsb-smoke-42 "$T/boot.out"; then
	ok "guest boots, runs the command, stdout comes back (${secs} s)"
else
	diag "$T/boot.out" "$T/boot.err"
	not_ok "guest boots, runs the command, stdout comes back"
fi
# /out comes back from a command that failed too: that is when it matters
check "guest /out comes back to --out, after a failing command" \
	grep -qx payload "$T/out1/result.txt"
[[ $(cat "$T/out1/sub/f" 2>/dev/null) == deep ]] || diag "$T/boot.err"
check "command exit status 3 is propagated (got $rc)" test "$rc" -eq 3
# the harness's record reads the kernel's config there (ci/vm-run.sh
# copies it from beside the image or from the build folder)
check "the guest kernel's config is at /boot/config-\$(uname -r)" \
	grep -qx kconfig-at-boot "$T/boot.out"
grep -qx to-stderr "$T/boot.err" || echo "# stderr of the command not seen"

# The two cases that mostly wait (a guest asleep until the runner stops
# it) boot now, beside the rest, each with a TMPDIR of its own so that
# its QEMU is told apart from the others' (10-15 s of this file's time)
declare -A bgpid
run_bg() {	# run_bg NAME ARGS...: run, in the background
	local name=$1
	mkdir -p "$T/$name.d"
	( TMPDIR=$T/$name.d run "$@" >/dev/null; echo "$rc $secs" >"$T/$name.rc" ) &
	bgpid[$name]=$!
}
collect() {	# collect NAME: wait for run_bg NAME; sets rc and secs
	wait "${bgpid[$1]}"
	read -r rc secs <"$T/$1.rc" || rc=? secs=?
	echo "# $1: rc $rc, $secs s"
}
run_bg hang --timeout 6 -- 'sleep 60'
mkdir -p "$T/out2"
VSB_VM_TEST_NO_POWEROFF=1 VSB_VM_POWEROFF_WAIT=2 run_bg nopoweroff --timeout 120 \
	--out "$T/out2" -- 'echo up >/out/r.txt; exit 7'

# --- 4, 5: added module and dynamic binary -----------------------------------
M=$T/mod
mkdir -p "$M"
cat >"$M/vsb_smoke.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
static int __init vsb_smoke_init(void) { pr_info("vsb_smoke: hello\n"); return 0; }
static void __exit vsb_smoke_exit(void) { pr_info("vsb_smoke: bye\n"); }
module_init(vsb_smoke_init);
module_exit(vsb_smoke_exit);
MODULE_LICENSE("GPL");
EOF
echo 'obj-m := vsb_smoke.o' >"$M/Kbuild"
printf '#include <stdio.h>\nint main(void) { puts("dyn-ok"); return 0; }\n' >"$T/dyn.c"
if "$REPO/ci/kmod-build.sh" --dir "$M" >"$T/build.log" 2>&1 &&
   gcc -o "$T/dyn" "$T/dyn.c" 2>>"$T/build.log"; then
	run mod --add "$M/vsb_smoke.ko:mod/vsb_smoke.ko" --add "$T/dyn:bin/dyn" -- \
		'insmod mod/vsb_smoke.ko && grep -q "^vsb_smoke " /proc/modules &&
		 rmmod vsb_smoke && ! grep -q "^vsb_smoke " /proc/modules &&
		 dmesg | grep -q "vsb_smoke: hello" && dmesg | grep -q "vsb_smoke: bye" &&
		 echo mod-ok; ./bin/dyn'
	check "module built against cached headers loads and unloads" \
		grep -qx mod-ok "$T/mod.out"
	check "dynamically linked binary runs via --add" \
		grep -qx dyn-ok "$T/mod.out"
	grep -q -e mod-ok -e dyn-ok "$T/mod.out" || diag "$T/mod.out" "$T/mod.err"
else
	diag "$T/build.log"
	not_ok "module built against cached headers loads and unloads (build failed)"
	not_ok "dynamically linked binary runs via --add (build failed)"
fi

# --- 6: panic ------------------------------------------------------------------
run panic -- 'echo c >/proc/sysrq-trigger; sleep 5; exit 0'
if ((rc == 1)) && grep -q 'guest panicked' "$T/panic.err"; then
	ok "guest panic is reported as failure (exit 1, 'guest panicked')"
else
	diag "$T/panic.err"
	not_ok "guest panic is reported as failure (got rc $rc)"
fi

# --- 7: timeout (booted above) ---------------------------------------------
collect hang
if ((rc == 1)) && grep -q 'guest timed out after 6 s' "$T/hang.err"; then
	ok "hung guest is killed and reported ('guest timed out')"
else
	diag "$T/hang.err"
	not_ok "hung guest is killed and reported (got rc $rc)"
fi

# --- 8: NUMA -----------------------------------------------------------------
run numa --smp 2 --numa 2 -- 'ls -d /sys/devices/system/node/node[0-9]* | wc -l'
if ((rc == 0)) && [[ $(tr -d ' ' <"$T/numa.out") == 2 ]]; then
	ok "--numa 2 gives the guest 2 NUMA nodes"
elif ((rc == 4)); then
	echo "ok $((++n)) # SKIP $(tail -n1 "$T/numa.err")"
else
	diag "$T/numa.out" "$T/numa.err"
	not_ok "--numa 2 gives the guest 2 NUMA nodes (got rc $rc)"
fi

# --- 9: a boot stalled before /init ------------------------------------------
# VSB_VM_BOOT_STALL=0: no boot reaches /init in 0 s, so both boots count
# as stalled: the second is tried, then the failure is reported
mkdir -p "$T/stall.d"
VSB_VM_BOOT_STALL=0 TMPDIR=$T/stall.d run stall -- 'echo never'
if ((rc == 1)) && grep -q 'did not reach /init in 0 s (a stalled boot; console: .*booting it again' "$T/stall.err" &&
   grep -q 'guest did not reach /init in 0 s, twice' "$T/stall.err" &&
   ! grep -q never "$T/stall.out" && ! pgrep -f "qemu-system.*$T/stall.d" >/dev/null; then
	ok "a stalled boot is booted again once, then reported; no QEMU left"
else
	diag "$T/stall.err"
	not_ok "stalled boot: retried, then reported (got rc $rc)"
fi

# --- 11: a guest that does not power off after its command (booted above)
# its command's status and /out are taken, QEMU stopped POWEROFF_WAIT
# seconds after, long before the timeout; the last guest of this file,
# so no QEMU of any of its cases may be left
collect nopoweroff
if ((rc == 7)) && grep -qx up "$T/out2/r.txt" &&
   grep -q 'had not powered off 2 s later: stopped it' "$T/nopoweroff.err" &&
   awk -v s="$secs" 'BEGIN { exit !(s < 60) }' && ! pgrep -f "qemu-system.*$T" >/dev/null; then
	ok "a guest up after its command: stopped, its exit 7 and /out taken (${secs} s)"
else
	diag "$T/nopoweroff.err"
	not_ok "a guest up after its command: stopped, its exit and /out taken (got rc $rc, $secs s)"
fi

((failed == 0)) || { echo "# $failed of $PLAN failed"; exit 1; }
exit 0
