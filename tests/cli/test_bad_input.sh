#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bad input gets one clear line naming the option, exit 2, and leaves no
# file behind: not the result, not a temporary.
. "$(dirname "$0")/../lib.sh"

out="$TMP/res"
mkdir -p "$out"
run() { "$VSB" run --loops 1000 --repeat 1 --warmup 0 -o "$out/r.csv" "$@"; }

bad() {		# bad DESCRIPTION PATTERN ARGS...
	local d=$1 pat=$2; shift 2
	expect_usage_error "$d" "$pat" run "$@"
	if [ -n "$(ls -A "$out")" ]; then
		not_ok "$d: nothing left in the output directory" "$(ls -A "$out")"
		rm -f "$out"/*
	fi
}

bad "unknown bench" "--bench: unknown bench 'nope'" --bench nope
bad "unknown variant" "--variant: unknown variant 'fast'" --variant fast
bad "irqsave has no user-space form" "--variant: irqsave has no user-space form: user space cannot disable interrupts" \
	--variant irqsave --backend user
bad "threshold beyond an s8 diff" "--threshold: 126 does not fit a 8-bit diff \(at most 125\)" --threshold 126
bad "threshold beyond an s16 diff" "--threshold: 32766 does not fit a 16-bit diff \(at most 32765\)" \
	--threshold 32766 --diff-bits 16
bad "negative threshold" "--threshold: -1 is out of range" --threshold -1
bad "diff width 12" "--diff-bits: 12 is not 8, 16 or 32" --diff-bits 12
bad "loops 0" "--loops: 0 is out of range \(1\.\.1000000000\)" --loops 0
bad "loops beyond the maximum" "--loops: 1000000001 is out of range" --loops 1000000001
bad "loops not a number" "--loops: '1e6' is not an integer" --loops 1e6
bad "repeat 0" "--repeat: 0 is out of range" --repeat 0
bad "items beyond 64" "--items: 65 is out of range" --items 65
bad "delta 0" "--delta: must not be 0" --delta 0
bad "malformed CPU list" "--cpus: malformed CPU list '0-'" --cpus 0-
bad "CPU list with letters" "--cpus: malformed CPU list 'x'" --cpus x
bad "CPU listed twice" "--cpus: CPU 0 listed twice" --cpus 0,0
bad "offline CPU" "--cpus: CPU 4000 is not online" --cpus 4000
bad "bad format" "--format: 'xml' is not one of text\|csv\|json" --format xml
bad "bad backend" "--backend: 'gpu' is not one of" --backend gpu
bad "unknown option" "unknown option '--thresold'" --thresold 5
bad "option without its value" "--loops needs a value" --loops
bad "stray argument" "unexpected argument 'extra'" extra
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then
	expect_usage_error "CPU outside the allowed set" "--cpus: CPU 1 is not in this process's allowed CPUs" \
		taskset -c 0 "$VSB" run --cpus 1 --loops 1000 -o "$out/r.csv"
	[ -z "$(ls -A "$out")" ] && ok "allowed-set refusal leaves nothing" || not_ok "allowed-set refusal left files"
else
	skip "CPU outside the allowed set" "needs 2 CPUs and taskset"
fi

# -o that can never be renamed into place is refused before the bench
# runs.  The run asked for here would take hours, so a refusal that only
# came at the rename, after the run, ends in timeout's exit 124, not 2.
long_run=(--loops 1000000000 --repeat 1000 --warmup 0)
odir="$TMP/odir"
mkdir -p "$odir"
for o in "$odir" "$odir/" "$TMP/newdir/"; do
	expect_usage_error "-o ${o#"$TMP"/}: a directory, refused before the run" \
		"--output: $o is a directory \(give a file name\)" \
		timeout 30 "$VSB" run "${long_run[@]}" -o "$o"
done
expect_usage_error "-o in a missing directory, refused before the run" \
	"--output: cannot write $TMP/missing/r.csv: directory $TMP/missing does not exist" \
	timeout 30 "$VSB" run "${long_run[@]}" -o "$TMP/missing/r.csv"
expect_usage_error "-o with an empty name" "--output: empty file name" \
	timeout 30 "$VSB" run "${long_run[@]}" -o ""
left=$(cd "$TMP" && ls -A odir; ls -d odir.* newdir* missing* 2>/dev/null)
[ -z "$left" ] && ok "refused -o leaves nothing: no file, no temporary, no directory" ||
	not_ok "refused -o left files" "$left"
expect_usage_error "unknown command" "unknown command 'frobnicate'" "$VSB" frobnicate
expect_usage_error "list takes no arguments" "list takes no arguments" "$VSB" list extra
expect_exit 2 "no command: usage on stderr, exit 2" "$VSB"
# the commands' one option loop (lib/base/getopt.c): a flag given a value
expect_usage_error "compare --runs-only=1: the flag takes no value" \
	'^vmstat-bench: --runs-only takes no value \(see compare --help\)$' \
	"$VSB" compare --runs-only=1 "$TMP/a.csv" "$TMP/b.csv"
expect_usage_error "sweep --resume=yes: the flag takes no value" \
	'^vmstat-bench: --resume takes no value \(see sweep --help\)$' \
	"$VSB" sweep --resume=yes "$TMP/none.sweep"
expect_usage_error "compare -R (a long option's code, not a short option): unknown" \
	"compare: unknown option '-R'" "$VSB" compare -R "$TMP/a.csv" "$TMP/b.csv"
done_testing
