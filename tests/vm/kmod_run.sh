#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ci/kmod-run.sh, the way `make run` and `make vm-run` reach the module:
# bad usage is refused, the path it takes (host or guest) is said and
# right for this host, the commands' exit status comes back, so do the
# files under $OUT, and --kernel/--kdir (your own kernel build) boots
# that kernel with the module built against it.
. "$(dirname "$0")/../lib.sh"
cd "$VSB_ROOT"

ci/kmod-run.sh --bogus -- true >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 2 ] && grep -q 'unknown option: --bogus' "$TMP/err" &&
	ok "unknown option: exit 2, named" || not_ok "unknown option: exit 2" "exit $rc" "$(cat "$TMP/err")"
ci/kmod-run.sh --kernel /nonexistent -- true >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 2 ] && grep -q -- '--kernel and --kdir go together' "$TMP/err" &&
	ok "--kernel without --kdir: exit 2" || not_ok "--kernel without --kdir: exit 2" "exit $rc"

if ! kc=$(ci/kernel-cache.sh 2>"$TMP/err"); then
	skip "kmod-run in a guest" "no guest kernel: $(tail -1 "$TMP/err")"
	done_testing
	exit
fi
eval "$kc"

# the default path: this host has no module support, so the guest
# shellcheck disable=SC2016  # expanded by kmod-run's shell
ci/kmod-run.sh --out "$TMP/o1" -- '$VSB run --backend kmod --variant irqsave --cpus 0 \
	--loops 2000 --repeat 2 -o $OUT/c.csv' >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ -e /proc/modules ]; then
	want='using the host kernel'
else
	want="has no module support (no /proc/modules): running in a QEMU guest"
fi
if [ $rc -eq 0 ] && grep -q "$want" "$TMP/err" && grep -q '^# sanity: ok' "$TMP/o1/c.csv" &&
	awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
		$c["backend"] != "kmod" || $c["variant"] != "irqsave" { bad = 1 } END { exit bad || !h }' \
		"$TMP/o1/c.csv"; then
	ok "default path said ('$want'), the module's irqsave CSV came back"
else
	not_ok "default path and its CSV" "exit $rc" "$(tail -3 "$TMP/err")"
fi

# your own kernel: --kernel/--kdir (here the cached one), and the status of
# the commands is kmod-run's
# shellcheck disable=SC2016
ci/kmod-run.sh --kernel "$KERNEL" --kdir "$KDIR" --out "$TMP/o2" -- \
	'$VSB info >$OUT/info.txt; exit 7' >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc -eq 7 ] && grep -q -- '--kernel given: running in a QEMU guest' "$TMP/err" &&
	grep -q 'loaded (/dev/vmstat_bench), ABI version 2' "$TMP/o2/info.txt"; then
	ok "--kernel/--kdir: that kernel, module loaded (ABI 2), the commands' exit 7 returned"
else
	not_ok "--kernel/--kdir" "exit $rc" "$(tail -3 "$TMP/err")" "$(cat "$TMP/o2/info.txt" 2>&1 | head -3)"
fi
# the tree a run with --kernel built, named as ab-run.sh names it, and
# --ko-to's copy taken only of a plain module build
[ -f "$VSB_ROOT/$VSB_BUILD_DIR/kmod/${KERNEL##*/vmlinuz-}/kmod/vmstat_bench.ko" ] &&
	ok "--kernel vmlinuz-RELEASE: the module built in build/kmod/RELEASE" ||
	not_ok "--kernel vmlinuz-RELEASE: the module built in build/kmod/RELEASE"
expect_usage_error "kmod-build --ko-to with a build that is not a plain modules: refused" \
	'--ko-to is for a plain `modules` build' \
	env KDIR="$KDIR" ci/kmod-build.sh --tree "$TMP/kt" --ko-to "$TMP/kt.ko" W=1
[ ! -e "$TMP/kt.ko" ] && [ ! -e "$TMP/kt" ] && ok "  ... no copy and no tree made" ||
	not_ok "  ... no copy and no tree made"
done_testing
