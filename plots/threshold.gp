# SPDX-License-Identifier: GPL-2.0
#
# Threshold chart: cost per counter update vs the per-CPU fold threshold
# (log x), one line per core count (and diff width / variant when the
# sweep has more than one): the 001 seed's table as a picture.
# Error bars: bootstrap 95% CI of the median.
#
# Extra variables: st, sb, sv, sk: parallel word lists, one word per
# line: thread count, diff bits, variant, backend ('-': no such column).  Points must come in ascending
# threshold order (list thresholds ascending in the sweep file).

if (!exists("plotsdir")) plotsdir = 'plots'
load plotsdir.'/common.gp'

set title maketitle('Cost of a vmstat counter update vs fold threshold')
set logscale x 2
set xlabel 'per-CPU fold threshold (fold into the shared counter when |diff| > N), log scale'
set ylabel sprintf('cost per update (%s, median, 95%% CI)', unitname)
set yrange [0:*]
set key top right
set format x '%g'
set offsets graph 0.04, graph 0.04, 0, 0
# tics at the swept values, not at powers of two
if (exists("xt")) { set xtics (); do for [i=1:words(xt)] { set xtics add (word(xt, i) word(xt, i) + 0) } }

if (!exists("sk")) sk = ''
bk(i) = words(sk) >= i ? word(sk, i) : '-'
series(i) = sprintf('%s, s%s diffs%s%s', cpus(word(st, i)), word(sb, i), \
	nvariants > 1 ? ', '.word(sv, i) : '', \
	multib ? (bk(i) eq 'kmod' ? ', module' : ', user space') : '')
keep(i) = plainrow(0) && column('threshold') > 0 && strcol('variant') eq word(sv, i) && \
	column('nthreads') == word(st, i) + 0 && column('diff_bits') == word(sb, i) + 0 && \
	(bk(i) eq '-' || strcol('backend') eq bk(i))

nseries = words(st)
seriesx = 'threshold'
load plotsdir.'/gather.gp'
plot for [i=1:nseries] $series index (i - 1) using 1:2:3:4 with yerrorlines ls i title series(i)
