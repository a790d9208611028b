#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# PMU counting end to end: software events through libpfm4 land in every
# row with their full names and plm, task-clock agrees with the row's
# wall time, multiplexed groups flag the rows and exit 3 (made real by
# binding a group away from its thread), bad names are usage errors, the fallback ladder (cycles ->
# tsc -> ns) shows in the unit column, a real EACCES as user nobody, and
# hardware events counted where a PMU exists (skipped with the reason
# in a VM).
. "$(dirname "$0")/../lib.sh"

R="--repeat 3 --warmup 1 --loops 200000"
col() {	# col FILE NAME: print column NAME of the data rows
	awk -F, -v n="$2" '/^#/ {next} !h {for (i = 1; i <= NF; i++) if ($i == n) c = i; h = 1; next} {print $c}' "$1"
}

# software events, counted kernel + user
"$VSB" run $R --events perf::TASK-CLOCK,perf::CONTEXT-SWITCHES -o "$TMP/sw.csv" >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc -eq 0 ] && col "$TMP/sw.csv" pmu_events | grep -q 'PERF_COUNT_SW_TASK_CLOCK:u=1:k=1.*;perf::PERF_COUNT_SW_CONTEXT_SWITCHES' &&
	[ "$(col "$TMP/sw.csv" plm | sort -u)" = ku ]; then
	ok "software events: full libpfm names and plm ku in every row"
else
	not_ok "software events: full libpfm names and plm ku in every row" "exit $rc" "$(head -3 "$TMP/err")"
fi
# task-clock (first pmu value) vs the row's wall ns: never more than the
# wall time (+5% for the reads), and the best sample above half of it (a
# sample the worker was preempted in has less task-clock than wall time:
# that is the point; a loaded 2-CPU CI machine preempts often)
paste -d' ' <(col "$TMP/sw.csv" pmu_values | cut -d';' -f1) <(col "$TMP/sw.csv" ns) >"$TMP/tc"
if [ -s "$TMP/tc" ] && awk '$1 > $2 * 1.05 {bad = 1} END {exit bad}' "$TMP/tc" &&
	awk '{r = $1 / $2; if (r > m) m = r} END {exit !(m > 0.5)}' "$TMP/tc"; then
	ok "task-clock agrees with elapsed wall time ($(head -1 "$TMP/tc"))"
else
	not_ok "task-clock agrees with elapsed wall time" "$(head -3 "$TMP/tc")"
fi
if [ "$(col "$TMP/sw.csv" multiplexed | sort -u)" = 0 ] && grep -q '^# multiplexed: 0 of 3 samples' "$TMP/sw.csv"; then
	ok "software group never multiplexed; recorded"
else
	not_ok "software group never multiplexed; recorded" "$(grep multiplexed "$TMP/sw.csv" | head -2)"
fi
grep -q '^# pmu_read_ns: [0-9]' "$TMP/sw.csv" && ok "read cost recorded" || not_ok "read cost recorded"
# multiplexing through the real kernel: a group bound to CPU 1 while its
# worker runs on CPU 0 stays enabled but never runs (VSB_PMU_GROUP_CPU,
# test only), the time_enabled/time_running signature of multiplexing
if [ "$(nproc)" -ge 2 ]; then
	VSB_PMU_GROUP_CPU=1 "$VSB" run $R --cpus 0 --events perf::TASK-CLOCK \
		-o "$TMP/mx.csv" >/dev/null 2>"$TMP/err"
	rc=$?
	if [ $rc -eq 3 ] && grep -q 'multiplexed in 3 of 3 samples.*untrustworthy unless --allow-multiplex' "$TMP/err" &&
		[ "$(col "$TMP/mx.csv" multiplexed | sort -u)" = 1 ] &&
		grep -q '^# multiplexed: 3 of 3 samples (min running/enabled 0.000)$' "$TMP/mx.csv"; then
		ok "multiplexed counters: flagged per row, result kept, exit 3"
	else
		not_ok "multiplexed counters: flagged per row, result kept, exit 3" "exit $rc" "$(cat "$TMP/err")"
	fi
	VSB_PMU_GROUP_CPU=1 "$VSB" run $R --cpus 0 --events perf::TASK-CLOCK --allow-multiplex \
		-o "$TMP/mx.csv" >/dev/null 2>"$TMP/err"
	rc=$?
	[ $rc -eq 0 ] && grep -q '^# multiplexed: 3 of 3 samples .*, allowed$' "$TMP/mx.csv" &&
		ok "--allow-multiplex accepts them (exit 0), and says so" ||
		not_ok "--allow-multiplex accepts them" "exit $rc" "$(cat "$TMP/err")"
else
	skip "multiplexed counters" "needs 2 CPUs to bind a group away from its worker"
fi
"$VSB" run $R --events perf::TASK-CLOCK --format json >"$TMP/sw.json" 2>/dev/null
if jq -e '.pmu_events[0] | startswith("perf::PERF_COUNT_SW_TASK_CLOCK")' "$TMP/sw.json" >/dev/null &&
	jq -e '.samples[0].pmu[0] > 0 and .summary[0].pmu_per_op[0] > 0' "$TMP/sw.json" >/dev/null; then
	ok "json carries pmu_events, per-sample values and per-op medians"
else
	not_ok "json carries pmu_events, per-sample values and per-op medians"
fi

# bad input
expect_usage_error "unknown event: libpfm's error, exit 2" "event 'no_such_event_xyz': event not found" \
	"$VSB" run $R --events cycles,no_such_event_xyz
expect_usage_error "empty event name" "empty event name" "$VSB" run $R --events 'a,,b'
expect_usage_error "bad --plm" "is not one of k\|u\|ku" "$VSB" run $R --plm x
expect_usage_error "flag takes no value" "allow-multiplex" "$VSB" run $R --allow-multiplex=3

# the ladder: cycles where a PMU counts, else tsc, else ns
"$VSB" run $R -o "$TMP/def.csv" >/dev/null 2>"$TMP/err"
if grep -q '^# pmu_events: cycles=ok' "$TMP/def.csv"; then
	[ "$(col "$TMP/def.csv" unit | sort -u)" = cycles ] && ok "ladder: cycles with a PMU" ||
		not_ok "ladder: cycles with a PMU"
else
	if [ "$(col "$TMP/def.csv" unit | sort -u)" = tsc ] && [ "$(col "$TMP/def.csv" event | sort -u)" = rdtscp ] &&
		[ "$(grep -c 'no hardware PMU\|without a virtual PMU' "$TMP/err")" -eq 1 ]; then
		ok "ladder: no PMU -> tsc, said once on stderr"
	else
		not_ok "ladder: no PMU -> tsc, said once on stderr" "$(cat "$TMP/err")"
	fi
fi
VSB_NO_TSC=1 "$VSB" run $R --events none -o "$TMP/ns.csv" >/dev/null 2>&1
if [ "$(col "$TMP/ns.csv" unit | sort -u)" = ns ] && col "$TMP/ns.csv" event | grep -q '^clock_gettime' &&
	[ -z "$(col "$TMP/ns.csv" plm | sort -u)" ] &&
	paste -d' ' <(col "$TMP/ns.csv" elapsed) <(col "$TMP/ns.csv" ns) | awk '$1 != $2 {exit 1}'; then
	ok "ladder: no TSC -> ns, elapsed is the wall time, no plm"
else
	not_ok "ladder: no TSC -> ns" "$(grep -v '^#' "$TMP/ns.csv" | head -2)"
fi

# a real EACCES: user nobody under perf_event_paranoid >= 2, kernel mode requested
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo -1)
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && [ "$paranoid" -ge 2 ]; then
	as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	as_nobody "$VSB" run $R --events perf::TASK-CLOCK >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc -eq 0 ] && grep -q "perf::TASK-CLOCK: permission denied (perf_event_paranoid=$paranoid;.*--plm u" "$TMP/err" &&
		! grep -q '^counters' "$TMP/out"; then
		ok "EACCES as nobody: the fix is printed and the run falls back"
	else
		not_ok "EACCES as nobody" "exit $rc" "$(head -3 "$TMP/err")"
	fi
	as_nobody "$VSB" run $R --events perf::TASK-CLOCK --plm u >"$TMP/out" 2>&1
	grep -q '^counters (median per op, plm u): perf::PERF_COUNT_SW_TASK_CLOCK:u=1:k=0' "$TMP/out" &&
		ok "nobody with --plm u counts user mode" || not_ok "nobody with --plm u counts user mode" "$(tail -3 "$TMP/out")"
else
	skip "EACCES as nobody" "needs root, setpriv and perf_event_paranoid >= 2 (have uid $(id -u), paranoid $paranoid)"
	skip "nobody with --plm u counts user mode" "same"
fi

# hardware: counted where a PMU exists
if grep -q '^# pmu_events: cycles=ok; instructions=ok' "$TMP/def.csv"; then
	if awk -F, '/^#/ {next} !h {for (i = 1; i <= NF; i++) if ($i == "ipc") c = i; h = 1; next} $c <= 0 {bad = 1} END {exit bad}' "$TMP/def.csv"; then
		ok "hardware: cycles and instructions per row, IPC > 0"
	else
		not_ok "hardware: cycles and instructions per row, IPC > 0"
	fi
else
	skip "hardware: cycles and instructions per row, IPC > 0" \
		"no hardware PMU here ($(grep '^# pmu_events' "$TMP/def.csv" | cut -c3-))"
fi
done_testing
