#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The live-kernel benches: page-fault and mmap run as processes and as
# threads, write one sample per worker and repetition, cross-check their
# counts against /proc/vmstat (and fail, exit 3, when told to overcount),
# report the vm_committed_as batch of the mmap2 seed's formula, keep
# --thp never free of huge pages, give the CommitLimit hint for a refused
# mmap only under vm.overcommit_memory=2, and refuse bad input before
# running.
. "$(dirname "$0")/../lib.sh"

ncpu=$(nproc)
cpus=0
[ "$ncpu" -ge 2 ] && cpus=0,1
nw=$(( ncpu >= 2 ? 2 : 1 ))

"$VSB" list >"$TMP/list"
grep -qE '^  page-fault +live ' "$TMP/list" && grep -qE '^  mmap +live ' "$TMP/list" &&
	ok "list shows page-fault and mmap on the live side" ||
	not_ok "list shows page-fault and mmap on the live side" "$(cat "$TMP/list")"

col() {		# col CSV NAME: the values of column NAME, one per line
	awk -F, -v n="$2" '/^#/ { next } !h { for (i = 1; i <= NF; i++) if ($i == n) c = i; h = 1; next } { print $c }' "$1"
}
meta() {	# meta CSV KEY
	sed -n "s/^# $2: //p" "$1" | head -1
}

for tasks in process thread; do
	f="$TMP/pf-$tasks.csv"
	expect_exit 0 "page-fault ($tasks) runs" "$VSB" run --bench page-fault --size 8M \
		--cpus $cpus --repeat 3 --warmup 1 --tasks $tasks -o "$f"
	[ -f "$f" ] || { not_ok "page-fault ($tasks) wrote its CSV"; continue; }
	rows=$(col "$f" thread | wc -l)
	[ "$rows" -eq $((3 * nw)) ] && ok "page-fault ($tasks): one sample per worker and repetition" ||
		not_ok "page-fault ($tasks): one sample per worker and repetition" "$rows rows"
	[ "$(col "$f" backend | sort -u)" = live ] && [ "$(col "$f" tasks | sort -u)" = $tasks ] &&
		[ "$(col "$f" unit | sort -u)" != "" ] &&
		ok "page-fault ($tasks): backend live, tasks and unit recorded" ||
		not_ok "page-fault ($tasks): backend live, tasks and unit recorded"
	# 8 MiB of 4 KiB pages per round, one round per sample
	[ "$(col "$f" ops | sort -u)" = 2048 ] && ok "page-fault ($tasks): 2048 faults per sample" ||
		not_ok "page-fault ($tasks): 2048 faults per sample" "$(col "$f" ops | sort -u | tr '\n' ' ')"
	d=$(meta "$f" live_vmstat_delta)
	pgf=$(echo "$d" | sed -n 's/^pgfault +\([0-9]*\),.*/\1/p')
	pga=$(echo "$d" | sed -n 's/.*pgalloc_\* +\([0-9]*\),.*/\1/p')
	done_ops=$((3 * nw * 2048))
	[ -n "$pgf" ] && [ "$pgf" -ge $done_ops ] && [ "$pga" -ge $done_ops ] &&
		grep -q "^# sanity: ok: $done_ops page faults done" "$f" &&
		ok "page-fault ($tasks): /proc/vmstat deltas cover the $done_ops faults done" ||
		not_ok "page-fault ($tasks): /proc/vmstat deltas cover the faults done" "$d" \
			"$(grep '^# sanity' "$f")"
done

mode=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
if [ -n "$mode" ] && [ "$mode" != never ]; then
	f="$TMP/thp.csv"
	expect_exit 0 "page-fault --thp always runs" "$VSB" run --bench page-fault --size 8M \
		--cpus 0 --repeat 2 --warmup 0 --thp always -o "$f"
	# the workers' own faults: a huge page is one fault for 512 pages
	t=$(meta "$f" live_own_faults | sed -n 's/^\([0-9]*\) minor faults .*/\1/p')
	[ -n "$t" ] && [ "$t" -lt 4096 ] && meta "$f" live_own_faults | grep -q 'huge pages$' &&
		ok "--thp always: huge pages, the workers took $t faults for 4096 pages" ||
		not_ok "--thp always: huge pages were allocated" "$(meta "$f" live_own_faults)"
else
	skip "page-fault --thp always" "transparent huge pages are off on this kernel"
fi
# --thp never: no huge page for the bench's mapping (MADV_NOHUGEPAGE under
# THP mode always).  The workers' own fault count says so (one fault per
# page); thp_fault_alloc is system-wide, and the guest lane's QEMU beside
# this test faults huge pages into its guest's memory all the time.
if [ -n "$mode" ] && [ "$mode" != never ]; then
	f="$TMP/nothp.csv"
	"$VSB" run --bench page-fault --size 8M --cpus 0 --repeat 2 --warmup 0 --thp never \
		-o "$f" >/dev/null 2>"$TMP/err"
	rc=$?
	t=$(meta "$f" live_own_faults | sed -n 's/^\([0-9]*\) minor faults .*/\1/p')
	[ $rc -eq 0 ] && [ -n "$t" ] && [ "$t" -ge 4096 ] &&
		grep -q "^# live: .*, thp never (THP system mode $mode)," "$f" &&
		grep -q "^# sanity: ok: 4096 page faults done" "$f" &&
		ok "--thp never (system mode $mode): 4096 small-page faults, $t taken by the workers" ||
		not_ok "--thp never: no huge page allocated" "exit $rc, own faults '$t'" \
		"$(meta "$f" live)" "$(meta "$f" sanity)" "$(head -2 "$TMP/err")"
else
	skip "page-fault --thp never" "transparent huge pages are off on this kernel: nothing to avoid"
fi

VSB_TEST_OVERCOUNT=100000 expect_exit 3 "a count the kernel did not see fails the sanity check (exit 3)" \
	"$VSB" run --bench page-fault --size 4M --cpus 0 --repeat 2 --warmup 0
grep -q "results untrustworthy: FAILED: /proc/vmstat pgfault" "$TMP/err" &&
	ok "the failure names the /proc/vmstat cross-check" ||
	not_ok "the failure names the /proc/vmstat cross-check" "$(cat "$TMP/err")"

# mmap: the batch of mm_compute_batch() for the policy in force
f="$TMP/mmap.csv"
expect_exit 0 "mmap runs (threads)" "$VSB" run --bench mmap --size 128M --cpus $cpus \
	--repeat 2 --loops 500 --tasks thread -o "$f"
ram=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
present=$(awk -F, '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-"); c += n == 2 ? r[2] - r[1] + 1 : 1 } } END { print c }' /sys/devices/system/cpu/present)
pol=$(cat /proc/sys/vm/overcommit_memory)
pages=$((ram * 1024 / $(getconf PAGESIZE)))
want=$((pages / present / (pol == 2 ? 256 : 4)))
[ $want -lt $((2 * present)) ] && want=$((2 * present))
[ $want -lt 32 ] && want=32
b=$(meta "$f" mmap_committed_batch)
[[ "$b" == "$want pages under vm.overcommit_memory=$pol "* ]] &&
	ok "mmap reports vm_committed_as_batch $want (policy $pol, $present CPUs)" ||
	not_ok "mmap reports vm_committed_as_batch $want" "$b"
[ "$(col "$f" ops | sort -u)" = 500 ] && grep -q "^# sanity: ok: $((1000 * nw)) mmap+munmap pairs" "$f" &&
	ok "mmap: 500 pairs per sample, all counted" || not_ok "mmap: 500 pairs per sample" \
	"$(grep '^# sanity' "$f")"

# an mmap the kernel refuses: the CommitLimit hint only under policy 2
# (policy 0's heuristic refuses a mapping larger than RAM + swap; policy 1
# grants it, and the untouched mapping costs nothing: no failure to see)
memswap=$(awk '/^(MemTotal|SwapTotal):/ { kb += $2 } END { print kb }' /proc/meminfo)
pol=$(cat /proc/sys/vm/overcommit_memory)
if [ "$pol" != 1 ] && [ "$memswap" -lt $((1024 * 1024 * 1024)) ]; then
	expect_exit 1 "mmap of 1024G fails (policy $pol)" "$VSB" run --bench mmap --size 1024G \
		--cpus 0 --repeat 1 --loops 1 --warmup 0
	line=$(grep 'mmap of 1024 GiB failed: Cannot allocate memory' "$TMP/err")
	if [ "$pol" = 2 ]; then
		[[ "$line" == *"(vm.overcommit_memory=2 counts it against CommitLimit)" ]]
	else
		[ -n "$line" ] && [[ "$line" != *CommitLimit* ]]
	fi && ok "the ENOMEM line names CommitLimit only under policy 2 (policy $pol)" ||
		not_ok "the ENOMEM line names CommitLimit only under policy 2 (policy $pol)" "$(cat "$TMP/err")"
else
	skip "mmap ENOMEM message" "policy $pol or 1 TiB of RAM + swap: the mapping would be granted"
fi

# bad input, refused before anything runs
expect_usage_error "size not a page multiple" "--size: 1000 is not a multiple of the page size" \
	"$VSB" run --bench page-fault --size 1000
expect_usage_error "size not a size" "--size: '12Q' is not a size" "$VSB" run --bench mmap --size 12Q
expect_usage_error "thp on mmap" "--thp: the mmap bench never touches its mapping" \
	"$VSB" run --bench mmap --thp always
expect_usage_error "tasks choice" "--tasks: 'fibers' is not one of process\|thread" \
	"$VSB" run --bench mmap --tasks fibers
expect_usage_error "live bench on the module backend" "--backend: bench 'page-fault' runs the live kernel" \
	"$VSB" run --bench page-fault --backend kmod
expect_usage_error "more memory than available" "would touch more than half of the" \
	"$VSB" run --bench page-fault --size 1000G

# a plain sweep of live points (no sysctl, no root needed)
printf 'bench page-fault\nsize 4M\nrepeat 2\ntasks process,thread\n' >"$TMP/l.sweep"
expect_exit 0 "a sweep of live points runs" "$VSB" sweep "$TMP/l.sweep" -o "$TMP/sw"
[ "$(grep -vc '^#' "$TMP/sw/sweep.csv")" -eq 3 ] && ok "the sweep wrote both points" ||
	not_ok "the sweep wrote both points" "$(cat "$TMP/sw/sweep.csv" | grep -v '^#')"
done_testing
