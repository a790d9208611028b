# SPDX-License-Identifier: GPL-2.0
#
# Patches and config for ci/kernel-build.sh (sourced by it, functions
# only): whether the --patch files apply, checked on a scratch copy of the
# files they name before anything is built; and the configuration,
# `make tinyconfig` plus the fragment, with every fragment line checked
# in the final .config.  It uses kernel-build.sh's variables (PATCHES,
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
