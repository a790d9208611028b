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
# Usage: ci/kmod-build.sh [--dir MODULE_DIR | --tree DIR [--ko-to FILE]] [MAKE_ARGS...]
#	MODULE_DIR	default: kmod/ of this repo
#	--tree DIR	build a copy instead: kmod/ and bench/ are mirrored into
#			DIR/kmod and DIR/bench (cp -p: unchanged files keep their
#			times, so kbuild rebuilds only what changed) and built
#			there; the module is DIR/kmod/vmstat_bench.ko.  kmod/
#			itself is left alone, so builds for several kernels (one
#			DIR each) and the W=1/sparse check do not clobber each
#			other nor `make kmod`.  Builds of one DIR are serialised,
#			as are builds in one MODULE_DIR.
#			A DIR built before from the same inputs (DIR/.vsb-stamp)
#			is not handed to kbuild again for a plain `modules`.
#	--ko-to FILE	after --tree DIR, for a plain `modules`: the module is
#			copied to FILE before DIR's lock is let go, so that a
#			build of DIR for other headers cannot replace it between
#			the build and the copy
#	MAKE_ARGS	default: modules (e.g. "clean", "V=1 modules", "W=1")
# Environment: KDIR=<build dir> to use other headers than the cache;
# VSB_VM_CACHE as for kernel-cache.sh.
#
# Exit status: make's; 4 (skip) when no headers can be had here.

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MDIR=$REPO/kmod

log() { printf 'kmod-build: %s\n' "$*" >&2; }

TREE='' KO_TO=''
if [[ ${1:-} == --dir ]]; then
	MDIR=${2:?--dir needs a folder}
	shift 2
elif [[ ${1:-} == --tree ]]; then
	TREE=${2:?--tree needs a folder}
	shift 2
	if [[ ${1:-} == --ko-to ]]; then
		KO_TO=${2:?--ko-to needs a file}
		shift 2
		# before the tree is made: a copy is of a plain module build
		for a in "$@"; do
			[[ $a == -s || $a == modules ]] && continue
			log "--ko-to is for a plain \`modules\` build, not: $*"
			exit 2
		done
	fi
	mkdir -p "$TREE/kmod/uapi" "$TREE/bench"
	exec 8>"$TREE/.lock"	# held by make after the exec below
	flock 8
	for f in "$REPO"/kmod/Kbuild "$REPO"/kmod/Makefile "$REPO"/kmod/*.[ch]; do
		[[ $f == *.mod.c ]] || cp -p "$f" "$TREE/kmod/"
	done
	cp -p "$REPO"/kmod/uapi/*.h "$TREE/kmod/uapi/"
	cp -p "$REPO"/bench/*.h "$TREE/bench/"
	MDIR=$TREE/kmod
fi
[[ -d $MDIR ]] || { log "no module folder $MDIR"; exit 1; }
MDIR=$(cd "$MDIR" && pwd)	# kbuild wants M= absolute
[[ -f $MDIR/Kbuild || -f $MDIR/Makefile ]] ||
	{ log "$MDIR has neither Kbuild nor Makefile"; exit 1; }
(($#)) || set -- modules
# One kbuild at a time in a module folder, as --tree's lock does for a
# tree: two kmod-run.sh at once (tests/vm/exact.sh boots two guests side
# by side) both built kmod/, and one linked while the other's failed
# compile had deleted main.o.  The folder itself is the lock (no file of
# ours in the checkout); make inherits it past the exec below.
if [[ -z $TREE ]]; then
	exec 9<"$MDIR"
	flock 9
fi

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
# The stamp below is for a plain module build only: W=1, C=2 (sparse on
# every file) and the rest want kbuild's work, not only its module, and
# leave the tree built in their way (so they drop the stamp).
plain=1
for a in "$@"; do [[ $a == -s || $a == modules ]] || plain=0; done
if [[ -z $TREE ]] || ((!plain)); then
	[[ -z $TREE ]] || rm -f "$TREE/.vsb-stamp"
	exec make -C "$KDIR" M="$MDIR" -j"$(nproc)" "$@"
fi

# A tree's inputs, for its stamp: every file mirrored into it, the
# headers' identity and the compiler.  kbuild finds a built tree up to
# date by itself, but only after about 2.5 s of its own checks, and make
# test asks for each guest test and each ab side: a tree whose stamp
# matches these inputs and holds its module is not handed to kbuild
# again.
tree_inputs() {
	(cd "$TREE" && find kmod bench -type f \( -name '*.[ch]' -o -name Kbuild -o -name Makefile \) \
		! -name '*.mod.c' -print0 | sort -z | xargs -0 sha256sum)
	stat -c '%n %s %Y' "$KDIR/.config" "$KDIR/Module.symvers" 2>/dev/null || true
	printf '%s\n' "KDIR=$KDIR" "${CC:-gcc}: $("${CC:-gcc}" --version | head -n1)"
}
stamp=$(tree_inputs | sha256sum | cut -d' ' -f1)
if [[ ! -f $MDIR/vmstat_bench.ko || $(cat "$TREE/.vsb-stamp" 2>/dev/null) != "$stamp" ]]; then
	rm -f "$TREE/.vsb-stamp"
	make -C "$KDIR" M="$MDIR" -j"$(nproc)" "$@"
	printf '%s\n' "$stamp" >"$TREE/.vsb-stamp"
fi
[[ -z $KO_TO ]] || cp "$MDIR/vmstat_bench.ko" "$KO_TO"
