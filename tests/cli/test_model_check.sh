#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ci/model-check: bad input is one line and exit 2 with nothing written;
# a run over one variant of a small sweep writes the counted CSV (unit
# insn, under qemu-x86_64) and the timed one (TSC ticks), and prints the
# mix and the cost an update, in cycles when a cost table is given.
. "$(dirname "$0")/../lib.sh"
. "$VSB_ROOT/ci/csv.bash"

MC=$VSB_ROOT/ci/model-check
need_qemu_user

cat >"$TMP/small.sweep" <<'SWEEP'
name small
bench counter
threshold 125
cpus 0 | 0-1
loops 100000
repeat 3

[user]
backend user
variant this-cpu-add, cmpxchg-local

[kmod]
backend kmod
variant irqsave
SWEEP
printf '# not a cost table\ncycles 3\n' >"$TMP/other.txt"
# a cost table as calibrate --costs writes it, this CPU's key, every
# user-space row 1 cycle, the clock 0.5 TSC ticks a cycle
{
	printf '# vmstat-bench cost table, version 1\n'
	printf '# cost_key: GenuineIntel-6-85-4\n# cpu_vendor: GenuineIntel\n'
	printf '# cpu_family: 6\n# cpu_model_id: 85\n# cpu_stepping: 4\n'
	printf '# cpu_model: Fixture CPU\n# tsc_per_cycle: 0.5\n# when: 2026-12-07T05:00:00Z\n'
	printf 'prim,median,lo,hi,n\n'
	for p in add_chain imul_chain add_tput load store lock_cmpxchg lock_xadd cmpxchg \
		 cmpxchg_gs pushf popf pause lfence mfence cpuid rep_stosb_4k; do
		printf '%s,1,1,1,5\n' "$p"
	done
} >"$TMP/costs.txt"

expect_usage_error "no -o: exit 2" '-o DIR is required' "$MC"
expect_usage_error "an unknown argument: exit 2" "unknown argument '--bogus'" \
	"$MC" -o "$TMP/o" --bogus
expect_usage_error "a --costs file of another format: exit 2" 'not a vmstat-bench cost table' \
	"$MC" -o "$TMP/o" --costs "$TMP/other.txt"
expect_usage_error "a variant the sweep has not in user space: exit 2" \
	"'irqsave' is not a user-space variant" \
	"$MC" -o "$TMP/o" --sweep "$TMP/small.sweep" --variants irqsave
if [ ! -e "$TMP/o" ]; then ok "nothing written on bad input"; else not_ok "nothing written on bad input"; fi
check "-h prints the usage" bash -c "'$MC' -h | grep -q '^usage: ci/model-check -o DIR'"

"$MC" -o "$TMP/o" --sweep "$TMP/small.sweep" --variants this-cpu-add \
	--costs "$TMP/costs.txt" >"$TMP/table" 2>"$TMP/err"
rc=$?
if [ $rc -eq 0 ] && [ "$(csv_cell "$TMP/o/counted/this-cpu-add.summary.csv" unit)" = insn ] &&
	[ "$(csv_cell "$TMP/o/timed/this-cpu-add.summary.csv" unit)" = tsc ] &&
	[ "$(csv_cell "$TMP/o/counted/this-cpu-add.summary.csv" loops)" = 100000 ]; then
	ok "one variant counted (insn) and timed (tsc), with the sweep's options"
else
	not_ok "one variant counted and timed" "exit $rc" "$(tail -3 "$TMP/err")"
fi
# this-cpu-add is one add to the slot a step: its mix has no LOCK and no
# cmpxchg; cycles/op is tsc/op / 0.5 (the table's tsc_per_cycle)
row=$(grep '^this-cpu-add ' "$TMP/table")
hdr=$(grep '^variant ' "$TMP/table" | head -1)
if [ -n "$row" ] && awk -v h="$hdr" -v r="$row" 'BEGIN {
	n = split(h, name, " "); split(r, val, " ")
	for (i = 1; i <= n; i++) v[name[i]] = val[i]
	exit !(v["lock"] == 0 && v["cmpxchg"] == 0 && v["insn"] >= 3 && v["insn"] <= 20 &&
	       v["tsc/op"] > 0 && (v["cycles/op"] / v["tsc/op"] - 2)^2 < 1e-4)
}'; then
	ok "the table: this-cpu-add's mix has no lock or cmpxchg, cycles = tsc / tsc_per_cycle"
else
	not_ok "the table row" "$hdr" "$row"
fi
if grep -q 'no `vmstat-bench estimate` yet' "$TMP/table" || [ -s "$TMP/o/estimate.csv" ]; then
	ok "estimate: called where the verb exists, said so where not"
else
	not_ok "estimate: called or said missing" "$(tail -2 "$TMP/table")"
fi
done_testing
