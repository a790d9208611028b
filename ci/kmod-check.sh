#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kmod-check.sh - vmstat_bench.ko built with every check on, for every
# kernel it supports; what `make kmod-check` (kmod/kmod.mk) runs.
#
# For each kernel of ci/kernels (or the series named on the command line),
# and for $KDIR when it is set (a host with its own headers): a fresh copy
# of kmod/ and bench/ under OUT/<series>/ (ci/kmod-build.sh --tree, so
# kmod/ and the tests' builds stay untouched and every file is compiled
# and checked again), built with
#	W=1			the kernel's extra compiler warnings
#	C=2 CHECK=sparse	sparse on every file: __user/__percpu
#				address spaces, lock context, endianness,
#				plain integers used as NULL, ...
# Any warning or error located in kmod/ or bench/ fails it, and so does
# any modpost WARNING (those are about our module) or a failed build.
#
# Warnings located anywhere else are not ours: they are in the kernel's
# own headers, which sparse and W=1 are not clean on in every release
# (what they report there changes from one kernel to the next, and
# kbuild's W=1 and sparse are tuned for the kernel tree, not for headers
# packaged for out-of-tree modules).  Failing on them would make the
# check fail for reasons no change here can fix, so they are only
# counted (shown in full with V=1).  The test is on the file a message
# names, so a header warning reached through our #include stays ignored,
# and ours stays fatal whatever includes it.
#
# Usage: ci/kmod-check.sh [--out DIR] [SERIES...]	(SERIES: 6.1, 6.12)
# Environment: VSB_KERNEL_<SERIES> (VSB_KERNEL_6_12=...) overrides the
# ABI of ci/kernels; KDIR adds that build folder; V=1 shows the logs.
# Exit status: 0 clean, or no kernel headers to be had here (a SKIP line
# per kernel that was skipped); 1 a warning of ours or a failed build.

set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=$REPO/build/kmod-check
if [[ ${1:-} == --out ]]; then
	OUT=${2:?--out needs a folder}
	shift 2
fi
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)

log() { printf 'kmod-check: %s\n' "$*"; }

series=("$@")
if ((${#series[@]} == 0)); then
	mapfile -t series < <(awk '!/^#/ && NF == 2 { print $1 }' "$REPO/ci/kernels")
fi

sparse_args=(C=2 CHECK=sparse)
if ! command -v sparse >/dev/null; then
	log "sparse not installed (apt-get install sparse, or make deps): W=1 only"
	sparse_args=()
fi

# The kernel a build log is for: the folder make entered.
krel() {
	sed -nE "s/^make(\[[0-9]+\])?: Entering directory '(.*)'$/\2/p" "$1" |
		head -n1 | sed 's|.*/linux-headers-||'
}

# check NAME: build $OUT/NAME with the current VSB_KERNEL_ABI / KDIR.
fail=0
check() {
	local name=$1 tree=$OUT/$1 rc=0 ours other
	local log=$OUT/$1.log

	rm -rf "$tree"
	"$REPO/ci/kmod-build.sh" --tree "$tree" W=1 "${sparse_args[@]}" \
		modules >"$log" 2>&1 || rc=$?
	if ((rc == 4)); then
		log "SKIP $name: no kernel headers here ($(grep -m1 'SKIP' "$log" ||
			tail -n1 "$log"))"
		return
	fi
	[[ ${V:-0} == 1 ]] && cat "$log"
	ours=$(grep -E "^[^ :]*/(kmod(/uapi)?|bench)/[^/: ]+:[0-9]+(:[0-9]+)?: (warning|error)|^WARNING: modpost:|^ERROR: modpost:" "$log")
	other=$(grep -E ': (warning|error):' "$log" |
		grep -cvE "^[^ :]*/(kmod(/uapi)?|bench)/[^/: ]+:[0-9]")
	[[ $other != 0 ]] || other=''
	if ((rc != 0)) || [[ -n $ours ]]; then
		fail=1
		log "FAIL $name: $(krel "$log")"
		if [[ -n $ours ]]; then
			printf '%s\n' "$ours" | sed "s|$tree/kmod/\.\./|$REPO/|; s|$tree/|$REPO/|"
		else
			tail -n 20 "$log"
		fi
		return
	fi
	log "ok $name: $(krel "$log"): W=1${sparse_args:+ + sparse}, no warnings in kmod/ or bench/${other:+ ($other in kernel headers ignored)}"
}

for s in "${series[@]}"; do
	var=VSB_KERNEL_${s//./_}
	abi=${!var:-$(awk -v s="$s" '$1 == s { print $2 }' "$REPO/ci/kernels")}
	[[ -n $abi ]] || { log "no kernel $s in ci/kernels"; fail=1; continue; }
	[[ $abi == default ]] && abi=''
	KDIR='' VSB_KERNEL_ABI=$abi check "$s"
done
[[ -z ${KDIR:-} ]] || check kdir
exit "$fail"
