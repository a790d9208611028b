#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The stat_threshold formula against real kernels on other machines: boot
# the cached Debian kernel in QEMU with different CPU, memory and NUMA
# shapes and check that `vmstat-bench thresholds` computes exactly the
# "vm stats threshold" the guest kernel set for every populated zone.
. "$(dirname "$0")/../lib.sh"
cd "$VSB_ROOT"

shapes=("--smp 1 --mem 256" "--smp 4 --mem 1024 --numa 2" "--smp 3 --mem 2048")
for shape in "${shapes[@]}"; do
	# shellcheck disable=SC2086
	ci/vm-run.sh $shape --timeout 60 --add "$VSB_BUILD_DIR/vmstat-bench:build/vmstat-bench" \
		--out "$TMP/out" -- 'build/vmstat-bench thresholds --format csv > /out/t.csv' \
		>"$TMP/log" 2>&1
	rc=$?
	if [ "$rc" -eq 4 ]; then
		skip "thresholds in a guest ($shape)" "$(tail -1 "$TMP/log")"
		continue
	fi
	n=$(awk -F, '$1 == "stat_threshold" && $7 != -1' "$TMP/out/t.csv" 2>/dev/null | wc -l)
	bad=$(awk -F, '$1 == "stat_threshold" && $6 != $7' "$TMP/out/t.csv" 2>/dev/null)
	if [ "$rc" -eq 0 ] && [ "$n" -gt 0 ] && [ -z "$bad" ]; then
		ok "guest $shape: formula = kernel threshold in all $n zones"
	else
		not_ok "guest $shape" "exit $rc, zones $n, mismatches: $bad" "$(tail -5 "$TMP/log")"
	fi
	rm -rf "$TMP/out"
done
done_testing
