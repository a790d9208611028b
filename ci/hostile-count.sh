#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hostile-count.sh - the number of hostile cases, counted by running
# the suite itself (tests/cli/test_hostile*.sh, a few minutes), never
# typed by hand: each script's TAP plan line ("1..N") is its count.
# Prints one line per script and the total; with --update, also writes
# the total into README.md's "(N hostile cases" (the only place the
# README states it).  Exit 1 when a script failed a case: a count from
# a failing suite is not one to publish.
#
# Usage: ci/hostile-count.sh [--update]   (after `make`; VSB= another binary)
set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export VSB=${VSB:-$REPO/build/vmstat-bench} VSB_ROOT=$REPO
total=0 bad=0
for f in "$REPO"/tests/cli/test_hostile*.sh; do
	out=$(bash "$f" 2>/dev/null)
	n=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' <<<"$out" | tail -n1)
	nf=$(grep -c '^not ok' <<<"$out")
	printf '%-32s %5s cases, %s failed\n' "${f#"$REPO"/}" "${n:-?}" "$nf"
	grep '^not ok' <<<"$out" | sed 's/^/  /'
	[ -n "$n" ] || { bad=1; continue; }
	[ "$nf" -eq 0 ] || bad=1
	total=$((total + n))
done
printf '%-32s %5d cases\n' total "$total"
((bad == 0)) || { echo "hostile-count: a script failed: the README is left as it is" >&2; exit 1; }
if [ "${1:-}" = --update ]; then
	# 1234 -> 1,234, as the README writes numbers
	grouped=$(sed ':a;s/\B[0-9]\{3\}\>/,&/;ta' <<<"$total")
	sed -i -E "s/\(([0-9,]+) hostile$/(${grouped} hostile/; s/\(([0-9,]+) hostile cases/(${grouped} hostile cases/" \
		"$REPO/README.md"
	grep -q "(${grouped} hostile" "$REPO/README.md" &&
		echo "README.md: ${grouped} hostile cases" ||
		{ echo "hostile-count: no '(N hostile' in README.md" >&2; exit 1; }
fi
