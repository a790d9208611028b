#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The 004 thread in a real kernel: boot the cached Debian kernel in QEMU
# with growing vCPU and NUMA node counts, cycle every secondary CPU
# offline and online, and time vmstat_cpu_online() (where
# refresh_zone_stat_thresholds() runs) from the cpuhp tracepoints.
# Under TCG the times are emulated: read the growth, not the values.
#
# usage: ci/hotplug-scaling.sh [OUTDIR] [ROUNDS]
# writes OUTDIR/hotplug.csv (raw: vcpus,nodes,cpu,usecs) and
# OUTDIR/hotplug-summary.csv (vcpus,nodes,calls,median_us,mean_us)
set -euo pipefail

cd "$(dirname "$0")/.."
out=${1:-results/hotplug}
rounds=${2:-3}
mkdir -p "$out"
raw="$out/hotplug.csv"
sum="$out/hotplug-summary.csv"
eval "$(ci/kernel-cache.sh)"
kver=$(basename "$KERNEL" | sed 's/^vmlinuz-//')
for f in "$raw.tmp" "$sum.tmp"; do
	{
		echo "# kernel: Linux $kver (guest; QEMU TCG, emulated timings)"
		echo "# cpu_model: QEMU TCG guest on $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
		echo "# command: $0 $*"
		echo "# rounds: $rounds offline/online cycles of every secondary CPU"
	} >"$f"
done
echo "vcpus,nodes,cpu,usecs" >>"$raw.tmp"
echo "vcpus,nodes,calls,median_us,mean_us" >>"$sum.tmp"

for smp in 2 4 8 16 32; do
	for nodes in 1 2 4 8; do
		[ "$nodes" -gt "$smp" ] && continue
		log=$(mktemp)
		if ! ci/vm-run.sh --smp "$smp" --numa "$nodes" --mem $((512 * nodes)) --timeout 300 \
			--add ci/guest/hotplug-vmstat.sh:hp.sh -- "sh hp.sh $rounds" >"$log" 2>&1; then
			echo "hotplug-scaling: $smp vCPUs x $nodes nodes failed:" >&2
			tail -5 "$log" >&2
			rm -f "$log"
			continue
		fi
		grep -E '^[0-9]+ [0-9.]+$' "$log" | awk -v s="$smp" -v n="$nodes" '{ print s "," n "," $1 "," $2 }' >>"$raw.tmp"
		grep -E '^[0-9]+ [0-9.]+$' "$log" | awk '{ print $2 }' | sort -g |
			awk -v s="$smp" -v n="$nodes" '{ v[NR] = $1; t += $1 }
			END { if (NR) printf "%d,%d,%d,%.1f,%.1f\n", s, n, NR,
				(NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, t / NR }' >>"$sum.tmp"
		tail -1 "$sum.tmp" >&2
		rm -f "$log"
	done
done
mv "$raw.tmp" "$raw"
mv "$sum.tmp" "$sum"
cat "$sum"
