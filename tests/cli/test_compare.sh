#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `vmstat-bench compare` on hand-made result files whose statistics are
# known: completely separated 5 vs 5 samples have the exact two-sided
# Mann-Whitney p = 2/252 = 0.0079, so the p-gate (alpha), the noise gate
# and the --max-regression limit can each be flipped on purpose.  Each
# file is one run, whose repetitions only --noise-model reps judges:
# compare's default leaves a one-run point without a noise model unjudged
# (tests/cli/test_compare_auto.sh), so the verdicts pinned here say so.
. "$(dirname "$0")/../lib.sh"

HDR='bench,backend,variant,cpus,nthreads,threshold,diff_bits,items,batch,delta,loops,order,outstanding,thread,cpu,rep,ops,elapsed,unit,event,plm,ns,per_op,ns_per_op,folds'

mkcsv() {	# mkcsv FILE UNIT THRESHOLD VALUE...: one worker, one rep per value
	local f=$1 unit=$2 thr=$3 rep=0; shift 3
	{ echo "# cpu_model: Test CPU"; echo "# kernel: Linux 6.1.0-test #1 SMP"; echo "$HDR"
	  for v in "$@"; do
		echo "counter,user,cmpxchg-local,0,1,$thr,8,1,32,1,1000,0,0,0,0,$rep,1000,0,$unit,rdtscp,,1000,$v,1,0"
		rep=$((rep + 1))
	  done; } >"$f"
}

mkcsv "$TMP/base.csv" tsc 125 10 11 12 13 14
mkcsv "$TMP/slow.csv" tsc 125 20 21 22 23 24
mkcsv "$TMP/same.csv" tsc 125 10 11 12 13 14
mkcsv "$TMP/b100.csv" tsc 125 100 100.1 100.2 100.3 100.4
mkcsv "$TMP/n101.csv" tsc 125 101 101.1 101.2 101.3 101.4
mkcsv "$TMP/ns.csv" ns 125 20 21 22 23 24
mkcsv "$TMP/other.csv" tsc 64 20 21 22 23 24
mkcsv "$TMP/few.csv" tsc 125 20 21 22

expect_exit 1 "separated samples, +83%: a regression (exit 1)" \
	"$VSB" compare --noise-model reps "$TMP/base.csv" "$TMP/slow.csv"
if grep -q 'slower (+83.3%)  REGRESSION' "$TMP/out" && grep -q '0.0079' "$TMP/out"; then
	ok "verdict slower, +83.3%, exact p 0.0079 printed"
else
	not_ok "verdict slower, +83.3%, exact p 0.0079 printed" "$(cat "$TMP/out")"
fi
expect_exit 5 "the same change with --alpha 0.005 (> p = 0.0079): inconclusive (exit 5)" \
	"$VSB" compare --noise-model reps "$TMP/base.csv" "$TMP/slow.csv" --alpha 0.005
grep -q 'inconclusive (MDE ' "$TMP/out" && grep -q '^verdict: inconclusive: 1 of 1' "$TMP/out" &&
	ok "alpha gate: inconclusive with its MDE, never no-change" ||
	not_ok "alpha gate: inconclusive" "$(cat "$TMP/out")"
# identical files whose repetitions spread 10..14: the floor (13%) is
# wider than 5%, so the run cannot say they are the same within 5%
expect_exit 5 "identical files, repetitions 13% apart: inconclusive (exit 5)" \
	"$VSB" compare --noise-model reps "$TMP/base.csv" "$TMP/same.csv"
grep -q ' inconclusive (MDE ' "$TMP/out" && ! grep -q 'no regression' "$TMP/out" &&
	ok "A/A, wide: inconclusive, the headline never says no regression" ||
	not_ok "A/A wide: inconclusive" "$(cat "$TMP/out")"
expect_exit 0 "identical narrow files: exit 0" "$VSB" compare --noise-model reps "$TMP/b100.csv" "$TMP/b100.csv"
grep -q ' same$' "$TMP/out" && grep -q '^verdict: no regression beyond 5%: every judged point the same within +-5%: 0 slower, 0 faster, 1 same, 0 inconclusive$' "$TMP/out" &&
	ok "A/A, narrow: same, and the headline says so with the counts" ||
	not_ok "A/A narrow: same" "$(cat "$TMP/out")"

expect_exit 0 "a significant 1% change stays under the 2% noise floor" \
	"$VSB" compare --noise-model reps "$TMP/b100.csv" "$TMP/n101.csv"
grep -q ' same$' "$TMP/out" && ok "noise gate: same (CI inside +-5%)" || not_ok "noise gate: same" "$(cat "$TMP/out")"
expect_exit 0 "--noise 0.5: slower, but within --max-regression 5" \
	"$VSB" compare --noise-model reps "$TMP/b100.csv" "$TMP/n101.csv" --noise 0.5
grep -q 'slower (+1.0%)$' "$TMP/out" && ok "noise 0.5: verdict slower (+1.0%)" ||
	not_ok "noise 0.5: verdict slower (+1.0%)" "$(cat "$TMP/out")"
expect_exit 1 "--noise 0.5 --max-regression 0.5: a regression" \
	"$VSB" compare --noise-model reps "$TMP/b100.csv" "$TMP/n101.csv" --noise 0.5 --max-regression 0.5
expect_exit 0 "NEW faster than BASE is not a regression" \
	"$VSB" compare --noise-model reps "$TMP/slow.csv" "$TMP/base.csv"
grep -q 'faster (-45.5%)' "$TMP/out" && ok "verdict faster (-45.5%)" || not_ok "verdict faster" "$(cat "$TMP/out")"

expect_usage_error "different units are refused" "different units" \
	"$VSB" compare "$TMP/base.csv" "$TMP/ns.csv"
expect_exit 4 "no matching point: exit 4" "$VSB" compare "$TMP/base.csv" "$TMP/other.csv"
grep -q 'only in NEW: cmpxchg-local' "$TMP/err" && grep -q 'only in BASE' "$TMP/err" &&
	ok "unmatched points are listed on both sides" || not_ok "unmatched points listed" "$(cat "$TMP/err")"
expect_exit 0 "--ignore threshold matches them" \
	"$VSB" compare --noise-model reps "$TMP/base.csv" "$TMP/other.csv" --ignore threshold --max-regression 100
"$VSB" compare --noise-model reps "$TMP/base.csv" "$TMP/few.csv" >"$TMP/out" 2>"$TMP/err"
grep -q 'as few as 3 repetitions' "$TMP/err" && ok "too few repetitions: warned" ||
	not_ok "too few repetitions: warned" "$(cat "$TMP/err")"

cp "$TMP/base.csv" "$TMP/x.summary.csv"
sed -i 's/,rep,/,repx,/' "$TMP/x.summary.csv"
expect_usage_error "a summary file instead of raw samples" "raw sample" \
	"$VSB" compare "$TMP/x.summary.csv" "$TMP/slow.csv"
expect_usage_error "a missing file" "no such file" "$VSB" compare "$TMP/nope.csv" "$TMP/slow.csv"
expect_usage_error "one argument only" "needs BASE and NEW" "$VSB" compare "$TMP/base.csv"
expect_usage_error "a bad --alpha" "alpha" "$VSB" compare --alpha 2 "$TMP/base.csv" "$TMP/slow.csv"
head -c 300 "$TMP/base.csv" >"$TMP/trunc.csv"
expect_usage_error "a truncated file" "fewer cells" "$VSB" compare "$TMP/trunc.csv" "$TMP/slow.csv"

expect_exit 1 "-o DIR: written even when exiting 1" \
	"$VSB" compare --noise-model reps "$TMP/base.csv" "$TMP/slow.csv" -o "$TMP/cmp"
if grep -q ',slower,1,1,1,,pooled,[0-9.]*,rank,,,$' "$TMP/cmp/compare.csv" && grep -q 'REGRESSION' "$TMP/cmp/summary.md"; then
	ok "compare.csv and summary.md carry the verdict"
else
	not_ok "compare.csv and summary.md carry the verdict"
fi
# each side's kernel and config, and where they differ, say so: an A/B
# of kernels is about them (the config names the vmstat update path)
grep -qx -- '- kernel config: unknown' "$TMP/cmp/summary.md" &&
	! grep -q 'differs' "$TMP/cmp/summary.md" &&
	grep -qx '# new_kernel_config: unknown' "$TMP/cmp/compare.csv" &&
	ok "the same kernel on both sides: one kernel and config line, none 'differs'" ||
	not_ok "the same kernel on both sides: one kernel and config line" "$(head -8 "$TMP/cmp/summary.md")"
sed 's/^# kernel: Linux 6.1.0-test/# kernel: Linux 6.12.9-test/
     1i # kernel_config: HAVE_CMPXCHG_LOCAL=n (vmstat updates: irq-disable)' \
	"$TMP/slow.csv" >"$TMP/slow612.csv"
"$VSB" compare --noise-model reps "$TMP/base.csv" "$TMP/slow612.csv" -o "$TMP/cmpk" >/dev/null 2>&1
grep -qx -- '- kernel differs: base `Linux 6.1.0-test #1 SMP`, new `Linux 6.12.9-test #1 SMP`' \
	"$TMP/cmpk/summary.md" &&
	grep -qx -- '- kernel config differs: base `unknown`, new `HAVE_CMPXCHG_LOCAL=n (vmstat updates: irq-disable)`' \
	"$TMP/cmpk/summary.md" &&
	grep -qx '# new_kernel_config: HAVE_CMPXCHG_LOCAL=n (vmstat updates: irq-disable)' "$TMP/cmpk/compare.csv" &&
	grep -qx '# new_kernel: Linux 6.12.9-test #1 SMP' "$TMP/cmpk/compare.csv" &&
	ok "two kernels: summary.md says both differ, compare.csv has each side's" ||
	not_ok "two kernels: summary.md says both differ" "$(head -9 "$TMP/cmpk/summary.md")"
# Every judged point 10% slower: said once as a shift they share (the
# machine's, or a change common to all), each verdict left as it is; one
# point slower among four is that point's, no note.
mkdir -p "$TMP/sh/a" "$TMP/sh/all" "$TMP/sh/one"
# 8 repetitions: alpha is shared over the 4 points (compare_family.c), and
# a lone slower point must reach p < 0.01 / 4, beyond 5 and 5's reach
for thr in 8 32 64 125; do
	mkcsv "$TMP/sh/a/t$thr.csv" tsc $thr 100 101 102 103 104 105 106 107
	mkcsv "$TMP/sh/all/t$thr.csv" tsc $thr 110 111.1 112.2 113.3 114.4 115.5 116.6 117.7
	cp "$TMP/sh/a/t$thr.csv" "$TMP/sh/one/t$thr.csv"
done
mkcsv "$TMP/sh/one/t8.csv" tsc 8 110 111.1 112.2 113.3 114.4 115.5 116.6 117.7
expect_exit 1 "four points all 10% slower: each a regression, as before" \
	"$VSB" compare --noise-model reps "$TMP/sh/a" "$TMP/sh/all" -o "$TMP/sh/cmp-all"
grep -q 'note: the 4 judged points moved together, their median NEW/BASE 1.100: .*read each point.s ratio against 1.100' "$TMP/err" &&
	grep -qx '# common_shift: 1.1 over 4 judged points' "$TMP/sh/cmp-all/compare.csv" &&
	grep -qx '# common_shift_shown: yes' "$TMP/sh/cmp-all/compare.csv" &&
	grep -q '^- the 4 judged points moved together' "$TMP/sh/cmp-all/summary.md" &&
	ok "... and one note, in stderr, compare.csv and summary.md, that they moved together" ||
	not_ok "... and one note that they moved together" "$(cat "$TMP/err")" "$(grep common_shift "$TMP/sh/cmp-all/compare.csv")"
expect_exit 1 "one point of four 10% slower: a regression" \
	"$VSB" compare --noise-model reps "$TMP/sh/a" "$TMP/sh/one" -o "$TMP/sh/cmp-one"
! grep -q 'moved together' "$TMP/err" "$TMP/sh/cmp-one/summary.md" &&
	grep -qx '# common_shift: 1 over 4 judged points' "$TMP/sh/cmp-one/compare.csv" &&
	grep -qx '# common_shift_shown: no' "$TMP/sh/cmp-one/compare.csv" &&
	ok "... that point's own: no shared-shift note (median NEW/BASE 1)" ||
	not_ok "... that point's own: no shared-shift note" "$(cat "$TMP/err")"
if command -v gnuplot >/dev/null; then
	[ "$(head -c 4 "$TMP/cmp/regression.png" | tail -c 3)" = PNG ] && grep -q '<svg' "$TMP/cmp/regression.svg" &&
		ok "regression chart in PNG and SVG" || not_ok "regression chart in PNG and SVG"
	# the shared shift drawn where it was noted, by compare and by plot
	"$VSB" plot "$TMP/sh/cmp-all" -o "$TMP/sh/plot-all" >/dev/null 2>&1
	grep -q 'all judged points moved together: median 1.100' "$TMP/sh/cmp-all/regression.svg" &&
		grep -q 'all judged points moved together: median 1.100' "$TMP/sh/plot-all/regression.svg" &&
		! grep -q 'moved together' "$TMP/sh/cmp-one/regression.svg" &&
		ok "... the shared shift a dotted line in the chart where noted (compare and plot), none where not" ||
		not_ok "the shared shift in the regression chart" \
			"$(grep -c 'moved together' "$TMP/sh/cmp-all/regression.svg" "$TMP/sh/plot-all/regression.svg" "$TMP/sh/cmp-one/regression.svg" 2>&1)"
	# the alpha the points were judged at, under the axis: shared over
	# the 4 (compare's default) or each point's own
	"$VSB" compare --noise-model reps --per-point-alpha "$TMP/sh/a" "$TMP/sh/one" \
		-o "$TMP/sh/cmp-own" >/dev/null 2>&1
	grep -q 'alpha 0.01 shared over 4 points (Benjamini-Hochberg)' "$TMP/sh/cmp-one/regression.svg" &&
		grep -q 'alpha 0.01 a point' "$TMP/sh/cmp-own/regression.svg" &&
		! grep -q 'shared over' "$TMP/sh/cmp-own/regression.svg" &&
		ok "... the chart says the alpha: shared over the 4 points, or a point's own" ||
		not_ok "the alpha under the regression chart's axis" \
			"$(grep -o 'alpha [^<]*' "$TMP/sh/cmp-one/regression.svg" "$TMP/sh/cmp-own/regression.svg" 2>&1)"
	# a label with a comma, quoted in the CSV, is drawn whole: gnuplot's
	# strcol() alone would cut it at the comma (plot.c's gp_data_copy)
	mkdir -p "$TMP/sh/comma"
	awk -F, -v OFS=, '/^#/ || !h { if (!/^#/) h = 1; print; next }
		!d { $2 = "\"cpus=0,1 whole\""; d = 1 } { print }' \
		"$TMP/sh/cmp-all/compare.csv" >"$TMP/sh/comma/compare.csv"
	"$VSB" plot "$TMP/sh/comma" -o "$TMP/sh/comma-out" >"$TMP/out" 2>&1
	grep -q 'cpus=0.*1 whole' "$TMP/sh/comma-out/regression.svg" &&
		[ -z "$(find "$TMP/sh/comma-out" -name '.*')" ] &&
		ok "a quoted label with a comma is drawn whole, and plot leaves no copy behind" ||
		not_ok "a quoted label with a comma is drawn whole" "$(cat "$TMP/out")" \
			"$(grep -o 'cpus=0[^<]*' "$TMP/sh/comma-out/regression.svg")"
	# a point on one side only: compare writes its other side as nan, and
	# plot draws the folder as compare did (nan is "not measured"), while
	# an infinite ratio is still refused
	mkdir -p "$TMP/sh/three"
	cp "$TMP/sh/a/t32.csv" "$TMP/sh/a/t64.csv" "$TMP/sh/a/t125.csv" "$TMP/sh/three/"
	"$VSB" compare --noise-model reps "$TMP/sh/a" "$TMP/sh/three" -o "$TMP/sh/cmp-three" >/dev/null 2>&1
	expect_exit 0 "plot of a compare folder with an only-base point (median_new nan)" \
		"$VSB" plot "$TMP/sh/cmp-three" -o "$TMP/sh/plot-three"
	grep -q ',only-base,0,0,0,,none,,none,,,$' "$TMP/sh/cmp-three/compare.csv" &&
		grep -q '<svg' "$TMP/sh/plot-three/regression.svg" &&
		grep -q 'thr=8 (only-base)' "$TMP/sh/plot-three/regression.svg" &&
		ok "... drawn, as compare drew it, the point without a ratio labelled why" ||
		not_ok "plot of a compare folder with an only-base point" "$(cat "$TMP/err")"
	mkdir -p "$TMP/sh/inf"
	awk -F, -v OFS=, '/^#/ { print; next } !h { for (i = 1; i <= NF; i++) if ($i == "ratio") c = i; h = 1; print; next }
		!d && $c != "nan" { $c = "inf"; d = 1 } { print }' "$TMP/sh/cmp-three/compare.csv" >"$TMP/sh/inf/compare.csv"
	expect_usage_error "plot: a compare.csv ratio of inf still refused" 'ratio is inf, not a positive finite cost' \
		"$VSB" plot "$TMP/sh/inf" -o "$TMP/sh/plot-inf"
else
	skip "regression chart" "gnuplot not installed"
fi
# A multi-CPU point whose sides ran with the CPUs at different distances
# (c2c_ns) is not judged: the host moved the vCPUs, not the code.  The
# same files with equal distances are a regression.
"$VSB" run --variant atomic-global --cpus 0,1 --loops 20000 --repeat 10 --warmup 0 \
	-o "$TMP/mc.csv" >/dev/null 2>&1
if grep -q '^# c2c_ns: [0-9]' "$TMP/mc.csv"; then
	ok "a 2-CPU result records its CPUs' distance (c2c_ns)"
	# costs set by hand (10 ticks, 20 on NEW, a little spread), so that
	# the verdict is the distance check's and not the machine's noise
	setcost() {	# FILE C2C BASECOST
		awk -F, -v c2c="$2" -v cost="$3" 'BEGIN { OFS = "," }
			/^# c2c_ns:/ { print "# c2c_ns: " c2c " (test)"; next }
			/^# run_id:/ { print "# run_id: " c2c "-" cost; next }
			/^#/ { print; next }
			!h { for (i = 1; i <= NF; i++) if ($i == "per_op") c = i; h = 1; print; next }
			{ $c = cost * (1 + 0.001 * (NR % 7)); print }' "$1"
	}
	setcost "$TMP/mc.csv" 100.0 10 >"$TMP/mc-near.csv"
	setcost "$TMP/mc.csv" 100.0 20 >"$TMP/mc-slow-near.csv"
	setcost "$TMP/mc.csv" 300.0 20 >"$TMP/mc-slow-far.csv"
	expect_exit 1 "2 CPUs, same distance, 2x: a regression" \
		"$VSB" compare --noise-model reps "$TMP/mc-near.csv" "$TMP/mc-slow-near.csv"
	"$VSB" compare --noise-model reps "$TMP/mc-near.csv" "$TMP/mc-slow-far.csv" \
		-o "$TMP/mv" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	# compare.csv's test column: none, not the test the pair would have had
	[ $rc -eq 0 ] && grep -q ' moved (c2c 100 -> 300 ns)' "$TMP/out" &&
		grep -q 'not judged (verdict `moved`)' "$TMP/err" &&
		grep -q ',moved,0,1,1,,none,,none,,,$' "$TMP/mv/compare.csv" &&
		grep -q '^# noise_models: 0 runs, 0 store, 0 pooled, 1 not judged' "$TMP/mv/compare.csv" &&
		ok "2 CPUs, 3x farther apart on NEW: not judged (moved, test none), exit 0" ||
		not_ok "2 CPUs, 3x farther apart: moved" "exit $rc" "$(cat "$TMP/out" "$TMP/err")"
	"$VSB" compare "$TMP/mc-near.csv" "$TMP/mc-slow-far.csv" --runs-only >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc -eq 0 ] && grep -q ' few-runs$' "$TMP/out" && ! grep -q 'moved' "$TMP/out" &&
		ok "moved and too few runs (--runs-only): few-runs, the reason that holds anyway" ||
		not_ok "--runs-only before moved" "exit $rc" "$(cat "$TMP/out" "$TMP/err")"
else
	not_ok "a 2-CPU result records its CPUs' distance (c2c_ns)" "$(grep c2c "$TMP/mc.csv")"
fi
# a run folder holding a monitor series beside the result: the series is not a result
mkdir -p "$TMP/ma" "$TMP/mb"
for d in ma mb; do
	"$VSB" run --bench counter --variant this-cpu-add --cpus 0 --loops 20000 --repeat 5 \
		--monitor vmstat:100ms -o "$TMP/$d/r.csv" >/dev/null 2>&1
done
expect_exit 0 "folders with FILE.monitor.csv beside FILE.csv compare" \
	"$VSB" compare "$TMP/ma" "$TMP/mb" --max-regression 1000
# --runs-only (ab passes it): one run a side is not judged, whatever the
# pooled repetitions say; the ratio is still shown and written
expect_exit 0 "--runs-only, one run a side, +83% pooled: not judged (exit 0)" \
	"$VSB" compare "$TMP/base.csv" "$TMP/slow.csv" --runs-only -o "$TMP/ro"
if grep -q '1.833 \[.*few-runs$' "$TMP/out" && ! grep -q REGRESSION "$TMP/out" &&
   grep -q -- '--runs-only: 1 point not judged (verdict `few-runs`).* needs 5 runs a side' "$TMP/err" &&
   grep -q ',few-runs,0,1,1,,none,,none,,,$' "$TMP/ro/compare.csv"; then
	ok "few-runs in the table and compare.csv (test none), the ratio kept, stderr says why"
else
	not_ok "--runs-only output" "$(cat "$TMP/out" "$TMP/err")" "$(tail -n1 "$TMP/ro/compare.csv")"
fi
expect_exit 1 "-o in folders not there yet: made, the outputs written" \
	"$VSB" compare --noise-model reps "$TMP/base.csv" "$TMP/slow.csv" -o "$TMP/deep/er/cmp"
[ -s "$TMP/deep/er/cmp/compare.csv" ] && [ -s "$TMP/deep/er/cmp/summary.md" ] &&
	ok "... compare.csv and summary.md in the new folders" ||
	not_ok "-o nested" "$(cat "$TMP/err")"
grep -q '^- \*\*verdict: not judged: no point could be judged: 0 slower, 0 faster, 0 same, 0 inconclusive, 1 not judged\*\*' \
	"$TMP/ro/summary.md" && ok "summary.md counts it not judged, not as no change" ||
	not_ok "summary.md verdict counts" "$(grep verdicts "$TMP/ro/summary.md")"
"$VSB" compare "$TMP/base.csv" "$TMP/few.csv" --runs-only >"$TMP/out" 2>"$TMP/err"
! grep -q 'as few as 3 repetitions' "$TMP/err" && grep -q 'few-runs' "$TMP/out" &&
	ok "--runs-only, 3 repetitions: no advice about repetitions, which are not tested" ||
	not_ok "--runs-only repetitions warning" "$(cat "$TMP/err")"

# exact mode's counts (unit insn) are drawn in their own words: no CI,
# no "median cost"; a timed comparison keeps its words
F=tests/fixtures/compare/verdicts
"$VSB" compare $F/insn/base.csv $F/insn/slower.csv -o "$TMP/cx" >/dev/null 2>&1
grep -q 'instructions per op per point (exact counts)' "$TMP/cx/regression.svg" &&
	grep -q 'same (within 0.1% or 0.05 insn)' "$TMP/cx/regression.svg" &&
	! grep -q 'median cost' "$TMP/cx/regression.svg" && ! grep -q 'alpha 0' "$TMP/cx/regression.svg" &&
	ok "an insn comparison's chart says instructions per op and the tolerance, no alpha" ||
	not_ok "an insn comparison's chart says instructions per op and the tolerance"
# fewer instructions is not faster: the irqsave patch's mix is changed,
# exit 5, painted pink with what moved beside it; the LOCK patch is a
# regression, exit 1, with every model's estimate in its change cell
expect_exit 5 "exact: the irqsave patch (-4.89 insn, +cli +sti +pushf) is changed, exit 5" \
	"$VSB" compare $F/mix/base.csv $F/mix/irqsave.csv -o "$TMP/cirq"
grep -q ',changed,0,.*,exact,[0-9.]*,none,"-4.89 insn, -1 cmpxchg, +1 pushf, +1 cli, +1 sti;.*? zen3' \
	"$TMP/cirq/compare.csv" &&
	grep -q -- '-4.89 insn.* -1 cmpxchg.* +1 pushf.* +1 cli.* +1 sti<' "$TMP/cirq/regression.svg" &&
	grep -q 'changed: no cost model vouches which way' "$TMP/cirq/regression.svg" &&
	grep -q 'changed: 1 of 1 judged points' "$TMP/cirq/summary.md" &&
	ok "... compare.csv says what moved and why, the chart labels it, summary.md says changed" ||
	not_ok "exact changed: compare.csv, chart, summary.md" "$(tail -1 "$TMP/cirq/compare.csv")"
expect_exit 1 "exact: the LOCK patch (+5 insn, a local cmpxchg locked) is a regression, exit 1" \
	"$VSB" compare $F/mix/base.csv $F/mix/lock.csv -o "$TMP/clock"
grep -q ',slower,1,.*,costs,"+5 insn, +1 lock, -1 cmpxchg_local; est +[0-9.]* skl, +[0-9.]* zen3, +[0-9.]* icl[^"]*"' \
	"$TMP/clock/compare.csv" && ok "... decided by costs, every model's estimate up" ||
	not_ok "exact LOCK patch by costs" "$(tail -1 "$TMP/clock/compare.csv")"
# --costs: the measured table that prices insn rows for this CPU; a file
# of another format or missing a row is refused in one line, exit 2
printf 'label,side,insn_per_op\n' >"$TMP/mix.csv"
expect_usage_error "--costs: a file of another format" "not a vmstat-bench cost table" \
	"$VSB" compare --costs "$TMP/mix.csv" $F/mix/base.csv $F/mix/lock.csv
{ printf '# vmstat-bench cost table, version 1\nprim,median,lo,hi,n\n'
  printf 'add_chain,1,1,1,5\n'; } >"$TMP/short.costs"
expect_usage_error "--costs: a table missing a class" "missing" \
	"$VSB" compare --costs "$TMP/short.costs" $F/mix/base.csv $F/mix/lock.csv
expect_exit 1 "--costs none: the cited models alone still call the LOCK patch" \
	"$VSB" compare --costs none $F/mix/base.csv $F/mix/lock.csv -o "$TMP/cnone"
grep -q '^# cost_models: skl, zen3, icl$' "$TMP/cnone/compare.csv" &&
	grep -q '^# cost_host: none (--costs none)$' "$TMP/cnone/compare.csv" &&
	ok "... compare.csv names the models and says no host table" ||
	not_ok "--costs none metadata" "$(grep cost_ "$TMP/cnone/compare.csv")"
"$VSB" compare $F/narrow-base $F/narrow-slow -o "$TMP/ct" >/dev/null 2>&1
grep -q 'NEW / BASE median cost per point' "$TMP/ct/regression.svg" &&
	ok "a timed comparison's chart keeps its median cost" ||
	not_ok "a timed comparison's chart keeps its median cost"

done_testing
