#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ab's --boots and --max-boots, refused before any work: one line, exit
# 2, no output folder.  The kernels named are never looked at (the
# refusal comes first), so this runs without QEMU or a kernel; the boots
# themselves and the looks are tests/vm/ab.sh's, the rule of the looks
# tests/unit/lib/judge/test_looks.c's.
. "$(dirname "$0")/../lib.sh"

SWEEP=$VSB_ROOT/configs/ab-quick.sweep
D=$TMP/o
AB=(ab --base debian:6.1.0-57 --new debian:6.1.0-57 "$SWEEP" -o "$D")

expect_usage_error "--max-boots 0" "--max-boots: 0 is out of range \\(1..50\\)" \
	"$VSB" "${AB[@]}" --max-boots 0
expect_usage_error "--max-boots 51: absurd" "--max-boots: 51 is out of range \\(1..50\\)" \
	"$VSB" "${AB[@]}" --max-boots 51
expect_usage_error "--max-boots 1e3" "--max-boots: '1e3' is not an integer" \
	"$VSB" "${AB[@]}" --max-boots 1e3
expect_usage_error "--max-boots -2" "--max-boots: -2 is out of range" \
	"$VSB" "${AB[@]}" --max-boots -2
expect_usage_error "--max-boots empty" "--max-boots" "$VSB" "${AB[@]}" --max-boots ''
expect_usage_error "--max-boots below timed mode's default --boots 6" \
	"--max-boots 4 is below timed mode's 6 boots" "$VSB" "${AB[@]}" --max-boots 4
expect_usage_error "--max-boots below --boots" "--max-boots 7 is below --boots 8" \
	"$VSB" "${AB[@]}" --boots 8 --max-boots 7
[ ! -e "$D" ] && ok "no output folder after any refusal" || not_ok "output folder left" "$(ls -la "$D")"

"$VSB" ab --help >"$TMP/help" 2>&1
grep -q -- '--max-boots M' "$TMP/help" && grep -q '5 no regression but a' "$TMP/help" &&
	ok "ab --help: --max-boots and exit 5 (inconclusive)" || not_ok "ab --help" "$(cat "$TMP/help")"
done_testing
