#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `vmstat-bench profile`: exact mode's profile of a guest's results, from
# a real run kept as a fixture (tests/fixtures/profile/run: mod-zone and
# page-alloc at order 0 with init_on_alloc, Debian's 6.12.117 cloud
# kernel, the plugin's blocks and the guest's kallsyms cut to the symbols
# they need).  The rows of a point sum to its insn per op (estimate's,
# the mix's median) within 0.1%; mod-zone's own function is at the top
# with one call an op; the page allocator's entry and the free path are
# called once an op.  An ab folder whose new side's mod_zone_page_state
# runs 5 instructions and a LOCK more an op: the diff names it, and no
# other function.  Bad input: one line, exit 2; no symbols: exit 4 with
# the reason.
. "$(dirname "$0")/../lib.sh"
cd "$VSB_ROOT" || exit 1

F=tests/fixtures/profile/run
cp -r "$F" "$TMP/run"
expect_exit 0 "profile of a folder of exact results" "$VSB" profile "$TMP/run"
P=$TMP/run/profile.csv
"$VSB" estimate --costs none "$TMP/run/mz.csv" "$TMP/run/pa.csv" >"$TMP/est.csv" 2>/dev/null
for label in "kstat mod-zone cpus=0" "page-alloc cpus=0"; do
	sum=$(awk -F, -v l="$label" '$1 == l { s += $4 } END { printf "%.6f", s }' "$P")
	mix=$(awk -F, -v l="$label" '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
		$c["label"] == l { print $c["insn_per_op"] }' "$TMP/est.csv")
	awk -v a="$sum" -v b="$mix" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 0.001 * b) }' &&
		ok "$label: profile rows sum to the mix's insn per op within 0.1% ($sum, $mix)" ||
		not_ok "$label: profile rows sum to the mix's insn per op within 0.1%" "$sum vs $mix"
done
top=$(awk -F, '$1 == "kstat mod-zone cpus=0" { print $3 "," $5; exit }' "$P")
[ "$top" = "mod_zone_page_state,1" ] && ok "mod-zone: its own function first, 1 call an op" ||
	not_ok "mod-zone: its own function first, 1 call an op" "$top"
calls() { awk -F, -v l="$1" -v f="$2" '$1 == l && $3 == f { printf "%.2f", $5 }' "$P"; }
a=$(calls "page-alloc cpus=0" __alloc_pages_noprof) f=$(calls "page-alloc cpus=0" free_unref_page)
[ "$a" = 1.00 ] && [ "$f" = 1.00 ] &&
	ok "page-alloc: the allocator's entry and the free path once an op ($a, $f)" ||
	not_ok "page-alloc: the allocator's entry and the free path once an op" "$a, $f"
n=$(awk -F, '$1 == "page-alloc cpus=0" && $3 == "(other)"' "$P" | wc -l)
[ "$n" = 1 ] && ok "page-alloc: one (other) row" || not_ok "page-alloc: one (other) row" "$n"
min=$(awk -F, '$1 == "page-alloc cpus=0" && $3 != "(other)" { t += $4; if (m == "" || $4 < m) m = $4 }
	$1 == "page-alloc cpus=0" { all += $4 } END { print (m >= 0.001 * all) }' "$P")
[ "$min" = 1 ] && ok "every function row holds at least 0.1% of the op" ||
	not_ok "every function row holds at least 0.1% of the op"

# --- a 2-CPU point: its vCPUs' windows interleaved round by round --------
# (as ab-exact.sweep's cpus=0-1 points keep them: "0:14-14 1:6-6 0:34-34
# ..."); made from the fixture by giving vCPU 1 a copy of vCPU 0's windows
# and samples.  Each vCPU's windows go to its own samples.
R=$TMP/run3
mkdir -p "$R" && cp -r "$F/exact-profile" "$R/"
for b in "$F"/exact-profile/*/blocks; do
	awk '{ print } /^W 0 / { w = 1; sub(/^W 0 /, "W 1 "); buf = buf $0 "\n"; next }
		/^W / { w = 0 } w { buf = buf $0 "\n" } END { printf "%s", buf }' "$b" \
		>"$R/exact-profile/${b#"$F"/exact-profile/}"
done
awk -F, -v OFS=, '/^# exact_windows:/ { sub(/ 0:0-4$/, "")
		for (i = 0; i < 5; i++) $0 = $0 sprintf(" 0:%d-%d 1:%d-%d", i, i, i, i)
		print; next }
	/^#/ { print; next }
	!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; print; next }
	{ $c["cpus"] = "0-1"; $c["nthreads"] = 2; print
	  $c["cpu"] = 1; $c["thread"] = 1; rows = rows $0 "\n" }
	END { printf "%s", rows }' "$F/mz.csv" >"$R/mz2.csv"
"$VSB" profile "$R" >"$TMP/out" 2>"$TMP/err"
rc=$?
l="kstat mod-zone cpus=0-1"
sum=$(awk -F, -v l="$l" '$1 == l { s += $4 } END { printf "%.6f", s }' "$R/profile.csv")
mix=$("$VSB" estimate --costs none "$R/mz2.csv" 2>/dev/null |
	awk -F, -v l="$l" '$1 == l { print $3 }')
top=$(awk -F, -v l="$l" '$1 == l { print $3 "," $5; exit }' "$R/profile.csv")
[ $rc = 0 ] && [ ! -s "$TMP/err" ] && [ "$top" = "mod_zone_page_state,1" ] &&
	awk -v a="$sum" -v b="$mix" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 0.001 * b) }' &&
	ok "a 2-CPU point, windows interleaved: profiled, sums to its mix ($sum, $mix)" ||
	not_ok "a 2-CPU point, windows interleaved: profiled" "exit $rc, top $top, $sum vs $mix" \
		"$(cat "$TMP/err")"

# --- an ab folder: new's mod_zone_page_state 5 instructions and a LOCK more ---
AB=$TMP/ab
mkdir -p "$AB/base" "$AB/new"
cp -r "$F" "$AB/base/boot-1"
cp -r "$F" "$AB/new/boot-1"
printf 'mode: exact\n' >"$AB/ab.txt"
mzps=$(awk '$3 == "mod_zone_page_state" { print $1 }' "$F"/exact-profile/*/kallsyms)
awk -v a="$mzps" '$1 == a { $3 += 5 * $2; $4 += $2 } { print }' "$F"/exact-profile/*/blocks \
	>"$TMP/blocks"
cp "$TMP/blocks" "$AB"/new/boot-1/exact-profile/*/blocks
"$VSB" profile "$AB" >"$TMP/diff" 2>"$TMP/err"
rc=$?
[ $rc = 0 ] && grep -q 'mod_zone_page_state .*+5.000 .*+1.00 lock' "$TMP/diff" &&
	ok "ab: the diff names mod_zone_page_state, +5 insn and a LOCK an op" ||
	not_ok "ab: the diff names mod_zone_page_state" "exit $rc" "$(cat "$TMP/diff" "$TMP/err")"
n=$(grep -c '^  [^ ]' "$TMP/diff")
[ "$n" = 1 ] && grep -q 'page-alloc cpus=0: .* no function changed' "$TMP/diff" &&
	ok "ab: no other function, and page-alloc unchanged" ||
	not_ok "ab: no other function, and page-alloc unchanged" "$(cat "$TMP/diff")"

# --- bad input ------------------------------------------------------------------
expect_usage_error "not a folder" 'profile: .* is not a folder' "$VSB" profile "$TMP/none"
printf 'mode: timed\n' >"$AB/ab.txt"
expect_usage_error "a timed ab: a profile needs exact mode" \
	'is a timed ab: a profile needs exact mode.s counts' "$VSB" profile "$AB"
mkdir -p "$TMP/timed"
cp tests/fixtures/compare/base.csv "$TMP/timed/" 2>/dev/null ||
	cp "$(ls tests/fixtures/compare/*.csv | head -n1)" "$TMP/timed/"
expect_usage_error "timed results: no exact-mode result" \
	'holds no exact-mode result: a profile needs counts' "$VSB" profile "$TMP/timed"
moved=$(printf '%016x' $((0x$mzps + 16)))	# one symbol 16 bytes off
awk -v a="$mzps" -v m="$moved" '$1 == a { $1 = m } { print }' "$F"/exact-profile/*/kallsyms \
	>"$TMP/System.map"
cp -r "$F" "$TMP/run2"
expect_usage_error "--syms of another kernel: does not match the booted one" \
	'--syms .* does not match the booted kernel: mod_zone_page_state is at' \
	"$VSB" profile --syms "$TMP/System.map" "$TMP/run2"
[ ! -e "$TMP/run2/profile.csv" ] && ok "refused: no profile.csv written" ||
	not_ok "refused: no profile.csv written"
expect_exit 0 "--syms of the booted kernel" "$VSB" profile --syms "$F"/exact-profile/*/kallsyms "$TMP/run2"
rm -rf "$TMP/run2"/exact-profile/*/kallsyms
"$VSB" profile "$TMP/run2" >/dev/null 2>"$TMP/err"
rc=$?
[ $rc = 4 ] && grep -q 'SKIP: no point has a profile: .*kallsyms' "$TMP/err" &&
	ok "no symbols kept: skipped (exit 4), saying why" ||
	not_ok "no symbols kept: skipped (exit 4), saying why" "exit $rc" "$(cat "$TMP/err")"
done_testing
