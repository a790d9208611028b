#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Hostile sweep folders and --resume input (README "Exit codes",
# docs/sweeps.md): links, FIFOs and directories planted at any name the
# sweep writes are refused before the first point runs (exit 2, one
# line naming the file, nothing written, the link's target untouched);
# --resume continues a partial only when its rows are exactly the
# repetitions it claims, keeps a finished point only when it was made
# with this run's options and repetitions and its summary reads back as
# one this tool wrote, and otherwise runs the point again and says so;
# the point limit names the whole sweep when only the blocks together
# pass it.  Tiny sweeps only: no timing.
. "$(dirname "$0")/../lib.sh"

cat >"$TMP/t.sweep" <<EOF
variant this-cpu-add, plain-fold
loops 2000
repeat 2
cpus 0
EOF
ids=$("$VSB" sweep "$TMP/t.sweep" --dry-run | grep -v '^#' | cut -f1)
A=$(echo "$ids" | sed -n 1p)
Bp=$(echo "$ids" | sed -n 2p)
echo victim >"$TMP/victim"
file_sum VICTIM "$TMP/victim"	# its bytes, as planted checks them

# col FILE COLUMN: that column of every data row (the header is the
# first line not starting with '#'); one awk, no grep before it
col() {
	awk -F, -v c="$2" '/^#/ { next }
		!h { for (i = 1; i <= NF; i++) if ($i == c) k = i; h = 1; next } { print $k }' "$1" 2>/dev/null
}

# ---- 1. a name the sweep writes is taken by a link, FIFO or folder ----
# planted DESC NAME KIND [PREP] [ARGS...]: D (after PREP: "" or "done", a
# finished sweep) gets KIND (link, dangling, fifo, dir) at NAME; the
# sweep must exit 2 with one line naming D/NAME, leave D as it was and
# the victim untouched
planted() {
	local d=$1 name=$2 kind=$3 prep=$4 D=$TMP/p before after v rc; shift 4
	rm -rf "$D"; mkdir -p "$D"
	[ "$prep" = done ] && "$VSB" sweep "$TMP/t.sweep" -o "$D" >/dev/null 2>&1
	rm -f "$D/$name"
	case $kind in
	link) ln -s "$TMP/victim" "$D/$name" ;;
	dangling) ln -s "$TMP/nowhere" "$D/$name" ;;
	fifo) mkfifo "$D/$name" ;;
	dir) mkdir "$D/$name" ;;
	esac
	tree_sum before "$D"
	timeout 20 "$VSB" sweep "$TMP/t.sweep" -o "$D" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	rc=$?
	tree_sum after "$D"
	file_sum v "$TMP/victim"
	if [ $rc -eq 2 ] && one_line "$TMP/err" &&
		grep -qF -- "-o: $D/$name is " "$TMP/err" && grep -q 'refused, nothing run' "$TMP/err" &&
		[ "$before" = "$after" ] && [ "$v" = "$VICTIM" ] && [ ! -s "$TMP/out" ]; then
		ok "$d: exit 2, one line naming it, nothing written or run"
	else
		not_ok "$d" "exit $rc (want 2)" "$(head -c 400 "$TMP/err")" \
			"$([ "$before" = "$after" ] || echo "the folder changed")" "victim: $(cat "$TMP/victim")"
	fi
}
for f in sweep.csv meta.txt failed.txt; do
	planted "a link at D/$f" "$f" link ""
done
# points.txt marks a folder holding a sweep: --force writes over one
planted "a link at D/points.txt, --force" points.txt link "" --force
planted "a link at D/points.txt, --force over a finished sweep" points.txt link done --force
planted "a link at D/<id>.csv" "$A.csv" link ""
planted "a link at D/<id>.csv, --force over a finished sweep" "$Bp.csv" link done --force
planted "a link at D/<id>.summary.csv" "$Bp.summary.csv" link ""
planted "a link at D/<id>.csv.partial, --resume" "$A.csv.partial" link done --resume
planted "a link at D/<id>.csv.partial, --force (not removed)" "$A.csv.partial" link done --force
planted "a dangling link at D/points.txt" points.txt dangling ""
planted "a FIFO at D/sweep.csv" sweep.csv fifo ""
planted "a FIFO at D/<id>.csv" "$A.csv" fifo ""
planted "a FIFO at D/<id>.summary.csv, --resume" "$A.summary.csv" fifo done --resume
planted "a folder at D/<id>.summary.csv" "$Bp.summary.csv" dir ""
planted "a link at D/<id>.monitor.csv, --monitor" "$A.monitor.csv" link "" --monitor loadavg
grep -q "$TMP/p/$A.monitor.csv is a symbolic link" "$TMP/err" &&
	ok "  ... the line says what is there (a symbolic link)" || not_ok "  ... says a symbolic link" "$(cat "$TMP/err")"
planted "a FIFO at D/meta.txt" meta.txt fifo ""
grep -q "is not a regular file (a FIFO)" "$TMP/err" &&
	ok "  ... the line says what is there (a FIFO)" || not_ok "  ... says a FIFO" "$(cat "$TMP/err")"

# what the sweep does not write stays a link, and the sweep runs
rm -rf "$TMP/p"; mkdir "$TMP/p"; ln -s "$TMP/victim" "$TMP/p/$A.monitor.csv"
"$VSB" sweep "$TMP/t.sweep" -o "$TMP/p" >/dev/null 2>&1
rc=$?
[ $rc -eq 0 ] && [ -L "$TMP/p/$A.monitor.csv" ] && [ "$(cat "$TMP/victim")" = victim ] &&
	[ -f "$TMP/p/sweep.csv" ] && ok "a link at a name written only with --monitor: the sweep runs, the link stays" ||
	not_ok "a link at a monitor name without --monitor" "exit $rc"
# a regular file at a sweep name is replaced, as -o replaces one
rm -rf "$TMP/p"; mkdir "$TMP/p"; echo old >"$TMP/p/sweep.csv"
"$VSB" sweep "$TMP/t.sweep" -o "$TMP/p" >/dev/null 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q '^point,' "$TMP/p/sweep.csv" && ok "a regular file at D/sweep.csv is replaced (exit 0)" ||
	not_ok "a regular file at D/sweep.csv is replaced" "exit $rc"

# ---- 2. --resume: a partial's rows must be the repetitions it claims ----
R=12
cpus=0
[ "$(nproc)" -ge 2 ] && cpus="0 | 0-1"
printf 'bench counter\nvariant cmpxchg-local\nloops 300000\nrepeat %d\nwarmup 0\ndisturbed keep\ncpus %s\n' \
	$R "$cpus" >"$TMP/res.sweep"
# --run-min-ms 0: the partials hold R repetitions a point, as asked
# (a short point's many to a run: test_sweep_run_reps)
"$VSB" sweep "$TMP/res.sweep" -o "$TMP/int" --run-min-ms 0 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1000); do
	grep -qsE '^# sweep_partial_rounds: ([2-9]|1[01]) of' "$TMP/int/"*.csv.partial && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.01
done
kill -INT $pid 2>/dev/null; wait $pid
# the one-worker point's partial, and the two-worker one's when there is one
p1=$(grep -l '^# sweep_partial_rounds: ' "$TMP/int/"*.csv.partial 2>/dev/null |
	xargs -r grep -L '^counter,user,cmpxchg-local,0-1,' | head -1)
p2=$(grep -l '^counter,user,cmpxchg-local,0-1,' "$TMP/int/"*.csv.partial 2>/dev/null | head -1)
# rounds_of PARTIAL: the rounds it holds (the interrupt may have come
# between two points' saves: each partial is read for itself)
rounds_of() { sed -n "s/^# sweep_partial_rounds: \([0-9]*\) of $R\$/\1/p" "$1" 2>/dev/null; }
k=$(rounds_of "$p1")

# droprow THREAD REP: that worker's row of that repetition removed from $F
droprow() {
	awk -F, -v t="$1" -v r="$2" '/^#/ { print; next }
		!h { for (i = 1; i <= NF; i++) { if ($i == "thread") tc = i; if ($i == "rep") rc = i }
		     h = 1; print; next }
		!($tc == t && $rc == r) { print }' "$F" >"$F.new" && mv "$F.new" "$F"
}
# partial_case DESC PARTIAL WANT EDIT: the partial ($F), edited, in a fresh
# folder; --resume continues it (WANT "continued") or, with one line
# matching WANT, starts the point over: R repetitions per worker, none
# of them from the partial
partial_case() {
	local d=$1 pf=$2 want=$3 edit=$4 id rc reps w
	id=$(basename "$pf" .csv.partial)
	rm -rf "$TMP/r2"; mkdir "$TMP/r2"
	F=$TMP/r2/$id.csv.partial
	cp "$pf" "$F"
	eval "$edit"
	"$VSB" sweep "$TMP/res.sweep" -o "$TMP/r2" --resume --run-min-ms 0 >"$TMP/out" 2>"$TMP/err"
	rc=$?
	w=$(col "$TMP/r2/$id.csv" thread | sort -u | wc -l)
	reps=$(col "$TMP/r2/$id.csv" rep | sort -n | uniq -c | awk -v w="$w" '$1 == w { n++ } END { print n + 0 }')
	if [ "$want" = continued ]; then
		[ $rc -eq 0 ] && grep -q '^1 point(s) continued' "$TMP/out" && [ "$reps" -eq $R ] &&
			grep -q '^# sweep_resumed' "$TMP/r2/$id.csv" && ok "$d" ||
			not_ok "$d" "exit $rc, $reps repetitions" "$(cat "$TMP/out" "$TMP/err")"
	elif [ $rc -eq 0 ] && [ "$(grep -c "not continued from its partial file" "$TMP/err")" = 1 ] &&
		grep -q "$id: not continued from its partial file (.*$want.*): it starts over" "$TMP/err" &&
		[ "$reps" -eq $R ] && ! grep -q '^# sweep_resumed' "$TMP/r2/$id.csv" &&
		[ "$(col "$TMP/r2/$id.summary.csv" n | head -1)" -eq $R ]; then
		ok "$d: one line says so, the point starts over (n=$R)"
	else
		not_ok "$d" "exit $rc, $reps full repetitions, n=$(col "$TMP/r2/$id.summary.csv" n | tr '\n' ' ')" \
			"$(cat "$TMP/out" "$TMP/err")"
	fi
}
if [ -n "$k" ] && [ "$k" -ge 2 ] && [ "$k" -lt $R ]; then
	rounds() { echo "sed -i 's/^# sweep_partial_rounds: $k of $R\$/# sweep_partial_rounds: $1 of $R/' \"\$F\""; }
	partial_case "an untouched partial is continued (from round $k)" "$p1" continued true
	partial_case "rounds edited to $R of $R ($k held): not taken as finished" "$p1" \
		"its rows hold $k repetition(s) per worker, not the $R its sweep_partial_rounds line claims" \
		"$(rounds $R)"
	partial_case "rounds edited to $((k + 1)) of $R ($k held): not continued" "$p1" \
		"not the $((k + 1)) its sweep_partial_rounds line claims" "$(rounds $((k + 1)))"
	partial_case "the last repetition's row removed: not continued" "$p1" \
		"its rows hold $((k - 1)) repetition(s) per worker, not the $k" "droprow 0 $((k - 1))"
	partial_case "the first repetition's row removed, rounds lowered to match: not continued" "$p1" \
		"a repetition number beyond its rounds" "droprow 0 0; $(rounds $((k - 1)))"
	partial_case "a row duplicated: not continued" "$p1" "appears twice" \
		"sed -i '0,/^counter,/{/^counter,/p}' \"\$F\""
	k=$(rounds_of "$p2")
	if [ -n "$p2" ] && [ -n "$k" ] && [ "$k" -ge 2 ] && [ "$k" -lt $R ]; then
		partial_case "two workers: an untouched partial is continued" "$p2" continued true
		partial_case "two workers: one worker's last row removed" "$p2" \
			"its workers' rows are not the same repetitions" "droprow 1 $((k - 1))"
		partial_case "two workers: each lacks another repetition" "$p2" \
			"its workers' rows are not the same repetitions" "droprow 0 0; droprow 1 1"
		partial_case "two workers: both rows of a round removed, the claim kept" "$p2" \
			"its rows hold $((k - 1)) repetition(s) per worker, not the $k" \
			"droprow 0 $((k - 1)); droprow 1 $((k - 1))"
		partial_case "two workers: rounds edited to $R of $R" "$p2" \
			"not the $R its sweep_partial_rounds line claims" "$(rounds $R)"
	else
		for i in 1 2 3 4 5; do skip "two-worker partial case $i" "one CPU, or k=$k"; done
	fi
else
	for i in $(seq 11); do skip "partial case $i" "no partial of 2..$((R - 1)) rounds (k=$k)"; done
fi

# ---- 3. --resume keeps a finished point only as this run would make it ----
# resumed DESC DIR SWEEP WANT-N WANT-KEPT WANT-WARN [ARGS...]: exit 0,
# WANT-KEPT points kept, one line per point rerun matching WANT-WARN
# (or none with ""), sweep.csv one row per point with n=WANT-N; every
# repetition as asked (--run-min-ms 0), so that n counts them
resumed() {
	local d=$1 D=$2 f=$3 n=$4 kept=$5 warn=$6 rc nw ns; shift 6
	"$VSB" sweep "$f" -o "$D" --resume --run-min-ms 0 "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	nw=$(grep -c "its finished result is not kept" "$TMP/err")
	ns=$(col "$D/sweep.csv" n | sort -u | tr '\n' ' ')
	if [ $rc -eq 0 ] && grep -q "($kept kept from before)" "$TMP/out" &&
		[ "$(col "$D/sweep.csv" point | wc -l)" -eq 2 ] && [ "$ns" = "$n " ] &&
		{ [ -z "$warn" ] && [ "$nw" -eq 0 ] ||
		  [ -n "$warn" ] && [ "$nw" -eq $((2 - kept)) ] &&
		  [ "$(grep -c "not kept (.*$warn.*): it runs again" "$TMP/err")" -eq "$nw" ]; }; then
		ok "$d"
	else
		not_ok "$d" "exit $rc, n: $ns, $nw warnings" "$(cat "$TMP/out" "$TMP/err")"
	fi
}
D=$TMP/fin
"$VSB" sweep "$TMP/t.sweep" -o "$D" --repeat 1 --run-min-ms 0 >/dev/null 2>&1
resumed "finished with --repeat 1, --resume --repeat 3: both run again, n=3" "$D" "$TMP/t.sweep" 3 0 \
	"summary.csv: it holds 1 repetition(s), this run wants 3" --repeat 3
grep -qF "$A: its finished result is not kept ($D/$A.summary.csv: it holds" "$TMP/err" &&
	ok "  ... the line names the point and its summary file" || not_ok "  ... names the point" "$(cat "$TMP/err")"
resumed "the same --resume --repeat 3 again: both kept, nothing said" "$D" "$TMP/t.sweep" 3 2 ""  --repeat 3
resumed "--resume without --repeat (the file's 2): both run again, n=2" "$D" "$TMP/t.sweep" 2 0 \
	"it holds 3 repetition(s), this run wants 2"
sed 's/^repeat 2/repeat 4/' "$TMP/t.sweep" >"$TMP/t4.sweep"
resumed "the file's repeat changed to 4: both run again, n=4" "$D" "$TMP/t4.sweep" 4 0 \
	"it holds 2 repetition(s), this run wants 4"
resumed "--repeat 4 with the file's 2: the same repetitions, both kept" "$D" "$TMP/t.sweep" 4 2 "" --repeat 4
resumed "--repeat 1: fewer repetitions than kept, both run again, n=1" "$D" "$TMP/t.sweep" 1 0 \
	"it holds 4 repetition(s), this run wants 1" --repeat 1
resumed "the file's repeat 4 again: both run again, n=4" "$D" "$TMP/t4.sweep" 4 0 \
	"it holds 1 repetition(s), this run wants 4"
{ cat "$TMP/t4.sweep"; echo "# another comment"; } >"$TMP/t4c.sweep"
resumed "another version of the file, same points and options: both kept" "$D" "$TMP/t4c.sweep" 4 2 ""
# the one integer syntax: a repeat of 04 is not read as 4
sed -i 's/^\(# sweep_match: options=[0-9a-f]* repeat=\)\([0-9]\)$/\10\2/' "$D/$A.summary.csv"
resumed "a summary whose sweep_match says repeat=04: that point runs again" "$D" "$TMP/t4.sweep" 4 1 \
	"$A.summary.csv: its sweep_match line is not one a sweep writes"
sed -i 's/^# sweep_match: options=\([0-9a-f]\)/# sweep_match: options=0\1/' "$D/$A.summary.csv"
resumed "a summary whose options hash differs: that point runs again" "$D" "$TMP/t4.sweep" 4 1 \
	"$A.summary.csv: it was made with other options"
sed -i '/^# sweep_match:/d' "$D/$Bp.summary.csv"
resumed "a summary without its sweep_match line: that point runs again" "$D" "$TMP/t4.sweep" 4 1 \
	"$Bp.summary.csv: no sweep_match line"
sed 's/^loops 2000/loops 3000/' "$TMP/t4.sweep" >"$TMP/t4l.sweep"
"$VSB" sweep "$TMP/t4l.sweep" -o "$D" --resume >"$TMP/out" 2>"$TMP/err"
grep -q '(0 kept from before)' "$TMP/out" && [ "$(col "$D/sweep.csv" loops | sort -u)" = 3000 ] &&
	ok "loops changed in the file: new points, none kept" || not_ok "loops changed: none kept" "$(cat "$TMP/out")"

# ---- 4. --resume: a summary that is not one this tool wrote ----
# garbage DESC WANT EDIT: a finished sweep, EDIT run in its folder; the
# point must run again (one line matching WANT), and sweep.csv be the
# real thing: header, one row per point, n=2 (--run-min-ms 0: as asked),
# nothing of the garbage
garbage() {
	local d=$1 want=$2 edit=$3 D=$TMP/g rc
	rm -rf "$D"
	"$VSB" sweep "$TMP/t.sweep" -o "$D" --run-min-ms 0 >/dev/null 2>&1
	(cd "$D" && eval "$edit")
	"$VSB" sweep "$TMP/t.sweep" -o "$D" --resume --run-min-ms 0 >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc -eq 0 ] && grep -q '(1 kept from before)' "$TMP/out" &&
		[ "$(grep -c "its finished result is not kept" "$TMP/err")" -eq 1 ] &&
		grep -q "$A: its finished result is not kept (.*$want.*): it runs again" "$TMP/err" &&
		grep -v '^#' "$D/sweep.csv" | head -1 | grep -q '^point,bench,' &&
		[ "$(col "$D/sweep.csv" point | sort | tr '\n' ' ')" = "$(printf '%s\n' "$A" "$Bp" | sort | tr '\n' ' ')" ] &&
		[ "$(col "$D/sweep.csv" n | sort -u)" = 2 ] && ! grep -q garbage "$D/sweep.csv" &&
		[ "$(col "$D/$A.summary.csv" n)" = 2 ]; then
		ok "$d: the point runs again, sweep.csv is whole"
	else
		not_ok "$d" "exit $rc" "$(cat "$TMP/out" "$TMP/err")" "$(head -c 300 "$D/sweep.csv")"
	fi
}
garbage "a summary that says garbage" "not a summary this tool writes" "echo garbage >$A.summary.csv"
garbage "an empty summary" "$A.summary.csv" ": >$A.summary.csv"
garbage "a summary of two garbage columns" "not a summary this tool writes" \
	"printf 'garbage,x\n1,2\n' >$A.summary.csv"
garbage "the other point's summary copied over it" "belongs to another point" \
	"cp $Bp.summary.csv $A.summary.csv"
garbage "a summary whose header row is all that is left" "holds no rows" \
	"sed -i '/^counter,/d' $A.summary.csv"
# set_cell COLUMN VALUE FILE: every data row's cell of COLUMN (by name)
set_cell() {
	awk -F, -v OFS=, -v n="$1" -v v="$2" '/^#/ { print; next }
		!h { for (i = 1; i <= NF; i++) if ($i == n) c = i; h = 1; print; next }
		{ $c = v; print }' "$3" >"$3.tmp" && mv "$3.tmp" "$3"
}
garbage "a summary whose n cell is garbage" "a bad n cell" \
	"set_cell n garbage $A.summary.csv"
garbage "a summary whose median is garbage" "a bad median cell" \
	"set_cell median garbage $A.summary.csv"
garbage "a summary with a column appended" "other columns" \
	"sed -i -e '/^bench,/s/\$/,garbage/' -e '/^counter,/s/\$/,1/' $A.summary.csv"
garbage "a summary whose raw samples are gone" "raw samples (<id>.csv) are missing" "rm $A.csv"

# ---- 5. the point limit: the whole sweep's, said as such ----
awk 'BEGIN { for (i = 1; i <= 20000; i++) printf "[b%d]\nthreshold %d\n", i, i }' >"$TMP/many.sweep"
expect_usage_error "20000 one-point blocks: the sweep is over, not a block" \
	"many.sweep:20001: block \[b10001\] expands to more than 10000 points in all with the blocks above it \(10000 above, 1 its own\): the limit is on the whole sweep" \
	"$VSB" sweep "$TMP/many.sweep" -o "$TMP/many" --dry-run
[ ! -e "$TMP/many" ] && ok "  ... nothing written" || not_ok "  ... nothing written"
printf 'loops 1-1000\n[a]\nthreshold 1-5\n[b]\nthreshold 1-6\n' >"$TMP/blk.sweep"
expect_usage_error "blocks of 5000 and 6000: both counts said" \
	"blk.sweep:4: .*in all with the blocks above it \(5000 above, 6000 its own\): the limit is on the whole sweep" \
	"$VSB" sweep "$TMP/blk.sweep" -o "$TMP/many"
printf 'loops 1-1000\n[a]\nthreshold 1-5\n[b]\nthreshold 1-20\n' >"$TMP/blk2.sweep"
expect_usage_error "a block of 20000 on its own: that block named" \
	"blk2.sweep:4: block \[b\] expands to more than 10000 points \(the product of its lists\)" \
	"$VSB" sweep "$TMP/blk2.sweep" -o "$TMP/many"
printf 'loops 1-1000\nthreshold 1-11\n' >"$TMP/one.sweep"
expect_usage_error "no blocks, 11000 points: the sweep named" \
	"one.sweep:1: the sweep expands to more than 10000 points" \
	"$VSB" sweep "$TMP/one.sweep" -o "$TMP/many"
printf 'loops 1-1000\n[a]\nthreshold 1-5\n[b]\nthreshold 1-5\n' >"$TMP/ok.sweep"
expect_exit 0 "blocks of 5000 and 5000 (exactly the limit) accepted" \
	"$VSB" sweep "$TMP/ok.sweep" --dry-run
done_testing
