#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The threshold and batch formulas against the running kernel and against
# values worked out by hand from the kernel source and the seed threads,
# in the CSV and in the text table; the worst-case error columns
# (threshold x CPUs, batch x CPUs) of a given machine shape.
. "$(dirname "$0")/../lib.sh"

# ---- this machine: the formula must agree with what the kernel set ----
if "$VSB" thresholds --format csv >"$TMP/t.csv" 2>"$TMP/err"; then
	n=$(awk -F, '$1 == "stat_threshold" && $7 != -1' "$TMP/t.csv" | wc -l)
	bad=$(awk -F, '$1 == "stat_threshold" && $7 != -1 && $6 != $7' "$TMP/t.csv")
	if [ "$n" -gt 0 ] && [ -z "$bad" ]; then
		ok "calculate_normal_threshold matches /proc/zoneinfo for all $n populated zones"
	else
		not_ok "threshold model vs kernel" "$bad" "zones checked: $n"
	fi
	# pressure threshold from the real watermarks: (low - min) / cpus, 1..125
	cpus=$(nproc)
	exp=$(awk -v c="$cpus" '/^Node/ { z = $4 } $1 == "min" { mn = $2 } $1 == "low" { lo = $2 }
		$1 == "managed" && $2 > 0 { t = int((lo - mn) / c); if (t < 1) t = 1; if (t > 125) t = 125; print z "," t }' /proc/zoneinfo)
	got=$(awk -F, '$1 == "stat_threshold" { print $3 "," $8 }' "$TMP/t.csv")
	[ "$exp" = "$got" ] && ok "pressure threshold = (low - min) / CPUs from /proc/zoneinfo" ||
		not_ok "pressure threshold" "want: $exp" "got: $got"
	# committed_as batch from the seed's formula: totalram_pages() is MemTotal
	ram=$(awk '$1 == "MemTotal:" { print int($2 / 4) }' /proc/meminfo)
	b2=$(awk -F, '$1 == "committed_as_batch" && $3 == "never" { print $6 }' "$TMP/t.csv")
	want=$(( ram / cpus / 256 )); [ $want -lt $((2 * cpus)) ] && want=$((2 * cpus)); [ $want -lt 32 ] && want=32
	[ "$b2" = "$want" ] && ok "OVERCOMMIT_NEVER batch = max(RAM/CPUs/256, 2*CPUs, 32) = $want" ||
		not_ok "never batch" "got $b2 want $want"
else
	not_ok "thresholds on this machine" "$(cat "$TMP/err")"
fi

# ---- synthetic machines, worked by hand ----
thr() { "$VSB" thresholds --format csv "$@" | awk -F, '$1 == "stat_threshold" { print $6; exit }'; }
# 2 * fls(88)=7 * (1 + fls(98304/128=768)=10) = 154 -> capped at 125 (the 001 default)
[ "$(thr --cpus 88 --nodes 2 --zone-mb 98304)" = 125 ] && ok "88 CPUs, 96 GiB zone: 125 (capped)" || not_ok "88 CPUs cap"
# 2 * fls(4)=3 * (1 + fls(1024/128=8)=4) = 30
[ "$(thr --cpus 4 --zone-mb 1024)" = 30 ] && ok "4 CPUs, 1 GiB zone: 30" || not_ok "4 CPUs 1 GiB" "$(thr --cpus 4 --zone-mb 1024)"
# 2 * fls(1)=1 * (1 + fls(0)=0) = 2
[ "$(thr --cpus 1 --zone-mb 16)" = 2 ] && ok "1 CPU, 16 MiB zone: 2" || not_ok "1 CPU 16 MiB"
# 2 * fls(2)=2 * (1 + fls(3072/128=24)=5) = 24 (this VM's DMA32 zone size)
[ "$(thr --cpus 2 --zone-mb 3072)" = 24 ] && ok "2 CPUs, 3 GiB zone: 24" || not_ok "2 CPUs 3 GiB"
# vm_committed_as: 8 CPUs, 16 GiB = 4194304 pages: never 4194304/8/256 = 2048; else /4 = 131072
"$VSB" thresholds --cpus 8 --zone-mb 16384 --format csv >"$TMP/b.csv"
[ "$(awk -F, '$3 == "never" { print $6 }' "$TMP/b.csv")" = 2048 ] &&
	[ "$(awk -F, '$3 == "guess" { print $6 }' "$TMP/b.csv")" = 131072 ] &&
	[ "$(awk -F, '$3 == "never" { print $9 }' "$TMP/b.csv")" = 16384 ] &&
	ok "committed_as batch 8 CPUs 16 GiB: never 2048 (error 16384), guess 131072" ||
	not_ok "committed_as batch" "$(cat "$TMP/b.csv")"
# tiny machine: the floor max(2*ncpus, 32)
"$VSB" thresholds --cpus 64 --zone-mb 64 --format csv >"$TMP/b.csv"
[ "$(awk -F, '$3 == "never" { print $6 }' "$TMP/b.csv")" = 128 ] && ok "batch floor 2 * 64 CPUs = 128" ||
	not_ok "batch floor"

# ---- worst-case error: threshold x CPUs, batch x CPUs, for one machine shape ----
# 88 CPUs, 2 nodes, zones of 4 MiB, 3 GiB, 96 GiB on each:
#   4 MiB:  2 * fls(88)=7 * (1 + fls(0)=0)  = 14  -> 14 * 88  = 1232 pages
#   3 GiB:  2 * 7 * (1 + fls(24)=5)         = 84  -> 84 * 88  = 7392
#   96 GiB: 154 capped at 125                     -> 125 * 88 = 11000
# RAM 2 * 101380 MiB = 51906560 pages: guess 51906560/88/4 = 147461
#   (x 88 = 12976568), never /256 = 2304 (x 88 = 202752)
shape="--cpus 88 --nodes 2 --zone-mb 4,3072,98304"
want_thr="0,zone0,14,1232 0,zone1,84,7392 0,zone2,125,11000 1,zone0,14,1232 1,zone1,84,7392 1,zone2,125,11000"
want_batch="guess,147461,12976568 always,147461,12976568 never,2304,202752"
# shellcheck disable=SC2086
if "$VSB" thresholds $shape --format csv >"$TMP/s.csv" 2>"$TMP/err"; then
	got=$(awk -F, '$1 == "stat_threshold" { printf "%s%s,%s,%s,%s", s, $2, $3, $6, $9; s = " " }' "$TMP/s.csv")
	[ "$got" = "$want_thr" ] &&
		ok "csv: stat_threshold and worst_error_pages = threshold x 88 CPUs per zone" ||
		not_ok "csv: stat_threshold worst_error_pages" "want: $want_thr" "got:  $got"
	got=$(awk -F, '$1 == "committed_as_batch" { printf "%s%s,%s,%s", s, $3, $6, $9; s = " " }' "$TMP/s.csv")
	[ "$got" = "$want_batch" ] &&
		ok "csv: committed_as batch and worst_error_pages = batch x 88 CPUs" ||
		not_ok "csv: committed_as worst_error_pages" "want: $want_batch" "got:  $got"
	awk -F, 'NR > 1 && $9 != $4 * $6 { bad = 1 } END { exit bad }' "$TMP/s.csv" &&
		ok "csv: every worst_error_pages is value x cpus" ||
		not_ok "csv: every worst_error_pages is value x cpus" "$(cat "$TMP/s.csv")"
else
	not_ok "thresholds $shape --format csv" "$(cat "$TMP/err")"
fi
# the text table: the same numbers, laid out for a person
# shellcheck disable=SC2086
if "$VSB" thresholds $shape >"$TMP/s.txt" 2>"$TMP/err"; then
	head -1 "$TMP/s.txt" | grep -q '^88 CPUs, 2 nodes, 198.0 GiB RAM (synthetic; watermarks modelled)$' &&
		ok "text: the machine line (88 CPUs, 2 nodes, 198.0 GiB, synthetic)" ||
		not_ok "text: the machine line" "$(head -1 "$TMP/s.txt")"
	grep -qE '^node +zone +managed MiB +threshold +kernel +pressure +max drift pages$' "$TMP/s.txt" &&
		ok "text: the zone table's header" || not_ok "text: the zone table's header" "$(cat "$TMP/s.txt")"
	# node zone MiB threshold kernel pressure drift
	got=$(awk '$1 ~ /^[0-9]+$/ && $2 ~ /^zone/ && NF == 7 && $5 == "-" {
		printf "%s%s,%s,%s,%s", s, $1, $2, $4, $7; s = " " }' "$TMP/s.txt")
	[ "$got" = "$want_thr" ] &&
		ok "text: threshold and max drift (threshold x CPUs) per zone, no kernel value" ||
		not_ok "text: zone rows" "want: $want_thr" "got:  $got"
	awk '$1 == "0" && $2 == "zone0" && $3 == "4.0" { a = 1 } $1 == "1" && $2 == "zone2" && $3 == "98304.0" { b = 1 }
		END { exit !(a && b) }' "$TMP/s.txt" && ok "text: managed MiB per zone" ||
		not_ok "text: managed MiB per zone"
	# "2 (never )   2304   202752 pages (792.0 MiB)"
	got=$(sed -n 's/^[0-2] (\([a-z]*\) *) *\([0-9]*\) *\([0-9]*\) pages (\([0-9.]*\) MiB)$/\1,\2,\3,\4/p' "$TMP/s.txt" | tr '\n' ' ')
	[ "$got" = "guess,147461,12976568,50689.7 always,147461,12976568,50689.7 never,2304,202752,792.0 " ] &&
		ok "text: committed_as batch, worst error in pages and MiB per policy" ||
		not_ok "text: committed_as rows" "got: $got"
else
	not_ok "thresholds $shape" "$(cat "$TMP/err")"
fi
# this machine's text table says what its CSV says, kernel value included
if "$VSB" thresholds >"$TMP/m.txt" 2>"$TMP/err" && [ -s "$TMP/t.csv" ]; then
	want=$(awk -F, '$1 == "stat_threshold" { printf "%s%s,%s,%s,%s,%s", s, $2, $3, $6,
		$7 == -1 ? "-" : $7, $9; s = " " }' "$TMP/t.csv")
	got=$(awk '$1 ~ /^[0-9]+$/ && NF == 7 && $3 ~ /^[0-9]+\.[0-9]$/ { printf "%s%s,%s,%s,%s,%s", s, $1, $2, $4, $5, $7; s = " " }' "$TMP/m.txt")
	[ -n "$want" ] && [ "$got" = "$want" ] &&
		ok "text: this machine's zones as in the CSV (threshold, kernel, max drift)" ||
		not_ok "text: this machine's zones as in the CSV" "want: $want" "got:  $got"
	head -1 "$TMP/m.txt" | grep -q "^$(nproc) CPUs, .*(this machine, /proc/zoneinfo)$" &&
		ok "text: the machine line names this machine" ||
		not_ok "text: the machine line names this machine" "$(head -1 "$TMP/m.txt")"
else
	not_ok "thresholds (text) on this machine" "$(cat "$TMP/err")"
fi

# ---- refresh model: iterations against the 004 thread's estimate ----
"$VSB" refresh-model --max-cpus 1024 --nodes 1,16 >"$TMP/r.csv" 2>"$TMP/err" || not_ok "refresh-model runs" "$(cat "$TMP/err")"
est1=$(awk -F, '$1 == "every-online" && $2 == 1 && $3 == 1024 { print $5 }' "$TMP/r.csv")
est16=$(awk -F, '$1 == "every-online" && $2 == 16 && $3 == 1024 { print $5 }' "$TMP/r.csv")
[ "$est1" = 1048576 ] && [ "$est16" = 16777216 ] && ok "seed estimates 1,048,576 and 16,777,216 reproduced" ||
	not_ok "seed estimates" "$est1 $est16"
awk -F, '$1 == "every-online" && $3 == 1024 { d = ($4 - $5) / $5; if (d < 0 || d > 0.01) bad = 1; n++ }
	END { exit bad || n != 2 }' "$TMP/r.csv" &&
	ok "every-online iterations within 1% above the seed's estimate (it uses mean = N/2)" ||
	not_ok "every-online iterations vs estimate" "$(grep every-online "$TMP/r.csv" | tail -2)"
# deferred does one refresh: (nodes + zones) * N
[ "$(awk -F, '$1 == "deferred" && $2 == 16 && $3 == 1024 { print $4 }' "$TMP/r.csv")" = 32768 ] &&
	ok "deferred: one refresh of 16 nodes + 16 zones x 1024 CPUs" || not_ok "deferred iterations"
awk -F, '$3 == 1024 { it[$1 "," $2] = $4 } END {
	exit !(it["per-node,16"] < it["every-online,16"] / 100 && it["per-node,1"] < it["every-online,1"] / 100) }' \
	"$TMP/r.csv" && ok "per-node approach does under 1% of today's iterations at 1024 CPUs" ||
	not_ok "per-node iterations"
# growth: quadratic in CPUs for today's approach (4x iterations per doubling, within 5%)
awk -F, '$1 == "every-online" && $2 == 16 { it[$3] = $4 } END { r = it[1024] / it[512]; exit !(r > 3.8 && r < 4.2) }' \
	"$TMP/r.csv" && ok "every-online grows 4x per CPU doubling" || not_ok "quadratic growth"

expect_usage_error "thresholds needs --cpus with --zone-mb" "needs --cpus and --zone-mb" "$VSB" thresholds --zone-mb 100
expect_usage_error "thresholds rejects a bad zone list" "--zone-mb: '1,x'" "$VSB" thresholds --cpus 2 --zone-mb 1,x
expect_usage_error "refresh-model rejects 0 CPUs" "--max-cpus: '0'" "$VSB" refresh-model --max-cpus 0
done_testing
