# SPDX-License-Identifier: GPL-2.0
#
# `vmstat-bench bisect -o OUT`: the metric of each point the endpoints
# differ on, for every commit the bisect measured, placed by the
# commit's position between good (0) and bad (git's topological order).
# Green: good commits, red: bad, grey: skipped.  Reads OUT/bisect.csv
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
set ylabel 'median cost per op, against good'
set key top left
set offsets 0.5, 0.5, 0, 0
vcol(v) = (v eq 'bad') ? 0xd62728 : ((v eq 'good') ? 0x2ca02c : 0x7f7f7f)
sel(i) = (column('series') == i) ? column('metric') : NaN
plot for [i=1:nseries] datafile using (column('place')):(sel(i)):(vcol(strcol('verdict'))) \
	with points pt (6 + i) ps 1.6 lc rgb variable title value(sprintf('t%d', i)), \
     for [i=1:nseries] datafile using (column('place')):(sel(i)) \
	smooth unique with lines lc rgb '#bbbbbb' dt 2 notitle
