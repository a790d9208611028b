# SPDX-License-Identifier: GPL-2.0
#
# Collect the rows of each series into $series (see common.gp): block
# i-1 holds x, median, ci_lo, ci_hi, ops/s median, ops/s CI low and high
# of the rows where keep(i) holds.  Needs nseries, seriesx, keep(i).

$series << EOD
EOD
do for [i=1:nseries] {
	set table $part
	plot datafile using (column(seriesx)):(column('median')):(column('ci_lo')):(column('ci_hi')):(column('ops_per_sec_median')):(column('ops_per_sec_ci_lo')):(column('ops_per_sec_ci_hi')) with table if (keep(i))
	unset table
	set print $series append
	print $part
	print ''
	print ''
	unset print
}
set datafile separator whitespace
set datafile nocolumnheaders
