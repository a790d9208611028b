#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `vmstat-bench info` and the environment record in result files: the
# topology matches sysfs, PMU verdicts are per event, the kernel config
# and the vm_committed_as batch are there, bad options are usage errors.
. "$(dirname "$0")/../lib.sh"

"$VSB" info >"$TMP/info" 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ] && ok "info exits 0" || not_ok "info exits 0" "exit $rc" "$(head -3 "$TMP/err")"
ncpu=$(grep -c '^processor' /proc/cpuinfo)
if grep -qE "^[0-9]+ sockets? x [0-9]+ cores? x [0-9]+ threads?, [0-9]+ NUMA nodes?, $ncpu CPUs?" "$TMP/info"; then
	ok "info: topology summary covers the $ncpu CPUs of /proc/cpuinfo"
else
	not_ok "info: topology summary" "$(sed -n 2p "$TMP/info")"
fi
sock=$(cat /sys/devices/system/cpu/cpu*/topology/physical_package_id | sort -u | wc -l)
grep -qE "^$sock sockets? x" "$TMP/info" && ok "info: $sock socket(s), as sysfs says" ||
	not_ok "info: socket count matches sysfs" "$(sed -n 2p "$TMP/info")"
grep -qE '^== topology \((likwid \(agrees with sysfs\)|sysfs.*)\)' "$TMP/info" &&
	ok "info: says where the topology came from ($(sed -n 1p "$TMP/info"))" ||
	not_ok "info: topology source" "$(sed -n 1p "$TMP/info")"
if grep -qE '^perf::TASK-CLOCK +(ok|eacces) ' "$TMP/info" && grep -qE '^cycles +(ok|no-pmu|eacces|error) ' "$TMP/info"; then
	ok "info: one verdict per event"
else
	not_ok "info: one verdict per event" "$(grep -A5 '== PMU' "$TMP/info")"
fi
for key in kernel_config perf_event_paranoid tsc_invariant hypervisor governor cpufreq_driver smt \
	isolated_cpus nohz_full_cpus aslr vm.stat_interval vm.numa_stat vm.overcommit_memory \
	vm_committed_as_batch module build_type git_revision command numa_nodes_online turbo; do
	grep -q "^$key: ." "$TMP/info" || missing="$missing $key"
done
[ -z "${missing:-}" ] && ok "info: every record key present" || not_ok "info: keys missing:$missing"
grep -qE '^kernel_config: (HAVE_CMPXCHG_LOCAL=[yn] \(vmstat updates: (this_cpu_cmpxchg|irq-disable)\)|unknown)' "$TMP/info" &&
	ok "info: HAVE_CMPXCHG_LOCAL and the vmstat path it implies" || not_ok "info: kernel_config" "$(grep kernel_config "$TMP/info")"
# the batch must match mm_compute_batch for this machine
oc=$(cat /proc/sys/vm/overcommit_memory)
pages=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) * 1024 / $(getconf PAGESIZE) ))
ncp=$(grep -c . <(for r in $(tr ',' ' ' </sys/devices/system/cpu/present); do seq ${r%-*} ${r#*-}; done))
div=4; [ "$oc" = 2 ] && div=256
want=$(( pages / ncp / div )); lo=$(( 2 * ncp > 32 ? 2 * ncp : 32 )); [ $want -lt $lo ] && want=$lo
grep -q "^vm_committed_as_batch: $want pages" "$TMP/info" && ok "info: vm_committed_as batch $want" ||
	not_ok "info: vm_committed_as batch" "want $want" "$(grep committed "$TMP/info")"
expect_usage_error "info: unknown event" "event 'bogus_xyz'" "$VSB" info --events bogus_xyz
expect_usage_error "info: bad plm" "not one of" "$VSB" info --plm z
expect_usage_error "info: stray argument" "unexpected argument" "$VSB" info extra
"$VSB" info --help | grep -q '^usage: vmstat-bench info' && ok "info --help" || not_ok "info --help"
"$VSB" --help | grep -qE '^  info ' && ok "info listed in --help" || not_ok "info listed in --help"

# every result carries the record
"$VSB" run --repeat 2 --loops 10000 --events perf::TASK-CLOCK -o "$TMP/r.csv" >/dev/null 2>&1
for key in topology kernel_config pmu_events pmu_verdict affinity_readback vm_committed_as_batch tsc_invariant; do
	grep -q "^# $key: ." "$TMP/r.csv" || rmissing="$rmissing $key"
done
[ -z "${rmissing:-}" ] && ok "result CSV carries the environment record" || not_ok "result CSV keys missing:$rmissing"
done_testing
