#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Repeatability of the user-space counter bench with its defaults: run
# each variant N times (default 10) on one CPU, take each run's median
# cost per update, and report the coefficient of variation of those
# medians across runs, plus the mean within-run CV.  Also prints the
# 2-worker ordering of the variants.  A measurement, not a test: the
# numbers go into docs/measurements.md.
#
# usage: ci/measure-repeatability.sh [RUNS] [CPU]
set -euo pipefail

cd "$(dirname "$0")/.."
VSB=${VSB:-${VSB_BUILD_DIR:-build}/vmstat-bench}
runs=${1:-10}
cpu=${2:-0}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median_of() {	# summary csv -> "median cv" of the "all" row, else worker 0
	awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
		{ m = $c["median"]; v = $c["cv"]; if ($c["thread"] == "all") { print m, v; done = 1; exit } }
		END { if (!done) print m, v }' "$1"
}

printf '%-16s %8s %10s %12s\n' variant "runs" "median" "CV(medians)%"
for v in this-cpu-add plain-fold cmpxchg-local cmpxchg-locked percpu-counter atomic-global; do
	: >"$tmp/m"
	for _ in $(seq "$runs"); do
		"$VSB" run --variant "$v" --cpus "$cpu" -o "$tmp/r.csv" >/dev/null
		median_of "$tmp/r.summary.csv" >>"$tmp/m"
	done
	awk -v v="$v" '{ x[NR] = $1; s += $1; w += $2 }
		END { m = s / NR; for (i = 1; i <= NR; i++) q += (x[i] - m) ^ 2
		      sd = NR > 1 ? sqrt(q / (NR - 1)) : 0
		      printf "%-16s %8d %10.2f %12.2f   (mean within-run CV %.2f%%)\n", v, NR, m, 100 * sd / m, 100 * w / NR }' "$tmp/m"
done

if [ "$(nproc)" -ge 2 ]; then
	echo
	echo "2 workers (CPUs 0-1), threshold 125, s8, median of the per-repetition mean cost:"
	for v in this-cpu-add plain-fold cmpxchg-local cmpxchg-locked atomic-global; do
		"$VSB" run --variant "$v" --cpus 0-1 -o "$tmp/r.csv" >/dev/null
		printf '  %-16s %8.2f tsc/op\n' "$v" "$(median_of "$tmp/r.summary.csv" | cut -d' ' -f1)"
	done
	for t in 32 125; do
		"$VSB" run --variant cmpxchg-local --threshold $t --cpus 0-1 -o "$tmp/r.csv" >/dev/null
		printf '  %-16s %8.2f tsc/op (threshold %d)\n' cmpxchg-local \
			"$(median_of "$tmp/r.summary.csv" | cut -d' ' -f1)" $t
	done
fi
