# SPDX-License-Identifier: GPL-2.0
#
# Threshold-refresh chart (issue 7, the 004 seed): what recomputing the
# per-CPU stat thresholds costs while a machine brings its CPUs online,
# per approach: every-online (today: refresh_zone_stat_thresholds() at
# each CPU online), deferred (the 004 patch: one refresh after bring-up)
# and per-node (the review: per-zone values copied into each new CPU).
#   left:  total time of the whole bring-up vs CPUs, log-log, one line
#          per approach (colour) and node count (dash);
#   right: the loop iterations counted, with the thread's estimate
#          nCPU * 2 * nodes * nCPU/2 (black) for comparison.
#
# Reads a CSV with columns approach,nodes,ncpus,iterations,
# seed_estimate,seconds (as `vmstat-bench refresh-model` prints it, or
# as `vmstat-bench plot` derives it from a threshold-refresh sweep,
# which adds seconds_ci_lo, seconds_ci_hi: then with error bars).
# Rows with 0 seconds (below the model's clock resolution) are left out.
# Extra variables: approaches, nodes: word lists; hasci: 1 when the CI
# columns are there.

if (!exists("plotsdir")) plotsdir = 'plots'
width = 1400
height = 640
load plotsdir.'/common.gp'
if (!exists("approaches")) approaches = 'every-online deferred per-node'
if (!exists("nodes")) nodes = '1 4 16'
if (!exists("hasci")) hasci = 0

na = words(approaches)
nn = words(nodes)
apname(a) = a eq 'every-online' ? 'every online (today)' : \
	a eq 'deferred' ? 'deferred (004 patch)' : a eq 'per-node' ? 'per-node (review)' : a
nodename(n) = sprintf('%s node%s', n, n eq '1' ? '' : 's')
array colours[6] = ['#d62728', '#2ca02c', '#1f77b4', '#9467bd', '#ff7f0e', '#8c564b']
array points[4] = [7, 5, 9, 11]
keep(a, n) = strcol('approach') eq word(approaches, a) && column('nodes') == word(nodes, n) + 0
# series (a, n) is block (a - 1) * nn + n - 1 of $series
$series << EOD
EOD
do for [a=1:na] {
	do for [n=1:nn] {
		set table $part
		plot datafile using (column('ncpus')):(column('seconds') > 0 ? column('seconds') : NaN): \
			(hasci ? column('seconds_ci_lo') : NaN):(hasci ? column('seconds_ci_hi') : NaN): \
			(column('iterations')):(column('seed_estimate') > 0 ? column('seed_estimate') : NaN) \
			with table if (keep(a, n))
		unset table
		set print $series append
		print $part
		print ''
		print ''
		unset print
	}
}
set datafile separator whitespace
set datafile nocolumnheaders
blk(a, n) = (a - 1) * nn + n - 1

stats $series using 1 name 'X' nooutput
set multiplot layout 1, 2 title maketitle('Threshold refresh at CPU bring-up: cost vs CPUs, per approach and node count')
set logscale xy
set xrange [X_min / 1.3:X_max * 1.3]
set xtics 1, 2 format '%g'
set mxtics 1
set format y '10^{%T}'
set xlabel 'CPUs brought online (log scale)'
set key top left Left reverse box samplen 3 font ',10' spacing 1.05

set title 'total time of the bring-up'
set ylabel 'seconds, whole bring-up (log scale)'.(hasci ? ' (median, 95% CI)' : '')
plot for [a=1:na] for [n=1:nn] $series index blk(a, n) using 1:2:3:4 with yerrorbars \
	lc rgb colours[(a - 1) % 6 + 1] pt -1 lw 1 notitle, \
     for [a=1:na] for [n=1:nn] $series index blk(a, n) using 1:2 with linespoints \
	lc rgb colours[(a - 1) % 6 + 1] dt n pt points[(n - 1) % 4 + 1] lw 2 \
	title apname(word(approaches, a)).', '.nodename(word(nodes, n))

set title 'loop iterations, next to the 004 thread''s estimate'
set ylabel 'iterations (threshold stores), whole bring-up (log scale)'
plot for [a=1:na] for [n=1:nn] $series index blk(a, n) using 1:5 with linespoints \
	lc rgb colours[(a - 1) % 6 + 1] dt n pt points[(n - 1) % 4 + 1] lw 2 notitle, \
     for [n=1:nn] $series index blk(1, n) using 1:6 with lines lc rgb 'black' dt n lw 1 \
	title 'thread''s estimate nCPU·2·nodes·nCPU/2, '.nodename(word(nodes, n)), \
     NaN with lines lc rgb 'white' title '(coloured: counted, as on the left)'
unset multiplot
