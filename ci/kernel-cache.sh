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
#	VSB_VM_CACHE	cache folder (default: one per machine, ci/cache.bash:
#			~/.cache/vmstat-bench/vm)
#	VSB_KERNEL_ABI	which kernel; unset: the one linux-image-cloud-amd64
#			(bookworm's 6.1) points at.  An exact ABI pins it:
#			6.1.0-57 (bookworm's naming), 6.12.117+deb12 (the 6.12
#			that bookworm-security carries, packaged as
#			linux-image-6.12.117+deb12-cloud-amd64 with
#			linux-kbuild-6.12.117+deb12).  A series (6.1, 6.12)
#			follows that series' meta package
#			(linux-image-6.12-cloud-amd64; for 6.1 the plain one).
#
# Kernels are cached side by side, one folder per release
# (<cache>/6.1.0-57-cloud-amd64/, <cache>/6.12.117+deb12-cloud-amd64/), each
# marked complete by a .vsb-complete file once a test module built against
# it.  What an unpinned request resolved to is remembered in kernel.env
# (kernel-<series>.env for a series), so later calls need no apt at all.
#
# Exit status: 0 ok; 1 error; 4 the kernel cannot be had here (no apt,
# no network, not root): callers treat that as "skip".
# Everything but the two result lines goes to stderr.

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$REPO/ci/cache.bash"
CACHE=$(vsb_vm_cache "$REPO")
FLAVOUR=cloud-amd64
META=linux-image-$FLAVOUR

log() { printf 'kernel-cache: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
skip() { log "SKIP: $*"; exit 4; }

mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)

# What is asked for: nothing (the default meta package), a series
# (digits and one dot: follow that series' meta package) or an exact ABI.
REQ=${VSB_KERNEL_ABI:-}
if [[ -z $REQ ]]; then
	SERIES='' ENVFILE=$CACHE/kernel.env
elif [[ $REQ =~ ^[0-9]+\.[0-9]+$ ]]; then
	SERIES=$REQ ENVFILE=$CACHE/kernel-$REQ.env
elif [[ $REQ =~ ^[0-9]+\.[0-9]+[.-][0-9A-Za-z.+~-]+$ ]]; then
	SERIES='' ENVFILE=''
else
	die "VSB_KERNEL_ABI=$REQ: want an ABI (6.1.0-57, 6.12.117+deb12) or a series (6.1, 6.12)"
fi

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

# The stamps hold only the release; paths are derived from $CACHE so a
# moved checkout (or cache) stays valid.
paths() {
	KERNEL=$CACHE/$1/boot/vmlinuz-$1
	KDIR=$CACHE/$1/usr/src/linux-headers-$1
}
emit() {
	paths "$1"
	check_toolchain "$KDIR"
	printf 'KERNEL=%q\nKDIR=%q\n' "$KERNEL" "$KDIR"
}
# A release folder is complete once its test module built (.vsb-complete);
# caches filled before that marker existed are recognised by kernel.env.
complete() {
	paths "$1"
	[[ -f $KERNEL && -f $KDIR/Makefile ]] || return 1
	[[ -f $CACHE/$1/.vsb-complete ]] && return 0
	[[ $(sed -n 's/^KREL=//p' "$CACHE/kernel.env" 2>/dev/null) == "$1" ]]
}

# Fast path: a complete cache (written last, after the test build passed).
if [[ -n $ENVFILE && -f $ENVFILE ]]; then
	krel=$(sed -n 's/^KREL=//p' "$ENVFILE")
	if [[ -n $krel ]] && complete "$krel"; then
		emit "$krel"
		exit 0
	fi
	log "cache incomplete, rebuilding"
	rm -f "$ENVFILE"
elif [[ -n $REQ && -z $SERIES ]] && complete "$REQ-$FLAVOUR"; then
	emit "$REQ-$FLAVOUR"
	exit 0
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

# The ABI a meta package points at, e.g. 6.1.0-57 or 6.12.117+deb12.
meta_abi() {
	local img

	img=$(dep_of "$1" "linux-image-[0-9][^ ]*-$FLAVOUR")
	[[ -n $img ]] || return 1
	img=${img#linux-image-}
	printf '%s\n' "${img%-"$FLAVOUR"}"
}

# Sets ABI, KREL, PKGS from the lists; fails if they do not know them.
# Package names by series: 6.1 (bookworm) linux-image-6.1.0-57-cloud-amd64,
# linux-headers-6.1.0-57-{cloud-amd64,common}, linux-kbuild-6.1; 6.12
# (bookworm-security's linux-6.12) linux-image-6.12.117+deb12-cloud-amd64,
# linux-headers-6.12.117+deb12-{cloud-amd64,common},
# linux-kbuild-6.12.117+deb12: the kbuild name carries the whole ABI, "+"
# included, and the series' meta package is linux-image-6.12-cloud-amd64.
resolve() {
	local kbuild

	if [[ -n $SERIES ]]; then
		if ! ABI=$(meta_abi "linux-image-$SERIES-$FLAVOUR"); then
			ABI=$(meta_abi "$META") || return 1
			[[ $ABI == "$SERIES".* || $ABI == "$SERIES"-* ]] || return 1
		fi
	elif [[ -n $REQ ]]; then
		ABI=$REQ
	else
		ABI=$(meta_abi "$META") || return 1
	fi
	KREL=$ABI-$FLAVOUR
	kbuild=$(dep_of "linux-headers-$KREL" "linux-kbuild-[0-9][^ ]*")
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

# What the lists offer instead, for the skip line: the newest few ABIs.
known_abis() {
	apt-cache pkgnames linux-headers- 2>/dev/null |
		sed -n "s/^linux-headers-\(.*\)-$FLAVOUR\$/\1/p" | sort -V |
		tail -n 4 | paste -sd ' '
}
if [[ -n $SERIES ]]; then
	what="linux-image-$SERIES-$FLAVOUR (VSB_KERNEL_ABI=$REQ)"
elif [[ -n $REQ ]]; then
	what="linux-image-$REQ-$FLAVOUR (VSB_KERNEL_ABI=$REQ)"
else
	what=$META
fi
unknown() { skip "the package lists know no $what kernel with headers (they have: $(known_abis))"; }

if ! resolve; then
	apt_update || true
	resolve || unknown
fi
# A series or the default may resolve to a release cached already.
if complete "$KREL"; then
	[[ -z $ENVFILE ]] || printf 'KREL=%s\n' "$KREL" >"$ENVFILE"
	emit "$KREL"
	exit 0
fi
if ! download; then
	apt_update || skip "apt-get download failed"
	resolve || unknown
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
touch "$ROOT/.vsb-complete"
if [[ -n $ENVFILE ]]; then
	printf 'KREL=%s\n' "$KREL" >"$ENVFILE.tmp"
	mv "$ENVFILE.tmp" "$ENVFILE"
fi
log "cached $KREL in $ROOT"
emit "$KREL"
