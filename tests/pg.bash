# SPDX-License-Identifier: GPL-2.0
#
# A throwaway PostgreSQL server for the shell tests: Debian's postgresql
# package (initdb, pg_ctl) in a temporary folder, run as an unprivileged
# user (the server refuses root: as nobody, in a folder nobody owns),
# listening on a Unix socket there only (no TCP), fsync off, and
# wal_level minimal (no replica to feed: the store's first load, into a
# table its transaction truncated, then writes no WAL; store_bulk.c).
# Both are this throwaway server's settings, not the importer's: a
# user's server keeps its own.  Stopped and removed at exit, whatever
# happened.  Sourced after tests/lib.sh by tests/cli/test_db_pg.sh,
# tests/cli/test_fleet.sh and ci/store-bench; not a test itself.
#
# vsb_pg_start: exits 4 (the whole file skipped, with the reason) when the
# server binaries, or libpq in this build, are missing, or the server
# will not start; else sets PGBIN, PGT (the folder, also the socket's),
# PG_URL (postgresql:///postgres?host=$PGT&user=vsb) and psq SQL (one
# query through psql, unaligned, tuples only).

vsb_pg_start() {
	PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
	if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ] || [ ! -x "$PGBIN/pg_ctl" ] ||
	   [ ! -x "$PGBIN/psql" ]; then
		echo "# PostgreSQL server binaries missing (/usr/lib/postgresql/*/bin/initdb, pg_ctl): apt-get install postgresql"
		exit 4
	fi
	"$VSB" db list --db "postgresql:///x?host=$TMP/none" >/dev/null 2>"$TMP/probe.err"
	if [ $? -eq 4 ]; then echo "# $(cat "$TMP/probe.err")"; exit 4; fi

	PGT=$(mktemp -d /tmp/vsb-pg.XXXXXX)
	as_pg() { "$@"; }
	if [ "$(id -u)" -eq 0 ]; then
		chown nobody "$PGT"
		as_pg() { runuser -u nobody -- "$@"; }
	fi
	chmod 755 "$PGT"
	trap vsb_pg_cleanup EXIT

	as_pg "$PGBIN/initdb" -D "$PGT/data" -A trust -U vsb --no-sync >"$TMP/initdb.log" 2>&1 ||
		{ echo "# initdb failed: $(tail -2 "$TMP/initdb.log")"; exit 4; }
	as_pg "$PGBIN/pg_ctl" -D "$PGT/data" -l "$PGT/log" -w -t 30 \
		-o "-c listen_addresses='' -k $PGT -c fsync=off \
		    -c wal_level=minimal -c max_wal_senders=0" start >/dev/null 2>&1 ||
		{ echo "# the throwaway server did not start: $(tail -2 "$PGT/log")"; exit 4; }
	PG_URL="postgresql:///postgres?host=$PGT&user=vsb"
}

# the EXIT trap: the server first, then its folder and the test's
vsb_pg_cleanup() {
	as_pg "$PGBIN/pg_ctl" -D "$PGT/data" -m immediate stop >/dev/null 2>&1
	rm -rf "$PGT" "$TMP"
}

psq() { "$PGBIN/psql" -X -Atq "$PG_URL" -c "$1"; }
