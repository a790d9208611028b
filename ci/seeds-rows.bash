# SPDX-License-Identifier: GPL-2.0
#
# The rows of the seeds' table, for ci/seeds (which sources this file and
# has set REPO, VSB, STATE, QUICK, BUILDK, LOCK_KERNELS, step() and
# step_done()).
#
# seeds_steps runs the commands; every row_* function reads what one of
# them wrote, by column name, and prints one line of seven cells joined
# by tabs: seed, question, the thread's figure, this suite's figure, the
# mode, the command, whether the shape agrees.  It returns 0 when the row
# holds a figure of this run, 1 when it says why there is none ("none:
# ..."); such a row is made again on the next run.  The threads' figures
# are quoted from shared/seeds/README.md and the threads themselves.

EXACT_AB="$VSB ab --base debian:6.12.117+deb12 --new debian:6.12.117+deb12 --jobs 2 configs/seeds-exact.sweep -o $STATE/exact"
REPEAT=10
((QUICK)) && REPEAT=3
THR_CMD="$VSB sweep configs/seeds-threshold.sweep --repeat $REPEAT -o $STATE/thr"
MMAP_CMD="$VSB sweep configs/seeds-mmap.sweep --repeat $REPEAT -o $STATE/mmap"
REFRESH_CMD="$VSB refresh-model --max-cpus 1024 --nodes 1,16 >$STATE/refresh/refresh.csv"
BATCH_CMD="$VSB thresholds --format csv >$STATE/batch/here.csv && $VSB thresholds --cpus 144 --nodes 4 --zone-mb 65536 --format csv >$STATE/batch/big.csv"
PAGE_LABEL="page-alloc cpus=0 cmdline=init_on_alloc=0"
KSTAT_LABEL="kstat mod-zone cpus=0"
NO_GUEST="none: --quick boots no guest; \`ci/seeds\` counts it in an exact guest"

# csv_where FILE NAME KEY=VALUE...: NAME's cell in FILE's first data row
# whose every KEY column holds VALUE ('#' lines are metadata); a VALUE
# may hold spaces (mix.csv's labels do), so the conditions reach awk
# joined by the unit separator
csv_where() {
	local f=$1 n=$2 IFS=$'\x1f'
	shift 2
	awk -F, -v n="$n" -v conds="$*" '
		/^#/ { next }
		!h { for (i = 1; i <= NF; i++) col[$i] = i; h = 1
		     k = split(conds, cs, "\037"); next }
		{
			for (j = 1; j <= k; j++) {
				split(cs[j], kv, "=")
				v = substr(cs[j], length(kv[1]) + 2)
				if (!(kv[1] in col) || $col[kv[1]] != v) next
			}
			if (n in col) print $col[n]
			exit
		}' "$f"
}

# numbers: a figure to 3 significant digits; a change in percent; the
# agreement of a change with the thread's (docs/seeds.md says the rule)
fig() { awk -v x="$1" 'BEGIN { printf "%.3g", x }'; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.1f%%", (b - a) / a * 100 }'; }
agree() {	# agree THREAD_CHANGE OUR_CHANGE (ratios, 1 = no change)
	awk -v t="$1" -v o="$2" 'BEGIN {
		dt = t - 1; d = o - 1
		if (dt * d <= 0) print "no"
		else if (d / dt >= 1 / 3 && d / dt <= 3) print "yes"
		else print "direction only"
	}'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { print b / a }'; }

# the point file of a sweep block in an exact ab's side, and its estimate
point_file() {	# point_file SIDE BLOCK
	local f
	for f in "$STATE/exact/$1/boot-1/$2"-*.csv; do
		[[ $f == *.summary.csv ]] || { echo "$f"; return 0; }
	done
	return 1
}
est() {	# est SIDE BLOCK COLUMN: from `vmstat-bench estimate`
	local f out=$STATE/exact/est-$1-$2.csv
	[[ -s $out ]] || { f=$(point_file "$1" "$2") && "$VSB" estimate "$f" >"$out"; } || return 1
	csv_cell "$out" "$3"
}

line() { local IFS=$'\t'; printf '%s\n' "$*"; }

# --- the steps ---------------------------------------------------------------

# the kernels of seed 002: --lock-kernels, else the cache's by today's key
# (or built with --build); LOCK_WHY says why there are none
lock_kernels() {
	local cache base lock kb kl
	LOCK_WHY=''
	[[ -z $LOCK_KERNELS ]] || return 0
	if ((BUILDK)); then
		base=$(ci/kernel-build.sh --source debian:6.12 --out "$STATE/k-base" | tail -n 1) &&
		lock=$(ci/kernel-build.sh --source debian:6.12 \
			--patch ci/patches/vmstat-lock-cmpxchg.patch --out "$STATE/k-lock" | tail -n 1) ||
			{ LOCK_WHY="none: ci/kernel-build.sh failed"; return 1; }
		LOCK_KERNELS=$base,$lock
		return 0
	fi
	. ci/cache.bash
	cache=$(vsb_vm_cache "$REPO")
	kb=$(ci/kernel-build.sh --source debian:6.12 --print-key 2>/dev/null) &&
	kl=$(ci/kernel-build.sh --source debian:6.12 --patch ci/patches/vmstat-lock-cmpxchg.patch \
		--print-key 2>/dev/null) || { LOCK_WHY="none: ci/kernel-build.sh --print-key failed"; return 1; }
	if [[ -f $cache/kbuild/$kb/.vsb-complete && -f $cache/kbuild/$kl/.vsb-complete ]]; then
		LOCK_KERNELS=$cache/kbuild/$kb/arch/x86/boot/bzImage:$cache/kbuild/$kb,$cache/kbuild/$kl/arch/x86/boot/bzImage:$cache/kbuild/$kl
		return 0
	fi
	LOCK_WHY="none: needs a kernel build (~25 min here; kernels $kb and $kl are not in the cache): run \`ci/seeds --build\`, or \`ci/kernel-build.sh --source debian:6.12 [--patch ci/patches/vmstat-lock-cmpxchg.patch] --out DIR\` and \`ci/seeds --lock-kernels BASE,NEW\`"
	return 1
}

seeds_steps() {
	local rc=0
	mkdir -p "$STATE/refresh" "$STATE/batch"
	step batch 0 "0" "$BATCH_CMD" || rc=1
	# the guests first: they count, so they need not wait for the
	# timing lock, which another's measurement may hold a while
	if ((!QUICK)); then
		step exact 0 "0" "$EXACT_AB" || rc=1
		if step_done lock || lock_kernels; then
			step_done lock || printf '%s\n' "$LOCK_KERNELS" >"$STATE/lock-kernels"
			LOCK_KERNELS=$(cat "$STATE/lock-kernels")
			# exit 1: the patch regressed, an answer, not a failure
			step lock 0 "0 1 5" "$VSB ab --base ${LOCK_KERNELS%,*} --new ${LOCK_KERNELS#*,} --jobs 2 configs/seeds-lock.sweep -o $STATE/lock" || rc=1
		fi
	fi
	step refresh 1 "0" "$REFRESH_CMD" || rc=1
	step thr 1 "0" "$THR_CMD" || rc=1
	step mmap 1 "0" "$MMAP_CMD" || rc=1
	return "$rc"
}

# --- seed 000 ----------------------------------------------------------------

# profile_fn LABEL TOTAL FUNCTION: FUNCTION's instructions per op in the
# base side's profile of the point LABEL whose rows add up to TOTAL (the
# sum rule: within 0.1%), for points whose labels are alike
profile_fn() {
	awk -F, -v lab="$1" -v tot="$2" -v fn="$3" '
		/^#/ { next }
		!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
		$c["label"] != lab || $c["side"] != "base" { next }
		{ s += $c["insn_per_op"] }
		$c["function"] == fn { v = $c["insn_per_op"] }
		$c["function"] == "(other)" {
			d = s - tot; if (d < 0) d = -d
			if (d <= tot * 0.001 && v != "") { print v; exit }
			s = 0; v = ""
		}' "$STATE/exact/profile.csv"
}

numa_row() {	# numa_row BLOCK1 BLOCK0 QUESTION THREAD THREAD_RATIO
	local i1 i0 s1 s0 c1 c0 g1 g0 where=
	((QUICK)) && { line 000 "$3" "$4" "$NO_GUEST" "not measured" "$EXACT_AB" n/a; return 1; }
	step_done exact ||
		{ line 000 "$3" "$4" "$(step_why exact)" "not measured" "$EXACT_AB" n/a; return 1; }
	i1=$(est base "$1" insn_per_op) && i0=$(est base "$2" insn_per_op) &&
	s1=$(est base "$1" est_cycles_skl) && s0=$(est base "$2" est_cycles_skl) &&
	c1=$(est new "$1" insn_per_op) && c0=$(est new "$2" insn_per_op) || return 1
	# zone_statistics() is inlined into get_page_from_freelist()
	g1=$(profile_fn "$PAGE_LABEL" "$i1" get_page_from_freelist)
	g0=$(profile_fn "$PAGE_LABEL" "$i0" get_page_from_freelist)
	[[ -z $g1 || -z $g0 ]] || where="; get_page_from_freelist (zone_statistics() inlined) $(fig "$g1") -> $(fig "$g0")"
	line 000 "$3" "$4" \
		"$(fig "$i1") -> $(fig "$i0") instructions a page ($(pct "$i1" "$i0"))$where; the model's Skylake $(fig "$s1") -> $(fig "$s0") cycles ($(pct "$s1" "$s0")); A/A's other boot $(fig "$c1") -> $(fig "$c0")" \
		"exact count with the estimates (Debian 6.12.117 guest, init_on_alloc=0)" "$EXACT_AB" \
		"$(agree "$5" "$(ratio "$s1" "$s0")")"
}
row_000_single() {
	numa_row numa1 numa0 "zone_statistics()'s NUMA counters per page, page_bench01, vm.numa_stat 1 -> 0" \
		"185 -> 176 cycles (-4.8%), 1 thread (Broadwell)" 0.9514
}
row_000_parallel() {
	line 000 "the same on 88 CPUs at once, page_bench03" "343 -> 315 cycles (-8.1%), 88 threads" \
		"none: 88 CPUs are not here, and what they add over one thread is contention, which exact mode does not count and TCG's timings do not show (docs/exact.md)" \
		"not measured" "vmstat-bench sweep configs/page-alloc.sweep (on a machine of 88 CPUs that can load the module)" n/a
	return 1
}

# --- seed 001 ----------------------------------------------------------------

row_001_folds() {
	local q="folds per op against 1/threshold (counter bench, cmpxchg-local, s16, 2 CPUs)"
	local t="the cost falls as 1/threshold: 799 (32), 537 (125), 399 (4096), 394 (32765) cycles, 88 threads"
	local f s=$STATE/thr/sweep.csv out='' k lo='' hi=''
	step_done thr ||
		{ line 001 "$q" "$t" "$(step_why thr)" "not measured" "$THR_CMD" n/a; return 1; }
	for k in 32 125 4096 32765; do
		f=$(csv_where "$s" folds_per_op threshold="$k") && [[ -n $f ]] || return 1
		# a fold every threshold + threshold/2 + 1 updates of +1
		f=$(awk -v f="$f" -v k="$k" 'BEGIN { print f * (k + int(k / 2) + 1) }')
		out+="${out:+, }$(fig "$f") ($k)"
		lo=$(awk -v a="${lo:-$f}" -v b="$f" 'BEGIN { print (b < a ? b : a) }')
		hi=$(awk -v a="${hi:-$f}" -v b="$f" 'BEGIN { print (b > a ? b : a) }')
	done
	line 001 "$q" "$t" "folds per op x (1.5 threshold + 1): $out" "timed on this host (the folds counted)" \
		"$THR_CMD" "$(awk -v lo="$lo" -v hi="$hi" 'BEGIN { print (hi / lo < 1.1 ? "yes" : "no") }')"
}
row_001_cost() {
	local q="an update's cost from threshold 32 to 32765 (counter bench, 2 CPUs)"
	local t="799 -> 394 cycles (x2.03), 88 threads"
	local c32 c125 cmax s=$STATE/thr/sweep.csv u
	step_done thr ||
		{ line 001 "$q" "$t" "$(step_why thr)" "not measured" "$THR_CMD" n/a; return 1; }
	c32=$(csv_where "$s" median threshold=32) && c125=$(csv_where "$s" median threshold=125) &&
	cmax=$(csv_where "$s" median threshold=32765) && u=$(csv_where "$s" unit threshold=32) || return 1
	line 001 "$q" "$t" "$(fig "$c32") (32), $(fig "$c125") (125), $(fig "$cmax") (32765) $u an update (x$(fig "$(ratio "$cmax" "$c32")"))" \
		"timed on this host" "$THR_CMD" "$(agree 2.028 "$(ratio "$cmax" "$c32")")"
}
row_001_kernel() {
	local q="the kernel's own folds: LOCK-prefixed instructions per mod_zone_page_state at threshold 8 and 125"
	local t="the folds fall as 1/threshold (the thread's curve)"
	local l8 l125
	((QUICK)) && { line 001 "$q" "$t" "$NO_GUEST" "not measured" "$EXACT_AB" n/a; return 1; }
	step_done exact ||
		{ line 001 "$q" "$t" "$(step_why exact)" "not measured" "$EXACT_AB" n/a; return 1; }
	l8=$(est base thr8 lock) && l125=$(est base thr125 lock) || return 1
	line 001 "$q" "$t" "$(fig "$l8") (8) -> $(fig "$l125") (125) LOCK an op: x$(fig "$(ratio "$l8" "$l125")") for a threshold x15.6" \
		"exact count with the estimates (Debian 6.12.117 guest)" "$EXACT_AB" \
		"$(agree 0.064 "$(ratio "$l8" "$l125")")"
}

# --- seed 002 ----------------------------------------------------------------

LOCK_AB_SHOWN="$VSB ab --base BASE --new LOCK --jobs 2 configs/seeds-lock.sweep -o $STATE/lock"
row_002_lock() {
	local q="the LOCK cmpxchg patch (ci/patches/vmstat-lock-cmpxchg.patch) on page_bench01"
	local t="115.25 -> 117 cycles (+1.4%, later called noise by its author), Tiger Lake"
	local m=$STATE/lock/mix.csv cmd ib in eb en kb kn own=
	cmd=$( [[ -f $STATE/lock-kernels ]] && { k=$(cat "$STATE/lock-kernels")
		echo "$VSB ab --base ${k%,*} --new ${k#*,} --jobs 2 configs/seeds-lock.sweep -o $STATE/lock"; } ||
		echo "$LOCK_AB_SHOWN")
	((QUICK)) && { line 002 "$q" "$t" "$NO_GUEST, on a base and a patched kernel" "not measured" "$cmd" n/a; return 1; }
	if ! step_done lock; then
		line 002 "$q" "$t" "${LOCK_WHY:-$(step_why lock)}" "not measured" "$cmd" n/a
		return 1
	fi
	ib=$(csv_where "$m" insn_per_op label="$PAGE_LABEL" side=base) &&
	in=$(csv_where "$m" insn_per_op label="$PAGE_LABEL" side=new) &&
	eb=$(csv_where "$m" est_cycles_icl label="$PAGE_LABEL" side=base) &&
	en=$(csv_where "$m" est_cycles_icl label="$PAGE_LABEL" side=new) && [[ -n $en ]] || return 1
	# the patched function itself, for the size of what a call costs
	kb=$(csv_where "$m" insn_per_op label="$KSTAT_LABEL" side=base) &&
	kn=$(csv_where "$m" insn_per_op label="$KSTAT_LABEL" side=new) || return 1
	[[ -z $kb || -z $kn ]] ||
		own="; mod_zone_page_state itself (kstat mod-zone) $(fig "$kb") -> $(fig "$kn") instructions an op ($(pct "$kb" "$kn"))"
	line 002 "$q" "$t" \
		"$(fig "$ib") -> $(fig "$in") instructions a page ($(pct "$ib" "$in")); the model's Ice Lake $(fig "$eb") -> $(fig "$en") cycles ($(pct "$eb" "$en"))$own" \
		"exact count with the estimates (Debian 6.12.118 source, ci/kernel-build.sh)" "$cmd" \
		"$(awk -v r="$(ratio "$eb" "$en")" 'BEGIN { print (r >= 1 && r <= 1.042 ? "yes" : (r >= 1 ? "direction only" : "no")) }')"
}

# the functions the LOCK patch changes: mod_zone_state() and
# mod_node_state() are inlined into these
PATCHED_RE='^(mod|inc|dec)_(zone|node)_(page_)?state$|^inc_node_state$'
row_002_calls() {
	local q="how many calls a page reach the code the LOCK patch changes (page_bench01's profile)"
	local t="at most 1 call in 10 pages: +1.75 cycles a page against the patch's ~17 a call (docs/exact.md)"
	local p=$STATE/exact/profile.csv n
	((QUICK)) && { line 002 "$q" "$t" "$NO_GUEST" "not measured" "$EXACT_AB" n/a; return 1; }
	{ step_done exact && [[ -f $p ]]; } ||
		{ line 002 "$q" "$t" "$(step_why exact)" "not measured" "$EXACT_AB" n/a; return 1; }
	# both page points ([numa1], [numa0]) have this label (the sysctl is
	# not in it): the most calls of either, and the most (other) held
	n=$(awk -F, -v re="$PATCHED_RE" -v lab="$PAGE_LABEL" '
		/^#/ { next }
		!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
		$c["label"] != lab || $c["side"] != "base" { next }
		$c["function"] ~ re { s += $c["calls_per_op"] }
		$c["function"] == "(other)" {
			if (s > m) m = s
			if ($c["insn_per_op"] > o) o = $c["insn_per_op"]
			s = 0; seen = 1
		}
		END { if (seen) printf "%.4g calls a page (under 0.1%% of the op a function is in (other), at most %.3g instructions a page here)\n", m, o }' "$p")
	[[ -n $n ]] || return 1
	line 002 "$q" "$t" "$n" \
		"exact count with the estimates (Debian 6.12.117 guest, init_on_alloc=0)" "$VSB profile $STATE/exact" \
		"$(awk -v n="${n%% *}" 'BEGIN { print (n <= 0.1 ? "yes" : "no") }')"
}
row_002_nohz() {
	line 002 "stale per-CPU diffs and vmstat_update interruptions on nohz_full CPUs" \
		"69 pages invisible to reclaim; 7 us and >50 us kworker interruptions" \
		"none: times of an interruption need hardware (a guest's are TCG's), and the run would pass 30 min here: the isolated bench shows where vmstat_update runs, in shapes (docs/regressions.md)" \
		"not measured" "$VSB ab --base debian:6.1.0-57 --new debian:6.12.117+deb12 --boots 2 --max-boots 2 configs/0day.sweep -o results/ab-0day" n/a
	return 1
}

# --- seed 003 ----------------------------------------------------------------

row_003_formula() {
	local q="vm_committed_as_batch: max(2 x CPUs, 32, RAM pages / CPUs / 256) under OVERCOMMIT_NEVER, RAM pages / CPUs / 4 otherwise"
	local t="the formula (no machine's values given)"
	local f out='' ok=yes cpus pages never other want_n want_o
	step_done batch ||
		{ line 003 "$q" "$t" "$(step_why batch)" "not measured" "$BATCH_CMD" n/a; return 1; }
	for f in "$STATE/batch/here.csv" "$STATE/batch/big.csv"; do
		cpus=$(csv_where "$f" cpus item=committed_as_batch zone=never) &&
		pages=$(csv_where "$f" managed_pages item=committed_as_batch zone=never) &&
		never=$(csv_where "$f" value item=committed_as_batch zone=never) &&
		other=$(csv_where "$f" value item=committed_as_batch zone=guess) && [[ -n $other ]] || return 1
		want_n=$(( pages / cpus / 256 )); ((want_n > 2 * cpus)) || want_n=$((2 * cpus)); ((want_n > 32)) || want_n=32
		want_o=$(( pages / cpus / 4 )); ((want_o > 2 * cpus)) || want_o=$((2 * cpus)); ((want_o > 32)) || want_o=32
		[[ $never == "$want_n" && $other == "$want_o" ]] || ok=no
		out+="${out:+; }$cpus CPUs, $pages pages: $never never, $other otherwise (formula $want_n, $want_o)"
	done
	line 003 "$q" "$t" "$out" "model" "$BATCH_CMD" "$ok"
}
row_003_mmap() {
	local q="mmap + munmap of 128 MiB on 2 CPUs, overcommit policy 2 (batch below the mapping: the spinlock) -> 0 (above it)"
	local t="+53% throughput (8C/16T), x20 (4S/72C/144T)"
	local s=$STATE/mmap/sweep.csv o2 o0
	step_done mmap ||
		{ line 003 "$q" "$t" "$(step_why mmap)" "not measured" "$MMAP_CMD" n/a; return 1; }
	o2=$(csv_where "$s" ops_per_sec_median sysctl=vm.overcommit_memory=2) &&
	o0=$(csv_where "$s" ops_per_sec_median sysctl=vm.overcommit_memory=0) && [[ -n $o0 && -n $o2 ]] || return 1
	line 003 "$q" "$t" "$(fig "$o2") -> $(fig "$o0") pairs/s ($(pct "$o2" "$o0"))" "timed on this host" "$MMAP_CMD" \
		"$(agree 1.53 "$(ratio "$o2" "$o0")")"
}
row_003_sum() {
	line 003 "percpu_counter_sum()'s cost against the CPUs" "~0.8 us (4 CPUs) to 2-3 us (72 threads); 30-40 us under contention" \
		"none: a time on 4 to 72 CPUs needs that hardware; in guests of 2-8 vCPUs its growth is a TCG-timed shape, ~10 min (docs/measurements.md)" \
		"not measured" "ci/kstat-shapes 2 4 8" n/a
	return 1
}

# --- seed 004 ----------------------------------------------------------------

row_004_model() {
	local q="refresh_zone_stat_thresholds() at every CPU online, 1024 CPUs, 1 -> 16 nodes"
	local t="224 ms -> 4.5 s (x20)"
	local f=$STATE/refresh/refresh.csv i1 i16 s1 s16 d16
	step_done refresh ||
		{ line 004 "$q" "$t" "$(step_why refresh)" "not measured" "$REFRESH_CMD" n/a; return 1; }
	i1=$(csv_where "$f" iterations approach=every-online nodes=1 ncpus=1024) &&
	i16=$(csv_where "$f" iterations approach=every-online nodes=16 ncpus=1024) &&
	s1=$(csv_where "$f" seconds approach=every-online nodes=1 ncpus=1024) &&
	s16=$(csv_where "$f" seconds approach=every-online nodes=16 ncpus=1024) &&
	d16=$(csv_where "$f" seconds approach=per-node nodes=16 ncpus=1024) && [[ -n $d16 ]] || return 1
	line 004 "$q" "$t" \
		"$i1 -> $i16 iterations (x$(fig "$(ratio "$i1" "$i16")")); $(fig "$s1") -> $(fig "$s16") s of the model on this host; the review's per-node way at 16 nodes $(fig "$d16") s" \
		"model" "$REFRESH_CMD" "$(agree 20.09 "$(ratio "$i1" "$i16")")"
}
row_004_boot() {
	line 004 "the same at boot, in a kernel" "224 ms (1024 CPUs, 1 node), 4.5 s (16 nodes)" \
		"none: a guest of 1024 vCPUs does not boot under TCG on 2 host CPUs in 30 min; the growth from 2 to 32 vCPUs and 1 to 8 nodes is ci/hotplug-scaling.sh's (a TCG-timed shape, docs/measurements.md)" \
		"not measured" "ci/hotplug-scaling.sh results/hotplug" n/a
	return 1
}

# --- 7c83912062c8 ------------------------------------------------------------

row_lameter() {
	local q="the vmstat update under irq-disable (__mod_zone_page_state) against this_cpu_cmpxchg (mod_zone_page_state)"
	local t="170 -> 32 cycles (x5.3)"
	local ei ec ii ic
	((QUICK)) && { line 7c83912062c8 "$q" "$t" "$NO_GUEST" "not measured" "$EXACT_AB" n/a; return 1; }
	step_done exact ||
		{ line 7c83912062c8 "$q" "$t" "$(step_why exact)" "not measured" "$EXACT_AB" n/a; return 1; }
	ii=$(est base lameter-irq insn_per_op) && ic=$(est base lameter-cmpxchg insn_per_op) &&
	ei=$(est base lameter-irq est_cycles_skl) && ec=$(est base lameter-cmpxchg est_cycles_skl) && [[ -n $ec ]] || return 1
	line 7c83912062c8 "$q" "$t" \
		"$(fig "$ii") -> $(fig "$ic") instructions an op; the model's Skylake $(fig "$ei") -> $(fig "$ec") cycles (x$(fig "$(ratio "$ec" "$ei")"))" \
		"exact count with the estimates (Debian 6.12.117 guest)" "$EXACT_AB" \
		"$(agree 5.3125 "$(ratio "$ec" "$ei")")"
}

seeds_rows() {
	row 000-single row_000_single
	row 000-parallel row_000_parallel
	row 001-folds row_001_folds
	row 001-cost row_001_cost
	row 001-kernel row_001_kernel
	row 002-lock row_002_lock
	row 002-calls row_002_calls
	row 002-nohz row_002_nohz
	row 003-formula row_003_formula
	row 003-mmap row_003_mmap
	row 003-sum row_003_sum
	row 004-model row_004_model
	row 004-boot row_004_boot
	row 7c83912062c8 row_lameter
}
