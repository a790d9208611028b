#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Sysctl ownership is exclusive and restores are byte-identical: two
# runs setting the same sysctl a millisecond apart (the second is
# refused, "in use by pid N", exit 1; the value after both is the
# original), and an original of several tab-separated fields put back
# byte for byte (tabs escaped in the state file), by the run itself and
# after SIGKILL + `restore`.  vmstat-bench sets vm.* sysctls only; this
# uses vm.lowmem_reserve_ratio, its first field (the DMA zone's ratio)
# moved by one or two; the trap puts the machine's own value back
# whatever happens.
. "$(dirname "$0")/../lib.sh"

PC=/proc/sys/vm/lowmem_reserve_ratio
export VSB_SYSCTL_STATE="$TMP/state/sysctl.state"
if [ "$(id -u)" != 0 ] || ! [ -w "$PC" ]; then
	echo "1..0 # SKIP needs root and a writable $PC"
	exit 4
fi
orig=$(cat "$PC")
trap 'printf %s "$orig" >"$PC"; rm -rf "$TMP"' EXIT
# the value with its first field plus @1, fields as the kernel reads them
plus() { printf %s "$orig" | awk -v d="$1" '{ $1 += d; print }'; }
printf %s "$(plus 1)" >"$PC"
LONG=$(cat "$PC")	# the kernel's own spelling: tab-separated
same() { [ "$(cat "$PC")" = "$LONG" ] && ok "$1" || not_ok "$1" "now: $(cat "$PC")"; }

"$VSB" run --bench counter --loops 1000 --repeat 1 --warmup 0 --events none \
	--sysctl "vm.lowmem_reserve_ratio=$(plus 0)" >/dev/null 2>"$TMP/err"
[ $? -eq 0 ] && ok "a run setting a multi-field sysctl exits 0" || not_ok "run exits 0" "$(cat "$TMP/err")"
same "a tab-separated original is restored byte-identical at exit"

LR=(run --bench page-fault --size 16M --repeat 1000 --events none)
"$VSB" "${LR[@]}" --sysctl "vm.lowmem_reserve_ratio=$(plus 2)" >/dev/null 2>"$TMP/e1" &
p1=$!
sleep 0.001
"$VSB" "${LR[@]}" --sysctl "vm.lowmem_reserve_ratio=$(plus 3)" >/dev/null 2>"$TMP/e2" &
p2=$!
for _ in $(seq 100); do [ -s "$VSB_SYSCTL_STATE" ] && break; sleep 0.05; done
sleep 0.5	# the loser is refused at its first change, long before the winner ends
if grep -q "in use by pid $p1" "$TMP/e2" && ! kill -0 $p2 2>/dev/null; then
	wait $p2; rc=$?; winner=$p1
elif grep -q "in use by pid $p2" "$TMP/e1" && ! kill -0 $p1 2>/dev/null; then
	wait $p1; rc=$?; winner=$p2
else
	rc=0; winner=$p1
fi
[ $rc -eq 1 ] && ok "of two runs a millisecond apart one is refused: in use by pid N (exit 1)" ||
	not_ok "one of two concurrent runs is refused (exit 1)" "$(cat "$TMP/e1" "$TMP/e2")"
grep -qF "$(printf %s "$LONG" | sed 's/\t/\\t/g')" "$VSB_SYSCTL_STATE" &&
	ok "the state file holds the whole original" ||
	not_ok "the state file holds the whole original" "$(cat "$VSB_SYSCTL_STATE")"
kill -KILL $winner 2>/dev/null; wait $winner 2>/dev/null
[ "$(cat "$PC")" != "$LONG" ] && ok "SIGKILL leaves the value changed" ||
	not_ok "SIGKILL leaves the value changed"
expect_exit 0 "restore after SIGKILL exits 0" "$VSB" restore
same "after SIGKILL + restore: byte-identical"
[ ! -e "$VSB_SYSCTL_STATE" ] && ok "the state file is removed" || not_ok "the state file is removed"

# the next start restores too, under the same lock
"$VSB" "${LR[@]}" --sysctl "vm.lowmem_reserve_ratio=$(plus 2)" >/dev/null 2>&1 &
p=$!
for _ in $(seq 100); do [ -s "$VSB_SYSCTL_STATE" ] && break; sleep 0.05; done
kill -KILL $p; wait $p 2>/dev/null
expect_exit 0 "the next run starts after a SIGKILLed owner" \
	"$VSB" run --bench counter --loops 1000 --repeat 1 --warmup 0 --events none
same "the next run restored it byte-identical"

# a state file that is a device node: refused, untouched
mkdir -p "$TMP/state"
if mknod "$VSB_SYSCTL_STATE" c 1 3 2>/dev/null; then
	expect_exit 2 "restore refuses a device-node state file" "$VSB" restore
	[ -c "$VSB_SYSCTL_STATE" ] && ok "the node is left as it was" || not_ok "node left"
	expect_exit 2 "a --sysctl run refuses it too, before any change" \
		"$VSB" run --bench counter --loops 1000 --repeat 1 --warmup 0 \
		--events none --sysctl "vm.lowmem_reserve_ratio=$(plus 2)"
	same "nothing changed"
	rm -f "$VSB_SYSCTL_STATE"
else
	skip "device-node state file" "mknod not permitted"
fi
done_testing
