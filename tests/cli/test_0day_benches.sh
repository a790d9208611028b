#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The 0-day regressions' benches on the host (cgroup v1 memory here, v2
# in the guests: tests/vm/shapes.sh): spawn, fallocate, memcg-stat-read
# and isolated each run briefly with their sanity line; their option
# refusals; and their cleanup: no memory cgroup, mount, tmpfs file or
# tracefs instance is left after a run, after SIGKILL the leftovers are
# there and `vmstat-bench restore` removes them, and so does the next
# run of any bench.  Tiny runs: plumbing, not figures.
. "$(dirname "$0")/../lib.sh"

if [ "$(id -u)" != 0 ]; then
	echo "# SKIP: not root (the benches mount tmpfs and make memory cgroups)"
	exit 4
fi
last=$(($(nproc) - 1))
two=0
[ "$last" -ge 1 ] && two="0,$last"

# What a run with a dead pid left: a chain below a memory hierarchy's
# root, a scratch mount or marker, a tracefs instance.  A live run's (a
# test of someone else's) is not a leftover.
leftovers() {
	local d n pid
	for d in /sys/fs/cgroup/memory /sys/fs/cgroup /run/vmstat-bench/cgroup2 \
		 /run/vmstat-bench /sys/kernel/tracing/instances \
		 /sys/kernel/debug/tracing/instances; do
		[ -d "$d" ] || continue
		for n in "$d"/vmstat-bench.* "$d"/tmpfs.* "$d"/tracefs.* "$d"/trace.*; do
			[ -e "$n" ] || continue
			pid=${n##*.}
			[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = vmstat-bench ] || echo "$n"
		done
	done
	mount | awk '$3 ~ /^\/run\/vmstat-bench\// { print $3 }' | while read -r m; do
		pid=${m##*.}
		[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = vmstat-bench ] || echo "mount $m"
	done
}
clean() {	# clean DESCRIPTION
	local l
	l=$(leftovers)
	[ -z "$l" ] && ok "$1" || not_ok "$1" "$l"
}
sanity_ok() {	# sanity_ok DESCRIPTION PATTERN
	grep -qE "^sanity: ok: $2" "$TMP/out" && ok "$1" ||
		not_ok "$1" "$(grep -E '^sanity|error' "$TMP/out" "$TMP/err" | head -3)"
}
"$VSB" restore >/dev/null 2>&1	# a killed run of an earlier test

# --- spawn ------------------------------------------------------------------
expect_exit 0 "spawn, fork: 20 processes a sample" \
	"$VSB" run --bench spawn --cpus "$two" --loops 20 --repeat 2 -o "$TMP/s.csv"
sanity_ok "... every child exited 0, /proc/stat processes covers them" \
	'80 processes spawned, every one exited 0; /proc/stat processes \+[0-9]+'
c=$(col_of "$TMP/s.csv" op)
[ "$(grep -v '^#' "$TMP/s.csv" | sed -n 2p | cut -d, -f"$c")" = fork ] &&
	grep -q '^# spawn_possible_cpus: [0-9]' "$TMP/s.csv" &&
	ok "... op fork in its column, the possible CPUs in the metadata" ||
	not_ok "spawn CSV" "$(grep spawn_possible "$TMP/s.csv")"
expect_exit 0 "spawn, posix-spawn of the 129-byte ELF" \
	"$VSB" run --bench spawn --op posix-spawn --loops 20 --repeat 2
sanity_ok "... every child exited 0" '40 processes spawned, every one exited 0'
expect_usage_error "spawn --op bogus" "spawn runs fork or posix-spawn" \
	"$VSB" run --bench spawn --op bogus

# --- fallocate --------------------------------------------------------------
for d in 0 3; do
	expect_exit 0 "fallocate, memcg depth $d" \
		"$VSB" run --bench fallocate --memcg-depth $d --loops 300 --repeat 2 -o "$TMP/f$d.csv"
	sanity_ok "... pgalloc covers the pages, the cgroup's peak shows them charged" \
		"600 fallocates of 2 pages; /proc/vmstat pgalloc_\* \+[0-9]+ .* (>= the fullest file: charged to it|\(none kept at the root\))"
done
# below the caller's own cgroup (docs/reliability.md, "Memory cgroups")
grep -qE '^# fallocate_memcg: (/.*)?/vmstat-bench\.[0-9]+/2/3 \(depth 3, cgroup v[12]\)' "$TMP/f3.csv" &&
	ok "... depth 3 is the chain vmstat-bench.PID/2/3" ||
	not_ok "fallocate_memcg" "$(grep fallocate_memcg "$TMP/f3.csv")"
clean "fallocate left no cgroup, mount or tmpfs file"
expect_usage_error "fallocate --size not 128 whole-page chunks" "not a multiple of 524288" \
	"$VSB" run --bench fallocate --size 1000K

# --- memcg-stat-read --------------------------------------------------------
if [ "$two" != 0 ]; then
	expect_exit 0 "memcg-stat-read: 4 sibling cgroups, a writer CPU" \
		"$VSB" run --bench memcg-stat-read --cpus "$two" --busy-workers 1 \
		--memcg-count 4 --loops 20 --repeat 2
	sanity_ok "... every read had a shmem line, the reader's cgroup shows its file" \
		"40 reads in .* 0 without a shmem line; its cgroup's shmem"
else
	skip "memcg-stat-read with a writer CPU" "one CPU"
	skip "... its sanity" "one CPU"
fi
expect_exit 0 "memcg-stat-read --op parent, no writer running" \
	"$VSB" run --bench memcg-stat-read --op parent --memcg-count 3 --loops 10 --repeat 1
sanity_ok "... the parent's shmem holds the reader's file" "10 reads .* the parent's shmem"
clean "memcg-stat-read left no cgroup, mount or tmpfs file"
expect_usage_error "memcg-stat-read --memcg-depth 0" "at least 1, not 0" \
	"$VSB" run --bench memcg-stat-read --memcg-depth 0
expect_usage_error "memcg-stat-read with no CPU for the reader" "leaves no CPU" \
	"$VSB" run --bench memcg-stat-read --cpus 0 --busy-workers 1

# --- isolated ---------------------------------------------------------------
expect_exit 0 "isolated: one 200 ms window on CPU $last" \
	"$VSB" run --bench isolated --cpus "$last" --loops 200 --repeat 1 -o "$TMP/i.csv"
sanity_ok "... the window spun, the trace lost nothing" \
	"1 windows of 200 ms on CPU $last .* vmstat_update ran [0-9]+ times there$"
grep -q '^# isolated_windows: interruptions [0-9]*; worst us ' "$TMP/i.csv" &&
	grep -q '^# isolated_trace: tracefs instance' "$TMP/i.csv" &&
	ok "... per-window figures and the tracefs instance in the metadata" ||
	not_ok "isolated metadata" "$(grep '^# isolated' "$TMP/i.csv")"
clean "isolated left no tracefs instance or mount"
# a sweep spread over worker processes: the point's isolated_* lines
# list every window, each worker's, in the samples' order (their folds
# are the windows' interruptions), and sum all of them; exit 3 is a
# window the loaded machine interrupted too long, not what is checked
printf 'name iso\nbench isolated\ncpus %s\nloops 50\nrepeat 3\n' "$last" >"$TMP/iso.sweep"
"$VSB" sweep "$TMP/iso.sweep" -o "$TMP/isw" --procs 3 >"$TMP/out" 2>"$TMP/err"
rc=$?
f=$(ls "$TMP"/isw/p*[0-9a-f].csv 2>/dev/null | head -1)
folds=$([ -f "$f" ] && awk -F, -v r="$(col_of "$f" rep)" -v c="$(col_of "$f" folds)" \
	'/^#/ { next } h++ { print $r, $c }' "$f" | sort -n |
	awk '{ printf "%s%s", (NR > 1 ? ";" : ""), $2 }')
win=$([ -f "$f" ] && sed -n 's/^# isolated_windows: interruptions \([^ ]*\); worst us .*/\1/p' "$f")
if { [ "$rc" -eq 0 ] || [ "$rc" -eq 3 ]; } && [ -n "$folds" ] && [ "$win" = "$folds" ] &&
   grep -q '^# sweep_procs: 3 ' "$f" &&
   grep -qE "^# isolated_vmstat_update: [0-9]+ runs on CPU $last in 3 windows; " "$f"; then
	ok "a sweep over 3 worker processes: isolated_* lines of all 3 windows ($win)"
else
	not_ok "a sweep over 3 worker processes: isolated_* lines of all 3 windows" \
		"exit $rc; folds by repetition '$folds', listed '$win'" \
		"$(grep -h '^# isolated_\|^# sweep_procs' "$f" 2>/dev/null)" "$(tail -3 "$TMP/err")"
fi
clean "... and left no tracefs instance or mount"
expect_usage_error "isolated on two CPUs" "spins on one CPU" \
	"$VSB" run --bench isolated --cpus 0-1 --allow-oversubscribe
expect_usage_error "isolated with PMU events" "TSC alone" \
	"$VSB" run --bench isolated --events cycles

# --- SIGKILL, then restore or the next run ----------------------------------
# a run's leftovers all there: its state file, and each of WANT's
# (a mount point under /run/vmstat-bench, a memory cgroup), if named
ready() {	# ready PID [WANT...]
	local p=$1 w
	shift
	ls /run/vmstat-bench/*."$p" >/dev/null 2>&1 || return 1
	for w in "$@"; do
		case $w in
		tmpfs) mountpoint -q "/run/vmstat-bench/tmpfs.$p" || return 1 ;;
		# below the memory cgroup the run started in, wherever that is
		memcg) [ -n "$(find /sys/fs/cgroup/memory /run/vmstat-bench/cgroup2 \
			-maxdepth 8 -type d -name "vmstat-bench.$p" -print -quit 2>/dev/null)" ] ||
			return 1 ;;
		esac
	done
}
# killed WHAT ARGS...: run, SIGKILL it once its leftovers exist.  $want
# names those a loaded machine may take seconds to make (CI runs a guest
# beside this test).
killed() {
	local what=$1 p i
	shift
	"$VSB" run "$@" >/dev/null 2>&1 &
	p=$!
	for ((i = 0; i < 300; i++)); do
		ready "$p" $want && break
		sleep 0.1
	done
	sleep 0.5
	kill -9 "$p"
	wait "$p" 2>/dev/null
	[ -n "$(leftovers)" ] && ok "$what killed: its leftovers are there" ||
		not_ok "$what killed: its leftovers are there" "none seen for pid $p"
}
want="tmpfs memcg" killed "memcg-stat-read" --bench memcg-stat-read --cpus "$two" --memcg-count 4 \
	--busy-workers "$([ "$two" = 0 ] && echo 0 || echo 1)" --loops 100000 --repeat 100
expect_exit 0 "restore after it" "$VSB" restore
grep -q 'removed 1 mount' "$TMP/out" && grep -q 'removed 1 memory cgroup chain' "$TMP/out" &&
	ok "... it says it removed the tmpfs and the cgroups" || not_ok "restore's words" "$(cat "$TMP/out")"
clean "... and nothing is left"
killed "isolated" --bench isolated --cpus "$last" --loops 5000 --repeat 10
expect_exit 0 "the next run (spawn) after it" "$VSB" run --bench spawn --loops 5 --repeat 1
clean "... removed the killed run's tracefs instance and mount"
killed "fallocate" --bench fallocate --memcg-depth 4 --loops 100000000 --repeat 100
expect_exit 0 "restore after it" "$VSB" restore
clean "... and nothing is left"

expect_skip_as_nobody "fallocate as user nobody: a skip (exit 4), one line" 'need root: skipped' \
	"$VSB" run --bench fallocate --repeat 1
done_testing
