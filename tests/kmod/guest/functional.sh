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
[ "$("$H"/kmod_stress version)" = 1 ] && t_ok "VERSION handshake: ABI 1" ||
	t_fail "VERSION handshake: ABI 1"
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

# results come back: CSV and JSON, checked on the host too
t_sane "counter CSV to /out" --variant cmpxchg-locked --cpus 0-1 --loops 10000 --repeat 3 \
	-o /out/counter.csv
t_sane "page-alloc-parallel JSON to /out" --bench page-alloc-parallel --cpus 0-1 \
	--loops 1000 --repeat 2 -o /out/pages.json

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
# run that fills the per-CPU lists the runs keep reusing
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
if [ $d -lt 2048 ]; then
	t_ok "no page leak: MemFree after 100 runs within 2 MiB of before ($d kB)"
else
	t_fail "no page leak: MemFree after 100 runs within 2 MiB of before ($d kB)"
fi
exit 0
