# SPDX-License-Identifier: GPL-2.0
#
# Reading the harness's result CSVs by column name, for the ci scripts
# that source this file.  A column's place moves whenever a parameter
# column is added, so no script reads one by its position.

# csv_cell FILE NAME: NAME's cell in FILE's summary row: the "all" row
# of several workers, else the first data row ('#' lines are metadata);
# nothing when FILE has no such column
csv_cell() {
	awk -F, -v n="$2" '
		/^#/ { next }
		!h { for (i = 1; i <= NF; i++) col[$i] = i; h = 1; next }
		!(n in col) { exit }
		!seen || ("thread" in col && $col["thread"] == "all") { v = $col[n]; seen = 1 }
		END { if (seen) print v }' "$1"
}

# csv_pmu FILE EVENT: the per-op figure of EVENT (tcg:lock, ...) in
# FILE's summary row, found by its place in pmu_events
csv_pmu() {
	local ev per
	ev=$(csv_cell "$1" pmu_events)
	per=$(csv_cell "$1" pmu_per_op)
	awk -v e="$ev" -v p="$per" -v want="$2" 'BEGIN {
		n = split(e, name, ";"); split(p, val, ";")
		for (i = 1; i <= n; i++) if (name[i] == want) { print val[i]; exit }
	}'
}
