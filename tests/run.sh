#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run every test and count the results.
#
# A test is an executable: a unit-test binary in $VSB_BUILD_DIR/tests/ or
# a script tests/*/*.sh.  Each prints TAP lines ("ok N - what",
# "not ok N - what", "ok N # SKIP why") and exits 0, or 4 when the whole
# file cannot run here (kselftest's skip code).  Every TAP line counts
# once; a file that fails without a "not ok" line counts as one failure,
# one that exits 4 without TAP lines as one skip.  Ends with the line
# "N passed, N failed, N skipped".
#
# VSB_TESTS="pattern" runs only the files whose path matches;
# VSB_SKIP_VM=1 leaves out the ones that boot a QEMU guest (tests/kmod,
# tests/vm), as `make check` does for its sanitizer build; VSB_SERIAL=1
# runs every file one after another (the default runs the guests beside
# the host tests, below).
set -uo pipefail

cd "$(dirname "$0")/.."
BUILD=${VSB_BUILD_DIR:-build}
export VSB="$PWD/$BUILD/vmstat-bench"
export VSB_BUILD_DIR=$BUILD
export VSB_ROOT=$PWD
# Debian's programs before the rest of PATH: the tests are of what
# ci/deps.sh installs, and a pyenv shim ahead of /usr/bin (as on this
# project's machines) starts each python3 through a shell script, 0.5 s
# against /usr/bin/python3's 0.04 s
export PATH=/usr/bin:/bin:/usr/sbin:/sbin:$PATH
# exact ab boots one guest at a time here, as the guest lane does (below)
export VSB_AB_JOBS=${VSB_AB_JOBS:-1}

pass=0 fail=0 skip=0
failed_files=()

files=()
for f in "$BUILD"/tests/*; do [ -x "$f" ] && [ -f "$f" ] && files+=("$f"); done
for f in tests/*/*.sh; do [ -f "$f" ] && files+=("$f"); done

is_vm() { [[ "$1" == tests/kmod/* || "$1" == tests/vm/* ]]; }
# A test elsewhere that boots a guest of its own says so with a line
# "# lane: guest": it runs in the guest lane, so that no two guests ever
# share the machine.  A host test that times nothing may say so too, to
# even the two lanes out (make test lasts as long as the longer one).
in_guest_lane() { is_vm "$1" || { [[ "$1" == *.sh ]] && grep -q '^# lane: guest$' "$1"; }; }
selected() {
	if [ -n "${VSB_TESTS:-}" ] && [[ "$1" != *${VSB_TESTS}* ]]; then
		return 1
	fi
	! { [ -n "${VSB_SKIP_VM:-}" ] && is_vm "$1"; }
}

RES=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$RES"' EXIT

# One file: its TAP log and its counts into $RES/<n>.{log,count}.
run_one() {	# run_one N FILE
	local n=$1 f=$2 log=$RES/$1.log rc secs cpu p s x TIMEFORMAT='%R %U %S'
	# bash's `time` gives the file's wall and CPU seconds (its children's
	# too): make test is CPU-bound on two CPUs, so CPU is what to cut
	{ time {
		# 9>&-: what a file leaves running never holds the host lock
		if [[ "$f" == *.sh ]]; then
			bash "$f" >"$log" 2>&1 9>&-
		else
			"$f" >"$log" 2>&1 9>&-
		fi
	}; } 2>"$RES/$n.time"
	rc=$?
	read -r secs cpu x <"$RES/$n.time"
	secs=${secs%.*} cpu=$(awk -v u="$cpu" -v s="$x" 'BEGIN { printf "%d", u + s + 0.5 }')
	p=$(grep -cE '^ok [0-9]+' "$log" | tr -d ' ')
	s=$(grep -cE '^ok [0-9]+.*# SKIP' "$log" | tr -d ' ')
	x=$(grep -cE '^not ok [0-9]+' "$log" | tr -d ' ')
	p=$((p - s))
	if [ "$rc" -eq 4 ] && [ $((p + s + x)) -eq 0 ]; then
		s=1
	elif [ "$rc" -ne 0 ] && [ "$rc" -ne 4 ] && [ "$x" -eq 0 ]; then
		x=1
		echo "not ok - $f exited $rc" >>"$log"
	fi
	echo "$p $s $x $secs $cpu" >"$RES/$n.tmp" && mv "$RES/$n.tmp" "$RES/$n.count"
}

# What a finished file says: its line, and its failures and skips.
report() {	# report N FILE
	local n=$1 f=$2 log=$RES/$1.log p s x secs cpu
	read -r p s x secs cpu <"$RES/$n.count"
	pass=$((pass + p)) fail=$((fail + x)) skip=$((skip + s))
	printf '%-40s %3d passed %3d failed %3d skipped (%ds, %d CPU-s)\n' \
		"$f" "$p" "$x" "$s" "$secs" "$cpu"
	if [ "$x" -gt 0 ] || [ -n "${VSB_VERBOSE:-}" ]; then
		grep -E '^(not ok|#)' "$log" | sed 's/^/    /' | head -40
		[ "$x" -gt 0 ] && failed_files+=("$f")
		[ "$x" -gt 0 ] && tail -5 "$log" | sed 's/^/    | /'
	fi
	grep -E '^ok [0-9]+.*# SKIP' "$log" | sed 's/^/    /' | head -5
}

# Two lanes: the guests (QEMU under TCG waits on its vCPU threads much of
# the time) run one after another beside the host tests, which run one
# after another too, so that no two guests and no two host tests ever
# share the machine.  VSB_SERIAL=1 runs everything in one lane.
sel=()
for f in "${files[@]}"; do selected "$f" && sel+=("$f"); done
# A host file holds $VSB_HOST_LOCK while it runs.  A file of the guest
# lane that runs benches on the host itself takes it around them
# (host_benches in tests/lib.sh): every run starts by removing what dead
# runs left (mounts, memory cgroups), and a host test that has just
# SIGKILLed a run to check that `restore` removes them would find them
# gone.
export VSB_HOST_LOCK=$RES/host.lock
lane() {	# lane vm|host: its files, in order; its seconds into $RES/lane.$1
	local i t0=$SECONDS
	for i in "${!sel[@]}"; do
		if [ "$1" = vm ] && in_guest_lane "${sel[$i]}"; then
			run_one "$i" "${sel[$i]}"
		elif [ "$1" = host ] && ! in_guest_lane "${sel[$i]}"; then
			( flock 9 && run_one "$i" "${sel[$i]}" ) 9>"$VSB_HOST_LOCK"
		fi
	done
	echo $((SECONDS - t0)) >"$RES/lane.$1"
}
if [ -n "${VSB_SERIAL:-}" ]; then
	for i in "${!sel[@]}"; do run_one "$i" "${sel[$i]}"; report "$i" "${sel[$i]}"; done
else
	lane vm & vmpid=$!
	lane host & hostpid=$!
	# report in the files' order, each as soon as it is done
	for i in "${!sel[@]}"; do
		while [ ! -f "$RES/$i.count" ]; do sleep 1; done
		report "$i" "${sel[$i]}"
	done
	wait "$vmpid" "$hostpid"
	# make test lasts as long as the longer lane: what to even out
	echo
	echo "lanes: host $(cat "$RES/lane.host") s, guest $(cat "$RES/lane.vm") s"
fi

echo
[ ${#failed_files[@]} -gt 0 ] && echo "failed: ${failed_files[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
