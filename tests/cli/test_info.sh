#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `vmstat-bench info` and the environment record in result files: the
# topology matches sysfs, PMU verdicts are per event, the kernel config
# and the vm_committed_as batch are there, bad options are usage errors;
# likwid's cross-check of the topology is kept for the boot, safely.
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
grep -qE '^== topology \((likwid \(agrees with sysfs\)(, checked earlier this boot)?|sysfs.*)\)$' "$TMP/info" &&
	ok "info: says where the topology came from ($(sed -n 1p "$TMP/info"))" ||
	not_ok "info: topology source" "$(sed -n 1p "$TMP/info")"
if grep -qE '^perf::TASK-CLOCK +(ok|eacces) ' "$TMP/info" && grep -qE '^cycles +(ok|no-pmu|eacces|error) ' "$TMP/info"; then
	ok "info: one verdict per event"
else
	not_ok "info: one verdict per event" "$(grep -A5 '== PMU' "$TMP/info")"
fi
for key in kernel_config perf_event_paranoid tsc_invariant hypervisor governor cpufreq_driver smt \
	isolated_cpus nohz_full_cpus aslr vm.stat_interval vm.numa_stat vm.overcommit_memory \
	vm_committed_as_batch module build_type git_revision command numa_nodes_online turbo damon; do
	grep -q "^$key: ." "$TMP/info" || missing="$missing $key"
done
[ -z "${missing:-}" ] && ok "info: every record key present" || not_ok "info: keys missing:$missing"
# the revision is the checkout's now, not the one the build was first
# made at (the Makefile's git-rev stamp rebuilds meta.o when it changes);
# ci/git-rev.sh is what the Makefile asks (test_git_rev.sh tests it)
if git -C "$VSB_ROOT" rev-parse --git-dir >/dev/null 2>&1 && rev=$("$VSB_ROOT/ci/git-rev.sh" "$VSB_ROOT"); then
	grep -qx "git_revision: $rev" "$TMP/info" &&
		ok "info: git_revision is the checkout's ($rev)" ||
		not_ok "info: git_revision is the checkout's" "want $rev" "$(grep '^git_revision' "$TMP/info")"
else
	skip "info: git_revision is the checkout's" "not a git checkout"
fi
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
# likwid's cross-check, kept for the boot (lib/machine/topo_cache.h): the
# first process after the cache is cleared checks and writes the answer,
# the next reads it and says so; a file there this user did not write,
# or that others may write, or cut short, is neither read nor replaced
SD=/run/vmstat-bench
src() {	# src: the topology_source line of a short run's result
	"$VSB" run --variant cmpxchg-local --cpus 0 --loops 2000 --repeat 1 --warmup 0 \
		--events none -o "$TMP/src.csv" >/dev/null 2>&1
	sed -n 's/^# topology_source: //p' "$TMP/src.csv"
}
if [ "$(id -u)" != 0 ]; then
	skip "topology cross-check kept for the boot" "not root: $SD is root's"
elif [[ $(src) != likwid* ]]; then
	skip "topology cross-check kept for the boot" "likwid not loaded here: $(src)"
else
	rm -f "$SD"/topo-*
	first=$(src)
	f=$(ls "$SD"/topo-* 2>/dev/null)
	second=$(src)
	if [ "$first" = "likwid (agrees with sysfs)" ] && [ -n "$f" ] && [ "$(wc -w <<<"$f")" = 1 ] &&
	   [ "$second" = "likwid (agrees with sysfs), checked earlier this boot" ]; then
		ok "topology: checked by likwid once, then read ($(basename "$f"))"
	else
		not_ok "topology: checked by likwid once, then read" "first: $first" "second: $second" "files: $f"
	fi
	for how in owner mode short; do
		rm -f "$SD"/topo-*
		src >/dev/null
		f=$(ls "$SD"/topo-*)
		case $how in
		owner) chown nobody "$f"; what="of another owner" ;;
		mode)  chmod 664 "$f"; what="others may write" ;;
		short) truncate -s 100 "$f"; what="cut short" ;;
		esac
		before=$(stat -c '%U %a %s %Y %i' "$f")
		again=$(src)
		[ "$again" = "likwid (agrees with sysfs)" ] && [ "$(stat -c '%U %a %s %Y %i' "$f")" = "$before" ] &&
			ok "topology cache: a file $what is not read, not replaced" ||
			not_ok "topology cache: a file $what" "source: $again" "$before vs $(stat -c '%U %a %s %Y %i' "$f")"
	done
	rm -f "$SD"/topo-*
fi
done_testing
