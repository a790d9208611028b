# SPDX-License-Identifier: GPL-2.0
#
# Scaling chart: total throughput (all workers, Mops/s) vs the number of
# CPUs, one line per variant, each with its linear-scaling reference
# (dashed: the per-CPU throughput at the fewest CPUs times the CPUs).
# The gap between a line and its reference is what contention costs.
#
# Extra variables: variants, threads: word lists; ref: per variant the
# per-CPU Mops/s at the fewest CPUs; thr, bat, bits as in variants.gp.

if (!exists("plotsdir")) plotsdir = 'plots'
load plotsdir.'/common.gp'

nv = words(variants)
nt = words(threads)
maxt = word(threads, nt) + 0
keep(i) = plainrow(0) && rowvkey(0) eq word(variants, i) && \
	(!exists('bits') || strcol('variant') eq 'percpu-counter' || \
	 column('diff_bits') == bits) && \
	((strcol('variant') eq 'percpu-counter') ? column('batch') == bat : \
	 (column('threshold') == thr || column('threshold') == 0))

set title maketitle(bat > 0 ? sprintf('Scaling: throughput vs CPUs (threshold %d; percpu\_counter batch %d)', thr, bat) : \
	sprintf('Scaling: throughput vs CPUs (threshold %d)', thr))
set xlabel 'CPUs (one pinned worker each)'
set ylabel 'throughput, all workers (Mops/s, median, 95% CI)'
set xrange [0.5:maxt + 0.5]
set xtics 1
set yrange [0:*]
set key top left

nseries = nv
seriesx = 'nthreads'
load plotsdir.'/gather.gp'
plot for [i=1:nv] $series index (i - 1) using 1:($5 / 1e6):($6 / 1e6):($7 / 1e6) \
	with yerrorlines ls i title vkeyname(word(variants, i)), \
     for [i=1:nv] (x >= 1 ? x * word(ref, i) : NaN) with lines ls i lw 1 dt 2 notitle, \
     NaN with lines lw 1 dt 2 lc rgb '#666666' \
	title sprintf('linear scaling from %s (dashed, same colour)', cpus(word(threads, 1)))
