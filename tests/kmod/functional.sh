#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# functional.sh - vmstat_bench.ko in one 2-vCPU guest: every bench and
# variant with its sanity check, irq/preempt-off loops, all page orders,
# EBUSY, EINTR within 1 s, the time limit, no kthread or page left
# behind, the fold policies, quiet workers and the drift reader
# (tests/kmod/guest/functional.sh), then the results that came back are
# checked here.  About 90-120 s under TCG.  The guest kernel is the
# default one (ci/kernel-cache.sh) or VSB_KERNEL_ABI's; functional_612.sh
# runs this file on 6.12.
set -uo pipefail
. "$(dirname "$0")/vmlib.bash"

vsb_vm_prepare
vsb_vm_tap functional.sh --smp 2 --mem 512 --timeout 400

csv=$TMP/out/counter.csv
if [[ -f $csv ]] && awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	$c["backend"] != "kmod" || $c["bench"] != "counter" { bad = 1 } END { exit bad || !h }' "$csv"; then
	ok "CSV from the guest: rows say bench counter, backend kmod"
else
	not_ok "CSV from the guest: rows say bench counter, backend kmod" "$(head -c 300 "$csv" 2>&1)"
fi
if [[ -f $TMP/out/counter.summary.csv ]] && grep -q '^# sanity: ok' "$csv" &&
   grep -q '^# kmod_abi: 2' "$csv"; then
	ok "CSV metadata: sanity ok, kmod_abi 2; summary CSV written"
else
	not_ok "CSV metadata: sanity ok, kmod_abi 2; summary CSV written"
fi
if [[ -f $TMP/out/auto.csv ]] && awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	$c["backend"] != "kmod" { bad = 1 } END { exit bad || !h }' "$TMP/out/auto.csv"; then
	ok "--backend auto chose the module: backend column kmod"
else
	not_ok "--backend auto chose the module" "$(grep -v '^#' "$TMP/out/auto.csv" 2>&1 | head -2)"
fi
# the module counts with perf_event_create_kernel_counter where the CPU
# has a PMU; a TCG guest has none, and the result must say so, not fail
if grep -qE '^# pmu_events: (PMU unavailable in the module: .+|module: cycles=ok)' "$csv"; then
	ok "in-module PMU verdict recorded: $(sed -n 's/^# pmu_events: //p' "$csv" | cut -c1-80)"
else
	not_ok "in-module PMU verdict recorded" "$(grep '^# pmu' "$csv")"
fi
# the module's reader fills the same columns as the user backend's
for p in local remote; do
	csv=$TMP/out/quiet-$p.csv sum=$TMP/out/quiet-$p.summary.csv
	if [[ -f $sum ]] && awk -F, '/^#/ { next }
		!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
		{ n++; split("drift_max drift_p99 drift_mean stale_max_us stale_p99_us stale_mean_us", w, " ")
		  for (k in w) if (!(w[k] in c) || $c[w[k]] !~ /^[0-9][0-9.e+]*$/) bad = 1
		  if ($c["backend"] != "kmod") bad = 1 }
		END { exit bad || !n }' "$sum" &&
	   awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
		{ n++; if ($c["thread"] != 0) bad = 1 } END { exit bad || !n }' "$csv"; then
		ok "CSV, --fold $p --quiet-workers 1: drift and staleness columns filled, samples of worker 0 only"
	else
		not_ok "CSV, --fold $p --quiet-workers 1: drift and staleness columns filled, samples of worker 0 only" \
			"$(grep -v '^#' "$sum" 2>&1 | head -c 600)"
	fi
done
if [[ -f $TMP/out/quiet-local.csv ]] && grep -q '^# fold: local every 100 us' "$TMP/out/quiet-local.csv" &&
   grep -q '^# drift: .*module kthread' "$TMP/out/quiet-local.csv"; then
	ok "CSV metadata: fold and drift lines from the module"
else
	not_ok "CSV metadata: fold and drift lines from the module"
fi
json=$TMP/out/pages.json
if command -v jq >/dev/null && [[ -f $json ]]; then
	if jq -e '.params.backend == "kmod" and .params.bench == "page-alloc-parallel"
		  and .meta.sanity_ok and (.samples | length) == 4' "$json" >/dev/null; then
		ok "JSON from the guest: page-alloc-parallel, kmod, 2 CPUs x 2 samples, sane"
	else
		not_ok "JSON from the guest: page-alloc-parallel, kmod, 2 CPUs x 2 samples, sane" \
			"$(head -c 300 "$json")"
	fi
else
	skip "JSON from the guest" "no jq or no pages.json"
fi
json=$TMP/out/drift.json
if command -v jq >/dev/null && [[ -f $json ]]; then
	if jq -e '.meta.drift_stats.samples > 0 and (.meta.drift_stats | has("stale_max_us"))
		  and .params.backend == "kmod"' "$json" >/dev/null; then
		ok "JSON from the guest: drift_stats from the module's reader"
	else
		not_ok "JSON from the guest: drift_stats from the module's reader" \
			"$(head -c 300 "$json")"
	fi
else
	skip "JSON drift_stats from the guest" "no jq or no drift.json"
fi
# issue 11: the module's per-batch disturbance fields came back filled
dcsv=$TMP/out/disturb.csv
if [[ -f $dcsv ]] && awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	{ n++; if ($c["nivcsw"] == "" || $c["run_delay_ns"] == "" || $c["steal_ns"] == "" ||
	      $c["cpu_irqs"] == "" || $c["disturbed"] == "" || $c["cpu_irqs"] + 0 < 1) bad = 1 }
	END { exit bad || n != 6 }' "$dcsv"; then
	ok "module samples: switches, run delay, steal filled; interrupts on the worker CPU > 0 in each long batch ($(awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next } { printf "%s ", $c["cpu_irqs"] }' "$dcsv"))"
else
	not_ok "module samples: disturbance fields filled, interrupts > 0" \
		"$(grep -v '^#' "$dcsv" 2>&1 | cut -d, -f"$(col_of "$dcsv" thread)"- | head -8)"
fi
if grep -q '^# disturbed: .* of 6 samples.*--disturbed keep: 6 kept' "$dcsv" 2>/dev/null &&
   grep -q '^# disturbed_sources: the module' "$dcsv"; then
	ok "module: disturbed metadata ($(sed -n 's/^# disturbed: //p' "$dcsv" | cut -c1-90))"
else
	not_ok "module: disturbed metadata" "$(grep '^# disturb' "$dcsv" 2>&1)"
fi
if grep -q '^disturbed: .*--disturbed retry: 6 kept' "$TMP/out/disturb_retry.txt" 2>/dev/null; then
	ok "module: --disturbed retry keeps all repetitions ($(grep '^disturbed:' "$TMP/out/disturb_retry.txt" | cut -c1-100))"
else
	not_ok "module: --disturbed retry keeps all repetitions" "$(tail -3 "$TMP/out/disturb_retry.txt" 2>&1)"
fi

done_testing
