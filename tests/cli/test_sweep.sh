#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `vmstat-bench sweep`: a small real sweep end to end (files, interleaved
# repetitions, --resume, a skipped module point), bad files rejected
# before anything runs, and an interrupted sweep leaving no result.
. "$(dirname "$0")/../lib.sh"

ncpu=$(nproc)
cpus="0"
[ "$ncpu" -ge 2 ] && cpus="0 | 0-1"
cat >"$TMP/s.sweep" <<EOF
# a small sweep
variant cmpxchg-local, atomic-global
cpus $cpus
threshold 32,125
loops 20000
repeat 3

[user]
backend user

[kmod]
backend kmod
EOF
npts=$(( ncpu >= 2 ? 6 : 3 ))	# atomic-global has no threshold: 3 per CPU list

expect_exit 0 "--dry-run checks and lists, runs nothing" "$VSB" sweep "$TMP/s.sweep" --dry-run -o "$TMP/dry"
[ ! -e "$TMP/dry" ] && ok "--dry-run wrote nothing" || not_ok "--dry-run wrote nothing"

"$VSB" sweep "$TMP/s.sweep" -o "$TMP/r" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ] && ok "sweep exits 0" || not_ok "sweep exits 0" "exit $rc" "$(cat "$TMP/err")"
nd=$(grep -c $'^user.*\tdone\t' "$TMP/r/points.txt")
[ "$nd" -eq "$npts" ] && ok "$npts user points done" || not_ok "$npts user points done" "$(cat "$TMP/r/points.txt")"
nrows=$(grep -c '^user' "$TMP/r/sweep.csv")
[ "$nrows" -eq "$npts" ] && ok "sweep.csv: one row per user point" || not_ok "sweep.csv rows" "$nrows"
grep -q '^# cpu_model: ' "$TMP/r/sweep.csv" && grep -q '^point,bench,' "$TMP/r/sweep.csv" &&
	ok "sweep.csv has the metadata header and a point column" || not_ok "sweep.csv header"
if grep -q $'\tskipped\t' "$TMP/r/failed.txt" && grep -q "^kmod" "$TMP/r/failed.txt"; then
	ok "kmod points listed in failed.txt as skipped, with the reason"
else
	skip "kmod points skipped" "this machine has the module: they ran"
fi
id=$(awk -F'\t' '$2 == "done" { print $1; exit }' "$TMP/r/points.txt")
[ -f "$TMP/r/$id.csv" ] && [ -f "$TMP/r/$id.summary.csv" ] && ok "per point: raw and summary CSV" ||
	not_ok "per point: raw and summary CSV" "$id"
# repetitions: 3 per worker, renumbered 0..2
reps=$(grep -v '^#' "$TMP/r/$id.csv" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "rep") c = i; next }
	{ print $c }' | sort -n | uniq -c | awk '{ print $2 "x" $1 }' | tr '\n' ' ')
[ "$reps" = "0x1 1x1 2x1 " ] || [ "$reps" = "0x2 1x2 2x2 " ] && ok "rep numbers 0 1 2, once per worker" ||
	not_ok "rep numbers 0 1 2, once per worker" "$reps"
grep -q '^# sweep_order: 3 interleaved rounds' "$TMP/r/$id.csv" && ok "interleaving recorded in the metadata" ||
	not_ok "interleaving recorded"
ls "$TMP/r" | grep -q 'tmp' && not_ok "no temporary files left" || ok "no temporary files left"
# the checks cover every round, not the first: each round balanced, so
# the point's totals are three rounds' worth and still equal
meta() { sed -n "s/^# $1: //p" "$TMP/r/$id.csv"; }
last=$(meta sanity | sed -n 's/^ok in each of 3 rounds, the last: ok: .*= \([0-9]*\) applied.*/\1/p')
if [ -n "$last" ] && [ "$(meta applied_total)" = $((3 * last)) ] &&
	[ "$(meta counted_total)" = $((3 * last)) ]; then
	ok "sanity and totals cover all 3 rounds ($(meta applied_total) = 3 x $last)"
else
	not_ok "sanity and totals cover all 3 rounds" "$(grep -E '^# (sanity|applied_total|counted_total):' "$TMP/r/$id.csv")"
fi

expect_usage_error "an existing sweep dir needs --resume or --force" "resume" \
	"$VSB" sweep "$TMP/s.sweep" -o "$TMP/r"
rm "$TMP/r/$id.summary.csv"
"$VSB" sweep "$TMP/s.sweep" -o "$TMP/r" --resume >"$TMP/out" 2>&1
grep -q "($((npts - 1)) kept from before)" "$TMP/out" && [ -f "$TMP/r/$id.summary.csv" ] &&
	ok "--resume reran only the missing point" || not_ok "--resume reran only the missing point" "$(cat "$TMP/out")"

# bad files: exit 2, one line, file:line, nothing written
printf 'threshold 32\nbogus 1\n' >"$TMP/b1.sweep"
expect_usage_error "unknown key: file:line" "b1.sweep:2: unknown key 'bogus'" "$VSB" sweep "$TMP/b1.sweep" -o "$TMP/b1"
[ ! -e "$TMP/b1" ] && ok "a bad file creates no output dir" || not_ok "a bad file creates no output dir"
printf 'variant cmpxchg-local\nthreshold 64, 4096\n' >"$TMP/b2.sweep"
expect_usage_error "threshold too big for s8: its line" "b2.sweep:2: .*does not fit" "$VSB" sweep "$TMP/b2.sweep" -o "$TMP/b2"
printf '\x7fELF\x02\x01\x01\x00\x00' >"$TMP/b3.sweep"
expect_usage_error "a binary file" "b3.sweep:1: binary data" "$VSB" sweep "$TMP/b3.sweep"
: >"$TMP/b4.sweep"
expect_usage_error "an empty file" "b4.sweep:1: empty" "$VSB" sweep "$TMP/b4.sweep"
expect_usage_error "a missing file" "nope.sweep" "$VSB" sweep "$TMP/nope.sweep"
expect_usage_error "--repeat 0" "--repeat" "$VSB" sweep "$TMP/s.sweep" --repeat 0
expect_usage_error "no file" "which sweep file" "$VSB" sweep

# SIGINT: stop at the next chunk, write no point, exit 1
printf 'variant cmpxchg-local\nthreshold 8,16,32,64,125\nloops 2000000\nrepeat 50\n' >"$TMP/long.sweep"
"$VSB" sweep "$TMP/long.sweep" -o "$TMP/int" >"$TMP/out" 2>"$TMP/err" &
pid=$!
sleep 1
kill -INT $pid
wait $pid
rc=$?
if [ $rc -eq 1 ] && grep -q interrupted "$TMP/err" && [ -z "$(ls "$TMP/int" 2>/dev/null)" ]; then
	ok "SIGINT: exit 1, nothing written"
else
	not_ok "SIGINT: exit 1, nothing written" "exit $rc" "$(cat "$TMP/err")" "$(ls "$TMP/int" 2>/dev/null | head -3)"
fi

# the sweep files of this feature parse and expand (others have their own tests)
for f in threshold variants batch page-alloc quick; do
	expect_exit 0 "configs/$f.sweep parses (--dry-run)" "$VSB" sweep "$VSB_ROOT/configs/$f.sweep" --dry-run
done
done_testing
