#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ci/hotplug-scaling.sh's guest half on a small shape: take the secondary
# CPUs offline and online with the cpuhp tracepoints on, and get back one
# timed vmstat_cpu_online() call (where refresh_zone_stat_thresholds()
# runs, the 004 thread) per CPU brought up.  Times under TCG are
# emulated: this checks that the measurement works, not what it says.
. "$(dirname "$0")/../lib.sh"
cd "$VSB_ROOT"

for shape in "2 1" "4 2"; do
	set -- $shape
	ci/vm-run.sh --smp "$1" --numa "$2" --mem $((512 * $2)) --timeout 120 \
		--add ci/guest/hotplug-vmstat.sh:hp.sh -- 'sh hp.sh 1' >"$TMP/log" 2>"$TMP/err"
	rc=$?
	if [ "$rc" -eq 4 ]; then
		skip "hotplug timing with $1 vCPUs, $2 nodes" "$(tail -1 "$TMP/err")"
		continue
	fi
	# one "cpu usecs" line per secondary CPU: cpus 1..N-1, each once
	got=$(awk '/^[0-9]+ [0-9.]+$/ && $2 > 0 { print $1 }' "$TMP/log" | sort -n | tr '\n' ' ')
	want=$(seq 1 $(($1 - 1)) | tr '\n' ' ')
	if [ "$rc" -eq 0 ] && [ "$got" = "$want" ]; then
		ok "$1 vCPUs, $2 nodes: vmstat_cpu_online timed once for CPUs $got($(awk '/^[0-9]+ [0-9.]+$/ { printf "%s%s us", s, $2; s = ", " }' "$TMP/log"))"
	else
		not_ok "$1 vCPUs, $2 nodes: vmstat_cpu_online timed for every secondary CPU" \
			"exit $rc, got '$got', want '$want'" "$(tail -3 "$TMP/err")"
	fi
done
done_testing
