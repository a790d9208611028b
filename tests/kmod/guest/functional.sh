# SPDX-License-Identifier: GPL-2.0
#
# In-guest functional checks of vmstat_bench.ko with 2 vCPUs (see
# tests/kmod/functional.sh): ABI, every counter variant on 1 and 2
# CPUs, the timed loop with preemption and irqs off, page-alloc at every
# order, outstanding pages, page-alloc-parallel, EBUSY, EINTR within 1 s
# (ioctl and CLI), the time limit, no kthread left, no page leak after
# 100 runs.  Loops are tiny: under TCG timings are emulated; this checks
# function and safety, not speed.
. tests/kmod/guest/lib.sh
H=${H:-build/tests-kmod}

if [ -c /dev/vmstat_bench ] && [ "$(stat -c %a /dev/vmstat_bench)" = 600 ]; then
	t_ok "/dev/vmstat_bench is a char device, mode 0600"
else
	t_fail "/dev/vmstat_bench is a char device, mode 0600"
fi
[ "$("$H"/kmod_stress version)" = 2 ] && t_ok "VERSION handshake: ABI 2" ||
	t_fail "VERSION handshake: ABI 2"
"$H"/kmod_stress unknown

for v in this-cpu-add plain-fold irqsave cmpxchg-local cmpxchg-locked \
	 atomic-global percpu-counter; do
	for c in 0 0-1; do
		t_sane "counter $v on CPUs $c: sanity ok" --variant $v --cpus $c \
			--loops 20000 --repeat 2 --warmup 1
	done
done
t_sane "cmpxchg-locked s16 threshold 4096, 4 items, delta -3" --variant cmpxchg-locked \
	--diff-bits 16 --threshold 4096 --items 4 --delta -3 --cpus 0-1 --loops 20000 --repeat 2
t_sane "plain-fold s32 threshold 100000" --variant plain-fold --diff-bits 32 \
	--threshold 100000 --cpus 0-1 --loops 20000 --repeat 2
t_sane "this-cpu-add s8 wraps, checked mod 2^8" --variant this-cpu-add --cpus 0-1 \
	--loops 1001 --repeat 3
t_sane "percpu-counter --batch 7, 3 items" --variant percpu-counter --batch 7 --items 3 \
	--cpus 0-1 --loops 20000 --repeat 2
t_sane "irqsave with --irqs off" --variant irqsave --irqs off --cpus 0-1 --loops 20000 --repeat 2
t_sane "cmpxchg-local with --preempt off" --variant cmpxchg-local --preempt off --cpus 0-1 \
	--loops 20000 --repeat 2

o=0
while [ $o -le 10 ]; do
	l=2000
	[ $o -gt 3 ] && l=40
	t_sane "page-alloc order $o: vmstat deltas >= pages" --bench page-alloc --order $o \
		--loops $l --repeat 2 --warmup 1
	o=$((o + 1))
done
t_sane "page-alloc --outstanding 64 (page_bench02)" --bench page-alloc --outstanding 64 \
	--loops 2048 --repeat 2
t_sane "page-alloc --irqs off (GFP_ATOMIC)" --bench page-alloc --irqs off --loops 2000 --repeat 2
t_sane "page-alloc order 3 --preempt off --gfp atomic" --bench page-alloc --order 3 \
	--preempt off --gfp atomic --loops 500 --repeat 2
t_sane "page-alloc-parallel on CPUs 0-1 (page_bench03)" --bench page-alloc-parallel \
	--cpus 0-1 --loops 2000 --repeat 2
t_sane "page-alloc-parallel --outstanding 128 order 1" --bench page-alloc-parallel \
	--cpus 0-1 --outstanding 128 --order 1 --loops 1024 --repeat 2
t_run "--gfp kernel with --irqs off is a usage error" 2 \
	"$VSB" run --bench page-alloc --gfp kernel --irqs off
t_run "page-alloc on 2 CPUs is a usage error" 2 "$VSB" run --bench page-alloc --cpus 0-1
# a page bench's sweep spread over worker processes: each worker reads
# back the partial file the one before wrote (its gfp once said "auto"
# where the result said "kernel", and every page point failed)
printf 'name pb\nbackend kmod\nrepeat 4\nloops 1000\n[one]\nbench page-alloc\ncpus 0\n[par]\nbench page-alloc-parallel\ncpus 0-1\n[atomic]\nbench page-alloc\ncpus 0\npreempt off\n' >"$T/pb.sweep"
t_run "page-bench sweep over 4 worker processes: every point done" 0 \
	"$VSB" sweep "$T/pb.sweep" --procs 4 -o "$T/pb"
t_grep "... no point failed" '0 failed' "$T/out"
t_grep "... gfp atomic under --preempt off, in the sweep's CSV" ',off,on,atomic,' "$T/pb/sweep.csv"

# results come back: CSV and JSON, checked on the host too
t_sane "counter CSV to /out" --variant cmpxchg-locked --cpus 0-1 --loops 10000 --repeat 3 \
	-o /out/counter.csv
t_sane "page-alloc-parallel JSON to /out" --bench page-alloc-parallel --cpus 0-1 \
	--loops 1000 --repeat 2 -o /out/pages.json

# --backend auto takes the module when /dev/vmstat_bench is there (the
# host checks the backend column of /out/auto.csv); info says it answers
t_run "--backend auto runs with the module loaded" 0 "$VSB" run --backend auto \
	--variant cmpxchg-local --cpus 0 --loops 1000 --repeat 1 -o /out/auto.csv
"$VSB" info >"$T/info" 2>"$T/err"
t_grep "info: module loaded, ABI version 2" 'loaded (/dev/vmstat_bench), ABI version 2' "$T/info"

# fold policies (kmod/fold.c): the combinations a variant survives balance
fl="--cpus 0-1 --fold-interval-us 100 --loops 20000 --repeat 2 --warmup 1"
for v in irqsave cmpxchg-local cmpxchg-locked; do
	# shellcheck disable=SC2086
	t_sane "counter $v, --fold local (pinned hrtimer) every 100 us: sanity ok" \
		--variant $v --fold local $fl
done
# shellcheck disable=SC2086
t_sane "counter cmpxchg-locked, --fold remote (shepherd) + --drift: sanity ok" \
	--variant cmpxchg-locked --fold remote --drift $fl
t_grep "... the reader's drift line is printed" '^drift (fold remote): ' "$T/out"
t_run "plain-fold --fold local is refused without VSB_UNSAFE_FOLD (exit 2)" 2 \
	"$VSB" run --backend kmod --variant plain-fold --fold local --cpus 0-1
t_run "cmpxchg-local --fold remote is refused without VSB_UNSAFE_FOLD (exit 2)" 2 \
	"$VSB" run --backend kmod --variant cmpxchg-local --fold remote --cpus 0-1

# t_miscounts DESC TRIES IF_BALANCED VARIANT FOLD CPUS LOOPS: forced runs
# (VSB_UNSAFE_FOLD=1, a fold every 10 us) until one miscounts: exit 3 and
# "sanity: FAILED".  When all TRIES balanced, IF_BALANCED says what that
# is: fail, or skip with the reason.
t_miscounts() {
	m_d=$1 m_n=$2 m_if=$3 m_t0=$(date +%s) n=0 rc=0
	while [ $n -lt "$m_n" ]; do
		VSB_UNSAFE_FOLD=1 "$VSB" run --backend kmod --variant "$4" --fold "$5" \
			--fold-interval-us 10 --cpus "$6" --loops "$7" --repeat 3 \
			-o "$T/mis.csv" >"$T/out" 2>"$T/err"
		rc=$? n=$((n + 1))
		[ $rc -ne 0 ] && break
	done
	if [ $rc -eq 3 ] && grep -q '^sanity: FAILED' "$T/out"; then
		t_ok "$m_d: exit 3, $(sed -n 's/^sanity: FAILED: //p' "$T/out") (try $n, $(($(date +%s) - m_t0)) s)"
	elif [ $rc -eq 0 ] && [ "$m_if" = skip ]; then
		t_skip "$m_d" "no lost or doubled update in $n tries: the vCPUs did not race (busy host?)"
	else
		{ echo "#   exit $rc after $n tries"; grep '^sanity' "$T/out"
		  grep '^# fold:' "$T/mis.csv" 2>/dev/null; } >>"$T/err"
		t_fail "$m_d (exit 3)"
	fi
}

# The proof the refusal is right: a fold timer interrupting a plain
# read-modify-write (no irqs off) loses or doubles updates.  Under TCG
# an interrupt lands between translation blocks, the read and the write
# are in two of them.  One worker, so that no sample ends early for a
# vCPU the host did not run; 1M loops a sample, so that each spans many
# of the host's ms: on a busy host QEMU's timer thread can miss a short
# loop altogether (200k loops on two CPUs balanced in a third of the
# tries beside two busy loops, the timer folding only between samples;
# 1M on one CPU miscounted in 16 of 16).  Up to 3 tries.
t_miscounts "forced unsafe plain-fold + local fold miscounts" 3 fail plain-fold local 0 1000000

# And the remote one: the shepherd's xchg on another CPU lands between a
# non-LOCK cmpxchg's load and its store (TCG translates that cmpxchg as a
# plain load and store, as a real CPU's unlocked one is not atomic against
# other CPUs either), so the store puts an already folded diff back and it
# is counted twice.  Only LOCK cmpxchg (cmpxchg-locked) is safe.  The race
# needs both vCPUs running at once; when the host never ran them together
# in 10 tries, that is a skip with the reason, not a pass.
t_miscounts "forced unsafe cmpxchg-local + remote fold miscounts" 10 skip cmpxchg-local remote \
	0-1 200000

# nohz_full: CPU 1's worker goes quiet after the warm-up.  A local fold
# cannot reach its last diff (its timer is cancelled: an isolated CPU
# must not be interrupted), so it stays stale for the whole timed run
# (~0.2-0.4 s here); the remote shepherd folds it within about an
# interval.  The busy worker's slot counts too: when the host stalls its
# vCPU the slot freezes and reads as stale, so the remote maximum is
# host noise under TCG; the mean (the reader's time-average) is not.
st() { sed -n "s/^# drift: .*staleness max \([0-9]*\) us p99 \([0-9]*\) us mean \([0-9]*\).*/\\$2/p" \
	"/out/quiet-$1.csv"; }
# A threshold fold can leave the quiet diff at exactly 0 (1 in 188 for
# delta +1, threshold 125): then local has nothing stale; one retry.
# A host stall of the remote run's folder (every sample disturbed, 300
# ms gaps seen) can put its mean near local's: that run is tried again,
# once, as well.
t0=$(date +%s)
for p in local remote local2 remote2; do
	[ $p = local2 ] && [ "$(st local 1)" -ge 100000 ] 2>/dev/null && continue
	if [ $p = remote2 ]; then
		ml=$(st local 3) mr=$(st remote 3)
		[ -n "$ml" ] && [ -n "$mr" ] && [ "$ml" -gt $((mr * 5 + 1000)) ] && continue
	fi
	p=${p%2}
	"$VSB" run --backend kmod --variant cmpxchg-locked --cpus 0-1 --quiet-workers 1 \
		--drift --fold $p --fold-interval-us 100 --loops 1000000 --repeat 8 \
		--warmup 1 -o /out/quiet-$p.csv >"$T/q$p" 2>"$T/err" ||
		echo "#   quiet $p: exit $?" >>"$T/qerr"
done
sl=$(st local 1) sr=$(st remote 1) ml=$(st local 3) mr=$(st remote 3)
echo "# quiet worker, interval 100 us: staleness max/p99/mean local ${sl:-?}/$(st local 2)/${ml:-?} us, remote ${sr:-?}/$(st remote 2)/${mr:-?} us ($(($(date +%s) - t0)) s)"
# 5x: with the host busy (8.5% of the time lost, every sample disturbed)
# vCPU stalls of 110 ms put the remote mean at 31 ms against 210 local
if [ -n "$sl" ] && [ -n "$mr" ] && [ "$sl" -ge 100000 ] && [ "$ml" -gt $((5 * mr + 1000)) ]; then
	t_ok "quiet worker: local fold leaves its diff stale (max $sl us, mean $ml us), remote folds it (mean $mr us)"
else
	cat "$T/qerr" "$T/qlocal" "$T/qremote" 2>/dev/null | tail -6 >"$T/err"
	t_fail "quiet worker: local fold leaves its diff stale, remote folds it"
fi
grep -q '^sanity: ok' "$T/qlocal" && grep -q '^sanity: ok' "$T/qremote" &&
	t_ok "quiet worker runs: sanity ok under both policies" ||
	t_fail "quiet worker runs: sanity ok under both policies"
t_sane "drift fields in JSON to /out" --variant cmpxchg-locked --cpus 0-1 --fold remote \
	--fold-interval-us 100 --drift --loops 20000 --repeat 2 -o /out/drift.json
"$H"/kmod_stress fold

# kstat: the kernel's own statistics functions (kmod/kstat.c).  The
# ioctl checks first, with the module as loaded (no threshold of a run's
# own: EPERM), then again after a reload that allows one.
"$H"/kmod_stress kstat
if rmmod vmstat_bench && insmod kmod/vmstat_bench.ko kstat_set_threshold=1; then
	t_ok "module reloaded with kstat_set_threshold=1"
	"$H"/kmod_stress kstat
else
	t_fail "module reloaded with kstat_set_threshold=1"
fi
kl="--bench kstat --cpus 0-1 --loops 4000 --repeat 2 --warmup 1"
for op in bare empty mod-zone __mod-zone inc-dec-zone mod-node __mod-node vm-event \
	  percpu-counter-add cli-sti irqsave this-cpu-cmpxchg lock-cmpxchg this-cpu-add; do
	# shellcheck disable=SC2086
	t_sane "kstat $op on CPUs 0-1: sanity ok, counts back" --op $op $kl \
		-o /out/kstat-$op.csv
done
# shellcheck disable=SC2086
t_sane "kstat percpu-counter-sum, CPU 1 adding: sanity ok" --op percpu-counter-sum \
	--busy-workers 1 --batch 8 $kl -o /out/kstat-percpu-counter-sum.csv
# shellcheck disable=SC2086
t_sane "kstat mod-zone, threshold 16 for the run: sanity ok" --op mod-zone --threshold 16 \
	$kl -o /out/kstat-thr16.csv
# shellcheck disable=SC2086
t_sane "kstat lruvec, 3 memory cgroups down: sanity ok" --op lruvec --memcg-depth 3 $kl \
	-o /out/kstat-lruvec.csv
t_grep "... its page was charged to the memory cgroup" '^# kstat_page: charged to the memory cgroup' \
	/out/kstat-lruvec.csv
left=$(find /sys/fs/cgroup /run/vmstat-bench -maxdepth 2 -name 'vmstat-bench.*' 2>/dev/null)
mounted=$(grep -c ' /run/vmstat-bench/cgroup2 ' /proc/self/mountinfo)
if [ -z "$left" ] && [ "$mounted" = 0 ]; then
	t_ok "kstat lruvec left no memory cgroup and no cgroup2 mount"
else
	echo "#   left: $left; mounts: $mounted" >"$T/err"
	t_fail "kstat lruvec left no memory cgroup and no cgroup2 mount"
fi
# a run killed inside its memory cgroups: the next `restore` removes them
"$VSB" run --bench kstat --op lruvec --memcg-depth 2 --cpus 0 --loops 100000000 \
	--repeat 100 >/dev/null 2>&1 &
kp=$!
i=0
while [ $i -lt 50 ] && ! grep -q ' /run/vmstat-bench/cgroup2 ' /proc/self/mountinfo; do
	sleep 0.1
	i=$((i + 1))
done
sleep 0.5
kill -9 $kp
wait $kp 2>/dev/null
sleep 0.5
"$VSB" restore >"$T/out" 2>"$T/err"
rc=$?
left=$(find /run/vmstat-bench/cgroup2 -maxdepth 1 -name 'vmstat-bench.*' 2>/dev/null)
mounted=$(grep -c ' /run/vmstat-bench/cgroup2 ' /proc/self/mountinfo)
if [ $rc = 0 ] && [ -z "$left" ] && [ "$mounted" = 0 ] && grep -q 'memory cgroup' "$T/out"; then
	t_ok "SIGKILL inside --memcg-depth 2, then restore: $(grep 'memory cgroup' "$T/out")"
else
	echo "#   restore exit $rc; left: $left; mounts: $mounted" >>"$T/err"
	cat "$T/out" >>"$T/err"
	t_fail "SIGKILL inside --memcg-depth 2, then restore: cgroups and mount removed"
fi
t_run "kstat: an unknown op is a usage error" 2 "$VSB" run --bench kstat --op nosuch
t_run "kstat: --delta -1 is a usage error" 2 "$VSB" run --bench kstat --delta -1
t_run "kstat: --delta 2 for inc-dec-zone is a usage error" 2 "$VSB" run --bench kstat \
	--op inc-dec-zone --delta 2
t_run "kstat: --run-length 0 is a usage error" 2 "$VSB" run --bench kstat --run-length 0
t_run "kstat: --threshold 126 is a usage error" 2 "$VSB" run --bench kstat --threshold 126
t_run "kstat: --threshold for vm-event is a usage error" 2 "$VSB" run --bench kstat \
	--op vm-event --threshold 8
t_run "kstat: every worker busy is a usage error" 2 "$VSB" run --bench kstat \
	--op percpu-counter-sum --cpus 0-1 --busy-workers 2
rmmod vmstat_bench && insmod kmod/vmstat_bench.ko
t_run "kstat: a threshold without kstat_set_threshold=1 is a skip (exit 4)" 4 \
	"$VSB" run --bench kstat --threshold 16 --loops 1000 --repeat 1
# an op the module says it lacks (as without memcg): a skip with the reason
rmmod vmstat_bench && insmod kmod/vmstat_bench.ko kstat_ops_off=256
t_run "kstat: an op the module lacks is a skip (exit 4)" 4 \
	"$VSB" run --bench kstat --op lruvec --loops 1000 --repeat 1
t_grep "... naming the op and why it may be missing" \
	'--op lruvec: not in this module on this kernel: the kernel has no CONFIG_MEMCG' "$T/err"
rmmod vmstat_bench && insmod kmod/vmstat_bench.ko
t0=$(date +%s)
if "$H"/kmod_fuzz 1000 "${VSB_FUZZ_SEED:-7}" >"$T/out" 2>"$T/err"; then
	t_ok "2 CPUs: $(cat "$T/out") ($(($(date +%s) - t0)) s)"
else
	cat "$T/out" >>"$T/err"
	t_fail "2 CPUs: fuzz with fold policies, quiet workers, the reader, ABI 1"
fi

# the time limit cuts a run with a clear error
t0=$(date +%s)
"$VSB" run --backend kmod --variant cmpxchg-local --loops 1000000000 --repeat 1000 \
	--time-limit 1 >"$T/out" 2>"$T/err"
rc=$? t1=$(date +%s)
if [ $rc -eq 1 ] && grep -q 'time-limit' "$T/err" && [ $((t1 - t0)) -le 4 ]; then
	t_ok "--time-limit 1 cuts a 10^12-op run: exit 1 after $((t1 - t0)) s, one clear line"
else
	t_fail "--time-limit 1 cuts a 10^12-op run (exit $rc after $((t1 - t0)) s)"
fi

"$H"/kmod_stress busy
"$H"/kmod_stress cli "$VSB"
[ "$(kthreads_left)" -eq 0 ] && t_ok "no vmstat_bench kthread left" ||
	t_fail "no vmstat_bench kthread left"

# no page leak: 100 runs between two MemFree readings, after a warm-up
# run that fills the per-CPU lists the runs keep reusing.  Those lists
# (orders 0-3 and THP, two CPUs) still swing MemFree by about 2 MiB, so
# the bound is 8 MiB: a leak of 20 pages a run shows, and leaking what a
# run holds (64 pages, 32 order-2 blocks per CPU, or one block of order
# up to 10) would be far past it.
"$VSB" run --bench page-alloc-parallel --cpus 0-1 --outstanding 256 --loops 512 \
	--repeat 1 >/dev/null 2>&1
sync
m0=$(memfree_kb)
bad=0
"$H"/kmod_stress runs 100 2>"$T/err" || bad=1
sync
m1=$(memfree_kb)
d=$((m0 - m1))
echo "# MemFree before $m0 kB, after 100 runs $m1 kB (drop $d kB)"
[ $bad -eq 0 ] && t_ok "100 mixed runs all succeed and are sane" || t_fail "100 mixed runs all succeed and are sane"
if [ $d -lt 8192 ]; then
	t_ok "no page leak: MemFree after 100 runs within 8 MiB of before ($d kB)"
else
	t_fail "no page leak: MemFree after 100 runs within 8 MiB of before ($d kB)"
fi
# and none lost to signals: 10 runs cycling 4096 pages per CPU, each ended
# mid-run by SIGUSR1 (after the check above: its own MemFree pair)
"$H"/kmod_stress sigleak 10

# issue 11: each sample carries the module's disturbance counts (long
# batches: the tick must show); keep, so every attempt is in the file;
# retry must end in a result too.  Checked on the host (functional.sh).
if "$VSB" run --backend kmod --variant cmpxchg-local --cpus 0-1 --loops 2000000 \
	--repeat 3 --warmup 1 --disturbed keep -o /out/disturb.csv >/out/disturb.txt 2>/out/disturb.err; then
	t_ok "--disturbed keep on the module: a result"
else
	t_fail "--disturbed keep on the module: a result ($(tail -1 /out/disturb.err))"
fi
if "$VSB" run --backend kmod --variant cmpxchg-local --cpus 0-1 --loops 200000 \
	--repeat 3 --disturbed retry >/out/disturb_retry.txt 2>&1; then
	t_ok "--disturbed retry on the module: a result"
else
	t_fail "--disturbed retry on the module: a result ($(tail -1 /out/disturb_retry.txt))"
fi
exit 0
