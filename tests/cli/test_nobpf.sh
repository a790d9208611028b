#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A build without BPF (harness/lib/machine/bpf/bpf.mk: clang missing)
# still builds, says so in one line, and its `trace` and `run --trace`
# skip (exit 4) with the reason, before running anything: no traced
# command, no result file.  The binary only is built (no unit tests, no kmod helpers), into a
# temporary folder removed at the end.  Skipped (4) when that build
# cannot be made here.
. "$(dirname "$0")/../lib.sh"

B="$TMP/build-nobpf"
NOCLANG=/nonexistent/clang
# a plain build, as a user's: nothing of a calling make's (make check's)
# flags.  CFLAGS=-O0 from the environment replaces only the Makefile's
# default -O2 -g (its warnings and defines are added to it): what is
# tested is what BPF's absence leaves out, not the code's speed, and
# -O0 builds in a third of the CPU time, beside the guest lane
if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL CFLAGS=-O0 make -C "$VSB_ROOT" --no-print-directory \
	-j"$(nproc)" V=0 O="$B" BPF_CLANG="$NOCLANG" "$B/vmstat-bench" >"$TMP/build.log" 2>&1 ||
	[ ! -x "$B/vmstat-bench" ]; then
	echo "# the build without BPF could not be made here:"
	tail -5 "$TMP/build.log" | sed 's/^/#   /'
	exit 4
fi
NB="$B/vmstat-bench"

# one line, naming what is missing, and the build goes on
n=$(grep -c '^BPF tracing not built: missing .*clang' "$TMP/build.log")
[ "$n" = 1 ] && [ "$(grep -c 'BPF' "$TMP/build.log")" = 1 ] &&
	ok "the build says once that BPF is left out, and why (clang)" ||
	not_ok "the build says once that BPF is left out, and why" "$(grep BPF "$TMP/build.log")"
grep -qE ' (BPF|GEN-SKEL|BTF) ' "$TMP/build.log" &&
	not_ok "no BPF object, skeleton or vmlinux.h is built" "$(grep -E ' (BPF|GEN-SKEL|BTF) ' "$TMP/build.log")" ||
	ok "no BPF object, skeleton or vmlinux.h is built"
[ ! -e "$B/bpf" ] && ! nm -D "$NB" 2>/dev/null | grep -qw 'bpf_object__open_skeleton' &&
	ok "the binary does not link libbpf" ||
	not_ok "the binary does not link libbpf" "$(nm -D "$NB" 2>&1 | grep bpf_ | head -3)"

# built without BPF: the reason, in one line on stderr
why_ok() {	# why_ok DESCRIPTION PREFIX: stderr is one line PREFIX...built without BPF...clang
	if one_line "$TMP/err" &&
	   grep -q "^vmstat-bench: $2.*built without BPF.*clang.*make deps" "$TMP/err"; then
		ok "$1"
	else
		not_ok "$1" "stderr:" "$(head -3 "$TMP/err")"
	fi
}
expect_exit 4 "trace --duration: skip (4)" "$NB" trace --duration 0.2
why_ok "trace: says it was built without BPF, and what the build needs" "trace: "
expect_exit 4 "trace -- COMMAND: skip (4)" "$NB" trace -- touch "$TMP/ran"
[ ! -e "$TMP/ran" ] && ok "trace -- COMMAND: the command is not run" ||
	not_ok "trace -- COMMAND: the command is not run"
why_ok "trace -- COMMAND: the reason" "trace: "

expect_exit 4 "run --trace: skip (4)" "$NB" run --bench counter --loops 1000 --repeat 1 \
	--warmup 0 --events none --trace -o "$TMP/r.csv"
grep -q -- '--trace: .*built without BPF.*: skipped$' "$TMP/err" &&
	ok "run --trace: says it was built without BPF" ||
	not_ok "run --trace: says it was built without BPF" "$(cat "$TMP/err")"
[ ! -e "$TMP/r.csv" ] && ok "run --trace: no result file" ||
	not_ok "run --trace: no result file" "$(head -3 "$TMP/r.csv")"
# the same run without --trace works: the skip is --trace's alone
expect_exit 0 "the same run without --trace succeeds" "$NB" run --bench counter --loops 1000 \
	--repeat 1 --warmup 0 --events none -o "$TMP/r.csv"
[ -s "$TMP/r.csv" ] && ok "... and writes its result" || not_ok "... and writes its result"

# --monitor trace where BPF was never built: that source skipped with one
# warning, the others kept (as where the kernel has no BTF or we lack CAP_BPF)
"$NB" run --bench counter --loops 100000 --repeat 3 --warmup 0 --events none \
	--monitor vmstat,trace:100ms -o "$TMP/m.csv" >/dev/null 2>"$TMP/err"
rc=$?
[ $rc = 0 ] && [ "$(grep -c 'trace' "$TMP/err")" = 1 ] &&
	grep -q 'warning: --monitor: trace skipped: .*built without BPF.*the other sources are kept' "$TMP/err" &&
	ok "--monitor vmstat,trace: exit 0, one warning naming the missing BPF build" ||
	not_ok "--monitor vmstat,trace: exit 0, one warning" "exit $rc" "$(cat "$TMP/err")"
grep -q '^[0-9.]*,vmstat,pgalloc_normal,' "$TMP/m.monitor.csv" 2>/dev/null &&
	! grep -q ',trace,' "$TMP/m.monitor.csv" &&
	ok "... the vmstat series written, no trace rows" ||
	not_ok "... the vmstat series written, no trace rows" "$(head -5 "$TMP/m.monitor.csv" 2>&1)"

# An object compiled in another configuration is compiled again, not
# linked with the new ones (the Makefile's build-flags stamp): here BPF
# found now where it was not, or where it is missing here too, other
# CFLAGS; the same configuration again compiles nothing.
mk_topo() {	# mk_topo CFLAGS: make one object in $B, its log on stdout
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL CFLAGS="$1" make -C "$VSB_ROOT" \
		--no-print-directory V=0 O="$B" "$B/obj/lib/machine/topo.o" 2>&1
}
cflags=-O0
grep -q -- -DVSB_HAVE_BPF "$(dirname "$VSB")/build-flags" 2>/dev/null || cflags=-O1
before=$(cat "$B/build-flags")
log=$(mk_topo "$cflags")
grep -q " CC .*topo.o" <<<"$log" && [ "$(cat "$B/build-flags")" != "$before" ] &&
	ok "a changed configuration ($([ $cflags = -O0 ] && echo BPF found || echo CFLAGS=-O1)) compiles its objects again" ||
	not_ok "a changed configuration compiles its objects again" "$log"
log=$(mk_topo "$cflags")
! grep -q " CC " <<<"$log" && ok "... and the same configuration again compiles nothing" ||
	not_ok "... and the same configuration again compiles nothing" "$log"

rm -rf "$B"
[ ! -e "$B" ] && ok "the temporary build folder is removed" ||
	not_ok "the temporary build folder is removed"
done_testing
