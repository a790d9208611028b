#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `vmstat-bench ab`: bad input refused with one line and exit 2 before
# any boot (an unknown Debian ABI, a bzImage without its build folder or
# with another kernel's, a sweep without module points, -o a folder of
# something else, an ab folder of another question), then a short A/A
# of the default 6.1 kernel against itself (2 boots a side,
# configs/ab-quick.sweep) that must report no regression, with every
# boot's results marked, the chart and summary.md.  That A/A is itself
# the continuation of an ab interrupted in its second boot, which must
# keep a clear state and only the boot that finished.  About 1-2
# minutes under TCG.  Exits 4 (skip) when QEMU or the kernel cannot
# be had here.
. "$(dirname "$0")/../lib.sh"
cd "$VSB_ROOT"
export TMPDIR=$TMP

SWEEP=configs/ab-quick.sweep
out_absent() { [ ! -e "$1" ]; }

if ! kc=$(ci/kernel-cache.sh 2>"$TMP/kc.err"); then
	echo "# SKIP: no guest kernel: $(tail -n1 "$TMP/kc.err")"
	exit 4
fi
eval "$kc"
KREL=${KERNEL##*/vmlinuz-}
ABI=${KREL%-cloud-amd64}
K=debian:$ABI

# --- bad input: one line, exit 2, nothing written ------------------------------
if command -v apt-cache >/dev/null && [ -n "$(apt-cache pkgnames linux-headers- 2>/dev/null | head -n1)" ]; then
	expect_usage_error "unknown Debian ABI: exit 2, named, with ABIs the lists have" \
		'debian:6\.1\.0-999: no Debian cloud-amd64 kernel 6\.1\.0-999 in the package lists \(they have: 6\.1\.' \
		"$VSB" ab --base debian:6.1.0-999 --new "$K" "$SWEEP" -o "$TMP/o-abi"
	out_absent "$TMP/o-abi" && ok "unknown ABI: no folder written" || not_ok "unknown ABI: no folder written"
else
	skip "unknown Debian ABI" "no apt-cache or no package lists here"
fi
expect_usage_error "a series is not an exact ABI" 'want debian:ABI with an exact ABI' \
	"$VSB" ab --base debian:6.12 --new "$K" "$SWEEP" -o "$TMP/o-ser"
expect_usage_error "a bzImage without a build folder" 'needs its build folder too: BZIMAGE:BUILD_DIR' \
	"$VSB" ab --base "$K" --new "$KERNEL" "$SWEEP" -o "$TMP/o-nob"
mkdir -p "$TMP/kb/include/config"
echo 6.99.0-other >"$TMP/kb/include/config/kernel.release"
expect_usage_error "a build folder of another kernel than the bzImage" \
	"is kernel $KREL but .*kb was built for 6\.99\.0-other" \
	"$VSB" ab --base "$K" --new "$KERNEL:$TMP/kb" "$SWEEP" -o "$TMP/o-kb"
expect_usage_error "not a bzImage" 'not a bzImage' \
	"$VSB" ab --base "$K" --new "$SWEEP:$TMP/kb" "$SWEEP" -o "$TMP/o-kb"
expect_usage_error "a folder that is no kernel build" 'is not a kernel build folder' \
	"$VSB" ab --base "$K" --new "$KERNEL:$TMP" "$SWEEP" -o "$TMP/o-kb"
out_absent "$TMP/o-kb" && out_absent "$TMP/o-nob" && ok "bzImage refusals: no folder written" ||
	not_ok "bzImage refusals: no folder written"
printf 'name useronly\nbench counter\nbackend user\nvariant cmpxchg-local\ncpus 0\n' >"$TMP/user.sweep"
expect_usage_error "a sweep without module points" 'user.sweep: no module points' \
	"$VSB" ab --base "$K" --new "$K" "$TMP/user.sweep" -o "$TMP/o-user"
printf 'bogus 1\n' >"$TMP/bad.sweep"
expect_usage_error "a sweep the parser refuses: its own file:line message" 'bad\.sweep:1: ' \
	"$VSB" ab --base "$K" --new "$K" "$TMP/bad.sweep" -o "$TMP/o-bad"
mkdir -p "$TMP/busy" && echo x >"$TMP/busy/x"
expect_usage_error "-o a non-empty folder of something else" 'not empty and holds no ab run' \
	"$VSB" ab --base "$K" --new "$K" "$SWEEP" -o "$TMP/busy"
expect_usage_error "--new missing" '--new KERNEL is missing' "$VSB" ab --base "$K" "$SWEEP"
expect_usage_error "--boots 0" '--boots' "$VSB" ab --base "$K" --new "$K" --boots 0 "$SWEEP"
expect_usage_error "--monitor with an unknown source" "--monitor: unknown source 'bogus'" \
	"$VSB" ab --base "$K" --new "$K" --monitor vmstat,bogus "$SWEEP" -o "$TMP/o-mon"
expect_usage_error "--monitor under 100 ms" "--monitor: interval '50ms' is out of range" \
	"$VSB" ab --base "$K" --new "$K" --monitor vmstat:50ms "$SWEEP" -o "$TMP/o-mon"
out_absent "$TMP/o-mon" && ok "--monitor refusals: no folder written" ||
	not_ok "--monitor refusals: no folder written"

# a bzImage and a build folder of the same release are accepted
echo "$KREL" >"$TMP/kb/include/config/kernel.release"
"$VSB" ab --base "$K" --new "$KERNEL:$TMP/kb" --boots 2 --monitor vmstat:500ms "$SWEEP" \
	-o "$TMP/o-dry" -n >"$TMP/dry" 2>"$TMP/err"
rc=$?
if [ $rc -eq 0 ] && grep -q "^new  $KERNEL:$TMP/kb ($KREL)" "$TMP/dry" &&
   grep -q '^order A1 B1 B2 A2$' "$TMP/dry" && grep -q '^monitor vmstat:500ms$' "$TMP/dry" &&
   out_absent "$TMP/o-dry"; then
	ok "--dry-run: bzImage release read from its header, ABBA order A1 B1 B2 A2, the monitors, nothing written"
else
	not_ok "--dry-run" "exit $rc" "$(cat "$TMP/dry" "$TMP/err")"
fi

command -v qemu-system-x86_64 >/dev/null || {
	skip "A/A across boots" "no qemu-system-x86_64"
	done_testing
	exit
}

# --- interrupted first: the boot that finished is kept, the state says
# so; then the same command continues it into the A/A below, booting
# only the boots that are missing (one folder for both: two boots fewer)
D=$TMP/aa
MON=vmstat,interrupts
# --max-boots 2: a fixed 2 boots a side (by default ab would add ABBA
# pairs up to 10 while its points are few-runs)
AA=(ab --base "$K" --new "$K" --boots 2 --max-boots 2 --monitor $MON "$SWEEP" -o "$D")
"$VSB" "${AA[@]}" >/dev/null 2>"$TMP/int.err" &
pid=$!
for _ in $(seq 1 600); do
	[ -d "$D/base/boot-1" ] && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.2
done
kill -TERM $pid 2>/dev/null
wait $pid
rc=$?
sleep 1
if [ $rc -eq 4 ]; then
	skip "A/A across boots" "$(tail -n1 "$TMP/int.err")"
	done_testing
	exit
fi
if [ $rc -eq 1 ] && grep -q '^state: interrupted$' "$D/ab.txt" && [ -d "$D/base/boot-1" ] &&
   [ -z "$(ls -d "$D"/*/boot-*.tmp 2>/dev/null)" ] && ! pgrep -f "vsb-vm.*$TMP" >/dev/null &&
   grep -q 'interrupted during .* 1 of 4 boots kept' "$TMP/int.err"; then
	ok "SIGTERM: exit 1, boot 1 kept, no half-written boot, QEMU gone, state interrupted"
else
	not_ok "SIGTERM during a boot" "exit $rc" "$(cat "$TMP/int.err")" "$(grep state "$D/ab.txt" 2>&1)" \
		"$(ls "$D"/* 2>&1 | head)"
fi

# --- an A/A across boots: no regression, every boot kept and marked ------------
"$VSB" "${AA[@]}" >"$TMP/aa.out" 2>"$TMP/aa.err"
rc=$?
grep -q 'continuing, 1 of 4 boots done' "$TMP/aa.err" && grep -q 'boot 2/4 (new 1' "$TMP/aa.err" &&
	! grep -q 'boot 1/4' "$TMP/aa.err" &&
	ok "the same command continues: only the missing boots ran" ||
	not_ok "continue after an interrupt" "exit $rc" "$(head -5 "$TMP/aa.err")"
if [ $rc -eq 0 ] && grep -q '^ab: not judged: 2 boots a side, a verdict needs 5' "$TMP/aa.err"; then
	ok "A/A, 2 boots a side: exit 0, no regression, and said to be not judged (too few boots)"
else
	not_ok "A/A, 2 boots a side: exit 0, not judged" "exit $rc" "$(tail -n 4 "$TMP/aa.err")"
fi
n=0
for s in base new; do
	for k in 1 2; do
		f=$(ls "$D/$s/boot-$k"/*.csv 2>/dev/null | grep -v 'summary\|sweep.csv' | head -n1)
		[ -n "$f" ] && grep -q "^# ab_kernel: $KREL\$" "$f" && grep -q "^# ab_side: $s\$" "$f" &&
			grep -q "^# ab_boot: $k\$" "$f" && grep -q '^# ab_pinning: ' "$f" &&
			grep -q '^# sweep_name: ab-quick' "$f" && n=$((n + 1))
	done
done
[ $n -eq 4 ] && ok "4 boot folders, each result marked with ab_kernel, ab_side, ab_boot, ab_pinning" ||
	not_ok "4 boot folders with ab_* metadata" "$n of 4" "$(ls -R "$D" | head -20)"
# --monitor in the guest: one series per point in every boot folder, with
# the guest's /proc/vmstat and its interrupts on the workers' CPUs
npts=$(grep -vc "^#" "$D/base/boot-1/points.txt" 2>/dev/null)
n=0
for s in base new; do
	for k in 1 2; do
		m=0
		for f in "$D/$s/boot-$k"/*.monitor.csv; do
			[ -f "$f" ] && [ "$(grep -v '^#' "$f" | head -n1)" = time,source,key,cpu,value ] &&
				grep -q '^[0-9.]*,vmstat,pgalloc_normal,' "$f" &&
				grep -q '^[0-9.]*,interrupts,' "$f" && m=$((m + 1))
		done
		[ "$m" -eq "$npts" ] && n=$((n + 1))
	done
done
[ "$npts" -gt 0 ] && [ $n -eq 4 ] && grep -q "^monitor: $MON\$" "$D/ab.txt" &&
	ok "--monitor $MON: every boot folder has one series per point ($npts), vmstat and interrupts in each; ab.txt says so" ||
	not_ok "--monitor $MON in the guest" "$n of 4 boot folders with $npts series" \
		"$(ls "$D/base/boot-1" 2>&1 | head -20)"
if grep -q '^order: A1 B1 B2 A2$' "$D/ab.txt" && grep -q '^state: done$' "$D/ab.txt" &&
   grep -q '^done: 4 of 4$' "$D/ab.txt" && grep -q '^boot 2: new 1, ' "$D/ab.txt"; then
	ok "ab.txt: ABBA order, state done, 4 of 4 boots"
else
	not_ok "ab.txt" "$(cat "$D/ab.txt")"
fi
if [ -s "$D/compare/compare.csv" ] && [ -s "$D/compare/regression.png" ] &&
   grep -q '^\*\*Verdict:\*\* not judged: 2 boots a side' "$D/summary.md" &&
   grep -q '^| 4 | base | 2 | ' "$D/summary.md"; then
	ok "compare.csv, regression.png and summary.md (verdict, one row per boot)"
else
	not_ok "compare output and summary.md" "$(head -12 "$D/summary.md" 2>&1)"
fi
# 2 boots a side is too few for the rank test over boots: ab passes
# --runs-only, so no point is judged from pooled repetitions
rows=$(grep -v '^#' "$D/compare/compare.csv" 2>/dev/null | tail -n +2 | wc -l)
few=$(grep -c ',few-runs,0,' "$D/compare/compare.csv" 2>/dev/null)
[ "$rows" -gt 0 ] && [ "$few" -eq "$rows" ] &&
	ok "2 boots a side: all $rows points few-runs (not judged from pooled repetitions)" ||
	not_ok "2 boots a side: every point few-runs" "$few of $rows" \
		"$(grep -v "^#" "$D/compare/compare.csv" 2>&1 | cut -d, -f2,41-)"
if grep -q '^| 1 | base | 1 | .* | tcg | ' "$D/summary.md"; then
	grep -q 'timings are emulated' "$D/summary.md" && grep -q 'timings are emulated' "$TMP/aa.err" &&
		ok "TCG: said once on stderr and in summary.md" ||
		not_ok "TCG said" "$(grep -c emulated "$TMP/aa.err")"
else
	grep -q 'emulated' "$D/summary.md" && not_ok "KVM run called emulated" || ok "KVM: not called emulated"
fi
pin=$(sed -n 's/^# ab_pinning: //p' "$f")
if [ "$(nproc)" -ge 2 ]; then
	[[ $pin == "pinned vCPU0->CPU"*" vCPU1->CPU"* ]] && ok "vCPU threads pinned one per host CPU: $pin" ||
		not_ok "vCPU threads pinned" "$pin"
else
	[[ $pin == "not pinned: "* ]] && ok "not pinned, said why: $pin" || not_ok "pinning recorded" "$pin"
fi

# the same command on a finished folder: nothing booted again
t0=$(date +%s)
"$VSB" "${AA[@]}" >/dev/null 2>"$TMP/again.err"
rc=$?
[ $rc -eq 0 ] && grep -q 'continuing, 4 of 4 boots done already' "$TMP/again.err" &&
	! grep -q 'ab: boot' "$TMP/again.err" &&
	ok "rerun on a finished folder: no boot, the verdict again ($(( $(date +%s) - t0 )) s)" ||
	not_ok "rerun on a finished folder" "exit $rc" "$(cat "$TMP/again.err")"
expect_usage_error "-o an ab folder of another question" 'holds an ab run whose boots is 2, not 3' \
	"$VSB" ab --base "$K" --new "$K" --boots 3 --monitor $MON "$SWEEP" -o "$D"
expect_usage_error "-o an ab folder of the same question without its monitors" \
	"holds an ab run whose monitor is $MON, not none" \
	"$VSB" ab --base "$K" --new "$K" --boots 2 "$SWEEP" -o "$D"

# --- the verdict path, with boots enough for the rank test: a finished
# 5-boot folder made from the A/A's boots, their costs set by hand (NEW
# 2x, every boot a run of its own), so that the verdict is the pipeline's
# and not TCG's: the same command finds all 10 boots done, boots nothing,
# and must call the regression (exit 1)
R=$TMP/reg
cp -r "$D" "$R"
sed -i 's/^boots: 2$/boots: 5/' "$R/ab.txt"
for s in base new; do
	for k in 3 4 5; do
		cp -r "$R/$s/boot-$(( (k - 1) % 2 + 1 ))" "$R/$s/boot-$k"
	done
	for k in 1 2 3 4 5; do
		for f in "$R/$s/boot-$k"/*.csv; do
			case $f in *.summary.csv | */sweep.csv | *.monitor.csv) continue ;; esac
			awk -F, -v OFS=, -v c="$([ $s = new ] && echo 20 || echo 10)" -v k=$k -v s=$s '
				/^# run_id:/ { print "# run_id: " s "-boot-" k; next }
				/^# c2c_ns:/ { print "# c2c_ns: 100.0 (test)"; next }
				/^#/ { print; next }
				!h { for (i = 1; i <= NF; i++) if ($i == "per_op") p = i; h = 1; print; next }
				{ $p = c * (1 + 0.002 * k + 0.0001 * (NR % 7)); print }' "$f" >"$f.new" &&
				mv "$f.new" "$f"
		done
	done
done
"$VSB" ab --base "$K" --new "$K" --boots 5 --max-boots 5 --monitor $MON "$SWEEP" -o "$R" \
	>"$TMP/reg.out" 2>"$TMP/reg.err"
rc=$?
rows=$(grep -v '^#' "$R/compare/compare.csv" 2>/dev/null | tail -n +2 | wc -l)
reg=$(grep -c ',slower,1,5,5,' "$R/compare/compare.csv" 2>/dev/null)
if [ $rc -eq 1 ] && grep -q 'continuing, 10 of 10 boots done already' "$TMP/reg.err" &&
   ! grep -q 'ab: boot' "$TMP/reg.err" && grep -q '^ab: REGRESSION beyond 5%' "$TMP/reg.err" &&
   [ "$rows" -gt 0 ] && [ "$reg" -eq "$rows" ] &&
   grep -q '^\*\*Verdict:\*\* REGRESSION beyond 5%' "$R/summary.md"; then
	ok "5 boots a side, NEW 2x in every boot: all $rows points slower over 5 runs a side, exit 1"
else
	not_ok "5 boots a side, NEW 2x: a regression, exit 1" "exit $rc, $reg of $rows" \
		"$(tail -n 5 "$TMP/reg.err")" \
		"$(grep -v '^#' "$R/compare/compare.csv" 2>&1 | cut -d, -f2,35-)"
fi

# --- the looks, on boots made by hand as above (nothing booted): NEW's
# costs as BASE's but 30% apart from boot to boot, so every point is
# inconclusive; the folder holds 7 boots a side.  --boots 5 --max-boots 7:
# the look at 5 (alpha 0.005, which 5 boots cannot reach) leaves them
# few-runs, ab adds a pair (found done) and looks again, up to 7, and
# stops at max boots with exit 5 (inconclusive), never a regression
S=$TMP/seq
cp -r "$R" "$S"
for s in base new; do
	for k in 6 7; do
		cp -r "$S/$s/boot-$(( k - 5 ))" "$S/$s/boot-$k"
	done
	for k in 1 2 3 4 5 6 7; do
		for f in "$S/$s/boot-$k"/*.csv; do
			case $f in *.summary.csv | */sweep.csv | *.monitor.csv) continue ;; esac
			awk -F, -v OFS=, -v k=$k -v s=$s '
				/^# run_id:/ { print "# run_id: " s "-boot-" k; next }
				/^#/ { print; next }
				!h { for (i = 1; i <= NF; i++) if ($i == "per_op") p = i; h = 1; print; next }
				{ $p = 10 * (1 + 0.3 * ((k * 7 + (s == "new") * 3) % 5 - 2) / 2); print }' \
				"$f" >"$f.new" && mv "$f.new" "$f"
		done
	done
done
"$VSB" ab --base "$K" --new "$K" --boots 5 --max-boots 7 --monitor $MON "$SWEEP" -o "$S" \
	>"$TMP/seq.out" 2>"$TMP/seq.err"
rc=$?
if [ $rc -eq 5 ] && ! grep -q 'ab: boot' "$TMP/seq.err" &&
   grep -q 'undecided after 5 boots a side: one more ABBA pair (up to 7)' "$TMP/seq.err" &&
   grep -q 'undecided after 6 boots a side' "$TMP/seq.err" &&
   grep -q '^ab: inconclusive: .*7 boots a side (stopped: max boots)' "$TMP/seq.err" &&
   grep -q '^\*\*Boots:\*\* 7 a side .*stopped: max boots' "$S/summary.md" &&
   grep -q '^boots_now: 7$' "$S/ab.txt" && grep -q '^stopped: max boots$' "$S/ab.txt"; then
	ok "looks: undecided at 5 and 6 boots a side, a pair added each time, stopped at --max-boots 7, exit 5"
else
	not_ok "ab looks up to --max-boots" "exit $rc" "$(tail -n 6 "$TMP/seq.err")"
fi
done_testing
