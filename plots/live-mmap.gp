# SPDX-License-Identifier: GPL-2.0
#
# Live mmap chart (the 003 seed): mmap + munmap pairs per second, all
# workers together, vs the number of CPUs, one line per
# vm.overcommit_memory policy.  Under policy 2 (never) the
# vm_committed_as batch is RAM / CPUs / 256 pages, so a large mapping
# takes the counter's spinlock twice per pair; under 0 and 1 it is 64
# times larger and the pairs stay per-CPU.
#
# Extra variables: sysctls: word list of the sysctl column's values
# ['vm.overcommit_memory=0 vm.overcommit_memory=1 vm.overcommit_memory=2'];
# maxt: the largest CPU count [2]; xt: the core counts (tics; a log2
# axis from 8 up).  vmstat-bench plot also passes a label per core
# count: the throughput change from the first policy to the last.
# Usage: gnuplot -e "datafile='results/live/sweep.csv'; outfile='mmap.png'" \
#        plots/live-mmap.gp

if (!exists("plotsdir")) plotsdir = 'plots'
load plotsdir.'/common.gp'
if (!exists("sysctls")) sysctls = 'vm.overcommit_memory=0 vm.overcommit_memory=1 vm.overcommit_memory=2'
if (!exists("maxt")) maxt = 2

ns = words(sysctls)
keep(i) = strcol('bench') eq 'mmap' && strcol('sysctl') eq word(sysctls, i)
policy(s) = s[strstrt(s, '=') + 1:]
label(s) = 'overcommit\_memory='.policy(s). \
	(policy(s) eq '2' ? ' (never: small batch)' : policy(s) eq '1' ? ' (always)' : ' (heuristic)')

set title maketitle('Live mmap + munmap throughput by overcommit policy')
set xlabel 'CPUs (one pinned worker each, each its own mm)'
set ylabel 'mmap + munmap pairs per second, all workers (k/s, median, 95% CI)'
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
plot for [i=1:ns] $series index (i - 1) using 1:($5 / 1e3):($6 / 1e3):($7 / 1e3) \
	with yerrorlines ls i title label(word(sysctls, i))
