#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make run`: the default job.  Runs every user-space counter variant at
# 1 worker and at 2 (when there are 2 CPUs), with the kernel's default
# s8 threshold of 125, saves each point's CSV under results/<date>/, and
# prints one table a kernel developer can read at a glance.
set -euo pipefail

cd "$(dirname "$0")/.."
VSB=${VSB:-${VSB_BUILD_DIR:-build}/vmstat-bench}
out=results/$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$out"

cpusets=(0)
[ "$(nproc)" -ge 2 ] && cpusets+=(0-1)
variants=(this-cpu-add plain-fold cmpxchg-local cmpxchg-locked percpu-counter atomic-global)

echo "vmstat-bench: user-space counter variants, threshold 125, s8 diffs, 10 x 1M updates per worker"
echo "results: $out/"
printf '\n%-16s %-6s %12s %8s %10s %12s\n' variant cpus "tsc/op" "cv%" "ns/op" "Mupdates/s"
for cpus in "${cpusets[@]}"; do
	for v in "${variants[@]}"; do
		f="$out/counter-$v-cpus$cpus.csv"
		"$VSB" run --variant "$v" --cpus "$cpus" -o "$f" >/dev/null
		# the "all" row when there are several workers, else worker 0
		awk -F, -v v="$v" -v c="$cpus" '
			/^#/ { next }
			!h { for (i = 1; i <= NF; i++) col[$i] = i; h = 1; next }
			{ row = $0; split(row, a, ","); last = row }
			a[col["thread"]] == "all" || !seen { split(row, best, ","); seen = 1 }
			END {
				printf "%-16s %-6s %12.2f %8.2f %10.2f %12.1f\n", v, c,
					best[col["median"]], 100 * best[col["cv"]],
					best[col["ns_per_op_median"]],
					best[col["ops_per_sec_median"]] / 1e6
			}' "${f%.csv}.summary.csv"
	done
	echo
done
echo "tsc/op: TSC ticks per update (median of 10 samples; with 2 workers, their mean)."
echo "Mupdates/s: all workers together.  Raw samples and metadata: $out/*.csv"
