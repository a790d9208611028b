#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# --ncpus / --placement on this machine (the policies themselves are unit
# tested on synthetic topologies): lists built from the topology, the
# oversubscription refusal, and the conflicts with --cpus.
. "$(dirname "$0")/../lib.sh"

R="--repeat 2 --warmup 0 --loops 20000"
n=$(taskset -pc $$ 2>/dev/null | sed 's/.*: //' | tr ',' '\n' |
	awk -F- '{n += NF == 2 ? $2 - $1 + 1 : 1} END {print n}')
[ -n "$n" ] && [ "$n" -gt 0 ] || n=$(nproc)
col() {
	awk -F, -v n="$2" '/^#/ {next} !h {for (i = 1; i <= NF; i++) if ($i == n) c = i; h = 1; next} {print $c}' "$1" | sort -u
}

"$VSB" run $R --ncpus all -o "$TMP/all.csv" >/dev/null 2>"$TMP/err"
[ "$(col "$TMP/all.csv" nthreads)" = "$n" ] && ok "--ncpus all runs $n workers" ||
	not_ok "--ncpus all runs $n workers" "$(col "$TMP/all.csv" nthreads)" "$(head -2 "$TMP/err")"
grep -q '^# affinity_readback: ok' "$TMP/all.csv" && ok "affinity read back and recorded" ||
	not_ok "affinity read back and recorded" "$(grep affinity "$TMP/all.csv")"
"$VSB" run $R --ncpus 1 --placement compact -o "$TMP/one.csv" >/dev/null 2>&1
[ "$(col "$TMP/one.csv" cpus)" = "$(taskset -pc $$ | sed 's/.*: //' | cut -d, -f1 | cut -d- -f1)" ] &&
	ok "--ncpus 1 takes the first allowed CPU" || not_ok "--ncpus 1" "$(col "$TMP/one.csv" cpus)"
for p in compact scatter cores-first node:0; do
	"$VSB" run $R --ncpus "$n" --placement "$p" -o "$TMP/p.csv" >/dev/null 2>&1 &&
		[ "$(col "$TMP/p.csv" nthreads)" = "$n" ] || bad="$bad $p"
done
if [ -d /sys/devices/system/node/node1 ]; then
	skip "every policy places $n workers" "more than one NUMA node: node:0 has fewer CPUs"
else
	[ -z "${bad:-}" ] && ok "every policy places $n workers" || not_ok "policies failed:$bad"
fi
expect_usage_error "oversubscription refused" "--ncpus: $((n + 1)) workers but only $n CPU" \
	"$VSB" run $R --ncpus $((n + 1))
"$VSB" run $R --ncpus $((n + 1)) --allow-oversubscribe -o "$TMP/over.csv" >/dev/null 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$(col "$TMP/over.csv" nthreads)" = $((n + 1)) ] &&
	ok "--allow-oversubscribe runs $((n + 1)) workers" || not_ok "--allow-oversubscribe" "exit $rc"
expect_usage_error "--cpus with --ncpus" "either --cpus or --ncpus" "$VSB" run $R --cpus 0 --ncpus 1
expect_usage_error "--cpus with --placement" "either --cpus or --ncpus" "$VSB" run $R --cpus 0 --placement compact
expect_usage_error "bad placement" "'diagonal' is not one of compact" "$VSB" run $R --ncpus 1 --placement diagonal
expect_usage_error "missing NUMA node" "NUMA node 99 has no CPU" "$VSB" run $R --ncpus 1 --placement node:99
expect_usage_error "--ncpus 0" "is not a worker count" "$VSB" run $R --ncpus 0
expect_usage_error "--ncpus junk" "is not a worker count" "$VSB" run $R --ncpus lots
done_testing
