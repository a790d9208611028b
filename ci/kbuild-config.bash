# SPDX-License-Identifier: GPL-2.0
#
# Patches and config for ci/kernel-build.sh (sourced by it, functions
# only): the --patch files and the fragment read and checked; whether
# the patches apply, checked on a scratch copy of the files they name
# before anything is built; the patched copy that is built; and the
# configuration, `make tinyconfig` plus the fragment, with every fragment
# line checked in the final .config.  It uses kernel-build.sh's variables (PATCHES,
# TREE, SRC_NAME, FRAG, FRAG_LINES, BDIR, KEY) and log/refuse/die.

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

# --patch: each a readable file that looks like a patch (whether it
# applies is check_patches', once the source is there)
check_patch_files() {
	local p
	for p in ${PATCHES[@]+"${PATCHES[@]}"}; do
		[[ -e $p ]] || refuse "--patch $p: no such file"
		[[ -f $p && -r $p ]] || refuse "--patch $p: not a readable regular file"
		grep -qE '^(\+\+\+|---) ' -- "$p" || refuse "--patch $p: not a patch (no ---/+++ lines)"
	done
}

# The fragment: "CONFIG_X=VALUE  # why" lines; kconfig's own syntax
# without the comments goes to the merge, =n as "# CONFIG_X is not set".
# Sets FRAG_LINES.
read_fragment() {
	local bad
	[[ -f $FRAG && -r $FRAG ]] || refuse "--fragment $FRAG: not a readable file"
	FRAG_LINES=$(sed -e 's/[[:space:]]#.*$//' -e 's/[[:space:]]*$//' -e '/^[[:space:]]*#/d' \
		-e '/^$/d' "$FRAG")
	bad=$(grep -vE '^CONFIG_[A-Za-z0-9_]+=("[^"]*"|[^"[:space:]]+)$' <<<"$FRAG_LINES" | head -n1 || true)
	[[ -z $bad ]] || refuse "--fragment $FRAG: not a CONFIG_X=VALUE line: $bad"
	[[ -n $FRAG_LINES ]] || refuse "--fragment $FRAG: no CONFIG_ lines"
}

# The source to build: the tree itself, or with patches a copy of it.
# Sets SRCTREE.
source_to_build() {
	local p
	SRCTREE=$TREE
	((${#PATCHES[@]})) || return 0
	SRCTREE=$CACHE/kbuild/$KEY.src
	[[ ! -f $SRCTREE/.vsb-complete ]] || return 0
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
}

# A config run on a tree unpacked for kconfig only holds the source lock
# shared, so that a build fetching the whole tree (which replaces the
# folder) waits for it.
hold_kconfig_source() {
	if [[ -n $DEB_PKG && ! -f $TREE/.vsb-complete ]]; then
		exec 6<"$KSRC/.lock"
		flock -s 6
		[[ -f $TREE/.vsb-kconfig || -f $TREE/.vsb-complete ]] || die "$TREE vanished"
	fi
}
