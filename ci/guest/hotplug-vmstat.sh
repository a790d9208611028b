# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the QEMU guest (busybox sh): take every secondary CPU
# offline and online again ROUNDS times with the cpuhp tracepoints on, and
# print one line per vmstat_cpu_online call: "cpu usecs", the time between
# its cpuhp_enter and cpuhp_exit events.  vmstat_cpu_online() is where
# refresh_zone_stat_thresholds() runs (the 004 thread).
#
# usage: sh hotplug-vmstat.sh [ROUNDS]
rounds=${1:-3}
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T || exit 4
[ -d $T/events/cpuhp ] || { echo "no cpuhp tracepoints" >&2; exit 4; }
echo 0 > $T/tracing_on
echo > $T/trace
echo 1 > $T/events/cpuhp/cpuhp_enter/enable
echo 1 > $T/events/cpuhp/cpuhp_exit/enable
echo 1 > $T/tracing_on
r=0
while [ $r -lt "$rounds" ]; do
	for d in /sys/devices/system/cpu/cpu[0-9]*; do
		[ -f $d/online ] || continue
		echo 0 > $d/online && echo 1 > $d/online
	done
	r=$((r + 1))
done
echo 0 > $T/tracing_on
# cpuhp_enter ... (vmstat_cpu_online) then the next cpuhp_exit of that CPU
awk '/cpuhp_enter:/ && /\(vmstat_cpu_online\)/ {
		for (i = 1; i <= NF; i++) if ($i == "cpu:") c = $(i + 1) + 0
		t = $0; sub(/: cpuhp_enter.*/, "", t); n = split(t, a, " "); start[c] = a[n]; next }
     /cpuhp_exit:/ {
		for (i = 1; i <= NF; i++) if ($i == "cpu:") c = $(i + 1) + 0
		if (!(c in start)) next
		t = $0; sub(/: cpuhp_exit.*/, "", t); n = split(t, a, " ")
		printf "%d %.1f\n", c, (a[n] - start[c]) * 1e6; delete start[c] }' $T/trace
