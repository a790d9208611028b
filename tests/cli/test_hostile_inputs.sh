#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Hostile inputs to the readers of raw results (compare, db import),
# held to the contract of README "Exit codes": one line naming the file
# (and row), exit 2, before any work and with nothing written, never a
# hang, a crash or a quiet wrong answer.  Each kind with several
# instances: a sweep folder's points.txt that is a FIFO, a device, a
# link to /dev/zero, a folder, too large; links inside a compared
# folder (skipped, never followed: `self -> .` loaded the same runs
# again); costs that are not positive finite numbers (db import stored
# them); repetition numbers no run writes (one was 800 GB); two units
# on one point; -o targets of compare that are links, FIFOs or folders
# (compare.csv was written before summary.md was refused); parameters
# too long for a point's key (written past its end).
. "$(dirname "$0")/../lib.sh"

FX=$VSB_ROOT/tests/fixtures/compare
IN=$TMP/in		# inputs
W=$TMP/w		# the only place a refused command could write to
mkdir -p "$IN" "$W"

# refused DESC PATTERN CMD...: exit 2 within 10 s, exactly one stderr
# line, matching PATTERN (ERE), and nothing under $W changed
refused() {
	local d=$1 pat=$2 before after rc why=(); shift 2
	tree_sum before "$W"
	timeout 10 "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	rc=$?
	tree_sum after "$W"
	[ $rc -eq 2 ] || why+=("exit $rc (want 2; 124: it hung)")
	one_line "$TMP/err" || why+=("$(wc -l <"$TMP/err") stderr lines (want 1)")
	matches "$pat" "$TMP/err" || why+=("stderr does not match /$pat/")
	[ "$before" = "$after" ] || why+=("files changed under $W")
	if [ ${#why[@]} -eq 0 ]; then
		ok "$d"
	else
		not_ok "$d" "${why[@]}" "$(head -c 400 "$TMP/err")"
	fi
}

# with_cell SRC COLUMN ROWS VALUE: SRC with COLUMN set to VALUE in data
# row ROWS (N), or rows A to B (A-B)
with_cell() {
	awk -F, -v name="$2" -v rows="$3" -v val="$4" 'BEGIN { OFS = ","
			lo = hi = rows; if (split(rows, r, "-") == 2) { lo = r[1]; hi = r[2] } }
		/^#/ { print; next }
		!c { for (i = 1; i <= NF; i++) if ($i == name) c = i; print; next }
		{ n++; if (n >= lo + 0 && n <= hi + 0) $c = val; print }' "$1"
}

# ---- 1. points.txt: read like every input, regular and size-capped ----
cp -r "$FX/sweep" "$IN/sw-ok"
expect_exit 0 "a sweep folder compares (the cases below differ only in points.txt)" \
	"$VSB" compare "$IN/sw-ok" "$IN/sw-ok"
mkpoints() {	# mkpoints KIND DIR: a sweep folder whose points.txt is KIND
	mkdir -p "$2" && cp "$FX/sweep/"*.csv "$2/"
	case $1 in
	fifo) mkfifo "$2/points.txt" ;;
	zero) ln -s /dev/zero "$2/points.txt" ;;
	null) ln -s /dev/null "$2/points.txt" ;;
	dir) mkdir "$2/points.txt" ;;
	dangling) ln -s "$2/nowhere" "$2/points.txt" ;;
	huge) truncate -s 17M "$2/points.txt" ;;
	nul) printf 'p-done\tdone\t\0x\n' >"$2/points.txt" ;;
	esac
}
for k in fifo zero null dir dangling huge nul; do
	mkpoints $k "$IN/sw-$k"
	refused "compare: points.txt a $k: refused, naming it, -o not made" \
		"sw-$k/points.txt: " "$VSB" compare "$IN/sw-$k" "$IN/sw-ok" -o "$W/o-$k"
	# the same inside a folder of runs: the walk reads it the same way
	mkpoints $k "$IN/runs-$k/run-2"
	cp -r "$IN/sw-ok" "$IN/runs-$k/run-1"
	refused "compare: run-2/points.txt a $k, one level down: refused" \
		"run-2/points.txt: " "$VSB" compare "$IN/sw-ok" "$IN/runs-$k"
done
grep -q "FIFO" <(timeout 10 "$VSB" compare "$IN/sw-fifo" "$IN/sw-ok" 2>&1) &&
	ok "... the FIFO's line says FIFO" || not_ok "the FIFO's line says FIFO"
for id in ../sw-ok/p-done /etc/passwd a/b; do
	mkdir -p "$IN/sw-id" && cp "$FX/sweep/"*.csv "$IN/sw-id/"
	printf '# point id\tstate\tparameters\n%s\tdone\tx\n' "$id" >"$IN/sw-id/points.txt"
	refused "compare: points.txt id '$id' (a way out of the folder): refused" \
		"points.txt:2: point id .* is not a file name" "$VSB" compare "$IN/sw-id" "$IN/sw-ok"
done
mkdir -p "$IN/sw-link" && cp "$FX/sweep/"*.csv "$IN/sw-link/"
ln -s "$IN/sw-ok/points.txt" "$IN/sw-link/points.txt"
expect_exit 0 "a points.txt that links to a regular one is read" \
	"$VSB" compare "$IN/sw-link" "$IN/sw-ok"

# ---- 2. folder walks skip links: nothing is loaded twice ----
# compare.csv of the folder without links is what each link must leave
cp -r "$FX/runs" "$IN/walk"
"$VSB" compare "$IN/walk" "$FX/base.csv" -o "$TMP/walk0" >/dev/null 2>&1
grep -q ',tsc,6,5,.*,2,1,' "$TMP/walk0/compare.csv" &&
	ok "without links: 6 repetitions in 2 runs on BASE (the baseline)" ||
	not_ok "walk baseline" "$(cat "$TMP/walk0/compare.csv")"
mkdir -p "$IN/other" && cp "$FX/slower.csv" "$IN/other/"
for l in "self:." "up:.." "abs:$IN/walk" "dup.csv:run1.csv" "other:$IN/other" \
	 "sub/loop:.." "sub/top:../.."; do
	name=${l%%:*} to=${l#*:}
	mkdir -p "$(dirname "$IN/walk/$name")"
	ln -s "$to" "$IN/walk/$name"
	timeout 10 "$VSB" compare "$IN/walk" "$FX/base.csv" -o "$TMP/walk1" >/dev/null 2>&1
	rc=$?
	if [ $rc -ne 124 ] && cmp -s "$TMP/walk0/compare.csv" "$TMP/walk1/compare.csv"; then
		ok "link $name -> $to in a compared folder: skipped, the same comparison"
	else
		not_ok "link $name -> $to: skipped" "exit $rc" \
			"$(diff "$TMP/walk0/compare.csv" "$TMP/walk1/compare.csv" | head -4)"
	fi
	rm -rf "$IN/walk/$name" "$IN/walk/sub" "$TMP/walk1"
done
ln -s "$IN/walk" "$IN/walk-link"
expect_exit 0 "a folder named by a link on the command line is still read" \
	"$VSB" compare "$IN/walk-link" "$IN/walk"

# ---- 3. costs: a positive finite number, in every reader ----
"$VSB" db list --db "$TMP/probe.db" >/dev/null 2>&1
have_db=$([ $? -ne 4 ] && echo 1)
BAD_COSTS=(-155.5 0 -0 inf -inf +inf nan NaN 1e999 1e-400 x 0x10 " 5" "5 ")
for i in "${!BAD_COSTS[@]}"; do
	v=${BAD_COSTS[$i]}
	with_cell "$FX/base.csv" per_op 3 "$v" >"$IN/cost$i.csv"
	refused "compare: per_op '$v' refused naming file and row" \
		"cost$i.csv: row 3 .*per_op is .*not a positive finite cost" \
		"$VSB" compare "$FX/base.csv" "$IN/cost$i.csv" -o "$W/c"
	if [ -n "$have_db" ]; then
		refused "db import: per_op '$v' refused naming file and row, no store made" \
			"cost$i.csv: row 3 \(line [0-9]+\): per_op is .*not a positive finite cost" \
			"$VSB" db import --db "$W/s.db" "$IN/cost$i.csv"
	else
		skip "db import: per_op '$v'" "built without a store"
	fi
done
if [ -n "$have_db" ]; then
	"$VSB" db import --db "$TMP/kept.db" "$FX/base.csv" >/dev/null 2>&1
	sum=$(md5sum <"$TMP/kept.db")
	for v in nan -1; do
		with_cell "$FX/faster.csv" per_op 1 "$v" >"$IN/into.csv"
		expect_usage_error "db import into a store: per_op '$v' refused" \
			"into.csv: row 1 .*not a positive finite cost" \
			"$VSB" db import --db "$TMP/kept.db" "$FX/slower.csv" "$IN/into.csv"
		[ "$(md5sum <"$TMP/kept.db")" = "$sum" ] && ok "... the store untouched, the good file not stored either" ||
			not_ok "store changed by a refused import"
	done
	with_cell "$FX/base.csv" per_op 2 "" >"$IN/nocost.csv"
	expect_exit 0 "db import: an empty per_op is a sample without a cost (stored)" \
		"$VSB" db import --db "$TMP/nocost.db" "$IN/nocost.csv"
fi
with_cell "$FX/base.csv" per_op 2 "" >"$IN/nocost.csv"
refused "compare: an empty per_op refused (compare needs every cost)" \
	"nocost.csv: row 2 .*per_op is empty, not a positive finite cost" \
	"$VSB" compare "$IN/nocost.csv" "$FX/base.csv"

# ---- 4. rep: a repetition number a run can write ----
for v in 99999999999 4294967296 1000 -1 inf 1e20 1.5 " 5" +5 05 0x10 "" nan; do
	with_cell "$FX/base.csv" rep 2 "$v" >"$IN/rep.csv"
	refused "compare: rep '$v' refused naming file and row" \
		"rep.csv: row 2 .*rep is" \
		"$VSB" compare "$FX/base.csv" "$IN/rep.csv" -o "$W/r"
	grep -q "out of memory" "$TMP/err" && not_ok "  ... rep '$v': out of memory" "$(cat "$TMP/err")"
done
with_cell "$FX/base.csv" rep 2 1000 >"$IN/rep.csv"
expect_usage_error "... rep 1000: the line gives the bound and why" \
	"rep is 1000, not a repetition number: 0 to 999 \(--repeat is at most 1000\)" \
	"$VSB" compare "$IN/rep.csv" "$FX/base.csv"
with_cell "$FX/base.csv" rep 2 999 >"$IN/rep999.csv"
expect_exit 0 "compare: rep 999 (the last --repeat 1000 writes) accepted" \
	"$VSB" compare "$FX/base.csv" "$IN/rep999.csv"
if [ -n "$have_db" ]; then
	for v in -1 inf 1e20 1.5 " 5" 0x10; do
		with_cell "$FX/base.csv" rep 4 "$v" >"$IN/rep.csv"
		refused "db import: rep '$v' refused naming file and row" \
			"rep.csv: row 4 \(line [0-9]+\): .*rep is" \
			"$VSB" db import --db "$W/s.db" "$IN/rep.csv"
	done
fi

# ---- 5. one unit per point, on either side ----
# (the first row of a point sets its unit: a change there shows a row on)
for row in 2 5 12 15; do
	with_cell "$FX/base.csv" unit "$row" ns >"$IN/mixed.csv"
	refused "compare: row $row of BASE in ns, its point in tsc: refused" \
		"mixed.csv: row $row .*mixed units on one point" \
		"$VSB" compare "$IN/mixed.csv" "$FX/base.csv" -o "$W/u"
	refused "compare: row $row of NEW in ns, its point in tsc: refused" \
		"mixed.csv: row $row .*mixed units on one point" \
		"$VSB" compare "$FX/base.csv" "$IN/mixed.csv"
done
# loops is not part of compare's point: rows that differ in loops and
# unit are one point there, though two points to the loader
with_cell "$FX/base.csv" loops 7-10 2000 | with_cell /dev/stdin unit 7-10 ns >"$IN/loops.csv"
refused "compare: one point measured in tsc at loops 1000, in ns at 2000: refused" \
	"loops.csv: row 7: unit ns on a point whose row 1 is in tsc: mixed units" \
	"$VSB" compare "$IN/loops.csv" "$FX/base.csv"
with_cell "$FX/base.csv" unit 11-15 ns >"$IN/two.csv"
expect_exit 0 "two points of one file in two units: fine (a unit per point)" \
	"$VSB" compare "$IN/two.csv" "$IN/two.csv"
refused "... joined into one point by --ignore variant: refused" \
	"two.csv: row 11: unit ns on a point whose row 1 is in tsc" \
	"$VSB" compare "$IN/two.csv" "$IN/two.csv" --ignore variant
if [ -n "$have_db" ]; then
	with_cell "$FX/base.csv" unit 15 cycles >"$IN/mixed.csv"
	refused "db import: row 15 in cycles, its point in tsc: refused" \
		"mixed.csv: row 15 \(line [0-9]+\): unit 'cycles' .*mixed units on one point" \
		"$VSB" db import --db "$W/s.db" "$IN/mixed.csv"
fi

# ---- 6. compare -o: every target checked before the first is written ----
echo victim >"$IN/victim"
for t in compare.csv summary.md regression.png regression.svg; do
	for k in link-file link-dev dangling fifo dir; do
		D=$W/out-$t-$k
		mkdir -p "$D"
		case $k in
		link-file) ln -s "$IN/victim" "$D/$t" ;;
		link-dev) ln -s /dev/null "$D/$t" ;;
		dangling) ln -s "$D/nowhere" "$D/$t" ;;
		fifo) mkfifo "$D/$t" ;;
		dir) mkdir "$D/$t" ;;
		esac
		refused "compare -o DIR, DIR/$t a $k: refused, nothing written" \
			"^vmstat-bench: -o: .*/$t is " \
			"$VSB" compare "$FX/base.csv" "$FX/slower.csv" -o "$D"
	done
done
[ "$(cat "$IN/victim")" = victim ] && ok "... no link's target written" || not_ok "a link's target was written"
D=$W/out-old
mkdir -p "$D" && echo old >"$D/compare.csv" && echo old >"$D/summary.md"
# one run a side: its repetitions judged (--noise-model reps), each point at
# its own alpha (the fixture has too few repetitions to pass a shared one)
"$VSB" compare --noise-model reps --per-point-alpha "$FX/base.csv" "$FX/slower.csv" -o "$D" >/dev/null 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q '^index,label' "$D/compare.csv" && grep -q '^# vmstat-bench compare' "$D/summary.md" &&
	ok "regular files from an older compare are replaced (exit 1: the regression)" ||
	not_ok "older outputs replaced" "exit $rc" "$(head -2 "$D/compare.csv")"

# ---- 7. parameters longer than a point's key: refused, never cut ----
# (a cut key could join two points; the key was written past its end)
LONGV=$(printf 'v%.0s' $(seq 3000))
for c in variant cpus bench; do
	with_cell "$FX/base.csv" "$c" 1-15 "$LONGV" >"$IN/long.csv"
	refused "compare: a $c of 3000 characters refused" \
		"long.csv: row 1: its parameters are longer than 1023 characters" \
		"$VSB" compare "$IN/long.csv" "$FX/base.csv" -o "$W/l"
done

# numbers with a fraction: one syntax (numbers.c, vsb_scan_real), no hex
# float, blank, sign, inf or nan, for every option that takes one
for v in 0x1p-3 ' 0.01' +0.01 inf nan 010 1e 0.01x; do
	refused "compare --alpha '$v': refused" "^vmstat-bench: --alpha: '" \
		"$VSB" compare --alpha "$v" "$FX/base.csv" "$FX/base.csv" -o "$W/a"
done
refused "compare --noise 0x10: refused" "^vmstat-bench: --noise: '0x10'" \
	"$VSB" compare --noise 0x10 "$FX/base.csv" "$FX/base.csv" -o "$W/a"
for v in 0x10 ' 1' 010ms 1e9; do
	refused "--monitor vmstat:'$v': refused" "^vmstat-bench: --monitor: interval '" \
		"$VSB" run --loops 1000 --repeat 1 --monitor "vmstat:$v" -o "$W/m.csv"
done
for v in 0x10 ' 5' inf; do
	refused "trace --duration '$v': refused" "^vmstat-bench: --duration: '" \
		"$VSB" trace --duration "$v"
done

done_testing
