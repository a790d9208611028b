# SPDX-License-Identifier: GPL-2.0
#
# Trend chart of `vmstat-bench history -o DIR`: one series (a point on
# one machine) across its entries, one entry per run in kernel, revision
# or date order.  Each entry is its median cost per op with the bootstrap
# 95% CI of the median; the orange steps are the segment medians between
# change points; a dashed red line and its label mark each change point
# (the relative change of the segment median).  Reads DIR/NN-.../history.csv.
#
# Extra variables: pointlabel (the point, short), byname (the order),
# nentries, verdict (the --check verdict, one line), regression (0/1),
# hasc2c (1: a multi-CPU point whose runs recorded their CPUs' distance,
# drawn as grey squares on the right axis: a step in cost that follows
# a step in distance is the host's placement, not the code).
if (!exists("hasc2c")) hasc2c = 0

if (!exists("nentries")) nentries = 10
if (!exists("ncp")) ncp = 1
if (!exists("pointlabel")) pointlabel = ''
if (!exists("byname")) byname = 'date'
if (!exists("verdict")) verdict = ''
if (!exists("regression")) regression = 0
width = 1100
height = 640
if (!exists("plotsdir")) plotsdir = 'plots'
load plotsdir.'/common.gp'

# y range from the CIs, with room above for the change point labels
stats datafile using (column('ci_lo')) name 'LO' nooutput
stats datafile using (column('ci_hi')) name 'HI' nooutput
# (stats filters by the y range set: so before it)
if (hasc2c) stats datafile using (column('c2c_ns')) name 'C2C' nooutput
span = HI_max - LO_min
if (span <= 0) span = (abs(HI_max) > 0 ? abs(HI_max) * 0.1 : 1)
ylo = LO_min - 0.08 * span
yhi = HI_max + 0.25 * span
set yrange [ylo:yhi]
set xrange [-0.5:nentries - 0.5]
set x2range [-0.5:nentries - 0.5]

set title maketitle(pointlabel)
set ylabel sprintf('median cost per op (%s), 95%% CI', unitname)
set xlabel 'entries in '.byname.' order (top: entry number)'
# bottom: the kernel, revision or date where a group starts (the harness
# thins them to stay readable); top: entry numbers, as summary.md counts
set xtics rotate by 30 right noenhanced font ',9' scale 0
# entry numbers are whole: gnuplot's own step goes fractional under 5 entries
set x2tics out nomirror font ',9'
if (nentries < 10) set x2tics 1
set grid noxtics x2tics ytics
set bmargin 10
set lmargin 12
set key top left Left reverse opaque box lc rgb '#bbbbbb' samplen 2 font ',10'
set label 1 verdict at screen 0.01, screen 0.025 left noenhanced font ',10' \
	tc rgb (regression ? '#d62728' : '#2ca02c') front

ps_entry = nentries > 200 ? 0.35 : (nentries > 60 ? 0.6 : 0.9)
if (!exists("nmachine")) nmachine = 0
# code: a change point; machine: a step between runs of one build
cp_x(d) = column('cp') > 0 && strcol('cp_kind') eq 'code' ? column('index') - 0.5 : NaN
mach_x(d) = column('cp') > 0 && strcol('cp_kind') eq 'machine' ? column('index') - 0.5 : NaN
# neighbouring change points' labels take turns at three heights
cp_y(d) = yhi - (0.035 + 0.05 * (int(column('cp') - 1) % 3)) * (yhi - ylo)

# the change points' lines and labels only where there are some: gnuplot
# 5.4 crashes on a labels plot whose every x is NaN
cps = ncp > 0 ? ", datafile using (cp_x(0)):(ylo):(0):(yhi - ylo) with vectors nohead dt 2 lw 2 lc rgb '#d62728' title 'change point', datafile using (cp_x(0)):(cp_y(0)):(strcol('cp_label')) with labels left offset 0.4, 0 font ',10' tc rgb '#d62728' noenhanced notitle" : ""
# machine steps grey and dotted: nothing measured changed there
cps = cps . (nmachine > 0 ? ", datafile using (mach_x(0)):(ylo):(0):(yhi - ylo) with vectors nohead dt 3 lw 2 lc rgb '#888888' title 'machine step (one build)', datafile using (mach_x(0)):(cp_y(0)):(strcol('cp_label')) with labels left offset 0.4, 0 font ',10' tc rgb '#666666' noenhanced notitle" : "")

c2c = ''
if (hasc2c) {
	set y2label "CPUs' distance (c2c round trip, ns)" tc rgb '#777777'
	set y2tics nomirror tc rgb '#777777' font ',9'
	# headroom: the squares stay below the key and the change point labels
	set y2range [0:C2C_max * 1.45]
	set ytics nomirror
	set rmargin 10
	c2c = ", datafile using (column('index')):(column('c2c_ns')) axes x1y2 with points pt 5 ps 0.6 lc rgb '#999999' title \"CPUs' distance (right axis)\""
}

plot datafile using (column('index')):(column('median')) \
	with lines lc rgb '#9ecae1' lw 1 notitle, \
     datafile using (column('index')):(column('median')):(column('ci_lo')):(column('ci_hi')):xtic(int(column('show_tick')) ? strcol('tick') : '') \
	with yerrorbars lc rgb '#1f77b4' pt 7 ps ps_entry lw 1 title 'run median (95% CI)', \
     datafile using (column('index') - 0.5):(column('seg_median')):(1):(0) \
	with vectors nohead lc rgb '#ff7f0e' lw 3 title 'segment median' @cps @c2c
