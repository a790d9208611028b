# SPDX-License-Identifier: GPL-2.0
#
# Regression chart of a `vmstat-bench compare -o DIR`: per point the
# NEW/BASE ratio of median costs with its bootstrap 95% CI, red when the
# verdict is slower, green when faster, grey when the same (the CI inside
# the regression threshold), gold when inconclusive (it could not tell),
# light grey, light blue or light orange when not judged (moved or
# disturbed; few-runs or no-model; one-sweep).
# Right of the dashed line at 1 is slower.  Reads compare.csv.
#
# Extra variables: npoints (sizes the chart so every label is readable);
# exact, when every row is an instruction count (exact mode): the words
# say instructions per op, and "same" is the tolerance, not a CI;
# shift, where compare noted that the judged points moved together (the
# median NEW/BASE of them): a dotted purple line there, so each point
# reads against the whole sweep's move as well as against 1.
# alphanote: the alpha the rank test judged at and whether the points
# shared it (compare's default) or each had its own, under the x label.

if (!exists("npoints")) npoints = 10
# at least the key's eight lines tall: shorter, gnuplot breaks it into
# columns over the plot (a one-point comparison, as ci/power-ab's)
height = 200 + 28 * (npoints > 8 ? npoints : 8)
# the labels (48 characters) and the key take 900 pixels; what is left
# is the plot's, where a 5% move must still be seen
width = 1400
if (!exists("plotsdir")) plotsdir = 'plots'
load plotsdir.'/common.gp'

# Not judged, each kind its own colour, never the grey of a judged
# same: moved (the CPUs' distance changed between the sides) and
# disturbed (every repetition of a side), light grey; few-runs and
# no-model (no noise model: too few runs a side, one run and no store),
# light blue; one-sweep (a multi-CPU point's runs one sweep's processes),
# light orange
colour(v) = (v eq 'slower') ? 0xd62728 : (v eq 'faster') ? 0x2ca02c : \
	    (v eq 'moved' || v eq 'disturbed') ? 0xcccccc : \
	    (v eq 'few-runs' || v eq 'no-model') ? 0x9ecae1 : \
	    (v eq 'one-sweep') ? 0xfdae6b : (v eq 'inconclusive') ? 0xd4a017 : \
	    (v eq 'changed') ? 0xe377c2 : 0x999999

# a changed point's label: what moved of the instructions and the special
# ones, the part of compare.csv's change before its first ';' (memory
# operations and the estimates follow); haschange: the file has that column
if (!exists("haschange")) haschange = 0
mixpart(s) = strstrt(s, ';') > 0 ? s[1:strstrt(s, ';') - 1] : s
changelabel(v) = (haschange && v eq 'changed') ? mixpart(strcol('change')) : ''


# a row with no ratio to draw (a side disturbed, or on one side only)
# says why beside its label, or it reads as a point left out
rowlabel(l, v) = (v eq 'disturbed' || v eq 'only-base' || v eq 'only-new') ? l.' ('.v.')' : l

# x range from the data: the CIs plus some room, always showing 1
stats datafile using (column('ratio_ci_lo')) name 'LO' nooutput
stats datafile using (column('ratio_ci_hi')) name 'HI' nooutput
xlo = (LO_min < 0.95 ? LO_min : 0.95) / 1.08
xhi = (HI_max > 1.05 ? HI_max : 1.05) * 1.08

if (!exists("exact")) exact = 0
set title maketitle(exact ? 'NEW / BASE instructions per op per point (exact counts)' : \
		    'NEW / BASE median cost per point (95% CI)')
# the alpha the rank test judged at, shared over the points or not
if (!exists("alphanote")) alphanote = ''
set xlabel exact ? 'NEW / BASE instructions per op (> 1: NEW runs more), log scale' : \
		   'NEW / BASE median cost (> 1: NEW is slower), log scale'. \
		   (alphanote eq '' ? '' : "\n".alphanote)
set logscale x
set xrange [xlo:xhi]
# fine tics for small changes, coarse ones when the range spans decades;
# each set where it fits the plot's 480 pixels in SVG's larger font
# without two labels touching (checked from 1.1x to 50x of range)
r = xhi / xlo
if (r > 30) {
	set xtics (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100)
} else { if (r > 8) {
	set xtics (0.05, 0.1, 0.15, 0.25, 0.35, 0.5, 0.7, 1, 1.4, 2, 3, 5, 7, 10, 15, 20, 30)
} else { if (r > 3) {
	set xtics (0.15, 0.25, 0.35, 0.5, 0.7, 1, 1.4, 2, 3, 4, 5, 6, 8)
} else { if (r > 1.8) {
	set xtics (0.35, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 2, 2.5, 3)
} else { if (r > 1.5) {
	set xtics (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 1, 1.05, 1.1, 1.15, 1.2, 1.25, 1.5, 2)
} else {
	set xtics (0.8, 0.85, 0.9, 0.95, 0.98, 1, 1.02, 1.05, 1.1, 1.15, 1.2, 1.25)
} } } } }
set format x '%g'
set yrange [npoints - 0.5:-0.5]
set ytics scale 0 font ',10' noenhanced	# labels hold '_' (__mod-zone): not subscripts
set grid noytics xtics
set lmargin 48
set arrow from 1, graph 0 to 1, graph 1 nohead dt 2 lc rgb '#444444'
set key outside right top vertical Left reverse nobox
# a median of the ratios lies inside the range; a hand-edited file's may not
if (exists("shift") && shift > xlo && shift < xhi) {
	set arrow from shift, graph 0 to shift, graph 1 nohead dt 3 lw 2 lc rgb '#9467bd'
	shiftkey = sprintf('all judged points moved together: median %.3f', shift)
} else {
	shiftkey = ''
}

plot datafile using (column('ratio')):(column('index')):(column('ratio_ci_lo')):(column('ratio_ci_hi')):(colour(strcol('verdict'))):ytic(rowlabel(strcol('label'), strcol('verdict'))) \
	with xerrorbars lc rgb variable pt 7 ps 1.3 lw 2 notitle, \
     datafile using (column('ratio')):(column('index')):(changelabel(strcol('verdict'))) \
	with labels left offset 1, 0.55 font ',9' tc rgb '#b0308a' noenhanced notitle, \
     NaN with points lc rgb '#d62728' pt 7 ps 1.3 title 'slower', \
     NaN with points lc rgb '#999999' pt 7 ps 1.3 title (exact ? 'same (within 0.1% or 0.05 insn)' : 'same (CI within the threshold)'), \
     NaN with points lc rgb '#d4a017' pt 7 ps 1.3 title 'inconclusive: could not tell', \
     NaN with points lc rgb '#2ca02c' pt 7 ps 1.3 title 'faster', \
     NaN with points lc rgb '#e377c2' pt 7 ps 1.3 title 'changed: no cost model vouches which way', \
     NaN with points lc rgb '#cccccc' pt 7 ps 1.3 title 'not judged: the CPUs moved, or disturbed', \
     NaN with points lc rgb '#9ecae1' pt 7 ps 1.3 title 'not judged: too few runs, no noise model', \
     NaN with points lc rgb '#fdae6b' pt 7 ps 1.3 title 'not judged: one sweep a side (multi-CPU)', \
     NaN with lines dt 3 lw 2 lc rgb '#9467bd' title shiftkey
