#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# --monitor (docs/monitors.md): `run ... --monitor LIST:INTERVAL -o X.csv`
# writes X.monitor.csv beside X.csv with rows of every source, the
# workers' CPUs and the timed windows, all parseable; the result gets the
# monitor_* summary keys and the table its footer; a page-fault run that
# touches N pages shows pgalloc rising by at least N between the samples
# around its window; bad input is refused (exit 2) before any work; the
# trace source, where BPF cannot work, is dropped with one warning and the
# others kept.
. "$(dirname "$0")/../lib.sh"

meta() {	# meta CSV KEY
	sed -n "s/^# $2: //p" "$1" | head -1
}
rows_of() {	# rows_of MONCSV SOURCE: number of rows of SOURCE
	awk -F, -v s="$2" '!/^#/ && $2 == s' "$1" | wc -l
}

# ---- a counter run with four sources at 100 ms ----
f="$TMP/x.csv"
m="$TMP/x.monitor.csv"
expect_exit 0 "run --monitor vmstat,interrupts,stat,zoneinfo:100ms runs" \
	"$VSB" run --bench counter --variant this-cpu-add --cpus 0 --loops 2000000 \
	--repeat 5 --monitor vmstat,interrupts,stat,zoneinfo:100ms -o "$f"
cp "$TMP/out" "$TMP/table"
[ -f "$m" ] && ok "X.csv's series is X.monitor.csv" || not_ok "X.monitor.csv written" "$(ls "$TMP")"
ls "$TMP" | grep -q 'tmp' && not_ok "no temporary file left" "$(ls "$TMP")" ||
	ok "no temporary file left"
[ "$(grep -v '^#' "$m" | head -1)" = "time,source,key,cpu,value" ] &&
	ok "header time,source,key,cpu,value" || not_ok "header" "$(grep -v '^#' "$m" | head -1)"
bad=$(awk -F, '!/^#/ && NR > 1 && $1 != "time" {
	if (NF != 5 || $1 !~ /^[0-9]+\.[0-9]+$/ || $4 !~ /^-?[0-9]+$/ || $5 !~ /^-?[0-9.e+]+$/) n++ }
	END { print n + 0 }' "$m")
[ "$bad" = 0 ] && ok "every row has 5 fields: seconds, source, key, integer cpu, number" ||
	not_ok "every row parses" "$bad bad rows"
for s in vmstat interrupts stat zoneinfo window workers; do
	n=$(rows_of "$m" $s)
	[ "$n" -gt 0 ] && ok "rows of source $s ($n)" || not_ok "rows of source $s"
done
for s in buddyinfo loadavg trace; do
	[ "$(rows_of "$m" $s)" = 0 ] && ok "no rows of $s (not asked for)" || not_ok "no rows of $s"
done
nb=$(awk -F, '$2 == "window" && $3 == "begin"' "$m" | wc -l)
ne=$(awk -F, '$2 == "window" && $3 == "end"' "$m" | wc -l)
# one per timed batch: 5, more when disturbed attempts were timed again
[ "$nb" -ge 5 ] && [ "$ne" = "$nb" ] && ok "one window per timed batch ($nb begin, $ne end)" ||
	not_ok "one window per timed batch (at least 5)" "$nb begin, $ne end"
# windows lie between the first and the last sample, in the same clock
awk -F, '!/^#/ && $2 == "vmstat" && $3 == "pgfree" { if (!f) f = $1; l = $1 }
	$2 == "window" { if (!w0) w0 = $1; w1 = $1 }
	END { exit !(f + 0 <= w0 + 0 && w1 + 0 <= l + 0) }' "$m" &&
	ok "the timed windows lie between the first and the last sample" ||
	not_ok "windows inside the sampled span" "$(grep -E ',window,|,pgfree,' "$m" | head -4)"
[ "$(awk -F, '$2 == "workers"' "$m" | cut -d, -f4)" = 0 ] &&
	ok "the worker's CPU is marked (cpu 0)" || not_ok "the worker's CPU is marked"
for k in monitor monitor_file monitor_span monitor_pgalloc_per_s monitor_pgfree_per_s \
	 monitor_irq_per_s_workers monitor_steal_pct; do
	[ -n "$(meta "$f" $k)" ] && ok "result metadata has $k" || not_ok "result metadata has $k"
done
grep -q '^monitor: pgalloc/s [0-9]*, pgfree/s [0-9]*' "$TMP/table" &&
	ok "the table's footer gives the monitor's figures" ||
	not_ok "the table's footer" "$(tail -4 "$TMP/table")"
grep -q ',monitor' "$f" && not_ok "no monitor column in the result CSV" || ok "no monitor column in the result CSV"

# ---- known activity: N pages touched, pgalloc rises by at least N ----
pf="$TMP/pf.csv"
expect_exit 0 "page-fault --size 64M --repeat 3 with --monitor vmstat runs" \
	"$VSB" run --bench page-fault --size 64M --repeat 3 --warmup 0 --cpus 0 \
	--monitor vmstat:100ms -o "$pf"
if [ -f "$pf" ]; then
	want=$((3 * 64 * 1024 * 1024 / $(getconf PAGESIZE)))
	got=$(meta "$pf" monitor_pgalloc)
	[ -n "$got" ] && [ "$got" -ge "$want" ] &&
		ok "pgalloc rises by at least the $want pages touched over the window ($got)" ||
		not_ok "pgalloc rises by at least $want" "monitor_pgalloc '$got'"
	# the same from the series itself: pgalloc_* summed at the samples around the window
	got2=$(awk -F, '!/^#/ && $2 == "window" { if ($3 == "begin" && b == "") b = $1; if ($3 == "end") e = $1 }
		!/^#/ && $2 == "vmstat" && $3 ~ /^pgalloc_/ { s[$1] += $5 }
		END { for (t in s) { if (t + 0 <= b + 0 && (a == "" || t + 0 > a + 0)) a = t
				     if (t + 0 >= e + 0 && (z == "" || t + 0 < z + 0)) z = t }
		      printf "%.0f\n", s[z] - s[a] }' "$TMP/pf.monitor.csv")
	[ "$got2" -ge "$want" ] && ok "the series shows it too ($got2 >= $want)" ||
		not_ok "the series shows pgalloc rising by $want" "$got2"
fi

# ---- bad input: exit 2, one line, before any work ----
n0=$(ls "$TMP" | wc -l)
expect_usage_error "unknown source refused" "--monitor: unknown source 'bogus'" \
	"$VSB" run --monitor vmstat,bogus -o "$TMP/bad.csv"
expect_usage_error "interval under 100 ms refused" "--monitor: interval '50ms'" \
	"$VSB" run --monitor vmstat:50ms -o "$TMP/bad.csv"
expect_usage_error "interval not a number refused" "--monitor: interval 'soon'" \
	"$VSB" run --monitor vmstat:soon -o "$TMP/bad.csv"
expect_usage_error "--monitor without -o refused" "--monitor: needs -o" \
	"$VSB" run --monitor vmstat
[ "$(ls "$TMP" | wc -l)" = "$n0" ] && ok "refused runs leave no file" ||
	not_ok "refused runs leave no file" "$(ls "$TMP")"

# ---- trace where BPF cannot work: one warning, the others kept ----
run_nobpf() {	# the run as a user without CAP_BPF (vsb_trace_available says no)
	if [ "$(id -u)" != 0 ]; then
		"$@"
	elif command -v setpriv >/dev/null; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		return 99
	fi
}
# $TMP is private (0700): the other user writes into a folder of its own
d=$(mktemp -d "${TMPDIR:-/tmp}/vsb-monitor.XXXXXX") && chmod 777 "$d"
run_nobpf "$VSB" run --bench counter --cpus 0 --loops 100000 --repeat 3 --events none \
	--monitor vmstat,trace,stat:100ms -o "$d/t.csv" >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc = 99 ] || { [ $rc != 0 ] && grep -q 'Permission denied' "$TMP/err"; }; then
	skip "trace without BPF: one warning" "no unprivileged user to run as (setpriv)"
else
	[ $rc = 0 ] && [ "$(grep -c 'trace' "$TMP/err")" = 1 ] &&
		grep -q 'warning: --monitor: trace skipped: .*the other sources are kept' "$TMP/err" &&
		ok "trace without BPF: exit 0 and one warning" ||
		not_ok "trace without BPF: exit 0 and one warning" "exit $rc" "$(cat "$TMP/err")"
	[ "$(rows_of "$d/t.monitor.csv" trace)" = 0 ] && [ "$(rows_of "$d/t.monitor.csv" vmstat)" -gt 0 ] &&
		[ "$(rows_of "$d/t.monitor.csv" stat)" -gt 0 ] &&
		ok "trace without BPF: vmstat and stat kept, no trace rows" ||
		not_ok "trace without BPF: the other sources kept" "$(ls "$d")"
fi
rm -rf "$d"

# plot: the series alone, and a folder holding it
if command -v gnuplot >/dev/null; then
	"$VSB" plot "$m" -o "$TMP/pl1" >/dev/null 2>"$TMP/err" &&
		[ -s "$TMP/pl1/x.monitor.png" ] && [ -s "$TMP/pl1/x.monitor.svg" ] &&
		head -c 8 "$TMP/pl1/x.monitor.png" | grep -q PNG &&
		grep -q '</svg>' "$TMP/pl1/x.monitor.svg" &&
		ok "plot FILE.monitor.csv draws PNG and SVG" ||
		not_ok "plot FILE.monitor.csv" "$(cat "$TMP/err")" "$(ls "$TMP/pl1" 2>&1)"
	"$VSB" plot "$TMP" -o "$TMP/pl2" >/dev/null 2>"$TMP/err" &&
		[ -s "$TMP/pl2/x.monitor.png" ] && ok "plot DIR draws the series it holds" ||
		not_ok "plot DIR with a monitor series" "$(cat "$TMP/err")"
	# the header line becomes the chart's title: gnuplot code in it stays text
	sed "s|^# vmstat-bench monitor: .*|# vmstat-bench monitor: x'; system('touch $TMP/PWNED'); a='|" \
		"$m" >"$TMP/evil.monitor.csv"
	"$VSB" plot "$TMP/evil.monitor.csv" -o "$TMP/pl3" >/dev/null 2>"$TMP/err"
	rc=$?
	[ $rc -eq 0 ] && [ -s "$TMP/pl3/evil.monitor.png" ] && [ ! -e "$TMP/PWNED" ] &&
		ok "a quote in the file's header: drawn as text, gnuplot runs none of it" ||
		not_ok "quoted header" "exit $rc" "$(cat "$TMP/err")" "$(ls "$TMP" | grep PWNED)"
	# the window rows the chart shades are the file's windows
	nw=$(awk -F, '$2 == "window" && $3 == "begin"' "$m" | wc -l)
	nc=$(grep -vc '^#\|^start\|^begin' "$TMP/pl1/x.monitor-windows.csv" 2>/dev/null || echo 0)
	[ "$nw" -gt 0 ] && [ "$nc" -ge "$nw" ] && ok "the chart shades every timed window ($nw)" ||
		not_ok "windows charted" "file $nw, chart $nc" "$(head -3 "$TMP/pl1/x.monitor-windows.csv")"
else
	skip "plot of a monitor series" "gnuplot not installed"
fi

# sweep --monitor: one series per point, its figures in the point's metadata
printf 'variant this-cpu-add, cmpxchg-local\ncpus 0\nloops 200000\nrepeat 3\n' >"$TMP/m.sweep"
if "$VSB" sweep "$TMP/m.sweep" -o "$TMP/msw" --monitor vmstat,stat:100ms >/dev/null 2>"$TMP/err"; then
	n=$(ls "$TMP/msw"/*.monitor.csv 2>/dev/null | wc -l)
	[ "$n" = 2 ] && ok "sweep --monitor: one series per point (2)" ||
		not_ok "sweep --monitor: one series per point" "$(ls "$TMP/msw")"
	grep -l '^# monitor_rounds: the first of 3' "$TMP"/msw/variant-*[0-9a-f].csv 2>/dev/null | grep -qv summary &&
		ok "... the point's metadata says which round was sampled" ||
		not_ok "... monitor_rounds in the metadata" "$(grep -h '^# monitor' "$TMP"/msw/*.csv | head -3)"
	# one point's figures are its own: the sweep-wide files do not repeat them
	! grep -q '^# monitor' "$TMP/msw/sweep.csv" && ! grep -q '^monitor' "$TMP/msw/meta.txt" &&
		ok "... sweep.csv and meta.txt carry no point's monitor figures" ||
		not_ok "... no point's monitor figures in sweep.csv or meta.txt" \
			"$(grep -h 'monitor' "$TMP/msw/sweep.csv" "$TMP/msw/meta.txt" | head -3)"
	if command -v gnuplot >/dev/null; then
		"$VSB" plot "$TMP/msw" >/dev/null 2>"$TMP/err" &&
			[ "$(ls "$TMP"/msw/*.monitor.png 2>/dev/null | wc -l)" = 2 ] &&
			ok "plot DIR draws each point's series" ||
			not_ok "plot of a sweep's series" "$(cat "$TMP/err")"
	else
		skip "plot of a sweep's series" "gnuplot not installed"
	fi
else
	not_ok "sweep --monitor" "$(cat "$TMP/err")"
fi
expect_exit 2 "sweep --monitor with a bad source: exit 2" "$VSB" sweep "$TMP/m.sweep" -o "$TMP/msw2" \
	--monitor vmstat,bogus
[ ! -e "$TMP/msw2" ] && ok "... nothing written" || not_ok "... nothing written" "$(ls "$TMP/msw2")"

done_testing
