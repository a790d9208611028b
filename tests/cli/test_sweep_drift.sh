#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ci/sweep-drift, the bound one-sweep-a-side verdicts live under: its
# figures on known ratios, its refusals, and one tiny real run whose
# ratios are compare's own (plumbing, not figures).
. "$(dirname "$0")/../lib.sh"
SD=$VSB_ROOT/ci/sweep-drift

# Known ratios: pair 1 at 1.02 and 0.97, pair 2 at 1.01.  Deviations 1, 2,
# 3%; the pairs' largest 3% and 1%, so the bound is 3%; times 1.05 the
# points are at +7.1%, +1.9%, +6.1%: 2 of 3 beyond it.
printf '1 1.02\n1 0.97\n2 1.01\n' >"$TMP/known"
expect_exit 0 "--ratios on known ratios" "$SD" --ratios "$TMP/known"
grep -qx 'A/A: 3 points judged by runs in 2 pairs; |NEW/BASE - 1| median 2.0%, 80th 2.0%, 95th 3.0%, largest 3.0%' "$TMP/out" &&
	grep -q 'is at least 3.0% .* beyond it at 2 of 3 points (67%)$' "$TMP/out" &&
	ok "... quantiles, the 19-in-20 bound and the 5% slowdowns beyond it are right" ||
	not_ok "sweep-drift figures on known ratios" "$(cat "$TMP/out")"
# ln of the ratios 0.0198, -0.0305, 0.0100: their MAD 0.0099, the sd 1.46%;
# Phi(ln 1.05 / 0.0146 - 1.645) = Phi(1.70) = 0.955 (Python's NormalDist)
grep -q '^between sweeps: sd 1.5% .* calls a 5% slowdown in at most 95% of pairs; 16 in 20 needs sd <= 2.0%$' "$TMP/out" &&
	ok "... the between-sweep sd and the bound it puts on any test are right" ||
	not_ok "sweep-drift's bound on known ratios" "$(cat "$TMP/out")"
# bound_case NAME LINES PATTERN WHAT: --ratios on the PAIR RATIO LINES
# (printf %b) prints a line matching PATTERN, the check being WHAT
bound_case() {
	printf '%b' "$2" >"$TMP/$1"
	expect_exit 0 "--ratios on $1 ratios" "$SD" --ratios "$TMP/$1"
	grep -q "$3" "$TMP/out" && ok "... $4" || not_ok "sweep-drift on $1 ratios" "$(cat "$TMP/out")"
}
# Wider: 1.00, 1.06, 0.94, the MAD 0.0583, sd 8.64%, Phi(-1.08) = 0.140
bound_case wide '1 1.00\n2 1.06\n3 0.94\n' '^between sweeps: sd 8.6% .* in at most 14% of pairs;' \
	"a drift of 8.6% leaves any test at most 14% of 5% slowdowns"
# An even count takes the mean of the two middle values: ln of 1.00,
# 1.02, 1.04, 1.10 about their median 0.0295 deviate 0.0295, 0.0097,
# 0.0097, 0.0658: the MAD 0.0196, the sd 2.91%, Phi(0.034) = 0.51
bound_case even '1 1.00\n2 1.02\n3 1.04\n4 1.10\n' '^between sweeps: sd 2.9% .* in at most 51% of pairs;' \
	"an even count: the median of the middle two"
bound_case one '1 1.02\n' '^between sweeps: no sd from 1 ratio (3 or more needed)$' \
	"one ratio: no sd, no bound"
bound_case ties '1 1.01\n2 1.01\n3 1.01\n4 1.05\n' \
	'^between sweeps: no sd from 4 ratios (half of them equal: MAD 0)$' "a MAD of 0: no sd, not a bound of 100%"
(cd "$TMP" && "$SD" --ratios known) >"$TMP/rel" 2>&1 &&
	grep -q '^A/A: 3 points' "$TMP/rel" &&
	ok "--ratios FILE relative to where it is run" || not_ok "--ratios with a relative path" "$(cat "$TMP/rel")"

printf '1 1.02\n1 0\n' >"$TMP/zero"
expect_usage_error "--ratios: a ratio of 0" 'line 2 is not PAIR RATIO: 1 0' "$SD" --ratios "$TMP/zero"
printf '1 1.02\n1 x\n' >"$TMP/bad"
expect_usage_error "--ratios: a line that is not PAIR RATIO" 'line 2 is not PAIR RATIO: 1 x' \
	"$SD" --ratios "$TMP/bad"
expect_usage_error "--ratios without a file" '--ratios needs a file' "$SD" --ratios "$TMP/none"
expect_usage_error "N not a number" 'N must be a positive number: 2x' "$SD" 2x
expect_usage_error "N zero" 'N must be a positive number: 0' "$SD" 0
expect_usage_error "a sweep file that is not there" 'no sweep file ' "$SD" 1 "$TMP/none.sweep"

# One real pair of a tiny sweep: its ratio is the one compare.csv holds.
printf '%s\n' "name tiny" "bench counter" "backend user" "variant this-cpu-add" \
	"cpus 0" "loops 20000" "repeat 10" >"$TMP/tiny.sweep"
expect_exit 0 "one pair of default sweeps of a tiny point" \
	env VSB="$VSB" OUT="$TMP/sd" "$SD" 1 "$TMP/tiny.sweep"
want=$(awk -F, '/^#/ { next } !h { for (k = 1; k <= NF; k++) c[$k] = k; h = 1; next }
	$c["test"] == "runs" { print 1, $c["ratio"] }' "$TMP/sd/1/compare.csv")
reg=$(awk -F, '/^#/ { next } !h { for (k = 1; k <= NF; k++) c[$k] = k; h = 1; next }
	$c["regression"] == 1 { r = 1 } END { print r + 0 }' "$TMP/sd/1/compare.csv")
[ -n "$want" ] && [ "$(cat "$TMP/sd/ratios")" = "$want" ] &&
	grep -q "^compare with its defaults reported a regression (exit 1) in $reg of 1 A/A pairs$" "$TMP/out" &&
	grep -q '^A/A: 1 points judged by runs in 1 pairs' "$TMP/out" &&
	ok "... the point judged by runs, its ratio compare's ($want), $reg regression as compare.csv says" ||
	not_ok "sweep-drift's real pair" "$(cat "$TMP/out" "$TMP/err")" "want '$want'" \
		"$(cat "$TMP/sd/ratios" 2>&1)"
[ ! -e "$TMP/sd/1-a" ] && [ ! -e "$TMP/sd/1-b" ] &&
	ok "... the pair's sweep folders removed, its compare output kept" ||
	not_ok "sweep-drift left its sweep folders"
done_testing
