#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ci/regression as a test: an A/A comparison of configs/quick.sweep must
# report no regression, an A/B one with a known slower side must.  Its
# charts and summaries, and the runs' history (ci/history: index.html and
# trend charts), stay in ci/out/regression for CI to publish.
. "$(dirname "$0")/../lib.sh"

out="$VSB_ROOT/ci/out/regression"
VSB="$VSB" "$VSB_ROOT/ci/regression" "$out" >"$TMP/out" 2>&1
rc=$?
sed 's/^/# /' "$TMP/out"
grep -q '^A/A: no regression' "$TMP/out" && ok "A/A: no regression reported" || not_ok "A/A: no regression reported"
busy=$(grep -m1 '^A/B: NOT JUDGED' "$TMP/out")
if [ -n "$busy" ] && [ $rc -eq 4 ]; then
	skip "A/B: the slower side is reported" "${busy#A/B: }"
	skip "ci/regression exits 0" "exit 4: the A/B was not judged"
else
	grep -q '^A/B: .* reported slower' "$TMP/out" && ok "A/B: the slower side is reported" ||
		not_ok "A/B: the slower side is reported"
	[ $rc -eq 0 ] && ok "ci/regression exits 0" || not_ok "ci/regression exits 0" "exit $rc"
fi
for d in aa ab; do
	[ -s "$out/$d/summary.md" ] && [ -s "$out/$d/compare.csv" ] && ok "$d: summary.md and compare.csv" ||
		not_ok "$d: summary.md and compare.csv"
	if command -v gnuplot >/dev/null; then
		if [ $d = ab ] && [ -n "$busy" ]; then
			skip "$d: regression chart" "no point judged: ${busy#A/B: }"
		else
			[ -s "$out/$d/regression.png" ] && ok "$d: regression chart" || not_ok "$d: regression chart"
		fi
	else
		skip "$d: regression chart" "gnuplot not installed"
	fi
done
# ci/history, called at the end of ci/regression: the runs' history
if grep -q 'db import failed (exit 4)' "$TMP/out"; then
	skip "history: index.html and a trend chart" "this build has no SQLite (ci/history exit 4)"
elif command -v gnuplot >/dev/null; then
	[ -s "$out/history/index.html" ] && ls "$out"/history/*/history.png >/dev/null 2>&1 &&
		ok "history: index.html and a trend chart in $out/history" ||
		not_ok "history: index.html and a trend chart" "$(ls "$out/history" 2>&1 | head -3)"
else
	[ -s "$out/history/index.html" ] && ok "history: index.html in $out/history" ||
		not_ok "history: index.html"
	skip "history: a trend chart" "gnuplot not installed"
fi
done_testing
