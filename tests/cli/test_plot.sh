#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `vmstat-bench plot`: every chart of a small real sweep, in PNG and SVG,
# titled with the machine; a clear skip (4) without gnuplot.
. "$(dirname "$0")/../lib.sh"

cpus="0"
[ "$(nproc)" -ge 2 ] && cpus="0 | 0-1"
cat >"$TMP/p.sweep" <<EOF
cpus $cpus
loops 20000
repeat 3
[thr]
variant cmpxchg-local
threshold 8,32,125
[var]
variant this-cpu-add, atomic-global
[pcc]
variant percpu-counter
batch 1,32,1024
EOF
"$VSB" sweep "$TMP/p.sweep" -o "$TMP/r" >/dev/null 2>&1 || { not_ok "sweep for the charts"; done_testing; exit; }

expect_usage_error "not a result dir" "no sweep.csv" "$VSB" plot "$TMP"
expect_exit 4 "without gnuplot: skip (4)" env PATH=/nonexistent "$VSB" plot "$TMP/r"
grep -q 'gnuplot-nox' "$TMP/err" && ok "the skip says what to install" || not_ok "the skip says what to install"

if ! command -v gnuplot >/dev/null; then
	skip "charts" "gnuplot not installed"
	done_testing
	exit
fi
expect_exit 0 "plot the sweep" "$VSB" plot "$TMP/r" -o "$TMP/charts"
charts="threshold variants batch"
[ "$(nproc)" -ge 2 ] && charts="$charts scaling"
for c in $charts; do
	if [ "$(head -c 4 "$TMP/charts/$c.png" 2>/dev/null | tail -c 3)" = PNG ] &&
	   [ "$(stat -c %s "$TMP/charts/$c.png")" -gt 10000 ] && grep -q '<svg' "$TMP/charts/$c.svg"; then
		ok "$c chart: PNG and SVG"
	else
		not_ok "$c chart: PNG and SVG"
	fi
done
model=$(grep -m1 '^# cpu_model:' "$TMP/r/sweep.csv" | sed 's/^# cpu_model: //' | cut -c1-20)
grep -qF "$model" "$TMP/charts/threshold.svg" && ok "titled with the CPU model" || not_ok "titled with the CPU model" "$model"
ls "$TMP/charts" | grep -qE 'tmp|gnuplot-err' && not_ok "no temporary files left" || ok "no temporary files left"
done_testing
