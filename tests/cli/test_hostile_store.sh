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
# that applies.
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

snap() { (cd "$W" && find . -printf '%p %y %s %T@ %l\n' | sort); }
# what SQLite made beside /dev/null before the fix; removed if a
# regression makes it again (it is ours then), never if it was there
DEVJ=(/dev/null-journal /dev/null-wal /dev/null-shm)
devj_before=$(ls -d "${DEVJ[@]}" 2>/dev/null)
dev_clean() {
	local made
	[ -z "$devj_before" ] || return 0
	made=$(ls -d "${DEVJ[@]}" 2>/dev/null)
	[ -z "$made" ] && return 0
	rm -f "${DEVJ[@]}"
	return 1
}

# refuse DESC PATTERN CMD...: run in $W; exit 2, one stderr line matching
# PATTERN, nothing under $W changed, no journal beside /dev/null
refuse() {
	local d=$1 pat=$2 before after rc; shift 2
	before=$(snap)
	(cd "$W" && "$@") >"$TMP/out" 2>"$TMP/err" </dev/null
	rc=$?
	after=$(snap)
	if dev_clean && [ $rc -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
	   grep -qE -- "$pat" "$TMP/err" && [ "$before" = "$after" ]; then
		ok "$d"
	else
		not_ok "$d" "exit $rc (want 2), $(wc -l <"$TMP/err") stderr lines (want 1 matching $pat)" \
			"$(head -c 300 "$TMP/err")" \
			"$([ "$before" = "$after" ] || diff <(echo "$before") <(echo "$after") | head -5)"
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

echo "# $TAP_N cases"
done_testing
