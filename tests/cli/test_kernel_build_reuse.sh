#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds that reuse each other (ci/kernel-build.sh --reuse, through
# ci/bisect-build.sh as `vmstat-bench bisect` calls it), without a
# kernel: a fake git kernel tree whose Makefile plays kbuild with make's
# own mtime rules (one object per .c file, each compile logged).  Checks
# that the second commit's build starts from the first one's folder and
# compiles only the file the commit changed, that every commit keeps its
# own key and build folder, that the user's tree (HEAD, index, files) is
# never written, that VSB_KBUILD_KEEP bounds a lineage's builds, that the
# cache key covers the recipe's text (an edit to the script that forgets
# its recipe number still gets a new key), and --reuse's refusals.
#
# It times nothing and runs no bench on this host: it runs in the guest
# lane, the shorter one (tests/run.sh).
#
# lane: guest
. "$(dirname "$0")/../lib.sh"

KB=$VSB_ROOT/ci/kernel-build.sh
BB=$VSB_ROOT/ci/bisect-build.sh
export VSB_VM_CACHE=$TMP/cache
C=$VSB_VM_CACHE
unset VSB_KBUILD_VERBOSE VSB_KBUILD_KEEP

G=$TMP/tree
git init -q "$G"
fake_kernel_tree "$G"
echo 'int a;' >"$G/mm/vmstat.c"
commit() { git -C "$G" add -A && git -C "$G" -c user.name=t -c user.email=t@t commit -q -m "$1" &&
	git -C "$G" rev-parse HEAD; }
A=$(commit one)
echo 'int a2;' >"$G/mm/vmstat.c"
B=$(commit two)
echo 'int b2;' >"$G/kernel/fork.c"
Cm=$(commit three)
idx=$(sha256sum <"$G/.git/index")
tsum=$(cd "$G" && git ls-files -s | sha256sum)

"$BB" "$G" "$A" "$TMP/oA" >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc -eq 4 ]; then
	why=$(sed -n 's/^kernel-build: SKIP: //p' "$TMP/err" | head -n1)
	for d in "first build" "second build incremental" "own keys" "own sources" "tree untouched" \
		 "cache hit" "VSB_KBUILD_KEEP"; do skip "$d" "$why"; done
else
	sA=$(tail -n1 "$TMP/out")
	dA=${sA#*:}
	[ $rc -eq 0 ] && [ -f "$dA/.vsb-complete" ] && [ "$(wc -l <"$dA/compiled.log")" -eq 2 ] &&
		ok "the first commit: a whole build (2 files compiled)" ||
		not_ok "the first commit: a whole build" "exit $rc" "$(tail -n3 "$TMP/err")"
	sleep 1	# mtimes of a second checkout must differ from the first build's
	"$BB" "$G" "$B" "$TMP/oB" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	sB=$(tail -n1 "$TMP/out")
	dB=${sB#*:}
	if [ $rc -eq 0 ] && [ "$(sed -n 3p "$dB/compiled.log")" = "CC mm/vmstat.c" ] &&
	   [ "$(wc -l <"$dB/compiled.log")" -eq 3 ] && grep -q 'starting from the build of' "$TMP/err"; then
		ok "the second commit starts from the first's build and compiles only mm/vmstat.c"
	else
		not_ok "the second commit compiles only mm/vmstat.c" "exit $rc" "$(cat "$dB/compiled.log")" \
			"$(tail -n3 "$TMP/err")"
	fi
	[ "$dA" != "$dB" ] && [ -f "$dA/.vsb-complete" ] && [ "$(cat "$dA/mm/vmstat.o")" = 'int a;' ] &&
		[ "$(cat "$dB/mm/vmstat.o")" = 'int a2;' ] &&
		ok "each commit has its own key and build folder, the first one intact" ||
		not_ok "each commit has its own build folder" "$dA" "$dB"
	[ "$(readlink "$dA/source")" = "$dA.src" ] && [ "$(cat "$dA/source/mm/vmstat.c")" = 'int a;' ] &&
		[ "$(cat "$dB/source/mm/vmstat.c")" = 'int a2;' ] && grep -q "^include $dA.src/Makefile\$" "$dA/Makefile" &&
		[ ! -e "$dA.src/.git" ] &&
		ok "each build's source is its own commit's tree (a module built later sees its headers)" ||
		not_ok "each build's source is its own commit's tree" "$(ls -l "$dA/source")" "$(cat "$dA/Makefile")"
	[ "$(git -C "$G" rev-parse HEAD)" = "$Cm" ] && [ "$(sha256sum <"$G/.git/index")" = "$idx" ] &&
		[ "$(cd "$G" && git ls-files -s | sha256sum)" = "$tsum" ] &&
		[ -z "$(git -C "$G" status --porcelain)" ] && [ ! -e "$G/.config" ] &&
		ok "the user's tree: HEAD, index and files unchanged" ||
		not_ok "the user's tree unchanged" "$(git -C "$G" status --porcelain)"
	"$BB" "$G" "$A" "$TMP/oA2" >"$TMP/out" 2>"$TMP/err"
	[ "$(tail -n1 "$TMP/out")" = "$sA" ] && grep -q 'cached build' "$TMP/err" &&
		ok "a commit built before is a cache hit" || not_ok "a commit built before is a cache hit" "$(tail -n2 "$TMP/err")"
	VSB_KBUILD_KEEP=1 "$BB" "$G" "$Cm" "$TMP/oC" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	dC=$(tail -n1 "$TMP/out" | cut -d: -f2-)
	[ $rc -eq 0 ] && [ -f "$dC/.vsb-complete" ] && [ ! -e "$dA" ] && [ ! -e "$dB" ] && [ ! -e "$dA.src" ] &&
		grep -q 'removed the older build' "$TMP/err" &&
		ok "VSB_KBUILD_KEEP=1: the lineage's older builds are removed" ||
		not_ok "VSB_KBUILD_KEEP=1 removes older builds" "exit $rc" "$(ls "$C/kbuild")"
fi

# the key covers the recipe's text, not only its number
mkdir -p "$TMP/co/ci"
cp "$KB" "$VSB_ROOT/ci/cache.bash" "$VSB_ROOT"/ci/kbuild-*.bash "$VSB_ROOT/ci/kernel.config" "$TMP/co/ci/"
k1=$("$TMP/co/ci/kernel-build.sh" --source "$G" --print-key 2>/dev/null)
echo '# an edit that forgets RECIPE' >>"$TMP/co/ci/kernel-build.sh"
k2=$("$TMP/co/ci/kernel-build.sh" --source "$G" --print-key 2>/dev/null)
[ -n "$k1" ] && [ -n "$k2" ] && [ "$k1" != "$k2" ] &&
	ok "an edit of the script (same recipe number) changes the key" ||
	not_ok "an edit of the script changes the key" "$k1 vs $k2"

echo 'p' >"$TMP/p.patch"
printf -- '--- a/x\n+++ b/x\n' >"$TMP/p.patch"
expect_usage_error "--reuse with --patch is refused" 'reuse is for a kernel tree of your own without --patch' \
	"$KB" --source "$G" --patch "$TMP/p.patch" --reuse --out "$TMP/o9"
VSB_KBUILD_KEEP=many expect_usage_error "VSB_KBUILD_KEEP=many is refused" 'not a count of builds' \
	"$KB" --source "$G" --reuse --out "$TMP/o9"
expect_usage_error "bisect-build.sh: a short SHA is refused" 'not a full SHA' "$BB" "$G" abc "$TMP/o9"
done_testing
