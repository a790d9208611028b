#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The third hostile probe's classes in the newest commands (ab, plot,
# compare and history -o, --monitor, trace, sweep -o), held to the
# contract of README "Exit codes": every file read is a regular file
# (a FIFO in ab's folder or a kernel build folder hung), a refusal
# comes before any work and leaves nothing behind (plot refused a
# planted link after other charts were written; a sweep named .lock
# replaced ab's lock file), gnuplot is handed paths as data, never as
# code (a checkout under .../o'brien/ broke every chart), a folder a
# live sweep writes is refused to a second one (they mixed their
# points), and numbers are checked as given, not rounded first
# (--monitor vmstat:99.5ms ran at 100 ms).  Each case says its class
# ([c1] .. [c8], issue 21) so that a run on an older binary can be
# counted per class.  The store's classes (3, 4, 5) are in
# test_hostile_store.sh, the state file's rule in test_hostile.sh.
. "$(dirname "$0")/../lib.sh"

W=$TMP/w		# the only place a refused command could write to
IN=$TMP/in		# inputs, never written by a case
mkdir -p "$W" "$IN/mon"
cd "$TMP" || exit 1	# where gnuplot would run a planted `touch PWN`
echo victim >"$TMP/victim"
file_sum VICTIM "$TMP/victim"	# its bytes, as refused checks them
RUNQ=(run --bench counter --variant this-cpu-add --cpus 0 --loops 100 --repeat 1
      --warmup 0 --events none)

# refused DESC PATTERN CMD...: exit 2 within 10 s (a hang is killed),
# exactly one stderr line matching PATTERN (ERE), nothing under $W
# changed and the victim untouched
refused() {
	local d=$1 pat=$2 before after v rc why=(); shift 2
	tree_sum before "$W"
	timeout -k 2 10 "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	rc=$?
	tree_sum after "$W"
	file_sum v "$TMP/victim"
	[ $rc -eq 2 ] || why+=("exit $rc (want 2; 124/137: it hung)")
	one_line "$TMP/err" || why+=("$(wc -l <"$TMP/err") stderr lines (want 1)")
	matches "$pat" "$TMP/err" || why+=("stderr does not match /$pat/")
	[ "$before" = "$after" ] || why+=("files changed under $W")
	[ "$v" = "$VICTIM" ] || { why+=("the victim was written"); echo victim >"$TMP/victim"; }
	if [ ${#why[@]} -eq 0 ]; then ok "$d"; else not_ok "$d" "${why[@]}" "$(head -c 400 "$TMP/err")"; fi
}

# plant KIND PATH: a link to the victim, a dangling link, a FIFO, a
# folder, a link to /dev/zero or /dev/null, or a device node at PATH
plant() {
	# rm only where something is: most paths are in a fresh folder
	if [ -e "$2" ] || [ -L "$2" ]; then rm -rf "$2"; fi
	case $1 in
	link) ln -s "$TMP/victim" "$2" ;;
	dangling) ln -s "$TMP/nowhere" "$2" ;;
	fifo) mkfifo "$2" ;;
	dir) mkdir "$2" ;;
	zero) ln -s /dev/zero "$2" ;;
	null) ln -s /dev/null "$2" ;;
	node) mknod "$2" c 1 3 2>/dev/null || ln -s /dev/null "$2" ;;
	esac
}

# ---- [c1] ab: every file of its folder and of a kernel is a regular file ----
AB=(ab --dry-run --smp 1)
mkab() {	# mkab DIR: a bzImage of release 6.1.0-h21 and its build folder
	mkdir -p "$1/build/include/config"
	python3 - "$1/bzImage" <<'EOF'
import sys
b = bytearray(0x400)
b[0x202:0x206] = b"HdrS"
b[0x20e:0x210] = (0x100).to_bytes(2, "little")	# the version at 0x300
v = b"6.1.0-h21 (h21@probe) #1 SMP\0"
b[0x300:0x300 + len(v)] = v
open(sys.argv[1], "wb").write(b)
EOF
	echo 6.1.0-h21 >"$1/build/include/config/kernel.release"
}
mkab "$IN/k"
K=$IN/k/bzImage:$IN/k/build
SW=$VSB_ROOT/configs/ab-quick.sweep
if [ -f "$SW" ]; then
	"$VSB" "${AB[@]}" --base "$K" --new "$K" "$SW" -o "$W/ab-ok" >"$TMP/out" 2>&1
	if [ $? -eq 0 ] && [ ! -e "$W/ab-ok" ]; then
		ok "[c1] ab --dry-run with a built kernel on both sides checks out and writes nothing"
	else
		not_ok "[c1] ab --dry-run with a built kernel checks out" "$(tail -3 "$TMP/out")"
	fi
	for kind in fifo zero null dir node; do
		mkdir -p "$W/d-$kind"
		plant $kind "$W/d-$kind/ab.txt"
		refused "[c1] ab -o D with D/ab.txt a $kind: refused naming it, no hang" \
			"ab\\.txt" "$VSB" "${AB[@]}" --base "$K" --new "$K" "$SW" -o "$W/d-$kind"
	done
	for kind in fifo zero null dir node; do
		mkab "$IN/b-$kind"
		plant $kind "$IN/b-$kind/build/include/config/kernel.release"
		KB=$IN/b-$kind/bzImage:$IN/b-$kind/build
		refused "[c1] ab --base: the build folder's kernel.release a $kind: refused, no hang" \
			"--base .*not a kernel build folder" \
			"$VSB" "${AB[@]}" --base "$KB" --new "$K" "$SW" -o "$W/ab-$kind"
		refused "[c1] ab --new: the build folder's kernel.release a $kind: refused, no hang" \
			"--new .*not a kernel build folder" \
			"$VSB" "${AB[@]}" --base "$K" --new "$KB" "$SW" -o "$W/ab-$kind"
	done
	for kind in fifo zero dir; do
		mkab "$IN/i-$kind"
		plant $kind "$IN/i-$kind/bzImage"
		refused "[c1] ab --base: the bzImage a $kind: refused" "--base .*bzImage" \
			"$VSB" "${AB[@]}" --base "$IN/i-$kind/bzImage:$IN/i-$kind/build" \
			--new "$K" "$SW" -o "$W/ab-i"
	done
	for kind in fifo zero; do
		plant $kind "$IN/sw-$kind.sweep"
		refused "[c1] ab: the sweep file a $kind: refused" "sw-$kind\\.sweep" \
			"$VSB" "${AB[@]}" --base "$K" --new "$K" "$IN/sw-$kind.sweep" -o "$W/ab-s"
	done

	# ---- [c2] ab: a sweep named like one of ab's own files ----
	for name in .lock ab.txt summary.md base new compare; do
		mkdir -p "$IN/own"
		cp "$SW" "$IN/own/$name"
		refused "[c2] ab: a sweep file named $name (ab's own) is refused, -o not made" \
			"file of ab's own" "$VSB" "${AB[@]}" --base "$K" --new "$K" "$IN/own/$name" \
			-o "$W/ab-own"
		rm -rf "$IN/own"
	done
else
	skip "[c1] ab cases" "no configs/ab-quick.sweep"
fi

# ---- a sweep to plot, and a monitor series ----
cat >"$IN/t.sweep" <<EOF
variant this-cpu-add, plain-fold
threshold 32, 64
loops 2000
repeat 2
cpus 0
EOF
"$VSB" sweep "$IN/t.sweep" -o "$IN/sw" >/dev/null 2>&1
"$VSB" "${RUNQ[@]}" --monitor vmstat:100ms -o "$IN/mon/m.csv" >/dev/null 2>&1
if ! command -v gnuplot >/dev/null || [ ! -f "$IN/sw/sweep.csv" ] || [ ! -f "$IN/mon/m.monitor.csv" ]; then
	skip "[c2] plot cases" "no gnuplot, or the sweep or the monitored run failed"
	skip "[c6] gnuplot cases" "same"
	PLOT=0
else
	PLOT=1
fi

# ---- [c2] plot: every name it writes checked before the first chart ----
if [ $PLOT = 1 ]; then
	for name in threshold.png threshold.svg variants.png variants.svg; do
		for kind in link dangling fifo dir; do
			mkdir -p "$W/po"
			plant $kind "$W/po/$name"
			refused "[c2] plot -o OUT with OUT/$name a $kind: refused before any chart" \
				"OUT/$name|po/$name is" "$VSB" plot "$IN/sw" -o "$W/po"
			rm -rf "$W/po"
		done
	done
	for ext in .monitor-rates.csv .monitor-windows.csv .monitor.png .monitor.svg; do
		for kind in link fifo dir; do
			mkdir -p "$W/pm"
			plant $kind "$W/pm/m$ext"
			refused "[c2] plot FILE.monitor.csv -o OUT with OUT/m$ext a $kind: refused first" \
				"pm/m$ext is" "$VSB" plot "$IN/mon/m.monitor.csv" -o "$W/pm"
			rm -rf "$W/pm"
		done
	done
	for sep in $'\n' $'\r'; do
		q=$(printf %q "$sep")
		refused "[c2] plot -o with a line break ($q): refused, OUT not made" \
			"a line break in a path" "$VSB" plot "$IN/sw" -o "$W/o${sep}x"
		refused "[c2] compare -o with a line break ($q): refused, nothing written" \
			"a line break in a path" "$VSB" compare "$IN/sw" "$IN/sw" -o "$W/c${sep}x"
	done
	mkdir -p "$IN/nl"$'\n'"d" && cp "$IN/sw/"* "$IN/nl"$'\n'"d/"
	refused "[c2] plot DIR with a line break in DIR: refused, nothing drawn" \
		"a line break in a path" "$VSB" plot "$IN/nl"$'\n'"d" -o "$W/nl-out"
fi

# ---- [c6] gnuplot is handed paths as data ----
# drawn DESC DIR CMD...: exit 0, no line from the chart's driver on
# stderr, DIR holds its charts, and nothing ran: no file PWN anywhere
# under $TMP
drawn() {
	local d=$1 dir=$2 rc why=(); shift 2
	"$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	rc=$?
	[ $rc -eq 0 ] || why+=("exit $rc (want 0)")
	! grep -qE 'gnuplot|plot:|refused' "$TMP/err" || why+=("stderr: $(head -c 300 "$TMP/err")")
	ls "$dir"/*.png >/dev/null 2>&1 || why+=("no chart in $dir")
	# one find tells and removes (the next case starts with none)
	[ -z "$(find "$TMP" -name 'PWN*' -print -exec rm -f {} + 2>/dev/null)" ] ||
		why+=("gnuplot ran code from a path")
	if [ ${#why[@]} -eq 0 ]; then ok "$d"; else not_ok "$d" "${why[@]}"; fi
}
EVIL="x'; system('touch PWN'); y='"
if [ $PLOT = 1 ]; then
	for name in "o'brien" "a''b" "$EVIL" 'back\slash' '$(touch PWN)' 'q"uote' \
		    'b`touch PWN`q' 'at@x;semi'; do
		printf -v q %q "$name"; q=${q:0:30}
		mkdir -p "$TMP/p/$name" && cp "$VSB_ROOT"/plots/*.gp "$TMP/p/$name/"
		drawn "[c6] VSB_PLOTS_DIR under $q: charts drawn, no code run" "$W/pd" \
			env VSB_PLOTS_DIR="$TMP/p/$name" "$VSB" plot "$IN/sw" -o "$W/pd"
		rm -rf "$W/pd"
		drawn "[c6] plot -o a folder named $q: charts drawn there, no code run" \
			"$W/$name" "$VSB" plot "$IN/sw" -o "$W/$name"
		rm -rf "${W:?}/$name"
	done
	for name in "o'brien" "$EVIL"; do
		printf -v q %q "$name"; q=${q:0:30}
		mkdir -p "$TMP/co/$name/build" && cp "$VSB" "$TMP/co/$name/build/" &&
			cp -r "$VSB_ROOT/plots" "$TMP/co/$name/"
		drawn "[c6] a checkout under $q: its own plots folder works, no code run" \
			"$W/co" "$TMP/co/$name/build/vmstat-bench" plot "$IN/sw" -o "$W/co"
		rm -rf "$W/co"
		cp -r "$IN/sw" "$IN/$name"
		drawn "[c6] plot DIR, DIR named $q: drawn, no code run" "$W/dq" \
			"$VSB" plot "$IN/$name" -o "$W/dq"
		rm -rf "$W/dq"
		drawn "[c6] compare -o a folder named $q: its chart drawn, no code run" \
			"$W/$name" "$VSB" compare "$IN/sw" "$IN/sw" -o "$W/$name"
		rm -rf "${W:?}/$name"
		drawn "[c6] plot FILE.monitor.csv -o a folder named $q: drawn, no code run" \
			"$W/$name" "$VSB" plot "$IN/mon/m.monitor.csv" -o "$W/$name"
		rm -rf "${W:?}/$name"
	done
fi

# ---- [c7] a folder a live sweep writes is refused to a second one ----
# slow.sweep runs about 4 s (three repetitions of 1.3 s here): the five
# refusals below take well under one; awaited once (the third is stopped once
# its refusal is seen), a longer one only costs make test its time
cat >"$IN/slow.sweep" <<EOF
variant this-cpu-add
loops 400000000
repeat 3
warmup 0
cpus 0
EOF
cat >"$IN/other.sweep" <<EOF
variant plain-fold
loops 1000
repeat 1
cpus 0
EOF
D=$TMP/live
"$VSB" sweep "$IN/slow.sweep" -o "$D" >/dev/null 2>&1 &
first=$!
for _ in $(seq 100); do [ -d "$D" ] && break; sleep 0.05; done
sleep 0.3
other_ids=$("$VSB" sweep "$IN/other.sweep" --dry-run | grep -v '^#' | cut -f1)
# second DESC ARGS...: refused while the first runs, and none of the
# other sweep's points or files appear in D
second() {
	local d=$1 rc; shift
	timeout -k 2 30 "$VSB" sweep "$IN/other.sweep" -o "$D" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	rc=$?
	if ! kill -0 $first 2>/dev/null; then
		skip "$d" "the first sweep ended before the second started"
	elif [ $rc -eq 2 ] && one_line "$TMP/err" &&
	     grep -q "another vmstat-bench" "$TMP/err" && ! ls "$D" | grep -q "^$other_ids" &&
	     [ ! -e "$D/run-1" ]; then
		ok "$d"
	else
		not_ok "$d" "exit $rc (want 2)" "$(head -c 300 "$TMP/err")"
	fi
}
second "[c7] sweep -o D while another sweep writes D: refused, nothing of it in D"
second "[c7] ... with --force too" --force
second "[c7] ... with --resume too" --resume
second "[c7] ... with another --shuffle-seed too" --shuffle-seed 7
second "[c7] ... with --repeat too" --repeat 2
wait $first
rc=$?
[ $rc -eq 0 ] && [ "$(grep -vc '^#' "$D/points.txt")" = 1 ] && ! ls "$D" | grep -q "^$other_ids" &&
	ok "[c7] the first sweep finishes alone: points.txt lists its one point" ||
	not_ok "[c7] the first sweep finishes alone" "exit $rc" "$(cat "$D/points.txt" 2>&1)"
expect_exit 0 "[c7] once it has ended, the folder may be written again (--force)" \
	"$VSB" sweep "$IN/other.sweep" -o "$D" --force
"$VSB" sweep "$IN/slow.sweep" -o "$TMP/killed" >/dev/null 2>&1 &
p=$!
for _ in $(seq 100); do [ -d "$TMP/killed" ] && break; sleep 0.05; done
sleep 0.3
kill -KILL $p; wait $p 2>/dev/null
expect_exit 0 "[c7] a SIGKILLed sweep's lock dies with it: --resume runs at once" \
	timeout 60 "$VSB" sweep "$IN/other.sweep" -o "$TMP/killed" --force
"$VSB" sweep "$IN/slow.sweep" -o "$D.2" >/dev/null 2>&1 &
first=$!
for _ in $(seq 100); do [ -d "$D.2" ] && break; sleep 0.05; done
sleep 0.3
timeout -k 2 30 "$VSB" sweep "$IN/other.sweep" -o "$D.2" --runs 2 >"$TMP/out" 2>"$TMP/err" </dev/null
rc=$?
if ! kill -0 $first 2>/dev/null; then
	skip "[c7] sweep --runs 2 -o D while a sweep writes D" "the first sweep ended first"
elif [ $rc -eq 2 ] && [ ! -e "$D.2/run-1" ] && [ ! -e "$D.2/runs.txt" ] &&
     grep -q "another vmstat-bench" "$TMP/err" && one_line "$TMP/err"; then
	ok "[c7] sweep --runs 2 -o D while a sweep writes D: refused, no run-1, no runs.txt"
else
	not_ok "[c7] sweep --runs 2 -o D while a sweep writes D: refused" "exit $rc" \
		"$(head -c 300 "$TMP/err")" "$(ls "$D.2")"
fi
kill $first 2>/dev/null	# its end was seen above, with the first one's
wait $first

# ---- [c8] numbers checked as given, never rounded first ----
for v in 99.5ms 0.0995 99.9999ms 99.99999999ms 0.09999 0.0999999999 1e-1ms 3600.0005 \
	 3600001ms 3600.5s; do
	refused "[c8] run --monitor vmstat:$v: out of range, not rounded into it" \
		"interval '$v' is out of range" "$VSB" "${RUNQ[@]}" --monitor "vmstat:$v" -o "$W/m.csv"
	refused "[c8] sweep --monitor vmstat:$v: refused before the first point" \
		"interval '$v' is out of range" "$VSB" sweep "$IN/t.sweep" --monitor "vmstat:$v" \
		-o "$W/ms"
done
for v in 100.5ms 150.25ms 0.1005 0.2501s 1.0001; do
	refused "[c8] run --monitor vmstat:$v: a fraction of a millisecond is refused" \
		"interval '$v' is not a whole number of milliseconds" \
		"$VSB" "${RUNQ[@]}" --monitor "vmstat:$v" -o "$W/m.csv"
done
if [ -f "$SW" ]; then
	for v in 99.5ms 0.0995 100.5ms; do
		refused "[c8] ab --monitor vmstat:$v: refused before any boot" \
			"interval '$v' is" "$VSB" "${AB[@]}" --base "$K" --new "$K" "$SW" \
			--monitor "vmstat:$v" -o "$W/ab-m"
	done
fi
for v in 1e-10 0.0000000001 0.0000000015 1e-12 0.5e-9 86400.000001 86400.0000000001; do
	refused "[c8] trace --duration $v: refused (it rounded to 0 ns, no limit, or past a day)" \
		"--duration: '$v'" "$VSB" trace --duration "$v"
done
for v in 100ms 0.1 1e-1 0.10 100e-3 0.25s; do
	mkdir -p "$TMP/okm"
	expect_exit 0 "[c8] run --monitor vmstat:$v: exactly in range, taken" \
		"$VSB" "${RUNQ[@]}" --monitor "vmstat:$v" -o "$TMP/okm/m.csv"
	rm -rf "$TMP/okm"
done

# ---- the fourth probe (issue 34): refusals before the work ----
# [F] a point `run` refuses (exit 2) refuses the whole sweep, with the
# line: never listed SKIPPED (the dry run said 0, ab booted every guest)
# swf LINES: the sweep file $TMP/f.sweep, its lines separated by ';'
swf() { tr ';' '\n' <<<"$1" | sed 's/^ *//' >"$TMP/f.sweep"; }
while IFS='|' read -r desc pat body; do
	swf "$body"
	refused "[F] sweep --dry-run, $desc: refused with the line" ":[0-9]+: .*$pat" \
		"$VSB" sweep "$TMP/f.sweep" --dry-run
	refused "[F] sweep -o, $desc: refused before the first point, no folder" "$pat" \
		"$VSB" sweep "$TMP/f.sweep" -o "$W/fsw"
done <<'EOF'
an unknown kstat op|unknown kstat op 'mod-zoen'|bench kstat; op mod-zoen; loops 100; repeat 1
one unknown op on an axis|unknown kstat op 'nope'|bench kstat; op mod-zone,nope; loops 100; repeat 1
threshold on vm-event|vm-event has no vmstat threshold|bench kstat; op vm-event; threshold 10; loops 100; repeat 1
threshold axis on vm-event|vm-event has no vmstat threshold|bench kstat; op vm-event; threshold 2,4; loops 100; repeat 1
delta 2 on inc-dec-zone|inc-dec-zone updates by one|bench kstat; op inc-dec-zone; delta 2; loops 100; repeat 1
busy-workers as many as CPUs|--busy-workers: 1 leaves no worker timed|bench kstat; cpus 0; busy-workers 1; loops 100; repeat 1
fold on kstat|--fold: bench 'kstat' does not take it|bench kstat; fold local; loops 100; repeat 1
quiet-workers on kstat|--quiet-workers|bench kstat; quiet-workers 1; cpus 0,1; loops 100; repeat 1
a kstat threshold past s8|--threshold: 126 does not fit|bench kstat; op mod-zone; threshold 126; loops 100; repeat 1
a kstat threshold of 0|the kernel's s8 diffs take 1..|bench kstat; op mod-zone; threshold 0; loops 100; repeat 1
module counter, quiet-workers as many as CPUs|--quiet-workers: 1 leaves no worker|bench counter; backend kmod; cpus 0; quiet-workers 1; loops 100; repeat 1
module counter, threshold past 8 bits|--threshold: 200 does not fit a 8-bit diff|bench counter; backend kmod; diff-bits 8; threshold 200; loops 100; repeat 1
module page-alloc with --busy-workers|--busy-workers: bench 'page-alloc' does not take it|bench page-alloc; busy-workers 1; loops 100; repeat 1
a bad op in the second block|unknown kstat op 'bogus'|bench kstat; loops 100; repeat 1; [a]; op mod-zone; [b]; op bogus
EOF
for v in mod-zone,inc-dec-zone vm-event; do
	swf "bench kstat; op $v; loops 100; repeat 1"
	expect_exit 0 "[F] sweep --dry-run of kstat op $v: still checks and lists (guard)" \
		"$VSB" sweep "$TMP/f.sweep" --dry-run
done
for t in "--op mod-zoen|unknown kstat op" "--op vm-event --threshold 10|no vmstat threshold" \
	 "--op inc-dec-zone --delta 2|updates by one" "--fold local|--fold: bench .kstat. does not take it"; do
	IFS='|' read -r args pat <<<"$t"
	# shellcheck disable=SC2086
	refused "[F] run --bench kstat $args: the same refusal as the sweep's (guard)" "$pat" \
		"$VSB" run --bench kstat $args --loops 100 --repeat 1 -o "$W/k.csv"
done

# [K] an option the bench does not read is refused, from the bench
# table's own list (it went into the point key: compare could not match)
while IFS='|' read -r bench args; do
	o=${args%% *}
	# shellcheck disable=SC2086
	refused "[K] run --bench $bench $args: refused naming $o" \
		"^vmstat-bench: $o: bench '$bench' does not take it" \
		"$VSB" run --bench "$bench" $args --loops 100 --repeat 1 -o "$W/k.csv"
done <<'EOF'
spawn|--memcg-depth 2
spawn|--memcg-count 4
spawn|--size 4M
spawn|--threshold 4
counter|--op fork
counter|--memcg-depth 1
counter|--busy-workers 1
counter|--size 4M
counter|--order 2
counter|--model-cpus 8
counter|--gap-ns 100
isolated|--busy-workers 1
isolated|--op fork
isolated|--memcg-depth 1
page-fault|--op fork
page-fault|--variant plain-fold
page-fault|--memcg-count 2
mmap|--memcg-depth 1
mmap|--dirty-pages 10
fallocate|--op fork
fallocate|--tasks thread
fallocate|--thp always
stat-refresh|--size 4M
stat-refresh|--gap-ns 100
memcg-stat-read|--size 4M
memcg-stat-read|--delta 2
threshold-refresh|--threshold 4
threshold-refresh|--variant plain-fold
threshold-refresh|--fold local --cpus 0
kstat|--variant plain-fold
kstat|--order 2
kstat|--memcg-count 2
page-alloc|--op mod-zone
page-alloc|--threshold 4
page-alloc-parallel|--size 4M
EOF
while IFS='|' read -r bench key; do
	swf "bench $bench; $key; loops 100; repeat 1"
	refused "[K] sweep --dry-run, bench $bench with '$key': refused with the line" \
		":2: .*does not take it" "$VSB" sweep "$TMP/f.sweep" --dry-run
done <<'EOF'
spawn|memcg-depth 1,2
counter|op fork
isolated|busy-workers 1
memcg-stat-read|size 4M
EOF
while IFS='|' read -r bench key; do
	swf "bench $bench; $key; loops 100; repeat 1"
	expect_exit 0 "[K] sweep --dry-run, bench $bench with its own '$key' (guard)" \
		"$VSB" sweep "$TMP/f.sweep" --dry-run
done <<'EOF'
spawn|op fork,posix-spawn
counter|variant plain-fold
counter|threshold 4,8
kstat|op mod-zone
threshold-refresh|model-cpus 64
isolated|gap-ns 1000
EOF

# [L] an -o this user cannot write is refused before the work (compare
# printed its whole table first, history read the whole store): as
# nobody, into a folder root owns
if runuser -u nobody -- test -x "$VSB" 2>/dev/null; then
	NB=$(mktemp -d); chmod 0755 "$NB"
	mkdir -p "$NB/ro" "$NB/cb" "$NB/cn"
	"$VSB" "${RUNQ[@]}" -o "$NB/cb/one.csv" >/dev/null 2>&1
	cp "$NB/cb/one.csv" "$NB/cn/"
	"$VSB" db import --db "$NB/s.db" "$NB/cb/one.csv" >/dev/null 2>&1
	printf 'variant this-cpu-add\ncpus 0\nloops 100\nrepeat 1\n' >"$NB/t.sweep"
	chmod -R a+rX "$NB"
	while IFS='|' read -r what args; do
		read -ra a <<<"${args//@/$NB}"
		runuser -u nobody -- "$VSB" "${a[@]}" >"$TMP/out" 2>"$TMP/err" </dev/null
		rc=$?
		if [ $rc -eq 2 ] && one_line "$TMP/err" && grep -q "cannot be written" "$TMP/err" &&
		   [ ! -s "$TMP/out" ] && [ -z "$(ls -A "$NB/ro")" ]; then
			ok "[L] $what into a folder nobody may write, as nobody: exit 2 before the work"
		else
			not_ok "[L] $what into an unwritable folder" "exit $rc (want 2)" \
				"$(head -c 300 "$TMP/err")" "stdout: $(head -c 200 "$TMP/out")"
		fi
	done <<'EOF'
compare -o|compare @/cb @/cn -o @/ro/cmp
compare -o two folders down|compare @/cb @/cn -o @/ro/a/b
compare --db -o|compare @/cb @/cn --db @/s.db -o @/ro/cmp
history -o|history --db @/s.db -o @/ro/h
history --check -o|history --db @/s.db --check -o @/ro/h
history -o two folders down|history --db @/s.db -o @/ro/a/b
sweep -o|sweep @/t.sweep -o @/ro/sw
EOF
	rm -rf "$NB"
else
	skip "[L] unwritable -o as nobody" "nobody cannot run $VSB"
fi

# [G] ci/kernel-build.sh --out: only what the script wrote there is
# replaced; everything else, and a folder on the way that cannot hold
# --out, is refused before the build (exit 2, one line, nothing built).
# [H] --source (or the cache) with a blank in its path, which kbuild
# refuses after cache folders were made, is refused first.  A fake tree
# whose Makefile plays kbuild (as in test_kernel_build.sh): no compiler run.
KB=$VSB_ROOT/ci/kernel-build.sh
KC=$W/kcache	# under $W: a cache made is a change refused() sees
kb_tree() {	# kb_tree DIR: a fake kernel tree
	mkdir -p "$1/arch/x86" "$1/scripts/kconfig"
	: >"$1/Kconfig"; : >"$1/arch/x86/Kconfig"
	cat >"$1/Makefile" <<'EOF'
VERSION = 6
PATCHLEVEL = 99
tinyconfig:
	@ln -sfn $(CURDIR) $(O)/source; : >$(O)/.config
olddefconfig:
	@mkdir -p $(O)/include/config; echo 6.99.0-h34 >$(O)/include/config/kernel.release
bzImage:
	@mkdir -p $(O)/arch/x86/boot && echo bz >$(O)/arch/x86/boot/bzImage
modules:
	@echo symvers >$(O)/Module.symvers
EOF
}
kb_tree "$TMP/ktree"
: >"$TMP/kfrag"; echo 'CONFIG_64BIT=y' >"$TMP/kfrag"
# kb_refused DESC PATTERN OUT [ARGS...]: exit 2, one line matching
# PATTERN, no cache made, nothing under $W changed, the victim untouched
kb_refused() {
	local d=$1 pat=$2 out=$3; shift 3
	VSB_VM_CACHE=$KC refused "$d" "$pat" "$KB" --source "$TMP/ktree" \
		--fragment "$TMP/kfrag" --out "$out" "$@"
	rm -rf "$KC"
}
mkdir -p "$W/ko"
while IFS='|' read -r what name kind pat; do
	rm -rf "$W/ko"; mkdir -p "$W/ko"
	case $kind in
	mine) echo 'my own notes' >"$W/ko/$name" ;;
	env7) printf 'KERNEL=a\nKDIR=b\nKREL=c\nKEY=d\nSOURCE=e\nPATCHES=f\nEXTRA=g\n' >"$W/ko/$name" ;;
	foreign) ln -s /boot/vmlinuz-mine "$W/ko/$name" ;;
	fakebuild) ln -s "$TMP/kbuild/0123456789abcdef/x" "$W/ko/$name" ;;
	*) plant "$kind" "$W/ko/$name" ;;
	esac
	kb_refused "[G] kernel-build --out DIR holding $what: exit 2 before the build, left" \
		"$pat" "$W/ko"
done <<'EOF'
a kernel.env of the user's own|kernel.env|mine|kernel.env is not one this script wrote
a kernel.env with a seventh line|kernel.env|env7|kernel.env is not one this script wrote
a FIFO at kernel.env|kernel.env|fifo|kernel.env exists and is not a regular file
a link to the victim at kernel.env|kernel.env|link|kernel.env exists and is not a regular file
a dangling link at kernel.env|kernel.env|dangling|kernel.env exists and is not a regular file
a folder at kernel.env|kernel.env|dir|kernel.env exists and is not a regular file
a link to /dev/null at kernel.env|kernel.env|null|kernel.env exists and is not a regular file
a link of the user's own at bzImage|bzImage|foreign|bzImage is a link to /boot/vmlinuz-mine, not one this script made
a link to the victim at bzImage|bzImage|link|bzImage is a link to .*, not one this script made
a link of the user's own at build|build|foreign|build is a link to /boot/vmlinuz-mine, not one
a link into kbuild/ but not to a build folder at build|build|fakebuild|build is a link to .*, not one
a FIFO at bzImage|bzImage|fifo|bzImage exists and is not a link
a folder at build|build|dir|build exists and is not a link
EOF
rm -rf "$W/ko"
echo x >"$W/kfile"
ln -s nowhere "$W/kdangle"
ln -s kfile "$W/kflink"
kb_refused "[G] kernel-build --out under a regular file: exit 2 before the build" \
	"kfile is not a folder" "$W/kfile/o"
kb_refused "[G] kernel-build --out two folders under a regular file: exit 2 before the build" \
	"kfile is not a folder" "$W/kfile/a/b"
kb_refused "[G] kernel-build --out a link to nothing: exit 2 before the build" \
	"a link to nothing" "$W/kdangle"
kb_refused "[G] kernel-build --out under a link to nothing: exit 2 before the build" \
	"kdangle is not a folder" "$W/kdangle/o"
kb_refused "[G] kernel-build --out a link to a file: exit 2 before the build" \
	"exists and is not a folder" "$W/kflink"
rm -f "$W/kfile" "$W/kdangle" "$W/kflink"
# guard: the script's own --out is written again (its links, its kernel.env)
KC=$TMP/kcache
rm -rf "$KC" "$TMP/kout"
VSB_VM_CACHE=$KC "$KB" --source "$TMP/ktree" --fragment "$TMP/kfrag" --out "$TMP/kout" >/dev/null 2>&1
VSB_VM_CACHE=$KC expect_exit 0 "[G] kernel-build --out into its own earlier --out: replaced (guard)" \
	"$KB" --source "$TMP/ktree" --fragment "$TMP/kfrag" --out "$TMP/kout"
[ -L "$TMP/kout/bzImage" ] && [ -s "$TMP/kout/kernel.env" ] &&
	ok "[G] ... its links and kernel.env are there (guard)" || not_ok "[G] own --out rewritten"
rm -rf "$KC" "$TMP/kout"
KC=$W/kcache
for sp in "my tree" $'tab\ttree' $'line\nbreak' " lead"; do
	mkdir -p "$TMP/kt/$sp"
	kb_tree "$TMP/kt/$sp/linux"
	q=$(printf %q "$sp")
	VSB_VM_CACHE=$KC refused "[H] kernel-build --source under a folder named $q: exit 2 before any cache folder" \
		"--source .*: a path with a blank" "$KB" --source "$TMP/kt/$sp/linux" \
		--fragment "$TMP/kfrag" --out "$W/kho"
	rm -rf "$KC" "$W/kho"
	VSB_VM_CACHE=$KC refused "[H] kernel-build --print-key of a tree under $q: exit 2" \
		"a path with a blank" "$KB" --source "$TMP/kt/$sp/linux" --fragment "$TMP/kfrag" --print-key
done
VSB_VM_CACHE="$W/k cache" refused "[H] kernel-build with a cache path holding a space: exit 2, no cache folder" \
	"the cache path .* has a blank" "$KB" --source "$TMP/ktree" --fragment "$TMP/kfrag" --out "$W/kho"
rm -rf "$W/k cache" "$W/kho"

# [I] plot never replaces a file it did not write: a monitor chart was
# drawn as OUT/monitor.png and .svg and renamed, which deleted a user's
# own files of those names (or swallowed a FIFO's or a link's place)
if [ $PLOT = 1 ]; then
	for what in file dir; do
		[ $what = file ] && src=$IN/mon/m.monitor.csv || src=$IN/mon
		for name in monitor.png monitor.svg; do
			for kind in mine link fifo dir; do
				rm -rf "$TMP/pi"; mkdir -p "$TMP/pi"
				if [ $kind = mine ]; then echo 'my own chart' >"$TMP/pi/$name"
				else plant $kind "$TMP/pi/$name"; fi
				before=$(tree_snap "$TMP/pi")
				timeout 20 "$VSB" plot "$src" -o "$TMP/pi" >"$TMP/out" 2>"$TMP/err" </dev/null
				rc=$?
				if [ $rc -eq 0 ] && [ -s "$TMP/pi/m.monitor.png" ] && [ -s "$TMP/pi/m.monitor.svg" ] &&
				   grep -qF "$(grep " $name " <<<"$before" | head -1)" <(tree_snap "$TMP/pi") &&
				   { [ $kind != mine ] || [ "$(cat "$TMP/pi/$name")" = 'my own chart' ]; } &&
				   [ "$(cat "$TMP/victim")" = victim ]; then
					ok "[I] plot $what -o OUT holding a $kind at OUT/$name: drawn, that left as it was"
				else
					not_ok "[I] plot $what -o OUT with a $kind at $name kept" "exit $rc" \
						"$(head -c 300 "$TMP/err")" "$(ls -la "$TMP/pi" | head -8)"
					echo victim >"$TMP/victim"
				fi
			done
		done
	done
	rm -rf "$TMP/pi"
else
	skip "[I] plot keeps a user's monitor.png" "no gnuplot, or no monitored run"
fi

# [J] fallocate --size is bounded by the memory there is: every worker's
# file is charged whole at once (--size 1024G --loops 2 charged 16 GiB
# on a 23 GiB machine); above half of MemAvailable, exit 2 before the work
# (three quarters of it: other jobs move MemAvailable between our look
# and the tool's)
avail=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
over1=$(( avail * 3 / 4 / 1024 ))M	# one worker, over half, under all
over2=$(( avail * 3 / 8 / 1024 ))M	# each of two workers
for t in "1024G|0" "512G|0" "64G|0" "$over1|0" "$over2|0,1"; do
	IFS='|' read -r sz cpus <<<"$t"
	[ "$cpus" = 0,1 ] && [ "$(nproc)" -lt 2 ] && { skip "[J] fallocate --size $sz on 2 CPUs" "1 CPU"; continue; }
	refused "[J] run --bench fallocate --size $sz --cpus $cpus: exit 2 before the work" \
		"--size: .* would charge more than half of the .* MiB available" \
		"$VSB" run --bench fallocate --size "$sz" --cpus "$cpus" --loops 2 --repeat 1 -o "$W/fa.csv"
done
swf "bench fallocate; size 1M,1024G; loops 2; repeat 1"
refused "[J] sweep --dry-run, fallocate size axis 1M,1024G: refused with the line" \
	":2: .*would charge more than half" "$VSB" sweep "$TMP/f.sweep" --dry-run
swf "bench fallocate; size 1M,4M; loops 2; repeat 1"
expect_exit 0 "[J] sweep --dry-run, fallocate size 1M,4M: taken (guard)" \
	"$VSB" sweep "$TMP/f.sweep" --dry-run

# [N] another run is live while it holds its lock, whatever its binary
# is called: a copy (or an -asan build) had its tmpfs unmounted and its
# memory cgroups removed as a killed run's by the next run's sweep
SD=/run/vmstat-bench
cp "$VSB" "$TMP/vsb-copy"
"$TMP/vsb-copy" run --bench fallocate --cpus 0 --loops 20000 --repeat 1000 --warmup 0 \
	--events none -o "$TMP/fa.csv" >/dev/null 2>"$TMP/fa.err" &
cp_pid=$!
for _ in $(seq 200); do
	[ -d "$SD/tmpfs.$cp_pid" ] && grep -q "vmstat-bench.$cp_pid" /proc/$cp_pid/cgroup 2>/dev/null && break
	kill -0 $cp_pid 2>/dev/null || break
	sleep 0.05
done
if kill -0 $cp_pid 2>/dev/null && [ -d "$SD/tmpfs.$cp_pid" ]; then
	cg=$(sed -n 's/^[0-9]*:[^:]*memory[^:]*:\(.*\)$/\1/p; s/^0::\(.*\)$/\1/p' /proc/$cp_pid/cgroup | head -1)
	for c in "restore" "run --bench counter --variant this-cpu-add --cpus 0 --loops 100 --repeat 1 --warmup 0 --events none"; do
		# shellcheck disable=SC2086
		"$VSB" $c >/dev/null 2>&1
		mountpoint -q "$SD/tmpfs.$cp_pid" &&
			ok "[N] ${c%% *} while a renamed copy runs: its tmpfs still mounted" ||
			not_ok "[N] ${c%% *} unmounted a live renamed run's tmpfs"
		grep -q "vmstat-bench.$cp_pid" /proc/$cp_pid/cgroup &&
			ok "[N] ${c%% *} while a renamed copy runs: it is still in its memory cgroup ($cg)" ||
			not_ok "[N] ${c%% *} moved or removed a live renamed run's cgroup"
	done
	kill -INT $cp_pid; wait $cp_pid
	rc=$?
	[ $rc -eq 1 ] && ! grep -q "cannot\|could not" "$TMP/fa.err" && [ ! -e "$SD/tmpfs.$cp_pid" ] &&
	[ ! -e "$SD/live.$cp_pid" ] &&
		ok "[N] the renamed copy, interrupted, cleaned up after itself (its lock file too)" ||
		not_ok "[N] renamed copy's end" "exit $rc (want 1)" "$(tail -3 "$TMP/fa.err")"
	# a killed copy's leftovers: its lock died with it, the next run removes them
	"$TMP/vsb-copy" run --bench fallocate --cpus 0 --loops 20000 --repeat 1000 --warmup 0 \
		--events none -o "$TMP/fa.csv" >/dev/null 2>&1 &
	cp_pid=$!
	for _ in $(seq 200); do
		[ -d "$SD/tmpfs.$cp_pid" ] && grep -q "vmstat-bench.$cp_pid" /proc/$cp_pid/cgroup 2>/dev/null && break
		sleep 0.05
	done
	kill -KILL $cp_pid; wait $cp_pid 2>/dev/null
	# its workers hold the lock until PR_SET_PDEATHSIG has taken them too
	for _ in $(seq 50); do
		"$VSB" restore >/dev/null 2>&1
		[ -e "$SD/tmpfs.$cp_pid" ] || break
		sleep 0.1
	done
	[ ! -e "$SD/tmpfs.$cp_pid" ] && [ ! -e "$SD/live.$cp_pid" ] &&
		ok "[N] a SIGKILLed copy's tmpfs and lock file: removed by the next run (guard)" ||
		not_ok "[N] killed copy's leftovers" "$(ls "$SD")"
else
	kill $cp_pid 2>/dev/null; wait $cp_pid 2>/dev/null
	skip "[N] a renamed live run is left alone" "fallocate does not run here: $(head -c 200 "$TMP/fa.err")"
fi
# a planted name of a live process that holds that pid's lock (no
# vmstat-bench at all): kept; the old test asked /proc/PID/comm
plant() {	# plant PID SECONDS: PID's lock held that long, its tmpfs name, restore
	flock -n -o "$SD/live.$1" sleep "$2" & fl=$!
	sleep 0.2
	mkdir -p "$SD/tmpfs.$1"
	"$VSB" restore >/dev/null 2>&1
}
unplant() {	# unplant PID: its lock let go, then restore removes its name
	kill $fl 2>/dev/null; wait $fl 2>/dev/null
	"$VSB" restore >/dev/null 2>&1
	[ ! -e "$SD/tmpfs.$1" ] && ok "[N] ... removed once the lock is gone (guard)" ||
		{ not_ok "[N] stale name kept after its lock died"; rmdir "$SD/tmpfs.$1"; }
	rm -f "$SD/live.$1"
}
if command -v flock >/dev/null; then
	sleep 30 & sp=$!
	mkdir -p "$SD"
	plant $sp 30
	[ -d "$SD/tmpfs.$sp" ] && ok "[N] a name whose pid's lock is held: left as a live run's" ||
		not_ok "[N] a held lock's tmpfs name removed"
	unplant $sp
	kill $sp; wait $sp 2>/dev/null
	# a killed run's name whose lock its dying workers still hold: the
	# run is gone, so restore waits the second they take (it left them
	# as a live run's); a lock held past two seconds is a live one's
	sleep 0 & dp=$!
	wait $dp
	plant $dp 1
	[ ! -e "$SD/tmpfs.$dp" ] && [ ! -e "$SD/live.$dp" ] &&
		ok "[N] a gone run's name, its lock held a second longer: removed by one restore" ||
		{ not_ok "[N] a gone run's name left while its lock was let go"; rmdir "$SD/tmpfs.$dp"; }
	wait $fl 2>/dev/null
	plant $dp 30
	[ -d "$SD/tmpfs.$dp" ] && ok "[N] ... its lock held on past the wait: kept as a live one's" ||
		not_ok "[N] a name whose lock is held removed after the wait"
	unplant $dp
fi

# [J] the memory cgroup chain hangs below the caller's own cgroup, so
# its limits bind the run (it was made at the hierarchy's root, outside
# systemd's MemoryMax and a container's limit): a cgroup with a limit
# of its own, the run alone in it, on v1 (v2: cgroup.h's rule, in the
# guests' 0-day tests)
mroot=$(awk '$9 == "cgroup" && $NF ~ /(^|,)memory(,|$)/ { print $5; exit }' /proc/self/mountinfo)
mine=$(sed -n 's/^[0-9]*:[^:]*memory[^:]*:\(.*\)$/\1/p' /proc/self/cgroup | head -1)
if [ "$(id -u)" = 0 ] && [ -n "$mroot" ] && [ -n "$mine" ] && mkdir "$mroot${mine%/}/h34j.$$" 2>/dev/null; then
	CG=$mroot${mine%/}/h34j.$$ rel=${mine%/}/h34j.$$
	echo $((512 << 20)) >"$CG/memory.limit_in_bytes"
	for t in "fallocate 0" "fallocate 1" "fallocate 3" "memcg-stat-read 1" "memcg-stat-read 3"; do
		read -r bench d <<<"$t"
		rm -f "$TMP/j.csv"
		sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$CG" "$VSB" run --bench "$bench" \
			--cpus 0 --loops 100 --repeat 1 --warmup 0 --events none --memcg-depth "$d" \
			-o "$TMP/j.csv" >/dev/null 2>"$TMP/err"
		rc=$?
		want="$rel/vmstat-bench\\.[0-9]+"
		[ "$d" = 0 ] && want="$rel \\("
		if [ $rc -eq 0 ] && grep -qE "^# (fallocate_memcg|memcg_stat_cgroups): .*$want" "$TMP/j.csv" &&
		   [ -z "$(ls -d "$CG"/vmstat-bench.* 2>/dev/null)" ]; then
			ok "[J] $bench --memcg-depth $d in a limited cgroup: the chain below it, then gone"
		else
			not_ok "[J] $bench --memcg-depth $d: chain below the caller's cgroup" "exit $rc" \
				"$(head -c 300 "$TMP/err")" "$(grep -E '^# (fallocate_memcg|memcg_stat_cgroups)' "$TMP/j.csv")"
		fi
	done
	rmdir "$CG" 2>/dev/null
else
	skip "[J] the memcg chain below the caller's cgroup" "not root, or no cgroup v1 memory hierarchy here"
fi

echo "# $TAP_N cases"
done_testing
