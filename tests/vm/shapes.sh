#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest's shape as an axis, in guests (the host side, nothing
# booted, is tests/cli/test_guest_shape.sh):
#  - `ab --dry-run` plans one guest per shape of a sweep's points, and
#    refuses a shape no guest can have before anything boots;
#  - one guest of 2 vCPUs, 4 possible, nohz_full=1 isolcpus=1 runs
#    tests/vm/guest/0day.sh: the shape in the metadata, the four
#    0-day benches on cgroup v2, and their cleanup after a SIGKILL;
#  - a sweep over two shapes (2 and 4 possible CPUs) through
#    ci/ab-run.sh boot, as `ab` runs it: two guests booted into one
#    boot folder, each point run in the guest of its shape and kept by
#    the next.
# Three boots of the default guest kernel, tiny loops; exit 4 (skip)
# when the VM cannot run here.
. "$(dirname "$0")/../lib.sh"
cd "$VSB_ROOT" || exit 1
export TMPDIR=$TMP

kc=$(ci/kernel-cache.sh 2>"$TMP/kc.log") || {
	echo "# SKIP: no guest kernel: $(tail -1 "$TMP/kc.log")"
	exit 4
}
eval "$kc"
REL=${KERNEL##*/vmlinuz-}
ABI=${REL%-cloud-amd64}

# --- ab plans a guest per shape; refusals before any boot -------------------
cat >"$TMP/shapes.sweep" <<'SWEEP'
name shapes
bench spawn
cpus 0
loops 5
repeat 1
warmup 0
guest-possible 2, 4
SWEEP
expect_exit 0 "ab --dry-run of a sweep over two shapes" \
	"$VSB" ab --base "debian:$ABI" --new "debian:$ABI" --boots 1 --dry-run \
	"$TMP/shapes.sweep" -o "$TMP/ab"
grep -q '^shapes 2: each boot is one guest of each' "$TMP/out" &&
	grep -q '^shape 2 2 vCPUs, 4 possible' "$TMP/out" &&
	ok "... one guest a shape: 2 and 4 possible CPUs" || not_ok "ab's shape plan" "$(cat "$TMP/out")"
expect_usage_error "ab --nodes past --smp, refused first" "--nodes 4: more NUMA nodes than the 2" \
	"$VSB" ab --base "debian:$ABI" --new "debian:$ABI" --nodes 4 "$TMP/shapes.sweep" -o "$TMP/ab1"
printf 'bench spawn\nguest-cmdline nohz_full=1 isolcpus=5\n' >"$TMP/bad.sweep"
expect_usage_error "ab of a point isolating a CPU no guest has" "CPU 5 does not exist" \
	"$VSB" ab --base "debian:$ABI" --new "debian:$ABI" "$TMP/bad.sweep" -o "$TMP/ab2"
[ ! -e "$TMP/ab1" ] && [ ! -e "$TMP/ab2" ] && ok "... no folder written" ||
	not_ok "refused ab runs wrote a folder"

# --- one guest: the benches, their cleanup, the shape recorded ----------------
t0=$(date +%s)
ci/vm-run.sh --kernel "$KERNEL" --smp 2 --maxcpus 4 --mem 1024 --timeout 300 \
	--append "no_timer_check nohz_full=1 isolcpus=1" \
	--add "$VSB_BUILD_DIR/vmstat-bench:bin/vmstat-bench" --add tests/vm/guest/0day.sh \
	-- 'sh tests/vm/guest/0day.sh' >"$TMP/g.out" 2>"$TMP/g.err"
rc=$?
if [ $rc = 4 ]; then
	echo "# SKIP: $(grep -m1 SKIP "$TMP/g.err")"
	exit 4
fi
tap_from_guest "$TMP/g.out" "guest: "
[ $rc = 0 ] && ok "the guest ran without a WARN, oops or panic ($(($(date +%s) - t0)) s)" ||
	not_ok "the guest (rc $rc)" "$(grep -v '^ *|' "$TMP/g.err" | tail -3)"

# --- a sweep over two shapes: two guests into one boot folder -----------------
export VSB_AB_BIN=$VSB_ROOT/$VSB_BUILD_DIR/vmstat-bench VSB_AB_TIMEOUT=300
mkdir -p "$TMP/side"
if ! ci/ab-run.sh prepare "debian:$ABI" "$TMP/side" >"$TMP/prep.log" 2>&1; then
	not_ok "ab-run.sh prepare" "$(tail -3 "$TMP/prep.log")"
	done_testing
	exit
fi
t0=$(date +%s)
VSB_AB_SHAPES=$'2 2 0 1024 none\n2 4 0 1024 none' \
	ci/ab-run.sh boot "$TMP/side" 1 "1 of 1" "$TMP/shapes.sweep" >"$TMP/boot.log" 2>&1
rc=$?
B=$TMP/side/boot-1
[ $rc = 0 ] && [ "$(grep -c '^ab-run: guest [12]: 2 vCPUs, [24] possible' "$TMP/boot.log")" = 2 ] &&
	ok "two guests booted for the two shapes into one boot ($(($(date +%s) - t0)) s)" ||
	not_ok "the two-shape boot (rc $rc)" "$(grep -E 'ab-run|vm-run' "$TMP/boot.log" | tail -4)"
[ "$(grep -c '	done	' "$B/points.txt" 2>/dev/null)" = 2 ] &&
	ok "... both points done in the one folder" || not_ok "points.txt" "$(cat "$B/points.txt")"
p2=$(grep -l '^# guest_shape: smp:2,maxcpus:2,' "$B"/*possible-2-*[0-9a-f].csv 2>/dev/null)
p4=$(grep -l '^# guest_shape: smp:2,maxcpus:4,' "$B"/*possible-4-*[0-9a-f].csv 2>/dev/null)
[ -n "$p2" ] && [ -n "$p4" ] && grep -q '^# cpus_possible: 4 ' "$p4" &&
	grep -q '^# ab_kernel: ' "$p4" &&
	ok "... each point ran in the guest of its shape, the ab_* lines added" ||
	not_ok "each point's guest" "$(grep -h '^# \(guest_shape\|cpus_possible\)' "$B"/*.csv)"
done_testing
