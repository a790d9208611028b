# SPDX-License-Identifier: GPL-2.0
#
# The build for ci/kernel-build.sh (sourced by it, functions only): make
# in the key's build folder (O=), its output into the build's log, and a
# failed make reported with the log's last lines.  It uses
# kernel-build.sh's variables (SRCTREE, BDIR, LOGF) and log.

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
