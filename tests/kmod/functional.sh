#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# functional.sh - vmstat_bench.ko in one 2-vCPU guest: every bench and
# variant with its sanity check, irq/preempt-off loops, all page orders,
# EBUSY, EINTR within 1 s, the time limit, no kthread or page left
# behind (tests/kmod/guest/functional.sh), then the results that came
# back are checked here.  About 60-90 s under TCG.
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
   grep -q '^# kmod_abi: 1' "$csv"; then
	ok "CSV metadata: sanity ok, kmod_abi 1; summary CSV written"
else
	not_ok "CSV metadata: sanity ok, kmod_abi 1; summary CSV written"
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
done_testing
