# SPDX-License-Identifier: GPL-2.0
#
# Staleness chart (issue 7, the nohz_full scenario): some workers write,
# then go quiet and are never interrupted (`--quiet-workers`); how long
# does a change stay invisible in the shared counter?  One group per
# fold policy (and variant), two bars each: the longest and the 99th
# percentile staleness the reader saw, log y.  With threshold folds only
# or local (timer on the writer's own CPU) folds, a quiet CPU's diff
# waits for the end of the run; a remote fold reaches it within about
# one fold interval (the dashed line).
#
# Reads the sweep.csv rows with quiet_workers > 0.  Extra variables:
# sv, sf: parallel word lists, one word per group: variant, fold policy;
# qvariants: how many variants; interval: the fold interval in us (0:
# mixed); note: what the groups share (CPUs, quiet ones, threshold).

if (!exists("plotsdir")) plotsdir = 'plots'
load plotsdir.'/common.gp'
if (!exists("interval")) interval = 0
if (!exists("note")) note = ''
if (!exists("qvariants")) qvariants = 1

nc = words(sv)
gi(v, f) = sum [i=1:nc] ((word(sv, i) eq v && word(sf, i) eq f) ? i : 0)
quiet(d) = strcol('bench') eq 'counter' && column('quiet_workers') > 0
foldname(f) = f eq 'none' ? "none\n(threshold folds only)" : \
	f eq 'local' ? "local\n(writer's own timer)" : f eq 'remote' ? "remote\n(shepherd, xchg)" : f
groupname(i) = (qvariants > 1 ? word(sv, i)."\n" : '').foldname(word(sf, i))
us(x) = x >= 1000 ? sprintf('%.1f ms', x / 1000.0) : sprintf('%.0f {/Symbol m}s', x)

# the floor of the log axis: a staleness of 0 (never caught stale) sits on it
floor = 10
stats datafile using (quiet(0) ? column('stale_max_us') : NaN) name 'S' nooutput
set yrange [floor * 0.999:(S_max > interval ? S_max : interval) * 4]
set logscale y 10
set format y '%.0s %cs'
set ytics ('10 {/Symbol m}s' 10, '100 {/Symbol m}s' 100, '1 ms' 1000, '10 ms' 10000, \
	'100 ms' 100000, '1 s' 1e6, '10 s' 1e7)

set title maketitle('How long a quiet CPU''s updates stay invisible, by fold policy'. \
	(note ne '' ? "\n{/*0.8 ".note.(interval > 0 ? sprintf(', timer folds every %d {/Symbol m}s', interval) : '').'}' : ''))
set ylabel 'staleness: time a change stays out of the shared counter (log scale)'
set xlabel 'fold policy (the reader samples every 100 {/Symbol m}s: anything shorter reads as 0)' offset 0, -1.2
set bmargin 5
set xrange [0.4:nc + 0.6]
set xtics () scale 0
do for [i=1:nc] { set xtics add (groupname(i) i) }
set grid noxtics
set style fill solid 0.85 border -1
set style textbox opaque noborder margins 1, 1
set boxwidth 0.36
set key top left reverse Left
if (interval > 0) {
	set arrow from graph 0, first interval to graph 1, first interval nohead dt 2 lw 1.5 lc rgb '#444444' back
}
val(c) = column(c) > floor ? column(c) : floor
x(d) = gi(strcol('variant'), strcol('fold'))

plot datafile using (quiet(0) ? x(0) - 0.19 : NaN):(val('stale_max_us')) with boxes lc rgb '#d62728' title 'longest (max)', \
     datafile using (quiet(0) ? x(0) + 0.19 : NaN):(val('stale_p99_us')) with boxes lc rgb '#ff9896' title '99th percentile', \
     datafile using (quiet(0) ? x(0) - 0.19 : NaN):(val('stale_max_us')):(column('stale_max_us') > 0 ? us(column('stale_max_us')) : '0') \
	with labels boxed offset 0, 0.8 font ',10' tc rgb '#333333' notitle, \
     datafile using (quiet(0) ? x(0) + 0.19 : NaN):(val('stale_p99_us')):(column('stale_p99_us') > 0 ? us(column('stale_p99_us')) : '0') \
	with labels boxed offset 0, 0.8 font ',10' tc rgb '#333333' notitle, \
     (interval > 0 ? NaN : NaN) with lines dt 2 lw 1.5 lc rgb '#444444' \
	title (interval > 0 ? sprintf('fold interval (%s)', us(interval)) : '')
