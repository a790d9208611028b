#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Hostile stores and history outputs, held to the exit-code contract
# (README "Exit codes"): a --db that cannot be a store (a device, FIFO,
# folder, link, a file that is no SQLite store of this schema, a path
# SQLite would read as a URI, an unknown or malformed URL) is refused
# with exit 2 and one line by every command that takes one, before any
# work: run and sweep write no result, no folder; nothing is created
# beside the path (no PATH-journal) and the file named is left as it
# was.  history -o must be a folder or a path to make one at, and every
# file it writes there absent or regular, all checked before the first
# is written.  A result file over the read cap is refused naming the cap
# that applies.  And the third probe's store classes (issue 21): one
# import is all of its files or none [c3], a store that refuses a write
# is an error, never "already stored" [c4], a damaged schema version is
# a damaged store, exit 2 [c5].
. "$(dirname "$0")/../lib.sh"

command -v sqlite3 >/dev/null || { echo "# sqlite3 (the CLI) missing: apt-get install sqlite3"; exit 4; }
"$VSB" db list --db "$TMP/probe.db" >/dev/null 2>"$TMP/probe.err"
if [ $? -eq 4 ]; then echo "# $(cat "$TMP/probe.err")"; exit 4; fi

W=$TMP/w		# where the targets lie; a refused command changes nothing here
mkdir -p "$W" "$TMP/res"
RUNQ=(run --bench counter --variant this-cpu-add --cpus 0 --loops 100 --repeat 1
      --warmup 0 --events none)
"$VSB" "${RUNQ[@]}" -o "$TMP/res/one.csv" >/dev/null 2>&1 ||
	{ echo "# run failed: no result to import"; exit 1; }
RES=$TMP/res/one.csv
printf 'variant this-cpu-add\ncpus 0\nloops 100\nrepeat 1\n' >"$TMP/t.sweep"
"$VSB" db import --db "$TMP/good.db" "$RES" >/dev/null 2>&1 || { echo "# import failed"; exit 1; }

SAME_F= SAME_H=
# what SQLite made beside /dev/null before the fix; removed if a
# regression makes it again (it is ours then), never if it was there
DEVJ=(/dev/null-journal /dev/null-wal /dev/null-shm)
devj_before=$(ls -d "${DEVJ[@]}" 2>/dev/null)
dev_clean() {
	local f made=0
	[ -z "$devj_before" ] || return 0
	for f in "${DEVJ[@]}"; do { [ -e "$f" ] || [ -L "$f" ]; } && made=1; done
	((made)) || return 0
	rm -f "${DEVJ[@]}"
	return 1
}

# refuse DESC PATTERN CMD...: run in $W; exit 2, one stderr line matching
# PATTERN, nothing under $W changed (a -shm's size and time aside where
# SNAP_VOL=-shm), no journal beside /dev/null
refuse() {
	local d=$1 pat=$2 before after rc h; shift 2
	tree_sum -l "$TMP/snap.before" ${SNAP_VOL:+-v "$SNAP_VOL"} before "$W"
	(cd "$W" && "$@") >"$TMP/out" 2>"$TMP/err" </dev/null
	rc=$?
	tree_sum -l "$TMP/snap.after" ${SNAP_VOL:+-v "$SNAP_VOL"} after "$W"
	if dev_clean && [ $rc -eq 2 ] && one_line "$TMP/err" &&
	   matches "$pat" "$TMP/err" && [ "$before" = "$after" ] &&
	   { [ -z "$SAME_F" ] || { file_sum h "$SAME_F" "$SAME_F-wal" "$SAME_F-journal"; [ "$h" = "$SAME_H" ]; }; }; then
		ok "$d"
	else
		not_ok "$d" "exit $rc (want 2), $(wc -l <"$TMP/err") stderr lines (want 1 matching $pat)" \
			"$(head -c 300 "$TMP/err")" \
			"$([ "$before" = "$after" ] || diff "$TMP/snap.before" "$TMP/snap.after" | head -5)"
	fi
}

# ---- 1, 2. stores that cannot be one, refused by every --db command ----
mkfifo "$W/fifo"
mkdir "$W/dir"
cp "$TMP/good.db" "$W/real.db"
ln -s real.db "$W/link.db"
ln -s /dev/null "$W/null.db"
ln -s nowhere.db "$W/dangling.db"
head -c 16384 /dev/urandom >"$W/garbage.db"
sqlite3 "$W/foreign.db" "CREATE TABLE t (x); INSERT INTO t VALUES (42);"
cp "$TMP/good.db" "$W/newer.db"
sqlite3 "$W/newer.db" "UPDATE vsb_meta SET value = '99' WHERE key = 'schema_version'"
printf 'x\n' >"$W/file"

# name|--db|what the line says
targets=(
	"a character device|/dev/null|store /dev/null: not a regular file \\(a character device\\)"
	"sqlite: a character device|sqlite:/dev/null|store /dev/null: not a regular file \\(a character device\\)"
	"a FIFO|$W/fifo|store .*/fifo: not a regular file \\(a FIFO\\)"
	"a folder|$W/dir|store .*/dir: Is a directory"
	"a link to a real store|$W/link.db|store .*/link.db: a symbolic link"
	"a link to /dev/null|$W/null.db|store .*/null.db: a symbolic link"
	"a dangling link|$W/dangling.db|store .*/dangling.db: a symbolic link"
	"random bytes|$W/garbage.db|garbage.db: not a SQLite database"
	"someone else's SQLite file|$W/foreign.db|foreign.db: not a vmstat-bench store"
	"a newer schema|$W/newer.db|newer.db: store schema version 99 is newer"
	"a path under a file|$W/file/x.db|store .*/file/x.db: Not a directory"
	"a path two missing folders down|$W/no/such/x.db|folder .*/no does not exist|no store there"
	"file:/dev/null (a path, not a URI)|file:/dev/null|folder file: does not exist|no store there"
)
for t in "${targets[@]}"; do
	IFS='|' read -r what db pat <<<"$t"
	refuse "db import --db $what: exit 2" "$pat" "$VSB" db import --db "$db" "$RES"
	refuse "db export --db $what: exit 2" "$pat" "$VSB" db export --db "$db" -o "$W/e.csv"
	refuse "db list --db $what: exit 2" "$pat" "$VSB" db list --db "$db"
	refuse "history --db $what: exit 2" "$pat" "$VSB" history --db "$db" -o "$W/h"
	refuse "run --db $what: exit 2 before the run, no -o written" "$pat" \
		"$VSB" "${RUNQ[@]}" -o "$W/c.csv" --db "$db"
	refuse "sweep --db $what: exit 2 before the sweep, no folder" "$pat" \
		"$VSB" sweep "$TMP/t.sweep" -o "$W/sw" --db "$db"
done
[ "$(sqlite3 "$W/foreign.db" 'PRAGMA journal_mode')" = delete ] &&
	ok "someone else's SQLite file: not even switched to WAL" || not_ok "foreign file's journal mode changed"

# URLs: the kind must be known, a PostgreSQL URL well formed (syntax only)
for c in run sweep; do
	[ $c = run ] && cmd=("$VSB" "${RUNQ[@]}" -o "$W/c.csv") || cmd=("$VSB" sweep "$TMP/t.sweep" -o "$W/sw")
	refuse "$c --db mysql://x: exit 2 before the work" "unknown kind of URL" "${cmd[@]}" --db mysql://x
	refuse "$c --db '': exit 2 before the work" "--db: empty store name" "${cmd[@]}" --db ''
	VSB_DB=$W/fifo refuse "$c --db default with \$VSB_DB a FIFO: exit 2" "\\(a FIFO\\)" \
		"${cmd[@]}" --db default
done
VSB_DB=/dev/null refuse "db list with \$VSB_DB=/dev/null: exit 2" "character device" "$VSB" db list
"$VSB" sweep "$TMP/t.sweep" -n --db 'postgresql://[x' >/dev/null 2>"$TMP/err"
if [ $? -eq 4 ]; then
	skip "PostgreSQL URLs checked up front" "built without libpq"
else
	for c in "db import" run sweep; do
		case $c in
		run) cmd=("$VSB" "${RUNQ[@]}" -o "$W/c.csv") ;;
		sweep) cmd=("$VSB" sweep "$TMP/t.sweep" -o "$W/sw") ;;
		*) cmd=("$VSB" db import "$RES") ;;
		esac
		refuse "$c --db postgresql://[x (malformed): exit 2" "not a PostgreSQL URL" \
			"${cmd[@]}" --db 'postgresql://[x'
		refuse "$c --db postgresql://h/d?frob=1 (unknown parameter): exit 2" \
			"not a PostgreSQL URL: .*frob" "${cmd[@]}" --db 'postgresql://h/d?frob=1'
	done
	expect_exit 0 "a well-formed PostgreSQL URL passes up front with no server" \
		"$VSB" sweep "$TMP/t.sweep" -n --db "postgresql:///x?host=$TMP/nosocket"
fi

# what a store may be: empty, absent in a folder to make, under a linked folder
: >"$W/empty.db"
expect_exit 0 "an empty file is a store to be" "$VSB" db import --db "$W/empty.db" "$RES"
[ "$(sqlite3 "$W/empty.db" 'SELECT count(*) FROM run')" = 1 ] && ok "... it holds the run" ||
	not_ok "empty file as store"
ln -s "$W/dir" "$W/linkdir"
expect_exit 0 "a store in a linked folder" "$VSB" db import --db "$W/linkdir/s.db" "$RES"
expect_exit 0 "run --db into a new folder: one level made" \
	"$VSB" "${RUNQ[@]}" -o "$W/c.csv" --db "$W/made/s.db"
[ "$(sqlite3 "$W/made/s.db" 'SELECT count(*) FROM run')" = 1 ] && ok "... the run stored" ||
	not_ok "run --db stored"
(cd "$W" && "$VSB" db import --db "file:x.db?mode=memory" "$RES" >/dev/null 2>&1)
[ $? -eq 0 ] && [ -s "$W/file:x.db?mode=memory" ] && [ ! -e "$W/x.db" ] &&
	ok "a name that looks like a URI is a file of that name" || not_ok "URI-looking name" "$(ls "$W")"
rm -rf "$W/empty.db" "$W/linkdir" "$W/dir/s.db" "$W/made" "$W/c.csv" "$W/c.summary.csv" \
	"$W/file:x.db?mode=memory" "$W/x.db"

# ---- 3. history -o: a folder or a path to make one at, checked at once ----
DB=$TMP/good.db
"$VSB" history --db "$DB" -o "$TMP/h0" >/dev/null 2>&1
sdir=$(basename "$(ls -d "$TMP"/h0/01-* | head -1)")
printf 'x\n' >"$W/reg"
ln -s reg "$W/lreg"
ln -s /dev/null "$W/lnull"
outs=(
	"a regular file|$W/reg"
	"a FIFO|$W/fifo"
	"/dev/null|/dev/null"
	"a link to a file|$W/lreg"
	"a link to /dev/null|$W/lnull"
	"a dangling link|$W/dangling.db"
	"a path under a file|$W/file/h"
)
for t in "${outs[@]}"; do
	IFS='|' read -r what o <<<"$t"
	refuse "history -o $what: exit 2 before the store is read" "-o: .* is not a directory" \
		"$VSB" history --db "$DB" -o "$o"
	refuse "history --check -o $what: exit 2" "-o: .* is not a directory" \
		"$VSB" history --db "$DB" --check -o "$o"
done
# the files inside: all checked before the first is written
mkdir -p "$W/h1" "$W/h2" "$W/h3/$sdir" "$W/h4"
mkfifo "$W/h1/summary.md"
ln -s ../reg "$W/h2/index.html"
mkfifo "$W/h3/$sdir/history.csv"
printf 'x\n' >"$W/h4/$sdir"
refuse "history -o DIR holding a FIFO at summary.md: exit 2, nothing written" \
	"h1/summary.md: not a regular file \\(a FIFO\\)" "$VSB" history --db "$DB" -o "$W/h1"
refuse "history -o DIR holding a link at index.html: exit 2, nothing written" \
	"h2/index.html: a symbolic link" "$VSB" history --db "$DB" -o "$W/h2"
refuse "history -o DIR holding a FIFO at a series' history.csv: exit 2, nothing written" \
	"$sdir/history.csv: not a regular file \\(a FIFO\\)" "$VSB" history --db "$DB" -o "$W/h3"
refuse "history -o DIR holding a file where a series' folder goes: exit 2, nothing written" \
	"$sdir is not a directory" "$VSB" history --db "$DB" -o "$W/h4"
expect_exit 0 "history -o a path two folders down: made" "$VSB" history --db "$DB" -o "$TMP/new/deep/h"
[ -s "$TMP/new/deep/h/index.html" ] && ok "... and written" || not_ok "history -o deep"
ln -s "$TMP/new" "$TMP/lnew"
expect_exit 0 "history -o a link to a folder: written into it" "$VSB" history --db "$DB" -o "$TMP/lnew"
[ -s "$TMP/new/summary.csv" ] && ok "... and written" || not_ok "history -o linked folder"

# ---- 4. a result over the read cap: the cap named is the one that applies ----
truncate -s 300M "$W/big.csv"
refuse "db import of a 300 MB file: exit 2 naming the 256 MiB cap" "big.csv: larger than 256 MiB" \
	"$VSB" db import --db "$W/big.db" "$W/big.csv"
! grep -q 1024 "$TMP/err" && ok "... and no other limit" || not_ok "cap named" "$(cat "$TMP/err")"
rm -f "$W/big.csv"

# ---- 5. [c3] one import is all of its files or none ----
# a file like one.csv under the same run id, changed by @1 (an awk program)
variant() { awk -v OFS=, -F, "$1" "$RES"; }
COLS='!/^#/ && !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; print; next }'
mkdir -p "$TMP/v"
variant "$COLS"' !/^#/ { $c["per_op"] = $c["per_op"] * 2 } 1' >"$TMP/v/cost.csv"
# %.9g: awk's own %.6g printed 1234.561 as 1234.56, the same bytes, when a
# cold 100-update run cost over 1,000 ticks an update
variant "$COLS"' !/^#/ { $c["per_op"] = sprintf("%.9g", $c["per_op"] + 0.001) } 1' >"$TMP/v/cost2.csv"
variant "$COLS"' !/^#/ { $c["elapsed"] = $c["elapsed"] + 1 } 1' >"$TMP/v/elapsed.csv"
variant '/^# date:/ { print "# date: 2031-01-01T00:00:00Z"; next } 1' >"$TMP/v/date.csv"
variant '/^# command:/ { print $0 " --extra"; next } 1' >"$TMP/v/command.csv"
variant '/^# run_id:/ { print; print "# note: added"; next } 1' >"$TMP/v/note.csv"
for f in "$TMP"/v/*.csv; do
	b=$(basename "$f" .csv)
	refuse "[c3] db import a.csv b.csv, b the same run id with another $b: nothing stored" \
		"run id .* is also .*one.csv's, with other content: nothing stored" \
		"$VSB" db import --db "$W/imp.db" "$RES" "$f"
	refuse "[c3] ... the other way round (b.csv first): nothing stored" \
		"run id .* is also .*$b.csv's, with other content: nothing stored" \
		"$VSB" db import --db "$W/imp.db" "$f" "$RES"
	mkdir -p "$TMP/vd-$b" && cp "$RES" "$TMP/vd-$b/a.csv" && cp "$f" "$TMP/vd-$b/b.csv"
	refuse "[c3] ... both in one folder: nothing stored" \
		"run id .* is also .*a.csv's, with other content: nothing stored" \
		"$VSB" db import --db "$W/imp.db" "$TMP/vd-$b"
done
# against the store: a new run, then one that clashes with a stored run
counts() { sqlite3 "$1" "SELECT (SELECT count(*) FROM run) || '/' || (SELECT count(*) FROM sample)"; }
"$VSB" "${RUNQ[@]}" -o "$TMP/res/two.csv" >/dev/null 2>&1
"$VSB" "${RUNQ[@]}" -o "$TMP/res/three.csv" >/dev/null 2>&1
# unstored DESC PATTERN DB CMD...: exit WANT (2 unless $WANT), one
# stderr line matching PATTERN, nothing said stored on stdout, DB's
# runs and samples as before
unstored() {
	local d=$1 pat=$2 db=$3 before rc why=(); shift 3
	before=$(counts "$db")
	"$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	rc=$?
	[ $rc -eq "${WANT:-2}" ] || why+=("exit $rc (want ${WANT:-2})")
	one_line "$TMP/err" || why+=("$(wc -l <"$TMP/err") stderr lines (want 1)")
	matches "$pat" "$TMP/err" || why+=("stderr does not match /$pat/")
	! grep -q 'stored' "$TMP/out" || why+=("stdout says stored: $(head -c 200 "$TMP/out")")
	[ "$(counts "$db")" = "$before" ] || why+=("runs/samples $before -> $(counts "$db")")
	if [ ${#why[@]} -eq 0 ]; then ok "$d"; else not_ok "$d" "${why[@]}" "$(head -c 300 "$TMP/err")"; fi
}
for f in "$TMP"/v/*.csv; do
	b=$(basename "$f" .csv)
	cp "$TMP/good.db" "$TMP/clash.db"
	unstored "[c3] db import new.csv b.csv, b clashing with a stored run ($b): new.csv not stored" \
		"already stored, from a different file .*nothing of this import is stored \\(2 files\\)" \
		"$TMP/clash.db" "$VSB" db import --db "$TMP/clash.db" "$TMP/res/two.csv" "$f"
done
cp "$TMP/good.db" "$TMP/clash.db"
unstored "[c3] db import of three files, the last clashing: none of them stored" \
	"nothing of this import is stored \\(3 files\\)" "$TMP/clash.db" \
	"$VSB" db import --db "$TMP/clash.db" "$TMP/res/two.csv" "$TMP/res/three.csv" "$TMP/v/cost.csv"

# ---- 6. [c4] a store that refuses a write is an error, never "already stored" ----
# files whose import inserts into each table: a new run (run, sample), a
# new point (--loops 200), another machine, another kernel
"$VSB" "${RUNQ[@]}" -o "$TMP/res/n1.csv" >/dev/null 2>&1
"$VSB" run --bench counter --variant this-cpu-add --cpus 0 --loops 200 --repeat 1 --warmup 0 \
	--events none -o "$TMP/res/n2.csv" >/dev/null 2>&1
awk '/^# run_id:/ { print "# run_id: h21-machine"; next }
     /^# cpu_microcode:/ { print "# cpu_microcode: 0xh21"; next } 1' "$TMP/res/n1.csv" >"$TMP/res/n3.csv"
awk '/^# run_id:/ { print "# run_id: h21-kernel"; next }
     /^# kernel:/ { print "# kernel: Linux 9.9.9-h21 #1 SMP x86_64"; next } 1' "$TMP/res/n1.csv" >"$TMP/res/n4.csv"
# trig_db TABLE [HOW]: $TMP/trig.db, the good store whose INSERTs into
# TABLE a trigger refuses with RAISE(HOW) (ABORT by default)
trig_db() {
	cp "$TMP/good.db" "$TMP/trig.db"
	sqlite3 "$TMP/trig.db" "CREATE TRIGGER h21 BEFORE INSERT ON $1 BEGIN SELECT RAISE(${2:-ABORT}, 'refused by h21'); END"
}
for t in run:n1 sample:n1 point:n2 machine:n3 kernel:n4; do
	tab=${t%%:*} f=$TMP/res/${t#*:}.csv
	for how in ABORT FAIL ROLLBACK; do
		trig_db "$tab" "$how"
		WANT=1 unstored "[c4] db import, an INSERT into $tab refused (RAISE $how): exit 1, not 'already stored'" \
			"refused by h21.*nothing of this import is stored" "$TMP/trig.db" \
			"$VSB" db import --db "$TMP/trig.db" "$f"
	done
	mkdir -p "$TMP/tdir-$tab" && cp "$f" "$TMP/tdir-$tab/"
	trig_db "$tab"
	WANT=1 unstored "[c4] db import FOLDER, an INSERT into $tab refused: exit 1, nothing stored" \
		"refused by h21.*nothing of this import is stored" "$TMP/trig.db" \
		"$VSB" db import --db "$TMP/trig.db" "$TMP/tdir-$tab"
done
# run --db and sweep --db: the run is written, the import fails loudly
for tab in run sample point; do
	trig_db "$tab"
	before=$(counts "$TMP/trig.db")
	"$VSB" run --bench counter --variant this-cpu-add --cpus 0 --loops 300 --repeat 1 --warmup 0 \
		--events none -o "$TMP/res/rdb-$tab.csv" --db "$TMP/trig.db" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc -eq 1 ] && [ "$(grep -c 'refused by h21.*nothing of this import is stored' "$TMP/err")" = 1 ] &&
		! grep -q 'stored' "$TMP/out" && [ "$(counts "$TMP/trig.db")" = "$before" ] &&
		ok "[c4] run --db, an INSERT into $tab refused: exit 1, said once, nothing stored" ||
		not_ok "[c4] run --db, an INSERT into $tab refused: exit 1" "exit $rc" "$(cat "$TMP/err")" "$(cat "$TMP/out")"
done
for tab in run sample; do
	trig_db "$tab"
	before=$(counts "$TMP/trig.db")
	rm -rf "$TMP/sdb"
	"$VSB" sweep "$TMP/t.sweep" -o "$TMP/sdb" --db "$TMP/trig.db" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc -eq 1 ] && [ "$(grep -c 'refused by h21.*nothing of this import is stored' "$TMP/err")" = 1 ] &&
		! grep -q 'stored run\|already stored' "$TMP/out" && [ "$(counts "$TMP/trig.db")" = "$before" ] &&
		ok "[c4] sweep --db, an INSERT into $tab refused: exit 1, said once, nothing stored" ||
		not_ok "[c4] sweep --db, an INSERT into $tab refused: exit 1" "exit $rc" "$(cat "$TMP/err")" "$(cat "$TMP/out")"
done

# ---- 7. [c5] a damaged schema version is a damaged store: exit 2 ----
n=0
for v in abc "" 0 -1 00 1.0 " 1" 0x1 99999999999999999999 MISSING; do
	n=$((n + 1))
	cp "$TMP/good.db" "$W/damaged$n.db"
	if [ "$v" = MISSING ]; then
		sqlite3 "$W/damaged$n.db" "DELETE FROM vsb_meta WHERE key = 'schema_version'"
		pat="damaged store: schema_version is missing"
	else
		sqlite3 "$W/damaged$n.db" "UPDATE vsb_meta SET value = '$v' WHERE key = 'schema_version'"
		pat="damaged store: schema_version is '"
	fi
	db=$W/damaged$n.db q=$(printf %q "$v")
	refuse "[c5] db import, schema_version $q: exit 2, left as it is" "$pat" \
		"$VSB" db import --db "$db" "$RES"
	refuse "[c5] db list, schema_version $q: exit 2" "$pat" "$VSB" db list --db "$db"
	refuse "[c5] db export, schema_version $q: exit 2, no -o" "$pat" \
		"$VSB" db export --db "$db" -o "$W/e.csv"
	refuse "[c5] history, schema_version $q: exit 2, no -o" "$pat" \
		"$VSB" history --db "$db" -o "$W/h"
	refuse "[c5] run --db, schema_version $q: exit 2 before the run" "$pat" \
		"$VSB" "${RUNQ[@]}" -o "$W/c.csv" --db "$db"
	refuse "[c5] sweep --db, schema_version $q: exit 2 before the sweep" "$pat" \
		"$VSB" sweep "$TMP/t.sweep" -o "$W/sw" --db "$db"
done

# ---- 8. the fourth probe (issue 34): a read touches nothing [A], the
# up-front checks hold with a -wal there [B], sidecars and shared
# folders by the rule of docs/reliability.md "The store" [C], a view,
# trigger or index alone is someone's database [D], a store that cannot
# be written or lacks a table is refused before the work [E] ----
mkdir -p "$TMP/cb" "$TMP/cn"
cp "$RES" "$TMP/cb/"; cp "$RES" "$TMP/cn/"
# rcmd N DB [OUT]: the Nth read command on DB into R (outputs under OUT)
rcmd() {
	local o=${3:-$W}
	case $1 in
	0) R=("$VSB" db list --db "$2") ;;
	1) R=("$VSB" db list --points --db "$2") ;;
	2) R=("$VSB" db export --db "$2" -o "$o/e.csv") ;;
	3) R=("$VSB" history --check --db "$2") ;;
	4) R=("$VSB" history --db "$2" -o "$o/h") ;;
	5) R=("$VSB" compare "$TMP/cb" "$TMP/cn" --db "$2") ;;
	esac
}
RNAMES=("db list" "db list --points" "db export" "history --check" "history -o" "compare --db")
# wcmd N DB: the Nth command that writes a store, into R
wcmd() {
	case $1 in
	0) R=("$VSB" db import --db "$2" "$RES") ;;
	1) R=("$VSB" "${RUNQ[@]}" -o "$W/c.csv" --db "$2") ;;
	2) R=("$VSB" sweep "$TMP/t.sweep" -o "$W/sw" --db "$2") ;;
	esac
}
WNAMES=("db import" "run --db (nothing measured, no -o)" "sweep --db (no folder)")
# refuse_same DESC PATTERN FILE CMD...: refuse, and the bytes of FILE,
# its -wal and its -journal unchanged
refuse_same() {
	SAME_F=$3; file_sum SAME_H "$3" "$3-wal" "$3-journal"
	refuse "$1" "$2" "${@:4}"
	SAME_F=
}
# reads_clean DESC DB CMD...: exit 0, nothing under $W changed (no
# sidecar made or removed, the store's bytes, its -wal's and its journal
# mode as they were); a -shm, SQLite's index that readers of a live WAL
# mark, may change within (its time and bytes), never come or go
reads_clean() {
	local d=$1 db=$2 before after h h2 m rc; shift 2
	tree_sum -l "$TMP/snap.before" -v -shm before "$W"
	file_sum h "$db" "$db-wal" "$db-journal"
	m=$(sqlite3 "file:$db?immutable=1" 'PRAGMA journal_mode' 2>/dev/null)
	"$@" >/dev/null 2>"$TMP/err" </dev/null
	rc=$?
	tree_sum -l "$TMP/snap.after" -v -shm after "$W"
	file_sum h2 "$db" "$db-wal" "$db-journal"
	if [ $rc -eq "${READ_RC:-0}" ] && [ "$before" = "$after" ] && [ "$h2" = "$h" ] &&
	   [ "$(sqlite3 "file:$db?immutable=1" 'PRAGMA journal_mode' 2>/dev/null)" = "$m" ]; then
		ok "$d"
	else
		not_ok "$d" "exit $rc (want ${READ_RC:-0})" "$(head -c 300 "$TMP/err")" \
			"$(diff "$TMP/snap.before" "$TMP/snap.after" | head -5)"
	fi
}
rm -rf "$W"; mkdir -p "$W"

# [A] [D] a file that is no store: refused by every read, byte for byte kept
: >"$W/zero.db"
sqlite3 "$W/vacuum.db" 'VACUUM'
sqlite3 "$W/view.db" 'CREATE VIEW v AS SELECT 1 AS x'
sqlite3 "$W/views.db" 'CREATE VIEW v AS SELECT 1 AS x; CREATE VIEW w AS SELECT 2 AS y'
sqlite3 "$W/vtrig.db" 'CREATE VIEW v AS SELECT 1 AS x;
	CREATE TRIGGER t INSTEAD OF INSERT ON v BEGIN SELECT 1; END'
nostore=(
	"[A] a 0-byte file|zero.db|zero.db: an empty file, not a store"
	"[A] an empty SQLite database|vacuum.db|vacuum.db: an empty database: holds no runs"
	"[D] a SQLite file holding only a view|view.db|view.db: not a vmstat-bench store"
	"[D] a SQLite file holding two views|views.db|views.db: not a vmstat-bench store"
	"[D] a SQLite file holding a view and a trigger|vtrig.db|vtrig.db: not a vmstat-bench store"
)
for t in "${nostore[@]}"; do
	IFS='|' read -r what f pat <<<"$t"
	for i in 0 1 2 3 4 5; do
		rcmd $i "$W/$f"
		# db list reads an empty database as an empty store (a new
		# fleet store is reachable before its first import): exit 0
		if [ $i -le 1 ] && [[ $f == zero.db || $f == vacuum.db ]]; then
			reads_clean "$what: ${RNAMES[i]} lists it empty, not made a store" \
				"$W/$f" "${R[@]}"
			continue
		fi
		refuse_same "$what: ${RNAMES[i]} exit 2, not made a store" "$pat" "$W/$f" "${R[@]}"
	done
done
for t in "${nostore[@]:2}"; do
	IFS='|' read -r what f pat <<<"$t"
	for i in 0 1 2; do
		wcmd $i "$W/$f"
		refuse_same "$what: ${WNAMES[i]} exit 2, no schema added" "$pat" "$W/$f" "${R[@]}"
	done
done
rm -f "$W"/*.db

# [A] a valid store is read as it is: rollback mode stays rollback, a
# WAL store at rest gets no -wal or -shm, one with a live WAL keeps it
cp "$TMP/good.db" "$W/rb.db"
sqlite3 "$W/rb.db" 'PRAGMA journal_mode=DELETE' >/dev/null
cp "$TMP/good.db" "$W/wal.db"
python3 - "$W/live.db" "$TMP/good.db" <<'EOF'
import os, shutil, sqlite3, sys
shutil.copy(sys.argv[2], sys.argv[1])
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute('PRAGMA wal_autocheckpoint=0')
c.execute("INSERT INTO vsb_meta VALUES ('h34', 'uncheckpointed')")
os._exit(0)	# a writer killed: its -wal and -shm stay, frames unmerged
EOF
for db in rb wal live; do
	for i in 0 1 2 3 4 5; do
		rcmd $i "$W/$db.db" "$TMP"
		# one run is too thin a history to decide: inconclusive, exit 5
		want=0
		[ "${RNAMES[i]}" = "history --check" ] && want=5
		READ_RC=$want reads_clean "[A] ${RNAMES[i]} of a valid store ($db): exit $want, nothing beside or in it changed" \
			"$W/$db.db" "${R[@]}"
	done
done
[ "$(sqlite3 "file:$W/rb.db?immutable=1" 'PRAGMA journal_mode')" = delete ] &&
	ok "[A] a store in rollback mode is still in rollback mode after every read" ||
	not_ok "[A] rollback store switched to WAL"
[ -s "$W/live.db-wal" ] && ok "[A] a killed writer's -wal is still there, unmerged, after every read" ||
	not_ok "[A] the -wal was checkpointed by a read"
rm -rf "$W"; mkdir -p "$W"

# [B] a -wal (even 0 bytes) beside a store that is none of ours no
# longer switches the up-front checks off; nothing checkpointed or removed
sqlite3 "$W/foreign.db" "CREATE TABLE t (x); INSERT INTO t VALUES (42);"
cp "$TMP/good.db" "$W/newer.db"
sqlite3 "$W/newer.db" "UPDATE vsb_meta SET value = '99' WHERE key = 'schema_version'"
cp "$TMP/good.db" "$W/damaged.db"
sqlite3 "$W/damaged.db" "UPDATE vsb_meta SET value = 'abc' WHERE key = 'schema_version'"
for f in foreign newer damaged; do
	: >"$W/$f.db-wal"; : >"$W/$f.db-shm"
done
# a foreign table that lives only in the WAL (its writer killed)
python3 - "$W/walforeign.db" <<'EOF'
import os, sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute('PRAGMA journal_mode=WAL'); c.execute('PRAGMA wal_autocheckpoint=0')
c.execute('CREATE TABLE t (x)'); c.execute('INSERT INTO t VALUES (42)')
os._exit(0)
EOF
bwal=(
	"foreign|foreign.db|not a vmstat-bench store"
	"newer|newer.db|store schema version 99 is newer"
	"damaged|damaged.db|damaged store: schema_version is 'abc'"
	"foreign in its WAL alone|walforeign.db|not a vmstat-bench store"
)
for t in "${bwal[@]}"; do
	IFS='|' read -r what f pat <<<"$t"
	SNAP_VOL=
	[ -s "$W/$f-wal" ] && SNAP_VOL=-shm	# frames: read as SQLite's readers do
	for i in 0 1 2; do
		wcmd $i "$W/$f"
		refuse_same "[B] ${WNAMES[i]} on a $what store with a -wal: exit 2, -wal kept" \
			"$pat" "$W/$f" "${R[@]}"
	done
	for i in 0 3; do
		rcmd $i "$W/$f"
		refuse_same "[B] ${RNAMES[i]} on a $what store with a -wal: exit 2, -wal kept" \
			"$pat" "$W/$f" "${R[@]}"
	done
done
SNAP_VOL=
rm -rf "$W"; mkdir -p "$W"

# [C] sidecars: a regular file of the store's owner, no hot journal, no
# WAL without its -shm, none beside a store to be made
cp "$TMP/good.db" "$W/s.db"
python3 - "$TMP/hot.db" <<'EOF'
import os, sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute('CREATE TABLE t (x)')
c.execute('INSERT INTO t SELECT zeroblob(1000) FROM (WITH RECURSIVE n(i) AS '
	  '(SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200) SELECT i FROM n)')
c.execute('BEGIN'); c.execute('DELETE FROM t')
c.execute('PRAGMA cache_spill=1'); c.execute('PRAGMA cache_size=1')
c.execute('INSERT INTO t SELECT zeroblob(2000) FROM t LIMIT 1')
os._exit(0)	# killed mid-transaction: a hot journal of another database
EOF
mkfifo "$TMP/afifo"
# plant KIND SIDE: put a sidecar of KIND at $W/s.db-SIDE
plant() {
	rm -rf "$W/s.db-wal" "$W/s.db-shm" "$W/s.db-journal"
	case $1 in
	hot) cp "$TMP/hot.db-journal" "$W/s.db-journal" ;;
	nobody) : >"$W/s.db-$2"; [ "$2" = wal ] && : >"$W/s.db-shm"
		chown nobody "$W/s.db-$2" ;;
	link) ln -s "$TMP/good.db" "$W/s.db-$2" ;;
	fifo) mkfifo "$W/s.db-$2" ;;
	dir) mkdir "$W/s.db-$2" ;;
	walonly) cp "$TMP/good.db" "$W/s.db-wal" ;;
	esac
}
sides=(
	"a hot journal copied from another database|hot journal|a hot rollback journal"
	"a -journal owned by nobody|nobody journal|owned by uid $(id -u nobody)"
	"a -wal owned by nobody|nobody wal|owned by uid $(id -u nobody)"
	"a -shm owned by nobody|nobody shm|owned by uid $(id -u nobody)"
	"a -wal that is a link|link wal|s.db-wal: a symbolic link"
	"a -journal that is a link|link journal|s.db-journal: a symbolic link"
	"a -shm that is a FIFO|fifo shm|s.db-shm: not a regular file"
	"a -journal that is a folder|dir journal|s.db-journal: not a regular file"
	"a -wal without its -shm|walonly wal|a WAL without its -shm"
)
[ -s "$TMP/hot.db-journal" ] || not_ok "[C] no hot journal made to plant"
for t in "${sides[@]}"; do
	IFS='|' read -r what how pat <<<"$t"
	for i in 0 1 2; do
		plant $how
		wcmd $i "$W/s.db"
		refuse_same "[C] ${WNAMES[i]} with $what: exit 2, both left" "$pat" "$W/s.db" "${R[@]}"
	done
	for i in 0 2 5; do
		plant $how
		rcmd $i "$W/s.db"
		refuse_same "[C] ${RNAMES[i]} with $what: exit 2, both left" "$pat" "$W/s.db" "${R[@]}"
	done
done
rm -rf "$W"/s.db*
# a sidecar waiting where a store is to be made
for s in wal journal shm; do
	: >"$W/new.db-$s"
	for i in 0 1 2; do
		wcmd $i "$W/new.db"
		refuse "[C] ${WNAMES[i]} to a new store beside a planted -$s: exit 2, no store made" \
			"new.db-$s: beside no store" "${R[@]}"
	done
	rm -f "$W/new.db-$s"
done
# a folder everyone may write: refused unless sticky or asked for
mkdir "$W/open" "$W/sticky" "$W/asked"
chmod 0777 "$W/open" "$W/asked"; chmod 1777 "$W/sticky"
cp "$TMP/good.db" "$W/open/s.db"
for i in 0 1 2; do
	wcmd $i "$W/open/s.db"
	refuse_same "[C] ${WNAMES[i]} in a folder everyone may write: exit 2" \
		"open is writable by everyone and not sticky" "$W/open/s.db" "${R[@]}"
done
for i in 0 2 3 5; do
	rcmd $i "$W/open/s.db"
	refuse_same "[C] ${RNAMES[i]} in a folder everyone may write: exit 2" \
		"open is writable by everyone and not sticky" "$W/open/s.db" "${R[@]}"
done
expect_exit 0 "[C] db import into a sticky shared folder (its sidecars are checked)" \
	"$VSB" db import --db "$W/sticky/s.db" "$RES"
VSB_DB_SHARED_FOLDER=1 expect_exit 0 "[C] db import into an open folder with VSB_DB_SHARED_FOLDER=1" \
	"$VSB" db import --db "$W/asked/s.db" "$RES"
rm -rf "$W"; mkdir -p "$W"

# [E] a store missing one of the suite's tables, or one this user cannot
# write: refused before the work (nothing measured, no -o), exit 2
for tb in machine kernel point run sample; do
	cp "$TMP/good.db" "$W/no$tb.db"
	sqlite3 "$W/no$tb.db" "PRAGMA foreign_keys=OFF; DROP TABLE $tb"
	for i in 0 1 2; do
		wcmd $i "$W/no$tb.db"
		refuse_same "[E] ${WNAMES[i]} on a store without table $tb: exit 2 before the work" \
			"damaged store: table $tb is missing" "$W/no$tb.db" "${R[@]}"
	done
	rcmd 0 "$W/no$tb.db"
	refuse_same "[E] db list on a store without table $tb: exit 2" \
		"damaged store: table $tb is missing" "$W/no$tb.db" "${R[@]}"
done
rm -rf "$W"; mkdir -p "$W"
if runuser -u nobody -- test -x "$VSB" 2>/dev/null; then
	NB=$(mktemp -d); chmod 0755 "$NB"
	mkdir "$NB/out" "$NB/ro"; chmod 1777 "$NB/out"
	cp "$TMP/good.db" "$NB/root.db"; cp "$TMP/good.db" "$NB/ro/all.db"
	cp "$RES" "$NB/res.csv"; cp "$TMP/t.sweep" "$NB/t.sweep"; chmod 0644 "$NB"/*.db "$NB"/res.csv "$NB"/t.sweep
	chmod 0666 "$NB/ro/all.db"
	for t in "root.db|cannot be written" "ro/all.db|its folder .* cannot be written"; do
		IFS='|' read -r f pat <<<"$t"
		for c in import run sweep; do
			case $c in
			import) cmd=(db import --db "$NB/$f" "$NB/res.csv") ;;
			run) cmd=("${RUNQ[@]}" -o "$NB/out/c.csv" --db "$NB/$f") ;;
			sweep) cmd=(sweep "$NB/t.sweep" -o "$NB/out/sw" --db "$NB/$f") ;;
			esac
			file_sum h "$NB/$f"
			runuser -u nobody -- "$VSB" "${cmd[@]}" >/dev/null 2>"$TMP/err"
			rc=$?
			[ $rc -eq 2 ] && one_line "$TMP/err" && grep -qE "$pat" "$TMP/err" &&
			[ -z "$(ls -A "$NB/out")" ] && file_sum h2 "$NB/$f" && [ "$h2" = "$h" ] &&
				ok "[E] $c --db $f that nobody may write, as nobody: exit 2 before the work" ||
				not_ok "[E] $c --db unwritable $f" "exit $rc" "$(head -c 300 "$TMP/err")" "$(ls "$NB/out")"
			rm -rf "$NB/out"/*
		done
	done
	rm -rf "$NB"
else
	skip "[E] unwritable stores as nobody" "nobody cannot run $VSB"
fi

# [M] an empty --run is refused, not read as the prefix of every run
for a in "--run=" "--run|" "-R|"; do
	IFS='|' read -ra av <<<"$a|"	# "--run|": --run and an empty word
	[ "$a" = "--run=" ] && av=(--run=)
	refuse "[M] db export ${a%|} '' (one run stored): exit 2, nothing exported" \
		"--run: empty run id" "$VSB" db export --db "$TMP/good.db" "${av[@]}"
	refuse "[M] db export ${a%|} '' -o FILE: exit 2, no -o" \
		"--run: empty run id" "$VSB" db export --db "$TMP/good.db" -o "$W/e.csv" "${av[@]}"
done
[ ! -s "$TMP/out" ] && ok "[M] ... and nothing on stdout" || not_ok "[M] db export --run '' printed"

echo "# $TAP_N cases"
done_testing
