# SPDX-License-Identifier: GPL-2.0
#
# Hotplug chart (issue 7, the 004 seed in a real kernel): the time of
# vmstat_cpu_online() (where refresh_zone_stat_thresholds() runs) per
# CPU online, vs the guest's vCPUs, one line per NUMA node count; the
# median of every online of every secondary CPU (filled marks), the mean
# (open marks: pulled up by the slow outliers of emulation).  Measured
# by ci/hotplug-scaling.sh in a QEMU guest under TCG: the times are
# emulated, so read the growth with vCPUs and nodes, not the values.
#
# Reads hotplug-summary.csv (vcpus,nodes,calls,median_us,mean_us).
# Extra variables: nodes: word list of the node counts.

if (!exists("plotsdir")) plotsdir = 'plots'
load plotsdir.'/common.gp'
if (!exists("nodes")) nodes = '1 2 4 8'

nn = words(nodes)
nodename(n) = sprintf('%s NUMA node%s', n, n eq '1' ? '' : 's')
keep(i) = column('nodes') == word(nodes, i) + 0

$series << EOD
EOD
do for [i=1:nn] {
	set table $part
	plot datafile using (column('vcpus')):(column('median_us')):(column('mean_us')):(column('calls')) with table if (keep(i))
	unset table
	set print $series append
	print $part
	print ''
	print ''
	unset print
}
set datafile separator whitespace
set datafile nocolumnheaders

stats $series using 1 name 'X' nooutput
set title maketitle("vmstat\\_cpu\\_online() time per CPU online vs vCPUs, per NUMA node count\n".\
	'{/*0.8 QEMU TCG guest, emulated: read the growth, not the values}')
set logscale xy 2
set xrange [X_min / 1.25:X_max * 1.25]
set xtics 2 format '%g'
set format y '%g'
set xlabel 'vCPUs of the guest (log scale)'
set ylabel 'time per vmstat\_cpu\_online() ({/Symbol m}s, emulated; log scale)'
set key top left Left reverse box samplen 3

plot for [i=1:nn] $series index (i - 1) using 1:2 with linespoints ls i lw 2 title nodename(word(nodes, i)).', median', \
     for [i=1:nn] $series index (i - 1) using 1:3 with points ls i pt (6 + 0 * i) ps 1.0 notitle, \
     NaN with points pt 6 lc rgb '#444444' title 'open marks: mean (pulled up by outliers)'
