#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-cache.sh - fetch a bootable kernel and its build headers into a cache.
#
# The kernel-module tests cannot load anything on the host (no module
# support there), so they boot a guest instead.  This script gets Debian's
# cloud kernel (the one linux-image-cloud-amd64 points at), its headers,
# the common headers and the linux-kbuild tools with `apt-get download`,
# unpacks them with `dpkg-deb -x` into a cache folder (nothing is installed
# on the host) and rewrites the few absolute paths in the headers so that
#
#	make -C "$KDIR" M=/path/to/module modules
#
# works from the cache alone.  A throwaway module is built once to prove it.
#
# Usage: ci/kernel-cache.sh        (prints KERNEL=... and KDIR=... on stdout)
#	eval "$(ci/kernel-cache.sh)"
#
# Environment:
#	VSB_VM_CACHE	cache folder (default: .cache/vm under the repo root)
#	VSB_KERNEL_ABI	pin an ABI such as 6.1.0-57 instead of following the
#			linux-image-cloud-amd64 meta package
#
# Exit status: 0 ok; 1 error; 4 the kernel cannot be had here (no apt,
# no network, not root): callers treat that as "skip".
# Everything but the two result lines goes to stderr.

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${VSB_VM_CACHE:-$REPO/.cache/vm}
FLAVOUR=cloud-amd64
META=linux-image-$FLAVOUR

log() { printf 'kernel-cache: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
skip() { log "SKIP: $*"; exit 4; }

mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)
ENVFILE=$CACHE/kernel.env

# Concurrent callers (make -j, two test scripts) must not unpack into the
# same folder at once; the second waits and then finds the cache complete.
# A cache filled by root stays usable read-only by others: lock read-only.
LOCK=$CACHE/.kernel.lock
if [[ -w $LOCK || (! -e $LOCK && -w $CACHE) ]]; then
	exec 9>>"$LOCK"
else
	exec 9<"$LOCK"
fi
flock 9

# The headers' .kernelvariables sets CC to gcc-<N> (the compiler the kernel
# was built with); a different major version would build modules whose
# flags and plugins do not match, so insist on the same one.  The kbuild
# helpers (fixdep, modpost, objtool) are host binaries linked against
# libelf and libssl.
check_toolchain() {
	local kdir=$1 cc missing=() pkgs=() f

	cc=$(sed -n 's/^CC = .*)\(gcc-[0-9][0-9]*\)$/\1/p' \
		"$kdir/.kernelvariables" 2>/dev/null || true)
	[[ -n $cc ]] || cc=gcc
	command -v "$cc" >/dev/null || { missing+=("$cc"); pkgs+=("$cc"); }
	command -v make >/dev/null || { missing+=(make); pkgs+=(make); }
	for f in "$kdir"/scripts/basic/fixdep "$kdir"/scripts/mod/modpost.real-lsb-64 \
		 "$kdir"/tools/objtool/objtool; do
		[[ -e $f ]] || continue
		if ldd "$f" 2>/dev/null | grep -q 'not found'; then
			missing+=("libs of ${f##*/}")
			pkgs+=(libelf1 libssl3)
		fi
	done
	((${#missing[@]} == 0)) && return 0

	if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
		log "installing build prerequisites: ${pkgs[*]}"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends "${pkgs[@]}" libc6-dev >&2 ||
			die "cannot install ${pkgs[*]}"
		return 0
	fi
	die "missing ${missing[*]} (install: apt-get install ${pkgs[*]})"
}

# The stamp holds only the release; paths are derived from $CACHE so a
# moved checkout (or cache) stays valid.
paths() {
	KERNEL=$CACHE/$1/boot/vmlinuz-$1
	KDIR=$CACHE/$1/usr/src/linux-headers-$1
}
emit() {
	KREL=$(sed -n 's/^KREL=//p' "$ENVFILE")
	paths "$KREL"
	check_toolchain "$KDIR"
	printf 'KERNEL=%q\nKDIR=%q\n' "$KERNEL" "$KDIR"
}

# Fast path: a complete cache (written last, after the test build passed).
if [[ -f $ENVFILE ]]; then
	krel=$(sed -n 's/^KREL=//p' "$ENVFILE")
	paths "${krel:-none}"
	if [[ -n $krel && -f $KERNEL && -f $KDIR/Makefile ]]; then
		emit
		exit 0
	fi
	log "cache incomplete, rebuilding"
	rm -f "$ENVFILE"
fi

command -v apt-get >/dev/null || skip "apt-get not available"
command -v dpkg-deb >/dev/null || skip "dpkg-deb not available"
[[ $(id -u) == 0 ]] || skip "must run as root to use apt-get download"

# apt-get update runs at most once, and only when the lists lack what we
# need (a fresh container has none) or name files the mirror no longer has.
lists_updated=0
apt_update() {
	((lists_updated == 0)) || return 1
	lists_updated=1
	log "apt-get update (package lists missing or stale)"
	apt-get update -q >&2 || skip "apt-get update failed (offline?)"
}

# "<pkg> Depends: <regex>" from the package lists.
dep_of() {
	apt-cache depends "$1" 2>/dev/null |
		sed -n "s/^ *Depends: \($2\)\$/\1/p" | head -n1
}

# Sets ABI, KREL, PKGS from the lists; fails if they do not know them.
resolve() {
	local img kbuild

	if [[ -n ${VSB_KERNEL_ABI:-} ]]; then
		ABI=$VSB_KERNEL_ABI
	else
		img=$(dep_of "$META" "linux-image-[0-9][^ ]*-$FLAVOUR")
		[[ -n $img ]] || return 1
		ABI=${img#linux-image-}
		ABI=${ABI%-"$FLAVOUR"}
	fi
	KREL=$ABI-$FLAVOUR
	kbuild=$(dep_of "linux-headers-$KREL" "linux-kbuild-[0-9.]*")
	[[ -n $kbuild ]] || return 1
	# The signed image package carries the bzImage at boot/vmlinuz-*;
	# the signature is an EFI appendix that QEMU's -kernel ignores.
	PKGS=("linux-image-$KREL" "linux-headers-$KREL"
	      "linux-headers-$ABI-common" "$kbuild")
}

# apt-get download writes into the cwd; as root it warns that the _apt user
# cannot write there, which is harmless.
download() {
	local need=() p

	DEBS=$CACHE/debs-$KREL
	mkdir -p "$DEBS"
	for p in "${PKGS[@]}"; do
		compgen -G "$DEBS/${p}_*.deb" >/dev/null || need+=("$p")
	done
	((${#need[@]})) || return 0
	log "downloading ${need[*]}"
	(cd "$DEBS" && apt-get download -q "${need[@]}" >&2)
}

if ! resolve; then
	apt_update
	resolve || skip "the package lists know no $META kernel with headers"
fi
if ! download; then
	apt_update || skip "apt-get download failed"
	resolve || skip "the package lists know no $META kernel with headers"
	download || skip "apt-get download ${PKGS[*]} failed"
fi

ROOT=$CACHE/$KREL
rm -rf "$ROOT.tmp"
mkdir -p "$ROOT.tmp"
for p in "${PKGS[@]}"; do
	log "unpacking $p"
	dpkg-deb -x "$DEBS/${p}"_*.deb "$ROOT.tmp"
done

# 91 MB of the distribution's own modules are not needed: the guest runs
# from a busybox initramfs and only loads modules this project builds.
rm -rf "$ROOT.tmp/lib/modules/$KREL/kernel"

HDR=usr/src/linux-headers-$KREL
COMMON=usr/src/linux-headers-$ABI-common
[[ -f $ROOT.tmp/$HDR/Makefile ]] || die "no $HDR/Makefile in the packages"
[[ -d $ROOT.tmp/$COMMON ]] || die "no $COMMON in the packages"

# The flavour Makefile is one line, "include /usr/src/<common>/Makefile":
# point it at the sibling common tree relative to itself.  The scripts/ and
# tools/ links already are relative (../../lib/linux-kbuild-x.y/...).
# shellcheck disable=SC2016  # make syntax, not shell
printf 'include $(dir $(lastword $(MAKEFILE_LIST)))../%s/Makefile\n' \
	"${COMMON##*/}" >"$ROOT.tmp/$HDR/Makefile"
# lib/modules/<rel>/{build,source} are absolute; make them relative too.
for l in build source; do
	t=$(readlink "$ROOT.tmp/lib/modules/$KREL/$l" 2>/dev/null) || continue
	ln -sfn "../../..$t" "$ROOT.tmp/lib/modules/$KREL/$l"
done
# Any absolute link left would reach into the host: refuse to hide that.
bad=$(find "$ROOT.tmp/usr" -type l -lname '/*' -print | head -n3)
[[ -z $bad ]] || die "absolute symlinks left in the headers: $bad"
for l in "$ROOT.tmp/$HDR/scripts" "$ROOT.tmp/$HDR/tools"; do
	[[ -e $l ]] || die "dangling link $l -> $(readlink "$l")"
done

paths "$KREL"
[[ -f $ROOT.tmp/boot/vmlinuz-$KREL ]] || die "no boot/vmlinuz-$KREL in linux-image-$KREL"

rm -rf "$ROOT"
mv "$ROOT.tmp" "$ROOT"
check_toolchain "$KDIR"

# Prove the tree by building a trivial module against it once.
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cat >"$t/vsb_probe.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
static int __init vsb_probe_init(void) { return 0; }
module_init(vsb_probe_init);
MODULE_LICENSE("GPL");
EOF
echo 'obj-m := vsb_probe.o' >"$t/Kbuild"
log "test-building a module against $KDIR"
make -s -C "$KDIR" M="$t" modules >"$t/log" 2>&1 || {
	cat "$t/log" >&2
	die "test module build against $KDIR failed"
}
[[ -f $t/vsb_probe.ko ]] || die "test module build produced no .ko"

# Keep the .debs only until the tree is proven; they are 40 MB.
rm -rf "$DEBS"
printf 'KREL=%s\n' "$KREL" >"$ENVFILE.tmp"
mv "$ENVFILE.tmp" "$ENVFILE"
log "cached $KREL in $ROOT"
emit
