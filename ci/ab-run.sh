#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ab-run.sh - the QEMU side of `vmstat-bench ab`: get one kernel ready,
# or boot one of them once with the module loaded and run a sweep.
#
# `vmstat-bench ab` (harness/cmd/cmd_ab.c) checks the command line, keeps the
# state file, the ABBA order, the progress line and the final compare;
# it calls this script once per kernel (prepare) and once per boot
# (boot).  Not meant to be called by hand, but it can be:
#
# Usage:
#   ci/ab-run.sh prepare SPEC SIDE_DIR
#	SPEC is debian:ABI (fetched by ci/kernel-cache.sh into the kernel cache,
#	nothing installed on the host) or BZIMAGE:BUILD_DIR.  Builds the
#	module against that kernel (ci/kmod-build.sh --tree, one tree per
#	kernel under the build folder) and leaves SIDE_DIR/vmstat_bench.ko
#	and SIDE_DIR/kernel.env (KERNEL=, KDIR=, KREL=).
#   ci/ab-run.sh boot SIDE_DIR BOOT POSITION SWEEP
#	Boots SIDE_DIR's kernel (ci/vm-run.sh), loads its module, runs
#	`vmstat-bench sweep SWEEP -o /out` in the guest, adds the ab_*
#	metadata lines to every result file and renames SIDE_DIR/boot-BOOT.tmp
#	to SIDE_DIR/boot-BOOT: a boot folder exists complete or not at all.
#	POSITION is "I of N", this boot's place in the whole ABBA sequence.
#	With VSB_AB_SHAPES, a boot is one guest per line of it (a shape the
#	sweep's points need), one after the other into the same folder: each
#	runs the sweep with --resume over what the ones before left, so the
#	points of the shapes before are kept and those of another skipped.
#
# Environment: VSB_AB_BIN (the harness to run in the guest; required),
# VSB_AB_SMP, VSB_AB_MEM, VSB_AB_TIMEOUT (guest CPUs, MB, seconds),
# VSB_AB_PIN (host CPUs for the vCPU threads, comma-separated, one per
# vCPU; empty: no pinning) and VSB_AB_PIN_WHY (why not, for the record),
# VSB_AB_MONITOR (the guest sweep's --monitor, empty for none),
# VSB_AB_EXACT (1: exact mode, ci/vm-run.sh --exact and sweep --exact),
# VSB_AB_SHAPES ("SMP MAXCPUS NODES MEM CMDLINE" a line, CMDLINE "none"
# for no extra parameters; empty: one guest of VSB_AB_SMP and VSB_AB_MEM),
# plus what ci/vm-run.sh and ci/kernel-cache.sh read.
#
# Exit status: 0 ok; 1 error; 2 usage; 3 the sweep ran but a point failed
# its sanity check (the boot is kept); 4 the kernel or QEMU cannot be had
# here (skip).

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

log() { printf 'ab-run: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

BIN=${VSB_AB_BIN:?VSB_AB_BIN: the vmstat-bench binary}
BUILD=$(cd "$(dirname "$BIN")" && pwd)

# vm-run.sh dies with this script, SIGKILL included (its trap stops
# QEMU): setpriv gives it PR_SET_PDEATHSIG, as vm-run.sh gives its
# `timeout`.  Under `vmstat-bench ab` a reaper stops the whole chain
# as well (harness/lib/base/reaper.c).
DIES_WITH_US=()
if setpriv --pdeathsig TERM true 2>/dev/null; then
	DIES_WITH_US=(setpriv --pdeathsig TERM)
fi

# One file written whole or not at all.
put() {	# put FILE (content on stdin)
	cat >"$1.tmp.$$" && mv -f "$1.tmp.$$" "$1"
}

# --- prepare ------------------------------------------------------------------
prepare() {
	local spec=$1 dir=$2 kc rc=0 tree krel

	mkdir -p "$dir"
	case $spec in
	debian:*)
		kc=$(VSB_KERNEL_ABI=${spec#debian:} "$REPO/ci/kernel-cache.sh") || rc=$?
		((rc == 0)) || exit "$rc"
		eval "$kc"
		krel=${KERNEL##*/vmlinuz-}
		tree=$BUILD/kmod/$krel
		;;
	*:*)
		KERNEL=$(realpath "${spec%%:*}")
		KDIR=$(realpath "${spec#*:}")
		krel=$(<"$KDIR/include/config/kernel.release")
		# kernels of your own often share a release string: one tree
		# per build folder, so one never loads the other's module
		tree=$BUILD/kmod/user-$(printf '%s' "$KDIR" | sha1sum | cut -c1-12)
		;;
	*)	log "$spec: want debian:ABI or BZIMAGE:BUILD_DIR"; exit 2 ;;
	esac
	log "building the module for $krel"
	rc=0
	KDIR=$KDIR "$REPO/ci/kmod-build.sh" --tree "$tree" \
		--ko-to "$dir/vmstat_bench.ko.tmp.$$" -s modules >&2 || rc=$?
	((rc == 0)) || exit "$rc"
	mv -f "$dir/vmstat_bench.ko.tmp.$$" "$dir/vmstat_bench.ko"
	printf 'KERNEL=%q\nKDIR=%q\nKREL=%q\n' "$KERNEL" "$KDIR" "$krel" |
		put "$dir/kernel.env"
}

# --- vCPU pinning ----------------------------------------------------------------
# ci/vm-run.sh starts QEMU by name from PATH; a wrapper first on PATH adds
# `-name ...,debug-threads=on` (so each vCPU thread is named "CPU N/TCG"
# or "CPU N/KVM") and starts a watcher that pins thread N to the N-th host
# CPU of VSB_AB_PIN with taskset as soon as it appears.  The wrapper
# execs QEMU, so the watcher's target is the wrapper's own pid.  Each
# QEMU logs to PINLOG.<pid> (vm-run's KVM probe boots one of its own).
make_pin_wrapper() {	# make_pin_wrapper DIR PINLOG
	local real

	real=$(command -v qemu-system-x86_64) || return 0
	cat >"$1/qemu-system-x86_64" <<EOF
#!/bin/bash
# written by ci/ab-run.sh: pin the vCPU threads, then run QEMU
cpus=(${VSB_AB_PIN//,/ })
log=$2.\$\$
pid=\$\$
(
	exec </dev/null >/dev/null 2>&1
	declare -A done
	for ((i = 0; i < 400; i++)); do
		kill -0 \$pid 2>/dev/null || exit 0
		for t in /proc/\$pid/task/*; do
			c=\$(cat "\$t/comm" 2>/dev/null) || continue
			[[ \$c =~ ^CPU\\ ([0-9]+)/(TCG|KVM)\$ ]] || continue
			n=\${BASH_REMATCH[1]}
			[[ -z \${done[\$n]:-} && -n \${cpus[\$n]:-} ]] || continue
			if taskset -pc "\${cpus[\$n]}" "\${t##*/}"; then
				echo "vCPU\$n->CPU\${cpus[\$n]}" >>"\$log"
			else
				echo "vCPU\$n:taskset-failed" >>"\$log"
			fi
			done[\$n]=1
		done
		((\${#done[@]} >= \${#cpus[@]})) && exit 0
		sleep 0.05
	done
	echo "timeout" >>"\$log"
) &
exec $(printf '%q' "$real") -name vsb-ab,debug-threads=on "\$@"
EOF
	chmod +x "$1/qemu-system-x86_64"
}

# What the pinning came to for the boot that produced the results: the
# newest log (the probe's, if any, is older).
pin_record() {	# pin_record PINLOG
	local f

	if [[ -z ${VSB_AB_PIN:-} ]]; then
		printf 'not pinned: %s\n' "${VSB_AB_PIN_WHY:-not asked for}"
		return
	fi
	# shellcheck disable=SC2012  # names are pin.<pid>, nothing odd
	f=$(ls -t "$1".* 2>/dev/null | head -n1 || true)
	if [[ -z $f ]]; then
		echo "not pinned: no vCPU thread seen (QEMU without debug-threads?)"
	elif grep -qv '^vCPU[0-9]*->CPU' "$f"; then
		printf 'partly pinned: %s\n' "$(paste -sd' ' "$f")"
	else
		printf 'pinned %s\n' "$(sort -V "$f" | paste -sd' ')"
	fi
}

# --- metadata -------------------------------------------------------------------
# The ab_* lines go at the end of each file's leading "# key: value"
# block (the first line of a file without one): every reader of result
# files (compare, plot, db import) takes them as metadata, and no column
# changes.  Written to a temporary and renamed.
add_meta() {	# add_meta FOLDER LINES
	local f

	for f in "$1"/*.csv; do
		[[ -f $f ]] || continue
		awk -v add="$2" '!done && !/^#/ { print add; done = 1 } { print }
			END { if (!done) print add }' "$f" | put "$f"
	done
	[[ ! -f $1/meta.txt ]] || { cat "$1/meta.txt"; printf '%s\n' "${2//# /}"; } |
		put "$1/meta.txt"
}

# --- boot ------------------------------------------------------------------------
boot() {
	local dir=$1 k=$2 pos=$3 sweep=$4 out tmp work side rc=0 accel secs pin lines

	side=${dir##*/}
	out=$dir/boot-$k
	tmp=$out.tmp
	[[ -f $dir/kernel.env && -f $dir/vmstat_bench.ko ]] ||
		die "$dir: not prepared (no kernel.env or module)"
	# shellcheck source=/dev/null
	. "$dir/kernel.env"
	work=$(mktemp -d "${TMPDIR:-/tmp}/vsb-ab.XXXXXX")
	# shellcheck disable=SC2064  # the paths are fixed now
	trap "rm -rf '$tmp' '$work'" EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	mkdir -p "$work/bin"
	[[ -z ${VSB_AB_PIN:-} ]] || make_pin_wrapper "$work/bin" "$work/pin"

	# shellcheck disable=SC2016  # expanded by the guest's shell
	# no_timer_check: under TCG on a loaded host the kernel's early
	# check that the timer interrupt arrives can give up and panic
	# ("IO-APIC + timer doesn't work!"); it tests the emulator, not
	# anything measured here.
	# --monitor as `vmstat-bench ab` checked it (letters, digits, ',', ':', '.')
	local mon= exact= vmexact=()
	[[ -z ${VSB_AB_MONITOR:-} ]] || mon=" --monitor '$VSB_AB_MONITOR'"
	# exact mode: the guest counts instructions (ci/vm-exact.bash)
	# exact mode: the guest counts instructions (ci/vm-exact.bash); sweep
	# --exact runs in one process itself (counts have no noise between
	# processes to measure)
	[[ -z ${VSB_AB_EXACT:-} ]] || { exact=" --exact"; vmexact=(--exact); }
	# kstat_set_threshold=1: a throwaway guest may let a kstat sweep set
	# the kernel's per-CPU thresholds (the 001 curve on this kernel)
	local guest resume=
	# one guest of each shape; the first starts the folder, the others
	# continue it (their points run, the ones before are kept).  A boot
	# is a run to ab (--runs-only), so its short points run as asked
	# (--run-min-ms 0), not up to 5 times over in TCG's slow time.
	guest_cmd() {
		guest='insmod kmod/vmstat_bench.ko kstat_set_threshold=1 || exit 1
rc=0
'"${resume:+cp -a prev/. /out/ || exit 1}"'
bin/vmstat-bench sweep ab/'"${sweep##*/}"' -o /out --run-min-ms 0'"$mon$resume$exact"' || rc=$?
[ ! -f ci/exact-syms.sh ] || sh ci/exact-syms.sh	# exact mode: the profile'"'"'s symbols
rmmod vmstat_bench || { echo "ab-run: rmmod failed" >&2; rc=1; }
exit $rc'
	}
	run_guest() {	# run_guest SMP MAXCPUS NODES MEM CMDLINE
		local prev=()
		rc=0
		if [[ -n $resume ]]; then
			rm -rf "$work/prev"
			cp -a "$tmp" "$work/prev"
			prev=(--add "$work/prev:prev")
		fi
		rm -rf "$tmp"
		mkdir -p "$tmp"
		PATH=$work/bin:$PATH ${DIES_WITH_US[@]+"${DIES_WITH_US[@]}"} \
			"$REPO/ci/vm-run.sh" --kernel "$KERNEL" --kdir "$KDIR" \
			--smp "$1" --maxcpus "$2" --numa "$3" --mem "$4" \
			--timeout "${VSB_AB_TIMEOUT:-1800}" --out "$tmp" \
			--append "no_timer_check${5:+ $5}" ${vmexact[@]+"${vmexact[@]}"} \
			--add "$dir/vmstat_bench.ko:kmod/vmstat_bench.ko" \
			--add "$BIN:bin/vmstat-bench" --add "$sweep:ab/${sweep##*/}" \
			${prev[@]+"${prev[@]}"} -- "$guest" </dev/null 2>"$work/err" || rc=$?
		cat "$work/err" >>"$work/err.all"
		cat "$work/err" >&2
		if ((rc != 0 && rc != 3 && rc != 5)) && [[ -n $resume ]]; then
			rm -rf "$tmp"	# the folder as the guests before left it
			mv "$work/prev" "$tmp"
		fi
	}
	one_shape() {	# one_shape SMP MAXCPUS NODES MEM CMDLINE
		guest_cmd
		run_guest "$@"
		# A guest that vanished without any kernel report (vm-run exits
		# 5; a TCG event on a starved host) measured nothing: boot it
		# once more, as tests/kmod/vmlib.bash does.  A panic or a WARN
		# is never retried.
		if ((rc == 5)); then
			log "the guest vanished without a kernel report: booting it again"
			[[ -z $resume ]] || { rm -rf "$tmp"; mv "$work/prev" "$tmp"; }
			run_guest "$@"
		fi
		((rc == 0 || rc == 3)) || exit "$rc"
		[[ -f $tmp/points.txt ]] || die "the guest's sweep left no points.txt"
		resume=' --resume'
	}
	local shapes=${VSB_AB_SHAPES:-"${VSB_AB_SMP:-2} 0 0 ${VSB_AB_MEM:-1024} none"}
	local s_smp s_max s_nodes s_mem s_cmd worst=0 nshape=0
	: >"$work/err.all"
	while read -r s_smp s_max s_nodes s_mem s_cmd; do
		[[ -n $s_smp ]] || continue
		[[ $s_cmd == none ]] && s_cmd=
		nshape=$((nshape + 1))
		log "guest $nshape: $s_smp vCPUs, $s_max possible, $s_nodes nodes, $s_mem MB${s_cmd:+, $s_cmd}"
		one_shape "$s_smp" "$s_max" "$s_nodes" "$s_mem" "$s_cmd"
		((rc > worst)) && worst=$rc
	done <<<"$shapes"
	rc=$worst

	# "vm-run: exit 0 after 41.3 s (tcg, 2 cpu, 1024 MB)", a line a guest
	accel=$(sed -n 's/^vm-run: exit [0-9]* after .* s (\([a-z]*\),.*/\1/p' "$work/err.all" | tail -n1)
	secs=$(sed -n 's/^vm-run: exit [0-9]* after \([0-9.]*\) s .*/\1/p' "$work/err.all" |
		awk '{ t += $1 } END { printf "%.1f", t }')
	pin=$(pin_record "$work/pin")
	# shellcheck disable=SC2153  # KREL comes from kernel.env
	lines="# ab_kernel: $KREL
# ab_side: $side
# ab_boot: $k
# ab_position: $pos
# ab_accel: ${accel:-unknown}
# ab_pinning: $pin"
	add_meta "$tmp" "$lines"
	printf 'accel: %s\npinning: %s\nguest_seconds: %s\nsweep_status: %s\n' \
		"${accel:-unknown}" "$pin" "${secs:-?}" "$rc" | put "$tmp/ab-boot.txt"
	rm -rf "$out"
	mv "$tmp" "$out"
	exit "$rc"
}

case ${1:-} in
prepare) (($# == 3)) || { log "usage: prepare SPEC SIDE_DIR"; exit 2; }
	 prepare "$2" "$3" ;;
boot)	 (($# == 5)) || { log "usage: boot SIDE_DIR BOOT POSITION SWEEP"; exit 2; }
	 boot "$2" "$3" "$4" "$5" ;;
*)	 sed -n '/^# Usage:/,/^# Environment/s/^# \{0,1\}//p' "$0" | sed '$d' >&2
	 exit 2 ;;
esac
