# SPDX-License-Identifier: GPL-2.0
#
# A patched build starts from its base's build: sourced by
# ci/kernel-build.sh, whose variables (PATCHES, KEY_TEXT, CACHE, BDIR,
# SRCTREE) and log/die it uses.
#
# A patch to mm/vmstat.c changes one file of the ~500 a build compiles,
# yet `--patch` built it all again (690 s here, after the 619 s of the
# unpatched build of the same source).  When the unpatched build of the
# same source, fragment, recipe and tools is complete in the cache (its
# key is this key without the patch lines), a new patched build folder
# starts as a copy of it, and make rebuilds what the patches touch plus
# what names the release (utsrelease.h, the link, the image).  The key
# still names the patches; the base's folder is only read.
#
# Why a copy (cp -a, reflinks where the file system has them) and not
# hard links: kbuild writes its objects in place, which would write the
# base's files through the links.  Why the .cmd files are rewritten:
# kbuild records each command and its dependencies with the source
# tree's absolute path, and the patched tree is another folder
# (kbuild/<key>.src); with the base's path left in them every command
# would read as changed, and every object would be built again (objtool's
# own build, under tools/, records the build folder's path too).  The
# patched tree keeps the base tree's file times (hard links of Debian's
# tree, a tar copy of yours), so only the files the patches wrote are
# newer than their objects.
#
# Not part of the cache key (kernel-build.sh hashes its own text, its
# other parts' and cache.bash's): where a build starts does not change
# what it builds, which make's own rules decide.

# The base's source tree, as its build folder names it.
base_srctree() {	# base_srctree BUILD_DIR
	readlink "$1/source"
}

seed_from_base() {
	local bkey base from
	# a folder that got as far as configured is this key's own earlier try
	[[ ! -f $BDIR/.vsb-configured ]] || return 0
	bkey=$(grep -v '^patch ' <<<"$KEY_TEXT" | sha256sum | cut -c1-16)
	base=$CACHE/kbuild/$bkey
	if [[ ! -f $base/.vsb-complete || ! -f $base/Module.symvers ]]; then
		log "no complete unpatched build $bkey of this source and config: a whole build"
		return 0
	fi
	from=$(base_srctree "$base")
	[[ -n $from && -d $from && $from != "$SRCTREE" ]] || return 0
	log "starting from the unpatched build $bkey: make rebuilds what the patches touch"
	find "$base" -mindepth 1 -maxdepth 1 ! -name '.vsb-*' ! -name 'vsb-*' \
		-exec cp -a --reflink=auto -t "$BDIR" {} + ||
		die "copying the build folder of $bkey failed"
	# the base tree's path, where a path ends (a '/', a blank, a quote,
	# a parenthesis, ':' or the line's end), becomes this build's tree;
	# and the base's folder this one (tools/, objtool's build, records
	# its objects by their absolute paths)
	# shellcheck disable=SC2016  # perl's own $ENV, not the shell's
	(cd "$BDIR" && { grep -rlZF --include='*.cmd' -e "$from" -e "$base" . || true; } |
		SEED_FROM=$from SEED_TO=$SRCTREE SEED_BFROM=$base SEED_BTO=$BDIR \
		xargs -0 -r perl -pi -e 's{\Q$ENV{SEED_FROM}\E(?=[/\s"'"'"'():]|$)}{$ENV{SEED_TO}}g;
			s{\Q$ENV{SEED_BFROM}\E(?=[/\s"'"'"'():]|$)}{$ENV{SEED_BTO}}g') ||
		die "pointing the copy of $bkey at $SRCTREE and $BDIR failed"
}
