#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ci/regression as a test: an A/A comparison of configs/quick.sweep must
# report no regression, an A/B one with a known slower side must.  Its
# charts and summaries stay in ci/out/regression for CI to publish.
. "$(dirname "$0")/../lib.sh"

out="$VSB_ROOT/ci/out/regression"
VSB="$VSB" "$VSB_ROOT/ci/regression" "$out" >"$TMP/out" 2>&1
rc=$?
sed 's/^/# /' "$TMP/out"
grep -q '^A/A: no regression' "$TMP/out" && ok "A/A: no regression reported" || not_ok "A/A: no regression reported"
grep -q '^A/B: .* reported slower' "$TMP/out" && ok "A/B: the slower side is reported" || not_ok "A/B: the slower side is reported"
[ $rc -eq 0 ] && ok "ci/regression exits 0" || not_ok "ci/regression exits 0" "exit $rc"
for d in aa ab; do
	[ -s "$out/$d/summary.md" ] && [ -s "$out/$d/compare.csv" ] && ok "$d: summary.md and compare.csv" ||
		not_ok "$d: summary.md and compare.csv"
	if command -v gnuplot >/dev/null; then
		[ -s "$out/$d/regression.png" ] && ok "$d: regression chart" || not_ok "$d: regression chart"
	else
		skip "$d: regression chart" "gnuplot not installed"
	fi
done
done_testing
