#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kmod-run.sh - run harness commands with vmstat_bench.ko loaded: on this
# host when it can load modules, else in a QEMU guest (ci/vm-run.sh).
#
# The host path needs module support (/proc/modules), root, and either
# the module already loaded or a build folder for the running kernel
# (/lib/modules/$(uname -r)/build, or KDIR=).  Anything else takes the VM
# path: the module is built against the guest kernel's headers (the
# Debian cloud kernel cached by ci/kernel-cache.sh, or --kernel/--kdir
# for your own build), the harness and the module are packed into the
# guest, the module is loaded there, the commands run, the module is
# unloaded, and the guest's /out comes back to --out.  Which path was
# taken is printed on stderr.
#
# COMMANDS is one POSIX sh string (the guest has busybox sh only).  It
# runs from the repo root (the guest mirrors it under /vsb) with
#	$VSB	the vmstat-bench binary
#	$OUT	the folder whose files come back (host: --out itself)
#
# --exact boots the guest for exact mode (ci/vm-run.sh --exact, always the
# VM path: on the host no emulator counts instructions); the commands
# then pass --exact to `run` or `sweep` themselves.
#
# Usage:
#   ci/kmod-run.sh [--vm] [--exact] [--out DIR] [--smp N] [--mem MB] [--timeout S]
#                  [--kernel BZIMAGE --kdir BUILD_DIR] -- COMMANDS
# Example:
#   ci/kmod-run.sh --out results/vm -- '$VSB run --bench page-alloc \
#	--backend kmod --loops 20000 --repeat 5 -o $OUT/page-alloc.csv'
#
# Exit status: the commands'; 1 build or guest failure; 2 usage; 4 no
# way to load the module here (neither host nor VM).

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SELF=$REPO/ci/kmod-run.sh
BUILD=${VSB_BUILD_DIR:-build}

log() { printf 'kmod-run: %s\n' "$*" >&2; }
usage() {
	# --help: the usage block; a usage error has said its one line already
	[[ ${1:-2} != 0 ]] ||
		sed -n '/^# Usage:/,/^# Exit status/s/^# \{0,1\}//p' "$SELF" | sed '$d' >&"${2:-2}"
	exit "${1:-2}"
}
refuse() { log "$*"; exit 2; }

FORCE_VM=0 OUT='' KERNEL='' UKDIR='' VMARGS=()
while (($#)); do
	case $1 in
	--out|--smp|--mem|--timeout|--kernel|--kdir)
		[[ $# -ge 2 && -n $2 ]] || refuse "$1 needs a value (see --help)" ;;
	esac
	case $1 in
	--vm)      FORCE_VM=1; shift ;;
	--exact)   FORCE_VM=1; VMARGS+=(--exact); shift ;;
	--out)     OUT=${2:?}; shift 2 ;;
	--smp|--mem|--timeout)
		   VMARGS+=("$1" "${2:?}"); shift 2 ;;
	--kernel)  KERNEL=${2:?}; shift 2 ;;
	--kdir)    UKDIR=${2:?}; shift 2 ;;
	--)        shift; break ;;
	-h|--help) usage 0 1 ;;
	*)         refuse "unknown option: $1 (see --help)" ;;
	esac
done
(($#)) || refuse "no COMMANDS given (see --help)"
CMDS="$*"
if [[ -n $KERNEL && -z $UKDIR ]] || [[ -z $KERNEL && -n $UKDIR ]]; then
	log "--kernel and --kdir go together (the module must match the kernel)"
	exit 2
fi
# every refusal before --out is made or the module built
for ((i = 0; i < ${#VMARGS[@]}; i++)); do
	[[ ${VMARGS[i]} != --* || ${VMARGS[i]} == --exact ]] || {
		[[ ${VMARGS[i+1]} =~ ^[1-9][0-9]{0,6}$ ]] ||
			refuse "${VMARGS[i]} ${VMARGS[i+1]}: not a whole number"; }
done
case ${VSB_VM_ACCEL:-} in
''|kvm|tcg) ;;
*) refuse "VSB_VM_ACCEL must be kvm or tcg" ;;
esac
if [[ -n $KERNEL ]]; then
	[[ -f $KERNEL && -r $KERNEL ]] || refuse "--kernel $KERNEL: not a readable file"
	[[ -d $UKDIR && -f $UKDIR/Makefile ]] ||
		refuse "--kdir $UKDIR: not a kernel build folder (no Makefile)"
fi
if [[ -n $OUT && ( -L $OUT || -e $OUT ) && ! -d $OUT ]]; then
	refuse "--out $OUT: exists and is not a folder"
fi
if [[ " ${VMARGS[*]-} " == *" --exact "* && ! -f $REPO/$BUILD/qemu-plugin/vsb-insn.so ]]; then
	refuse "--exact: no TCG plugin at $REPO/$BUILD/qemu-plugin/vsb-insn.so: \`make\` builds it"
fi
[[ -x $REPO/$BUILD/vmstat-bench ]] ||
	{ log "no $BUILD/vmstat-bench: run make first"; exit 1; }
if [[ -z $OUT ]]; then
	OUT=$REPO/results/kmod-$(date -u +%Y%m%d-%H%M%S)
fi
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# --- host path ----------------------------------------------------------------
host_why=''
HKDIR=${KDIR:-/lib/modules/$(uname -r)/build}
if ((FORCE_VM)); then
	host_why="--vm given"
elif [[ -n $KERNEL ]]; then
	host_why="--kernel given"
elif [[ ! -e /proc/modules ]]; then
	host_why="the host kernel $(uname -r) has no module support (no /proc/modules)"
elif [[ $(id -u) != 0 ]]; then
	host_why="not root"
elif [[ ! -e /dev/vmstat_bench && ! -f $HKDIR/Makefile ]]; then
	host_why="no build folder for $(uname -r) ($HKDIR; install linux-headers-$(uname -r) or set KDIR)"
fi

if [[ -z $host_why ]]; then
	loaded=0
	if [[ ! -e /dev/vmstat_bench ]]; then
		log "using the host kernel $(uname -r): building and loading kmod/vmstat_bench.ko"
		KDIR=$HKDIR "$REPO/ci/kmod-build.sh" -s modules >&2 || exit 1
		insmod "$REPO/kmod/vmstat_bench.ko" || { log "insmod failed"; exit 1; }
		loaded=1
	else
		log "using the host kernel $(uname -r): vmstat_bench already loaded"
	fi
	rc=0
	(cd "$REPO" && VSB=$REPO/$BUILD/vmstat-bench OUT=$OUT sh -c "$CMDS") || rc=$?
	if ((loaded)); then rmmod vmstat_bench || { log "rmmod failed"; rc=1; }; fi
	log "results in $OUT"
	exit "$rc"
fi

# --- VM path ------------------------------------------------------------------
log "$host_why: running in a QEMU guest (ci/vm-run.sh)"
if [[ -n $KERNEL ]]; then
	VMARGS+=(--kernel "$KERNEL" --kdir "$UKDIR")
else
	rc=0
	kc=$("$REPO/ci/kernel-cache.sh") || rc=$?
	((rc == 0)) || { ((rc == 4)) && log "SKIP: no guest kernel (kernel-cache.sh)"; exit "$rc"; }
	eval "$kc"
	UKDIR=$KDIR
fi
# The module is built in a tree of its own, named as ci/ab-run.sh names
# its trees: $BUILD/kmod/<release> for a kernel named vmlinuz-<release>
# (the tree tests/kmod/vmlib.bash and ab build for it too, reused), else
# user-<hash of --kdir>, one per build folder: the checkout's kmod/
# is not written (a kbuild there left passing files that a git status in
# a parallel test saw), two runs at once do not share a kbuild, and the
# .ko the guest gets is copied out under the tree's lock (--ko-to).
case ${KERNEL##*/} in
vmlinuz-?*) tree=$REPO/$BUILD/kmod/${KERNEL##*/vmlinuz-} ;;
*) tree=$REPO/$BUILD/kmod/user-$(printf '%s' "$(realpath "$UKDIR")" | sha1sum | cut -c1-12) ;;
esac
KO=$(mktemp -d "${TMPDIR:-/tmp}/vsb-kmod.XXXXXX")
trap 'rm -rf "$KO"' EXIT
(cd "$REPO" && KDIR=$UKDIR ci/kmod-build.sh --tree "$tree" --ko-to "$KO/vmstat_bench.ko" \
	-s modules) >&2 || exit $?
# shellcheck disable=SC2016  # expanded by the guest's shell
# kstat_set_threshold=1: a throwaway guest may let kstat set thresholds
GUEST='insmod kmod/vmstat_bench.ko kstat_set_threshold=1 || exit 1
VSB=/vsb/'"$BUILD"'/vmstat-bench OUT=/out
export VSB OUT
rc=0
( '"$CMDS"'
) || rc=$?
[ ! -f ci/exact-syms.sh ] || sh ci/exact-syms.sh	# exact mode: the profile'"'"'s symbols
rmmod vmstat_bench || { echo "kmod-run: rmmod failed" >&2; rc=1; }
exit $rc'
rc=0
"$REPO/ci/vm-run.sh" ${VMARGS[@]+"${VMARGS[@]}"} --out "$OUT" \
	--add "$KO/vmstat_bench.ko:kmod/vmstat_bench.ko" --add "$REPO/$BUILD/vmstat-bench" \
	-- "$GUEST" || rc=$?
log "results in $OUT"
exit "$rc"
