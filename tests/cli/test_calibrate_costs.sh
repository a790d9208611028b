#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `vmstat-bench calibrate --costs`: the cost table of this CPU, printed
# and kept in the cache under its vendor-family-model-stepping key
# (VSB_COST_CACHE points it at a folder of the test's), a copy with
# --costs-out the same bytes, `--show-costs FILE` reading it back.  Its
# own checks (the imul chain at 3 cycles, LOCK cmpxchg dearer than an
# add) are the unit test's (tests/unit/lib/machine/test_cost_probe.c);
# here the command must pass them, as it retries a failed one twice.
# Bad cost tables and misplaced options: exit 2, one line, nothing
# measured.
. "$(dirname "$0")/../lib.sh"

field() { sed -n "s/^$1[[:space:]]*: //p" /proc/cpuinfo | head -1; }
key="$(field vendor_id)-$(field 'cpu family')-$(field model)-$(field stepping)"
cache=$TMP/cache

VSB_COST_CACHE=$cache "$VSB" calibrate --costs --costs-out "$TMP/copy.costs" \
	>"$TMP/cal" 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ] && ok "calibrate --costs exits 0" ||
	not_ok "calibrate --costs exits 0" "exit $rc" "$(head -3 "$TMP/err")" "$(grep '^# check' "$TMP/cal")"
[ -f "$cache/$key.costs" ] && ok "the table kept under this CPU's key: $key.costs" ||
	not_ok "the table under the key" "$(ls -la "$cache" 2>&1)"
n=$(wc -l <"$cache/$key.costs" 2>/dev/null || echo 0)
head -n "$n" "$TMP/cal" | cmp -s - "$cache/$key.costs" &&
	ok "stdout starts with the table, as kept ($n lines)" ||
	not_ok "stdout is the table" "$(diff <(head -n "$n" "$TMP/cal") "$cache/$key.costs" | head -5)"
cmp -s "$TMP/copy.costs" "$cache/$key.costs" && ok "--costs-out: the same table" ||
	not_ok "--costs-out: the same table"
grep -qx "# written: $cache/$key.costs" "$TMP/cal" && grep -qx "# written: $TMP/copy.costs" "$TMP/cal" &&
	ok "stdout names both files written" || not_ok "written lines" "$(grep '^# written' "$TMP/cal")"
grep -qE '^# check: imul_chain [0-9.]+ cycles \(want 3\.0 within 10%\): ok$' "$TMP/cal" &&
	ok "the imul check said, and passed" || not_ok "imul check line" "$(grep '^# check' "$TMP/cal")"

# every user-space row measured, numbers in order, kernel rows '-'
rows=$(awk -F, '/^[a-z_0-9]+,/ && $1 != "prim" { print }' "$cache/$key.costs")
user=$(awk -F, '$2 != "-" && $3 <= $2 && $2 <= $4 && $5 == 201 { n++ } END { print n + 0 }' <<<"$rows")
kern=$(awk -F, '$2 == "-" && $5 == 0 { n++ } END { print n + 0 }' <<<"$rows")
[ "$user" -eq 16 ] && [ "$kern" -eq 5 ] &&
	ok "16 user-space rows with lo <= median <= hi over 201 samples, 5 kernel rows '-'" ||
	not_ok "rows" "user $user kernel $kern" "$rows"
add=$(awk -F, '$1 == "add_chain" { print $2 }' <<<"$rows")
[ "$add" = 1.0000 ] && ok "the add chain is the clock: 1 cycle" || not_ok "add chain 1.0000" "$add"

VSB_COST_CACHE=$cache "$VSB" calibrate --show-costs "$cache/$key.costs" >"$TMP/show" 2>"$TMP/err" &&
	cmp -s "$TMP/show" "$cache/$key.costs" && ok "--show-costs prints it back the same" ||
	not_ok "--show-costs" "$(head -3 "$TMP/err")"

bad_table() {	# bad_table DESC PATTERN SED-EXPR: the kept table edited, refused
	local d=$1 pat=$2
	sed "$3" "$cache/$key.costs" >"$TMP/bad.costs"
	expect_usage_error "$d" "$pat" "$VSB" calibrate --show-costs "$TMP/bad.costs"
	[ -s "$TMP/out" ] && not_ok "$d: nothing printed" "$(head -2 "$TMP/out")"
}
bad_table "another format" "bad.costs: not a vmstat-bench cost table" '1s/.*/# vmstat-bench: 0.1/'
bad_table "a user-space row missing" "no row 'lock_xadd'" '/^lock_xadd,/d'
bad_table "a number that does not parse" "row 'mfence': median 'x' is not a number" 's/^mfence,[^,]*,/mfence,x,/'
bad_table "an unknown row" "unknown row 'cli'" 's/^cli_sti,/cli,/'
expect_usage_error "a missing file" "nothing.costs: " "$VSB" calibrate --show-costs "$TMP/nothing.costs"
# every result's record names the table its CPU's cost model would use
short_run() {	# short_run CACHE OUT: a tiny counter run with that cost cache
	VSB_COST_CACHE=$1 "$VSB" run --bench counter --loops 1000 --repeat 1 --warmup 0 \
		--events none -o "$2" >/dev/null 2>&1
}
short_run "$cache" "$TMP/r.csv"
grep -qx "# cost_table: $key ($cache/$key.costs)" "$TMP/r.csv" &&
	ok "a result's record names the cached table" ||
	not_ok "cost_table metadata" "$(grep '^# cost_table' "$TMP/r.csv")"
short_run "$TMP/empty" "$TMP/r0.csv"
grep -qx "# cost_table: none (not calibrated: vmstat-bench calibrate --costs)" "$TMP/r0.csv" &&
	ok "... and says none where none is kept" ||
	not_ok "cost_table: none" "$(grep '^# cost_table' "$TMP/r0.csv")"
mkdir -p "$TMP/junk" && echo junk >"$TMP/junk/$key.costs"
short_run "$TMP/junk" "$TMP/r1.csv"
grep -q "^# cost_table: none (.*$key.costs: not a vmstat-bench cost table" "$TMP/r1.csv" &&
	ok "... and names a bad one as none, with why" ||
	not_ok "cost_table: a bad file" "$(grep '^# cost_table' "$TMP/r1.csv")"
expect_usage_error "a result is not a cost table" "r.csv: not a vmstat-bench cost table" \
	"$VSB" calibrate --show-costs "$TMP/r.csv"

bad() {		# bad DESCRIPTION PATTERN ARGS...: exit 2, one line, nothing measured
	local d=$1 pat=$2; shift 2
	VSB_COST_CACHE=$TMP/cache2 expect_usage_error "$d" "$pat" "$VSB" calibrate "$@"
	{ [ -s "$TMP/out" ] || [ -e "$TMP/cache2" ]; } && not_ok "$d: nothing measured or kept"
}
bad "--costs-out alone" "^vmstat-bench: --costs-out: goes with --costs$" --costs-out "$TMP/x"
bad "--kernel alone" "^vmstat-bench: --kernel: goes with --costs$" --kernel
bad "--show-costs with --costs" "--show-costs: reads a table, it measures nothing" \
	--costs --show-costs "$cache/$key.costs"
bad "--costs with --repeat" "--repeat: the harness floor's option, not --costs's" --costs --repeat 3
bad "--costs-out a folder" "--costs-out: $TMP is a directory" --costs --costs-out "$TMP"
expect_usage_error "no cache folder and no --costs-out" "no cache folder" \
	env -u VSB_COST_CACHE -u XDG_CACHE_HOME -u HOME "$VSB" calibrate --costs

# --kernel where the module does not run natively: exit 4 with what this
# machine lacks, before any timing, nothing kept
if [ -e /dev/vmstat_bench ]; then
	skip "--kernel without the module: exit 4" "the module is loaded here"
else
	VSB_COST_CACHE=$TMP/cache3 "$VSB" calibrate --costs --kernel >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc -eq 4 ] && one_line "$TMP/err" &&
		grep -q "the kernel rows need the module loaded natively" "$TMP/err" &&
		[ ! -s "$TMP/out" ] && [ ! -e "$TMP/cache3" ] &&
		ok "--kernel without the module: exit 4, one line, nothing timed or kept" ||
		not_ok "--kernel without the module" "exit $rc" "$(head -3 "$TMP/err" "$TMP/out")"
fi
done_testing
