#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `vmstat-bench estimate`: exact mode's counted mixes through every cost
# model, as mix.csv's rows.  The fixture's mixes (tests/fixtures/compare/
# verdicts/mix/) are worked out by hand: mod-node's this_cpu_cmpxchg on
# Skylake is 39.53 / 4 plain cycles + 0.11 LOCK x 18 + one cmpxchg x 6;
# the irqsave patch's on Zen 3 has no estimate (no published cli cost).
# Bad input: one line, exit 2, nothing on stdout.
. "$(dirname "$0")/../lib.sh"

F=tests/fixtures/compare/verdicts/mix
expect_exit 0 "estimate of two counted results, the cited models only" \
	"$VSB" estimate --costs none $F/base.csv $F/irqsave.csv
"$VSB" estimate --costs none $F/base.csv $F/irqsave.csv >"$TMP/est.csv" 2>"$TMP/err"
col() {	# col NAME ROW: the cell of column NAME in data row ROW (1: first)
	awk -F, -v n="$1" -v r="$2" '/^#/ { next }
		!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
		++k == r { print $c[n] }' "$TMP/est.csv"
}
grep -q '^# cost_models: skl, zen3, icl$' "$TMP/est.csv" &&
	grep -q '^label,side,insn_per_op,lock,' "$TMP/est.csv" &&
	ok "mix.csv's header, the models named" || not_ok "estimate header" "$(head -3 "$TMP/est.csv")"
skl=$(col est_cycles_skl 1)
want=$(awk 'BEGIN { printf "%.2f", 39.53 / 4 + 0.11 * 18 + 1 * 6 }')
[ "$skl" = "$want" ] && ok "mod-node on skl: $skl cycles, by hand $want" ||
	not_ok "mod-node on skl" "got $skl, want $want"
[ -z "$(col est_cycles_zen3 2)" ] && [ -n "$(col est_cycles_skl 2)" ] &&
	[ -z "$(col est_cycles_host 2)" ] &&
	ok "irqsave: no zen3 estimate (no cli cost), skl's there, no host with --costs none" ||
	not_ok "irqsave estimates" "$(tail -1 "$TMP/est.csv")"
[ "$(col cli 2)" = "1.0000" ] && [ "$(col sti 2)" = "1.0000" ] &&
	ok "the split irq classes are columns of their own" ||
	not_ok "cli/sti columns" "$(tail -1 "$TMP/est.csv")"

expect_usage_error "a result without a mix" "no instruction mix" \
	"$VSB" estimate $F/base.csv tests/fixtures/compare/verdicts/narrow-base/r1.csv
"$VSB" estimate $F/base.csv tests/fixtures/compare/verdicts/narrow-base/r1.csv \
	>"$TMP/none.csv" 2>/dev/null
[ ! -s "$TMP/none.csv" ] && ok "... and nothing on stdout: every file is checked first" ||
	not_ok "estimate wrote before refusing" "$(head -3 "$TMP/none.csv")"
expect_usage_error "no result named" "which results" "$VSB" estimate
printf 'x\n' >"$TMP/bad.costs"
expect_usage_error "a --costs file of another format" "not a vmstat-bench cost table" \
	"$VSB" estimate --costs "$TMP/bad.costs" $F/base.csv
expect_usage_error "a file that is not there" "" "$VSB" estimate "$TMP/nope.csv"
# ab takes --costs as compare does, and reads the table before anything
expect_usage_error "ab --costs: a file of another format, before any boot" \
	"not a vmstat-bench cost table" "$VSB" ab --costs "$TMP/bad.costs" \
	--base debian:6.12.117+deb12 --new debian:6.12.117+deb12 \
	configs/ab-exact.sweep -o "$TMP/ab"
[ ! -e "$TMP/ab" ] && ok "... and no ab folder made" || not_ok "ab made its folder"
done_testing
