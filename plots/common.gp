# SPDX-License-Identifier: GPL-2.0
#
# Shared setup of every vmstat-bench chart: terminal (PNG through cairo,
# or SVG), CSV input, a readable default style.  The chart scripts load
# it after setting their own `height` if they need one.
#
# Variables (vmstat-bench plot passes them with gnuplot -e):
#   datafile    the CSV the harness wrote (sweep.csv or compare.csv)
#   outfile     the image to write
#   fmt         'png' or 'svg'
#   charttitle  machine and kernel, from the CSV's metadata
#   unit        the cost unit of the CSV ('tsc', 'cycles', 'ns')

if (!exists("datafile")) datafile = 'sweep.csv'
if (!exists("fmt")) fmt = 'png'
if (!exists("outfile")) outfile = 'chart.'.fmt
if (!exists("charttitle")) charttitle = ''
if (!exists("unit")) unit = 'tsc'
if (!exists("width")) width = 960
if (!exists("height")) height = 600

if (fmt eq 'svg') {
	set terminal svg size width, height dynamic enhanced font 'Sans,13' background rgb 'white'
} else {
	set terminal pngcairo size width, height enhanced font 'Sans,11' background rgb 'white'
}
set output outfile
set datafile separator ','
set datafile columnheaders
set datafile missing 'nan'
set grid ytics xtics lc rgb '#dddddd' lw 1 dt 1
set border 3 lc rgb '#444444'
set tics nomirror out
set key top left Left reverse box lc rgb '#bbbbbb' opaque samplen 2
set style line 1 lc rgb '#1f77b4' lw 2 pt 7 ps 1.0
set style line 2 lc rgb '#d62728' lw 2 pt 5 ps 1.0
set style line 3 lc rgb '#2ca02c' lw 2 pt 9 ps 1.2
set style line 4 lc rgb '#9467bd' lw 2 pt 11 ps 1.2
set style line 5 lc rgb '#ff7f0e' lw 2 pt 13 ps 1.2
set style line 6 lc rgb '#8c564b' lw 2 pt 3 ps 1.0
set style line 7 lc rgb '#17becf' lw 2 pt 2 ps 1.0
set style line 8 lc rgb '#7f7f7f' lw 2 pt 4 ps 1.0
set style increment user

# "tsc" is a clock, not core cycles: say so on the axis
unitname = (unit eq 'tsc') ? 'TSC ticks' : (unit eq 'ns') ? 'ns' : unit
# one title, two lines: what the chart shows, then where it was measured
maketitle(what) = what."\n{/*0.8 ".charttitle."}"

# Lines must join only the rows of their own series, but a row filtered
# out with NaN breaks a gnuplot line.  So each script first collects its
# series into the datablock $series, one block per series (two blank
# lines apart), with `with table if (...)`, then plots `index i-1`.
# The caller sets `nseries`, `seriesx` (the x column) and keep(i).

# The rows the classic counter charts (threshold, variants, scaling,
# batch) read: the counter bench with no fold policy and every worker
# updating.  Drift, staleness and live rows have their own charts.
# vmstat-bench plot sets newcols when the CSV has the bench, backend,
# fold and quiet_workers columns (older sweep.csv files do not).
if (!exists("newcols")) newcols = 0
plainrow(d) = newcols == 0 ? 1 : \
	(strcol('bench') eq 'counter' && strcol('fold') eq 'none' && column('quiet_workers') == 0)
# Variant keys: "cmpxchg-local", or "cmpxchg-local@kmod" when the rows
# come from more than one backend (multib), so user space and module
# results never share a bar or a line.
if (!exists("multib")) multib = 0
rowvkey(d) = multib ? strcol('variant').'@'.strcol('backend') : strcol('variant')
vkeyname(s) = strstrt(s, '@') == 0 ? s : \
	s[1:strstrt(s, '@') - 1].(s[strstrt(s, '@') + 1:] eq 'kmod' ? ' (module)' : ' (user)')
cpus(n) = sprintf('%s CPU%s', n, n eq '1' ? '' : 's')
