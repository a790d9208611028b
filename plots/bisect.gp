# SPDX-License-Identifier: GPL-2.0
#
# `vmstat-bench bisect -o OUT`: the metric of each point the endpoints
# differ on, for every commit the bisect measured, placed by the
# commit's position between good (0) and bad (git's topological order).
# Green: good commits, red: bad, grey: skipped; the y label from the
# rows' unit (instructions per op in exact mode).  Reads OUT/bisect.csv
# (place, commit, verdict, series, metric, unit).
#
# Extra variables: nseries (the points drawn), t1..tN (their labels).
if (!exists("nseries")) nseries = 1
width = 1000
height = 560
if (!exists("plotsdir")) plotsdir = 'plots'
load plotsdir.'/common.gp'

set title maketitle('metric per commit tried (bisect)')
set xlabel 'commit: its place after good (0) towards bad'
# the unit of the rows (one for all: ab compares like with like)
unit = ''
stats datafile using (unit = strcol('unit'), 0) nooutput
set ylabel (unit eq 'insn') ? 'instructions per op (counted: exact mode)' : \
	sprintf('median cost per op (%s)', unit)
set key top left
set offsets 0.5, 0.5, 0, 0
vcol(v) = (v eq 'bad') ? 0xd62728 : ((v eq 'good') ? 0x2ca02c : 0x7f7f7f)
sel(i) = (column('series') == i) ? column('metric') : NaN
# the colour is the commit's verdict; the key names each point's shape
# in grey and each colour once
plot for [i=1:nseries] datafile using (column('place')):(sel(i)):(vcol(strcol('verdict'))) \
	with points pt (6 + i) ps 1.6 lc rgb variable notitle, \
     for [i=1:nseries] keyentry with points pt (6 + i) ps 1.6 lc rgb '#555555' \
	title value(sprintf('t%d', i)), \
     keyentry with points pt 5 ps 1.6 lc rgb '#2ca02c' title 'good commit', \
     keyentry with points pt 5 ps 1.6 lc rgb '#d62728' title 'bad commit', \
     keyentry with points pt 5 ps 1.6 lc rgb '#7f7f7f' title 'skipped'
