# SPDX-License-Identifier: GPL-2.0
#
# The four 0-day regressions' shapes (ci/0day-shapes over an ab folder of
# configs/0day.sweep): per kernel, spawn's cost against the guest's
# possible CPUs, fallocate's against the memory cgroup depth, a
# memory.stat read's against the number of busy sibling cgroups, and the
# isolated CPU's interruptions and vmstat_update runs per window.  TCG:
# shapes, not the hardware's numbers.
#
# Variables: datafile (shapes.csv), isofile (isolated.csv), basename,
# newname (the kernels), outfile, fmt (common.gp's).

if (!exists("plotsdir")) plotsdir = 'plots'
if (!exists("basename")) basename = 'base'
if (!exists("newname")) newname = 'new'
width = 1300
height = 900
load plotsdir.'/common.gp'
set datafile columnheaders
is(b, s) = strcol('bench') eq b && strcol('series') eq s
set multiplot layout 2, 2 title "The 0-day's statistics regressions in QEMU TCG guests (emulated timings: shapes)" noenhanced
set key top left noenhanced

set title 'spawn: one process created and reaped'
set xlabel 'possible CPUs of the guest (2 online)'
set ylabel 'cost per process (TSC ticks, median)'
set logscale x 2
set yrange [0:*]
set offsets 0, 0, graph 0.35, 0	# room for the key
set format y '%.2s%c'
plot datafile using (is('spawn', 'fork') ? $3 : NaN):'base' w lp ls 1 t 'fork, '.basename, \
     datafile using (is('spawn', 'fork') ? $3 : NaN):'new' w lp ls 2 t 'fork, '.newname, \
     datafile using (is('spawn', 'posix-spawn') ? $3 : NaN):'base' w lp ls 3 t 'posix-spawn, '.basename, \
     datafile using (is('spawn', 'posix-spawn') ? $3 : NaN):'new' w lp ls 4 t 'posix-spawn, '.newname
unset logscale x

set title 'fallocate: tmpfs fallocate + ftruncate per op (fallocate1)'
set xlabel 'memory cgroup depth charged (0: the root)'
set ylabel 'cost per op (TSC ticks, median)'
set yrange [*:*]
set offsets 0, 0, graph 0.3, graph 0.1
plot datafile using (is('fallocate', 'fallocate') ? $3 : NaN):'base' w lp ls 1 t basename, \
     datafile using (is('fallocate', 'fallocate') ? $3 : NaN):'new' w lp ls 2 t newname

set title 'memcg-stat-read: one memory.stat read'
set xlabel 'busy sibling cgroups, a writer in each'
set ylabel 'cost per read (TSC ticks, median)'
set logscale x 2
set yrange [*:*]
set offsets 0, 0, graph 0.5, graph 0.1
plot datafile using (is('memcg-stat-read', 'sibling') ? $3 : NaN):'base' w lp ls 1 t 'a quiet sibling, '.basename, \
     datafile using (is('memcg-stat-read', 'sibling') ? $3 : NaN):'new' w lp ls 2 t 'a quiet sibling, '.newname, \
     datafile using (is('memcg-stat-read', 'parent') ? $3 : NaN):'base' w lp ls 3 t 'their parent, '.basename, \
     datafile using (is('memcg-stat-read', 'parent') ? $3 : NaN):'new' w lp ls 4 t 'their parent, '.newname
unset logscale x

set title 'isolated: a nohz_full CPU busy after dirtying its diffs' noenhanced
set xlabel 'vm.stat_interval (s)' noenhanced
set ylabel 'vmstat_update runs on that CPU, per window' noenhanced
set y2label 'worst one it overlapped (us)'
stats isofile using 7 nooutput
set yrange [0:*]
set y2range [0:(STATS_max > 0 ? STATS_max : 1) * 2.2]	# the points below the key
set ytics nomirror
set y2tics
set rmargin 10	# the y2 label outside the key's box
set key top left
set format y '%g'
set format y2 '%g'
set xrange [0.5:2.5]
set xtics 1
set style fill solid 0.7 border -1
set boxwidth 0.18
set offsets 0, 0, graph 0.6, 0	# room for the key above the boxes
side(s) = strcol('side') eq s
plot isofile using (side('base') ? $2 - 0.2 : NaN):($5 / $3) w boxes ls 1 t 'vmstat_update runs, '.basename, \
     isofile using (side('new') ? $2 + 0.0 : NaN):($5 / $3) w boxes ls 2 t 'vmstat_update runs, '.newname, \
     isofile using (side('base') ? $2 + 0.2 : NaN):7 axes x1y2 w points ls 3 ps 2 t 'worst one (right), '.basename, \
     isofile using (side('new') ? $2 + 0.2 : NaN):7 axes x1y2 w points ls 4 ps 2 t 'the same, '.newname
unset multiplot
