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
# The key is a SHA-256 (first 16 hex digits) over: this script's text and
# ci/cache.bash's (the recipe itself: an edit that forgets to bump the
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
CACHE=$(vsb_vm_cache "$REPO")
KSRC=${VSB_KSRC_CACHE:-$CACHE/src}
# Bump when the recipe changes (targets, merge, localversion): new keys.
RECIPE=1
# ...and the recipe's text, read now (the brace group below is what runs)
RECIPE_SHA=$(cat "$SELF" "$REPO/ci/cache.bash" | sha256sum | cut -c1-16)
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
for p in ${PATCHES[@]+"${PATCHES[@]}"}; do
	[[ -e $p ]] || refuse "--patch $p: no such file"
	[[ -f $p && -r $p ]] || refuse "--patch $p: not a readable regular file"
	grep -qE '^(\+\+\+|---) ' -- "$p" || refuse "--patch $p: not a patch (no ---/+++ lines)"
done
[[ -f $FRAG && -r $FRAG ]] || refuse "--fragment $FRAG: not a readable file"
# The fragment: "CONFIG_X=VALUE  # why" lines; kconfig's own syntax
# without the comments goes to the merge, =n as "# CONFIG_X is not set".
FRAG_LINES=$(sed -e 's/[[:space:]]#.*$//' -e 's/[[:space:]]*$//' -e '/^[[:space:]]*#/d' \
	-e '/^$/d' "$FRAG")
bad=$(grep -vE '^CONFIG_[A-Za-z0-9_]+=("[^"]*"|[^"[:space:]]+)$' <<<"$FRAG_LINES" | head -n1 || true)
[[ -z $bad ]] || refuse "--fragment $FRAG: not a CONFIG_X=VALUE line: $bad"
[[ -n $FRAG_LINES ]] || refuse "--fragment $FRAG: no CONFIG_ lines"
# --out holds what this script wrote there or nothing: bzImage and build
# links into a cache's kbuild/<key>, and a kernel.env of its six lines.
# Anything else there (a user's own kernel.env or link, a FIFO, a folder)
# is refused before the build, never replaced; so is a folder on the way
# that is a file, a link to nothing, or one this user cannot write.
check_out() {
	local o f t
	[[ ! -L $OUT || -e $OUT ]] || refuse "--out $OUT: a link to nothing"
	[[ ! -e $OUT || -d $OUT ]] || refuse "--out $OUT: exists and is not a folder"
	o=$OUT
	while [[ ! -e $o && ! -L $o ]]; do o=$(dirname "$o"); done
	[[ -d $o ]] || refuse "--out $OUT: $o is not a folder"
	[[ -w $o && -x $o ]] || refuse "--out $OUT: $o is not writable"
	[[ -d $OUT ]] || return 0
	for f in bzImage build; do
		[[ -e $OUT/$f || -L $OUT/$f ]] || continue
		[[ -L $OUT/$f ]] ||
			refuse "--out $OUT: $OUT/$f exists and is not a link (this script writes links there)"
		t=$(readlink "$OUT/$f")
		[[ $f == build && $t =~ /kbuild/[0-9a-f]{16}$ ]] ||
		[[ $f == bzImage && $t =~ /kbuild/[0-9a-f]{16}/arch/x86/boot/bzImage$ ]] ||
			refuse "--out $OUT: $OUT/$f is a link to $t, not one this script made: left as it is"
	done
	f=$OUT/kernel.env
	[[ -e $f || -L $f ]] || return 0
	[[ -f $f && ! -L $f ]] ||
		refuse "--out $OUT: $f exists and is not a regular file: left as it is"
	[[ $(cut -d= -f1 "$f" | tr '\n' ' ') == "KERNEL KDIR KREL KEY SOURCE PATCHES " ]] ||
		refuse "--out $OUT: $f is not one this script wrote (KERNEL= .. PATCHES=): left as it is"
}
[[ -z $OUT ]] || check_out
# kbuild takes no blank or ':' in its source or build folder's path
[[ $CACHE != *:* ]] || refuse "the cache path $CACHE has a ':' (the BZIMAGE:BUILD_DIR spec cannot hold it)"
[[ $CACHE != *[[:space:]]* ]] || refuse "the cache path ${CACHE@Q} has a blank (kbuild cannot build in it)"

TREE='' DEB_PKG='' DEB_VER='' DEB_PIN='' DEB_FILE='' DEB_SHA=''
case $SRC in
debian:*)
	s=${SRC#debian:}
	if [[ $s == *=* ]]; then DEB_PIN=${s#*=}; s=${s%%=*}; fi
	[[ " $SERIES_KNOWN " == *" $s "* ]] ||
		refuse "unknown Debian series '$s' in --source $SRC (known: ${SERIES_KNOWN// /, })"
	[[ -z $DEB_PIN || $DEB_PIN =~ ^[0-9][0-9A-Za-z.+~-]*$ ]] ||
		refuse "--source $SRC: '$DEB_PIN' is not a Debian version"
	DEB_PKG=linux-source-$s
	;;
*)
	[[ $MODE != fetch ]] || refuse "--fetch is for debian:SERIES sources"
	[[ -e $SRC ]] || refuse "--source $SRC: no such file or folder"
	[[ -d $SRC ]] || refuse "--source $SRC: not a folder"
	TREE=$(cd "$SRC" && pwd -P)
	[[ $TREE != *:* ]] || refuse "--source $SRC: a path with ':' cannot be built with O="
	[[ $TREE != *[[:space:]]* ]] ||
		refuse "--source ${SRC@Q}: a path with a blank (space, tab, line break) cannot be built by kbuild"
	if ! grep -qE '^VERSION = [0-9]' "$TREE/Makefile" 2>/dev/null ||
	   ! grep -qE '^PATCHLEVEL = [0-9]' "$TREE/Makefile" ||
	   [[ ! -f $TREE/Kconfig || ! -f $TREE/arch/x86/Kconfig || ! -d $TREE/scripts/kconfig ]]; then
		refuse "--source $SRC: not a kernel tree (no top Makefile with VERSION and PATCHLEVEL, Kconfig, arch/x86/Kconfig, scripts/kconfig/)"
	fi
	# kbuild refuses O= on a configured tree; say it before anything runs
	for f in .config include/config include/generated arch/x86/include/generated; do
		[[ ! -e $TREE/$f ]] ||
			refuse "--source $SRC: has an in-tree build ($f): run 'make mrproper' there first (this script never writes to your tree)"
	done
	;;
esac

if ((REUSE)); then
	[[ -n $TREE ]] && ((${#PATCHES[@]} == 0)) ||
		refuse "--reuse is for a kernel tree of your own without --patch"
	[[ ${VSB_KBUILD_KEEP:-6} =~ ^[1-9][0-9]{0,3}$ ]] ||
		refuse "VSB_KBUILD_KEEP=${VSB_KBUILD_KEEP}: not a count of builds (1-9999)"
fi

# --- tools ----------------------------------------------------------------------
# "command:package" or "/header:package"; what is missing is installed
# when root (as ci/deps.sh does), else the run is a skip.  Two rounds:
# what the key, the fetch and the patch check need, here; what kconfig
# and the build need, after the patches were found to apply, so that bad
# input is refused (2) wherever it is refused, tools or not.
need_tools() {	# need_tools SPEC...
	local miss=() t pkg
	for t in "$@"; do
		pkg=${t##*:} t=${t%:*}
		if [[ $t == /* ]]; then [[ -e $t ]] && continue
		else command -v "$t" >/dev/null && continue
		fi
		[[ " ${miss[*]} " == *" $pkg "* ]] || miss+=("$pkg")
	done
	((${#miss[@]})) || return 0
	if [[ $(id -u) != 0 ]] || ! command -v apt-get >/dev/null; then
		skip "missing ${miss[*]} (apt-get install ${miss[*]} needs root)"
	fi
	log "installing ${miss[*]}"
	inst() {
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends "${miss[@]}" >/dev/null 2>&1
	}
	inst || { apt-get update -q >/dev/null 2>&1 && inst; } ||
		skip "cannot install ${miss[*]} with apt-get"
}
early=(gcc:gcc)
((${#PATCHES[@]} == 0)) || early+=(patch:patch)
[[ -z $DEB_PKG || $MODE == key ]] || early+=(dpkg-deb:dpkg xz:xz-utils)
need_tools "${early[@]}"

# --- the source's identity --------------------------------------------------------
apt_updated=0
apt_update() {
	((apt_updated == 0)) && [[ $(id -u) == 0 ]] || return 1
	apt_updated=1
	apt-get update -q >/dev/null 2>&1 || return 1
}
# DEB_VER, DEB_FILE and DEB_SHA from the package lists (one apt call:
# the candidate's or the pinned version's file name and SHA-256); the
# last answer is kept in src/<package>.env, so a cache filled once works
# without the lists.
deb_lookup() {
	local line sha v
	line=$(apt-get download --print-uris "$DEB_PKG${DEB_PIN:+=$DEB_PIN}" 2>/dev/null |
		grep -m1 "^'[^']*' ${DEB_PKG}_[^ ]*_all\.deb [0-9]* SHA256:") || return 1
	read -r _ DEB_FILE _ sha <<<"$line"
	v=${DEB_FILE#"${DEB_PKG}_"}
	v=${v%_all.deb}
	DEB_VER=${v//%3a/:} DEB_SHA=${sha#SHA256:}
}
deb_resolve() {
	local envf=$KSRC/$DEB_PKG.env
	command -v apt-get >/dev/null && { deb_lookup || { apt_update && deb_lookup; }; } && return 0
	if [[ -n $DEB_PIN ]] && command -v apt-cache >/dev/null &&
	   [[ -n $(apt-cache policy "$DEB_PKG" 2>/dev/null | sed -n 's/^ *Candidate: //p') ]]; then
		refuse "--source $SRC: the package lists have no $DEB_PKG version $DEB_PIN (apt-cache policy $DEB_PKG)"
	fi
	if [[ -z $DEB_PIN && -f $envf ]]; then
		DEB_VER=$(sed -n 's/^VER=//p' "$envf") DEB_SHA=$(sed -n 's/^SHA256=//p' "$envf")
		DEB_FILE=$(sed -n 's/^FILE=//p' "$envf")
		[[ -n $DEB_VER && -n $DEB_SHA && -n $DEB_FILE ]] && { log "package lists unavailable: using $DEB_PKG $DEB_VER from $envf"; return 0; }
	fi
	skip "the package lists know no $DEB_PKG${DEB_PIN:+ $DEB_PIN} (apt-get update needs root and a mirror)"
}

# Identity of a tree of your own; see the header.
tree_identity() {
	local t=$1 top head changes
	top=$(git -C "$t" rev-parse --show-toplevel 2>/dev/null || true)
	if [[ -n $top ]] && head=$(git -C "$t" rev-parse -q --verify HEAD 2>/dev/null); then
		changes=$(cd "$t" && {
			git diff HEAD --binary -- .
			git ls-files -z --others --exclude-standard -- . |
				LC_ALL=C sort -z | xargs -0 -r sha256sum --
		} | sha256sum | cut -d' ' -f1)
		printf 'tree %s git %s changes %s\n' "$t" "$head" "$changes"
	else
		changes=$(cd "$t" && find . -path ./.git -prune -o -type f -printf '%P %s %T@\n' |
			LC_ALL=C sort | sha256sum | cut -d' ' -f1)
		printf 'tree %s files %s\n' "$t" "$changes"
	fi
}

if [[ -n $DEB_PKG ]]; then
	deb_resolve
	SRC_ID="debian $DEB_PKG $DEB_VER sha256 $DEB_SHA"
	SRC_NAME="$DEB_PKG $DEB_VER"
else
	SRC_ID=$(tree_identity "$TREE")
	SRC_NAME=$TREE
fi

key_material() {
	local p
	printf 'vsb-kernel-build recipe %s text %s\n' "$RECIPE" "$RECIPE_SHA"
	printf 'source %s\n' "$SRC_ID"
	for p in ${PATCHES[@]+"${PATCHES[@]}"}; do
		printf 'patch %s\n' "$(sha256sum <"$p" | cut -d' ' -f1)"
	done
	printf 'fragment %s\n' "$(sha256sum <"$FRAG" | cut -d' ' -f1)"
	printf 'cc %s\n' "$(gcc --version | head -n1)"
	printf 'ld %s\n' "$(ld --version 2>/dev/null | head -n1)"
}
KEY_TEXT=$(key_material)
KEY=$(sha256sum <<<"$KEY_TEXT" | cut -c1-16)
if [[ $MODE == key ]]; then
	printf '%s\n' "$KEY"
	exit 0
fi
# --reuse: the lineage is the key without the tree's revision and edits
# (the same tree path, config, recipe and tools): any build of it is a
# good start for another, make's dependencies do the rest.
LINEAGE=''
if ((REUSE)); then
	LINEAGE=$({ printf 'lineage %s\n' "$TREE"; grep -v '^source ' <<<"$KEY_TEXT"; } |
		sha256sum | cut -c1-16)
fi

BDIR=$CACHE/kbuild/$KEY
BZ=$BDIR/arch/x86/boot/bzImage

# --out: two links and an env file, each replaced whole.
write_out() {
	local krel
	krel=$(<"$BDIR/include/config/kernel.release")
	mkdir -p "$OUT"
	ln -sfn "$BZ" "$OUT/bzImage"
	ln -sfn "$BDIR" "$OUT/build"
	local patches=() p
	for p in ${PATCHES[@]+"${PATCHES[@]}"}; do patches+=("$(realpath -- "$p")"); done
	printf 'KERNEL=%q\nKDIR=%q\nKREL=%q\nKEY=%q\nSOURCE=%q\nPATCHES=%q\n' \
		"$BZ" "$BDIR" "$krel" "$KEY" "$SRC_NAME" "${patches[*]}" >"$OUT/kernel.env.tmp.$$"
	mv -f "$OUT/kernel.env.tmp.$$" "$OUT/kernel.env"
	log "kernel $krel: $BZ (build folder $BDIR)"
	printf '%s:%s\n' "$BZ" "$BDIR"
}
# Complete, and its source still there (O= leaves a `source` link to it;
# a module build against KDIR reads the headers through it).
complete() {
	[[ -f $BDIR/.vsb-complete && -f $BZ && -f $BDIR/Module.symvers && -f $BDIR/source/Makefile ]]
}

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
# Two levels, each marked in the tree: .vsb-kconfig, the files kconfig
# reads (Kconfig*, Makefiles, scripts/, arch/x86/, include/: 13k files,
# unpacked in about half the time of the whole), enough for
# --print-config without patches; .vsb-complete, the whole tree, for a
# build and for patches.  The .deb is kept until the tree is complete.
# Unpacking is serialised by a flock on KSRC/.lock; a level is unpacked
# into a scratch folder and renamed, so a tree is never half there.
KCONFIG_FILES=('*/Kconfig*' '*/Makefile*' '*/Kbuild*' '*/scripts/*' '*/arch/x86/*'
	'*/kernel/configs/*' '*/include/*')
fetch_debian() {	# fetch_debian kconfig|full: sets TREE
	local level=$1 debs=$KSRC/debs deb
	TREE=$KSRC/${DEB_PKG}_${DEB_VER//:/%}
	[[ -f $TREE/.vsb-complete ]] && return 0
	[[ $level == kconfig && -f $TREE/.vsb-kconfig ]] && return 0
	mkdir -p "$debs" 2>/dev/null || skip "cannot write to $KSRC (fetching $DEB_PKG)"
	exec 7>>"$KSRC/.lock"
	flock 7
	if [[ ! -f $TREE/.vsb-complete && ($level == full || ! -f $TREE/.vsb-kconfig) ]]; then
		deb=$debs/$DEB_FILE
		if [[ ! -f $deb ]]; then
			log "downloading $DEB_PKG $DEB_VER (apt-get download, ~150 MB)"
			(cd "$debs" && apt-get download -q "$DEB_PKG=$DEB_VER" >/dev/null 2>&1) ||
				{ apt_update && (cd "$debs" && apt-get download -q "$DEB_PKG=$DEB_VER" >/dev/null 2>&1); } ||
				skip "apt-get download $DEB_PKG=$DEB_VER failed (offline?)"
			[[ -f $deb ]] || die "apt-get download left no $DEB_FILE in $debs"
			[[ $(sha256sum <"$deb" | cut -d' ' -f1) == "$DEB_SHA" ]] ||
				{ rm -f "$deb"; die "$deb does not have the SHA-256 the package lists give"; }
		fi
		if [[ $level == full ]]; then
			log "unpacking $DEB_PKG $DEB_VER into $TREE"
		else
			log "unpacking the files kconfig reads of $DEB_PKG $DEB_VER into $TREE"
		fi
		rm -rf "$TREE.tmp"
		mkdir -p "$TREE.tmp"
		local what=()
		[[ $level == full ]] || what=(--wildcards "${KCONFIG_FILES[@]}")
		dpkg-deb --fsys-tarfile "$deb" | tar -xOf - "./usr/src/$DEB_PKG.tar.xz" | xz -dc |
			tar -xf - -C "$TREE.tmp" --strip-components=1 ${what[@]+"${what[@]}"} ||
			{ rm -rf "$TREE.tmp"; die "unpacking $deb failed"; }
		[[ -f $TREE.tmp/Makefile && -f $TREE.tmp/Kconfig ]] ||
			{ rm -rf "$TREE.tmp"; die "$deb holds no kernel tree"; }
		printf '%s\n' "$SRC_ID" >"$TREE.tmp/.vsb-$level"
		[[ $level == kconfig ]] || mv "$TREE.tmp/.vsb-full" "$TREE.tmp/.vsb-complete"
		rm -rf "$TREE"
		mv "$TREE.tmp" "$TREE"
		if [[ $level == full ]]; then
			rm -f "$deb"
			rmdir "$debs" 2>/dev/null || true
		fi
		if [[ -z $DEB_PIN ]]; then
			printf 'VER=%s\nFILE=%s\nSHA256=%s\n' "$DEB_VER" "$DEB_FILE" "$DEB_SHA" \
				>"$KSRC/$DEB_PKG.env.tmp.$$" && mv -f "$KSRC/$DEB_PKG.env.tmp.$$" "$KSRC/$DEB_PKG.env"
		fi
	fi
	exec 7>&-
}
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
# Only the files a patch names matter to it, so the whole series is
# applied, in order, to a scratch folder holding just those: exact, and
# nothing is written to the cache for a patch that does not apply.
PATCH_ARGS=(-p1 -F0 -N --batch --no-backup-if-mismatch -r -)
patch_paths() {	# the -p1 paths a patch names
	awk '/^(---|\+\+\+) / { f = substr($0, 5); sub(/\t.*/, "", f)
			if (f == "/dev/null") next
			sub(/^[^\/]*\//, "", f); print f; next }
	     /^(rename|copy) (from|to) / { f = $0; sub(/^[a-z]+ [a-z]+ /, "", f); print f }' "$1"
}
# What went wrong, in one line, from patch's output.
patch_why() {
	awk '/^patching file / { f = substr($0, 15) }
	     /^\|\+\+\+ / { f = substr($0, 6); sub(/\t.*/, "", f); sub(/^[^\/]*\//, "", f) }
	     /FAILED at/ { print f ": " $0; exit }
	     /No file to patch/ { print "no file to patch: " f; exit }
	     /Reversed .*detected/ { print f ": reversed or already applied"; exit }
	     /malformed|garbage/ { print; exit }
	     END { }' <<<"$1"
}
check_patches() {
	local scratch p f msg names
	((${#PATCHES[@]})) || return 0
	scratch=$(mktemp -d "${TMPDIR:-/tmp}/vsb-kpatch.XXXXXX")
	# shellcheck disable=SC2064  # the path is fixed now
	trap "rm -rf '$scratch'" EXIT
	names=$(for p in "${PATCHES[@]}"; do patch_paths "$p"; done | sort -u)
	# a Debian tree unpacked for kconfig only may lack a file a patch
	# names: then the whole tree first (a download, never a build)
	if [[ -n $DEB_PKG && ! -f $TREE/.vsb-complete ]]; then
		while IFS= read -r f; do
			[[ -z $f || -e $TREE/$f ]] || { fetch_debian full; break; }
		done <<<"$names"
	fi
	while IFS= read -r f; do
		[[ -n $f && $f != *..* && -f $TREE/$f ]] || continue
		mkdir -p "$scratch/$(dirname "$f")"
		cp -p "$TREE/$f" "$scratch/$f"
	done <<<"$names"
	for p in "${PATCHES[@]}"; do
		if ! msg=$(patch "${PATCH_ARGS[@]}" -d "$scratch" -i "$(realpath -- "$p")" 2>&1); then
			msg=$(patch_why "$msg")
			rm -rf "$scratch"
			refuse "--patch $p does not apply to $SRC_NAME: ${msg:-patch failed}"
		fi
	done
	rm -rf "$scratch"
	trap - EXIT
}
check_patches
late=(make:make flex:flex bison:bison /usr/include/stdio.h:libc6-dev)
[[ $MODE != build ]] || late+=(bc:bc /usr/include/gelf.h:libelf-dev
	/usr/include/openssl/opensslv.h:libssl-dev perl:perl)
need_tools "${late[@]}"
if [[ -n $DEB_PKG && ($MODE == build || ${#PATCHES[@]} -gt 0) ]]; then
	fetch_debian full
fi

# --- from here on, the key's build folder, under its lock ---------------------------
mkdir -p "$BDIR"
exec 8>>"$BDIR/.vsb-lock"
if ! flock -n 8; then
	log "waiting for another build of $KEY"
	flock 8
fi
if [[ $MODE == build ]] && complete; then
	log "built meanwhile by another call: $KEY"
	write_out
	exit 0
fi

# Clean kbuild's view of the environment: nothing the key does not cover.
unset ARCH SUBARCH CROSS_COMPILE LLVM LLVM_IAS CC LD AR NM OBJCOPY OBJDUMP \
	HOSTCC HOSTCXX HOSTCFLAGS HOSTLDFLAGS KCFLAGS KCPPFLAGS KAFLAGS KRUSTFLAGS \
	KBUILD_OUTPUT KBUILD_VERBOSE KBUILD_EXTMOD KBUILD_EXTRA_SYMBOLS \
	KBUILD_DEFCONFIG KCONFIG_CONFIG KCONFIG_ALLCONFIG INSTALL_MOD_PATH \
	MAKEFLAGS MAKELEVEL MFLAGS MAKEOVERRIDES GNUMAKEFLAGS
LOGF=$BDIR/vsb-build.log

# The source to build: the tree itself, or with patches a copy of it.
SRCTREE=$TREE
if ((${#PATCHES[@]})); then
	SRCTREE=$CACHE/kbuild/$KEY.src
	if [[ ! -f $SRCTREE/.vsb-complete ]]; then
		rm -rf "$SRCTREE.tmp"
		mkdir -p "$SRCTREE.tmp"
		if [[ -n $DEB_PKG ]]; then
			# our own read-only tree: hard links (GNU patch writes a
			# new file, so the original is never changed); a copy
			# where links cannot be made
			cp -al "$TREE/." "$SRCTREE.tmp/" 2>/dev/null ||
				{ rm -rf "$SRCTREE.tmp"; mkdir -p "$SRCTREE.tmp"; cp -a "$TREE/." "$SRCTREE.tmp/"; }
			rm -f "$SRCTREE.tmp/.vsb-complete"
		else
			# what the key covers: in git, the tracked files and the
			# untracked ones git does not ignore; else all but .git
			log "copying $TREE (your tree is never patched in place)"
			if git -C "$TREE" rev-parse -q --verify HEAD >/dev/null 2>&1; then
				(cd "$TREE" && git ls-files -z --cached --others --exclude-standard -- . |
					tar --null -T - --ignore-failed-read -cf -) 2>/dev/null
			else
				tar -C "$TREE" --exclude=./.git -cf - .
			fi | tar -C "$SRCTREE.tmp" -xf - || die "copying $TREE failed"
		fi
		for p in "${PATCHES[@]}"; do
			log "applying ${p##*/}"
			patch "${PATCH_ARGS[@]}" -s -d "$SRCTREE.tmp" -i "$(realpath -- "$p")" >&2 ||
				die "--patch $p did not apply to the copy (it did to the files it names?)"
		done
		printf '%s\n' "$KEY_TEXT" >"$SRCTREE.tmp/.vsb-complete"
		rm -rf "$SRCTREE"
		mv "$SRCTREE.tmp" "$SRCTREE"
	fi
fi

# --reuse: a new build folder starts as a copy of the lineage's last
# complete build (cp -a keeps the mtimes make compares; reflinks where the
# file system has them).  A folder that got as far as configured is this
# key's own earlier try: kept as it is.
seed_from_lineage() {
	local prev lf=$CACHE/kbuild/lineage-$LINEAGE
	printf '%s\n' "$LINEAGE" >"$BDIR/.vsb-lineage"
	[[ ! -f $BDIR/.vsb-configured && -f $lf ]] || return 0
	prev=$(<"$lf")
	[[ $prev =~ ^[0-9a-f]{16}$ && $prev != "$KEY" && -f $CACHE/kbuild/$prev/.vsb-complete ]] ||
		return 0
	log "starting from the build of $prev (same tree and config): make rebuilds what changed"
	find "$CACHE/kbuild/$prev" -mindepth 1 -maxdepth 1 ! -name '.vsb-*' ! -name 'vsb-*' \
		-exec cp -a --reflink=auto -t "$BDIR" {} + || die "copying the build folder of $prev failed"
}
# A module is built against a build folder later (ab, kmod-build.sh),
# through its `source` link and generated Makefile, which name the tree;
# in a lineage the clone moves on to other commits, so each build gets
# the tree as built: kbuild/<key>.src, hard links (cheap; git replaces a
# file it checks out, never rewrites it in place, so the links keep this
# commit's bytes).  The next build of the lineage runs make in the tree
# again, which points both back at it first.
snapshot_source() {
	local snap=$CACHE/kbuild/$KEY.src
	rm -rf "$snap.tmp" "$snap"
	cp -al "$TREE/." "$snap.tmp" || die "linking $TREE into $snap failed"
	rm -rf "$snap.tmp/.git"
	mv "$snap.tmp" "$snap"
	printf '# Automatically generated by %s: a bisect build (ci/kernel-build.sh --reuse)\ninclude %s/Makefile\n' \
		"$snap/Makefile" "$snap" >"$BDIR/Makefile"
	ln -sfn "$snap" "$BDIR/source"
}
# Bounded disk: a lineage keeps its VSB_KBUILD_KEEP builds used last
# (.vsb-complete's mtime: built or found cached); older ones go, each
# under its own lock, skipped while someone holds it.
prune_lineage() {
	local keep=${VSB_KBUILD_KEEP:-6} d n=1 f
	# this build is the first kept; the others by last use (whole
	# seconds: ties are broken by the sort, never against this one)
	while IFS= read -r d; do
		[[ ${d##*/} != "$KEY" ]] || continue
		n=$((n + 1))
		((n > keep)) || continue
		if (exec 9>>"$d/.vsb-lock" && flock -n 9 && rm -rf "$d.src" "$d"); then
			log "removed the older build ${d##*/} (VSB_KBUILD_KEEP=$keep)"
		fi
	done < <(for f in "$CACHE"/kbuild/*/.vsb-lineage; do
			[[ -f $f && $(<"$f") == "$LINEAGE" && -f ${f%/*}/.vsb-complete ]] || continue
			printf '%s %s\n' "$(stat -c %Y "${f%/*}/.vsb-complete")" "${f%/*}"
		done | sort -rn | cut -d' ' -f2-)
}
[[ -z $LINEAGE ]] || seed_from_lineage
((${#PATCHES[@]} == 0)) || seed_from_base

kmake() {	# kmake TARGET...: make in the build folder, output to the log
	local rc=0
	printf '\n$ make %s\n' "$*" >>"$LOGF"
	if [[ ${VSB_KBUILD_VERBOSE:-0} == 1 ]]; then
		make -C "$SRCTREE" O="$BDIR" "$@" 2>&1 | tee -a "$LOGF" >&2 || rc=$?
	else
		make -C "$SRCTREE" O="$BDIR" "$@" >>"$LOGF" 2>&1 || rc=$?
	fi
	return "$rc"
}
fail_make() {
	log "error: make $* failed; last lines of $LOGF:"
	tail -n 25 "$LOGF" | sed 's/^/  | /' >&2
	exit 1
}

# --- configure: tinyconfig + the fragment, then check every line held ---------------
# kconfig's form of the fragment, plus the release suffix naming the build
kconfig_lines() {
	awk -F= '{ if ($2 == "n") print "# " $1 " is not set"; else print }' <<<"$FRAG_LINES"
	printf 'CONFIG_LOCALVERSION="-vsb-%s"\n# CONFIG_LOCALVERSION_AUTO is not set\n' "$KEY"
}
# The first line of the wanted config that .config does not hold, if any.
# =n holds when the option is unset or absent (it may not exist here).
config_miss() {	# config_miss DOTCONFIG < kconfig lines
	awk 'NR == FNR { if ($0 ~ /^CONFIG_/) { i = index($0, "="); v[substr($0, 1, i - 1)] = substr($0, i + 1) }
			 next }
	     /^# CONFIG_.* is not set$/ { if (($2 in v) && v[$2] != "n") { print; exit } ; next }
	     { i = index($0, "="); k = substr($0, 1, i - 1)
	       if (!(k in v) || v[k] != substr($0, i + 1)) { print; exit } }' "$1" -
}
configure() {
	local want miss
	rm -f "$BDIR/.vsb-configured"
	: >"$LOGF"
	log "configuring $SRC_NAME${PATCHES:+ + ${#PATCHES[@]} patch(es)}: tinyconfig + ${FRAG#"$REPO"/} ($BDIR)"
	kmake tinyconfig || fail_make tinyconfig
	want=$(kconfig_lines)
	# the fragment replaces whatever tinyconfig said about its options
	awk 'NR == FNR { k = $0; sub(/^# /, "", k); sub(/[= ].*/, "", k); drop[k] = 1; next }
	     { k = $0; sub(/^# /, "", k); sub(/[= ].*/, "", k); if (!(k in drop)) print }' \
		<(printf '%s\n' "$want") "$BDIR/.config" >"$BDIR/.config.vsb"
	printf '%s\n' "$want" >>"$BDIR/.config.vsb"
	mv -f "$BDIR/.config.vsb" "$BDIR/.config"
	kmake olddefconfig || fail_make olddefconfig
	miss=$(config_miss "$BDIR/.config" <<<"$want")
	if [[ -n $miss ]]; then
		die "'$miss' (${FRAG#"$REPO"/}) does not hold after olddefconfig: kconfig dropped it (a dependency missing in $SRC_NAME?); see $BDIR/.config"
	fi
	log "all $(wc -l <<<"$FRAG_LINES") options of ${FRAG#"$REPO"/} hold in $BDIR/.config"
	touch "$BDIR/.vsb-configured"
}
# A config run on a tree unpacked for kconfig only holds the source lock
# shared, so that a build fetching the whole tree (which replaces the
# folder) waits for it.
if [[ -n $DEB_PKG && ! -f $TREE/.vsb-complete ]]; then
	exec 6<"$KSRC/.lock"
	flock -s 6
	[[ -f $TREE/.vsb-kconfig || -f $TREE/.vsb-complete ]] || die "$TREE vanished"
fi
[[ -f $BDIR/.vsb-configured ]] || configure
if [[ $MODE == config ]]; then
	printf '%s\n' "$BDIR/.config"
	exit 0
fi

# --- build: bzImage, and modules for Module.symvers ----------------------------------
JOBS=${VSB_KBUILD_JOBS:-$(nproc)}
log "building bzImage and modules with make -j$JOBS (log: $LOGF)"
t0=$(date +%s)
kmake -j"$JOBS" bzImage modules || fail_make bzImage modules
[[ -f $BZ && -f $BDIR/Module.symvers ]] || die "make left no bzImage or Module.symvers in $BDIR"
{
	printf '%s\n' "$KEY_TEXT"
	printf '# source: %s\n' "$SRC_NAME"
	for p in ${PATCHES[@]+"${PATCHES[@]}"}; do printf '# patch: %s\n' "$(realpath -- "$p")"; done
} >"$BDIR/vsb-inputs.txt"
[[ -z $LINEAGE ]] || snapshot_source
touch "$BDIR/.vsb-complete"
log "built $KEY in $(($(date +%s) - t0)) s"
if [[ -n $LINEAGE ]]; then
	printf '%s\n' "$KEY" >"$CACHE/kbuild/lineage-$LINEAGE.tmp.$$"
	mv -f "$CACHE/kbuild/lineage-$LINEAGE.tmp.$$" "$CACHE/kbuild/lineage-$LINEAGE"
	prune_lineage
fi
write_out
exit 0
}
