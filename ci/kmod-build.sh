#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kmod-build.sh - build the out-of-tree module against the cached headers.
#
# The host runs a kernel without module support and without its headers,
# so the module is built against the Debian cloud kernel that
# ci/kernel-cache.sh unpacks, the same kernel ci/vm-run.sh boots.  The
# vermagic then matches the guest by construction.
#
# Usage: ci/kmod-build.sh [--dir MODULE_DIR] [MAKE_ARGS...]
#	MODULE_DIR	default: kmod/ of this repo
#	MAKE_ARGS	default: modules (e.g. "clean", "V=1 modules", "W=1")
# Environment: KDIR=<build dir> to use other headers than the cache;
# VSB_VM_CACHE as for kernel-cache.sh.
#
# Exit status: make's; 4 (skip) when no headers can be had here.

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MDIR=$REPO/kmod

log() { printf 'kmod-build: %s\n' "$*" >&2; }

if [[ ${1:-} == --dir ]]; then
	MDIR=${2:?--dir needs a folder}
	shift 2
fi
[[ -d $MDIR ]] || { log "no module folder $MDIR"; exit 1; }
MDIR=$(cd "$MDIR" && pwd)	# kbuild wants M= absolute
[[ -f $MDIR/Kbuild || -f $MDIR/Makefile ]] ||
	{ log "$MDIR has neither Kbuild nor Makefile"; exit 1; }
(($#)) || set -- modules

if [[ -z ${KDIR:-} ]]; then
	rc=0
	env=$("$REPO/ci/kernel-cache.sh") || rc=$?
	if ((rc != 0)); then
		((rc == 4)) && log "SKIP: no kernel headers (see kernel-cache.sh)"
		exit "$rc"
	fi
	eval "$env"
fi
[[ -f $KDIR/Makefile ]] || { log "KDIR=$KDIR is not a kernel build folder"; exit 1; }

# Debian builds its kernels with BTF; without a vmlinux next to the headers
# kbuild only notes "Skipping BTF generation", which is harmless here.
exec make -C "$KDIR" M="$MDIR" -j"$(nproc)" "$@"
