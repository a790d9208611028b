#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `sweep --runs N`: the sweep N times, each in a process of its own, into
# DIR/run-K/, with DIR/runs.txt and run 1's sweep.csv; `compare` of two
# such folders uses every run (and says when runs are too few, or when a
# side is one run); an interrupt stops after the run in progress and
# --resume finishes the series.  Tiny sweeps (--loops 20000, --repeat 3):
# this checks the plumbing, not the statistics
# (tests/unit/lib/judge/test_compare.c),
# so the compares here allow any slowdown (--max-regression 1000).  Two
# of them pin what compare says of repetitions pooled over too few runs
# (and of one run a side), which only --noise-model reps still judges:
# the default leaves such points unjudged (tests/cli/test_compare_auto.sh).
. "$(dirname "$0")/../lib.sh"

cat >"$TMP/tiny.sweep" <<'EOF'
name tiny
bench counter
backend user
variant this-cpu-add, percpu-counter
cpus 0
loops 20000
EOF

"$VSB" sweep "$TMP/tiny.sweep" --runs 2 --repeat 3 -o "$TMP/a" >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc -eq 0 ] && [ -f "$TMP/a/run-1/points.txt" ] && [ -f "$TMP/a/run-2/points.txt" ] &&
	[ "$(grep -c $'\tdone\t0\t' "$TMP/a/runs.txt")" -eq 2 ] && [ -s "$TMP/a/sweep.csv" ] &&
	[ ! -e "$TMP/a/points.txt" ]; then
	ok "--runs 2: run-1/ and run-2/ sweeps, runs.txt says both done, sweep.csv for plot"
else
	not_ok "--runs 2: run-1/ and run-2/, runs.txt, sweep.csv" "exit $rc" "$(cat "$TMP/err")" \
		"$(ls -R "$TMP/a" | head -20)"
fi
grep -q 'run 2 of 2 (.*s left)' "$TMP/err" && ok "progress: run K of N with the time left" ||
	not_ok "progress: run K of N" "$(cat "$TMP/err")"
cmp -s "$TMP/a/sweep.csv" "$TMP/a/run-1/sweep.csv" && ok "DIR/sweep.csv is run 1's" ||
	not_ok "DIR/sweep.csv is run 1's"
n1=$(grep -c $'\tdone\t' "$TMP/a/run-1/points.txt")
n2=$(grep -c $'\tdone\t' "$TMP/a/run-2/points.txt")
[ "$n1" -eq 2 ] && [ "$n2" -eq 2 ] && ok "each run did every point" ||
	not_ok "each run did every point" "$n1 $n2"
# separate processes: run 2 used the next shuffle seed
grep -q 'shuffle' "$TMP/a/run-1/meta.txt" &&
	[ "$(grep shuffle "$TMP/a/run-1/meta.txt")" != "$(grep shuffle "$TMP/a/run-2/meta.txt")" ] &&
	ok "run K's shuffle seed is the seed + K - 1" ||
	not_ok "run K's shuffle seed moves on" "$(grep -h shuffle "$TMP/a"/run-*/meta.txt)"

"$VSB" sweep "$TMP/tiny.sweep" --runs 2 --repeat 3 -o "$TMP/b" >/dev/null 2>&1
expect_exit 0 "compare of two --runs folders" "$VSB" compare --noise-model reps "$TMP/a" "$TMP/b" --max-regression 1000 -o "$TMP/cmp"
if grep -q 'as few as 2 runs on a side .*needs 5 a side' "$TMP/err" &&
	[ "$(grep -c 'as few as' "$TMP/err")" -eq 1 ] &&
	grep -q 'as few as 2 runs' "$TMP/cmp/summary.md"; then
	ok "2 runs a side: one warning (stderr and summary.md): pooled, floor widened"
else
	not_ok "2 runs a side: the warning" "$(cat "$TMP/err")"
fi
# runs_base, runs_new and test, found by name (columns are appended)
awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	{ if ($c["runs_base"] != 2 || $c["runs_new"] != 2 || $c["test"] != "pooled") bad = 1; n++ }
	END { exit !(n == 2 && !bad) }' "$TMP/cmp/compare.csv" &&
	ok "compare.csv: 2 points, runs_base 2, runs_new 2, test pooled" ||
	not_ok "compare.csv runs columns" "$(cat "$TMP/cmp/compare.csv")"

# two boots' --runs folders in one folder: one side of 4 runs
mkdir -p "$TMP/boots"
cp -r "$TMP/a" "$TMP/boots/boot1" && cp -r "$TMP/b" "$TMP/boots/boot2"
"$VSB" compare "$TMP/boots" "$TMP/a" --max-regression 1000 -o "$TMP/cmpb" >"$TMP/out" 2>"$TMP/err"
awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	{ if ($c["runs_base"] != 4 || $c["runs_new"] != 2) bad = 1; n++ }
	END { exit !(n == 2 && !bad) }' "$TMP/cmpb/compare.csv" &&
	ok "a folder of two boots' --runs folders: 4 runs a side" ||
	not_ok "boots folder: 4 runs" "$(cat "$TMP/err")" "$(cat "$TMP/cmpb/compare.csv")"

# one run a side: between-run noise unknown, and how to get it
expect_exit 0 "compare of one run against one run" \
	"$VSB" compare --noise-model reps "$TMP/a/run-1" "$TMP/b/run-1" --max-regression 1000 -o "$TMP/cmp1"
grep -q 'between-run noise unknown: one run a side.*sweep --runs 5' "$TMP/err" &&
	[ "$(grep -c between-run "$TMP/err")" -eq 1 ] && grep -q "between-run noise unknown" "$TMP/cmp1/summary.md" &&
	ok "one run a side: one note line (stderr, summary.md) naming sweep --runs" ||
	not_ok "one run a side: the note" "$(cat "$TMP/err")"

if command -v gnuplot >/dev/null; then
	expect_exit 0 "plot of a --runs folder (run 1's sweep.csv)" "$VSB" plot "$TMP/a" -o "$TMP/plot"
	[ -s "$TMP/plot/variants.png" ] && ok "variants chart drawn" || not_ok "variants chart drawn"
else
	skip "plot of a --runs folder" "gnuplot not installed"
fi

# refusals, before anything runs
expect_usage_error "--runs 0" "runs" "$VSB" sweep "$TMP/tiny.sweep" --runs 0 -o "$TMP/z"
[ ! -e "$TMP/z" ] && ok "nothing written for a refused --runs" || not_ok "nothing written"
expect_usage_error "a --runs folder again needs --resume or --force" "resume" \
	"$VSB" sweep "$TMP/tiny.sweep" --runs 2 -o "$TMP/a"
expect_usage_error "--runs into a one-run sweep's folder" "without --runs" \
	"$VSB" sweep "$TMP/tiny.sweep" --runs 2 -o "$TMP/a/run-1"
"$VSB" sweep "$TMP/tiny.sweep" --runs 3 --dry-run -o "$TMP/dry" >"$TMP/out" 2>&1
grep -q '^# 3 runs, each in its own process' "$TMP/out" && [ ! -e "$TMP/dry" ] &&
	ok "--dry-run lists the points and the runs, writes nothing" ||
	not_ok "--dry-run with --runs" "$(cat "$TMP/out")"

# SIGTERM to the parent: the run in progress stops, no later run starts
printf 'variant cmpxchg-local\nthreshold 8,32\nloops 500000\nrepeat 30\n' >"$TMP/long.sweep"
"$VSB" sweep "$TMP/long.sweep" --runs 3 -o "$TMP/int" >"$TMP/out" 2>"$TMP/err" &
pid=$!
for _ in $(seq 600); do
	ls "$TMP/int/run-1/"*.csv.partial >/dev/null 2>&1 && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.02
done
kill -TERM $pid
wait $pid
rc=$?
if [ $rc -eq 1 ] && grep -q 'interrupted after 1 of 3 runs; --resume continues' "$TMP/err" &&
	grep -q $'^run-1\tinterrupted\t1' "$TMP/int/runs.txt" &&
	[ "$(grep -c $'\tnot-run\t' "$TMP/int/runs.txt")" -eq 2 ] && [ ! -e "$TMP/int/run-2" ] &&
	ls "$TMP/int/run-1/"*.csv.partial >/dev/null 2>&1; then
	ok "SIGTERM: exit 1, run 1 keeps its partials, runs 2 and 3 not started"
else
	not_ok "SIGTERM: stops cleanly" "exit $rc" "$(cat "$TMP/err")" "$(cat "$TMP/int/runs.txt" 2>&1)"
fi
expect_usage_error "an interrupted --runs folder needs --resume or --force" "resume" \
	"$VSB" sweep "$TMP/long.sweep" --runs 3 -o "$TMP/int"
"$VSB" sweep "$TMP/long.sweep" --runs 3 -o "$TMP/int" --resume --repeat 3 >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c $'\tdone\t0\t' "$TMP/int/runs.txt")" -eq 3 ] &&
	ok "--resume finishes the series (every run done)" ||
	not_ok "--resume finishes the series" "exit $rc" "$(cat "$TMP/err")" "$(cat "$TMP/int/runs.txt")"
done_testing
