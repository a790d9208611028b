#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# real-history.sh - a real history across kernels (issue 12, part 4):
# one small module sweep (configs/history.sweep) measured in the QEMU
# guest on each of several Debian cloud kernels, every result imported
# into one SQLite store, and `vmstat-bench history --by kernel` over it.
#
# Per kernel: ci/kernel-cache.sh fetches it into the kernel cache (ci/cache.bash)
# (nothing installed on the host), ci/kmod-build.sh --tree builds the
# module against its headers in a tree of its own ($BUILD/kmod/<release>/,
# as tests/kmod/vmlib.bash does), ci/vm-run.sh boots it with the module and
# the harness and runs the sweep.  The boots go round-robin over the
# kernels (boot 1 of each, then boot 2, ...), so that the host's load
# drifting during the run does not line up with the kernel order.  Each
# boot's results land in OUT/runs/<release>/boot-N/, renamed from a .tmp
# folder once complete: a rerun keeps what finished and measures only
# what is missing.  A
# kernel that cannot be fetched, built or booted is noted in OUT/notes.txt
# and left out; the others go on.
#
# The guest has the same vCPUs and RAM on every kernel (--smp, --mem), so
# the store sees one machine (the fingerprint rounds RAM to GiB; 2 GiB
# keeps every kernel's MemTotal on the same side of the rounding).
# Timings under TCG are emulated: the shapes across kernels are what
# the history shows, not the nanoseconds.  Not part of `make test`: six
# kernels take minutes each to fetch the first time and a boot is tens
# of seconds.
#
# Usage: ci/real-history.sh [--publish] [OUT]    (default OUT: results/real-history)
#	--publish  also copy the overview charts (OUT/overview-*.png) and the
#		   trend charts named in VSB_HISTORY_CHARTS to
#		   docs/charts/history-<name>.png (for docs/history.md)
# Environment:
#	VSB_HISTORY_KERNELS  the ABIs, in any order (history sorts them)
#	VSB_HISTORY_BOOTS    boots per kernel (default 3: each kernel gets
#			     three entries, so boot-to-boot spread shows)
#	VSB_HISTORY_SWEEP    default configs/history.sweep
#	VSB_HISTORY_CHARTS   series folder patterns to publish, NAME=GLOB ...
#	VSB_BUILD_DIR        the harness build (default build)
#
# Exit status: 0 history written; 1 error (or fewer than two kernels
# measured); 4 no QEMU or no kernel at all could be had here.

set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$REPO" || exit 1
BUILD=${VSB_BUILD_DIR:-build}
VSB=$REPO/$BUILD/vmstat-bench
KERNELS=${VSB_HISTORY_KERNELS:-6.1.0-47 6.1.0-53 6.1.0-57 6.12.107+deb12 6.12.113+deb12 6.12.117+deb12}
BOOTS=${VSB_HISTORY_BOOTS:-3}
SWEEP=${VSB_HISTORY_SWEEP:-configs/history.sweep}
CHARTS=${VSB_HISTORY_CHARTS:-percpu-counter-trend=*counter_percpu-counter_cpus-0_*}
SMP=2 MEM=2048

log() { printf 'real-history: %s\n' "$*" >&2; }
PUBLISH=0
[ "${1:-}" = --publish ] && { PUBLISH=1; shift; }
OUT=${1:-results/real-history}
mkdir -p "$OUT/runs" || exit 1
OUT=$(cd "$OUT" && pwd)
[ -x "$VSB" ] || { log "no $VSB: run make (or set VSB_BUILD_DIR)"; exit 1; }
[ -f "$SWEEP" ] || { log "no sweep file $SWEEP"; exit 2; }
"$VSB" sweep "$SWEEP" --dry-run >/dev/null 2>"$OUT/dry-run.err" ||
	{ log "$SWEEP refused: $(tail -1 "$OUT/dry-run.err")"; exit 2; }

note() { log "$*"; printf '%s\n' "$*" >>"$OUT/notes.txt"; }

# prepare ABI: fetch the kernel, build the module; sets KERNEL, KDIR, KREL,
# KO.  Returns 4 when the kernel cannot be had, 1 when it does not build.
prepare() {
	local kc rc=0 tree

	kc=$(VSB_KERNEL_ABI=$1 ci/kernel-cache.sh 2>"$OUT/cache.log") || rc=$?
	if [ $rc -ne 0 ]; then
		note "$1: not fetched (kernel-cache.sh exit $rc: $(tail -1 "$OUT/cache.log"))"
		return $rc
	fi
	eval "$kc"
	KREL=${KERNEL##*/vmlinuz-}
	tree=$REPO/$BUILD/kmod/$KREL
	KDIR=$KDIR ci/kmod-build.sh --tree "$tree" -s modules >"$OUT/build.log" 2>&1 || {
		note "$1: the module does not build against $KREL: $(grep -m1 -e error -e warning "$OUT/build.log")"
		return 1
	}
	KO=$OUT/runs/$KREL/vmstat_bench.ko
	mkdir -p "$OUT/runs/$KREL"
	flock "$tree/.lock" cp "$tree/kmod/vmstat_bench.ko" "$KO"
}

# boot N: one guest on $KERNEL running the sweep; OUT/runs/KREL/boot-N.
# A boot is one history entry, its points' repetitions as asked
# (--run-min-ms 0): TCG's time is not the host's tick.
boot() {
	local dir=$OUT/runs/$KREL/boot-$1 rc=0 t0=$SECONDS

	[ -d "$dir" ] && { log "$KREL boot $1: kept from before"; return 0; }
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	log "$KREL boot $1 of $BOOTS: booting (TCG: a minute or two)"
	# shellcheck disable=SC2016  # expanded by the guest's shell
	ci/vm-run.sh --kernel "$KERNEL" --kdir "$KDIR" --smp $SMP --mem $MEM \
		--timeout 1200 --out "$dir.tmp" \
		--add "$KO:kmod/vmstat_bench.ko" --add "$VSB:bin/vmstat-bench" \
		--add "$REPO/$SWEEP:history/history.sweep" -- \
		'insmod kmod/vmstat_bench.ko || exit 1
		 rc=0
		 bin/vmstat-bench sweep history/history.sweep --shuffle-seed '"$1"' --run-min-ms 0 -o /out || rc=$?
		 rmmod vmstat_bench || { echo "rmmod failed" >&2; rc=1; }
		 exit $rc' >"$dir.log" 2>&1 || rc=$?
	# 3: a point failed its sanity check; its results are kept and marked
	if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then
		note "$KREL boot $1: guest or sweep failed (exit $rc): $(grep -v '^ *|' "$dir.log" | tail -1)"
		return 1
	fi
	mv "$dir.log" "$dir.tmp/boot.log" && mv "$dir.tmp" "$dir"
	log "$KREL boot $1: $(grep -h '^sweep ' "$dir/boot.log" | tail -1 | sed 's/;.*//') ($((SECONDS - t0)) s)"
}

# Every kernel ready first, then the boots round-robin (boot 1 of every
# kernel, then boot 2, ...): a drift of the host's load during the run
# (a shared 2-CPU machine) then spreads over all kernels instead of
# passing for a step between the first kernels and the last.
: >"$OUT/notes.txt"
ready=()
for abi in $KERNELS; do
	prepare "$abi" && ready+=("$abi $KERNEL $KDIR $KREL $KO")
done
for b in $(seq 1 "$BOOTS"); do
	for r in "${ready[@]}"; do
		read -r abi KERNEL KDIR KREL KO <<<"$r"
		boot "$b" && touch "$OUT/runs/$KREL/.measured"
	done
done
nk=$(ls "$OUT"/runs/*/.measured 2>/dev/null | wc -l)
if [ "$nk" -lt 2 ]; then
	log "only $nk kernel(s) measured: no history (see $OUT/notes.txt)"
	# nothing at all, and for a reason of this machine (no apt, no QEMU)
	[ "$nk" -eq 0 ] && grep -q 'exit 4' "$OUT/notes.txt" && exit 4
	exit 1
fi

# the store, fresh each time: every boot folder that finished
rm -f "$OUT/history.db"
"$VSB" db import --db "$OUT/history.db" "$OUT"/runs/*/boot-[0-9]* >"$OUT/import.txt" 2>&1 ||
	{ log "db import failed: $(tail -1 "$OUT/import.txt")"; exit 1; }
log "imported $(grep -c 'stored run' "$OUT/import.txt") runs from $nk kernels into $OUT/history.db"
rm -rf "$OUT/history"
"$VSB" history --db "$OUT/history.db" --by kernel -o "$OUT/history" >"$OUT/history.txt" 2>&1 ||
	{ log "history failed: $(tail -1 "$OUT/history.txt")"; exit 1; }
"$VSB" db list --db "$OUT/history.db" >"$OUT/list.txt" 2>&1
grep -e ' entries by ' -e '^  change at' "$OUT/history.txt"
log "history in $OUT/history (index.html, summary.md)"

# overview NAME GLOB...: one chart of several series across kernels,
# each kernel's entries (one per boot) as the median of their medians
# with the lowest and highest as a bar, relative to the first kernel:
# the shapes side by side, which the per-point trend charts (one series
# each, absolute TSC ticks) do not give at a glance.
overview() {
	local name=$1 data titles='' f
	shift
	data=$OUT/overview-$name.dat
	: >"$data"
	for g in "$@"; do
		f=$(ls -d "$OUT"/history/$g 2>/dev/null | head -1)
		[ -n "$f" ] && [ -s "$f/history.csv" ] || continue
		titles="$titles $(series_label "$f/history.csv")"
		awk -F, '
		/^#/ { next }
		!hdr { hdr = 1; for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ kern = $c["kernel"]
		  if (!(kern in n)) order[++nk] = kern; v[kern, ++n[kern]] = $c["median"] }
		END {
			for (k = 1; k <= nk; k++) {
				m = n[order[k]]
				for (i = 1; i <= m; i++) {	# insertion sort: mawk has no asort
					x = v[order[k], i] + 0
					for (j = i - 1; j >= 1 && b[j] > x; j--)
						b[j + 1] = b[j]
					b[j + 1] = x
				}
				med = m % 2 ? b[(m + 1) / 2] : (b[m / 2] + b[m / 2 + 1]) / 2
				if (k == 1) base = med
				sub(/-cloud-amd64$/, "", order[k])
				printf "%d %s %.3f %.3f %.3f\n", k - 1, order[k],
					100 * (med / base - 1), 100 * (b[1] / base - 1),
					100 * (b[m] / base - 1)
				delete b
			}
			printf "\n\n"
		}' "$f/history.csv" >>"$data"
	done
	[ -n "$titles" ] || return 0
	gnuplot -e "data='$data'; titles='${titles# }'; out='$OUT/overview-$name.png'" \
		- <<'GP' 2>"$OUT/overview-$name.err" || log "overview $name: gnuplot failed"
set terminal pngcairo size 1000,600 font 'Sans,11' background rgb 'white'
set output out
set title "cost per op across Debian cloud kernels, relative to the first kernel\n{/*0.8 median of the boots (bar: lowest to highest boot); QEMU TCG guest, 2 vCPUs: emulated timings, shapes only}"
set ylabel 'change vs the first kernel (%)'
set grid ytics
set key below noenhanced
set xtics rotate by 20 right scale 0
set xrange [-0.5:*]
n = words(titles)
off(i) = (i - (n + 1) / 2.0) * 0.06
plot data index 0 using 1:(NaN):xtic(2) notitle, \
	for [i = 1:n] data index (i - 1) using ($1 + off(i)):3:4:5 \
	with yerrorlines lw 2 pt 7 ps 0.9 title word(titles, i), \
	0 with lines lc rgb '#888888' dt 2 notitle
GP
}

# a short name for the legend: the variant and CPUs, or the page bench
series_label() {
	sed -n 's/^# point: //p' "$1" | tr ',' '\n' | awk -F= '
		{ p[$1] = $2 }
		END {
			if (p["bench"] == "page-alloc") print "page_bench01/order-" p["order"]
			else if (p["bench"] == "page-alloc-parallel") print "page_bench03/cpus-" p["cpus"]
			else print p["variant"] "/cpus-" p["cpus"]
		}'
}

if command -v gnuplot >/dev/null; then
	overview counters '*counter_this-cpu-add_cpus-0_*' '*counter_cmpxchg-local_cpus-0_*' \
		'*counter_irqsave_cpus-0_*' '*counter_atomic-global_cpus-0_*'
	overview percpu '*counter_percpu-counter_cpus-0_*' '*counter_percpu-counter_cpus-0-1_*'
	overview pages '*page-alloc_*order-0_*' '*page-alloc_*order-3_*' '*page-alloc-parallel_*'
	log "overview charts: $OUT/overview-{counters,percpu,pages}.png"
fi

if [ $PUBLISH -eq 1 ]; then
	for c in counters percpu pages; do
		[ -s "$OUT/overview-$c.png" ] && cp "$OUT/overview-$c.png" "docs/charts/history-$c.png"
	done
	for c in $CHARTS; do
		src=$(ls -d "$OUT"/history/${c#*=} 2>/dev/null | head -1)
		if [ -z "$src" ] || [ ! -s "$src/history.png" ]; then
			log "no series matches ${c#*=}: not published"
			continue
		fi
		cp "$src/history.png" "docs/charts/history-${c%%=*}.png"
		log "docs/charts/history-${c%%=*}.png <- ${src##*/}"
	done
fi
exit 0
