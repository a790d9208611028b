#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `vmstat-bench history` on a real SQLite store.  One real run of the
# counter bench is the template; histories with a known shape are made
# from it by rewriting its run_id, date, kernel and git_revision lines
# and scaling its elapsed/ns/per_op columns (no kernels re-run):
#   step: 16 runs on 8 Debian kernels (6.1.0-9 ... 6.12.120+deb12), the
#         6.12 ones 30% slower, dates interleaved so that only the kernel
#         order shows one step: found between 6.1.0-57 and 6.12.100,
#         --check exits 1;
#   flat: 16 runs with the same wobble and no step: no change point,
#         --check exits 0.
# Then the outputs (PNG, SVG, summary.csv, index.html rendered in
# headless Chromium with every chart loaded) and bad input (mixed
# units, unknown --by or --where key, empty store: exit 2).
. "$(dirname "$0")/../lib.sh"

if ! "$VSB" run --bench counter --variant this-cpu-add --cpus 0 --loops 2000 --repeat 5 \
	-o "$TMP/base.csv" >/dev/null 2>"$TMP/run.err"; then
	echo "# $(tail -1 "$TMP/run.err")"
	not_ok "template run"
	done_testing
	exit 1
fi
"$VSB" db import --db "$TMP/probe.db" "$TMP/base.csv" >/dev/null 2>"$TMP/probe.err"
if [ $? -eq 4 ]; then
	echo "1..0 # SKIP $(cat "$TMP/probe.err")"
	exit 4
fi

# craft DST RUN_ID DATE KERNEL REV FACTOR [UNIT]: the template, rewritten
craft() {
	awk -v rid="$2" -v date="$3" -v kern="$4" -v rev="$5" -v f="$6" -v unit="${7:-}" \
	    -F, -v OFS=, '
	/^# run_id:/ { next }
	/^# date:/ { print "# date: " date; print "# run_id: " rid; next }
	/^# kernel:/ { print "# kernel: Linux " kern " #1 SMP PREEMPT_DYNAMIC Debian x86_64"; next }
	/^# git_revision:/ { print "# git_revision: " rev; next }
	/^# unit:/ { if (unit != "") { print "# unit: " unit; next } }
	/^#/ { print; next }
	!hdr { hdr = 1; for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	{
		$c["elapsed"] = sprintf("%d", $c["elapsed"] * f)
		$c["ns"] = sprintf("%d", $c["ns"] * f)
		$c["per_op"] = sprintf("%.4f", $c["per_op"] * f)
		$c["ns_per_op"] = sprintf("%.4f", $c["ns_per_op"] * f)
		if (unit != "") $c["unit"] = unit
		print
	}' "$TMP/base.csv" >"$1"
}

K=(6.1.0-9-cloud-amd64 6.1.0-10-cloud-amd64 6.1.0-47-cloud-amd64 6.1.0-57-cloud-amd64
   6.12.100+deb12-cloud-amd64 6.12.101+deb12-cloud-amd64 6.12.110+deb12-cloud-amd64
   6.12.120+deb12-cloud-amd64)
mkdir -p "$TMP/step" "$TMP/flat"
for i in $(seq 0 15); do
	# even runs on days 1-8, odd ones on days 9-16: in date order the
	# kernels go up twice, so only --by kernel sees a single step
	if [ $((i % 2)) -eq 0 ]; then d=$((1 + i / 2)); else d=$((9 + i / 2)); fi
	wob=$(awk -v i="$i" 'BEGIN { print 1 + 0.004 * ((i * 37) % 7 - 3) }')
	slow=$(awk -v w="$wob" -v i="$i" 'BEGIN { print (i < 8 ? 1 : 1.3) * w }')
	date=$(printf '2026-01-%02dT10:00:00Z' "$d")
	craft "$TMP/step/s$i.csv" "step-$i" "$date" "${K[$((i / 2))]}" "rev$((i / 4))" "$slow"
	craft "$TMP/flat/f$i.csv" "flat-$i" "$date" "${K[$((i / 2))]}" "rev$((i / 4))" "$wob"
done
check "import the step history" "$VSB" db import --db "$TMP/step.db" "$TMP/step"
check "import the flat history" "$VSB" db import --db "$TMP/flat.db" "$TMP/flat"

# ---- the step, by kernel ----
out="$TMP/out-step"
expect_exit 0 "history --by kernel -o" "$VSB" history --db "$TMP/step.db" --by kernel -o "$out"
cp "$TMP/out" "$TMP/step.txt"
sdir=$(ls -d "$out"/01-* 2>/dev/null | head -1)
rows() { grep -v '^#' "$1" | tail -n +2; }
[ "$(rows "$out/summary.csv" | wc -l)" -eq 1 ] && ok "step: one change point" ||
	not_ok "step: one change point" "$(cat "$out/summary.csv")"
cp_line=$(rows "$out/summary.csv")
[[ "$cp_line" == *",7,step-"*",6.1.0-57-cloud-amd64,"*",8,step-"*",6.12.100+deb12-cloud-amd64,"* ]] &&
	ok "step: found between 6.1.0-57 and 6.12.100+deb12 (entries 7 -> 8)" ||
	not_ok "step: found between 6.1.0-57 and 6.12.100+deb12" "$cp_line"
rel=$(echo "$cp_line" | awk -F, '{ print $(NF - 3) }')
awk -v r="$rel" 'BEGIN { exit !(r > 0.27 && r < 0.33) }' && ok "step: relative size +30% ($rel)" ||
	not_ok "step: relative size +30%" "got $rel"
first=$(rows "$sdir/history.csv" | head -3 | cut -d, -f3 | tr '\n' ' ')
[ "$first" = "6.1.0-9-cloud-amd64 6.1.0-9-cloud-amd64 6.1.0-10-cloud-amd64 " ] &&
	ok "by kernel: version order (6.1.0-9 before 6.1.0-10)" || not_ok "by kernel: version order" "$first"
expect_exit 1 "history --check --by kernel: the newest entry regressed" \
	"$VSB" history --db "$TMP/step.db" --by kernel --check
grep -q 'REGRESSION: counter this-cpu-add cpus=0 on m-' "$TMP/err" &&
	ok "--check names the series" || not_ok "--check names the series" "$(cat "$TMP/err")"
expect_exit 0 "history --by revision" "$VSB" history --db "$TMP/step.db" --by revision -o "$TMP/out-rev"
expect_exit 0 "history (by date)" "$VSB" history --db "$TMP/step.db" -o "$TMP/out-date"

# ---- CPUs moved: compare's rule over time, through the store ----
# 16 runs by date, the last 8 twice as slow and of a new revision; in
# "moved" their c2c_ns is 200 against 80 before (the host put the vCPUs
# farther apart), in "still" 80 throughout: the same step is not judged
# in the first and a regression in the second
mkdir -p "$TMP/moved" "$TMP/still"
for i in $(seq 0 15); do
	wob=$(awk -v i="$i" 'BEGIN { print (i < 8 ? 1 : 2) * (1 + 0.004 * ((i * 37) % 7 - 3)) }')
	date=$(printf '2026-02-%02dT10:00:00Z' $((i + 1)))
	rev=rev1
	[ "$i" -ge 8 ] && rev=rev2
	for d in moved still; do
		c=80
		[ $d = moved ] && [ "$i" -ge 8 ] && c=200
		craft "$TMP/$d/x$i.csv" "$d-$i" "$date" "${K[0]}" $rev "$wob"
		sed -i "/^# date:/a # c2c_ns: $c.0 (test)" "$TMP/$d/x$i.csv"
	done
done
check "import the moved history" "$VSB" db import --db "$TMP/moved.db" "$TMP/moved"
check "import the still history" "$VSB" db import --db "$TMP/still.db" "$TMP/still"
expect_exit 1 "still: 2x at one distance, --check: a regression" \
	"$VSB" history --db "$TMP/still.db" --check
expect_exit 0 "moved: 2x with the CPUs 2.5x farther apart, --check: exit 0" \
	"$VSB" history --db "$TMP/moved.db" --check
grep -q 'not judged: counter this-cpu-add cpus=0 on m-.* its CPUs moved (c2c 80 -> 200 ns)' "$TMP/err" &&
	grep -q 'change at entry 8: .*(CPUs moved: c2c 80 -> 200 ns)' "$TMP/out" &&
	grep -q 'newest entry: not judged, +[0-9.]*% vs entries 0-7 but its CPUs moved' "$TMP/out" &&
	ok "moved: the change point marked, the newest entry not judged, said why" ||
	not_ok "moved: marked and said" "$(cat "$TMP/out" "$TMP/err")"
expect_exit 0 "moved: history -o (the chart draws the distance)" \
	"$VSB" history --db "$TMP/moved.db" -o "$TMP/out-moved"
mcsv=$(ls "$TMP"/out-moved/01-*/history.csv 2>/dev/null | head -1)
[ -n "$mcsv" ] && [ "$(rows "$mcsv" | awk -F, '{ print $(NF - 1) }' | sort -u | tr '\n' ' ')" = "200.0 80.0 " ] &&
	grep -q 'CPUs moved' "$mcsv" && { ! command -v gnuplot >/dev/null || [ -s "${mcsv%.csv}.png" ]; } &&
	ok "moved: history.csv carries each run's c2c_ns and the moved label; chart drawn" ||
	not_ok "moved: history.csv c2c_ns" "$(cat "$mcsv" 2>&1 | tail -3)"

# ---- one build: a step where nothing measured changed ----
# 16 runs by date, one kernel, the last 8 1.3x slower.  "same": one
# clean revision throughout: the machine moved, not the code: a machine
# step, --check exits 0 and says why.  "dirty": the same runs of an
# edited tree ("-dirty" does not say which code ran): a change point
# and a regression.  "patched": the last 8 of a new revision: the same.
mkdir -p "$TMP/same" "$TMP/dirty" "$TMP/patched"
for i in $(seq 0 15); do
	wob=$(awk -v i="$i" 'BEGIN { print (i < 8 ? 1 : 1.3) * (1 + 0.004 * ((i * 37) % 7 - 3)) }')
	date=$(printf '2026-03-%02dT10:00:00Z' $((i + 1)))
	rev=abc1234
	[ "$i" -ge 8 ] && rev=def5678
	craft "$TMP/same/x$i.csv" "same-$i" "$date" "${K[4]}" abc1234 "$wob"
	craft "$TMP/dirty/x$i.csv" "dirty-$i" "$date" "${K[4]}" abc1234-dirty "$wob"
	craft "$TMP/patched/x$i.csv" "patched-$i" "$date" "${K[4]}" $rev "$wob"
done
for d in same dirty patched; do
	check "import the $d history" "$VSB" db import --db "$TMP/$d.db" "$TMP/$d"
done
expect_exit 0 "one build: +30% between runs of one kernel and revision, --check: exit 0" \
	"$VSB" history --db "$TMP/same.db" --check -o "$TMP/out-same"
grep -q ' 0 change points, 1 machine step; newest entry: not judged, +[0-9.]*% vs entries 0-7 but all of one build' "$TMP/out" &&
	grep -q '^  machine step at entry 8: .*(one build on both sides: the machine or its load moved, not the code)$' "$TMP/out" &&
	grep -q 'not judged: counter this-cpu-add cpus=0 on m-.*one build (kernel 6.12.100+deb12-cloud-amd64, revision abc1234): the machine moved' "$TMP/err" &&
	ok "one build: listed as a machine step, the newest entry not judged, said why" ||
	not_ok "one build: a machine step" "$(cat "$TMP/out" "$TMP/err")"
scsv=$(ls "$TMP"/out-same/01-*/history.csv 2>/dev/null | head -1)
[ "$(rows "$TMP/out-same/summary.csv" | awk -F, '{ print $NF }')" = machine ] &&
	[ "$(rows "$scsv" | awk -F, '$11 > 0 { print $1, $NF }')" = "8 machine" ] &&
	grep -q '| 16 | 0 | 1 | not judged' "$TMP/out-same/summary.md" &&
	grep -q 'machine step: one build' "$TMP/out-same/index.html" &&
	{ ! command -v gnuplot >/dev/null || [ -s "${scsv%.csv}.png" ]; } &&
	ok "one build: kind machine in summary.csv and history.csv, counted apart in summary.md, said in index.html; chart drawn" ||
	not_ok "one build: the files say machine" "$(cat "$TMP/out-same/summary.csv")" "$(tail -3 "$scsv")"
for d in dirty patched; do
	expect_exit 1 "$d: the same step, --check: a regression" \
		"$VSB" history --db "$TMP/$d.db" --check
	grep -q ' 1 change point; newest entry: REGRESSION' "$TMP/out" &&
		grep -q '^  change at entry 8: ' "$TMP/out" && ! grep -q 'machine step' "$TMP/out" &&
		ok "$d: a change point of the code, not a machine step" ||
		not_ok "$d: a change point" "$(cat "$TMP/out")"
done

# ---- the flat history ----
expect_exit 0 "flat: history --by kernel --check exits 0" \
	"$VSB" history --db "$TMP/flat.db" --by kernel --check -o "$TMP/out-flat"
[ "$(rows "$TMP/out-flat/summary.csv" | wc -l)" -eq 0 ] && ok "flat: no change point" ||
	not_ok "flat: no change point" "$(cat "$TMP/out-flat/summary.csv")"
grep -q 'newest entry: same (' "$TMP/out" &&
	grep -q "^history --check: no regression: every judged series' newest entry the same within" "$TMP/out" &&
	ok "flat: the newest entry the same, its CI within +-2%" || not_ok "flat: same" "$(cat "$TMP/out")"

# ---- too short, too noisy: inconclusive, exit 5, never "no regression" ----
mkdir -p "$TMP/short" "$TMP/noisy"
cp "$TMP"/flat/f[0-4].csv "$TMP/short/"
for i in $(seq 0 15); do
	wob=$(awk -v i="$i" 'BEGIN { print 1 + 0.08 * ((i * 37) % 7 - 3) }')
	craft "$TMP/noisy/n$i.csv" "noisy-$i" "$(printf '2026-02-%02dT10:00:00Z' $((i + 1)))" \
		"${K[0]}" rev0 "$wob"
done
check "import the short and the noisy histories" eval '"$VSB" db import --db "$TMP/short.db" "$TMP/short" &&
	"$VSB" db import --db "$TMP/noisy.db" "$TMP/noisy"'
expect_exit 5 "short: 5 entries, --check: inconclusive (exit 5)" \
	"$VSB" history --db "$TMP/short.db" --check
grep -q 'newest entry: inconclusive (5 entries: no baseline' "$TMP/out" &&
	grep -q '^history --check: inconclusive; 1 series: .* 1 inconclusive, 0 not judged; a series too short' "$TMP/out" &&
	! grep -q 'no regression' "$TMP/out" &&
	ok "short: said too short to judge, not no regression" || not_ok "short" "$(cat "$TMP/out")"
expect_exit 5 "noisy: entries 24% apart, --check: inconclusive (exit 5)" \
	"$VSB" history --db "$TMP/noisy.db" --check
grep -q 'newest entry: inconclusive (.*could not tell changes below [0-9.]*%)' "$TMP/out" &&
	grep -q 'this store could not tell steps below [0-9.]*%' "$TMP/out" &&
	ok "noisy: inconclusive, with the smallest step it could have called" ||
	not_ok "noisy" "$(cat "$TMP/out")"

# ---- outputs ----
if command -v python3 >/dev/null; then
	check "summary.csv parses (22 columns, RFC 4180)" python3 -c '
import csv, sys
rows = list(csv.reader(l for l in open(sys.argv[1]) if not l.startswith("#")))
assert rows[0][0] == "series" and len(rows) == 2, rows
assert all(len(r) == 22 for r in rows), [len(r) for r in rows]
assert rows[1][1].startswith("bench=counter,"), rows[1][1]
' "$out/summary.csv"
else
	skip "summary.csv parses" "python3 not installed"
fi
if command -v gnuplot >/dev/null; then
	[ "$(head -c 8 "$sdir/history.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
		ok "trend chart: a PNG" || not_ok "trend chart: a PNG" "$sdir"
	if command -v xmllint >/dev/null; then
		check "trend chart: well-formed SVG" xmllint --noout "$sdir/history.svg"
	else
		grep -q '</svg>' "$sdir/history.svg" && ok "trend chart: an SVG" || not_ok "trend chart: an SVG"
	fi
else
	skip "trend charts" "gnuplot not installed"
fi
grep -q 'newest entry is a regression' "$out/index.html" && ok "index.html: the verdict" ||
	not_ok "index.html: the verdict"

chrome=$(command -v chromium || command -v chromium-browser)
if [ -z "$chrome" ]; then
	skip "index.html in headless Chromium" "chromium not installed (apt-get install chromium)"
elif ! command -v gnuplot >/dev/null; then
	skip "index.html in headless Chromium" "no charts without gnuplot"
else
	opts=(--headless --no-sandbox --disable-gpu --disable-dev-shm-usage
	      --user-data-dir="$TMP/chrome")
	# a first start on a fresh machine, beside the VM lane's guests, can
	# take longer than one try's minute: a second try before judging
	for try in 1 2; do
		timeout 90 "$chrome" "${opts[@]}" --dump-dom "file://$out/index.html" \
			>"$TMP/dom" 2>"$TMP/chrome.err"
		grep -q '<img' "$TMP/dom" && break
	done
	grep -q '<img' "$TMP/dom" || echo "# chromium: $(tail -3 "$TMP/chrome.err" | tr '\n' ' ')"
	srcs=$(grep -o '<img src="[^"]*"' "$TMP/dom" | sed 's/<img src="//; s/"$//')
	nimg=0 missing=
	for s in $srcs; do
		nimg=$((nimg + 1))
		[ -s "$out/$s" ] && grep -q '</svg>' "$out/$s" || missing="$missing $s"
	done
	[ "$nimg" -eq 1 ] && [ -z "$missing" ] && ok "Chromium: every chart of index.html loads ($nimg)" ||
		not_ok "Chromium: every chart of index.html loads" "$nimg images, missing:$missing"
	timeout 60 "$chrome" "${opts[@]}" --screenshot="$TMP/shot.png" --window-size=1200,2000 \
		"file://$out/index.html" >/dev/null 2>&1
	[ -s "$TMP/shot.png" ] && ok "Chromium: index.html renders" ||
		not_ok "Chromium: index.html renders"
fi

# ---- bad input ----
craft "$TMP/m1.csv" mix-1 2026-02-01T00:00:00Z 6.1.0-9-cloud-amd64 r 1
craft "$TMP/m2.csv" mix-2 2026-02-02T00:00:00Z 6.1.0-9-cloud-amd64 r 1 ns
"$VSB" db import --db "$TMP/mixed.db" "$TMP/m1.csv" "$TMP/m2.csv" >/dev/null 2>&1
expect_usage_error "mixed units on a point: exit 2 naming it" 'point bench=counter.*mixed units' \
	"$VSB" history --db "$TMP/mixed.db" -o "$TMP/out-mixed"
[ ! -e "$TMP/out-mixed" ] && ok "mixed units: nothing written" || not_ok "mixed units: nothing written"
# a fleet is not a mixed point: a host with a PMU counts cycles, a VM
# TSC ticks, and each machine is a series of its own
craft "$TMP/m3.csv" mix-3 2026-02-03T00:00:00Z 6.1.0-9-cloud-amd64 r 1 cycles
sed -i 's/^# cpu_model: .*/# cpu_model: Another CPU with a PMU/' "$TMP/m3.csv"
"$VSB" db import --db "$TMP/fleet.db" "$TMP/m1.csv" "$TMP/m3.csv" >/dev/null 2>&1
expect_exit 0 "two machines, tsc and cycles, on one point: exit 0" \
	"$VSB" history --db "$TMP/fleet.db" -o "$TMP/out-fleet"
units=$(cat "$TMP"/out-fleet/*/history.csv 2>/dev/null | sed -n 's/^# unit: //p' | sort | tr '\n' ' ')
[ "$units" = "cycles tsc " ] &&
	ok "... one series per machine, each in its own unit ($units)" ||
	not_ok "... one series per machine, each in its own unit" "units: '$units'" \
		"$(ls "$TMP/out-fleet" 2>&1)"
expect_usage_error "unknown --by" "--by 'week'" \
	"$VSB" history --db "$TMP/step.db" --by week -o "$TMP/x"
expect_usage_error "--where with an unknown key" "no stored point has a parameter 'colour'" \
	"$VSB" history --db "$TMP/step.db" --where colour=red -o "$TMP/x"
expect_usage_error "--where matching nothing" "no stored run matches" \
	"$VSB" history --db "$TMP/step.db" --where variant=none -o "$TMP/x"
# 64 pairs fill the table; more, in one --where or the next, are refused
# (the sanitizer build of make check runs this too: no write past it)
w64=$(for i in $(seq 1 64); do printf 'variant=this-cpu-add,'; done)
expect_exit 0 "--where with 64 pairs" "$VSB" history --db "$TMP/step.db" --where "${w64%,}" -o "$TMP/w64"
expect_usage_error "--where with 65 pairs: refused" "history: --where '.*': want KEY=VALUE" \
	"$VSB" history --db "$TMP/step.db" --where "${w64}variant=this-cpu-add"
expect_usage_error "a second --where past 64 pairs: refused" "history: --where 'cpus=0'" \
	"$VSB" history --db "$TMP/step.db" --where "${w64%,}" --where cpus=0
expect_usage_error "unknown --machine" "no such machine" \
	"$VSB" history --db "$TMP/step.db" --machine m-nothere -o "$TMP/x"
expect_usage_error "no -o and no --check" "-o DIR" "$VSB" history --db "$TMP/step.db"
if command -v sqlite3 >/dev/null; then
	sqlite3 "$TMP/empty.db" 'VACUUM'
	expect_usage_error "empty store" "holds no runs" \
		"$VSB" history --db "$TMP/empty.db" -o "$TMP/x"
else
	skip "empty store" "sqlite3 (the CLI) not installed"
fi

# the CI step (ci/history) on ci/regression's own runs is checked by
# tests/cli/test_regression.sh, which makes them
done_testing
