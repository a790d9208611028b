#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# --sysctl: bad names and values are refused before anything runs, and
# the original values come back on every way out: normal end, an error,
# SIGINT, SIGTERM and SIGHUP in the middle of a run and of a sweep, and
# SIGKILL of a run and of a sweep (through the state file: the next
# start, or `restore`).
# Only harmless sysctls are touched (vm.stat_interval, vm.numa_stat), and
# this script puts them back in its own trap too.
. "$(dirname "$0")/../lib.sh"

SI=/proc/sys/vm/stat_interval
NS=/proc/sys/vm/numa_stat
export VSB_SYSCTL_STATE="$TMP/sysctl.state"

if [ "$(id -u)" != 0 ]; then
	expect_exit 4 "not root: --sysctl is a skip (exit 4)" \
		"$VSB" run --bench page-fault --size 4M --sysctl vm.stat_interval=2
	grep -q "needs root" "$TMP/err" && ok "the skip says root is needed" ||
		not_ok "the skip says root is needed" "$(cat "$TMP/err")"
	done_testing
	exit
fi
if [ ! -w "$SI" ] || [ ! -w "$NS" ]; then
	skip "sysctl restore" "no writable $SI and $NS (kernel without CONFIG_NUMA?)"
	done_testing
	exit
fi

orig_si=$(cat "$SI") orig_ns=$(cat "$NS")
trap 'echo "$orig_si" >"$SI"; echo "$orig_ns" >"$NS"; rm -rf "$TMP"' EXIT
new_si=$([ "$orig_si" = 3 ] && echo 4 || echo 3)
new_ns=$((1 - orig_ns))

back() {	# back DESCRIPTION: both values original, no state file
	local d=$1 si ns
	si=$(cat "$SI") ns=$(cat "$NS")
	if [ "$si" = "$orig_si" ] && [ "$ns" = "$orig_ns" ] && [ ! -e "$VSB_SYSCTL_STATE" ]; then
		ok "$d"
	else
		not_ok "$d" "stat_interval $si (want $orig_si), numa_stat $ns (want $orig_ns)," \
			"state file: $(cat "$VSB_SYSCTL_STATE" 2>/dev/null || echo none)"
		echo "$orig_si" >"$SI"; echo "$orig_ns" >"$NS"; rm -f "$VSB_SYSCTL_STATE"
	fi
}

changed() {	# changed: wait (10 s at most) until a run has changed a value
	local i
	for i in $(seq 200); do
		[ -e "$VSB_SYSCTL_STATE" ] &&
			{ [ "$(cat "$SI")" != "$orig_si" ] || [ "$(cat "$NS")" != "$orig_ns" ]; } &&
			return 0
		sleep 0.05
	done
	return 1
}

# ---- refused before the run ----
bad() {		# bad DESCRIPTION PATTERN SPEC
	expect_usage_error "$1" "$2" "$VSB" run --bench page-fault --size 4M --sysctl "$3"
}
bad "unknown sysctl" "--sysctl: unknown sysctl 'vm.no_such_knob'" vm.no_such_knob=1
bad "a sysctl outside vm.*" "--sysctl: 'kernel.osrelease=1': vmstat-bench sets vm.\\* sysctls only" \
	kernel.osrelease=1
bad "a writable sysctl outside vm.*" "sets vm.\\* sysctls only .*, not kernel.printk_ratelimit_burst" \
	kernel.printk_ratelimit_burst=11
bad "invalid value of a known sysctl" "--sysctl: '7' is not a valid vm.numa_stat" vm.numa_stat=7
bad "stat_interval 0" "--sysctl: '0' is not a valid vm.stat_interval" vm.stat_interval=0
bad "text for a numeric sysctl" "--sysctl: 'lots' does not look like a value of vm.swappiness" \
	vm.swappiness=lots
bad "no value" "--sysctl: 'vm.numa_stat=' is not NAME=VALUE" vm.numa_stat=
bad "a list on run" "a list of values is a sweep axis" vm.numa_stat=0,1
back "nothing changed by refused runs"
printf 'bench page-fault\nsize 4M\nsysctl vm.stat_interval=1,0\n' >"$TMP/bad.sweep"
expect_exit 2 "a bad value in a sweep axis is refused before the sweep" \
	"$VSB" sweep "$TMP/bad.sweep" -o "$TMP/bad"
grep -q "bad.sweep:3: .*vm.stat_interval" "$TMP/err" && ok "the sweep error names file:line" ||
	not_ok "the sweep error names file:line" "$(cat "$TMP/err")"

# ---- normal end ----
"$VSB" run --bench page-fault --size 4M --repeat 2 --sysctl vm.numa_stat=$new_ns \
	-o "$TMP/r.csv" >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ] && ok "run with --sysctl succeeds" || not_ok "run with --sysctl succeeds" "exit $rc" "$(cat "$TMP/err")"
grep -q "^# sysctl_applied: vm.numa_stat=$new_ns (original $orig_ns" "$TMP/r.csv" &&
	grep -q ",vm.numa_stat=$new_ns," "$TMP/r.csv" &&
	ok "the result records the sysctl (metadata and column)" ||
	not_ok "the result records the sysctl" "$(grep -i sysctl "$TMP/r.csv" | head -3)"
back "normal end: value restored, state file removed"

# ---- an error after the change ----
"$VSB" run --bench mmap --size 512G --repeat 1 --warmup 0 --loops 1 \
	--sysctl vm.numa_stat=$new_ns >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 1 ] && grep -q "mmap of 512 GiB failed" "$TMP/err" &&
	ok "a failing run exits 1 (mmap of 512 GiB refused)" ||
	not_ok "a failing run exits 1" "exit $rc" "$(cat "$TMP/err")"
back "error: value restored"

# ---- signals in the middle of a run ----
for sig in INT TERM HUP; do
	"$VSB" run --bench page-fault --size 16M --cpus 0 --repeat 1000 \
		--sysctl vm.stat_interval=$new_si >/dev/null 2>"$TMP/err" &
	pid=$!
	if changed; then
		sleep 0.2
		kill -$sig $pid
		wait $pid
		rc=$?
		[ $rc -eq 1 ] && ok "SIG$sig mid-run: exit 1" || not_ok "SIG$sig mid-run: exit 1" "exit $rc"
	else
		kill -9 $pid; wait $pid
		not_ok "SIG$sig mid-run: the run changed the sysctl" "$(cat "$TMP/err")"
	fi
	back "SIG$sig mid-run: value restored"
done

# ---- signals in the middle of a sweep: two sysctls, alternating points ----
cat >"$TMP/s.sweep" <<EOF
bench page-fault
size 8M
cpus 0
repeat 200
[interval]
sysctl vm.stat_interval=$new_si,$orig_si
[numa]
sysctl vm.numa_stat=$new_ns
EOF
for sig in INT TERM HUP; do
	rm -rf "$TMP/sw"
	"$VSB" sweep "$TMP/s.sweep" -o "$TMP/sw" >/dev/null 2>"$TMP/err" &
	pid=$!
	if changed; then
		# several points in: both sysctls saved in the state file
		for i in $(seq 100); do
			[ "$(grep -c '^vm\.' "$VSB_SYSCTL_STATE" 2>/dev/null)" = 2 ] && break
			sleep 0.05
		done
		[ "$(grep -c '^vm\.' "$VSB_SYSCTL_STATE" 2>/dev/null)" = 2 ] &&
			ok "SIG$sig mid-sweep: both sysctls were changed before the signal" ||
			not_ok "SIG$sig mid-sweep: both sysctls were changed before the signal"
		kill -$sig $pid
		wait $pid
		rc=$?
		[ $rc -eq 1 ] && ok "SIG$sig mid-sweep: exit 1" || not_ok "SIG$sig mid-sweep: exit 1" "exit $rc"
	else
		kill -9 $pid; wait $pid
		not_ok "SIG$sig mid-sweep: the sweep changed a sysctl" "$(cat "$TMP/err")"
	fi
	back "SIG$sig mid-sweep: every value restored"
done

# ---- SIGKILL: the state file, then `restore` or the next start ----
for how in restore next-start; do
	"$VSB" run --bench page-fault --size 16M --cpus 0 --repeat 1000 \
		--sysctl vm.stat_interval=$new_si >/dev/null 2>"$TMP/err" &
	pid=$!
	if ! changed; then
		kill -9 $pid; wait $pid
		not_ok "SIGKILL ($how): the run changed the sysctl"
		continue
	fi
	kill -9 $pid
	wait $pid 2>/dev/null
	sleep 0.1	# the workers die with their parent (PR_SET_PDEATHSIG)
	[ "$(cat "$SI")" = "$new_si" ] && [ -s "$VSB_SYSCTL_STATE" ] &&
		ok "SIGKILL ($how): value left changed, state file kept" ||
		not_ok "SIGKILL ($how): value left changed, state file kept"
	grep -q "^vm.stat_interval	$orig_si\$" "$VSB_SYSCTL_STATE" &&
		ok "SIGKILL ($how): the state file holds the original" ||
		not_ok "SIGKILL ($how): the state file holds the original" "$(cat "$VSB_SYSCTL_STATE")"
	if [ $how = restore ]; then
		expect_exit 0 "vmstat-bench restore exits 0" "$VSB" restore
	else
		expect_exit 0 "the next run starts normally" \
			"$VSB" run --bench counter --loops 1000 --repeat 1 --warmup 0
		grep -q "restored vm.stat_interval=$orig_si" "$TMP/err" &&
			ok "the next run says what it restored" ||
			not_ok "the next run says what it restored" "$(cat "$TMP/err")"
	fi
	back "SIGKILL ($how): value restored"
done

# ---- SIGKILL mid-sweep: both sysctls in the state file, then `restore` or the next start ----
both_saved() {	# both_saved: wait (5 s at most) until the state file names both sysctls
	local _
	for _ in $(seq 100); do
		[ "$(grep -c '^vm\.' "$VSB_SYSCTL_STATE" 2>/dev/null)" = 2 ] && return 0
		sleep 0.05
	done
	return 1
}
for how in restore next-start; do
	rm -rf "$TMP/sw"
	"$VSB" sweep "$TMP/s.sweep" -o "$TMP/sw" >/dev/null 2>"$TMP/err" &
	pid=$!
	if ! changed || ! both_saved; then
		kill -9 $pid; wait $pid 2>/dev/null
		not_ok "SIGKILL mid-sweep ($how): both sysctls were changed before the kill" \
			"$(cat "$TMP/err")"
		back "SIGKILL mid-sweep ($how): every value restored"
		continue
	fi
	kill -9 $pid
	wait $pid 2>/dev/null
	sleep 0.1	# the workers die with their parent (PR_SET_PDEATHSIG)
	echo "# killed at: stat_interval $(cat "$SI"), numa_stat $(cat "$NS")"
	grep -qx "vm.stat_interval	$orig_si" "$VSB_SYSCTL_STATE" &&
		grep -qx "vm.numa_stat	$orig_ns" "$VSB_SYSCTL_STATE" &&
		ok "SIGKILL mid-sweep ($how): the state file holds both originals" ||
		not_ok "SIGKILL mid-sweep ($how): the state file holds both originals" \
			"$(cat "$VSB_SYSCTL_STATE" 2>/dev/null || echo 'no state file')"
	# A point changes one sysctl at a time, and the kill may land between
	# points: leave both changed, as the sweep's points did, so that
	# putting both back is observable whatever the kill interrupted.
	echo "$new_si" >"$SI"; echo "$new_ns" >"$NS"
	if [ $how = restore ]; then
		expect_exit 0 "SIGKILL mid-sweep: vmstat-bench restore exits 0" "$VSB" restore
	else
		expect_exit 0 "SIGKILL mid-sweep: the next run starts normally" \
			"$VSB" run --bench counter --loops 1000 --repeat 1 --warmup 0
		grep -q "restored vm.stat_interval=$orig_si" "$TMP/err" &&
			grep -q "restored vm.numa_stat=$orig_ns" "$TMP/err" &&
			ok "SIGKILL mid-sweep: the next run says it restored both" ||
			not_ok "SIGKILL mid-sweep: the next run says it restored both" "$(cat "$TMP/err")"
	fi
	back "SIGKILL mid-sweep ($how): every value restored"
done
expect_exit 0 "restore with nothing to do exits 0" "$VSB" restore
pgrep -f "vmstat-bench run --bench page-fault --size 16M" >/dev/null &&
	not_ok "no worker left behind" "$(pgrep -af 'vmstat-bench run --bench page-fault')" ||
	ok "no worker left behind"
pgrep -f "vmstat-bench sweep $TMP/s.sweep" >/dev/null &&
	not_ok "no sweep worker left behind" "$(pgrep -af 'vmstat-bench sweep')" ||
	ok "no sweep worker left behind"
done_testing
