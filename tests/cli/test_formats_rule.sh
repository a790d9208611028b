#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "Every format the suite reads back is lib/model's" (docs/architecture.md,
# "A file format"), checked on the sources:
#  - no harness file outside lib/model and lib/base decodes text by hand:
#    no fopen(..., "r"), fgets, getline, sscanf, fscanf, strtok, ato*,
#    strto* (lib/base holds the one number syntax and the CSV reader,
#    lib/model every format's reader beside its writer);
#  - no ci/ script reads a CSV column by its position: an awk program run
#    with a comma as its separator uses no $1, $NF or $(NF-k) (a column
#    is found by its header name: ci/csv.bash, or the c[$i] = i idiom);
#  - no harness file outside benches/ names a bench ("a bench is its
#    file plus one row");
#  - no harness file outside lib/model looks a compare.csv column up by
#    a name of its own (compare_csv.h names them).
# What does not hold yet is named below, a file per line with the reason:
# the list is the honest to-do, and an entry that no longer needs its
# place fails too, so the list only shrinks.
. "$(dirname "$0")/../lib.sh"

cd "$VSB_ROOT" || exit 1

# harness files that still read text by hand: path, then why
HARNESS_ALLOWED='
harness/lib/machine/*	the machine layer reads /proc, /sys and tools'"'"' output, which no writer of ours makes (one reader per /proc file: cpuinfo.c, meminfo.c)
harness/benches/isolated.c	/proc/<pid>/schedstat and /proc/<pid>/stat of a worker: kernel text
harness/benches/spawn.c	/proc/stat: kernel text
harness/benches/thresholds.c	/proc/zoneinfo: kernel text
harness/benches/memcg_stat.c	a cgroup'"'"'s memory.stat: kernel text
harness/benches/live.c	a test hook'"'"'s environment number, not a file
harness/cmd/cmd_sweep_procs.c	an environment variable, not a file
harness/cmd/cmd_compare.c	a command-line list of columns split at commas, not a file
harness/cmd/cmd_calibrate_kernel.c	a child'"'"'s stderr, shown as it is
harness/ab/check.c	git'"'"'s output, one commit per line
harness/ab/report.c	a boot'"'"'s log copied into the report as it is
harness/ab/boot.c	a boot log'"'"'s last line, shown as it is (no format; ab.txt is keyval.c'"'"'s)
harness/ab/mode.c	a kernel release'"'"'s "MAJOR.MINOR", from uname text
harness/lib/store/store_pg.c	PostgreSQL'"'"'s text answer of a number, not a file
harness/lib/charts/plot.c	gnuplot'"'"'s stderr, shown as it is
'
# ci scripts that still read a result column by position: path, then why
CI_ALLOWED='
ci/kstat-shapes	shapes.csv is the script'"'"'s own table (point,shape,cost), written and read in the same script
ci/0day-shapes	sums its own pipeline'"'"'s lines (side,stat_interval,...), made by the awk just above it, not a result file
'

HAND='\b(fgets|getline|sscanf|fscanf|strtok|strtok_r|atoi|atol|atoll|atof|strtol|strtoul|strtoll|strtoull|strtod|strtof)\(|\bfopen\([^;]*"r'

allowed() {	# allowed LIST PATH: PATH (or a glob of it) is on LIST
	local pat
	while IFS=$'\t' read -r pat _; do
		[ -n "$pat" ] || continue
		# shellcheck disable=SC2053
		[[ $2 == $pat ]] && return 0
	done <<<"$1"
	return 1
}

# file_rule LIST REGEX WHAT FILE...: no FILE that holds REGEX is off
# LIST ("no harness file WHAT"), and every entry of LIST still holds it
file_rule() {
	local list=$1 re=$2 what=$3 f pat bad='' stale=''
	shift 3
	for f in "$@"; do
		allowed "$list" "$f" || bad="$bad $f"
	done
	[ -z "$bad" ] && ok "no harness file $what" ||
		not_ok "a harness file $what" \
			"$(for f in $bad; do grep -nE "$re" "$f" | sed "s,^,$f:,"; done)"
	while IFS=$'\t' read -r pat _; do
		[ -n "$pat" ] || continue
		# shellcheck disable=SC2086
		grep -qlE "$re" $pat 2>/dev/null || stale="$stale $pat"
	done <<<"$list"
	[ -z "$stale" ] && ok "every allow-list entry ($what) still needs its place" ||
		not_ok "allow-list entries ($what) that no longer hold: remove them" "$stale"
}

# 1. text decoded by hand outside lib/model and lib/base
# shellcheck disable=SC2046
file_rule "$HARNESS_ALLOWED" "$HAND" "outside lib/model and lib/base decodes text by hand" \
	$(grep -rlE "$HAND" harness --include='*.c' --include='*.h' |
		grep -vE '^harness/lib/(model|base)/' | sort)

# 2. a ci/ script's awk reading a CSV column by position.  The awk
# programs run with -F, (or FS = ","), from the quote after awk to the
# closing one, each printed on one line: FILE<tab>PROGRAM.
awk_csv_programs() {
	awk '
	FNR == 1 { inside = 0 }
	!inside && /(^|[^a-z])awk / && /-F *'"'"'?,|FS *= *(OFS *= *)?"?,/ {
		i = index($0, "'"'"'")
		if (!i) next
		prog = substr($0, i + 1)
		j = index(prog, "'"'"'")
		if (j) { print FILENAME "\t" substr(prog, 1, j - 1); next }
		inside = 1
		next
	}
	inside {
		j = index($0, "'"'"'")
		if (j) { prog = prog " " substr($0, 1, j - 1); print FILENAME "\t" prog; inside = 0 }
		else prog = prog " " $0
	}' "$@"
}
scripts=$(grep -lE '^#!.*(bash|sh)' ci/* 2>/dev/null; ls ci/*.bash ci/*.sh 2>/dev/null)
scripts=$(printf '%s\n' $scripts | sort -u)
# shellcheck disable=SC2086
awk_csv_programs $scripts >"$TMP/progs"
[ -s "$TMP/progs" ] && ok "awk programs over CSV found in ci/ ($(wc -l <"$TMP/progs"))" ||
	not_ok "awk programs over CSV found in ci/" "none: the extractor is broken"
POS='\$([1-9]|NF\b|\( *NF)'
bad=
for f in $(grep -E "	.*$POS" "$TMP/progs" | cut -f1 | sort -u); do
	allowed "$CI_ALLOWED" "$f" || bad="$bad $f"
done
[ -z "$bad" ] && ok "no ci/ script reads a CSV column by position" ||
	not_ok "ci/ scripts reading a CSV column by position (use ci/csv.bash)" \
		"$(grep -E "	.*$POS" "$TMP/progs" | grep -E "^($(echo $bad | tr ' ' '|'))	")"
stale=
while IFS=$'\t' read -r pat _; do
	[ -n "$pat" ] || continue
	grep -qE "^$pat	.*$POS" "$TMP/progs" || stale="$stale $pat"
done <<<"$CI_ALLOWED"
[ -z "$stale" ] && ok "every ci/ allow-list entry still needs its place" ||
	not_ok "ci/ allow-list entries that read no column by position now: remove them" "$stale"

# 3. a bench named outside harness/benches/ ("a bench is its file plus
# one row"): its name, or the name of a chart it draws (.chart), as a C
# string anywhere else in the harness.  The names are the descriptors'
# own, so a new bench is covered.  Prose that mentions a bench (an
# option's help, a usage example) is words for a reader, not a name the
# code acts on, and is not counted.
BENCH_ALLOWED='
harness/cmd/cmd_calibrate_kernel.c	calibrate-kernel runs the kstat bench by name, as a user would
'
names=$(grep -rhoE '\.(name|chart) = "[a-z0-9-]+"' harness/benches | sed 's/.*"\(.*\)"/\1/' |
	sort -u | paste -sd'|')
[ -n "$names" ] && ok "bench and chart names found in harness/benches ($(echo "$names" | tr '|' ' '))" ||
	not_ok "bench and chart names found in harness/benches" "no .name = \"...\" lines"
# the table itself, where a binary is built: every bench `list` shows is
# one the grep above found (a descriptor that spelt its name another way
# would slip past the rule)
if [ -x "$VSB" ]; then
	listed=$("$VSB" list 2>/dev/null | awk '/^benches/ { on = 1; next } /^$/ { on = 0 }
		on { print $1 }')
	missed=$(for b in $listed; do [[ "|$names|" == *"|$b|"* ]] || echo "$b"; done)
	[ -n "$listed" ] && [ -z "$missed" ] &&
		ok "every bench of \`vmstat-bench list\` is among the names checked" ||
		not_ok "every bench of \`vmstat-bench list\` is among the names checked" \
			"listed: $(echo $listed)" "not found by the grep: $(echo $missed)"
else
	skip "the names checked against \`vmstat-bench list\`" "no $VSB: build first (make)"
fi
# shellcheck disable=SC2046
file_rule "$BENCH_ALLOWED" "\"($names)\"" "outside benches/ names a bench" \
	$(grep -rlE "\"($names)\"" harness --include='*.c' --include='*.h' |
		grep -v '^harness/benches/' | sort)

# 4. compare.csv read by a column name of its own: its names are
# compare_csv.h's (VSB_CMPCOL_*), taken from there, so that a column
# renamed in the codec is renamed for every reader or fails to compile.
# Names other formats have too (unit, index, p, exact, test: sweep.csv's
# unit, ...) are left out, as a lookup of them says nothing of its file.
CMP_SHARED='index|unit|p|exact|test'
cmp_names=$(sed -n 's/^#define VSB_CMPCOL_[A-Z_]*[[:space:]]*"\([a-z_]*\)"$/\1/p' \
	harness/lib/model/compare_csv.h | grep -vxE "$CMP_SHARED" | paste -sd'|')
[[ "|$cmp_names|" == *"|verdict|"* && "|$cmp_names|" == *"|median_base|"* ]] &&
	ok "compare.csv's column names found in compare_csv.h ($(echo "$cmp_names" | tr '|' ' '))" ||
	not_ok "compare.csv's column names found in compare_csv.h" "got: $cmp_names"
CMP_COL="vsb_csv_col\\([^,]+, *\"($cmp_names)\""
# shellcheck disable=SC2046
file_rule "" "$CMP_COL" "outside lib/model looks a compare.csv column up by a name of its own" \
	$(grep -rlE "$CMP_COL" harness --include='*.c' --include='*.h' |
		grep -v '^harness/lib/model/' | sort)

# the rule itself catches what it is for
printf 'x() { awk -F, '"'"'{ print $3 }'"'"' r.csv; }\n' >"$TMP/probe.sh"
awk_csv_programs "$TMP/probe.sh" | grep -qE "$POS" &&
	ok "a positional awk read is seen" || not_ok "a positional awk read is seen"
printf 'x() { awk -F, '"'"'!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }\n{ print $c["ops"] }'"'"' r.csv; }\n' >"$TMP/probe.sh"
awk_csv_programs "$TMP/probe.sh" | grep -qE "$POS" &&
	not_ok "a read by header name is not taken for one by position" ||
	ok "a read by header name is not taken for one by position"
echo 'n = atol(cell);' | grep -qE "$HAND" && ok "an atol is seen" || not_ok "an atol is seen"
echo 'ver = vsb_csv_col(&c, "verdict");' | grep -qE "$CMP_COL" &&
	ok "a compare.csv column looked up by its own name is seen" ||
	not_ok "a compare.csv column looked up by its own name is seen"
echo 'ver = vsb_csv_col(&c, VSB_CMPCOL_VERDICT);' | grep -qE "$CMP_COL" &&
	not_ok "a lookup through the codec's name is not taken for one" ||
	ok "a lookup through the codec's name is not taken for one"

done_testing
