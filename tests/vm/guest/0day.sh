# SPDX-License-Identifier: GPL-2.0
#
# In-guest checks of the 0-day regressions' benches (tests/vm/shapes.sh
# boots this with 2 vCPUs of 4 possible, nohz_full=1 isolcpus=1): the
# guest's shape in the metadata, each bench briefly with its sanity line
# on cgroup v2 (mounted by the run itself, as no hierarchy is), and no
# cgroup, mount, tmpfs file or tracefs instance left after a run, or
# after a SIGKILL once `vmstat-bench restore` has run.  busybox sh.
# Prints "ok - ..." / "not ok - ..." for the host to number.
V=${VSB:-bin/vmstat-bench}
O=/tmp/0day
mkdir -p $O

t_ok() { echo "ok - $*"; }
t_fail() { echo "not ok - $*"; }
# sane DESC ARGS...: the run exits 0 with a "sanity: ok" line
sane() {
	d=$1
	shift
	if $V run "$@" >$O/out 2>$O/err && grep -q '^sanity: ok' $O/out; then
		t_ok "$d"
	else
		t_fail "$d"
		grep -E '^sanity|vmstat-bench:' $O/out $O/err | grep -v warning | head -3 |
			sed 's/^/# /'
	fi
}
# What a dead pid left: our mounts, markers, instances, cgroups
leftovers() {
	for n in /run/vmstat-bench/tmpfs.* /run/vmstat-bench/tracefs.* \
		 /run/vmstat-bench/trace.* /run/vmstat-bench/cgroup2/vmstat-bench.* \
		 /sys/kernel/tracing/instances/vmstat-bench.*; do
		[ -e "$n" ] || continue
		[ "$(cat /proc/${n##*.}/comm 2>/dev/null)" = vmstat-bench ] || echo "$n"
	done
	grep -q ' /run/vmstat-bench/cgroup2 ' /proc/mounts && echo "cgroup2 mount"
	grep -q ' /run/vmstat-bench/tmpfs' /proc/mounts && echo "tmpfs mount"
}
clean() {
	l=$(leftovers)
	[ -z "$l" ] && t_ok "$1" || { t_fail "$1"; echo "$l" | sed 's/^/# left: /'; }
}

sane "spawn, fork, on 2 vCPUs of 4 possible" --bench spawn --cpus 0 --loops 10 --repeat 2 \
	-o $O/s.csv
grep -q '^# cpus_possible: 4 (0-3)' $O/s.csv && grep -q '^# spawn_possible_cpus: 4 ' $O/s.csv &&
	grep -q '^# guest_shape: smp:2,maxcpus:4,numa:0,mem:' $O/s.csv &&
	grep -q '^# isolated_cpus: 1$' $O/s.csv &&
	t_ok "the metadata records the shape: 4 possible CPUs, CPU 1 isolated, vsb.shape" ||
	{ t_fail "the shape in the metadata"; grep -E '^# (cpus_|guest_shape|isolated_cpus)' $O/s.csv; }
sane "spawn, posix-spawn" --bench spawn --op posix-spawn --loops 10 --repeat 1
sane "fallocate on cgroup v2, depth 2" --bench fallocate --memcg-depth 2 --loops 200 --repeat 2 \
	-o $O/f.csv
grep -q '^# fallocate_memcg: /vmstat-bench\.[0-9]*/2 (depth 2, cgroup v2)' $O/f.csv &&
	t_ok "... charged to a v2 chain the run made" || t_fail "... fallocate_memcg v2"
sane "memcg-stat-read on v2, 3 siblings, a writer on CPU 1" --bench memcg-stat-read \
	--cpus 0,1 --busy-workers 1 --memcg-count 3 --loops 10 --repeat 1
sane "isolated on the nohz_full CPU 1, traced" --bench isolated --cpus 1 --loops 300 \
	--repeat 1 --gap-ns 50000 -o $O/i.csv
grep -q '^# isolated_cpu: 1: isolated (isolcpus=) and nohz_full' $O/i.csv &&
	t_ok "... it says CPU 1 is isolated and nohz_full" || t_fail "... isolated_cpu"
clean "no cgroup, mount, tmpfs file or tracefs instance left"

$V run --bench memcg-stat-read --cpus 0,1 --busy-workers 1 --memcg-count 3 \
	--loops 100000 --repeat 100 >/dev/null 2>&1 &
p=$!
i=0
while [ $i -lt 100 ] && [ ! -d /run/vmstat-bench/cgroup2/vmstat-bench.$p/c3 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -9 $p
wait $p 2>/dev/null
[ -n "$(leftovers)" ] && t_ok "memcg-stat-read killed: its cgroups and mounts are there" ||
	t_fail "memcg-stat-read killed: its leftovers"
$V restore >$O/out 2>&1 && grep -q 'removed 1 memory cgroup chain' $O/out &&
	t_ok "restore removes them" || { t_fail "restore"; sed 's/^/# /' $O/out; }
clean "... nothing left after it"
