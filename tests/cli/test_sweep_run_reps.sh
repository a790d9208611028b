#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `sweep`'s short repetitions, many to a run (--run-min-ms, sweep.h): in
# a sweep spread over worker processes, a point whose first repetition
# lasted under half of --run-min-ms runs each wanted repetition as many
# times as fit in it (at most 5), so each worker's run holds several; a
# long point, --run-min-ms 0 and one process run as asked.  The factor
# is worker 1's and travels in the partials: an interrupted sweep
# resumes with it under the same --run-min-ms (under another it starts
# over), and a partial claiming a factor no sweep could have chosen is
# not trusted.
. "$(dirname "$0")/../lib.sh"

# rows_of FILE: the rep numbers of FILE's rows as "0x1 1x1 ..." (number x times)
rows_of() {
	grep -v '^#' "$1" 2>/dev/null | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "rep") c = i; next }
		{ print $c }' | sort -n | uniq -c | awk '{ printf "%s ", $2 "x" $1 }'
}
want_rows() { seq 0 $(($1 - 1)) | awk '{ printf "%s ", $1 "x1" }'; }
meta_of() { sed -n "s/^# $2: //p" "$1" 2>/dev/null; }
# the factor --run-min-ms 5 gives a first repetition of NS ns
factor_of() { awk -v ns="$1" 'BEGIN { f = int(5e6 / ns); print (f < 1 ? 1 : (f > 5 ? 5 : f)) }'; }
# first_ns FILE: the wall time of FILE's repetition 0
first_ns() {
	grep -v '^#' "$1" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["rep"] == 0 { print $c["ns"]; exit }'
}

# 100k updates: about 0.1 ms a repetition, far under 2.5 ms anywhere;
# 10M with a fold every 32: about 10 ms, far over it
cat >"$TMP/s.sweep" <<'EOF'
cpus 0
repeat 10
disturbed keep

[short]
variant this-cpu-add
loops 100000

[long]
variant plain-fold
threshold 32
loops 10000000
EOF
"$VSB" sweep "$TMP/s.sweep" -o "$TMP/d" >"$TMP/out" 2>"$TMP/err"
rc=$?
short=$(ls "$TMP/d"/short*.csv 2>/dev/null | grep -v summary | head -1)
long=$(ls "$TMP/d"/long*.csv 2>/dev/null | grep -v summary | head -1)
if [ $rc -eq 0 ] && [ -n "$short" ] && [ -n "$long" ] &&
	grep -q "^1 point(s) with repetitions this short ran each as many times as fit in 5 ms" "$TMP/out"; then
	ok "a default sweep of a short and a long point: exit 0, the short one said"
else
	not_ok "a default sweep of a short and a long point" "exit $rc" "$(cat "$TMP/out" "$TMP/err")"
fi
[ "$(rows_of "$short")" = "$(want_rows 50)" ] &&
	meta_of "$short" sweep_run_reps | grep -q '^5 (each of the 10 repetitions wanted ran 5 times: the first lasted 0\.[0-9]* ms, a run should span 5 ms)$' &&
	ok "the short point: 50 repetitions, 0..49 each once, and its sweep_run_reps line" ||
	not_ok "the short point: 50 repetitions" "$(rows_of "$short")" "$(meta_of "$short" sweep_run_reps)"
[ "$(meta_of "$short" sweep_procs)" = "10 (repetitions by worker process: 0-4,5-9,10-14,15-19,20-24,25-29,30-34,35-39,40-44,45-49)" ] &&
	meta_of "$short" sweep_order | grep -q '^50 repetitions in interleaved rounds of up to 5 in a row (own warm-up each)' &&
	meta_of "$short" sanity | grep -q '^ok in each of 11 rounds, the last: ok' &&
	ok "each of its 10 worker processes ran 5 of them in a row, one run each to compare; 11 rounds checked (worker 1's first repetition alone)" ||
	not_ok "each worker ran 5" "$(meta_of "$short" sweep_procs)" "$(meta_of "$short" sweep_order)" \
		"$(meta_of "$short" sanity)"
[ "$(rows_of "$long")" = "$(want_rows 10)" ] && [ -z "$(meta_of "$long" sweep_run_reps)" ] &&
	meta_of "$long" sweep_procs | grep -q '^10 (repetitions by worker process: 0,1,2,3,4,5,6,7,8,9)$' &&
	ok "the long point: its 10 repetitions as asked, one a worker" ||
	not_ok "the long point as asked" "$(rows_of "$long")" "$(meta_of "$long" sweep_run_reps)"
# the factor is what the first repetition's time gives, for both points
fs=$(factor_of "$(first_ns "$short")") fl=$(factor_of "$(first_ns "$long")")
[ "$fs" = 5 ] && [ "$fl" = 1 ] && ok "the factors follow the first repetitions' times (5 and 1)" ||
	not_ok "the factors follow the first repetitions' times" "short $fs, long $fl"

"$VSB" sweep "$TMP/s.sweep" -o "$TMP/d" --resume >"$TMP/out" 2>&1
grep -q '(2 kept from before)' "$TMP/out" && [ "$(rows_of "$short")" = "$(want_rows 50)" ] &&
	ok "--resume keeps both finished points, the short one's 50 repetitions too" ||
	not_ok "--resume keeps the finished points" "$(cat "$TMP/out")"

for how in "--run-min-ms 0" "--procs 1"; do
	rm -rf "$TMP/a"
	"$VSB" sweep "$TMP/s.sweep" -o "$TMP/a" $how >"$TMP/out" 2>&1
	f=$(ls "$TMP/a"/short*.csv 2>/dev/null | grep -v summary | head -1)
	[ -n "$f" ] && [ "$(rows_of "$f")" = "$(want_rows 10)" ] && [ -z "$(meta_of "$f" sweep_run_reps)" ] &&
		! grep -q 'this short' "$TMP/out" &&
		ok "$how: the short point's 10 repetitions as asked" ||
		not_ok "$how: as asked" "$(rows_of "$f")" "$(cat "$TMP/out")"
done

# compare sees 10 runs a side, each the median of its 5 (--keep-disturbed:
# the guests of make test's other lane must not take runs away here)
"$VSB" sweep "$TMP/s.sweep" -o "$TMP/d2" >/dev/null 2>&1
"$VSB" compare "$TMP/d" "$TMP/d2" --keep-disturbed -o "$TMP/cmp" >"$TMP/out" 2>&1
grep -q 'judged 2 of 2 points: 2 by runs' "$TMP/out" &&
	ok "compare judges both points by their 10 runs a side" ||
	not_ok "compare judges both points by runs" "$(cat "$TMP/out")"

expect_usage_error "--run-min-ms past 1000" "run-min-ms" "$VSB" sweep "$TMP/s.sweep" -o "$TMP/x" --run-min-ms 1001
expect_usage_error "--run-min-ms negative" "run-min-ms" "$VSB" sweep "$TMP/s.sweep" -o "$TMP/x" --run-min-ms -1
expect_usage_error "--run-min-ms not a number" "run-min-ms" "$VSB" sweep "$TMP/s.sweep" -o "$TMP/x" --run-min-ms 5ms
[ ! -e "$TMP/x" ] && ok "a bad --run-min-ms made no folder" || not_ok "a bad --run-min-ms made no folder"

# interrupted with the factor chosen: --resume goes on with it
# (--procs 2: a worker runs long enough for the interrupt to land in one,
# not in the moment between two)
R=20
printf 'variant cmpxchg-local\nthreshold 8,32\nloops 100000\nrepeat %d\ndisturbed keep\n' $R >"$TMP/long.sweep"
interrupt_sweep 2 "$TMP/int" "$VSB" sweep "$TMP/long.sweep" -o "$TMP/int" --procs 2 >"$TMP/out" 2>"$TMP/err"
rc=$?
pf=$(ls "$TMP/int/"*.csv.partial 2>/dev/null | head -1)
pf2=$(ls "$TMP/int/"*.csv.partial 2>/dev/null | sed -n 2p)
# its factor as chosen: 5 for a repetition this short, fewer when the guest
# lane's load made the first one last longer
read -r k n < <(sed -n 's/^# sweep_partial_rounds: \([0-9]*\) of \([0-9]*\)$/\1 \2/p' "$pf" 2>/dev/null)
F=$(( ${n:-0} / R ))
if [ $rc -eq 1 ] && [ -n "$k" ] && [ $((F * R)) -eq "${n:-0}" ] && [ $F -ge 1 ] && [ $F -le 5 ] &&
   [ -n "$pf2" ]; then
	ok "interrupted: the partials want $n repetitions ($F x $R), $k done"
else
	not_ok "interrupted with the factor in the partials" "exit $rc" "$(grep sweep_partial_rounds "$pf" "$pf2" 2>/dev/null)"
fi
id=$(basename "${pf:-none}" .csv.partial)
id2=$(basename "${pf2:-none}" .csv.partial)
cp -a "$TMP/int" "$TMP/int0"	# resumed below under other options
# the other partial claims 7 x R: more than a sweep chooses (whatever
# factor it had: under the guest lane's load a point's first repetition
# can last long enough for 1)
[ -n "$pf2" ] && sed -i "s/^# sweep_partial_rounds: \([0-9]*\) of [0-9]*\$/# sweep_partial_rounds: \1 of $((7 * R))/" "$pf2"
"$VSB" sweep "$TMP/long.sweep" -o "$TMP/int" --resume --procs 2 >"$TMP/out" 2>"$TMP/err"
rc=$?
f=$TMP/int/$id.csv
if [ $F -gt 1 ]; then
	meta_of "$f" sweep_run_reps | grep -q "^$F (each of the $R repetitions wanted ran $F times"
else
	[ -z "$(meta_of "$f" sweep_run_reps)" ]
fi
factor_ok=$?
[ $rc -eq 0 ] && [ $F -ge 1 ] && [ "$(rows_of "$f")" = "$(want_rows $((F * R)))" ] && [ $factor_ok -eq 0 ] &&
	grep -q "^# sweep_resumed: repetitions 0\.\.$((k - 1)) from an interrupted run" "$f" &&
	ok "--resume continues with the factor: repetitions 0..$((F * R - 1)) each once" ||
	not_ok "--resume continues with the factor" "exit $rc, $(rows_of "$f")" "$(cat "$TMP/err")"
# starting over, it chooses its factor anew from its first repetition's
# time (under the guest lane's load that can be under 5): the rows are
# whatever factor its sweep_run_reps line says, each once
f2=$(meta_of "$TMP/int/$id2.csv" sweep_run_reps | sed -n 's/^\([0-9]*\) (each of.*/\1/p')
f2=${f2:-1}
grep -q "warning: $id2: not continued from its partial file ([^:]*: it wants $((7 * R)) repetitions, not the $R this run wants (or a short point's 5 times as many at most)): it starts over" "$TMP/err" &&
	[ "$f2" -le 5 ] && [ "$(rows_of "$TMP/int/$id2.csv")" = "$(want_rows $((f2 * R)))" ] &&
	! grep -q '^# sweep_resumed' "$TMP/int/$id2.csv" &&
	ok "a partial claiming 7 x $R is not trusted: it starts over, and chooses again ($f2 x $R)" ||
	not_ok "a partial claiming 7 x R is not trusted" "factor '$f2'" "$(rows_of "$TMP/int/$id2.csv")" \
		"$(cat "$TMP/err")"

# resumed with --run-min-ms 0, which runs every repetition once: a
# factor chosen under --run-min-ms 5 is not this run's to keep, so each
# point starts over, as asked, rather than go on with the partial's
"$VSB" sweep "$TMP/long.sweep" -o "$TMP/int0" --resume --procs 2 --run-min-ms 0 \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
f=$TMP/int0/$id.csv
[ $rc -eq 0 ] && [ "$(rows_of "$f")" = "$(want_rows $R)" ] &&
	[ -z "$(meta_of "$f" sweep_run_reps)" ] && ! grep -q '^# sweep_resumed' "$f" &&
	grep -q "warning: $id: not continued from its partial file ([^:]*: it was made with other options or another --repeat (or --procs, --run-min-ms)): it starts over" "$TMP/err" &&
	ok "--resume --run-min-ms 0 does not keep the partial's factor: $R repetitions, once each" ||
	not_ok "--resume --run-min-ms 0 does not keep the partial's factor" "exit $rc, $(rows_of "$f")" \
		"$(cat "$TMP/err")"
done_testing
