# SPDX-License-Identifier: GPL-2.0
#
# The build for ci/kernel-build.sh (sourced by it, functions only): make
# in the key's build folder (O=) with an environment the key covers, its
# output into the build's log, a failed make reported with the log's last
# lines, and the build itself (bzImage and modules, then the folder
# marked complete).  It uses kernel-build.sh's variables (SRCTREE, BDIR,
# BZ, LOGF, KEY, KEY_TEXT, LINEAGE, CACHE) and log/die.

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

# Clean kbuild's view of the environment: nothing the key does not cover.
clean_kbuild_env() {
	unset ARCH SUBARCH CROSS_COMPILE LLVM LLVM_IAS CC LD AR NM OBJCOPY OBJDUMP \
		HOSTCC HOSTCXX HOSTCFLAGS HOSTLDFLAGS KCFLAGS KCPPFLAGS KAFLAGS KRUSTFLAGS \
		KBUILD_OUTPUT KBUILD_VERBOSE KBUILD_EXTMOD KBUILD_EXTRA_SYMBOLS \
		KBUILD_DEFCONFIG KCONFIG_CONFIG KCONFIG_ALLCONFIG INSTALL_MOD_PATH \
		MAKEFLAGS MAKELEVEL MFLAGS MAKEOVERRIDES GNUMAKEFLAGS
}

# bzImage, and modules for Module.symvers; then the folder is complete
# (and with --reuse the lineage's last build)
build_kernel() {
	local jobs t0 p
	jobs=${VSB_KBUILD_JOBS:-$(nproc)}
	log "building bzImage and modules with make -j$jobs (log: $LOGF)"
	t0=$(date +%s)
	kmake -j"$jobs" bzImage modules || fail_make bzImage modules
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
}
