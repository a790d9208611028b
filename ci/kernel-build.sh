#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-build.sh - build a kernel from source for the suite's QEMU guest,
# with patches, cached, in one command.
#
# A patch to mm/vmstat.c is measured by booting a kernel that carries it
# (`vmstat-bench ab --base SPEC --new SPEC`).  This script makes such a
# kernel: Debian's linux-source-<series> (fetched with `apt-get download`
# into the cache and unpacked there: nothing is installed on the host) or
# a kernel tree of your own, plus the --patch files, configured as
# `make tinyconfig` + ci/kernel.config (what ci/vm-run.sh's guest needs to
# boot and what the module and the benches use), built out of tree into a
# cache folder that works as KDIR for ci/kmod-build.sh and as --kdir for
# ci/kmod-run.sh and ci/vm-run.sh.
#
# Usage:
#   ci/kernel-build.sh --source SRC [--patch FILE]... [--fragment FILE] [--reuse] --out DIR
#   ci/kernel-build.sh --source SRC [--patch FILE]... [--fragment FILE] --print-config
#   ci/kernel-build.sh --source SRC [--patch FILE]... [--fragment FILE] --print-key
#   ci/kernel-build.sh --source SRC --fetch
#	SRC	debian:6.1 or debian:6.12: apt's candidate version of
#		linux-source-<series>; debian:6.12=VERSION pins one
#		(debian:6.12=6.12.117-1~deb12u1).  Or PATH: a kernel tree of
#		your own, which is never written to: it is built with O=,
#		and with --patch a copy of it is patched (files git ignores
#		and .git itself are left out of the copy).  It must be clean
#		(no in-tree .config: `make mrproper` there).
#	--patch	applied in the order given to a copy of the source, with
#		`patch -p1` and no fuzz: as with git apply, a hunk whose
#		context does not match exactly is refused (offsets are fine).
#		Checked before anything is built, on a scratch copy of the
#		files the patches name.
#	--fragment  the config fragment (default ci/kernel.config).
#	--out	gets DIR/bzImage and DIR/build (links into the cache) and
#		DIR/kernel.env (KERNEL=, KDIR=, KREL=, KEY=, SOURCE=,
#		PATCHES=).
#		The last line on stdout is BZIMAGE:BUILD_DIR, the spec that
#		`vmstat-bench ab --base/--new` and ci/ab-run.sh take.
#	--print-config  configure only (no build), check the fragment,
#		print the .config's path as the last line.
#	--print-key  print the cache key (nothing is fetched or written).
#		Neither of these two writes to --out.
#	--fetch	fetch and unpack a Debian source only; print its folder.
#	--reuse	(a git tree of your own, no --patch) start a new key's build
#		folder as a copy of the last complete build of the same tree
#		path and config (its "lineage"), so that make rebuilds only
#		what the commits in between changed: bisect's steps.  Keeps
#		the VSB_KBUILD_KEEP (default 6) builds of a lineage used last
#		and removes older ones.
# Everything but that last line goes to stderr.
#
# Cache (VSB_VM_CACHE, default the machine's, ci/cache.bash, as for
# kernel-cache.sh; Debian's sources in VSB_KSRC_CACHE, default its src/):
#	src/linux-source-6.12_<version>/  Debian's tree, unpacked, never written
#	src/<package>.env                 what debian:<series> last resolved to
#	kbuild/<key>/                     the O= build folder: KDIR
#	kbuild/<key>.src/                 with --patch: the patched copy it builds;
#	                                  with --reuse: the tree as built (hard links)
#	kbuild/lineage-<hash>             with --reuse: the key of the last
#	                                  complete build of a tree and config
# Nothing is removed but by --reuse's VSB_KBUILD_KEEP; clear the builds
# with `rm -rf <cache>/kbuild` (bisect's clones: <cache>/bisect).
# A build folder is complete once bzImage and `make modules`
# (Module.symvers) are done: kbuild/<key>/.vsb-complete, written last.
# The key is a SHA-256 (first 16 hex digits) over: the text of this
# script, of the parts it sources but ci/kbuild-base.bash, and of
# ci/cache.bash (the recipe itself: an edit that forgets to bump the
# recipe number still gets new keys), the source's identity, each patch's bytes in order, the
# fragment's bytes, `gcc --version` and `ld --version` (first lines).  The
# source's identity is, for Debian, the package name, version and the
# SHA-256 of the .deb as the package lists give it; for a tree of your
# own, its real path plus, in a git work tree, `git rev-parse HEAD`, the
# bytes of `git diff HEAD --binary -- .` and the contents of untracked
# files that git does not ignore; outside git, the path, size and
# modification time of every file (touching a file means a rebuild).
# The same key means the same build: a second call builds nothing.  A
# build of your own unpatched tree refers to it (O= keeps a `source`
# link): edit the tree and that old build folder's headers change too.
# The kernel release is <version>-vsb-<key>, so two builds never look
# alike to vm-run.sh's vermagic check or to ab's kernel lines.
#
# Concurrent calls are safe: unpacking a source and building a key are
# each serialised with flock; a complete build is read without a lock.
#
# Environment: VSB_VM_CACHE (the cache), VSB_KSRC_CACHE (Debian's
# unpacked sources, default VSB_VM_CACHE/src), VSB_KBUILD_VERBOSE=1 (make's
# output on stderr as it comes, not only into kbuild/<key>/vsb-build.log),
# VSB_KBUILD_JOBS (make -j, default nproc).  Variables that would change
# what kbuild builds without the key seeing it (ARCH, CROSS_COMPILE, CC,
# LLVM, KCFLAGS, KBUILD_OUTPUT, KCONFIG_CONFIG, MAKEFLAGS from a calling
# make, ...) are cleared for the build.  So is the caller's locale:
# everything runs under LANG=C LC_ALL=C, apt, git and patch, whose words
# are read, included.
#
# Exit status: 0 ok; 1 error (a failed build, or a fragment option that
# the final .config does not have: the line names it); 2 bad input,
# refused before any build and before any download (except that a
# Debian source is fetched to check that the patches apply to it);
# 4 skipped: the tools or the Debian source cannot be had here (not
# root for apt-get, no package lists).

set -euo pipefail

# The whole script is one brace group: bash reads it all before running
# any of it, so editing or updating the file during a 15-minute build
# cannot change what the running build does.
{
# One locale for all of it, not the user's: the words read from apt and
# git, sort orders, make's and the compilers' messages in the log.  The
# kernel's Makefile unexports LC_ALL (it sets LC_COLLATE and LC_NUMERIC
# itself), so LANG says C too, and no LC_* or LANGUAGE is left to differ.
unset LANGUAGE $(compgen -A variable LC_)
export LANG=C LC_ALL=C
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SELF=$REPO/ci/kernel-build.sh
. "$REPO/ci/cache.bash"
. "$REPO/ci/kbuild-base.bash"	# seed_from_base, outside the key: see there
# The recipe's parts by job, function definitions only: each is read
# whole here, before any work, as this brace group is.
. "$REPO/ci/kbuild-fetch.bash"	# the tools; the source: its identity, fetch
. "$REPO/ci/kbuild-config.bash"	# do the patches apply; configure
. "$REPO/ci/kbuild-build.bash"	# make in the build folder
. "$REPO/ci/kbuild-cache.bash"	# the key, --out, --reuse's lineage
CACHE=$(vsb_vm_cache "$REPO")
KSRC=${VSB_KSRC_CACHE:-$CACHE/src}
# Bump when the recipe changes (targets, merge, localversion): new keys.
RECIPE=1
# ...and the recipe's text, read now (the brace group below is what
# runs): this script, cache.bash and each part above
RECIPE_SHA=$(cat "$SELF" "$REPO"/ci/{cache,kbuild-fetch,kbuild-config,kbuild-build,kbuild-cache}.bash |
	sha256sum | cut -c1-16)
SERIES_KNOWN='6.1 6.12'

log() { printf 'kernel-build: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
refuse() { log "$*"; exit 2; }
skip() { log "SKIP: $*"; exit 4; }
usage() {
	sed -n '/^# Usage:/,/^# Everything but/s/^# \{0,1\}//p' "$SELF" | sed '$d'
	exit 0
}

# --- command line -------------------------------------------------------------
SRC='' OUT='' MODE=build REUSE=0 FRAG=$REPO/ci/kernel.config PATCHES=() have_src=0
while (($#)); do
	case $1 in
	--source|--patch|--out|--fragment)
		if (($# < 2)) || [[ -z $2 ]]; then refuse "$1 needs a value"; fi
		case $1 in
		--source)   SRC=$2; have_src=1 ;;
		--patch)    PATCHES+=("$2") ;;
		--out)      OUT=$2 ;;
		--fragment) FRAG=$2 ;;
		esac
		shift 2 ;;
	--print-config) MODE=config; shift ;;
	--print-key)    MODE=key; shift ;;
	--reuse)        REUSE=1; shift ;;
	--fetch)        MODE=fetch; shift ;;
	-h|--help)      usage ;;
	*)              refuse "unknown option: $1 (see --help)" ;;
	esac
done
((have_src)) || refuse "no --source given (debian:6.1, debian:6.12 or a kernel tree; see --help)"
[[ $MODE != build || -n $OUT ]] || refuse "no --out DIR given (where the bzImage and build links go)"

# --- checks that need nothing -------------------------------------------------
check_patch_files
read_fragment
[[ -z $OUT ]] || check_out
# kbuild takes no blank or ':' in its source or build folder's path
[[ $CACHE != *:* ]] || refuse "the cache path $CACHE has a ':' (the BZIMAGE:BUILD_DIR spec cannot hold it)"
[[ $CACHE != *[[:space:]]* ]] || refuse "the cache path ${CACHE@Q} has a blank (kbuild cannot build in it)"

TREE='' DEB_PKG='' DEB_VER='' DEB_PIN='' DEB_FILE='' DEB_SHA=''
check_source

if ((REUSE)); then
	[[ -n $TREE ]] && ((${#PATCHES[@]} == 0)) ||
		refuse "--reuse is for a kernel tree of your own without --patch"
	[[ ${VSB_KBUILD_KEEP:-6} =~ ^[1-9][0-9]{0,3}$ ]] ||
		refuse "VSB_KBUILD_KEEP=${VSB_KBUILD_KEEP}: not a count of builds (1-9999)"
fi

# --- tools ----------------------------------------------------------------------
early=(gcc:gcc)
((${#PATCHES[@]} == 0)) || early+=(patch:patch)
[[ -z $DEB_PKG || $MODE == key ]] || early+=(dpkg-deb:dpkg xz:xz-utils)
need_tools "${early[@]}"

# --- the source's identity --------------------------------------------------------
apt_updated=0
source_identity

KEY_TEXT=$(key_material)
KEY=$(sha256sum <<<"$KEY_TEXT" | cut -c1-16)
if [[ $MODE == key ]]; then
	printf '%s\n' "$KEY"
	exit 0
fi
set_lineage

BDIR=$CACHE/kbuild/$KEY
BZ=$BDIR/arch/x86/boot/bzImage

# Fast path: a complete build is never written again, no lock needed.
if [[ $MODE == build ]] && complete; then
	# a lineage keeps the builds used last: this one was, now
	[[ -z $LINEAGE ]] || touch "$BDIR/.vsb-complete"
	log "cached build $KEY ($SRC_NAME${PATCHES:+, ${#PATCHES[@]} patch(es)})"
	write_out
	exit 0
fi
if [[ $MODE == config && -f $BDIR/.vsb-configured ]]; then
	printf '%s\n' "$BDIR/.config"
	exit 0
fi

# --- the Debian source: download and unpack, once per version -----------------
# The level needed: kconfig's files for a patch-free --print-config, else
# (a build) all.  Patches are checked first on whatever level is there
# when it holds every file they name (see check_patches).
if [[ -n $DEB_PKG ]]; then
	if [[ $MODE == fetch ]]; then fetch_debian full
	else fetch_debian kconfig
	fi
fi
if [[ $MODE == fetch ]]; then
	printf '%s\n' "$TREE"
	exit 0
fi

# --- do the patches apply?  Checked on a copy of the files they touch -------------
check_patches
late=(make:make flex:flex bison:bison /usr/include/stdio.h:libc6-dev)
[[ $MODE != build ]] || late+=(bc:bc /usr/include/gelf.h:libelf-dev
	/usr/include/openssl/opensslv.h:libssl-dev perl:perl)
need_tools "${late[@]}"
if [[ -n $DEB_PKG && ($MODE == build || ${#PATCHES[@]} -gt 0) ]]; then
	fetch_debian full
fi

# --- from here on, the key's build folder, under its lock ---------------------------
lock_build_folder
if [[ $MODE == build ]] && complete; then
	log "built meanwhile by another call: $KEY"
	write_out
	exit 0
fi

clean_kbuild_env
LOGF=$BDIR/vsb-build.log

source_to_build

[[ -z $LINEAGE ]] || seed_from_lineage
((${#PATCHES[@]} == 0)) || seed_from_base

# --- configure: tinyconfig + the fragment, then check every line held ---------------
hold_kconfig_source
[[ -f $BDIR/.vsb-configured ]] || configure
if [[ $MODE == config ]]; then
	printf '%s\n' "$BDIR/.config"
	exit 0
fi

# --- build: bzImage, and modules for Module.symvers ----------------------------------
build_kernel
write_out
exit 0
}
