#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Regenerate the charts the README and docs/charts.md show, into
# docs/charts/ (PNG only), from real runs on this machine: `make
# readme-charts` calls it.
#
#   threshold.png          configs/threshold.sweep
#   variants.png, scaling.png   configs/variants.sweep
#   batch.png              configs/batch.sweep
#   regression-aa.png, regression-ab.png   ci/regression (quick.sweep A/A,
#                          percpu_counter batch 1 vs 1024 A/B)
#   drift.png, staleness.png    configs/drift.sweep
#   live-numa.png, live-mmap.png   configs/live.sweep (root: sets sysctls,
#                          puts them back; skipped without root)
#   refresh.png            configs/refresh.sweep (the threshold-refresh
#                          bench) or, where it is missing, refresh-model
#   hotplug.png            results/hotplug/hotplug-summary.csv, if present
#                          (ci/hotplug-scaling.sh makes it: QEMU, slow)
#
# The sweeps' results stay in OUT (default ci/out/readme-charts, git-
# ignored), so a chart can be redrawn by hand.  A PNG over 150 KB is
# reported.  Exit 0 when every chart that could be made was, 1 when one
# failed, 4 when the binary or gnuplot is missing.
#
# usage: ci/readme-charts.sh [OUT]     (VSB=path/to/vmstat-bench, REPEAT=N
#        overrides the sweeps' repetitions for a quicker draft)
set -uo pipefail
cd "$(dirname "$0")/.."
VSB=${VSB:-$PWD/build/vmstat-bench}
OUT=${1:-ci/out/readme-charts}
CHARTS=docs/charts
REPEAT=${REPEAT:-}

if [ ! -x "$VSB" ]; then
	echo "readme-charts: $VSB not built (make)" >&2
	exit 4
fi
if ! command -v gnuplot >/dev/null; then
	echo "readme-charts: gnuplot not found: install it (apt-get install gnuplot-nox)" >&2
	exit 4
fi
mkdir -p "$OUT" "$CHARTS"
fail=0
start=$(date +%s)
rep=()
[ -n "$REPEAT" ] && rep=(--repeat "$REPEAT")

note() { echo "readme-charts: $*"; }

# sweep NAME: run configs/NAME.sweep into OUT/NAME and chart it there
sweep() {
	local name=$1 t0 rc
	t0=$(date +%s)
	"$VSB" sweep "configs/$name.sweep" -o "$OUT/$name" --force "${rep[@]}" \
		>"$OUT/$name.log" 2>&1
	rc=$?
	# 3: a point failed its sanity check (written, marked); charts still show it
	if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then
		note "$name.sweep failed (exit $rc):"
		tail -3 "$OUT/$name.log" >&2
		return 1
	fi
	"$VSB" plot "$OUT/$name" >>"$OUT/$name.log" 2>&1 || {
		note "plot $name failed:"; tail -3 "$OUT/$name.log" >&2; return 1; }
	note "$name.sweep: $(( $(date +%s) - t0 )) s"
}

# take SRCDIR CHART [NAME]: copy SRCDIR/CHART.png to docs/charts/NAME.png
take() {
	local src="$1/$2.png" dst="$CHARTS/${3:-$2}.png" size
	if [ ! -s "$src" ]; then
		note "missing $src"
		fail=1
		return
	fi
	cp "$src" "$dst.tmp" && mv "$dst.tmp" "$dst"
	size=$(stat -c %s "$dst")
	[ "$size" -gt 153600 ] && note "$dst is $((size / 1024)) KB (over 150 KB)"
	echo "  $dst ($((size / 1024)) KB)"
}

if sweep threshold; then take "$OUT/threshold" threshold; else fail=1; fi
if sweep variants; then
	take "$OUT/variants" variants
	take "$OUT/variants" scaling
else fail=1; fi
if sweep batch; then take "$OUT/batch" batch; else fail=1; fi
if sweep drift; then
	take "$OUT/drift" drift
	take "$OUT/drift" staleness
else fail=1; fi

# regression charts: the CI job itself (quick.sweep A/A, and A/B)
t0=$(date +%s)
if VSB=$VSB ci/regression "$OUT/regression" >"$OUT/regression.log" 2>&1; then
	take "$OUT/regression/aa" regression regression-aa
	take "$OUT/regression/ab" regression regression-ab
	note "regression: $(( $(date +%s) - t0 )) s"
else
	note "ci/regression failed (charts taken if drawn):"
	tail -4 "$OUT/regression.log" >&2
	[ -s "$OUT/regression/aa/regression.png" ] && take "$OUT/regression/aa" regression regression-aa
	[ -s "$OUT/regression/ab/regression.png" ] && take "$OUT/regression/ab" regression regression-ab
	fail=1
fi

# live benches: root only (sysctls)
if [ "$(id -u)" -eq 0 ]; then
	if sweep live; then
		take "$OUT/live" live-numa
		take "$OUT/live" live-mmap
	else fail=1; fi
else
	note "live charts skipped: configs/live.sweep sets sysctls (run as root)"
fi

# threshold refresh: the bench where it exists, else the model's CSV
if "$VSB" list 2>/dev/null | grep -q '^ *threshold-refresh ' && [ -f configs/refresh.sweep ]; then
	if sweep refresh; then take "$OUT/refresh" refresh; else fail=1; fi
else
	mkdir -p "$OUT/refresh-model"
	{
		"$VSB" info 2>/dev/null | grep -E '^(cpu_model|kernel|hypervisor|online_cpus):' | sed 's/^/# /'
		"$VSB" refresh-model --max-cpus 1024 --nodes 1,4,16
	} >"$OUT/refresh-model/refresh.csv" &&
	"$VSB" plot "$OUT/refresh-model" >"$OUT/refresh-model.log" 2>&1 &&
		take "$OUT/refresh-model" refresh || { note "refresh-model chart failed"; fail=1; }
fi

# hotplug: only from an existing QEMU run (ci/hotplug-scaling.sh takes long)
if [ -s results/hotplug/hotplug-summary.csv ]; then
	mkdir -p "$OUT/hotplug"
	cp results/hotplug/hotplug-summary.csv "$OUT/hotplug/"
	"$VSB" plot "$OUT/hotplug" >"$OUT/hotplug.log" 2>&1 &&
		take "$OUT/hotplug" hotplug || { note "hotplug chart failed"; fail=1; }
else
	note "hotplug chart skipped: no results/hotplug/hotplug-summary.csv (run ci/hotplug-scaling.sh)"
fi

note "done in $(( $(date +%s) - start )) s; charts in $CHARTS/, results in $OUT/"
exit $fail
