#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `vmstat-bench calibrate`: a short run prints the floor ratio and the
# timer-cost lines with real numbers, each verdict agrees with the numbers
# it judges, and the exit status with the verdicts (0 both ok, 3 either too
# high).  How high the ratio is on this machine is a figure, not a test.
# Bad input: exit 2, one line naming the option and the value, nothing
# measured.
. "$(dirname "$0")/../lib.sh"

num='[0-9]+(\.[0-9]+)?'

"$VSB" calibrate --repeat 3 >"$TMP/cal" 2>"$TMP/err"
rc=$?
if [ $rc -eq 0 ] || [ $rc -eq 3 ]; then
	ok "calibrate --repeat 3 exits 0 or 3 ($rc)"
else
	not_ok "calibrate --repeat 3 exits 0 or 3" "exit $rc" "$(head -3 "$TMP/err")"
fi
first=$(taskset -pc $$ 2>/dev/null | sed 's/.*: //; s/[-,].*//')
grep -qE "^calibrate on CPU ${first:-[0-9]+}, TSC $num GHz, 1000000 ops x 3 repetitions" "$TMP/cal" &&
	ok "header: the first allowed CPU, default loops, --repeat 3" ||
	not_ok "header line" "$(head -1 "$TMP/cal")"

# "  bare asm add loop  4.305 tsc/op  1.658 ns/op"
bare=$(awk '/^  bare asm add loop / {print $5}' "$TMP/cal")
var=$(awk '/^  this-cpu-add variant / {print $3}' "$TMP/cal")
var_ns=$(awk '/^  this-cpu-add variant / {print $5}' "$TMP/cal")
# "  ratio  1.011  (limit 1.50): ok"
ratio_line=$(grep -E "^  ratio +$num +\(limit 1\.50\): (ok|TOO HIGH)$" "$TMP/cal")
ratio=$(awk '{print $2}' <<<"$ratio_line")
ratio_verdict=${ratio_line##*: }
if [ -n "$ratio_line" ] && awk -v b="$bare" -v v="$var" -v r="$ratio" \
	'BEGIN { exit !(b > 0 && v > 0 && r > 0 && (r - v / b) ^ 2 < (0.01 * r) ^ 2) }'; then
	ok "ratio line: positive, and the variant's tsc/op over the bare loop's ($var / $bare = $ratio)"
else
	not_ok "ratio line" "bare '$bare' variant '$var' ratio line '$ratio_line'"
fi
want=$(awk -v r="$ratio" 'BEGIN { print (r <= 1.5 ? "ok" : "TOO HIGH") }')
[ -n "$ratio_line" ] && [ "$ratio_verdict" = "$want" ] &&
	ok "ratio verdict '$ratio_verdict' matches $ratio against the 1.50 limit" ||
	not_ok "ratio verdict matches its number" "ratio $ratio verdict '$ratio_verdict', want '$want'"

# "  rdtscp read  22.49 ns  = 0.0027% of a 1000000-op sample"
rd=$(awk '/^  rdtscp read / {print $3}' "$TMP/cal")
cg=$(awk '/^  clock_gettime read / {print $3}' "$TMP/cal")
rd_pct=$(sed -nE 's/^  rdtscp read .*= ([0-9.]+)% of a 1000000-op sample$/\1/p' "$TMP/cal")
cg_pct=$(sed -nE 's/^  clock_gettime read .*= ([0-9.]+)% of a 1000000-op sample$/\1/p' "$TMP/cal")
# "  timer reads per sample: 2 rdtscp + 2 clock_gettime = 0.0055% (limit 1%): ok"
timer_line=$(grep -E "^  timer reads per sample: 2 rdtscp \+ 2 clock_gettime = $num% \(limit 1%\): (ok|TOO HIGH)$" "$TMP/cal")
pct=$(sed -E 's/.* = ([0-9.]+)%.*/\1/' <<<"$timer_line")
timer_verdict=${timer_line##*: }
# each share is 2 reads over one sample: 2 * read_ns / (ns/op * loops)
if [ -n "$timer_line" ] && awk -v rd="$rd" -v cg="$cg" -v rp="$rd_pct" -v cp="$cg_pct" \
	-v p="$pct" -v ns="$var_ns" 'BEGIN {
	want = 100 * 2 * (rd + cg) / (ns * 1000000)
	exit !(rd > 0 && cg > 0 && p > 0 && (p - want) ^ 2 < (0.02 * want + 0.0002) ^ 2 &&
	       (p - rp - cp) ^ 2 <= 0.0002 ^ 2) }'; then
	ok "timer line: positive reads ($rd, $cg ns), $pct% = their share of a sample"
else
	not_ok "timer line" "rdtscp '$rd' ns ($rd_pct%), clock_gettime '$cg' ns ($cg_pct%)," \
		"variant '$var_ns' ns/op, line '$timer_line'"
fi
want=$(awk -v p="$pct" 'BEGIN { print (p < 1 ? "ok" : "TOO HIGH") }')
[ -n "$timer_line" ] && [ "$timer_verdict" = "$want" ] &&
	ok "timer verdict '$timer_verdict' matches $pct% against the 1% limit" ||
	not_ok "timer verdict matches its number" "$pct% verdict '$timer_verdict', want '$want'"
want=$([ "$ratio_verdict" = ok ] && [ "$timer_verdict" = ok ] && echo 0 || echo 3)
[ "$rc" -eq "$want" ] && ok "exit $rc follows the verdicts" ||
	not_ok "exit status follows the verdicts" "exit $rc, verdicts '$ratio_verdict' '$timer_verdict'"

if [ "$(nproc)" -ge 2 ]; then
	"$VSB" calibrate --cpu 1 --repeat 1 --loops 1000 >"$TMP/cal1" 2>"$TMP/err"
	rc=$?
	{ [ $rc -eq 0 ] || [ $rc -eq 3 ]; } && grep -q '^calibrate on CPU 1,' "$TMP/cal1" &&
		ok "--cpu 1 runs on CPU 1" || not_ok "--cpu 1 runs on CPU 1" "exit $rc" "$(head -2 "$TMP/cal1" "$TMP/err")"
else
	skip "--cpu 1 runs on CPU 1" "needs 2 CPUs"
fi

bad() {		# bad DESCRIPTION PATTERN ARGS...: exit 2, one line, nothing measured
	local d=$1 pat=$2; shift 2
	expect_usage_error "$d" "$pat" "$VSB" calibrate "$@"
	[ -s "$TMP/out" ] && not_ok "$d: nothing measured" "$(head -2 "$TMP/out")"
}
bad "loops below 1000" "^vmstat-bench: --loops: 999 is out of range \(1000\.\.1000000000\)$" --loops 999
bad "loops beyond 10^9" "--loops: 1000000001 is out of range" --loops 1000000001
bad "loops not a number" "--loops: '1e6' is not an integer" --loops 1e6
bad "repeat 0" "^vmstat-bench: --repeat: 0 is out of range \(1\.\.101\)$" --repeat 0
bad "repeat 102" "--repeat: 102 is out of range \(1\.\.101\)" --repeat 102
bad "repeat not a number" "--repeat: 'three' is not an integer" --repeat three
bad "cpu range '1-'" "--cpu: '1-' is not a CPU number" --cpu 1-
bad "cpu list '0,1'" "--cpu: '0,1' is not a CPU number" --cpu 0,1
bad "negative cpu" "--cpu: -1 is out of range \(0\.\.4095\)" --cpu -1
bad "offline cpu" "--cpu: CPU 4000 is not online" --cpu 4000
bad "option without its value" "--repeat needs a value" --repeat
bad "unknown option" "calibrate: unknown option '--frobnicate'" --frobnicate 5
bad "stray argument" "calibrate: unexpected argument 'extra'" extra
bad "stray arguments, all named" "calibrate: unexpected arguments 'foo' 'bar'" --repeat 3 foo bar
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then
	expect_usage_error "cpu outside the allowed set" "--cpu: CPU 1 is not in this process's allowed CPUs" \
		taskset -c 0 "$VSB" calibrate --cpu 1
else
	skip "cpu outside the allowed set" "needs 2 CPUs and taskset"
fi
done_testing
