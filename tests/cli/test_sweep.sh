#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `vmstat-bench sweep`: a small real sweep end to end (files, interleaved
# repetitions, --resume, a skipped module point, a failing point, an
# ncpus axis beyond the machine, the progress line on a terminal), bad
# files rejected before anything runs, and an interrupted sweep that
# --resume continues from its partial points.
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
# every round timed once: the totals below are 3 rounds' worth
disturbed keep

[user]
backend user

[kmod]
backend kmod
EOF
npts=$(( ncpu >= 2 ? 6 : 3 ))	# atomic-global has no threshold: 3 per CPU list

expect_exit 0 "--dry-run checks and lists, runs nothing" "$VSB" sweep "$TMP/s.sweep" --dry-run -o "$TMP/dry"
[ ! -e "$TMP/dry" ] && ok "--dry-run wrote nothing" || not_ok "--dry-run wrote nothing"

# --run-min-ms 0: every repetition as asked, so the rounds can be counted
# (short repetitions many to a run: below)
"$VSB" sweep "$TMP/s.sweep" -o "$TMP/r" --run-min-ms 0 >"$TMP/out" 2>"$TMP/err"
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
mkdir "$TMP/adir"
expect_usage_error "a directory: says so (not 'empty sweep file')" "adir: is a directory" "$VSB" sweep "$TMP/adir"
printf 'loops 1000\nthreshold 32\nvariant cmpxchg-local\nfold remote\n' >"$TMP/b5.sweep"
expect_usage_error "a refused combination names the line of the key in the message" \
	"b5.sweep:4: .*--fold remote: unsafe" "$VSB" sweep "$TMP/b5.sweep" -o "$TMP/b5"
expect_usage_error "--repeat 0" "--repeat" "$VSB" sweep "$TMP/s.sweep" --repeat 0
expect_usage_error "no file" "which sweep file" "$VSB" sweep

# a failing point is recorded and the rest goes on: a 1024 GiB mapping
# fails (ENOMEM) where the kernel refuses to commit more than RAM + swap
# (vm.overcommit_memory 0 or 2), while the 4 MiB point runs
printf 'bench mmap\ncpus 0\nsize 4M,1024G\nrepeat 2\n' >"$TMP/fail.sweep"
memkb=$(awk '/^(MemTotal|SwapTotal):/ { s += $2 } END { print s }' /proc/meminfo)
can_fail=0
[ "$(cat /proc/sys/vm/overcommit_memory)" != 1 ] && [ "$memkb" -lt $((1 << 30)) ] && can_fail=1
if [ $can_fail -eq 1 ]; then
	"$VSB" sweep "$TMP/fail.sweep" -o "$TMP/fail" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	bid=$(awk -F'\t' '$3 == "size=1024G" { print $1 }' "$TMP/fail/points.txt" 2>/dev/null)
	gid=$(awk -F'\t' '$3 == "size=4M" { print $1 }' "$TMP/fail/points.txt" 2>/dev/null)
	if [ $rc -eq 1 ] && [ -n "$bid" ] && [ -n "$gid" ] &&
		grep -q "^$bid"$'\tfailed\t1\t'".*mmap of 1024 GiB failed: Cannot allocate memory" "$TMP/fail/failed.txt" &&
		grep -q "^$gid"$'\tdone\t' "$TMP/fail/points.txt" &&
		[ "$(grep -c "^$bid: failed: .*Cannot allocate memory" <(sed 's/^vmstat-bench: //' "$TMP/err"))" -eq 1 ]; then
		ok "a failing point: exit 1, in failed.txt with its reason, said once on stderr"
	else
		not_ok "a failing point: exit 1, in failed.txt with its reason, said once on stderr" "exit $rc" \
			"$(cat "$TMP/err")" "$(cat "$TMP/fail/failed.txt" 2>/dev/null)"
	fi
	if [ -s "$TMP/fail/$gid.csv" ] && [ -s "$TMP/fail/$gid.summary.csv" ] &&
		[ ! -e "$TMP/fail/$bid.csv" ] && [ ! -e "$TMP/fail/$bid.summary.csv" ] &&
		[ "$(grep -c "^$gid," "$TMP/fail/sweep.csv")" -eq 1 ] &&
		! grep -q "^$bid," "$TMP/fail/sweep.csv" && ! ls "$TMP/fail" | grep -q 'partial\|tmp'; then
		ok "... and the other point has its csv, summary and sweep.csv row; the failed one nothing"
	else
		not_ok "... and the other point has its csv, summary and sweep.csv row" "$(ls "$TMP/fail")"
	fi
else
	skip "a failing point is recorded, the sweep goes on" "a 1024 GiB mmap may succeed here (overcommit 1 or >= 1 TiB RAM + swap)"
	skip "... and the other point has its results" "as above"
fi

# on a terminal: the progress line with ETA, cleared before any message
# (the failing point's error, a warning), so no message continues it
if ! command -v script >/dev/null || ! script -qc true /dev/null >/dev/null 2>&1; then
	skip "progress line on a terminal" "no working util-linux script(1)"
	skip "messages start their own line under the progress line" "no working util-linux script(1)"
else
	sweep=$TMP/fail.sweep
	[ $can_fail -eq 1 ] || sweep=$TMP/s.sweep
	script -qc "'$VSB' sweep '$sweep' -o '$TMP/tty'" /dev/null >"$TMP/tty.out" 2>&1
	if grep -aqE 'ETA [0-9]+m[0-9]{2}s' "$TMP/tty.out"; then
		ok "on a terminal: a progress line with ETA"
	else
		not_ok "on a terminal: a progress line with ETA" "$(head -c 600 "$TMP/tty.out" | cat -v)"
	fi
	# the progress line is redrawn with \r, so split there too
	if tr '\r' '\n' <"$TMP/tty.out" | grep -aq 'ETA [0-9]*m[0-9]*svmstat-bench:'; then
		not_ok "messages start their own line under the progress line" \
			"$(tr '\r' '\n' <"$TMP/tty.out" | grep -a 'svmstat-bench:' | head -2 | cat -v)"
	elif [ $can_fail -eq 1 ] && ! grep -aq 'vmstat-bench: .*failed: ' "$TMP/tty.out"; then
		not_ok "messages start their own line under the progress line" "the failing point said nothing"
	else
		ok "messages start their own line under the progress line"
	fi
fi

# an ncpus axis beyond the machine: those points are left out and
# counted, never failed; 'all' is every online CPU
online=$(getconf _NPROCESSORS_ONLN)
drop=0
for n in 1 2 4; do [ "$n" -gt "$online" ] && drop=$((drop + 1)); done
printf 'variant cmpxchg-local\nncpus 1,2,4,all\nloops 20000\nrepeat 1\n' >"$TMP/nc.sweep"
"$VSB" sweep "$TMP/nc.sweep" --dry-run >"$TMP/out" 2>"$TMP/err"
if grep -q "^# $((4 - drop)) points, $drop left out (more CPUs than online)" "$TMP/out"; then
	ok "ncpus 1,2,4,all on $online CPUs: --dry-run lists $((4 - drop)), $drop left out"
else
	not_ok "ncpus 1,2,4,all: --dry-run counts" "$(cat "$TMP/out" "$TMP/err")"
fi
"$VSB" sweep "$TMP/nc.sweep" -o "$TMP/nc" >"$TMP/out" 2>"$TMP/err"
rc=$?
np=$(grep -vc '^#' "$TMP/nc/points.txt")
nd=$(grep -c $'\tdone\tncpus=' "$TMP/nc/points.txt")
if [ $rc -eq 0 ] && [ "$np" -eq $((4 - drop)) ] && [ "$nd" -eq "$np" ] &&
	grep -q $'\tncpus=all$' "$TMP/nc/points.txt" &&
	{ [ "$online" -ge 4 ] || ! grep -q 'ncpus=4' "$TMP/nc/points.txt"; } &&
	grep -q "$((4 - drop)) done .*; $drop left out (more CPUs than online)" "$TMP/out" &&
	grep -qx "dropped_points: $drop (more CPUs than online)" "$TMP/nc/meta.txt"; then
	ok "ncpus axis: $np points done, $drop left out (summary line, meta.txt), none failed"
else
	not_ok "ncpus axis: points beyond the CPUs left out and counted" "exit $rc" \
		"$(cat "$TMP/out" "$TMP/err" "$TMP/nc/points.txt")"
fi

# SIGINT: a sweep keeps each unfinished point's repetitions so far in
# <id>.csv.partial (rewritten after every round), writes no result of a
# point that did not finish, and --resume continues from there.  The
# interrupt comes once a partial file exists, i.e. after the first round.
R=30
# disturbed keep: every round timed once, so the totals are R rounds' worth
printf 'variant cmpxchg-local\nthreshold 8,32\nloops 500000\nrepeat %d\ndisturbed keep\n' $R >"$TMP/long.sweep"
# --procs 2: each worker runs long enough (15 rounds) for the interrupt to
# land in one, not in the moment between two of them
interrupt_sweep 1 "$TMP/int" "$VSB" sweep "$TMP/long.sweep" -o "$TMP/int" --procs 2 --run-min-ms 0 \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
pf=$(ls "$TMP/int/"*.csv.partial 2>/dev/null | head -1)
if [ $rc -eq 1 ] && grep -q 'interrupted in round .*--resume continues' "$TMP/err" && [ -n "$pf" ] &&
	[ -z "$(ls "$TMP/int" | grep -v '\.csv\.partial$' | grep -vx points.txt)" ] &&
	[ "$(grep -vc '^#' "$TMP/int/points.txt")" -eq 2 ] &&
	[ "$(grep -c $'\tpartial\t' "$TMP/int/points.txt")" -eq 2 ]; then
	ok "SIGINT: exit 1, no point's result written; partials and points.txt ('partial') kept"
else
	not_ok "SIGINT: exit 1, no point's result written; partials kept" "exit $rc" "$(cat "$TMP/err")" \
		"$(ls "$TMP/int" 2>/dev/null | head -5)"
fi
id=$(basename "${pf:-none}" .csv.partial)
k=$(sed -n "s/^# sweep_partial_rounds: \([0-9]*\) of $R\$/\1/p" "$pf" 2>/dev/null)
cp "$pf" "$TMP/kept.partial" 2>/dev/null
# the other point's partial, edited: it no longer reads back to itself
pf2=$(ls "$TMP/int/"*.csv.partial 2>/dev/null | sed -n 2p)
id2=$(basename "${pf2:-none}" .csv.partial)
[ -n "$pf2" ] && sed -i 's/^# applied_total: \([0-9]\)/# applied_total: 9\1/' "$pf2"
expect_usage_error "an interrupted sweep dir needs --resume or --force" "resume" \
	"$VSB" sweep "$TMP/long.sweep" -o "$TMP/int"
"$VSB" sweep "$TMP/long.sweep" -o "$TMP/int" --resume --procs 2 --run-min-ms 0 >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc -eq 0 ] && [ -n "$k" ] && grep -q '^1 point(s) continued from the repetitions' "$TMP/out" &&
	! ls "$TMP/int" | grep -q 'partial\|tmp' && [ "$(grep -c $'\tdone\t' "$TMP/int/points.txt")" -eq 2 ]; then
	ok "--resume continues a point (from round $k of $R), leaves no partial"
else
	not_ok "--resume continues a point" "exit $rc, k=$k" "$(cat "$TMP/out" "$TMP/err")"
fi
reps2=$(grep -v '^#' "$TMP/int/$id2.csv" 2>/dev/null | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "rep") c = i; next }
	{ print $c }' | sort -n | uniq | wc -l)
if grep -q "warning: $id2: not continued from its partial file (.*does not read back to the same file: line [0-9]* is .*, read back .*): it starts over" "$TMP/err" &&
	[ "$reps2" -eq $R ] && ! grep -q '^# sweep_resumed' "$TMP/int/$id2.csv"; then
	ok "an edited partial is not trusted: a warning, and that point runs all $R repetitions anew"
else
	not_ok "an edited partial is not trusted" "reps $reps2" "$(cat "$TMP/err")"
fi
f=$TMP/int/$id.csv
reps=$(grep -v '^#' "$f" 2>/dev/null | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "rep") c = i; next }
	{ print $c }' | sort -n | uniq -c | awk '{ printf "%s ", $2 "x" $1 }')
want=$(seq 0 $((R - 1)) | awk '{ printf "%s ", $1 "x1" }')
[ -n "$reps" ] && [ "$reps" = "$want" ] && ok "the resumed point has repetitions 0..$((R - 1)), each once" ||
	not_ok "the resumed point has repetitions 0..$((R - 1)), each once" "$reps"
# the kept repetitions are the interrupted run's samples, not new ones
grep -v '^#' "$TMP/kept.partial" 2>/dev/null | tail -n +2 >"$TMP/kept.rows"
if [ -n "$k" ] && [ "$(wc -l <"$TMP/kept.rows")" -eq "$k" ] &&
	[ "$(grep -cxFf "$TMP/kept.rows" "$f" 2>/dev/null)" -eq "$k" ] &&
	grep -q "^# sweep_resumed: repetitions 0\.\.$((k - 1)) from an interrupted run" "$f"; then
	ok "its first $k repetitions are the interrupted run's rows, and the metadata says so"
else
	not_ok "its first $k repetitions are the interrupted run's rows" "$(grep '^# sweep_resumed' "$f")"
fi
meta() { sed -n "s/^# $1: //p" "$f" 2>/dev/null; }
last=$(meta sanity | sed -n "s/^ok in each of $R rounds, the last: ok: .*= \([0-9]*\) applied.*/\1/p")
if [ -n "$last" ] && [ "$(meta applied_total)" = $((R * last)) ] && [ "$(meta counted_total)" = $((R * last)) ]; then
	ok "sanity and totals balance over all $R rounds, kept and new ($(meta applied_total) = $R x $last)"
else
	not_ok "sanity and totals balance over all $R rounds" "$(grep -E '^# (sanity|applied_total|counted_total):' "$f")"
fi

# An interrupt between two worker processes, made exact by
# VSB_TEST_STOP_AFTER_WORKER=1 (the sweep interrupts itself as worker 1
# ends): worker 2 still starts, gets the signal before its handlers are
# in (blocked until then, not its death), and saves what worker 1 handed
# on; then --resume finishes every repetition
printf 'variant cmpxchg-local\nthreshold 8,32\nloops 20000\nrepeat 6\n' >"$TMP/gap.sweep"
VSB_TEST_STOP_AFTER_WORKER=1 "$VSB" sweep "$TMP/gap.sweep" -o "$TMP/gap" --procs 3 \
	--run-min-ms 0 >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc -eq 1 ] && grep -q '^vmstat-bench: interrupted before worker process 2 of 3 began: 0 point(s) finished and written, 2 partial .*--resume continues$' "$TMP/err" &&
   [ ! -e "$TMP/gap/procs.txt" ] && [ "$(grep -c $'\tpartial\t' "$TMP/gap/points.txt" 2>/dev/null)" = 2 ] &&
   [ "$(cat "$TMP/gap/"*.csv.partial | grep -c '^# sweep_partial_rounds: 2 of 6$')" = 2 ]; then
	ok "an interrupt between two workers: exit 1, said, both points' 2 of 6 repetitions kept, procs.txt gone"
else
	not_ok "an interrupt between two workers" "exit $rc" "$(tail -n 2 "$TMP/err")" \
		"$(ls "$TMP/gap" 2>&1 | tr '\n' ' ')"
fi
"$VSB" sweep "$TMP/gap.sweep" -o "$TMP/gap" --procs 3 --run-min-ms 0 --resume >"$TMP/out" 2>"$TMP/err"
rc=$?
reps=$(for f in "$TMP/gap/"threshold-*[0-9a-f].csv; do
	grep -v '^#' "$f" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "rep") c = i; next }
		{ print $c }' | sort -un | tr '\n' ' '; echo; done | sort -u)
if [ $rc -eq 0 ] && [ "$reps" = "0 1 2 3 4 5 " ] &&
   [ "$(grep -c '^# sweep_resumed: repetitions 0\.\.1 from an interrupted run' "$TMP/gap/"*[0-9a-f].csv | grep -c ':1$')" = 2 ]; then
	ok "--resume after it: both points have repetitions 0..5, 0..1 the kept ones"
else
	not_ok "--resume after an interrupt between workers" "exit $rc, reps '$reps'" "$(tail -n 2 "$TMP/err")"
fi

# The TSC rate a point's ticks are in comes from the process that timed
# them: worker 1, which calibrates once and hands the rate on in the
# partials, not the last worker, which writes the record and may time
# none of a point's repetitions (a66d3f0 left the calibration there).
printf 'name tsc\nbench counter\nloops 1000\nrepeat 3\n' >"$TMP/tsc.sweep"
if "$VSB" sweep "$TMP/tsc.sweep" -o "$TMP/tsc" --procs 3 >"$TMP/out" 2>"$TMP/err" &&
   f=$(ls "$TMP"/tsc/p*[0-9a-f].csv) && grep -qE '^# tsc_hz: [1-9][0-9]*$' "$f" &&
   grep -qx '# tsc_hz_from: sweep worker process 1 of 3, which timed the first repetitions' "$f"; then
	ok "a spread sweep's tsc_hz is worker 1's, which timed the first repetitions"
else
	not_ok "a spread sweep's tsc_hz is worker 1's" "$(grep -h '^# tsc' "$TMP"/tsc/p*.csv 2>&1)" \
		"$(tail -n 2 "$TMP/err")"
fi
# ... and only it calibrates: three 4 ms sleeps (clock.c), in worker 1
# (strace pads a pid to five columns: "3660  execve", "31234 execve")
if command -v strace >/dev/null; then
	rm -rf "$TMP/tsc"
	strace -f -qq -s 256 -e trace=execve,clock_nanosleep -o "$TMP/strace" \
		"$VSB" sweep "$TMP/tsc.sweep" -o "$TMP/tsc" --procs 3 >/dev/null 2>&1
	pids=$(grep 'tv_nsec=4000000' "$TMP/strace" | awk '{ print $1 }' | sort -u)
	if [ "$(grep -c 'tv_nsec=4000000' "$TMP/strace")" = 3 ] && [ "$(echo "$pids" | wc -w)" = 1 ] &&
	   awk -v p="$pids" '$1 == p && $2 ~ /^execve/' "$TMP/strace" | grep -q -- '"--worker", "1"'; then
		ok "... and only worker 1 calibrated the TSC"
	else
		not_ok "only worker 1 calibrates the TSC" "calibrating pids: $pids" \
			"$(grep 'execve\|tv_nsec=4000000' "$TMP/strace" | cut -c1-160 | head -8)"
	fi
else
	skip "only worker 1 calibrates the TSC" "no strace"
fi

# every shipped sweep file parses and expands (a new one is covered by
# the glob); points that cannot run here (no module, no root) are
# listed as skipped, not refused
n=0
for f in "$VSB_ROOT"/configs/*.sweep; do
	n=$((n + 1))
	expect_exit 0 "configs/$(basename "$f") parses (--dry-run)" "$VSB" sweep "$f" --dry-run
done
[ $n -ge 8 ] && ok "$n shipped sweep files checked" || not_ok "shipped sweep files found" "$n"
done_testing
