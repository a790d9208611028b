#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bisect-build.sh - build one commit of a git kernel tree for
# `vmstat-bench bisect`, without writing to that tree.
#
# The commit is checked out in a clone of the tree kept in the cache
# (git clone --shared: it borrows the tree's objects, so it costs a
# checkout, not a copy of the history), one clone per tree, and built
# there by ci/kernel-build.sh --reuse: every commit of one tree is built
# at the same path, so the build folder of the last one is the start of
# the next and make rebuilds only the files the checkout changed (a
# checkout rewrites only the files that differ, so only their mtimes
# move).  Your tree, its index, HEAD and .git are never written.
#
# Usage: ci/bisect-build.sh TREE COMMIT OUTDIR
#	TREE	a git kernel tree; COMMIT a full SHA it holds
#	OUTDIR	gets kernel-build.sh's links and kernel.env
# The last line on stdout is BZIMAGE:BUILD_DIR (kernel-build.sh's).
#
# Cache: VSB_VM_CACHE/bisect/<hash of TREE's path>/src (the clone), next
# to kernel-build.sh's kbuild/.  Clear both with
#	rm -rf "$(. ci/cache.bash; vsb_vm_cache .)"/{bisect,kbuild}
#
# Exit status: kernel-build.sh's (0 built, 1 the build failed, 2 refused,
# 4 tools missing); 1 also when the clone or checkout fails.
set -euo pipefail
{
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$REPO/ci/cache.bash"
log() { printf 'bisect-build: %s\n' "$*" >&2; }
(($# == 3)) || { log "usage: ci/bisect-build.sh TREE COMMIT OUTDIR"; exit 2; }
TREE=$(cd "$1" && pwd -P) || { log "$1: no such folder"; exit 2; }
COMMIT=$2 OUT=$3
[[ $COMMIT =~ ^[0-9a-f]{40}$ ]] || { log "$COMMIT: not a full SHA"; exit 2; }
CACHE=$(vsb_vm_cache "$REPO")
H=$(printf '%s' "$TREE" | sha256sum | cut -c1-16)
CL=$CACHE/bisect/$H
mkdir -p "$CL"
# one checkout and build at a time per clone: the folder is shared
exec 9>>"$CL/.lock"
flock 9
if [[ ! -d $CL/src/.git ]]; then
	log "cloning $TREE into $CL/src (shared objects, the tree untouched)"
	rm -rf "$CL/src.tmp"
	git clone -q --shared --no-checkout "$TREE" "$CL/src.tmp" >&2
	mv "$CL/src.tmp" "$CL/src"
fi
# objects of commits made since the clone are reached through the
# alternates file; a fetch brings the refs only for git's own checks
git -C "$CL/src" cat-file -e "$COMMIT^{commit}" 2>/dev/null ||
	git -C "$CL/src" fetch -q "$TREE" >&2 || true
# kernel-build.sh hard-links each build's tree (kbuild/<key>.src), which
# moves every file's ctime: with trustctime git would take them all for
# modified and -f would rewrite them, new mtimes, a whole rebuild.
git -C "$CL/src" config core.trustctime false
git -C "$CL/src" update-index -q --refresh >/dev/null 2>&1 || true
git -C "$CL/src" -c advice.detachedHead=false checkout -q -f --detach "$COMMIT" >&2
git -C "$CL/src" clean -q -f -d -x >&2
exec "$REPO/ci/kernel-build.sh" --source "$CL/src" --reuse --out "$OUT"
}
