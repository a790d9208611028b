#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Exact mode in user space (docs/model-check.md): the counter bench run
# under qemu-x86_64 with the project's TCG plugin counts each batch's
# instructions on the worker's own thread.  Checked: the counts repeat
# sample for sample between two runs (nothing interrupts a thread under
# qemu-user, and the loop's folds fall at the same places from the same
# start), the class counts are what the variant's code must execute
# (one cmpxchg an update for cmpxchg-local, one LOCK an update plus one
# for each fold for cmpxchg-locked), two workers each find their own
# vCPU, and --exact is refused where no plugin counts (exit 2).
. "$(dirname "$0")/../lib.sh"

PLUGIN=$VSB_ROOT/$VSB_BUILD_DIR/qemu-plugin/vsb-insn.so
need_qemu_user

# count VARIANT CPUS OUT: the counter under the plugin, exact, into OUT
count() {
	local w=$TMP/windows.$RANDOM
	VSB_EXACT_USER_FILE=$w qemu-x86_64 -plugin "$PLUGIN,out=$w" \
		"$VSB" run --bench counter --backend user --variant "$1" --cpus "$2" \
		--exact --loops 20000 --repeat 5 --warmup 1 -o "$3" >"$TMP/out" 2>"$TMP/err"
}
# col FILE NAME: column NAME of the data rows, found by the header
col() {
	local c
	c=$(col_of "$1" "$2")
	[ -n "$c" ] && awk -F, -v c="$c" '/^#/ { next } h++ { print $c }' "$1"
}
# mix FILE CLASS: each row's count of tcg:CLASS, found by the row's
# pmu_events list (the values are in the same order in pmu_values)
mix() {
	paste -d' ' <(col "$1" pmu_events) <(col "$1" pmu_values) |
		awk -v want="tcg:$2" '{ n = split($1, e, ";"); split($2, v, ";")
			for (i = 1; i <= n; i++) if (e[i] == want) print v[i] }'
}
# rows FILE: what must repeat, row by row: the count, folds and the mix
rows() { paste -d' ' <(col "$1" elapsed) <(col "$1" folds) <(col "$1" pmu_values); }

if count cmpxchg-local 0 "$TMP/a.csv" && count cmpxchg-local 0 "$TMP/b.csv"; then
	ok "cmpxchg-local counted twice under qemu-x86_64"
else
	not_ok "cmpxchg-local counted under qemu-x86_64" "$(head -3 "$TMP/err")"
	done_testing
	exit
fi
if [ "$(col "$TMP/a.csv" unit | sort -u)" = insn ] &&
	[ "$(col "$TMP/a.csv" plm | sort -u)" = u ] &&
	[ "$(rows "$TMP/a.csv" | wc -l)" -eq 5 ]; then
	ok "5 rows in unit insn, the mix counted in user mode (plm u)"
else
	not_ok "rows in unit insn, plm u" "$(col "$TMP/a.csv" unit | head -1) $(col "$TMP/a.csv" plm | head -1)"
fi
if [ -n "$(rows "$TMP/a.csv")" ] && [ "$(rows "$TMP/a.csv")" = "$(rows "$TMP/b.csv")" ]; then
	ok "the counts repeat exactly, sample for sample ($(rows "$TMP/a.csv" | head -1))"
else
	not_ok "the counts repeat exactly" "$(diff <(rows "$TMP/a.csv") <(rows "$TMP/b.csv") | head -4)"
fi
# per update, to 0.1: a sample's count moves with its folds (a few in 100)
per_op=$(paste -d' ' <(col "$TMP/a.csv" elapsed) <(col "$TMP/a.csv" ops) | awk '{ printf "%.1f\n", $1 / $2 }' | sort -u)
if awk -v x="$per_op" 'BEGIN { exit !(x >= 3 && x <= 60) }'; then
	ok "instructions an update: $per_op (a loop step, a cmpxchg and its checks)"
else
	not_ok "instructions an update is plausible (3 to 60)" "got: $per_op"
fi
# exact equalities, not ratios: each update executes one cmpxchg, and a
# fold adds to the shared counter with one LOCK-prefixed instruction
if [ "$(paste -d' ' <(mix "$TMP/a.csv" cmpxchg) <(col "$TMP/a.csv" ops) | awk '$1 != $2' | wc -l)" -eq 0 ] &&
	[ "$(paste -d' ' <(mix "$TMP/a.csv" lock) <(col "$TMP/a.csv" folds) | awk '$1 != $2' | wc -l)" -eq 0 ]; then
	ok "cmpxchg-local: cmpxchg = updates, lock = folds, in every sample"
else
	not_ok "cmpxchg-local: cmpxchg = updates, lock = folds" "$(mix "$TMP/a.csv" cmpxchg | head -2) $(mix "$TMP/a.csv" lock | head -2)"
fi

if count cmpxchg-locked 0 "$TMP/l.csv" &&
	[ "$(paste -d' ' <(mix "$TMP/l.csv" lock) <(col "$TMP/l.csv" ops) <(col "$TMP/l.csv" folds) |
		awk '$1 != $2 + $3' | wc -l)" -eq 0 ] &&
	[ "$(paste -d' ' <(mix "$TMP/l.csv" cmpxchg) <(col "$TMP/l.csv" ops) | awk '$1 != $2' | wc -l)" -eq 0 ] &&
	[ -n "$(mix "$TMP/l.csv" lock)" ]; then
	ok "cmpxchg-locked: lock = updates + folds, cmpxchg = updates"
else
	not_ok "cmpxchg-locked: lock = updates + folds" "$(head -2 "$TMP/err")" "$(mix "$TMP/l.csv" lock | head -2)"
fi

if [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ]; then
	skip "two workers find their own vCPUs" "one CPU online"
elif count cmpxchg-local 0-1 "$TMP/two.csv" &&
	grep -q '^# exact_window: .*workers 0..1: [0-9]* [0-9]*$' "$TMP/two.csv" &&
	[ "$(paste -d' ' <(col "$TMP/two.csv" elapsed) <(col "$TMP/two.csv" ops) |
		awk '{ printf "%.1f\n", $1 / $2 }' | sort -u)" = "$per_op" ]; then
	ok "two workers each find their own vCPU, and count what one does ($(grep -o 'workers 0..1: .*' "$TMP/two.csv"))"
else
	not_ok "two workers each find their own vCPU" "$(head -2 "$TMP/err")" "$(grep exact_window "$TMP/two.csv")"
fi

expect_usage_error "--exact with the variable set but no plugin counting: exit 2" \
	'no plugin counts this process' \
	env VSB_EXACT_USER_FILE="$TMP/a.csv" "$VSB" run --bench counter --backend user \
	--variant cmpxchg-local --cpus 0 --exact -o "$TMP/none.csv"
expect_usage_error "--exact for a user-space bench without qemu-x86_64: exit 2" \
	'counts the module.s windows' \
	env -u VSB_EXACT_USER_FILE "$VSB" run --bench counter --backend user \
	--variant cmpxchg-local --cpus 0 --exact -o "$TMP/none.csv"
if [ ! -e "$TMP/none.csv" ]; then ok "nothing written when refused"; else not_ok "nothing written when refused"; fi
if qemu-x86_64 -plugin "$PLUGIN,out=$TMP/w,bogus=1" /bin/true 2>"$TMP/err"; then
	not_ok "an unknown plugin option fails the load"
elif grep -q "unknown option 'bogus=1'" "$TMP/err"; then
	ok "an unknown plugin option fails the load, and says which"
else
	not_ok "an unknown plugin option fails the load, and says which" "$(head -2 "$TMP/err")"
fi
done_testing
