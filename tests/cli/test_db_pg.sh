#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `vmstat-bench db` on a real PostgreSQL: a throwaway server from
# Debian's postgresql package (initdb, pg_ctl) in a temporary folder,
# run as an unprivileged user, listening on a Unix socket there only (no
# TCP).  Imports a run and a sweep over postgresql://...?host=DIR,
# counts a second import once, lists, exports a run back, runs two
# importers at once, refuses a newer schema; the server is stopped and
# removed at the end, whatever happened.
. "$(dirname "$0")/../lib.sh"

# the server: tests/pg.bash (exit 4, with the reason, when it cannot run)
. "$(dirname "$0")/../pg.bash"
vsb_pg_start
ok "throwaway PostgreSQL started (Unix socket in $PGT, no TCP)"

URL=$PG_URL
counts() { psq "SELECT (SELECT count(*) FROM run) || '/' || (SELECT count(*) FROM sample)"; }
rows() { grep -v '^#' "$1"; }

mkdir -p "$TMP/run"
"$VSB" run --loops 2000 --repeat 3 --warmup 0 --events none -o "$TMP/run/one.csv" >/dev/null 2>&1 ||
	{ echo "# run failed: cannot make a result to import"; exit 1; }
printf 'variant cmpxchg-local, atomic-global\nloops 3000\nrepeat 2\n' >"$TMP/s.sweep"
# --run-min-ms 0: 2 samples a point as asked, which the counts below add up
"$VSB" sweep "$TMP/s.sweep" -o "$TMP/sw" --run-min-ms 0 >/dev/null 2>&1
nsw=$(ls "$TMP/sw"/*.csv | grep -vc -e summary -e '/sweep.csv')

expect_exit 0 "import a run over the socket" "$VSB" db import --db "$URL" "$TMP/run/one.csv"
expect_exit 0 "import a sweep folder" "$VSB" db import --db "$URL" "$TMP/sw"
[ "$(counts)" = "$((1 + nsw))/$((3 + 2 * nsw))" ] && ok "runs and samples stored" || not_ok "counts" "$(counts)"
# libpq is loaded on first use (lib/store/pq_api.h), not linked: a run
# does not map it, an import over PostgreSQL did just that
if ldd "$VSB" | grep -q 'libpq\.'; then
	not_ok "libpq not linked, loaded on first use" "$(ldd "$VSB" | grep libpq)"
else
	ok "libpq not linked, loaded on first use (the imports above loaded it)"
fi
[ "$(psq 'SELECT value FROM vsb_meta')" = 2 ] && ok "schema version recorded" || not_ok "schema version"
# the first import, into an empty sample table, built sample's two
# indexes after its rows (store_bulk.c): both are there, as the schema has them
[ "$(psq "SELECT string_agg(indexdef, ';' ORDER BY indexname) FROM pg_indexes WHERE tablename = 'sample'")" = \
  "CREATE UNIQUE INDEX sample_pkey ON public.sample USING btree (run, seq);CREATE INDEX sample_point ON public.sample USING btree (point, run)" ] &&
	[ "$(psq "SELECT count(*) FROM pg_constraint WHERE conrelid = 'sample'::regclass AND contype = 'p'")" = 1 ] &&
	[ "$(psq "SELECT min(c.xmin::text::bigint) > (SELECT m.xmin::text::bigint FROM vsb_meta m
		WHERE m.key = 'schema_version')
		FROM pg_class c WHERE c.relname IN ('sample_pkey', 'sample_point')")" = t ] &&
	ok "the first import made sample's primary key and index after its rows" ||
	not_ok "sample's indexes after the first import" "$(psq "SELECT indexdef FROM pg_indexes WHERE tablename = 'sample'")"
# version 2 has no per-row foreign key checks on sample (store.c)
[ "$(psq "SELECT count(*) FROM pg_constraint WHERE conrelid = 'sample'::regclass AND contype = 'f'")" = 0 ] &&
	ok "sample has no foreign keys (version 2)" || not_ok "sample's foreign keys"
# binary COPY stores what SQLite stores: every typed column of every
# sample of the sweep, the numbers to the last bit (both printed with
# enough digits to read back exact, then read and printed by Python)
"$VSB" db import --db "$TMP/same.db" "$TMP/run/one.csv" "$TMP/sw" >/dev/null 2>&1
typed() {	# typed sqlite|pg: the doubles printed exact, NULL as NULL
	local c f cols=
	for c in per_op ns_per_op cycles instructions; do
		f="s.$c"
		[ "$1" = pg ] || f="CASE WHEN s.$c IS NULL THEN NULL ELSE printf('%!.17g', s.$c) END"
		cols="$cols, $f"
	done
	echo "SELECT r.run_id, s.seq, p.key, s.thread, s.cpu, s.rep, s.ops, s.elapsed,
	s.unit$cols, s.pmu_events, s.pmu_values, s.cells
	FROM sample s JOIN run r ON r.id = s.run JOIN point p ON p.id = s.point"
}
exact() {
	python3 -c 'import sys
for l in sys.stdin:
    f = l.rstrip("\n").split("|")
    f[9:13] = [repr(float(x)) if x else x for x in f[9:13]]
    print("|".join(f))' | sort
}
if command -v sqlite3 >/dev/null && command -v python3 >/dev/null; then
	sqlite3 "$TMP/same.db" "$(typed sqlite)" | exact >"$TMP/same.sq"
	"$PGBIN/psql" -X -Atq "$PG_URL" -c "SET extra_float_digits = 3" -c "$(typed pg)" | exact >"$TMP/same.pg"
	[ -s "$TMP/same.sq" ] && cmp -s "$TMP/same.sq" "$TMP/same.pg" &&
		ok "binary COPY: the same typed samples as SQLite's, bit for bit" ||
		not_ok "binary COPY against SQLite" "$(diff "$TMP/same.sq" "$TMP/same.pg" | head -4)"
else
	ok "# SKIP sqlite3 or python3 missing: binary COPY not compared with SQLite"
fi
idx_oids() { psq "SELECT string_agg(oid::text, ',' ORDER BY relname) FROM pg_class
	WHERE relname IN ('sample_pkey', 'sample_point')"; }
oids=$(idx_oids)
expect_exit 0 "the same files again" "$VSB" db import --db "$URL" "$TMP/run/one.csv" "$TMP/sw"
[ "$(grep -c 'already stored' "$TMP/out")" -eq $((1 + nsw)) ] && [ "$(counts)" = "$((1 + nsw))/$((3 + 2 * nsw))" ] &&
	ok "... already stored, counted once" || not_ok "counted once" "$(counts)" "$(cat "$TMP/out")"
sed 's/^# run_id: .*/# run_id: crafted-later/' "$TMP/run/one.csv" >"$TMP/later.csv"
check "an import into a store with samples" "$VSB" db import --db "$URL" "$TMP/later.csv"
[ "$(idx_oids)" = "$oids" ] && ok "... keeps sample's indexes (not rebuilt)" ||
	not_ok "indexes rebuilt by a later import" "$oids -> $(idx_oids)"

expect_exit 0 "list" "$VSB" db list --db "$URL"
grep -q '^machines:' "$TMP/out" && grep -q '^runs:' "$TMP/out" && grep -q '(postgresql)' "$TMP/out" &&
	ok "list shows machines and runs" || not_ok "list" "$(head -5 "$TMP/out")"
id=$(psq "SELECT run_id FROM run WHERE source LIKE '%one.csv'")
expect_exit 0 "export a run" "$VSB" db export --db "$URL" --run "$id" -o "$TMP/back.csv"
cmp -s "$TMP/run/one.csv" "$TMP/back.csv" && ok "round trip: the file back, byte for byte" ||
	not_ok "round trip" "$(diff "$TMP/run/one.csv" "$TMP/back.csv" | head -3)"

odd_meta_round_trip "$URL" "$TMP/run/one.csv"

# two importers at once, different and overlapping files
row=$(rows "$TMP/run/one.csv" | sed -n 2p)
for i in 1 2 3 4 5 6; do
	{ grep '^#' "$TMP/run/one.csv" | sed -e "s/^# date: .*/# date: 2030-01-0${i}T00:00:00Z/" \
		-e "s/^# run_id: .*/# run_id: crafted-c$i/"
	  rows "$TMP/run/one.csv" | head -1
	  echo "$row" | awk -F, -v OFS=, -v r="$(col_of "$TMP/run/one.csv" rep)" \
		'{ for (i = 0; i < 2000; i++) { $r = i; print } }'
	} >"$TMP/c$i.csv"
done
before=$(psq "SELECT count(*) FROM run")
"$VSB" db import --db "$URL" "$TMP"/c{1,2,3,4}.csv >"$TMP/a.out" 2>&1 & a=$!
"$VSB" db import --db "$URL" "$TMP"/c{6,5,4,3}.csv >"$TMP/b.out" 2>&1 & b=$!
wait $a; ra=$?
wait $b; rb=$?
[ $ra -eq 0 ] && [ $rb -eq 0 ] && ok "two importers at once: both exit 0" ||
	not_ok "concurrent importers" "exit $ra, $rb" "$(cat "$TMP/a.out" "$TMP/b.out")"
n=$(psq "SELECT count(*) FROM run r WHERE r.started LIKE '2030-%' AND
	(SELECT count(*) FROM sample s WHERE s.run = r.id) = 2000")
[ "$n" = 6 ] && [ "$(psq 'SELECT count(*) FROM run')" = $((before + 6)) ] &&
	ok "... 6 runs, each with all its samples once" || not_ok "concurrent counts" "$n" "$(counts)"
[ "$(psq 'SELECT count(*) FROM machine')" = 1 ] && ok "... one machine row" || not_ok "machines"

awk -F, -v OFS=, -v u="$(col_of "$TMP/run/one.csv" unit)" \
	'!/^#/ && ++n == 3 { $u = "ns" } 1' "$TMP/run/one.csv" >"$TMP/mixed.csv"
before=$(counts)
expect_exit 2 "mixed units on one point: exit 2" "$VSB" db import --db "$URL" "$TMP/mixed.csv"
# rows are checked while they go into the COPY (store_import.c): a file
# bad only in its last row, after 3 MB of good ones were sent, is refused
# with the line SQLite's import gives (whose rows are checked before the
# store opens), exit 2, and nothing of it or of a good file beside it stored
awk -F, -v OFS=, -v p="$(col_of "$TMP/run/one.csv" per_op)" \
	-v r="$(col_of "$TMP/run/one.csv" rep)" '/^# run_id:/ { print "# run_id: bad-last"; next }
	/^#/ || !h { h = h || !/^#/; print; next }
	!d { d = $0 } END { $0 = d; for (i = 0; i < 30000; i++) { $r = i; if (i == 29999) $p = -1; print } }' \
	"$TMP/run/one.csv" >"$TMP/badlast.csv"
sed 's/^# run_id: .*/# run_id: good-beside/' "$TMP/run/one.csv" >"$TMP/good.csv"
"$VSB" db import --db "$TMP/badlast.db" "$TMP/badlast.csv" >/dev/null 2>"$TMP/sqlite.err"
expect_usage_error "a file bad in its last row (30000): exit 2, one line" \
	'row 30000 .*per_op is -1' "$VSB" db import --db "$URL" "$TMP/good.csv" "$TMP/badlast.csv"
cmp -s "$TMP/err" "$TMP/sqlite.err" && ok "... the line SQLite's import gives" ||
	not_ok "the line differs" "$(cat "$TMP/err")" "$(cat "$TMP/sqlite.err")"
[ "$(counts)" = "$before" ] &&
	[ "$(psq "SELECT count(*) FROM run WHERE run_id IN ('bad-last', 'good-beside')")" = 0 ] &&
	ok "... nothing stored, of it or of the good file before it" || not_ok "stored" "$(counts) vs $before"
# the same into an empty store, whose first load sets the indexes aside
psq "CREATE DATABASE fresh"
FRESH="postgresql:///fresh?host=$PGT&user=vsb"
expect_exit 2 "a file bad in its last row into an empty store: exit 2" \
	"$VSB" db import --db "$FRESH" "$TMP/badlast.csv"
[ "$("$PGBIN/psql" -X -Atq "$FRESH" -c "SELECT (SELECT count(*) FROM run) || '/' ||
	(SELECT count(*) FROM sample) || '/' || (SELECT count(*) FROM pg_indexes WHERE tablename = 'sample')")" = 0/0/2 ] &&
	ok "... nothing stored, sample's two indexes still there" ||
	not_ok "the empty store after a refused first load" \
	"$("$PGBIN/psql" -X -Atq "$FRESH" -c "SELECT indexname FROM pg_indexes WHERE tablename = 'sample'")"
psq "UPDATE vsb_meta SET value = '7' WHERE key = 'schema_version'"
expect_usage_error "a newer schema: exit 2, both versions named" "version 7 .*\\(2\\)" \
	"$VSB" db import --db "$URL" "$TMP/c1.csv"
psq "UPDATE vsb_meta SET value = '2' WHERE key = 'schema_version'"
# a version 1 store (its foreign keys as version 1 made them) is brought
# up to version 2 by the next import
psq "UPDATE vsb_meta SET value = '1' WHERE key = 'schema_version'"
psq "ALTER TABLE sample ADD CONSTRAINT sample_run_fkey FOREIGN KEY (run) REFERENCES run (id),
	ADD CONSTRAINT sample_point_fkey FOREIGN KEY (point) REFERENCES point (id)"
expect_exit 0 "an import into a version 1 store" "$VSB" db import --db "$URL" "$TMP/c1.csv"
[ "$(psq 'SELECT value FROM vsb_meta')" = 2 ] &&
	[ "$(psq "SELECT count(*) FROM pg_constraint WHERE conrelid = 'sample'::regclass AND contype = 'f'")" = 0 ] &&
	ok "... migrated to version 2: sample's foreign keys dropped" ||
	not_ok "migration to version 2" "$(psq 'SELECT value FROM vsb_meta')"
[ "$(counts)" = "$before" ] && ok "nothing stored by the refused imports" || not_ok "stored" "$(counts)"
# samples go in through COPY: text with COPY's special characters (a
# backslash, a tab, "\N") comes back byte for byte, and a row the server
# refuses (a CHECK added here) fails the import whole, the message naming it
# col(NAME): a column's number, from the header (awk, after the header row)
COLS='!/^#/ && !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; print; next }'
awk -F, -v OFS=, '/^# run_id:/ { print "# run_id: crafted-esc"; next } '"$COLS"'
	!/^#/ && ++n == 1 { $c["pmu_events"] = "x\\y\tz\\N"; $c["pmu_values"] = "\\\\" } 1' \
	"$TMP/run/one.csv" >"$TMP/esc.csv"
expect_exit 0 "import a row with a backslash, a tab and \\N in its text" \
	"$VSB" db import --db "$URL" "$TMP/esc.csv"
"$VSB" db export --db "$URL" --run crafted-esc -o "$TMP/esc-back.csv" >/dev/null 2>&1
got=$(psq "SELECT pmu_events || '|' || pmu_values FROM sample s JOIN run r ON s.run = r.id
	WHERE r.run_id = 'crafted-esc' AND s.seq = 0")
cmp -s "$TMP/esc.csv" "$TMP/esc-back.csv" && [ "$got" = $'x\\y\tz\\N|\\\\' ] &&
	ok "COPY: the text stored as written, the file back byte for byte" ||
	not_ok "COPY escaping" "stored: $got" "$(diff "$TMP/esc.csv" "$TMP/esc-back.csv" | head -3)"
psq "ALTER TABLE sample ADD CONSTRAINT test_ops_small CHECK (ops < 1000000)"
awk -F, -v OFS=, '/^# run_id:/ { print "# run_id: crafted-big"; next } '"$COLS"'
	!/^#/ && ++n == 2 { $c["ops"] = 5000000 } 1' "$TMP/run/one.csv" >"$TMP/big.csv"
before=$(counts)
expect_exit 1 "a row the server refuses inside the COPY: exit 1" \
	"$VSB" db import --db "$URL" "$TMP/big.csv"
grep -q 'store: storing samples: .*test_ops_small' "$TMP/err" && [ "$(counts)" = "$before" ] &&
	[ "$(psq "SELECT count(*) FROM run WHERE run_id = 'crafted-big'")" = 0 ] &&
	ok "... the constraint named, nothing of that run stored" ||
	not_ok "refused COPY" "$(cat "$TMP/err")" "$(counts) vs $before"
psq "ALTER TABLE sample DROP CONSTRAINT test_ops_small"
# history over PostgreSQL reads each run's c2c_ns out of its stored
# metadata (JSON): 16 runs, the last 8 twice as slow with their CPUs
# 2.5x farther apart, are not judged a regression.  They are a machine
# of their own (cpu_model), so that the runs imported above, whose
# medians depend on how loaded this host was, are not their series.
for i in $(seq 0 15); do
	f=1 cc=80
	[ "$i" -ge 8 ] && f=2 cc=200
	awk -F, -v OFS=, -v i="$i" -v f="$f" -v cc="$cc" '
		/^# run_id:/ { print "# run_id: pgmoved-" i; next }
		/^# cpu_model:/ { print "# cpu_model: c2c test CPU"; next }
		/^# date:/ { printf "# date: 2031-01-%02dT00:00:00Z\n# c2c_ns: %s.0 (test)\n", i + 1, cc; next }
		'"$COLS"'
		!/^#/ { $c["per_op"] = $c["per_op"] * f * (1 + 0.004 * ((i * 37) % 7 - 3)) } 1' \
		"$TMP/run/one.csv" >"$TMP/pgm$i.csv"
done
check "import 16 runs with c2c_ns" "$VSB" db import --db "$URL" "$TMP"/pgm*.csv
fp=$(psq "SELECT fingerprint FROM machine WHERE cpu_model = 'c2c test CPU'")
expect_exit 0 "history --check over PostgreSQL: the moved step is not a regression" \
	"$VSB" history --db "$URL" --machine "$fp" --check
grep -q 'not judged: .* its CPUs moved (c2c 80 -> 200 ns)' "$TMP/err" &&
	ok "... c2c_ns read from the stored metadata (80 -> 200 ns)" ||
	not_ok "c2c over PostgreSQL" "$(cat "$TMP/out" "$TMP/err")"
# --where reads the points' parameters with PostgreSQL's json_each_text
# exit 5: the counter points imported first are one or a few runs each,
# too short a series for --check to call the same (inconclusive)
expect_exit 5 "history --where over PostgreSQL: a stored parameter selects" \
	"$VSB" history --db "$URL" --check --where bench=counter
grep -q '^history --check: inconclusive; .* a series too short to have a baseline' "$TMP/out" &&
	ok "... the short series said too short, not no regression" ||
	not_ok "history --where over PostgreSQL: the gate's line" "$(cat "$TMP/out")"
expect_usage_error "history --where over PostgreSQL: a parameter no point has" \
	"no stored point has a parameter 'nosuch'" \
	"$VSB" history --db "$URL" --check --where nosuch=1
done_testing
