#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ci/seeds --quick: the seeds' table at small sizes, on the host only.
# Bad input is one line and exit 2 with nothing written; the table
# parses (seven cells a row), holds a row for every thread and for
# 7c83912062c8, and every row holds a figure of this run or the reason
# why not; a second run keeps the rows and steps already done.  Its
# timings are not recorded, so it takes its own lock, not the machine's.
. "$(dirname "$0")/../lib.sh"

SEEDS=$VSB_ROOT/ci/seeds
export VSB_TIMING_LOCK=$TMP/timing.lock

expect_usage_error "an unknown option is refused" 'unknown option: --bogus' \
	"$SEEDS" --bogus
expect_usage_error "--lock-kernels must name two kernels" "--lock-kernels 'x'" \
	"$SEEDS" --quick --state "$TMP/s" --lock-kernels x
expect_usage_error "--state must be a folder" 'not a folder' \
	"$SEEDS" --quick --state "$VSB_ROOT/ci/seeds"
[ ! -e "$TMP/s" ] && ok "a refused run writes nothing" || not_ok "a refused run writes nothing"

# the rows find a point by its label, which holds spaces (mix.csv's)
printf '%s\n' '# a comment' 'label,side,insn_per_op' 'kstat mod-zone cpus=0,base,36.5' \
	'page-alloc cpus=0 cmdline=init_on_alloc=0,base,685.5' \
	'page-alloc cpus=0 cmdline=init_on_alloc=0,new,690.1' >"$TMP/mix.csv"
got=$(VSB=: STATE=$TMP QUICK=1 bash -c '. "$1"; csv_where "$2" insn_per_op \
	"label=page-alloc cpus=0 cmdline=init_on_alloc=0" side=new' _ \
	"$VSB_ROOT/ci/seeds-rows.bash" "$TMP/mix.csv")
[ "$got" = 690.1 ] && ok "a row's cell is found by a label with spaces" ||
	not_ok "a row's cell is found by a label with spaces" "got '$got', want 690.1"

expect_exit 0 "ci/seeds --quick makes the table" "$SEEDS" --quick --state "$TMP/s" -o "$TMP/seeds.md"
cp "$TMP/out" "$TMP/printed"
cmp -s "$TMP/printed" "$TMP/seeds.md" && ok "the table is printed at the end, as written" ||
	not_ok "the table is printed at the end, as written"

# seed 001's chart beside the table: the counter's folds (the quick
# sweep's thresholds), and no kernel points without a guest
c=$TMP/charts/seeds-folds
n=$(grep -c '^counter ' "$TMP/s/folds.dat" 2>/dev/null)
[ -s "$c.png" ] && [ "$(head -c 4 "$c.png" | tail -c 3)" = PNG ] && grep -q '<svg' "$c.svg" &&
	[ "${n:-0}" -ge 2 ] && ! grep -q '^kernel ' "$TMP/s/folds.dat" &&
	grep -q "the kernel's points left out" "$c.svg" &&
	ok "seed 001's folds chart, PNG and SVG, $n counter points, no kernel's" ||
	not_ok "seed 001's folds chart" "$(ls "$TMP/charts" 2>&1)" "$(cat "$TMP/s/folds.dat" 2>&1)"

# the table's rows: split at the unescaped |, seven cells each
rows() { sed -n '/^| seed |/,/^$/p' "$1" | tail -n +3 | sed '/^$/d'; }
cells() { sed 's/\\|/\x1/g; s/^| //; s/ |$//' | awk -F' [|] ' '{ print NF }'; }
n=$(rows "$TMP/seeds.md" | wc -l)
bad=$(rows "$TMP/seeds.md" | cells | grep -vcx 7)
[ "$n" -ge 6 ] && [ "$bad" -eq 0 ] && ok "the table parses: $n rows of seven cells" ||
	not_ok "the table parses" "$n rows, $bad not of seven cells" "$(rows "$TMP/seeds.md")"
for s in 000 001 002 003 004 7c83912062c8; do
	rows "$TMP/seeds.md" | grep -q "^| $s | " && ok "a row for $s" || not_ok "a row for $s"
done

# every row: a known mode; a figure of this run (a digit) or "none: why"
bad=$(rows "$TMP/seeds.md" | sed 's/\\|/\x1/g; s/^| //; s/ |$//' | awk -F' [|] ' '
	{
		fig = $4; mode = $5; ag = $7
		ok_mode = mode ~ /^(exact count with the estimates|timed on this host|timed in a guest|model|not measured)/
		if (mode == "not measured")
			good = fig ~ /^none: / && length(fig) > 25 && ag == "n/a"
		else
			good = fig ~ /[0-9]/ && fig !~ /^none:/ && ag ~ /^(yes|direction only|no)$/
		if (!ok_mode || !good || $6 == "") print NR ": " $0
	}')
[ -z "$bad" ] && ok "every row holds a figure or the reason why not, its mode and command" ||
	not_ok "every row holds a figure or the reason why not" "$bad"
# what the host has is measured, not excused: every row of a step this
# run made (the host's, in --quick) holds a figure, unless the step was
# skipped for what the machine lacks (root for a sysctl, a second CPU)
for r in 001-folds:thr 001-cost:thr 003-formula:batch 003-mmap:mmap 004-model:refresh; do
	id=${r%%:*} st=${r#*:}
	if [ -f "$TMP/s/.steps/$st.skipped" ]; then
		skip "$id has a figure from this host" "$(cat "$TMP/s/.steps/$st.skipped")"
	elif [ -f "$TMP/s/rows/$id" ] && ! grep -q $'\tnot measured\t' "$TMP/s/rows/$id"; then
		ok "$id has a figure from this host"
	else
		not_ok "$id has a figure from this host" "$(cat "$TMP/s/rows/$id"* 2>/dev/null)"
	fi
done
rows "$TMP/seeds.md" | grep '^| 003 | vm_committed_as_batch' | grep -q '| yes |$' &&
	ok "the batch formula's values agree with the thread's formula" ||
	not_ok "the batch formula's values agree with the thread's formula"

# resume: the rows and steps done are kept, not run again
stamp() { find "$TMP/s" -path '*/rows/*' -o -path '*/.steps/*.done' | sort | xargs stat -c '%n %Y %i'; }
before=$(stamp)
expect_exit 0 "a second run ends too" "$SEEDS" --quick --state "$TMP/s" -o "$TMP/seeds2.md"
[ "$before" = "$(stamp)" ] && ok "a second run keeps every row and step done" ||
	not_ok "a second run keeps every row and step done" "$before" "$(stamp)"
grep -q 'step ' "$TMP/err" && not_ok "a second run runs no step again" "$(grep 'step ' "$TMP/err")" ||
	ok "a second run runs no step again"
rm "$TMP/s/rows/001-folds"
expect_exit 0 "a row removed is made again" "$SEEDS" --quick --state "$TMP/s" -o "$TMP/seeds3.md"
cmp -s "$TMP/seeds2.md" "$TMP/seeds3.md" && ok "from the step's output kept: the same table" ||
	not_ok "from the step's output kept: the same table" "$(diff "$TMP/seeds2.md" "$TMP/seeds3.md")"

# a step that exits 4 (what the machine lacks) gives its row the reason,
# and is not tried again: the mmap sweep's sysctl, as user nobody
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	skip "a skipped step's row says why" "needs root and setpriv to run as nobody"
	skip "a skipped step is not tried again" "needs root and setpriv to run as nobody"
else
	chmod 711 "$TMP" && mkdir -m 777 "$TMP/nobody"
	asnobody() { VSB_TIMING_LOCK=$TMP/nobody/lock setpriv --reuid=65534 --regid=65534 \
		--clear-groups "$SEEDS" --quick --state "$TMP/nobody/s" -o "$TMP/nobody/seeds.md"; }
	asnobody >/dev/null 2>"$TMP/nobody/err1"
	rows "$TMP/nobody/seeds.md" | grep '^| 003 | mmap' |
		grep -q '| none: skipped here: --sysctl: setting vm.overcommit_memory needs root.* | not measured |' &&
		ok "a skipped step's row says why" ||
		not_ok "a skipped step's row says why" "$(cat "$TMP/nobody/err1")" \
			"$(rows "$TMP/nobody/seeds.md" | grep '^| 003 | mmap')"
	asnobody >/dev/null 2>"$TMP/nobody/err2"
	grep -q 'step mmap' "$TMP/nobody/err1" && ! grep -q 'step ' "$TMP/nobody/err2" &&
		ok "a skipped step is not tried again" ||
		not_ok "a skipped step is not tried again" "$(cat "$TMP/nobody/err2")"
fi
done_testing
