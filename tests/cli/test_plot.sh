#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `vmstat-bench plot`: every chart of a small real sweep, in PNG and SVG,
# titled with the machine; a clear skip (4) without gnuplot.  Also the
# drift and staleness charts (a small drift sweep), the live charts (a
# hand-made sweep.csv: the real one needs root), the refresh chart
# (refresh-model's CSV, and a tiny threshold-refresh sweep whose sanity
# line must hold) and the hotplug chart (a hotplug-summary.csv).
. "$(dirname "$0")/../lib.sh"

cpus="0"
[ "$(nproc)" -ge 2 ] && cpus="0 | 0-1"
cat >"$TMP/p.sweep" <<EOF
cpus $cpus
loops 20000
repeat 3
[thr]
variant cmpxchg-local
threshold 8,32,125
[var]
variant this-cpu-add, atomic-global
[pcc]
variant percpu-counter
batch 1,32,1024
EOF
"$VSB" sweep "$TMP/p.sweep" -o "$TMP/r" >/dev/null 2>&1 || { not_ok "sweep for the charts"; done_testing; exit; }

expect_usage_error "not a result dir" "no sweep.csv" "$VSB" plot "$TMP"
expect_exit 4 "without gnuplot: skip (4)" env PATH=/nonexistent "$VSB" plot "$TMP/r"
grep -q 'gnuplot-nox' "$TMP/err" && ok "the skip says what to install" || not_ok "the skip says what to install"

if ! command -v gnuplot >/dev/null; then
	skip "charts" "gnuplot not installed"
	done_testing
	exit
fi
expect_exit 0 "plot the sweep" "$VSB" plot "$TMP/r" -o "$TMP/charts"
charts="threshold variants batch"
[ "$(nproc)" -ge 2 ] && charts="$charts scaling"
for c in $charts; do
	if [ "$(head -c 4 "$TMP/charts/$c.png" 2>/dev/null | tail -c 3)" = PNG ] &&
	   [ "$(stat -c %s "$TMP/charts/$c.png")" -gt 10000 ] && grep -q '<svg' "$TMP/charts/$c.svg"; then
		ok "$c chart: PNG and SVG"
	else
		not_ok "$c chart: PNG and SVG"
	fi
done
model=$(grep -m1 '^# cpu_model:' "$TMP/r/sweep.csv" | sed 's/^# cpu_model: //' | cut -c1-20)
grep -qF "$model" "$TMP/charts/threshold.svg" && ok "titled with the CPU model" || not_ok "titled with the CPU model" "$model"
# "# kernel: Linux 6.1.0-18-amd64 #1 SMP ..." -> "Linux 6.1.0-18-amd64", the release
kernel=$(sed -n 's/^# kernel: \([^ ]* [^ ]*\).*/\1/p' "$TMP/r/sweep.csv" | head -1)
[ -n "$kernel" ] && grep -qF "$kernel" "$TMP/charts/threshold.svg" &&
	ok "titled with the kernel release of the metadata ($kernel)" ||
	not_ok "titled with the kernel release of the metadata" "'$kernel'" \
		"$(grep -m1 '^# kernel:' "$TMP/r/sweep.csv")"
ls "$TMP/charts" | grep -qE 'tmp|gnuplot-err' && not_ok "no temporary files left" || ok "no temporary files left"

# chart_ok DIR NAME...: a PNG of sane size (10 KB .. 400 KB) and an SVG
chart_ok() {
	local d=$1 c sz; shift
	for c in "$@"; do
		sz=$(stat -c %s "$d/$c.png" 2>/dev/null || echo 0)
		if [ "$(head -c 4 "$d/$c.png" 2>/dev/null | tail -c 3)" = PNG ] &&
		   [ "$sz" -gt 10000 ] && [ "$sz" -lt 409600 ] && grep -q '<svg' "$d/$c.svg"; then
			ok "$c chart: PNG ($((sz / 1024)) KB) and SVG"
		else
			not_ok "$c chart: PNG and SVG" "size $sz" "$(ls "$d" 2>&1 | tr '\n' ' ')"
		fi
	done
}

# drift: cost vs max drift, and staleness with a quiet worker
if [ "$(nproc)" -ge 2 ]; then
	cat >"$TMP/d.sweep" <<SWEEP
variant cmpxchg-locked
drift 1
fold-interval-us 1000
loops 200000
repeat 3
[thr]
ncpus 1
fold none,local,remote
threshold 8,32,125
[quiet]
ncpus 2
quiet-workers 1
fold none,remote
SWEEP
	if "$VSB" sweep "$TMP/d.sweep" -o "$TMP/d" >/dev/null 2>"$TMP/err"; then
		expect_exit 0 "plot a drift sweep" "$VSB" plot "$TMP/d" -o "$TMP/dc"
		chart_ok "$TMP/dc" drift staleness
		grep -q 'remote xchg fold' "$TMP/dc/drift.svg" && ok "drift legend names the fold policy" ||
			not_ok "drift legend names the fold policy"
	else
		not_ok "drift sweep for the charts" "$(tail -2 "$TMP/err")"
	fi
else
	skip "drift and staleness charts" "one CPU: a quiet worker needs two"
fi

# live: a sweep.csv with page-fault and mmap rows and sysctl values
mkdir -p "$TMP/l"
{
	echo "# cpu_model: Test CPU 9000"
	echo "# kernel: Linux 6.99-test"
	echo "point,bench,backend,variant,cpus,nthreads,threshold,diff_bits,items,batch,delta,loops,sysctl,fold,quiet_workers,unit,n,median,ops_per_sec_median,ci_lo,ci_hi,ops_per_sec_ci_lo,ops_per_sec_ci_hi"
	for s in 0 1; do for n in 1 2 4; do
		echo "pf$s$n,page-fault,live,cmpxchg-local,0,$n,125,8,1,32,1,1,vm.numa_stat=$s,none,0,tsc,5,$((4000 + 100 * s + 300 * n)),$((500000 * n)),3900,5500,400000,600000"
	done; done
	for s in 0 1 2; do for n in 1 2 4; do
		echo "mm$s$n,mmap,live,cmpxchg-local,0,$n,125,8,1,32,1,10000,vm.overcommit_memory=$s,none,0,tsc,5,9000,$((280000 * n - 10000 * s)),8900,9100,270000,290000"
	done; done
} >"$TMP/l/sweep.csv"
expect_exit 0 "plot live rows" "$VSB" plot "$TMP/l" -o "$TMP/lc"
chart_ok "$TMP/lc" live-numa live-mmap
# a bench's sysctl chart is named by its model (benches/live_pf.c), not
# by plot: its help says it, and a FIFO at its name is refused before
# any chart is drawn
"$VSB" plot --help 2>&1 | grep -qE '^  live-mmap\.png +mmap\+munmap throughput' &&
	ok "plot --help names a bench's sysctl chart" ||
	not_ok "plot --help names a bench's sysctl chart"
mkdir -p "$TMP/lf" && mkfifo "$TMP/lf/live-mmap.svg"
expect_usage_error "a FIFO at a bench's chart name: refused (exit 2)" \
	'live-mmap\.svg is .*refused, nothing written' "$VSB" plot "$TMP/l" -o "$TMP/lf"
[ "$(ls "$TMP/lf")" = live-mmap.svg ] && ok "... before any chart is drawn" ||
	not_ok "... before any chart is drawn" "$(ls "$TMP/lf")"
[ ! -e "$TMP/lc/scaling.png" ] && ok "live rows make no counter scaling chart" ||
	not_ok "live rows make no counter scaling chart"
grep -qF '1 vs 0: +' "$TMP/lc/live-numa.svg" && ok "live-numa labels the change" ||
	not_ok "live-numa labels the change"
# the title is the metadata's, not this machine's
grep -qF 'Test CPU 9000, Linux 6.99-test' "$TMP/lc/live-numa.svg" &&
	ok "live title: the CPU model and kernel release of the metadata" ||
	not_ok "live title: the CPU model and kernel release of the metadata" \
		"$(grep -o 'Test CPU[^<]*' "$TMP/lc/live-numa.svg" | head -1)"

# refresh: refresh-model's CSV as refresh.csv
mkdir -p "$TMP/rm"
if "$VSB" refresh-model --max-cpus 256 --nodes 1,4 >"$TMP/rm/refresh.csv" 2>"$TMP/err"; then
	expect_exit 0 "plot refresh-model output" "$VSB" plot "$TMP/rm"
	chart_ok "$TMP/rm" refresh
else
	not_ok "refresh-model for the chart" "$(cat "$TMP/err")"
fi

# refresh: a tiny threshold-refresh sweep, 2 points (16 and 32 CPUs, 2
# nodes, 1 zone each).  Today's approach refreshes (nodes + zones) x k
# thresholds at the k-th online: nodes * N * (N + 1) stores in all; the
# 004 thread's estimate is N * 2 * nodes * N/2.
cat >"$TMP/refresh.sweep" <<SWEEP
bench threshold-refresh
approach every-online
model-nodes 2
model-cpus 16,32
repeat 2
warmup 0
SWEEP
if "$VSB" sweep "$TMP/refresh.sweep" -o "$TMP/rs" >/dev/null 2>"$TMP/err"; then
	bad=
	for n in 16 32; do
		f=$(grep -l "^# refresh_model: $n CPUs " "$TMP"/rs/*.csv | grep -v summary | head -1)
		grep -q "^# sanity: ok.* $((2 * n * (n + 1))) threshold stores per bring-up" "$f" 2>/dev/null ||
			bad="$bad $n:$(grep '^# sanity' "$f" 2>/dev/null || echo 'no point file')"
	done
	[ -z "$bad" ] && ok "threshold-refresh sweep: sanity ok, 544 and 2112 stores" ||
		not_ok "threshold-refresh sweep: sanity ok, 544 and 2112 stores" "$bad"
	expect_exit 0 "plot the threshold-refresh sweep" "$VSB" plot "$TMP/rs" -o "$TMP/rsc"
	chart_ok "$TMP/rsc" refresh
	# the table the chart is drawn from: the sweep's points, the counts
	# of their sanity lines, the seed's estimate, a positive time in its CI
	awk -F, '$1 == "every-online" && $2 == 2 {
		n = $3; if ($4 != 2 * n * (n + 1) || $5 != n * n * 2 || !($6 > 0) ||
			$7 > $6 || $8 < $6) bad = 1; seen[n] = 1 }
		END { exit bad || !(16 in seen) || !(32 in seen) }' "$TMP/rsc/refresh-sweep.csv" 2>/dev/null &&
		ok "the refresh chart is drawn from the sweep: stores = sanity, estimate = seed" ||
		not_ok "the refresh chart is drawn from the sweep" \
			"$(cat "$TMP/rsc/refresh-sweep.csv" 2>/dev/null || echo 'no refresh-sweep.csv')"
	grep -qF 'every online (today), 2 nodes' "$TMP/rsc/refresh.svg" &&
		ok "refresh chart: the sweep's approach and node count in the legend" ||
		not_ok "refresh chart: the sweep's approach and node count in the legend"
else
	not_ok "threshold-refresh sweep for the chart" "$(tail -2 "$TMP/err")"
fi
printf 'approach,nodes\nx,1\n' >"$TMP/rm/refresh.csv"
expect_usage_error "refresh.csv without its columns" "no column 'ncpus'" "$VSB" plot "$TMP/rm"

# hotplug: the QEMU script's summary
mkdir -p "$TMP/h"
cat >"$TMP/h/hotplug-summary.csv" <<CSV
vcpus,nodes,calls,median_us,mean_us
2,1,3,9.0,9.0
4,1,9,10.0,10.6
8,1,21,13.0,24.7
4,2,9,13.0,12.9
8,2,21,14.0,15.2
16,2,45,20.0,21.4
CSV
expect_exit 0 "plot a hotplug summary" "$VSB" plot "$TMP/h"
chart_ok "$TMP/h" hotplug
grep -q 'emulated' "$TMP/h/hotplug.svg" && ok "hotplug chart says the times are emulated" ||
	not_ok "hotplug chart says the times are emulated"
# a text cell that would end a gnuplot string (a variant name here):
# refused before anything is drawn, and nothing of it runs
mkdir -p "$TMP/q"
awk -F, -v OFS=, -v t="$TMP/PWNED" '!/^#/ && h++ == 1 { for (i = 1; i <= NF; i++)
	if (c[i] == "variant") $i = "v'"'"'; system('"'"'touch " t "'"'"'); a='"'"'" }
	!/^#/ && h == 1 { for (i = 1; i <= NF; i++) c[i] = $i } 1' "$TMP/r/sweep.csv" >"$TMP/q/sweep.csv"
expect_usage_error "a quote in a sweep.csv cell: refused (exit 2), named" \
	'sweep.csv: row 1: variant holds a quote, backslash or line break: refused' \
	"$VSB" plot "$TMP/q" -o "$TMP/qc"
[ ! -e "$TMP/PWNED" ] && [ ! -e "$TMP/qc" ] && ok "... nothing ran, nothing written" ||
	not_ok "quoted cell: nothing ran" "$(ls "$TMP")"
# ci/ab-chart.sh, an ab folder's chart for a document: an exact-mode
# comparison (the bisect walk-through's endpoints, docs/bisect.md) is
# drawn in instruction counts, each point labelled by what it times
ab=$VSB_ROOT/tests/fixtures/ab-chart
expect_exit 0 "ab-chart.sh draws an exact-mode ab folder" \
	"$VSB_ROOT/ci/ab-chart.sh" "$ab" "$TMP/ab.svg" "it's a \"title\" \$HOME"
for want in 'kstat mod-zone (CPU 0)' 'kstat mod-node (CPUs 0-1)' 'cmpxchg-locked (CPU 0)' \
	'instructions per op' "it's a"; do
	grep -qF "$want" "$TMP/ab.svg" 2>/dev/null && ok "ab chart says: $want" ||
		not_ok "ab chart says: $want"
done
grep -q 'page-bench03' "$TMP/ab.svg" && not_ok "no kstat point is called a page bench" ||
	ok "no kstat point is called a page bench"
expect_usage_error "ab-chart.sh: a chart that is not .png or .svg" 'a .png or an .svg' \
	"$VSB_ROOT/ci/ab-chart.sh" "$ab" "$TMP/ab.pdf" t
# a sweep with an s16 threshold block beside an s8 variants block (the
# 16-core run of docs/cores.md): the scaling chart holds the diff width
# at s8, so cmpxchg-local is one point per core count (6), not two
mkdir -p "$TMP/cores"
cp "$VSB_ROOT/docs/data/cores-16cpu.csv" "$TMP/cores/sweep.csv"
expect_exit 0 "plot the 16-core sweep" "$VSB" plot "$TMP/cores" -o "$TMP/cores"
n=$(awk '/id="gnuplot_plot_1"/ { n++ } n == 1 && /<use xlink:href=.#gpPt/ { c++ }
	/id="gnuplot_plot_2"/ { n = 99 } END { print c + 0 }' "$TMP/cores/scaling.svg" 2>/dev/null)
[ "$n" = 6 ] && ok "scaling: one diff width, cmpxchg-local at 6 core counts" ||
	not_ok "scaling: one diff width, cmpxchg-local at 6 core counts" "got $n points"
done_testing
