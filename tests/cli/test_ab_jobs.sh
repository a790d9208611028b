#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Exact boots side by side (ab --jobs, harness/ab/jobs.c), without a
# kernel or QEMU: ab runs the ci/ab-run.sh beside its binary, so a copy
# of the binary in a fake checkout runs a fake ab-run.sh.  Its boots
# take half a second each, log when they start and end, and leave a sweep
# folder whose numbers depend on the side and the boot only (as exact
# counts do).  Checks that --jobs 2 really runs two boots at once and
# --jobs 1 one, that both give the same boot folders, compare.csv and
# ab.txt state, and that --jobs with --timed is refused before any work.
. "$(dirname "$0")/../lib.sh"

CO=$TMP/co
mkdir -p "$CO/build" "$CO/ci"
cp "$VSB" "$CO/build/vmstat-bench"
# a template sweep folder, made once on the host: the fake boots copy it
printf 'name tmpl\nbench counter\nvariant this-cpu-add, cmpxchg-local\nloops 2000\nrepeat 3\n' >"$TMP/t.sweep"
"$VSB" sweep "$TMP/t.sweep" -o "$TMP/tmpl" --run-min-ms 0 >/dev/null 2>&1 ||
	{ echo "# cannot make the template sweep folder"; exit 1; }
cat >"$CO/ci/ab-run.sh" <<'EOF'
#!/bin/bash
# fake ab-run.sh: prepare does nothing, a boot takes half a second and leaves
# the template folder, per_op scaled by side and boot, marked as ab does
set -eu
case $1 in
prepare) exit 0 ;;
boot)	dir=$2 k=$3 side=${2##*/}
	echo "start $side $k $(date +%s.%N)" >>"$FAKE_LOG"
	sleep 0.5
	f=$([ "$side" = new ] && echo 1.5 || echo 1)
	rm -rf "$dir/boot-$k.tmp"
	cp -a "$FAKE_TMPL" "$dir/boot-$k.tmp"
	for c in "$dir/boot-$k.tmp"/*.csv; do
		awk -F, -v OFS=, -v f="$f" -v k="$k" -v side="$side" '
			/^#/ { print; next }
			!h { for (i = 1; i <= NF; i++) if ($i == "per_op") c = i; h = 1; print; next }
			c { $c = sprintf("%.4f", $c * f * (1 + k / 100)) } 1' "$c" >"$c.new"
		mv "$c.new" "$c"
	done
	printf 'accel: tcg\npinning: not pinned: exact\nguest_seconds: 1.0\nsweep_status: 0\n' \
		>"$dir/boot-$k.tmp/ab-boot.txt"
	mv "$dir/boot-$k.tmp" "$dir/boot-$k"
	echo "end $side $k $(date +%s.%N)" >>"$FAKE_LOG"
	exit 0 ;;
esac
exit 2
EOF
chmod +x "$CO/ci/ab-run.sh"

# two fake kernels: a bzImage whose setup header names the release, and
# a build folder of the same release
fake_kernel() {	# fake_kernel DIR RELEASE
	mkdir -p "$1/build/include/config"
	echo "$2" >"$1/build/include/config/kernel.release"
	python3 -c 'import sys
b = bytearray(0x400)
b[0x202:0x206] = b"HdrS"
b[0x20e:0x210] = (0x100).to_bytes(2, "little")
v = (sys.argv[2] + " (fake) #1").encode()
b[0x300:0x300 + len(v)] = v
open(sys.argv[1], "wb").write(b)' "$1/bzImage" "$2"
}
fake_kernel "$TMP/kb" 6.99.0-base
fake_kernel "$TMP/kn" 6.99.0-new
AB=(ab --base "$TMP/kb/bzImage:$TMP/kb/build" --new "$TMP/kn/bzImage:$TMP/kn/build"
	--exact --boots 2 "$VSB_ROOT/configs/ab-quick.sweep")
export FAKE_TMPL=$TMP/tmpl

# the most boots under way at once, from the fake's log
most_at_once() { sort -k4 -n "$1" | awk '$1 == "start" { n++; if (n > m) m = n } $1 == "end" { n-- } END { print m + 0 }'; }

for j in 1 2; do
	export FAKE_LOG=$TMP/log$j
	: >"$FAKE_LOG"
	"$CO/build/vmstat-bench" "${AB[@]}" --jobs $j -o "$TMP/ab$j" >"$TMP/out$j" 2>"$TMP/err$j"
	rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 5 ] && [ "$(grep -c "^end" "$FAKE_LOG")" -eq 4 ] &&
		ok "--jobs $j: the four boots ran (exit $rc)" ||
		not_ok "--jobs $j ran" "exit $rc" "$(tail -n3 "$TMP/err$j")"
	[ "$(most_at_once "$FAKE_LOG")" = $j ] && ok "--jobs $j: $j boot(s) at once" ||
		not_ok "--jobs $j at once" "$(most_at_once "$FAKE_LOG")" "$(cat "$FAKE_LOG")"
done
# compare.csv names its folders: DIR for both
norm() { sed "s|$TMP/ab$1|DIR|g" "$TMP/ab$1/compare/compare.csv"; }
[ "$(grep -vc '^#' "$TMP/ab1/compare/compare.csv")" -gt 2 ] && [ "$(norm 1)" = "$(norm 2)" ] &&
	ok "side by side: the same compare.csv as one at a time" ||
	not_ok "compare.csv differs" "$(diff <(norm 1) <(norm 2) | head -4)"
# the boots' results, and what ab.txt says of them (its pinning and
# order lines aside, the state of both is the same)
if diff -r -x '*.log' -x 'compare' -x 'summary.md' -x 'ab.txt' -x '.lock' \
	"$TMP/ab1" "$TMP/ab2" >"$TMP/diff" &&
   diff <(grep -E '^(state|done|boots_now|boot [0-9])' "$TMP/ab1/ab.txt") \
	<(grep -E '^(state|done|boots_now|boot [0-9])' "$TMP/ab2/ab.txt") >>"$TMP/diff"; then
	ok "side by side: the same boot folders and state as one at a time"
else
	not_ok "boot folders or state differ" "$(head -5 "$TMP/diff")"
fi
grep -q '^state: done$' "$TMP/ab2/ab.txt" && grep -q '^done: 4 of 4$' "$TMP/ab2/ab.txt" &&
	ok "--jobs 2: ab.txt says done, 4 of 4" || not_ok "ab.txt" "$(cat "$TMP/ab2/ab.txt")"

expect_usage_error "--jobs 2 with --timed: refused" "--jobs 2: timed boots run one at a time" \
	"$CO/build/vmstat-bench" ab --base "$TMP/kb/bzImage:$TMP/kb/build" \
	--new "$TMP/kn/bzImage:$TMP/kn/build" --timed --jobs 2 "$VSB_ROOT/configs/ab-quick.sweep" \
	-o "$TMP/abt"
[ ! -e "$TMP/abt" ] && ok "... nothing written" || not_ok "output folder left" "$(ls -la "$TMP/abt")"
expect_usage_error "--jobs 0: refused" "--jobs: 0 is out of range" \
	"$CO/build/vmstat-bench" "${AB[@]}" --jobs 0 -o "$TMP/ab0"
done_testing
