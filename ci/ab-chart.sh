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
# Usage: ci/ab-chart.sh DIR OUT.png 'subtitle'
# Exit status: gnuplot's; 2 usage.

set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
(($# == 3)) || { echo "usage: ci/ab-chart.sh DIR OUT.png 'subtitle'" >&2; exit 2; }
csv=$1/compare/compare.csv
[[ -f $csv ]] || { echo "ab-chart: no $csv" >&2; exit 2; }
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
# columns by name, so a column appended to compare.csv changes nothing
awk 'BEGIN { FS = OFS = "," }
/^#/ { print; next }
!h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; print; next }
{
	cpus = $c["cpus"]
	w = (cpus ~ /[-,]/) ? "CPUs " cpus : "CPU " cpus
	if ($c["bench"] == "counter")
		$c["label"] = $c["variant"] " (" w ")"
	else
		$c["label"] = ($c["bench"] == "page-alloc" ? "page-bench01" : "page-bench03") \
			" order " $c["order"] " (" w ")"
	print
}' "$csv" >"$tmp"
n=$(grep -vc '^#' "$tmp")
gnuplot -e "datafile='$tmp'; outfile='$2'; fmt='png'; npoints=$((n - 1)); plotsdir='$REPO/plots'; charttitle='$3'" \
	"$REPO/plots/regression.gp"
