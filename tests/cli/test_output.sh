#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Result files parse back, carry the metadata header and one row per raw
# sample, and appear complete or not at all; tsc rows agree with the
# recorded TSC rate; every command's --help has an example.
. "$(dirname "$0")/../lib.sh"

cpus=0; [ "$(nproc)" -ge 2 ] && cpus=0-1
nw=$(( ${#cpus} > 1 ? 2 : 1 ))
common=(--variant cmpxchg-locked --cpus $cpus --loops 5000 --repeat 4 --warmup 1)

# ---- CSV ----
if "$VSB" run "${common[@]}" -o "$TMP/r.csv" >"$TMP/table" 2>"$TMP/err"; then
	ok "csv run succeeds"
else
	not_ok "csv run succeeds" "$(cat "$TMP/err")"
fi
for k in vmstat-bench date command kernel cpu_model tsc_hz unit sanity; do
	grep -q "^# $k: ." "$TMP/r.csv" && ok "csv metadata has '$k'" || not_ok "csv metadata has '$k'"
done
grep -q '^# command: .*run --variant cmpxchg-locked' "$TMP/r.csv" &&
	ok "metadata records the command line" || not_ok "metadata records the command line"
hdr=$(grep -v '^#' "$TMP/r.csv" | head -1)
rows=$(grep -v '^#' "$TMP/r.csv" | tail -n +2)
ncols=$(awk -F, '{print NF}' <<<"$hdr")
[ "$(wc -l <<<"$rows")" -eq $((4 * nw)) ] && ok "one csv row per worker and repetition ($((4 * nw)))" ||
	not_ok "one csv row per worker and repetition" "$(wc -l <<<"$rows") rows"
awk -F, -v n="$ncols" 'NF != n { bad = 1 } END { exit bad }' <<<"$rows" &&
	ok "every csv row has the header's $ncols fields" || not_ok "csv rows have $ncols fields"
col() { awk -F, -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next } { print $c }' \
	<(grep -v '^#' "$2"); }
[ "$(col variant "$TMP/r.csv" | sort -u)" = cmpxchg-locked ] && ok "variant column" || not_ok "variant column"
[ "$(col unit "$TMP/r.csv" | sort -u | wc -l)" -eq 1 ] && ok "one unit throughout" || not_ok "one unit throughout"
[ "$(col ops "$TMP/r.csv" | sort -u)" = 5000 ] && ok "ops column equals --loops" || not_ok "ops column"
# per_op must be elapsed / ops, row by row
paste -d' ' <(col elapsed "$TMP/r.csv") <(col ops "$TMP/r.csv") <(col per_op "$TMP/r.csv") |
	awk '{ d = $1 / $2 - $3; if (d < 0) d = -d; if (d > 1e-3 * $3 + 1e-6) bad = 1 } END { exit bad }' &&
	ok "per_op = elapsed / ops in every row" || not_ok "per_op = elapsed / ops"
# elapsed is in TSC ticks and ns is timed on CLOCK_MONOTONIC_RAW around the
# same loop: their ratio is the TSC rate the header records.  --events none
# makes the unit tsc wherever a PMU would make it cycles.  The clock reads
# bracket the TSC reads, so a row whose thread (or vCPU: the host can stop
# it unseen) was stopped between two of them is off by that stop: the
# median row is what must match, and a wrong tsc_hz moves every row.
if "$VSB" run --variant plain-fold --events none --loops 200000 --repeat 5 --warmup 1 \
	-o "$TMP/tsc.csv" >/dev/null 2>"$TMP/err"; then
	hz=$(sed -n 's/^# tsc_hz: //p' "$TMP/tsc.csv")
	ntsc=$(col unit "$TMP/tsc.csv" | grep -cx tsc)
	ratios=$(paste -d' ' <(col unit "$TMP/tsc.csv") <(col elapsed "$TMP/tsc.csv") <(col ns "$TMP/tsc.csv") |
		awk -v hz="$hz" '$1 == "tsc" && $3 > 0 { printf "%.4f\n", $2 / $3 * 1e9 / hz }' | sort -n)
	med=$(awk '{ r[NR] = $1 } END { if (NR) print r[int((NR + 1) / 2)] }' <<<"$ratios")
	if [ "${hz:-0}" -gt 0 ] && [ "$ntsc" -eq 5 ] && [ "$(wc -l <<<"$ratios")" -eq 5 ] &&
	   awk -v m="${med:-0}" 'BEGIN { exit !(m >= 0.98 && m <= 1.02) }'; then
		ok "elapsed / ns agrees with tsc_hz ($hz) within 2% (median of $ntsc tsc rows: $med)"
	else
		not_ok "elapsed / ns agrees with tsc_hz within 2%" "tsc_hz '$hz', $ntsc tsc rows (want 5)" \
			"elapsed / ns / tsc_hz per row: $(echo $ratios)"
	fi
else
	not_ok "tsc-unit run succeeds" "$(cat "$TMP/err")"
fi
grep -qx '# tsc_hz_from: the run'"'"'s process, which timed the samples' "$TMP/tsc.csv" &&
	ok "... and the rate is the timing process's (tsc_hz_from)" ||
	not_ok "tsc_hz_from names the run's process" "$(grep '^# tsc' "$TMP/tsc.csv")"
[ -f "$TMP/r.summary.csv" ] && ok "summary csv written beside it" || not_ok "summary csv written"
srows=$(grep -v '^#' "$TMP/r.summary.csv" | tail -n +2 | wc -l)
want=$(( nw > 1 ? nw + 1 : 1 ))
[ "$srows" -eq "$want" ] && ok "summary has a row per worker (+ all): $srows" || not_ok "summary rows" "$srows want $want"
# the summary median of worker 0 equals the median of its per_op samples
m=$(paste -d, <(col thread "$TMP/r.csv") <(col per_op "$TMP/r.csv") | awk -F, '$1 == 0 { print $2 }' |
	sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
s=$(paste -d, <(col thread "$TMP/r.summary.csv") <(col median "$TMP/r.summary.csv") | awk -F, '$1 == 0 { print $2 }')
awk -v a="$m" -v b="$s" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-4 * a) }' &&
	ok "summary median matches the raw samples ($s)" || not_ok "summary median" "raw $m summary $s"
grep -q 'sanity: ok' "$TMP/table" && ok "table printed to stdout with -o" || not_ok "table on stdout"
[ -z "$(ls "$TMP" | grep tmp)" ] && ok "no temporary files left" || not_ok "temporary files left"

# ---- JSON ----
if "$VSB" run "${common[@]}" --format json >"$TMP/r.json" 2>"$TMP/err" && jq -e . "$TMP/r.json" >/dev/null; then
	ok "json parses"
else
	not_ok "json parses" "$(head -c 300 "$TMP/r.json")" "$(cat "$TMP/err")"
fi
[ "$(jq '.samples | length' "$TMP/r.json")" -eq $((4 * nw)) ] && ok "json has every sample" || not_ok "json samples"
[ "$(jq -r '.params.variant' "$TMP/r.json")" = cmpxchg-locked ] && ok "json params" || not_ok "json params"
jq -e '.meta.kernel and .meta.tsc_hz and .meta.sanity_ok == true and .schema_version == 1' "$TMP/r.json" >/dev/null &&
	ok "json metadata" || not_ok "json metadata"
jq -e '[.summary[] | .per_op.median > 0 and .per_op.min <= .per_op.median and .per_op.median <= .per_op.max] | all' \
	"$TMP/r.json" >/dev/null && ok "json summary min <= median <= max" || not_ok "json summary ordering"
"$VSB" run "${common[@]}" -o "$TMP/s.json" >/dev/null 2>&1 && jq -e .samples "$TMP/s.json" >/dev/null &&
	ok "-o x.json picks json" || not_ok "-o x.json picks json"

# ---- text ----
"$VSB" run --variant plain-fold --loops 2000 --repeat 3 >"$TMP/t" 2>&1
grep -qE '^ +0 +[0-9]+ +[0-9.]+' "$TMP/t" && grep -q 'worker  cpu' "$TMP/t" &&
	ok "text table has a header and a worker row" || not_ok "text table" "$(cat "$TMP/t")"

# ---- interrupted runs leave a complete file or none ----
for sig in INT TERM; do
	rm -f "$TMP"/long*
	"$VSB" run --variant atomic-global --cpus $cpus --loops 200000000 --repeat 50 \
		-o "$TMP/long.csv" >/dev/null 2>"$TMP/err" &
	pid=$!
	catches $pid $sig && sleep 0.2	# mid-run: past its start
	kill -$sig $pid
	wait $pid
	rc=$?
	left=$(ls "$TMP" | grep '^long' || true)
	if [ "$rc" -eq 1 ] && [ -z "$left" ] && grep -q interrupted "$TMP/err"; then
		ok "SIG$sig mid-run: exit 1, no result and no temporary left"
	else
		not_ok "SIG$sig mid-run" "rc $rc, left: $left" "$(cat "$TMP/err")"
	fi
done

# ---- help ----
"$VSB" --help >"$TMP/h" && grep -q '^commands:' "$TMP/h" && grep -q 'examples:' "$TMP/h" &&
	ok "--help on stdout with commands and examples" || not_ok "--help"
"$VSB" run --help >"$TMP/h" && grep -q -- '--threshold N' "$TMP/h" && grep -q 'examples:' "$TMP/h" &&
	ok "run --help lists options and examples" || not_ok "run --help"
# every command's --help, the list taken from `vmstat-bench --help` so a new
# command is covered too: exit 0 and an example of that command under an
# "example(s):" heading
cmds=$("$VSB" --help | awk '/^commands:$/ { f = 1; next } f && /^$/ { exit } f { print $1 }')
grep -qx run <<<"$cmds" && grep -qx restore <<<"$cmds" &&
	ok "--help lists the commands ($(wc -w <<<"$cmds"))" || not_ok "--help lists the commands" "$cmds"
for c in $cmds; do
	"$VSB" "$c" --help >"$TMP/h" 2>"$TMP/err"
	rc=$?
	if [ $rc -eq 0 ] && awk -v c="$c" '/^examples?:$/ { f = 1; next }
		f && (index($0, "  vmstat-bench " c " ") == 1 || $0 == "  vmstat-bench " c) { found = 1 }
		END { exit !found }' "$TMP/h"; then
		ok "$c --help: exit 0, with an example"
	else
		not_ok "$c --help: exit 0, with an example" "exit $rc" "$(tail -4 "$TMP/h")" "$(head -2 "$TMP/err")"
	fi
done
"$VSB" list >"$TMP/l" && grep -q 'irqsave.*kmod' "$TMP/l" &&
	grep -q 'not in user space: user space cannot disable interrupts' "$TMP/l" &&
	ok "list says where irqsave runs and why not in user space" || not_ok "list"
# in the variants' section: kstat ops may share a name (--op irqsave)
n=$(sed -n '/^counter variants/,/^kstat ops/p' "$TMP/l" |
	grep -cE '^  (this-cpu-add|plain-fold|irqsave|cmpxchg-local|cmpxchg-locked|atomic-global|percpu-counter) ')
[ "$n" -eq 7 ] && ok "list names all 7 variants" || not_ok "list names all 7 variants" "$n"
done_testing
