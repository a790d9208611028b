# SPDX-License-Identifier: GPL-2.0
#
# In-guest reliability checks (see tests/kmod/reliability.sh): with CPU 1
# taken offline (one vCPU left online, and an offline CPU id for the
# fuzzer to try), every bench and variant still runs and passes its
# sanity check; >= 10,000 random and malformed ioctls get only errno
# returns; the module unloads and reloads 20 times cleanly.
. tests/kmod/guest/lib.sh
H=${H:-build/tests-kmod}

if echo 0 >/sys/devices/system/cpu/cpu1/online 2>"$T/err"; then
	t_ok "CPU 1 offline: one vCPU online"
else
	t_fail "CPU 1 offline: one vCPU online"
fi
for v in this-cpu-add plain-fold irqsave cmpxchg-local cmpxchg-locked \
	 atomic-global percpu-counter; do
	t_sane "1 vCPU: counter $v: sanity ok" --variant $v --cpus 0 --loops 20000 --repeat 2
done
t_sane "1 vCPU: page-alloc" --bench page-alloc --loops 2000 --repeat 2
t_sane "1 vCPU: page-alloc-parallel --outstanding 64" --bench page-alloc-parallel --cpus 0 \
	--outstanding 64 --loops 1024 --repeat 2

t0=$(date +%s)
if "$H"/kmod_fuzz "${VSB_FUZZ_N:-10000}" "${VSB_FUZZ_SEED:-1}" >"$T/out" 2>"$T/err"; then
	t_ok "$(cat "$T/out") ($(($(date +%s) - t0)) s)"
else
	cat "$T/out" >>"$T/err"
	t_fail "fuzz: only errno returns, every success sane"
fi
[ "$(kthreads_left)" -eq 0 ] && t_ok "no vmstat_bench kthread left after the fuzz" ||
	t_fail "no vmstat_bench kthread left after the fuzz"

i=0 bad=0
while [ $i -lt 20 ]; do
	rmmod vmstat_bench || bad=$((bad + 1))
	[ -e /dev/vmstat_bench ] && bad=$((bad + 1))
	grep -q '^vmstat_bench ' /proc/modules && bad=$((bad + 1))
	insmod kmod/vmstat_bench.ko || bad=$((bad + 1))
	[ "$("$H"/kmod_stress version 2>/dev/null)" = 2 ] || bad=$((bad + 1))
	i=$((i + 1))
done
[ $bad -eq 0 ] && t_ok "unload + reload 20 times, device answers each time" ||
	t_fail "unload + reload 20 times ($bad problems)"
t_sane "a run after 20 reloads" --variant percpu-counter --cpus 0 --loops 1000 --repeat 1
exit 0
