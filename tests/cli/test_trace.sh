#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# BPF tracing: the program loads, counts the page allocations of a known
# workload within 5% of the /proc/vmstat delta of the same window, sees
# vmstat_update work items while vm.stat_interval is 1 s and the CPUs
# have counters to fold, and `run --trace` puts the counts in the
# metadata; --cpus takes online CPUs only and filters just the per-CPU
# table; --duration stops a traced command with SIGTERM and says so.
# Skipped, with the reason, without root, BTF or a BPF build (the usage
# errors are checked first: they need none of these).
. "$(dirname "$0")/../lib.sh"

expect_usage_error "bad --duration" "--duration: 'soon' is not a number of seconds" \
	"$VSB" trace --duration soon
# CPUs are numbered from 0, so the configured count is never an online CPU
nconf=$(getconf _NPROCESSORS_CONF)
for c in "$nconf" 4000 "0,$nconf"; do
	expect_usage_error "--cpus $c: not online, refused before tracing" \
		"^vmstat-bench: --cpus: CPU ${c#0,} is not online$" "$VSB" trace --duration 0.1 --cpus "$c"
	[ -s "$TMP/out" ] && not_ok "--cpus $c: nothing traced" "$(head -1 "$TMP/out")"
done
expect_usage_error "--cpus malformed" "--cpus: malformed CPU list '1-'" \
	"$VSB" trace --duration 0.1 --cpus 1-

"$VSB" trace --duration 0.2 >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc -eq 4 ]; then
	skip "BPF tracing" "$(head -1 "$TMP/err")"
	done_testing
	exit
fi
[ $rc -eq 0 ] && grep -q "^vmstat_update work items per CPU" "$TMP/out" &&
	grep -q "^# bpf_pages_allocated: " "$TMP/out" &&
	ok "trace loads, attaches and reports" || not_ok "trace loads, attaches and reports" \
	"exit $rc" "$(cat "$TMP/err")"

key() { sed -n "s/^# $2: //p" "$1"; }

# --cpus picks the rows of the per-CPU table; the other tables are for all
"$VSB" trace --duration 0.2 --cpus 0 >"$TMP/out" 2>"$TMP/err"
rc=$?
rows=$(awk '/^vmstat_update work items per CPU/ { f = 1; next } f && /^$/ { exit }
	f && $1 ~ /^[0-9]+$/ { print $1 }' "$TMP/out")
[ $rc -eq 0 ] && [ "$rows" = 0 ] &&
	grep -q "^vmstat-bench trace: .*; per-CPU table: CPUs 0, other tables: all CPUs$" "$TMP/out" &&
	grep -q "^vmstat_update duration, all CPUs" "$TMP/out" &&
	grep -q "^page allocations and frees by order, all CPUs" "$TMP/out" &&
	ok "--cpus 0: one per-CPU row, the other tables say all CPUs" ||
	not_ok "--cpus 0: one per-CPU row, the other tables say all CPUs" "exit $rc, rows '$rows'" \
	"$(head -4 "$TMP/out")" "$(head -2 "$TMP/err")"

# --duration with a command: SIGTERM at the limit, reported, and a normal
# end (exit 0: trace did what it was asked).  timeout's 124 would mean it
# waited for sleep.  A command that ignores SIGTERM gets SIGKILL 5 s later.
timeout 25 "$VSB" trace --duration 1 -- sleep 30 >"$TMP/out" 2>"$TMP/err"
rc=$?
secs=$(key "$TMP/out" trace_seconds)
[ $rc -eq 0 ] && [ ! -s "$TMP/err" ] &&
	grep -q "^vmstat-bench trace: [0-9.]* s, command: sleep 30 (killed by signal 15, stopped at the end of --duration);" "$TMP/out" &&
	awk -v s="$secs" 'BEGIN { exit !(s >= 1 && s < 20) }' &&
	ok "--duration 1 -- sleep 30: stopped by SIGTERM after ${secs} s, reported, exit 0" ||
	not_ok "--duration 1 -- sleep 30: stopped by SIGTERM and reported" "exit $rc, trace_seconds '$secs'" \
	"$(head -1 "$TMP/out")" "$(cat "$TMP/err")"
timeout 25 "$VSB" trace --duration 1 -- sh -c 'trap "" TERM; while :; do sleep 1; done' \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ] && grep -q "(killed by signal 9, stopped at the end of --duration)" "$TMP/out" &&
	ok "a command ignoring SIGTERM gets SIGKILL after the grace time" ||
	not_ok "a command ignoring SIGTERM gets SIGKILL" "exit $rc" "$(head -1 "$TMP/out")"
"$VSB" trace --duration 5 -- sh -c 'exit 3' >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 1 ] && grep -q "(exit 3)" "$TMP/out" &&
	grep -qx "vmstat-bench: trace: the command did not succeed (exit status 3)" "$TMP/err" &&
	ok "a command failing on its own: exit 1, its status reported" ||
	not_ok "a command failing on its own: exit 1" "exit $rc" "$(cat "$TMP/err")"

# a known workload: 2 x 64 MiB of write faults = 32768 pages at least
"$VSB" trace -- "$VSB" run --bench page-fault --size 64M --cpus 0 --repeat 2 --warmup 0 \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
b=$(key "$TMP/out" bpf_pages_allocated) v=$(key "$TMP/out" vmstat_pgalloc_delta)
if [ $rc -eq 0 ] && [ -n "$b" ] && [ "$b" -ge 32768 ] &&
	[ $(( (b > v ? b - v : v - b) * 100 )) -le $((v * 5)) ]; then
	ok "page allocations counted by BPF ($b) within 5% of /proc/vmstat ($v)"
else
	not_ok "page allocations counted by BPF within 5% of /proc/vmstat" \
		"exit $rc, bpf $b, vmstat $v" "$(tail -2 "$TMP/err")"
fi
grep -q "(exit 0)" "$TMP/out" && ok "the traced command's exit status is reported" ||
	not_ok "the traced command's exit status is reported" "$(head -1 "$TMP/out")"

# vmstat_update runs every stat_interval on CPUs with diffs to fold
SI=/proc/sys/vm/stat_interval
orig_si=$(cat "$SI")
trap 'echo "$orig_si" >"$SI"; rm -rf "$TMP"' EXIT
echo 1 >"$SI"
cpus=0
[ "$(nproc)" -ge 2 ] && cpus=0,1
"$VSB" run --bench page-fault --size 16M --cpus $cpus --repeat 1000 --warmup 0 \
	>/dev/null 2>&1 &
load=$!
"$VSB" trace --duration 3 >"$TMP/out" 2>"$TMP/err"
rc=$?
kill -TERM $load; wait $load 2>/dev/null
echo "$orig_si" >"$SI"
n=$(key "$TMP/out" vmstat_update_items)
[ $rc -eq 0 ] && [ -n "$n" ] && [ "$n" -ge 1 ] &&
	ok "vmstat_update work seen with stat_interval 1 s ($n items in 3 s)" ||
	not_ok "vmstat_update work seen with stat_interval 1 s" "exit $rc, items '$n'" \
	"$(cat "$TMP/err")"
grep -qE '^ +[0-9]+ -> [0-9]+ +: [0-9]+ +\|\**' "$TMP/out" &&
	ok "the duration histogram is printed" || not_ok "the duration histogram is printed"

# run --trace: counts of the timed window in the metadata
"$VSB" run --bench page-fault --size 16M --cpus 0 --repeat 2 --warmup 0 --trace \
	-o "$TMP/r.csv" >/dev/null 2>"$TMP/err"
rc=$?
a=$(key "$TMP/r.csv" trace_page_alloc_by_order | sed -n 's/^o0=\([0-9]*\).*/\1/p')
[ $rc -eq 0 ] && grep -q "^# trace_window: .*(the timed samples)" "$TMP/r.csv" &&
	grep -q "^# trace_vmstat_update_per_sec_per_cpu: cpu0=" "$TMP/r.csv" &&
	[ -n "$a" ] && [ "$a" -ge 8192 ] &&
	ok "run --trace records the window's counts ($a order-0 allocations)" ||
	not_ok "run --trace records the window's counts" "exit $rc" \
	"$(grep '^# trace' "$TMP/r.csv")" "$(cat "$TMP/err")"
# a sweep's rounds are runs of their own: their windows add up
printf 'bench page-fault\nsize 16M\ncpus 0\ntrace 1\nwarmup 0\n' >"$TMP/t.sweep"
"$VSB" sweep "$TMP/t.sweep" --repeat 3 -o "$TMP/ts" >/dev/null 2>"$TMP/err"
rc=$?
pt=$(ls "$TMP"/ts/*.summary.csv 2>/dev/null | head -1)
a=$([ -n "$pt" ] && key "$pt" trace_page_alloc_by_order | sed -n 's/^o0=\([0-9]*\).*/\1/p')
[ $rc -eq 0 ] && [ -n "$a" ] && [ "$a" -ge $((3 * 4096)) ] &&
	grep -q "^# trace_window: .*(the timed samples)" "$pt" &&
	ok "sweep --trace adds the 3 rounds' windows ($a order-0 allocations for 3 x 16 MiB)" ||
	not_ok "sweep --trace adds the rounds' windows" "exit $rc, o0 '$a'" "$(cat "$TMP/err")"
done_testing
