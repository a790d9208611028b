# SPDX-License-Identifier: GPL-2.0
#
# Live page-fault chart (the 000 seed): cost of one page fault (map,
# write, and its share of the unmap) vs the number of CPUs, one line per
# vm.numa_stat value: what the NUMA counters of zone_statistics() add to
# every page allocation on the running kernel.
#
# Extra variables: sysctls: word list of the sysctl column's values
# ['vm.numa_stat=0 vm.numa_stat=1']; maxt: the largest CPU count [2];
# xt: the core counts (tics; a log2 axis from 8 up).  vmstat-bench plot
# also passes a label per core count: the change from off to on.
# Usage: gnuplot -e "datafile='results/live/sweep.csv'; outfile='numa.png'" \
#        plots/live-numa.gp

if (!exists("plotsdir")) plotsdir = 'plots'
load plotsdir.'/common.gp'
if (!exists("sysctls")) sysctls = 'vm.numa_stat=0 vm.numa_stat=1'
if (!exists("maxt")) maxt = 2

ns = words(sysctls)
keep(i) = strcol('bench') eq 'page-fault' && strcol('sysctl') eq word(sysctls, i)
label(s) = s[strstrt(s, '=') + 1:] eq '0' ? 'numa\_stat off (0)' : 'numa\_stat on (1)'

set title maketitle('Live page faults: cost with and without NUMA statistics')
set xlabel 'CPUs (one pinned worker each, each its own mm)'
set ylabel sprintf('cost per page fault (%s, median, 95%% CI)', unitname)
if (!exists("xt")) xt = ''
if (maxt >= 8) {
	set logscale x 2
	set xrange [0.8:maxt * 1.25]
} else {
	set xrange [0.5:maxt + 0.5]
}
if (words(xt) > 0) { set xtics (); do for [i=1:words(xt)] { set xtics add (word(xt, i) word(xt, i) + 0) } } else { set xtics 1 }
set key top left reverse Left
set yrange [0:*]

nseries = ns
seriesx = 'nthreads'
load plotsdir.'/gather.gp'
plot for [i=1:ns] $series index (i - 1) using 1:2:3:4 with yerrorlines ls i \
	title label(word(sysctls, i))
