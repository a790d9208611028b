#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `vmstat-bench db` on SQLite: a real run and a small sweep imported, a
# second import counted once, export giving the file back, list, the
# default store and $VSB_DB, two importers at once, an import killed
# half way, and bad input refused with nothing stored or damaged: a
# newer schema, a corrupt or foreign file, a file that is not a result,
# mixed units on one point, an unreachable PostgreSQL.
. "$(dirname "$0")/../lib.sh"

command -v sqlite3 >/dev/null || { echo "# sqlite3 (the CLI) missing: apt-get install sqlite3"; exit 4; }
"$VSB" db list --db "$TMP/probe.db" >/dev/null 2>"$TMP/probe.err"
if [ $? -eq 4 ]; then echo "# $(cat "$TMP/probe.err")"; exit 4; fi

DB=$TMP/s.db
q() { sqlite3 "$DB" "$1"; }
counts() { q "SELECT (SELECT count(*) FROM run) || '/' || (SELECT count(*) FROM sample)"; }
rows() { grep -v '^#' "$1"; }

mkdir -p "$TMP/run"
"$VSB" run --loops 2000 --repeat 3 --warmup 0 --events none -o "$TMP/run/one.csv" >/dev/null 2>&1 ||
	{ echo "# run failed: cannot make a result to import"; exit 1; }
cat >"$TMP/s.sweep" <<EOF
variant cmpxchg-local, atomic-global
loops 2000
repeat 2
EOF
# --run-min-ms 0: 2 samples a point as asked, which the counts below add up
"$VSB" sweep "$TMP/s.sweep" -o "$TMP/sw" --run-min-ms 0 >/dev/null 2>&1
nsw=$(ls "$TMP/sw"/*.csv | grep -vc -e summary -e '/sweep.csv')

expect_exit 0 "import a run" "$VSB" db import --db "$DB" "$TMP/run/one.csv"
rid=$(sed -n 's/^# run_id: //p' "$TMP/run/one.csv")
[ -n "$rid" ] && grep -q "stored run $rid" "$TMP/out" && ok "it says what it stored, under the file's run id" ||
	not_ok "it says what it stored" "$(cat "$TMP/out")"
# an older result without a run id gets one from its content
grep -v '^# run_id:' "$TMP/run/one.csv" >"$TMP/old.csv"
"$VSB" db import --db "$TMP/old.db" "$TMP/old.csv" >"$TMP/out" 2>&1
grep -q "stored run c-" "$TMP/out" && ok "a result without a run id: one from its content" ||
	not_ok "content run id" "$(cat "$TMP/out")"
[ "$(counts)" = "1/3" ] && ok "1 run, 3 samples" || not_ok "1 run, 3 samples" "$(counts)"
expect_exit 0 "import the sweep folder" "$VSB" db import --db "$DB" "$TMP/sw"
[ "$(counts)" = "$((1 + nsw))/$((3 + 2 * nsw))" ] && ok "one run per sweep point, summaries left out" ||
	not_ok "sweep imported" "$(counts), $nsw points"
expect_exit 0 "importing the same files again succeeds" "$VSB" db import --db "$DB" "$TMP/run/one.csv" "$TMP/sw"
[ "$(grep -c 'already stored' "$TMP/out")" -eq $((1 + nsw)) ] && ok "... saying already stored" ||
	not_ok "already stored" "$(cat "$TMP/out")"
[ "$(counts)" = "$((1 + nsw))/$((3 + 2 * nsw))" ] && ok "... and counts once" || not_ok "counted once" "$(counts)"
[ "$(q 'SELECT count(*) FROM machine')/$(q 'SELECT count(*) FROM kernel')" = "1/1" ] &&
	ok "one machine, one kernel" || not_ok "one machine, one kernel"
# the run's point is also one of the sweep's (same parameters): stored once
[ "$(q 'SELECT count(*) FROM point')" -eq "$nsw" ] && ok "points by parameter key, shared across runs" ||
	not_ok "points" "$(q 'SELECT key FROM point')"

# a folder is walked: sub-folders too (sweep --runs' run-K/, ab's
# base/boot-K/), links not followed, and CSV files no run wrote (history's
# tables, a spreadsheet's) left out with one warning naming one
T=$TMP/tree
mkdir -p "$T/ab/base/boot-1" "$T/ab/new/boot-1" "$T/hist/01-x" "$TMP/elsewhere"
cp "$TMP/sw"/*.csv "$T/ab/base/boot-1/"
for f in "$TMP/sw"/*.csv; do
	case $f in *.summary.csv | */sweep.csv) continue ;; esac
	sed 's/^# run_id: .*/&-new/' "$f" >"$T/ab/new/boot-1/${f##*/}"
done
printf '# point: bench=counter\n# unit: tsc\nindex,run,median\n0,r1,9.5\n' >"$T/hist/01-x/history.csv"
printf 'a,b\n1,2\n' >"$T/hist/summary.csv"
cp "$TMP/run/one.csv" "$TMP/elsewhere/linked.csv"
ln -s "$TMP/elsewhere" "$T/ab/link"
"$VSB" db import --db "$TMP/tree.db" "$T" >"$TMP/out" 2>"$TMP/err"
rc=$?
n=$(sqlite3 "$TMP/tree.db" 'SELECT count(*) FROM run' 2>/dev/null)
[ $rc -eq 0 ] && [ "$n" = "$((2 * nsw))" ] &&
	ok "a folder tree: every run in base/boot-1 and new/boot-1 stored ($n), summaries and sweep tables left out" ||
	not_ok "a folder tree: runs in its sub-folders" "exit $rc, $n runs, want $((2 * nsw))" "$(cat "$TMP/err")"
! grep -q linked "$TMP/out" && ok "... a linked folder not followed" ||
	not_ok "... a linked folder not followed" "$(grep linked "$TMP/out")"
[ "$(grep -c 'left out 2 CSV files no vmstat-bench run wrote' "$TMP/err")" = 1 ] &&
	grep -q 'hist/01-x/history.csv' "$TMP/err" &&
	ok "... history's tables left out, one warning naming one" ||
	not_ok "... history's tables left out with one warning" "$(cat "$TMP/err")"
expect_usage_error "a folder tree with no result in it: exit 2" 'no raw result files .* in this folder or below' \
	"$VSB" db import --db "$TMP/tree.db" "$T/hist"
expect_usage_error "a non-result named as a file is still refused" 'not a raw-sample result' \
	"$VSB" db import --db "$TMP/tree.db" "$T/hist/01-x/history.csv"

# export: the file back, metadata and rows
id=$(q "SELECT run_id FROM run WHERE source LIKE '%one.csv'")
expect_exit 0 "export a run" "$VSB" db export --db "$DB" --run "$id" -o "$TMP/back.csv"
diff <(rows "$TMP/run/one.csv") <(rows "$TMP/back.csv") >/dev/null && ok "round trip: header and rows equal" ||
	not_ok "round trip rows" "$(diff <(rows "$TMP/run/one.csv") <(rows "$TMP/back.csv") | head -3)"
cmp -s "$TMP/run/one.csv" "$TMP/back.csv" && ok "round trip: the whole file equal" || not_ok "whole file"
odd_meta_round_trip "$DB" "$TMP/run/one.csv"
"$VSB" db export --db "$DB" --run "${id:0:6}" >"$TMP/pre.csv" 2>/dev/null
cmp -s "$TMP/pre.csv" "$TMP/back.csv" && ok "a run id prefix is enough" || not_ok "run id prefix"
expect_exit 2 "export of a run not stored: exit 2" "$VSB" db export --db "$DB" --run nosuchrun

expect_exit 0 "list" "$VSB" db list --db "$DB"
grep -q '^machines:' "$TMP/out" && grep -q '^kernels:' "$TMP/out" && grep -q "^runs:" "$TMP/out" &&
	grep -q "$id" "$TMP/out" && ok "list shows machines, kernels and runs" || not_ok "list" "$(head -5 "$TMP/out")"
expect_exit 0 "list --points" "$VSB" db list --db "$DB" --points
grep -q "bench=counter,backend=user,variant=cmpxchg-local" "$TMP/out" && ok "points by key" || not_ok "points by key"

# the default store and $VSB_DB
mkdir -p "$TMP/cwd"
(cd "$TMP/cwd" && "$VSB" db import "$TMP/run/one.csv" >/dev/null 2>&1)
[ -f "$TMP/cwd/results/vmstat-bench.db" ] && ok "default store: results/vmstat-bench.db" || not_ok "default store"
VSB_DB=$TMP/env.db "$VSB" db import "$TMP/run/one.csv" >/dev/null 2>&1
[ -f "$TMP/env.db" ] && ok "\$VSB_DB names the store" || not_ok "VSB_DB"

# two importers at once, different and overlapping files
hdr=$(grep -c '^#' "$TMP/run/one.csv")
row=$(rows "$TMP/run/one.csv" | sed -n 2p)
for i in 1 2 3 4 5 6; do
	{ grep '^#' "$TMP/run/one.csv" | sed -e "s/^# date: .*/# date: 2030-01-0${i}T00:00:00Z/" \
		-e "s/^# run_id: .*/# run_id: crafted-c$i/"
	  rows "$TMP/run/one.csv" | head -1
	  echo "$row" | awk -F, -v OFS=, -v r="$(col_of "$TMP/run/one.csv" rep)" \
		'{ for (i = 0; i < 20000; i++) { $r = i; print } }'
	} >"$TMP/c$i.csv"
done
DB=$TMP/conc.db
"$VSB" db import --db "$DB" "$TMP"/c{1,2,3,4}.csv >"$TMP/a.out" 2>&1 & a=$!
"$VSB" db import --db "$DB" "$TMP"/c{6,5,4,3}.csv >"$TMP/b.out" 2>&1 & b=$!
wait $a; ra=$?
wait $b; rb=$?
[ $ra -eq 0 ] && [ $rb -eq 0 ] && ok "two importers at once: both exit 0" ||
	not_ok "concurrent importers" "exit $ra, $rb" "$(cat "$TMP/a.out" "$TMP/b.out")"
[ "$(counts)" = "6/120000" ] && ok "... 6 runs, every sample once" || not_ok "concurrent counts" "$(counts)"

# killed half way: the store holds the run whole or not at all
DB=$TMP/kill.db
"$VSB" db import --db "$DB" "$TMP/c1.csv" >/dev/null 2>&1
{ grep '^#' "$TMP/run/one.csv" | sed "s/^# run_id: .*/# run_id: crafted-big/"
  rows "$TMP/run/one.csv" | head -1
  echo "$row" | awk -F, -v OFS=, -v r="$(col_of "$TMP/run/one.csv" rep)" \
	'{ for (i = 0; i < 600000; i++) { $r = i; print } }'; } >"$TMP/big.csv"
"$VSB" db import --db "$DB" "$TMP/big.csv" >/dev/null 2>&1 & k=$!
sleep 1.2
kill -9 $k 2>/dev/null && echo "# killed the import of $(rows "$TMP/big.csv" | wc -l) rows after 1.2 s"
wait $k 2>/dev/null
case $(counts) in
1/20000) ok "killed mid-import: nothing of it stored" ;;
2/620000) skip "killed mid-import" "the import finished within 1.2 s: nothing to interrupt" ;;
*) not_ok "killed mid-import: whole or nothing" "$(counts)" ;;
esac
[ "$(q 'PRAGMA integrity_check')" = ok ] && ok "killed import: integrity_check ok" || not_ok "integrity after kill"
bad=$(q "SELECT count(*) FROM run r WHERE nsamples != (SELECT count(*) FROM sample s WHERE s.run = r.id)")
[ "$bad" = 0 ] && ok "killed import: no run with part of its samples" || not_ok "half a run stored" "$bad"
[ "$(q "SELECT count(*) FROM sample WHERE run = 1")" = 20000 ] && ok "killed import: earlier run intact" ||
	not_ok "earlier run intact"
expect_exit 0 "import after the kill" "$VSB" db import --db "$DB" "$TMP/big.csv"
[ "$(counts)" = "2/620000" ] && ok "... stores it whole" || not_ok "after kill" "$(counts)"

# bad input: nothing stored, nothing damaged
DB=$TMP/s.db
before=$(counts)
printf 'hello\nworld\n' >"$TMP/not.csv"
expect_usage_error "not a result file: exit 2, one line" "not a raw-sample result|no header" \
	"$VSB" db import --db "$DB" "$TMP/not.csv"
expect_usage_error "a summary file: exit 2" "summary" "$VSB" db import --db "$DB" "$TMP/run/one.summary.csv"
head -c -20 "$TMP/run/one.csv" >"$TMP/trunc.csv"
expect_usage_error "a truncated row: exit 2" "cells" "$VSB" db import --db "$DB" "$TMP/trunc.csv"
awk -F, -v OFS=, -v u="$(col_of "$TMP/run/one.csv" unit)" \
	'!/^#/ && ++n == 3 { $u = "ns" } 1' "$TMP/run/one.csv" >"$TMP/mixed.csv"
expect_usage_error "mixed units on one point: exit 2" "mixed units" "$VSB" db import --db "$DB" "$TMP/mixed.csv"
sed 's/^# date: .*/# date: 2031-01-01T00:00:00Z/' "$TMP/run/one.csv" >"$TMP/good.csv"
expect_exit 2 "a good file with a bad one: exit 2" "$VSB" db import --db "$DB" "$TMP/good.csv" "$TMP/mixed.csv"
[ "$(counts)" = "$before" ] && ok "... and nothing stored, the good file neither" || not_ok "stored" "$(counts)"
expect_exit 2 "no files named: exit 2" "$VSB" db import --db "$DB"
expect_exit 2 "an unknown option: exit 2" "$VSB" db list --db "$DB" --frobnicate

head -c 16384 /dev/urandom >"$TMP/corrupt.db"
sum=$(md5sum <"$TMP/corrupt.db")
expect_usage_error "a corrupt store: exit 2, one line" "not a SQLite database" \
	"$VSB" db import --db "$TMP/corrupt.db" "$TMP/run/one.csv"
[ "$(md5sum <"$TMP/corrupt.db")" = "$sum" ] && [ ! -e "$TMP/corrupt.db-wal" ] &&
	ok "... the file untouched" || not_ok "corrupt file touched"
sqlite3 "$TMP/foreign.db" "CREATE TABLE t (x); INSERT INTO t VALUES (42);"
expect_usage_error "someone else's SQLite file: exit 2" "not a vmstat-bench store" \
	"$VSB" db import --db "sqlite:$TMP/foreign.db" "$TMP/run/one.csv"
[ "$(sqlite3 "$TMP/foreign.db" 'SELECT count(*) FROM sqlite_master')" = 1 ] && ok "... left as it was" ||
	not_ok "foreign file changed"

cp "$DB" "$TMP/newer.db"
sqlite3 "$TMP/newer.db" "UPDATE vsb_meta SET value = '99' WHERE key = 'schema_version'"
expect_usage_error "a newer schema: exit 2, both versions named" "version 99 .*\\(2\\)" \
	"$VSB" db import --db "$TMP/newer.db" "$TMP/good.csv"
[ "$(sqlite3 "$TMP/newer.db" 'SELECT count(*) FROM run')" = "$(q 'SELECT count(*) FROM run')" ] &&
	ok "... nothing stored in it" || not_ok "newer store written"
expect_exit 2 "list of a store that is not there: exit 2" "$VSB" db list --db "$TMP/none.db"
[ ! -e "$TMP/none.db" ] && ok "... and not created" || not_ok "list created a store"
expect_exit 2 "an unknown URL scheme: exit 2" "$VSB" db list --db "mysql://x/y"
"$VSB" db list --db "postgresql:///vsb?host=$TMP/nosocket&connect_timeout=2" >/dev/null 2>"$TMP/err"
rc=$?
if [ $rc -eq 1 ] && one_line "$TMP/err" && grep -q "cannot reach PostgreSQL" "$TMP/err"; then
	ok "unreachable PostgreSQL: exit 1, one line"
elif [ $rc -eq 4 ]; then
	skip "unreachable PostgreSQL" "built without libpq"
else
	not_ok "unreachable PostgreSQL" "exit $rc" "$(cat "$TMP/err")"
fi
[ "$(counts)" = "$before" ] && ok "nothing stored by any refused import" || not_ok "store changed" "$(counts)"
# run --db and sweep --db import what they wrote, after writing it
D2=$TMP/cli.db
mkdir -p "$TMP/cli"
expect_exit 0 "run --db imports its result" "$VSB" run --bench counter --variant this-cpu-add \
	--cpus 0 --loops 1000 --repeat 3 --warmup 0 -o "$TMP/cli/r.csv" --db "$D2"
[ "$(sqlite3 "$D2" 'SELECT count(*) FROM run')/$(sqlite3 "$D2" 'SELECT count(*) FROM sample')" = 1/3 ] &&
	ok "... 1 run, 3 samples" || not_ok "run --db stored" "$(sqlite3 "$D2" 'SELECT count(*) FROM sample' 2>&1)"
expect_exit 2 "run --db without -o FILE.csv: exit 2" "$VSB" run --bench counter --loops 1000 \
	--repeat 1 --db "$D2"
printf 'variant this-cpu-add, cmpxchg-local\ncpus 0\nloops 1000\nrepeat 2\n' >"$TMP/cli.sweep"
expect_exit 0 "sweep --runs 2 --db imports every run's points" "$VSB" sweep "$TMP/cli.sweep" \
	--runs 2 -o "$TMP/cli/sw" --db "$D2"
[ "$(sqlite3 "$D2" 'SELECT count(*) FROM run')" = 5 ] && ok "... 1 + 2 runs x 2 points stored" ||
	not_ok "sweep --db stored" "$(sqlite3 "$D2" 'SELECT count(*) FROM run' 2>&1)"

done_testing
