#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Hostile input, held to the exit-code contract (README "Exit codes",
# docs/reliability.md): every bad option value, sweep file, output path
# and input file is refused with exit 2, exactly one line on stderr, and
# nothing written or changed; files the tool reads must be regular and
# size-capped; files it writes never replace a device, FIFO, directory
# or link; a signal ends a live bench within a second and leaves no
# temporary; a SIGKILLed run's temporary is cleaned by the next run on
# the same target.  Prints the number of cases it ran.
. "$(dirname "$0")/../lib.sh"

W=$TMP/w		# the only place a refused command could write to
mkdir -p "$W"
export VSB_SYSCTL_STATE="$TMP/state/sysctl.state"
RUNQ=(run --bench counter --loops 100 --repeat 1 --warmup 0 --events none)
# times in ns below are ${EPOCHREALTIME//[!0-9]/}000: bash's clock in
# microseconds, its digits, where $(date +%s%N) was a process each

# refuse DESC CMD...: exit 2, one stderr line, nothing under $W changed
refuse() {
	local d=$1 before after rc; shift
	tree_sum before "$W"
	"$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	rc=$?
	tree_sum after "$W"
	if [ $rc -eq 2 ] && one_line "$TMP/err" && [ "$before" = "$after" ]; then
		ok "$d"
	else
		not_ok "$d" "exit $rc (want 2), $(wc -l <"$TMP/err") stderr lines (want 1)" \
			"$(head -c 300 "$TMP/err")" \
			"$([ "$before" = "$after" ] || echo "files changed under $W")"
	fi
}

LONGV=$(printf '9%.0s' $(seq 5000))
NL=$'1\n2'
# ---- 1. every integer option, every kind of bad value ----
int_opts="threshold diff-bits items batch loops repeat warmup order outstanding
	time-limit fold-interval-us quiet-workers model-cpus model-nodes delta"
for o in $int_opts; do
	for v in "" "-999999" "99999999999999999999" "abc" "0x10" "010" "00" \
		 "1e3" " 5" "5 " "+5" "1.5" "$NL" "５" "$LONGV" "-" "0b1"; do
		printf -v q %q "$v"	# no subshell: ~600 cases
		refuse "--$o '${q:0:20}' refused" "$VSB" "${RUNQ[@]}" "--$o" "$v"
	done
done
# the same syntax in every integer option of other commands
for v in 0x10 010 abc "" "$NL"; do
	refuse "sweep --repeat '$(printf %q "$v")'" "$VSB" sweep "$VSB_ROOT/configs/threshold.sweep" -o "$W/s" --repeat "$v"
	refuse "sweep --shuffle-seed '$(printf %q "$v")'" "$VSB" sweep "$VSB_ROOT/configs/threshold.sweep" -o "$W/s" --shuffle-seed "$v"
done

# ---- 2. one parser per kind of number: what is checked is what runs ----
for v in 0x1 010 " 1" 1x 01; do
	refuse "--ncpus '$v' refused (not read as another number later)" \
		"$VSB" "${RUNQ[@]}" --ncpus "$v"
done
"$VSB" "${RUNQ[@]}" --ncpus 1 -o "$W/n1.csv" >/dev/null 2>&1
[ "$(grep -c '^counter,' "$W/n1.csv" 2>/dev/null)" = 1 ] &&
	ok "--ncpus 1: exactly one worker's sample" ||
	not_ok "--ncpus 1: exactly one worker's sample" "$(grep -c '^counter,' "$W/n1.csv")"
rm -f "$W"/n1*
for v in 0 10 125; do
	expect_exit 0 "--threshold $v accepted (decimal)" "$VSB" "${RUNQ[@]}" --threshold $v
done
expect_exit 0 "--delta -1 accepted (a sign is fine)" "$VSB" "${RUNQ[@]}" --delta -1
for v in 010M 0x1000 1.5M 0 -4K 4i 4KiBB " 4K" 2000G 4Ki "$NL"; do
	refuse "--size '$(printf %q "$v")'" "$VSB" run --bench mmap --loops 1 --repeat 1 \
		--warmup 0 --events none --size "$v"
done
for v in 4096 4K 4KiB 4KB; do
	expect_exit 0 "--size $v accepted" "$VSB" run --bench mmap --loops 1 --repeat 1 \
		--warmup 0 --events none --size $v
done
for v in "" -1 0x1 a "0-" "1,,2" 99999 "$NL" "0-1-2" ","; do
	refuse "--cpus '$(printf %q "$v")'" "$VSB" "${RUNQ[@]}" --cpus "$v"
done
for v in 00 01 0-01 "0,01" 0x0 "1-0"; do
	refuse "--cpus '$v' refused (one integer syntax: no leading zeros)" "$VSB" "${RUNQ[@]}" --cpus "$v"
done
for v in node:00 node:01 node:0x1 node:-1 node: "node:1 " node:65536; do
	refuse "--placement '$v' refused" "$VSB" "${RUNQ[@]}" --placement "$v"
done
"$VSB" run --help | grep -q "no 0x, no leading zeros" &&
	ok "run --help says integers are decimal, no 0x, no leading zeros" ||
	not_ok "run --help says integers are decimal, no 0x, no leading zeros"

# ---- 3. choices and names ----
for o in backend format plm thp tasks preempt irqs gfp fold approach bench variant placement; do
	for v in "" bogus "$NL" "ü" "$LONGV"; do
		printf -v q %q "$v"
		refuse "--$o '${q:0:20}'" "$VSB" "${RUNQ[@]}" "--$o" "$v"
	done
done
for v in kernel atomic; do
	"$VSB" run --help | grep -q "$v (GFP_" &&
		ok "--gfp help names the accepted value $v" ||
		not_ok "--gfp help names the accepted value $v"
done
for v in "=" "vm.=1" "vm..x=1" "vm.numa_stat=$NL" ".x=1" "vm.numa_stat=0x1" \
	 "vm.stat_interval=010" "../../etc/passwd=1" "vm.numa_stat"; do
	refuse "--sysctl '$(printf %q "$v")'" "$VSB" run --bench mmap --loops 1 \
		--repeat 1 --warmup 0 --sysctl "$v"
done
for v in "bogus::event" "," "$NL"; do
	refuse "--events '$(printf %q "$v")'" "$VSB" "${RUNQ[@]}" --events "$v"
done

# ---- 4. error lines stay one line: control characters escaped ----
"$VSB" "${RUNQ[@]}" --bench $'a\nb\tc\033[31m' 2>"$TMP/err" >/dev/null
one_line "$TMP/err" && grep -qF 'a\nb\tc\x1b[31m' "$TMP/err" &&
	ok "newline, tab and ESC in a value are escaped in the error" ||
	not_ok "control characters escaped" "$(cat -A "$TMP/err")"
# ... and written by one write(2): stderr is unbuffered, and a line put
# out a character at a time can be cut by another process's on it
if command -v strace >/dev/null && strace -o /dev/null true 2>/dev/null; then
	strace -f -e trace=write -o "$TMP/strace" "$VSB" "${RUNQ[@]}" --bench $'a\nb' 2>/dev/null >/dev/null
	n=$(grep -c '^[0-9]* *write(2, ' "$TMP/strace")
	[ "$n" = 1 ] && ok "an error line is one write(2)" ||
		not_ok "an error line is one write(2)" "$n writes to stderr" "$(head -3 "$TMP/strace")"
else
	skip "an error line is one write(2)" "no strace here, or it may not trace (ptrace forbidden)"
fi

# ---- 5. output paths: never replace what is not a regular file ----
mknod "$W/null" c 1 3 2>/dev/null
mkfifo "$W/fifo"
mkdir "$W/dir"
ln -s /dev/null "$W/link-dev"
echo keep >"$W/real"
ln -s "$W/real" "$W/link-reg"
ln -s "$W/nowhere" "$W/link-dangling"
echo file >"$W/afile"
for t in fifo dir dir/ link-dev link-reg link-dangling afile/x.csv nodir/x.csv; do
	refuse "run -o $t refused" "$VSB" "${RUNQ[@]}" -o "$W/$t"
done
[ -c "$W/null" ] && refuse "run -o a device node refused, node kept" "$VSB" "${RUNQ[@]}" -o "$W/null" ||
	skip "run -o a device node" "mknod not permitted here"
refuse "run -o '' refused" "$VSB" "${RUNQ[@]}" -o ""
refuse "run -o /proc/x.csv refused" "$VSB" "${RUNQ[@]}" -o /proc/x.csv
refuse "run -o a 5000-char path refused" "$VSB" "${RUNQ[@]}" -o "$W/$LONGV"
refuse "run -o /dev/null refused (a device)" "$VSB" "${RUNQ[@]}" -o /dev/null
[ "$(cat "$W/real")" = keep ] && [ -L "$W/link-reg" ] && [ -p "$W/fifo" ] &&
	ok "targets left as they were" || not_ok "targets left as they were"
for t in fifo link-dev link-reg link-dangling afile afile/x; do
	refuse "compare -o $t refused before any work" \
		"$VSB" compare "$VSB_ROOT/tests/fixtures/compare/base.csv" "$VSB_ROOT/tests/fixtures/compare/base.csv" -o "$W/$t"
done
# no common point: said (exit 4) before -o is created or written
"$VSB" compare "$VSB_ROOT/tests/fixtures/compare/base.csv" "$VSB_ROOT/tests/fixtures/compare/ns.csv" \
	-o "$W/cmp-none" >/dev/null 2>&1
rc=$?
[ $rc -ne 0 ] && [ ! -e "$W/cmp-none" ] && ok "compare with nothing to judge writes no -o folder (exit $rc)" ||
	not_ok "compare with nothing to judge writes no -o folder" "exit $rc" "$(ls "$W/cmp-none" 2>&1)"

# ---- 5b. compare: costs that are not positive finite numbers (class 5) ----
# setcol FILE COLUMN ROW VALUE: data row ROW's COLUMN set to VALUE
setcol() {
	awk -F, -v col="$2" -v row="$3" -v v="$4" 'BEGIN { OFS = "," }
		/^#/ { print; next }
		!h { for (i = 1; i <= NF; i++) if ($i == col) c = i; h = 1; print; next }
		{ if (++n == row) $c = v; print }' "$1"
}
for v in -155.5 0 -0 inf -inf nan 1e999 x ""; do
	setcol "$VSB_ROOT/tests/fixtures/compare/base.csv" per_op 2 "$v" >"$TMP/cmp-bad.csv"
	refuse "compare: per_op=$v refused, nothing written" \
		"$VSB" compare "$VSB_ROOT/tests/fixtures/compare/base.csv" "$TMP/cmp-bad.csv" -o "$W/cmp-bad"
	grep -q "cmp-bad.csv: row 2" "$TMP/err" ||
		not_ok "  ... compare per_op=$v: the line names file and row" "$(cat "$TMP/err")"
done

# ---- 6. files read: regular only, capped ----
printf 'x' >"$TMP/tiny"
head -c 4096 /dev/urandom >"$TMP/binary"
: >"$TMP/empty"
truncate -s 300M "$TMP/huge"
ln -s /dev/zero "$TMP/zero"
mkfifo "$TMP/rfifo"
mkdir -p "$TMP/rdir"
for f in empty binary zero rfifo rdir huge tiny; do
	refuse "sweep FILE=$f refused" timeout 10 "$VSB" sweep "$TMP/$f" -o "$W/s-$f"
	if grep -q "Unknown error" "$TMP/err"; then
		not_ok "sweep FILE=$f: the line says why" "$(cat "$TMP/err")"
	else
		ok "sweep FILE=$f: the line says why"
	fi
	refuse "compare BASE=$f refused" timeout 10 "$VSB" compare "$TMP/$f" "$TMP/$f"
	mkdir -p "$TMP/p-$f" && ln -sf "$TMP/$f" "$TMP/p-$f/sweep.csv"
	refuse "plot DIR/sweep.csv=$f refused, -o OUTDIR not created" \
		timeout 10 "$VSB" plot "$TMP/p-$f" -o "$W/plot-$f"
	mkdir -p "$TMP/m-$f" && ln -sf "$TMP/$f" "$TMP/m-$f/x.monitor.csv"
	refuse "plot DIR/x.monitor.csv=$f refused, -o OUTDIR not created" \
		timeout 10 "$VSB" plot "$TMP/m-$f" -o "$W/plotm-$f"
	grep -q "Unknown error" "$TMP/err" && not_ok "plot: the line says why" "$(cat "$TMP/err")"
done

# ---- 7. sweep files: bad keys, values, expansions ----
sw() { printf '%s\n' "$@" >"$TMP/t.sweep"; }
while IFS='|' read -r desc body; do
	sw $body
	refuse "sweep file: $desc" "$VSB" sweep "$TMP/t.sweep" -o "$W/sw" --dry-run
done <<'EOF'
unknown key|bench counter nosuchkey 1
bad loops|loops 0x10
octal-looking repeat|repeat 010
negative loops|loops -5
huge threshold|threshold 99999999999999999999
bad axis element|threshold 1,2,x
empty axis element|threshold 1,,2
a non-sweep key|output foo.csv
bad range|threshold 10-1
bad size|size 010M
EOF
printf 'threshold %s\n' "$(seq -s, 1 1000)" >"$TMP/big.sweep"
printf 'loops %s\n' "$(seq -s, 1 1000)" >>"$TMP/big.sweep"
# counted from the axes before any point is built: at once, in little
# memory (an ASan build reserves terabytes of shadow: no limit there)
limit='ulimit -v 1000000'
ldd "$VSB" 2>/dev/null | grep -q libasan && limit=:
for big in "$TMP/big.sweep" "--dry-run $TMP/big.sweep"; do
	t0=${EPOCHREALTIME//[!0-9]/}000
	refuse "sweep of 10^6 points refused before any work ($big)" \
		bash -c "$limit"'; exec "$@"' - "$VSB" sweep $big -o "$W/big"
	ms=$(( (${EPOCHREALTIME//[!0-9]/}000 - t0) / 1000000 ))
	[ $ms -lt 2000 ] && ok "  ... within 2 s, under 1 GB ($ms ms)" || not_ok "  ... within 2 s" "$ms ms"
done
printf 'loops 1-1000\n[a]\nthreshold 1-5\n[b]\nthreshold 1-6\n' >"$TMP/blk.sweep"
refuse "sweep of blocks adding up to 11000 points refused" "$VSB" sweep "$TMP/blk.sweep" -o "$W/big"
grep -q "blk.sweep:4: block \[b\] expands to more than 10000 points" "$TMP/err" &&
	ok "  ... naming the block that goes over" || not_ok "  ... naming the block" "$(cat "$TMP/err")"
printf 'threshold 1-100\nloops 1-100\n' >"$TMP/ok.sweep"
expect_exit 0 "a sweep of exactly 10000 points is accepted (--dry-run)" \
	"$VSB" sweep "$TMP/ok.sweep" -o "$W/big" --dry-run

# ---- 7b. sweep -o and plot -o: refused before any point runs or any file ----
printf 'bench counter\nloops 100000000\nrepeat 5\nwarmup 0\n' >"$TMP/slow.sweep"
for t in afile afile/sub afile/sub/deeper link-reg; do
	t0=${EPOCHREALTIME//[!0-9]/}000
	refuse "sweep -o $t (not a directory) refused before any point runs" \
		"$VSB" sweep "$TMP/slow.sweep" -o "$W/$t"
	ms=$(( (${EPOCHREALTIME//[!0-9]/}000 - t0) / 1000000 ))
	[ $ms -lt 1500 ] && ok "  ... at once ($ms ms)" || not_ok "  ... at once" "$ms ms"
done
refuse "sweep -o FILE --runs 2 refused" \
	"$VSB" sweep "$TMP/slow.sweep" -o "$W/afile" --runs 2

# ---- 8. --resume partials that are not regular files ----
mkdir -p "$W/rs"
printf 'bench counter\nloops 100\nrepeat 2\nwarmup 0\n' >"$TMP/r.sweep"
"$VSB" sweep "$TMP/r.sweep" -o "$W/rs" >/dev/null 2>&1
for f in zero rfifo; do
	ls "$W/rs"/*.csv >/dev/null 2>&1 || break
	p=$(ls "$W/rs"/*.csv | grep -v sweep | head -1)
	rm -f "$p.partial"; ln -s "$TMP/$f" "$p.partial"
	timeout 10 "$VSB" sweep "$TMP/r.sweep" -o "$W/rs" --resume >/dev/null 2>"$TMP/err"
	rc=$?
	[ $rc -ne 124 ] && [ $rc -ne 137 ] && ok "--resume with a partial -> $f ends (exit $rc, no hang)" ||
		not_ok "--resume with a partial -> $f ends" "exit $rc"
	rm -f "$p.partial"
done

# ---- 8b. --resume adopts only partials made by this file and options ----
R=12
printf 'bench counter\nvariant cmpxchg-local\nloops 300000\nrepeat %d\nwarmup 0\ndisturbed keep\n' $R >"$TMP/res.sweep"
"$VSB" sweep "$TMP/res.sweep" -o "$TMP/res" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 500); do
	ls "$TMP/res/"*.csv.partial >/dev/null 2>&1 && break
	kill -0 $pid 2>/dev/null || break
	sleep 0.02
done
kill -INT $pid; wait $pid
pf=$(ls "$TMP/res/"*.csv.partial 2>/dev/null | head -1)
if [ -n "$pf" ]; then
	cp "$pf" "$TMP/keep.partial"
	id=$(basename "$pf" .csv.partial)
	# resume_case DESC WANT(continued|PATTERN) [SWEEP-FILE [ARGS...]]: from the kept partial
	resume_case() {
		local d=$1 want=$2 file=${3:-$TMP/res.sweep}
		shift 2; [ $# -gt 0 ] && shift
		rm -rf "$TMP/res2"; mkdir -p "$TMP/res2"
		cp "$TMP/keep.partial" "$TMP/res2/$id.csv.partial"
		[ -n "${EDIT:-}" ] && eval "$EDIT" "$TMP/res2/$id.csv.partial"
		"$VSB" sweep "$file" -o "$TMP/res2" --resume "$@" >"$TMP/out" 2>"$TMP/err"
		local rc=$? reps
		reps=$(grep -c '^counter,' "$TMP/res2/$id.csv" 2>/dev/null)
		if [ "$want" = continued ]; then
			[ $rc -eq 0 ] && grep -q '^1 point(s) continued' "$TMP/out" &&
				grep -q '^# sweep_resumed' "$TMP/res2/$id.csv" && ok "$d" ||
				not_ok "$d" "exit $rc" "$(cat "$TMP/out" "$TMP/err")"
		elif [ $rc -eq 0 ] && [ "$(grep -c "not continued from its partial file" "$TMP/err")" = 1 ] &&
			grep -q "$want.*: it starts over" "$TMP/err" &&
			! grep -q '^# sweep_resumed' "$TMP/res2/$id.csv"; then
			ok "$d: one line says so, the point starts over ($reps rows)"
		else
			not_ok "$d" "exit $rc" "$(cat "$TMP/out" "$TMP/err")"
		fi
	}
	EDIT= resume_case "--resume continues a partial of the same file and options" continued
	EDIT= resume_case "--resume, another --repeat: not adopted" "other options or another --repeat" \
		"$TMP/res.sweep" --repeat $((R + 1))
	EDIT= resume_case "--resume, a smaller --repeat: not adopted" "other options or another --repeat" \
		"$TMP/res.sweep" --repeat $((R - 1))
	{ cat "$TMP/res.sweep"; echo "# a comment: other bytes"; } >"$TMP/res-other.sweep"
	EDIT= resume_case "--resume with another sweep file (same point): not adopted" \
		"another sweep file" "$TMP/res-other.sweep"
	sed 's/^repeat .*/repeat '$((R + 3))'/' "$TMP/res.sweep" >"$TMP/res-rep.sweep"
	EDIT= resume_case "--resume with the file's repeat changed: not adopted" \
		"another sweep file" "$TMP/res-rep.sweep"
	EDIT="sed -i '0,/^counter,/{/^counter,/p}'" resume_case "a partial with a duplicated repetition row: not adopted" \
		"appears twice"
	EDIT="sed -i -e '/^counter,/{p' -e '}'" resume_case "a partial with every row duplicated: not adopted" \
		"appears twice"
	EDIT="sed -i 's/^# sweep_partial_match: file=\([0-9a-f]\)/# sweep_partial_match: file=0\1/'" \
		resume_case "a partial whose file hash was edited: not adopted" "another sweep file"
	EDIT="sed -i '/^# sweep_partial_match:/d'" resume_case "a partial without its match line: not adopted" \
		"another sweep file"
else
	for i in 1 2 3 4 5 6 7 8 9; do skip "--resume case $i" "the sweep finished before SIGINT"; done
fi

# ---- 8c. plot: costs that are not positive finite numbers (class 5) ----
mkdir -p "$TMP/pl"
"$VSB" sweep "$VSB_ROOT/configs/quick.sweep" --repeat 2 -o "$TMP/pl/ok" >/dev/null 2>&1
# setcell FILE COLUMN ROW VALUE > out: data row ROW's COLUMN set to VALUE
setcell() {
	awk -F, -v col="$2" -v row="$3" -v v="$4" 'BEGIN { OFS = "," }
		/^#/ { print; next }
		!h { for (i = 1; i <= NF; i++) if ($i == col) c = i; h = 1; print; next }
		{ if (++n == row) $c = v; print }' "$1"
}
if [ -f "$TMP/pl/ok/sweep.csv" ] && command -v gnuplot >/dev/null; then
	for col in median ci_lo ci_hi ops_per_sec_median; do
		for v in -155.5 0 inf -inf nan 1e999 x; do
			mkdir -p "$TMP/pl/b"
			setcell "$TMP/pl/ok/sweep.csv" $col 2 "$v" >"$TMP/pl/b/sweep.csv"
			refuse "plot: sweep.csv $col=$v refused before gnuplot, nothing written" \
				"$VSB" plot "$TMP/pl/b" -o "$W/plot-bad"
			grep -q "sweep.csv: row 2: $col" "$TMP/err" || not_ok "  ... the line names file, row and column" "$(cat "$TMP/err")"
		done
	done
	for t in afile link-reg fifo afile/sub; do
		refuse "plot -o $t (not a directory) refused, nothing drawn" timeout 20 "$VSB" plot \
			"$TMP/pl/ok" -o "$W/$t"
	done
	setcell "$TMP/pl/ok/sweep.csv" unit 3 ns >"$TMP/pl/b/sweep.csv"
	refuse "plot: sweep.csv with mixed units refused before any file" "$VSB" plot "$TMP/pl/b" -o "$W/plot-bad"
	mkdir -p "$TMP/pl/c"
	printf '# base: a\nindex,label,unit,median_base,median_new,ratio,ratio_ci_lo,ratio_ci_hi,verdict\n1,p1,tsc,10,12,1.2,1.1,1.3,slower\n2,p2,tsc,10,%s,%s,-1.1,%s,faster\n' \
		-5 -0.5 inf >"$TMP/pl/c/compare.csv"
	refuse "plot: compare.csv with a negative cost refused" "$VSB" plot "$TMP/pl/c" -o "$W/plot-bad"
	grep -q "compare.csv: row 2: median_new is -5" "$TMP/err" && ok "  ... naming row 2 and median_new" ||
		not_ok "  ... naming row 2 and median_new" "$(cat "$TMP/err")"
	# planted links and FIFOs in OUTDIR are never written through
	mkdir -p "$TMP/pl/out"
	echo victim >"$TMP/victim"
	ln -s "$TMP/victim" "$TMP/pl/out/threshold.png"
	ln -s "$TMP/victim" "$TMP/pl/out/.threshold.gnuplot-err"
	ln -s "$TMP/victim" "$TMP/pl/out/threshold.png.tmp.png"
	mkfifo "$TMP/pl/out/threshold.svg.tmp.svg"
	timeout 60 "$VSB" plot "$TMP/pl/ok" -o "$TMP/pl/out" >/dev/null 2>"$TMP/err"
	rc=$?
	[ $rc -ne 0 ] && [ $rc -ne 124 ] && [ "$(cat "$TMP/victim")" = victim ] &&
		[ -L "$TMP/pl/out/threshold.png" ] && [ -p "$TMP/pl/out/threshold.svg.tmp.svg" ] &&
		ok "plot: a link at a chart's name is refused (exit $rc), its target untouched" ||
		not_ok "plot: a link at a chart's name is refused, its target untouched" "exit $rc" "$(cat "$TMP/err")"
	rm -f "$TMP/pl/out/threshold.png"
	timeout 60 "$VSB" plot "$TMP/pl/ok" -o "$TMP/pl/out" >/dev/null 2>"$TMP/err"
	rc=$?
	[ $rc -eq 0 ] && [ "$(cat "$TMP/victim")" = victim ] && [ -f "$TMP/pl/out/threshold.png" ] &&
		! ls -a "$TMP/pl/out" | grep -q 'gnuplot-err\.\|\.tmp[0-9]' &&
		ok "plot: planted links and FIFOs at the old temporary names are not written through" ||
		not_ok "plot: planted links at temporary names not written through" "exit $rc" "$(cat "$TMP/err")"
else
	skip "plot cost checks" "no gnuplot or the quick sweep did not run"
fi

# ---- 9. the sysctl state file ----
mkdir -p "$TMP/state"
if [ "$(id -u)" = 0 ] && mknod "$TMP/state/sysctl.state" c 1 3 2>/dev/null; then
	expect_exit 2 "restore: a state file that is a device is refused" "$VSB" restore
	[ -c "$TMP/state/sysctl.state" ] && ok "  and the device node is untouched" ||
		not_ok "  and the device node is untouched"
	rm -f "$TMP/state/sysctl.state"
else
	skip "restore: device state file" "needs root and mknod"; skip "  node untouched" "same"
fi
ln -s /dev/zero "$TMP/state/sysctl.state"
refuse "run without --sysctl: a state file linking to /dev/zero refuses the run" \
	timeout 10 "$VSB" "${RUNQ[@]}" -o "$W/st.csv"
expect_exit 2 "restore: a state file linking to /dev/zero is refused" timeout 10 "$VSB" restore
[ -L "$TMP/state/sysctl.state" ] && ok "  and the link is kept" || not_ok "  and the link is kept"
rm -f "$TMP/state/sysctl.state"
mkfifo "$TMP/state/sysctl.state"
refuse "run without --sysctl: a FIFO state file refuses the run (no hang)" \
	timeout 10 "$VSB" "${RUNQ[@]}" -o "$W/st.csv"
expect_exit 2 "restore: a FIFO state file is refused (no hang)" timeout 10 "$VSB" restore
rm -f "$TMP/state/sysctl.state"
printf 'pid 1 1\nvm.numa_stat\t1\\q\n' >"$TMP/state/sysctl.state"
if [ "$(id -u)" = 0 ]; then
	refuse "run without --sysctl: a damaged state file refuses the run" \
		"$VSB" "${RUNQ[@]}" -o "$W/st.csv"
	expect_exit 2 "  ... exit 2" "$VSB" "${RUNQ[@]}" -o "$W/st.csv"
	[ ! -e "$W/st.csv" ] && ok "  ... nothing written" || not_ok "  ... nothing written"
	expect_exit 2 "restore: a damaged state file is refused" "$VSB" restore
	[ -f "$TMP/state/sysctl.state" ] && ok "  and kept" || not_ok "  and kept"
else
	skip "restore: damaged state file" "needs root"; skip "  and kept" "needs root"
fi
rm -f "$TMP/state/sysctl.state"

# ---- 10. signals: live benches stop inside a sample, leave nothing ----
sig_case() {	# sig_case NAME SIG MAXMS ARGS...
	local name=$1 sig=$2 max=$3 t0 t1 rc ms; shift 3
	"$VSB" run "$@" -o "$W/sig.csv" >/dev/null 2>"$TMP/err" &
	local pid=$!
	# its handler in place, then 0.2 s more: inside a sample
	catches $pid "$sig" && sleep 0.2
	t0=${EPOCHREALTIME//[!0-9]/}000
	kill -"$sig" $pid
	wait $pid; rc=$?
	t1=${EPOCHREALTIME//[!0-9]/}000
	ms=$(( (t1 - t0) / 1000000 ))
	echo "# $name: SIG$sig to exit in $ms ms"
	if [ $rc -eq 1 ] && [ $ms -le "$max" ] && ! ls "$W"/sig.* >/dev/null 2>&1; then
		ok "$name: SIG$sig ends it within $max ms (exit 1), nothing written"
	else
		not_ok "$name: SIG$sig ends it within $max ms (exit 1), nothing written" \
			"exit $rc after $ms ms; left: $(ls "$W" | grep sig)"
	fi
	rm -f "$W"/sig.*
}
# The bound is a guard against "keeps running for 30 s", loose enough for a
# shared 2-CPU machine; the figures themselves are printed above each case
# and in docs/reliability.md.
for sig in INT TERM HUP; do
	sig_case page-fault $sig 3000 --bench page-fault --size 64M --loops 100000 \
		--repeat 2 --warmup 0 --events none
	sig_case "page-fault threads" $sig 3000 --bench page-fault --tasks thread \
		--size 64M --loops 100000 --repeat 2 --warmup 0 --events none
	sig_case mmap $sig 3000 --bench mmap --size 4M --loops 1000000000 --repeat 2 \
		--warmup 0 --events none
	sig_case "counter (short samples)" $sig 3000 --bench counter --loops 1000000 \
		--repeat 1000 --warmup 0 --events none
done
# the slow benches: the stop reaches inside one long sample
for sig in INT TERM; do
	sig_case "counter (one 10^9-update sample)" $sig 3000 --bench counter \
		--loops 1000000000 --repeat 5 --warmup 0 --events none
	sig_case "counter warm-up (10^9 updates)" $sig 3000 --bench counter \
		--loops 1000000000 --repeat 5 --warmup 2 --events none
	sig_case "counter --drift --fold remote" $sig 3000 --bench counter --drift \
		--fold remote --variant cmpxchg-locked --loops 1000000000 --warmup 0 --events none
	sig_case "threshold-refresh (4096 CPUs, 64 nodes)" $sig 3000 --bench threshold-refresh \
		--model-cpus 4096 --model-nodes 64 --warmup 0 --events none
done
sig_case "threshold-refresh" HUP 3000 --bench threshold-refresh \
	--model-cpus 4096 --model-nodes 64 --warmup 0 --events none
sleep 0.3
pgrep -f -- "--model-nodes 64 --warmup 0 --events none -o $W/sig.csv" >/dev/null && not_ok "threshold-refresh: no model process left" ||
	ok "threshold-refresh: no model process left"
# a sweep interrupted inside its first sample keeps nothing of it
printf 'bench counter\nloops 1000000000\nrepeat 3\nwarmup 0\n' >"$TMP/sig.sweep"
"$VSB" sweep "$TMP/sig.sweep" -o "$W/sigsw" >/dev/null 2>"$TMP/err" &
pid=$!
sleep 1
t0=${EPOCHREALTIME//[!0-9]/}000
kill -INT $pid; wait $pid; rc=$?
ms=$(( (${EPOCHREALTIME//[!0-9]/}000 - t0) / 1000000 ))
[ $rc -eq 1 ] && [ $ms -le 3000 ] && ! ls "$W/sigsw" 2>/dev/null | grep -q 'csv' &&
	ok "sweep: SIGINT inside a sample ends it in $ms ms, the sample is not written" ||
	not_ok "sweep: SIGINT inside a sample" "exit $rc after $ms ms; $(ls "$W/sigsw" 2>/dev/null)"
rm -rf "$W/sigsw"
# SIGKILL leaves a temporary; the next run on the target removes it
"$VSB" run --bench mmap --size 4M --loops 1000000000 --repeat 2 --warmup 0 \
	--events none -o "$W/k.csv" >/dev/null 2>&1 &
pid=$!
sleep 0.7
kill -KILL $pid; wait $pid 2>/dev/null
sleep 0.2
n=$(ls "$W" | grep -c '^k\.csv\.tmp')
[ "$n" -ge 1 ] && ok "SIGKILL leaves its temporaries ($n)" || not_ok "SIGKILL leaves its temporaries"
echo alive >"$W/k.csv.tmp999999-ABCDEF"	# not a pid that exists: cleaned
echo other >"$W/other.csv.tmp$pid-ABCDEF"	# another target: kept
echo mine >"$W/k.csv.tmp$$-ABCDEF"		# a live pid (this shell): kept
"$VSB" "${RUNQ[@]}" -o "$W/k.csv" >/dev/null 2>"$TMP/err"
left=$(ls "$W" | grep '^k\.csv\.tmp' | tr '\n' ' ')
[ "$left" = "k.csv.tmp$$-ABCDEF " ] && ok "the next run on k.csv removed the dead runs' temporaries" ||
	not_ok "the next run on k.csv removed the dead runs' temporaries" "left: $left"
[ -f "$W/other.csv.tmp$pid-ABCDEF" ] && ok "another target's temporary is kept" ||
	not_ok "another target's temporary is kept"
[ "$(wc -l <"$TMP/err")" -ge 1 ] && grep -q "left by a killed run" "$TMP/err" &&
	ok "the removal is reported" || not_ok "the removal is reported" "$(cat "$TMP/err")"
rm -f "$W"/k.csv* "$W"/other.csv*

# ---- 10. [sec] the state file: the user's own, and only what --sysctl sets ----
# (issue 21) A root run or restore writes what the state file names; it
# must be owned by the user running the tool, writable by no one else,
# and list only vm.* sysctls.  Planted here in a shared (1777) folder by
# nobody and by a throwaway user, with open modes, and naming kernel.*,
# fs.*, net.* sysctls: each refused with exit 2 and one line, the file
# left exactly as it was, the sysctl untouched.
PB=/proc/sys/kernel/printk_ratelimit_burst
if [ "$(id -u)" = 0 ] && [ -w "$PB" ] && [ -w /proc/sys/vm/stat_interval ]; then
	pb_orig=$(cat "$PB") si=$(cat /proc/sys/vm/stat_interval)
	trap 'echo "$pb_orig" >"$PB"; echo "$si" >/proc/sys/vm/stat_interval;
	      [ -n "$H21U" ] && userdel "$H21U" 2>/dev/null; rm -rf "$TMP"' EXIT
	H21U=vsbh21$$
	useradd -M -N -s /usr/sbin/nologin "$H21U" 2>/dev/null || H21U=
	chmod o+x "$TMP"
	SH=$TMP/shared && mkdir -p "$SH" && chmod 1777 "$SH"
	S=$SH/sysctl.state
	bad=$((pb_orig + 7))
	# mkstate OWNER MODE LINES...: a state file as a killed run leaves it
	mkstate() {
		local owner=$1 mode=$2; shift 2
		rm -f "$S"
		{ echo "# vmstat-bench: sysctl values to put back"; echo "pid 999999 1"
		  printf '%s\n' "$@"; } >"$S"
		chown "$owner" "$S" && chmod "$mode" "$S"
		stat -c '%U %a %s %Y' "$S" >"$TMP/st.before"; md5sum <"$S" >>"$TMP/st.before"
	}
	# stref DESC PATTERN CMD...: refused, the state file and the sysctls as they were
	stref() {
		local d=$1 pat=$2 before after rc now why=(); shift 2
		tree_sum before "$W"
		VSB_SYSCTL_STATE=$S timeout 20 "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
		rc=$?
		tree_sum after "$W"
		[ $rc -eq 2 ] || why+=("exit $rc (want 2)")
		one_line "$TMP/err" || why+=("$(wc -l <"$TMP/err") stderr lines (want 1)")
		matches "$pat" "$TMP/err" || why+=("stderr does not match /$pat/")
		[ "$before" = "$after" ] || why+=("files changed under $W")
		[ -e "$S" ] && [ "$(stat -c '%U %a %s %Y' "$S"; md5sum <"$S")" = "$(cat "$TMP/st.before")" ] ||
			why+=("the state file was changed or removed")
		# read, not $(cat): two processes a case; each file is one line
		read -r now <"$PB"
		[ "$now" = "$pb_orig" ] || { why+=("kernel.printk_ratelimit_burst was set"); echo "$pb_orig" >"$PB"; }
		read -r now </proc/sys/vm/stat_interval
		[ "$now" = "$si" ] ||
			{ why+=("vm.stat_interval was set"); echo "$si" >/proc/sys/vm/stat_interval; }
		if [ ${#why[@]} -eq 0 ]; then ok "$d"; else not_ok "$d" "${why[@]}" "$(head -c 300 "$TMP/err")"; fi
	}
	SWQ=$TMP/st.sweep
	printf 'bench counter\nloops 100\nrepeat 1\nwarmup 0\n' >"$SWQ"
	cmds=(restore run "run --sysctl" sweep)
	runcmd() {	# the command of @1, as an array in C
		case $1 in
		restore) C=("$VSB" restore) ;;
		run) C=("$VSB" "${RUNQ[@]}" -o "$W/st.csv") ;;
		"run --sysctl") C=("$VSB" "${RUNQ[@]}" -o "$W/st.csv" --sysctl "vm.stat_interval=$si") ;;
		sweep) C=("$VSB" sweep "$SWQ" -o "$W/stsw") ;;
		esac
	}
	for c in "${cmds[@]}"; do
		runcmd "$c"
		mkstate nobody 644 "vm.stat_interval	$((si + 1))"
		stref "[sec] $c: a state file owned by nobody is refused, not restored" \
			"owned by uid $(id -u nobody), not by this user" "${C[@]}"
		if [ -n "$H21U" ]; then
			mkstate "$H21U" 600 "kernel.printk_ratelimit_burst	$bad"
			stref "[sec] $c: a state file owned by a throwaway user is refused" \
				"owned by uid $(id -u "$H21U"), not by this user" "${C[@]}"
		else
			skip "[sec] $c: a state file owned by a throwaway user" "useradd failed"
		fi
	done
	# planted by the other user itself, in the shared folder
	for u in nobody $H21U; do
		rm -f "$S"
		runuser -u "$u" -- sh -c "printf '# x\npid 999999 1\nkernel.printk_ratelimit_burst\t$bad\n' >'$S'" 2>/dev/null
		if [ -f "$S" ]; then
			stat -c '%U %a %s %Y' "$S" >"$TMP/st.before"; md5sum <"$S" >>"$TMP/st.before"
			stref "[sec] restore: a state file $u wrote into a shared folder is refused" \
				"owned by uid $(id -u "$u")" "$VSB" restore
			stref "[sec] run: the same file refuses the run, kernel.* never set" \
				"owned by uid $(id -u "$u")" "$VSB" "${RUNQ[@]}" -o "$W/st.csv"
		else
			skip "[sec] a state file $u wrote" "runuser failed"
			skip "[sec] the same file refuses the run" "runuser failed"
		fi
	done
	for m in 666 664 646 622 660; do
		mkstate root $m "vm.stat_interval	$((si + 1))"
		stref "[sec] restore: a state file of mode $m (writable by others) is refused" \
			"writable by others \\(mode 0$m\\)" "$VSB" restore
	done
	mkstate root 666 "vm.stat_interval	$((si + 1))"
	stref "[sec] run: a state file writable by others refuses the run" "writable by others" \
		"$VSB" "${RUNQ[@]}" -o "$W/st.csv"
	for k in "kernel.printk_ratelimit_burst	$bad" "kernel.poweroff_cmd	/bin/true" \
		 "fs.file-max	1000" "net.ipv4.ip_forward	1" "user.max_user_namespaces	0" \
		 "dev.tty.ldisc_autoload	0" "abi.vsyscall32	0"; do
		mkstate root 644 "$k"
		stref "[sec] restore: a state file naming ${k%%	*} is refused (vm.* only)" \
			"${k%%	*} is not a sysctl vmstat-bench sets \\(vm.\\* only\\)" "$VSB" restore
	done
	mkstate root 644 "kernel.printk_ratelimit_burst	$bad"
	stref "[sec] run (no --sysctl): a state file naming kernel.* refuses the run" \
		"is not a sysctl vmstat-bench sets" "$VSB" "${RUNQ[@]}" -o "$W/st.csv"
	stref "[sec] sweep: the same, before the first point" \
		"is not a sysctl vmstat-bench sets" "$VSB" sweep "$SWQ" -o "$W/stsw"
	mkstate root 644 "vm.stat_interval	$((si + 1))" "kernel.printk_ratelimit_burst	$bad"
	stref "[sec] restore: vm.* then kernel.*: refused whole, the vm.* line not restored either" \
		"kernel.printk_ratelimit_burst is not a sysctl" "$VSB" restore
	# --sysctl itself sets vm.* only
	for sp in "kernel.printk_ratelimit_burst=$bad" kernel.poweroff_cmd=/bin/true \
		  fs.file-max=1000000 net.ipv4.ip_forward=0; do
		rm -f "$S"; : >"$TMP/st.before"
		refuse "[sec] --sysctl $sp: refused, vm.* only" \
			"$VSB" "${RUNQ[@]}" -o "$W/st.csv" --sysctl "$sp"
	done
	printf 'bench counter\nloops 100\nrepeat 1\nsysctl kernel.printk_ratelimit_burst=10,11\n' >"$TMP/k.sweep"
	refuse "[sec] a sweep axis of kernel.printk_ratelimit_burst: refused before the sweep" \
		"$VSB" sweep "$TMP/k.sweep" -o "$W/ksw"
	# the user's own, vm.* only: restored and removed
	mkstate root 644 "vm.stat_interval	$si"
	VSB_SYSCTL_STATE=$S "$VSB" restore >/dev/null 2>&1
	[ $? -eq 0 ] && [ ! -e "$S" ] && ok "[sec] restore: our own state file of vm.* is restored and removed" ||
		not_ok "[sec] restore: our own state file is restored"
	# not root: a state file root wrote is reported, one another user wrote refused
	if runuser -u nobody -- test -x "$VSB" 2>/dev/null; then
		mkstate root 644 "vm.stat_interval	$((si + 1))"
		VSB_SYSCTL_STATE=$S runuser -u nobody -- "$VSB" "${RUNQ[@]}" >/dev/null 2>"$TMP/err"
		[ $? -eq 4 ] && grep -q "sudo vmstat-bench restore" "$TMP/err" &&
			ok "[sec] not root: root's state file is reported (exit 4), not refused" ||
			not_ok "[sec] not root: root's state file reported" "$(cat "$TMP/err")"
		if [ -n "$H21U" ]; then
			mkstate "$H21U" 644 "vm.stat_interval	$((si + 1))"
			VSB_SYSCTL_STATE=$S runuser -u nobody -- "$VSB" "${RUNQ[@]}" >/dev/null 2>"$TMP/err"
			[ $? -eq 2 ] && grep -q "owned by uid $(id -u "$H21U")" "$TMP/err" &&
				ok "[sec] not root: a third user's state file is refused (exit 2)" ||
				not_ok "[sec] not root: a third user's state file refused" "$(cat "$TMP/err")"
		else
			skip "[sec] not root: a third user's state file" "useradd failed"
		fi
	else
		skip "[sec] not root: root's state file reported" "nobody cannot run $VSB"
		skip "[sec] not root: a third user's state file" "nobody cannot run $VSB"
	fi
	rm -f "$S"
else
	skip "[sec] state file ownership" "needs root and writable sysctls"
fi

echo "# $TAP_N cases"
done_testing
