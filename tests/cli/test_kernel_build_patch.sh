#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A patched build starts from its base's build (ci/kbuild-base.bash),
# without a kernel: the fake kbuild tree of tests/lib.sh, whose make
# logs each file it compiles and, as kbuild does, compiles again an
# object whose recorded command (the source tree's path in it) changed.
# Checks that `--patch` after the unpatched build of the same tree
# compiles only the patched file, from a copy of the base's folder
# pointed at the patched tree; that the key still names the patch; that
# nothing of the base's folder changes; and that without a base it is a
# whole build, as before.
#
# It times nothing and runs no bench on this host: it runs in the guest
# lane, the shorter one (tests/run.sh).
#
# lane: guest
. "$(dirname "$0")/../lib.sh"

KB=$VSB_ROOT/ci/kernel-build.sh
export VSB_VM_CACHE=$TMP/cache
unset VSB_KBUILD_VERBOSE VSB_KBUILD_KEEP

T=$TMP/tree
fake_kernel_tree "$T"
printf 'int a;\n' >"$T/mm/vmstat.c"
printf -- '--- a/mm/vmstat.c\n+++ b/mm/vmstat.c\n@@ -1 +1 @@\n-int a;\n+int a; /* nop */\n' >"$TMP/nop.patch"
printf -- '--- a/kernel/fork.c\n+++ b/kernel/fork.c\n@@ -1 +1 @@\n-int b;\n+int b2;\n' >"$TMP/fork.patch"
# a folder's every file: path, type, size, time and content
snapshot() { (cd "$1" && find . -printf '%p %y %s %T@ %l\n' | LC_ALL=C sort &&
	find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum) | sha256sum; }

"$KB" --source "$T" --out "$TMP/base" >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc -eq 4 ]; then
	why=$(sed -n 's/^kernel-build: SKIP: //p' "$TMP/err" | head -n1)
	for d in "base build" "patched from base" "base untouched" "key" "no base"; do skip "$d" "$why"; done
	done_testing
	exit 0
fi
dBase=$(tail -n1 "$TMP/out" | cut -d: -f2-)
[ $rc -eq 0 ] && [ "$(wc -l <"$dBase/compiled.log")" -eq 2 ] &&
	ok "the unpatched build: a whole build (2 files compiled)" ||
	not_ok "the unpatched build" "exit $rc" "$(tail -n3 "$TMP/err")"
# a command of objtool's kind (tools/), which names the build folder too
mkdir -p "$dBase/tools"
echo "cmd_$dBase/tools/x.o := cc -o $dBase/tools/x.o $T/tools/x.c; $dBase.srcX" >"$dBase/tools/.x.o.cmd"
before=$(snapshot "$dBase")
sleep 1	# the patched file's time must differ from the base's objects'

"$KB" --source "$T" --patch "$TMP/nop.patch" --out "$TMP/p" >"$TMP/out" 2>"$TMP/err"
rc=$?
dP=$(tail -n1 "$TMP/out" | cut -d: -f2-)
if [ $rc -eq 0 ] && grep -q 'starting from the unpatched build' "$TMP/err" &&
   [ "$(wc -l <"$dP/compiled.log")" -eq 3 ] && [ "$(sed -n 3p "$dP/compiled.log")" = "CC mm/vmstat.c" ]; then
	ok "--patch after the base: starts from its folder, compiles only mm/vmstat.c"
else
	not_ok "--patch compiles only mm/vmstat.c" "exit $rc" "$(cat "$dP/compiled.log" 2>/dev/null)" \
		"$(tail -n3 "$TMP/err")"
fi
[ "$(cat "$dP/mm/vmstat.o")" = 'int a; /* nop */' ] && [ "$(cat "$dP/kernel/fork.o")" = 'int b;' ] &&
	[ "$(readlink "$dP/source")" = "$dP.src" ] &&
	[ "$(cat "$dP/mm/.vmstat.o.cmd" "$dP/kernel/.fork.o.cmd")" = "cc $dP.src/mm/vmstat.c
cc $dP.src/kernel/fork.c" ] &&
	[ "$(cat "$dP/tools/.x.o.cmd")" = "cmd_$dP/tools/x.o := cc -o $dP/tools/x.o $dP.src/tools/x.c; $dBase.srcX" ] &&
	ok "... its objects and recorded commands are the patched tree's and folder's" ||
	not_ok "the patched build's objects" "$(cat "$dP/mm/vmstat.o")" "$(cat "$dP"/*/.*.cmd)"
[ "$(snapshot "$dBase")" = "$before" ] && [ "$(cat "$dBase/mm/vmstat.o")" = 'int a;' ] &&
	ok "nothing of the base's folder changed" || not_ok "the base's folder changed"
kb=$("$KB" --source "$T" --print-key 2>/dev/null)
kp=$("$KB" --source "$T" --patch "$TMP/nop.patch" --print-key 2>/dev/null)
[ -n "$kp" ] && [ "$kp" != "$kb" ] && [ "${dP##*/}" = "$kp" ] && [ "${dBase##*/}" = "$kb" ] &&
	grep -q "^patch $(sha256sum <"$TMP/nop.patch" | cut -d' ' -f1)\$" "$dP/vsb-inputs.txt" &&
	ok "the patched build's key still names the patch" || not_ok "the key names the patch" "$kb $kp"

# a tree with no base built: the whole build, as before
T2=$TMP/tree2
fake_kernel_tree "$T2"
printf 'int c;\n' >"$T2/mm/vmstat.c"
"$KB" --source "$T2" --patch "$TMP/fork.patch" --out "$TMP/p2" >"$TMP/out" 2>"$TMP/err"
rc=$?
d2=$(tail -n1 "$TMP/out" | cut -d: -f2-)
[ $rc -eq 0 ] && grep -q 'no complete unpatched build' "$TMP/err" &&
	[ "$(wc -l <"$d2/compiled.log")" -eq 2 ] && [ "$(cat "$d2/kernel/fork.o")" = 'int b2;' ] &&
	ok "--patch with no base built: a whole build" ||
	not_ok "--patch with no base built" "exit $rc" "$(tail -n3 "$TMP/err")"
done_testing
