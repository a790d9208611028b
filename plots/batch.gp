# SPDX-License-Identifier: GPL-2.0
#
# Batch chart: percpu_counter_add_batch() cost vs the batch (log x), one
# line per core count: the 003 seed (vm_committed_as_batch).  Below the
# batch an update stays on its CPU; past it, it takes the spinlock.
#
# Extra variables: threads: word list of the core counts with
# percpu-counter points.  Points must come in ascending batch order.

if (!exists("plotsdir")) plotsdir = 'plots'
load plotsdir.'/common.gp'

nt = words(threads)
keep(j) = plainrow(0) && strcol('variant') eq 'percpu-counter' && column('nthreads') == word(threads, j) + 0

set title maketitle('percpu\_counter\_add\_batch cost vs batch')
set logscale x 2
set format x '%g'
set offsets graph 0.04, graph 0.04, 0, 0
# tics at the swept values, not at powers of two
if (exists("xt")) { set xtics (); do for [i=1:words(xt)] { set xtics add (word(xt, i) word(xt, i) + 0) } }
set xlabel 'batch (per-CPU count folded under the spinlock past it), log scale'
set ylabel sprintf('cost per update (%s, median, 95%% CI)', unitname)
set yrange [0:*]
set key top right

nseries = nt
seriesx = 'batch'
load plotsdir.'/gather.gp'
plot for [j=1:nt] $series index (j - 1) using 1:2:3:4 with yerrorlines ls j \
	title cpus(word(threads, j))
