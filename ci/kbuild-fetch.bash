# SPDX-License-Identifier: GPL-2.0
#
# The source for ci/kernel-build.sh (sourced by it, functions only): the
# tools a step needs, --source checked, the source's identity (a Debian package's version
# and SHA-256 from apt, or a tree of your own's git state), and Debian's
# source downloaded and unpacked into the cache.  It uses kernel-build.sh's
# variables (SRC, DEB_*, TREE, KSRC, MODE, PATCHES) and log/skip/refuse/die.

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

# --source: a Debian series (sets DEB_PKG, DEB_PIN) or a kernel tree of
# your own (sets TREE), refused unless it can be built
check_source() {
	local s f
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
}

# SRC_ID, the source in the key (see the header), and SRC_NAME, the
# source in messages
# shellcheck disable=SC2034  # both are read by kernel-build.sh
source_identity() {
	if [[ -n $DEB_PKG ]]; then
		deb_resolve
		SRC_ID="debian $DEB_PKG $DEB_VER sha256 $DEB_SHA"
		SRC_NAME="$DEB_PKG $DEB_VER"
	else
		SRC_ID=$(tree_identity "$TREE")
		SRC_NAME=$TREE
	fi
}
