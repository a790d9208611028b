# SPDX-License-Identifier: GPL-2.0
#
# Variants chart: the update primitives side by side (irq-disable,
# this_cpu_cmpxchg, LOCK cmpxchg, ...), one bar per core count, with the
# bootstrap 95% CI of the median as error bars and the median printed
# on each bar.  Threshold and batch are held at one value (thr, bat).
#
# Extra variables: variants, threads: word lists; bits: the diff width
# held (8 where the sweep has it); thr, bat: the held
# threshold and percpu_counter batch.

if (!exists("plotsdir")) plotsdir = 'plots'
load plotsdir.'/common.gp'

nv = words(variants)
nt = words(threads)
vi(s) = sum [i=1:nv] (word(variants, i) eq s ? i : 0)
# module results get their own bars, named on a second tic line
ticname(s) = strstrt(s, '@') == 0 ? s : \
	s[1:strstrt(s, '@') - 1]."\n".(s[strstrt(s, '@') + 1:] eq 'kmod' ? '(module)' : '(user)')
bw = 0.8 / nt
xoff(j) = -0.4 + bw * (j - 0.5)
keep(j) = plainrow(0) && column('nthreads') == word(threads, j) + 0 && \
	(!exists('bits') || strcol('variant') eq 'percpu-counter' || \
	 column('diff_bits') == bits) && \
	((strcol('variant') eq 'percpu-counter') ? column('batch') == bat : \
	 (column('threshold') == thr || column('threshold') == 0))

set title maketitle(bat > 0 ? sprintf('Counter update variants (threshold %d; percpu\_counter batch %d)', thr, bat) : \
	sprintf('Counter update variants (threshold %d)', thr))
set ylabel sprintf('cost per update (%s, median, 95%% CI)', unitname)
set yrange [0:*]
set xrange [0.4:nv + 0.6]
set xtics () scale 0
do for [i=1:nv] { set xtics add (ticname(word(variants, i)) i) }
set grid noxtics
set style fill solid 0.8 border -1
set key top left

# each bar's value above it; more than three bars a variant are too
# narrow for a level label, so the labels then stand upright
barlabel = (nt > 3) ? 'rotate by 90 left offset 0, 0.3' : 'offset 0, 0.6'
plot for [j=1:nt] datafile \
	using (vi(rowvkey(0)) + xoff(j)):(keep(j) ? column('median') : NaN):(column('ci_lo')):(column('ci_hi')):(bw * 0.9) \
	with boxerrorbars lw 1 title cpus(word(threads, j)), \
     for [j=1:nt] datafile \
	using (vi(rowvkey(0)) + xoff(j)):(keep(j) ? column('ci_hi') : NaN):(sprintf('%.1f', column('median'))) \
	with labels @barlabel font ',9' tc rgb '#333333' notitle
