#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# --bench stat-refresh (harness/benches/stat_refresh.c): vm.stat_refresh,
# the kernel's fold of every CPU's diffs, timed on the host after the
# CPUs of --cpus dirtied theirs.  The sanity line says the fold reached
# the dirtied CPUs (nr_anon_pages grew by at least half the pages
# faulted); nothing dirtied is a run of its own; a user who cannot write
# vm.stat_refresh gets a skip (exit 4) with the reason.  Tiny runs:
# plumbing, not figures.
. "$(dirname "$0")/../lib.sh"

if [ "$(id -u)" != 0 ] || [ ! -w /proc/sys/vm/stat_refresh ]; then
	echo "# SKIP: not root, or no writable /proc/sys/vm/stat_refresh"
	exit 4
fi
cpus=0
[ "$(nproc)" -ge 2 ] && cpus=0-1
# nr_anon_pages is the whole machine's: under make test, the guest lane
# and the other host tests map and free anonymous memory beside the run
# (a clean-clone CI saw it grow by 585 of 1280 pages), so a sanity
# failure is tried once more; a fold that misses a CPU fails both times
try_refresh() {
	"$VSB" run --bench stat-refresh --cpus "$cpus" --dirty-pages 128 --repeat 3 \
		-o "$TMP/r.csv" >"$TMP/out" 2>"$TMP/err"
}
try_refresh
rc=$?
if [ $rc -eq 3 ]; then
	echo "# first try: $(grep '^sanity' "$TMP/out"); once more"
	rm -f "$TMP/r.csv"
	try_refresh
	rc=$?
fi
[ $rc -eq 0 ] && ok "stat-refresh on CPUs $cpus, 128 dirty pages each" ||
	not_ok "stat-refresh on CPUs $cpus, 128 dirty pages each" "exit $rc" "$(cat "$TMP/err")"
grep -q '^sanity: ok: /proc/vmstat nr_anon_pages grew by' "$TMP/out" &&
	ok "... sanity ok: the fold reached the dirtied CPUs" ||
	not_ok "stat-refresh sanity" "$(cat "$TMP/out" "$TMP/err")"
n=$(grep -vc '^#' "$TMP/r.csv")
[ "$n" = 4 ] && [ "$(col_of "$TMP/r.csv" dirty_pages)" != "" ] &&
	ok "... 3 samples of the first CPU, a dirty_pages column" ||
	not_ok "stat-refresh CSV" "$n rows" "$(head -c 400 "$TMP/r.csv")"
grep -q '^# stat_refresh: 1 write of 1 to /proc/sys/vm/stat_refresh a sample' "$TMP/r.csv" &&
	ok "... metadata: one refresh a sample, the online CPUs" ||
	not_ok "stat-refresh metadata" "$(grep '^# stat_refresh' "$TMP/r.csv")"
expect_exit 0 "stat-refresh with nothing dirtied" \
	"$VSB" run --bench stat-refresh --dirty-pages 0 --repeat 2
grep -q '^sanity: ok: .* nothing dirtied' "$TMP/out" && ok "... says nothing was dirtied" ||
	not_ok "stat-refresh --dirty-pages 0" "$(cat "$TMP/out")"
expect_usage_error "--dirty-pages past its range" "dirty-pages" \
	"$VSB" run --bench stat-refresh --dirty-pages 300000
expect_skip_as_nobody "as user nobody: a skip (exit 4), one line naming the file" 'stat_refresh.*root' \
	"$VSB" run --bench stat-refresh --repeat 1
done_testing
