#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest's shape as run options and sweep axes (guest_shape.h), on the
# host, nothing booted: a combination no guest can have is refused with
# one line and exit 2 by run, sweep and ci/vm-run.sh alike; a point of
# another shape than this machine's is skipped (exit 4) and one of this
# machine's runs, its shape in its parameter columns and the machine's
# in the metadata; a sweep makes axes of the options (kernel parameters
# one '|' apart), and the options left at their defaults change no point
# id.  What a guest does with them: tests/vm/shapes.sh.
. "$(dirname "$0")/../lib.sh"

R=("$VSB" run --loops 1000 --repeat 1)
online=$(getconf _NPROCESSORS_ONLN)
expect_usage_error "more NUMA nodes than vCPUs" \
	"--guest-nodes 4: more NUMA nodes than the 2 vCPUs \(--guest-cpus 2\)" \
	"${R[@]}" --guest-cpus 2 --guest-nodes 4
expect_usage_error "an isolated CPU the guest does not have" \
	"--guest-cmdline 'nohz_full=1 isolcpus=domain,3': CPU 3 does not exist in a guest of 2 vCPUs" \
	"${R[@]}" --guest-cpus 2 --guest-cmdline "nohz_full=1 isolcpus=domain,3"
expect_usage_error "... this machine's vCPUs when --guest-cpus is not given" \
	"CPU $online does not exist in a guest of $online vCPUs" \
	"${R[@]}" --guest-cmdline "rcu_nocbs=$online"
expect_usage_error "every vCPU isolated" "isolates every one of the 2 vCPUs" \
	"${R[@]}" --guest-cpus 2 --guest-cmdline "nohz_full=0-1"
expect_usage_error "fewer possible CPUs than vCPUs" "--guest-possible 2: fewer possible" \
	"${R[@]}" --guest-cpus 4 --guest-possible 2
expect_usage_error "possible CPUs not shared evenly by the nodes" "not a multiple of the 2" \
	"${R[@]}" --guest-cpus 2 --guest-possible 9 --guest-nodes 2
expect_usage_error "--guest-mem under 128 MB" "--guest-mem 64: a guest needs 128 MB" \
	"${R[@]}" --guest-mem 64
expect_usage_error "a parameter the runner sets itself" "the guest runner sets console= itself" \
	"${R[@]}" --guest-cmdline console=ttyS1
expect_usage_error "maxcpus= is --guest-possible's" "sets maxcpus= itself" \
	"${R[@]}" --guest-cmdline maxcpus=1
expect_usage_error "a CPU list not understood" "nohz_full=1-a: a CPU list of plain numbers" \
	"${R[@]}" --guest-cmdline nohz_full=1-a
expect_usage_error "quotes in the command line" "is not a list of kernel parameters" \
	"${R[@]}" --guest-cmdline "a='b c'"
expect_usage_error "two spaces between parameters" "one space apart" \
	"${R[@]}" --guest-cmdline "a=1  b=2"

expect_exit 4 "another shape than this machine's: skipped" "${R[@]}" --guest-possible 200
grep -q "another guest shape: the point needs 200 possible CPUs, this machine has" "$TMP/err" &&
	ok "... saying which" || not_ok "the skip's words" "$(cat "$TMP/err")"
expect_exit 0 "this machine's own shape runs" "${R[@]}" --guest-cpus "$online" -o "$TMP/r.csv"
c=$(col_of "$TMP/r.csv" guest_cpus)
[ -n "$c" ] && [ "$(grep -v '^#' "$TMP/r.csv" | sed -n 2p | cut -d, -f"$c")" = "$online" ] &&
	[ -n "$(col_of "$TMP/r.csv" guest_cmdline)" ] &&
	ok "... its shape in the guest_* parameter columns" ||
	not_ok "guest_* columns" "$(grep -v '^#' "$TMP/r.csv" | head -2)"
grep -q "^# cpus_possible: [0-9]* (" "$TMP/r.csv" && grep -q '^# cpus_present: ' "$TMP/r.csv" &&
	grep -q '^# kernel_cmdline: ' "$TMP/r.csv" &&
	grep -q '^# guest_shape: none (not a guest booted by ci/vm-run.sh)' "$TMP/r.csv" &&
	ok "... the machine's shape in the metadata: possible, present, command line" ||
	not_ok "shape metadata" "$(grep -E '^# (cpus_|kernel_cmdline|guest_shape)' "$TMP/r.csv")"

# --- sweep files ------------------------------------------------------------
cat >"$TMP/s.sweep" <<'EOF'
bench counter
loops 1000
repeat 1
guest-possible 2, 4
guest-cmdline none | nohz_full=1 isolcpus=domain,1
EOF
expect_exit 0 "a sweep of two axes, kernel parameters one '|' apart" \
	"$VSB" sweep "$TMP/s.sweep" --dry-run
[ "$(grep -c guest-cmdline= "$TMP/out")" = 4 ] &&
	grep -q 'guest-cmdline=nohz_full=1 isolcpus=domain,1' "$TMP/out" &&
	ok "... four points, the comma inside a value kept" ||
	not_ok "the shape axes' points" "$(cat "$TMP/out")"
printf 'bench counter\nguest-cpus 2\nguest-nodes 1, 4\n' >"$TMP/bad.sweep"
expect_usage_error "a sweep point with more nodes than vCPUs" \
	"bad\.sweep:3: point .*guest-nodes=4.*more NUMA nodes than the 2 vCPUs" \
	"$VSB" sweep "$TMP/bad.sweep" --dry-run -o "$TMP/bad"
[ ! -e "$TMP/bad" ] && ok "... nothing written" || not_ok "the refused sweep wrote $TMP/bad"
printf 'bench counter\nvariant this-cpu-add, plain-fold\n' >"$TMP/a.sweep"
printf 'bench counter\nvariant this-cpu-add, plain-fold\nguest-cpus 0\nguest-cmdline none\n' \
	>"$TMP/b.sweep"
"$VSB" sweep "$TMP/a.sweep" --dry-run 2>/dev/null | grep -o '[a-z-]*-[0-9a-f]\{8\}' >"$TMP/a.ids"
"$VSB" sweep "$TMP/b.sweep" --dry-run 2>/dev/null | grep -o '[a-z-]*-[0-9a-f]\{8\}' >"$TMP/b.ids"
[ -s "$TMP/a.ids" ] && cmp -s "$TMP/a.ids" "$TMP/b.ids" &&
	ok "the shape options at their defaults leave point ids as they were" ||
	not_ok "point ids" "$(paste "$TMP/a.ids" "$TMP/b.ids")"

# --- ci/vm-run.sh: refused before anything boots ----------------------------
V=("$VSB_ROOT/ci/vm-run.sh")
expect_usage_error "vm-run: more NUMA nodes than vCPUs" "--numa 4: more NUMA nodes than the 2 vCPUs" \
	"${V[@]}" --smp 2 --numa 4 -- true
expect_usage_error "vm-run: fewer possible CPUs than vCPUs" "--maxcpus 1: fewer possible" \
	"${V[@]}" --smp 2 --maxcpus 1 -- true
expect_usage_error "vm-run: an isolated CPU that does not exist" \
	"CPU 2 does not exist in a guest of 2 vCPUs" \
	"${V[@]}" --smp 2 --append "isolcpus=domain,managed_irq,1-2" -- true
expect_usage_error "vm-run: every CPU isolated" "isolates every one of the 2 vCPUs" \
	"${V[@]}" --smp 2 --append "nohz_full=0,1" -- true
expect_usage_error "vm-run: maxcpus= in --append" "maxcpus= is --smp's" \
	"${V[@]}" --smp 2 --append "maxcpus=1" -- true
expect_exit 2 "vm-run: a leading zero is no number (bash would read 010 as 8)" \
	"${V[@]}" --smp 02 -- true
done_testing
