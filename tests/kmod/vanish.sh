#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vanish.sh - the host side's answer to a guest that dies mid-run
# (tests/kmod/vmlib.bash, vsb_vm_tap).  A guest that vanishes without any
# kernel report (here: a triple fault) is booted once more, with a skip
# line naming why, and fails when it vanishes again; the first boot's
# output is dropped.  A panic is never retried.  Three short boots.
set -uo pipefail
. "$(dirname "$0")/vmlib.bash"

vsb_vm_prepare

# vsb_vm_tap numbers its own TAP lines: run it apart and read what it said.
tap_of() {	# tap_of NAME VM-RUN-ARGS...
	local name=$1
	shift
	(vsb_vm_tap vanish.sh --smp 1 --mem 256 --timeout 120 "$@") >"$TMP/$name.tap" 2>&1
}

tap_of triple --append "reboot=t VSB_VANISH=triple"
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

tap_of panic --append "VSB_VANISH=panic"
t=$TMP/panic.tap
if ! grep -q '# SKIP' "$t" && grep -q '^#.*guest panicked' "$t"; then
	ok "a panicking guest is not booted again: the panic fails the test"
else
	not_ok "a panicking guest is not booted again: the panic fails the test" "$(cat "$t")"
fi
done_testing
