# SPDX-License-Identifier: GPL-2.0
#
# The read and fold side on the kernel's own code (ci/kstat-shapes): left,
# __percpu_counter_sum alone and with every other CPU adding, and
# vm.stat_refresh with nothing dirtied and after every CPU dirtied its
# diffs, against the guest's vCPUs (log y); right, mod_zone_page_state
# against the per-CPU threshold set for the run on the kernel under test
# (the 001 curve), the kernel's own threshold marked.  Reads shapes.csv
# 's two tables; TCG: shapes, not the hardware's numbers.
#
# Variables: cpusfile, thrfile, outfile, fmt (common.gp's).

if (!exists("plotsdir")) plotsdir = 'plots'
width = 1300
height = 560
datafile = cpusfile
load plotsdir.'/common.gp'
set datafile columnheaders
set multiplot layout 1, 2 title "The kernel's own code under QEMU TCG (emulated timings: shapes)"
set title 'Read and fold side against the vCPUs'
set xlabel "guest vCPUs (the CPUs a sum or a refresh walks)"
set xrange [1.5:8.5]
set ylabel 'cost per operation (TSC ticks, median)'
set logscale y
set xtics 1
set key top left noenhanced
set yrange [100:3e9]
set format y '10^{%T}'
plot cpusfile using 'vcpus':'pcc_sum' with linespoints ls 1 \
	title '__percpu_counter_sum, nobody adding', \
     cpusfile using 'vcpus':'pcc_sum_adders' with linespoints ls 2 \
	title '__percpu_counter_sum, every other CPU adding (batch 4)', \
     cpusfile using 'vcpus':'refresh_clean' with linespoints ls 3 \
	title 'vm.stat_refresh, nothing dirtied', \
     cpusfile using 'vcpus':'refresh_dirty' with linespoints ls 4 \
	title 'vm.stat_refresh, every CPU dirtied (256 pages)'
unset logscale y
set autoscale y
unset xrange
set title 'mod\_zone\_page\_state against the threshold (2 vCPUs, runs of 256)'
set xlabel 'per-CPU threshold in force (the square: the kernel''s own)'
set ylabel 'cost per update (TSC ticks, median)'
set logscale x 2
set xtics (4, 8, 16, 32, 64, 125)
set yrange [0:*]
set key top right noenhanced
set format y '%g'
plot thrfile using (column('kernels_own') != 0 ? NaN : column('threshold')):'median' \
	with linespoints ls 1 title 'threshold set for the run', \
     thrfile using (column('kernels_own') != 0 ? column('threshold') : NaN):'median' \
	with points ls 2 pt 5 ps 1.8 title "the kernel's own threshold"
unset multiplot
