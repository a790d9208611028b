# SPDX-License-Identifier: GPL-2.0
#
# Drift chart (issue 7): the accuracy side of the fold threshold.  Per
# point, x is the largest drift a reader of the shared counter saw
# during the run (the sum of the per-CPU diffs not yet folded:
# |shared counter - true total|, in updates; `--drift`), y the cost per
# update with its bootstrap 95% CI.  One line per variant, fold policy
# and core count, one point per threshold: up and left is dear and
# accurate, down and right cheap and vague.  The rows of numbers along
# the bottom name each point's threshold, one row per core count (drift
# grows with threshold x CPUs, so the same threshold lands further right
# on more CPUs).
#
# Reads the rows of sweep.csv with drift sampling on and no quiet
# workers.  Extra variables (parallel word lists, one word per line):
#   sv  variant (variant@backend when dmultib)   sf  fold policy
#   st  updating threads   sc  colour index (one per variant + policy)
#   sn  dash / point index (one per core count)   lab  1: label this line's thresholds
# Points must come in ascending threshold order (as drift.sweep lists them).

if (!exists("plotsdir")) plotsdir = 'plots'
width = 1400
height = 680
load plotsdir.'/common.gp'
if (!exists("dmultib")) dmultib = 0

ns = words(sv)
rowkey(d) = dmultib ? strcol('variant').'@'.strcol('backend') : strcol('variant')
keep(i) = strcol('bench') eq 'counter' && column('drift') != 0 && \
	column('quiet_workers') == 0 && rowkey(0) eq word(sv, i) && \
	strcol('fold') eq word(sf, i) && column('nthreads') == word(st, i) + 0
foldname(f) = f eq 'none' ? 'threshold folds only' : \
	f eq 'local' ? 'local timer fold' : f eq 'remote' ? 'remote xchg fold' : f
series(i) = sprintf('%s, %s, %s', vkeyname(word(sv, i)), foldname(word(sf, i)), cpus(word(st, i)))
array colours[8] = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#17becf', '#7f7f7f']
array points[4] = [7, 5, 9, 11]
colour(i) = colours[(word(sc, i) + 0 - 1) % 8 + 1]
dash(i) = word(sn, i) + 0
ptype(i) = points[(word(sn, i) + 0 - 1) % 4 + 1]

# collect each line's points: drift_max, median, ci_lo, ci_hi, threshold
$series << EOD
EOD
do for [i=1:ns] {
	set table $part
	plot datafile using (column('drift_max')):(column('median')):(column('ci_lo')):(column('ci_hi')):(column('threshold')) \
		with table if (keep(i) && column('drift_max') > 0)
	unset table
	set print $series append
	print $part
	print ''
	print ''
	unset print
}
set datafile separator whitespace
set datafile nocolumnheaders

stats $series using 4 name 'Y' nooutput
ytop = Y_max * 1.08
# one row of threshold numbers per core count, under the lowest point
nrows = 0
do for [i=1:ns] { if (dash(i) > nrows) { nrows = dash(i) } }
stats $series using 2 name 'M' nooutput
rowh = M_min / (nrows + 1.5)
rowy(i) = rowh * (nrows - dash(i) + 0.6)

stats $series using 1 name 'X' nooutput
if (!exists("interval")) interval = 0
set title maketitle('Cost per update vs the drift a reader sees: the accuracy side of the fold threshold'. \
	(interval > 0 ? "\n".sprintf('{/*0.8 timer folds (local, remote) every %d {/Symbol m}s}', interval) : ''))
set logscale x 10
set xrange [X_min / 1.6:X_max * 1.6]
set format x '10^{%T}'
set xlabel 'max drift seen by a reader (|shared counter - true total|, in updates), log scale'
set ylabel sprintf('cost per update (%s, median, 95%% CI)', unitname)
set yrange [0:ytop]
set key outside right top vertical Left reverse box samplen 3 spacing 1.1 font ',10'

rowname = ''
do for [i=1:ns] { if (word(lab, i) eq '1') { rowname = rowname.(rowname eq '' ? '' : ', ').cpus(word(st, i)) } }
# error bars solid and thin, the lines dashed by core count
plot for [i=1:ns] $series index (i - 1) using 1:2:3:4 with yerrorbars \
	lc rgb colour(i) pt ptype(i) lw 1 notitle, \
     for [i=1:ns] $series index (i - 1) using 1:2 with linespoints \
	lc rgb colour(i) dt dash(i) pt ptype(i) lw 2 title series(i), \
     for [i=1:ns] $series index (i - 1) using 1:(word(lab, i) eq '1' ? rowy(i) : NaN):(sprintf('%d', $5)) \
	with labels font ',9' tc rgb '#444444' notitle, \
     NaN with lines lc rgb 'white' title 'numbers along the bottom: each point''s fold threshold', \
     NaN with lines lc rgb 'white' title sprintf('  (rows top to bottom: %s)', rowname)
