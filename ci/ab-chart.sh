#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ab-chart.sh - the regression chart of a `vmstat-bench ab` folder for a
# document: compare's own chart script (plots/regression.gp) on
# DIR/compare/compare.csv, with each point labelled by what it is (the
# counter variant or the page bench, and its CPUs) instead of compare's
# generic label, which names every column that differs anywhere in the
# sweep and runs past the chart's margin on a mixed sweep.
#
# Usage: ci/ab-chart.sh DIR OUT.png|OUT.svg 'subtitle'
# Exit status: gnuplot's; 2 usage.

set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
(($# == 3)) || { echo "usage: ci/ab-chart.sh DIR OUT.png 'subtitle'" >&2; exit 2; }
csv=$1/compare/compare.csv
[[ -f $csv ]] || { echo "ab-chart: no $csv" >&2; exit 2; }
fmt=${2##*.}
[[ $fmt == png || $fmt == svg ]] || { echo "ab-chart: $2: the chart is a .png or an .svg" >&2; exit 2; }
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
# columns by name, so a column appended to compare.csv changes nothing;
# the label is what the point times: the counter variant, the kernel
# function (kstat), the page bench, or the bench's own name
awk 'BEGIN { FS = OFS = "," }
/^#/ { print; next }
!h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; print; next }
{
	cpus = $c["cpus"]
	w = (cpus ~ /[-,]/) ? "CPUs " cpus : "CPU " cpus
	b = $c["bench"]
	if (b == "counter")
		what = $c["variant"]
	else if (b == "kstat")
		what = "kstat " $c["op"]
	else if (b == "page-alloc" || b == "page-alloc-parallel")
		what = (b == "page-alloc" ? "page-bench01" : "page-bench03") " order " $c["order"]
	else
		what = b
	$c["label"] = what " (" w ")"
	print
}' "$csv" >"$tmp"
n=$(grep -vc '^#' "$tmp")
# instruction counts (exact mode) get the chart's words for counts, as
# compare's own chart does
exact=$(awk -F, '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) if ($i == "unit") u = i; next }
	{ n++; if ($u == "insn") k++ } END { print (n && k == n) ? 1 : 0 }' "$csv")
# the subtitle goes to gnuplot through the environment: no quoting to get wrong
VSB_AB_SUBTITLE=$3 gnuplot -e "datafile='$tmp'; outfile='$2'; fmt='$fmt'; npoints=$((n - 1)); \
	exact=$exact; plotsdir='$REPO/plots'; charttitle=system('printf %s \"\$VSB_AB_SUBTITLE\"')" \
	"$REPO/plots/regression.gp"
