#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make run`: the default job, in three parts, all saved under
# results/<date>/ and printed as tables a kernel developer can read:
#
#  1. user space: every counter variant at 1 worker and at 2 (when there
#     are 2 CPUs), threshold 125, s8 diffs, as a table;
#  2. the kernel module: the counter variants that only the kernel has
#     (irqsave) beside this_cpu_cmpxchg and LOCK cmpxchg, and page_bench01
#     / page_bench03 ports, on this host when it can load modules, else in
#     a QEMU guest (timings there are emulated: shape, not speed);
#  3. configs/quick.sweep (thresholds, variants, batches in miniature) and
#     its charts.
set -euo pipefail

cd "$(dirname "$0")/.."
VSB=${VSB:-${VSB_BUILD_DIR:-build}/vmstat-bench}
out=results/$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$out"

# one line per summary CSV: the "all" row when there are several workers
summary_line() {	# summary.csv label cpus
	awk -F, -v v="$2" -v c="$3" '
		/^#/ { next }
		!h { for (i = 1; i <= NF; i++) col[$i] = i; h = 1; next }
		!seen || $col["thread"] == "all" { split($0, best, ","); seen = 1; unit = $col["unit"] }
		END {
			printf "%-22s %-6s %10.2f %-6s %7.2f %10.2f %12.2f\n", v, c,
				best[col["median"]], unit, 100 * best[col["cv"]],
				best[col["ns_per_op_median"]],
				best[col["ops_per_sec_median"]] / 1e6
		}' "$1"
}
header() {
	printf '%-22s %-6s %10s %-6s %7s %10s %12s\n' "$1" cpus "cost/op" unit "cv%" "ns/op" "Mops/s"
}

cpusets=(0)
[ "$(nproc)" -ge 2 ] && cpusets+=(0-1)
variants=(this-cpu-add plain-fold cmpxchg-local cmpxchg-locked percpu-counter atomic-global)

echo "== 1. user space: counter variants, threshold 125, s8 diffs, 10 x 1M updates per worker"
echo "   results: $out/user/"
mkdir -p "$out/user"
header variant
for cpus in "${cpusets[@]}"; do
	for v in "${variants[@]}"; do
		f="$out/user/counter-$v-cpus$cpus.csv"
		"$VSB" run --variant "$v" --cpus "$cpus" -o "$f" >/dev/null 2>"${f%.csv}.err"
		summary_line "${f%.csv}.summary.csv" "$v" "$cpus"
		# each warning names its row; the machine-wide PMU one is said once
		sed "/no hardware PMU/!s/^vmstat-bench: /vmstat-bench: $v cpus $cpus: /" \
			"${f%.csv}.err" >>"$out/user/stderr.log"
	done
done
awk '!seen[$0]++' "$out/user/stderr.log" | sed 's/^/   /'
echo "cost/op: median over repetitions of the cost per update (with 2 workers, their mean);"
echo "Mops/s: all workers together."

echo
echo "== 2. the kernel module: counter variants and page_bench01/03 ports"
mkdir -p "$out/kmod"
kcmd='for v in irqsave cmpxchg-local cmpxchg-locked percpu-counter; do
	$VSB run --backend kmod --variant $v --ncpus all --loops 100000 --repeat 5 -o $OUT/counter-$v.csv >/dev/null || exit $?;
done;
$VSB run --bench page-alloc --loops 20000 --repeat 5 -o $OUT/page-alloc.csv >/dev/null &&
$VSB run --bench page-alloc-parallel --ncpus all --loops 10000 --repeat 5 -o $OUT/page-alloc-parallel.csv >/dev/null'
set +e
ci/kmod-run.sh --smp 2 --out "$out/kmod" -- "$kcmd" 2>"$out/kmod/kmod-run.log"
rc=$?
set -e
grep -E '^kmod-run: ' "$out/kmod/kmod-run.log" | sed 's/^/   /' || true
if [ $rc -eq 0 ]; then
	header "kmod bench, variant"
	for v in irqsave cmpxchg-local cmpxchg-locked percpu-counter; do
		summary_line "$out/kmod/counter-$v.summary.csv" "counter $v" "all"
	done
	summary_line "$out/kmod/page-alloc.summary.csv" "page-alloc order 0" 0
	summary_line "$out/kmod/page-alloc-parallel.summary.csv" "page-alloc-parallel" "all"
	# each sanity line as the CSVs hold it, once: a count in front
	# (uniq -c) read as part of the line
	grep -h '^# sanity:' "$out"/kmod/*.summary.csv | sort -u | sed 's/^/   /'
	if grep -q 'guest' "$out/kmod/kmod-run.log"; then
		echo "   (in a QEMU TCG guest: emulated timings, compare shapes, not numbers;"
		echo "   exact mode counts instructions instead: \`vmstat-bench ab\` does under"
		echo "   TCG, \`run --exact\` in ci/kmod-run.sh --exact's guest; docs/exact.md)"
	fi
elif [ $rc -eq 4 ]; then
	echo "   skipped: $(tail -1 "$out/kmod/kmod-run.log")"
else
	echo "   FAILED (exit $rc); last lines of $out/kmod/kmod-run.log:"
	tail -5 "$out/kmod/kmod-run.log" | sed 's/^/   | /'
fi

echo
echo "== 3. configs/quick.sweep and its charts"
# the summary, and how its repetitions ran: worker processes, and the
# short points whose runs hold several (the rows a reader then finds)
"$VSB" sweep configs/quick.sweep -o "$out/quick" 2>&1 |
	grep -E '^sweep |^repetitions spread over|^[0-9]+ point\(s\) with repetitions this short' |
	sed 's/^/   /'
if "$VSB" plot "$out/quick" -o "$out/quick/charts" >"$out/quick/plot.log" 2>&1; then
	echo "   charts: $(ls "$out"/quick/charts/*.png 2>/dev/null | tr '\n' ' ')"
else
	echo "   charts skipped: $(tail -1 "$out/quick/plot.log")"
fi
echo
echo "done: $out"
