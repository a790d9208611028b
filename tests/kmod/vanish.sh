#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vanish.sh - the host side's answer to a guest that dies mid-run
# (tests/kmod/vmlib.bash, vsb_vm_tap).  A guest that vanishes without any
# kernel report (here: a triple fault) is booted once more, with a skip
# line naming why, and fails when it vanishes again; the first boot's
# output is dropped.  A panic is never retried.  Three short boots; then
# which oops is taken for TCG's text_poke race (vmlib.bash), read from
# report lines.
set -uo pipefail
. "$(dirname "$0")/vmlib.bash"

vsb_vm_prepare

# vsb_vm_tap numbers its own TAP lines: run it apart and read what it
# said.  The two cases boot side by side (one vCPU each), each in a
# folder of its own for vsb_vm_tap's files.
tap_of() {	# tap_of NAME VM-RUN-ARGS...: in the background
	local name=$1
	shift
	mkdir -p "$TMP/$name.d"
	(TMP=$TMP/$name.d; TMPDIR=$TMP
	 vsb_vm_tap vanish.sh --smp 1 --mem 256 --timeout 120 "$@") >"$TMP/$name.tap" 2>&1 &
}

tap_of triple --append "reboot=t VSB_VANISH=triple"
tap_of panic --append "VSB_VANISH=panic"
wait
t=$TMP/triple.tap
if [[ $(grep -c '# SKIP' "$t") == 1 ]] &&
   grep -q '# SKIP .*QEMU logged a triple fault); booted again' "$t"; then
	ok "a guest reset by a triple fault is booted again, with one skip line saying why"
else
	not_ok "a guest reset by a triple fault is booted again, with one skip line saying why" "$(cat "$t")"
fi
if grep -q '^not ok .* - guest ran vanish.sh without a WARN, oops or panic' "$t" &&
   grep -qF "guest died without reporting an exit status and without a kernel report" "$t"; then
	ok "vanishing on the second boot too fails the test, naming the vanishing"
else
	not_ok "vanishing on the second boot too fails the test, naming the vanishing" "$(cat "$t")"
fi
n=$(grep -c 'ok .* - the guest ran vanish.sh' "$t")
if [[ $n == 1 ]]; then
	ok "the first boot's output is dropped: the guest's lines are counted once"
else
	not_ok "the first boot's output is dropped: the guest's lines are counted once" \
		"counted $n times" "$(cat "$t")"
fi

t=$TMP/panic.tap
if ! grep -q '# SKIP' "$t" && grep -q '^#.*guest panicked' "$t"; then
	ok "a panicking guest is not booted again: the panic fails the test"
else
	not_ok "a panicking guest is not booted again: the panic fails the test" "$(cat "$t")"
fi

# the one oops booted again, told from vm-run's report lines (the first
# from a 6.12 guest of this suite); everything else is the module's
report_is_race() {	# report_is_race LINE...: tcg_text_poke_race on these lines
	printf '    ! %s\n' "$@" >"$TMP/guest.err"
	tcg_text_poke_race
}
OOPS='[   26.591954] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI'
RIP='[   26.592723] RIP: 0010:__schedule+0x407/0xbf0'
CODE='[   26.593072] Code: 48 85 db 74 0f 0f 1f 44 00 00 0f 1f 44 00 00 e9 <d4> 01 00 00 49 8d 85'
if report_is_race "$OOPS" "$RIP" "$CODE" &&
   ! report_is_race "$OOPS" "$RIP" "${CODE/e9 <d4>/c3 cc <cc>}" &&
   ! report_is_race "$OOPS" "$RIP" &&
   ! report_is_race "$OOPS" '[   26.592723] RIP: 0010:vsb_run_worker+0x41/0x300 [vmstat_bench]' "$CODE" &&
   ! report_is_race '[   26.591954] Oops: general protection fault, probably for non-canonical address' \
	"$RIP" "$CODE" &&
   ! report_is_race '[   26.591954] BUG: kernel NULL pointer dereference, address: 0000000000000008'; then
	ok "only an int3 oops in the core kernel's text, its int3 patched away, is taken for TCG's text_poke race"
else
	not_ok "only an int3 oops in the core kernel's text, its int3 patched away, is taken for TCG's text_poke race"
fi
done_testing
