# SPDX-License-Identifier: GPL-2.0
#
# Monitor chart (issue 14): what the machine did while a run was timed.
# Three panels over the same time axis (seconds since the monitor
# started, CLOCK_MONOTONIC): pages allocated and freed per second
# (/proc/vmstat pgalloc_* summed, pgfree); interrupts per second on the
# workers' CPUs (/proc/interrupts) and vmstat_update work items per
# second (BPF trace, when sampled); the share of the workers' CPU time in
# steal, softirq and system (/proc/stat).  The timed windows are shaded.
#
# Reads the table charts_monitor.c derives from FILE.monitor.csv (rates
# between consecutive samples, each an average over its interval, given
# at both ends of the interval so that a line draws it flat) and, in windowfile,
# the windows' begin,end.  A column with no data (source not sampled)
# leaves its line out.

if (!exists("plotsdir")) plotsdir = 'plots'
if (!exists("nwin")) nwin = 0
width = 1280
height = 860
load plotsdir.'/common.gp'

# tmin, tmax: the span of samples and windows; cmax[i]: the largest value
# of rate column i + 1, -1 when the source was not sampled (its line is
# left out of the key) -- both from charts_monitor.c
if (!exists("tmin")) { tmin = 0; tmax = 1 }
if (!exists("cmax")) { array cmax[7] = [-1, -1, -1, -1, -1, -1, -1] }
has(i) = cmax[i] >= 0
pad = (tmax - tmin) * 0.03 + 1e-3
set xrange [tmin - pad:tmax + pad]

# the largest value of each rate column, 0 when it has none
top(m) = m > 0 ? m * 1.15 : 1
# tick labels: plain numbers up to 10000 (an SI prefix without a
# decimal read 1k, 1k, 2k, 2k at a few thousand per second), 50k above
ymt(t) = t < 10000 ? '%g' : '%.0s%c'

# windows shaded from the bottom to the top of the panel (a macro: the
# plot command is built as text so that no window file is read when there
# are none)
shade(yt) = nwin > 0 ? sprintf("windowfile using (($1 + $2) / 2):(%g / 2):1:2:(0):(%g) with boxxyerror fs solid 0.25 noborder lc rgb '#f2a900' title 'timed windows'", yt, yt) : "NaN notitle"

set multiplot layout 3, 1 title maketitle('Machine activity during the run, timed windows shaded') font ',12'
# keys outside on the right, in a margin of fixed width so that the
# three panels share their x axis exactly
set key at screen 0.74, graph 1 left top Left reverse box samplen 2 font ',10' width 1
set lmargin 12
set rmargin 40
set format x '%g'
unset xlabel

# 1: pages per second
yt = top(cmax[1] > cmax[2] ? cmax[1] : cmax[2])
set yrange [0:yt]
set ylabel 'pages/s'
set format y ymt(yt)
S = shade(yt)
plot @S, \
     datafile using 1:2 with lines ls 1 title (has(1) ? 'pgalloc/s (all zones)' : ''), \
     datafile using 1:3 with lines ls 2 title (has(2) ? 'pgfree/s' : '')

# 2: interrupts and vmstat_update per second
yt = top(cmax[3] > cmax[7] ? cmax[3] : cmax[7])
set yrange [0:yt]
set ylabel 'per second'
set format y ymt(yt)
S = shade(yt)
plot @S, \
     datafile using 1:4 with lines ls 3 title (has(3) ? "interrupts/s on the workers' CPUs" : ''), \
     datafile using 1:8 with lines ls 4 title (has(7) ? 'vmstat\_update work items/s (BPF)' : '')

# 3: CPU time of the workers' CPUs
m = cmax[4]
if (cmax[5] > m) { m = cmax[5] }
if (cmax[6] > m) { m = cmax[6] }
yt = m > 0 ? (m * 1.15 > 100 ? 100 : m * 1.15) : 1
set yrange [0:yt]
set ylabel "% of the workers' CPU time"
set format y '%g'
set xlabel 'seconds since the monitor started (CLOCK\_MONOTONIC)'
S = shade(yt)
plot @S, \
     datafile using 1:5 with lines ls 2 title (has(4) ? 'steal' : ''), \
     datafile using 1:6 with lines ls 5 title (has(5) ? 'softirq' : ''), \
     datafile using 1:7 with lines ls 1 title (has(6) ? 'system' : '')
unset multiplot
