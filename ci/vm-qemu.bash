# SPDX-License-Identifier: GPL-2.0
#
# The QEMU process for ci/vm-run.sh (sourced by it): one boot of the
# guest, the watch that stops a guest that will not power off, and
# QEMU made gone for good.

# QEMU itself gone, not only `timeout` above it: the wait for `timeout`
# has been seen to return at once ("no record of process") after a stall
# was killed, leaving QEMU running into the next boot or past our exit.
# Its own pid (-pidfile) is asked to go, then made to, within 5 s.
qemu_gone() {
	local qp i
	read -r qp 2>/dev/null <"$W/qemu.pid" || return 0
	# a pid QEMU left behind is someone else's once it is reused
	[[ $qp =~ ^[0-9]+$ ]] && grep -q qemu "/proc/$qp/comm" 2>/dev/null || qp=0
	for ((i = 0; i < 50 && qp > 0; i++)); do
		kill -0 "$qp" 2>/dev/null || break
		if ((i == 0)); then kill "$qp" 2>/dev/null || true; fi
		if ((i == 30)); then kill -9 "$qp" 2>/dev/null || true; fi
		sleep 0.1
	done
	rm -f "$W/qemu.pid"
}

# Stop QEMU POWEROFF_WAIT s after the command's VSB_EXIT, if it is still
# up then; leaves $W/poweroff-hung for boot() to see.  Stopped itself, it
# takes its sleep with it: a sleep left behind would hold what this
# script inherited for up to a second after it exits (ab's lock on its
# results folder, which a rerun at once was then refused).
poweroff_watch() {
	local up=0 nap=''

	trap '[[ -z $nap ]] || kill "$nap" 2>/dev/null; exit 0' TERM
	while kill -0 "$QPID" 2>/dev/null; do
		grep -q "^VSB_EXIT=[0-9]* $NONCE" "$W/ctl" && up=$((up + 1))
		if ((up > POWEROFF_WAIT)); then
			: >"$W/poweroff-hung"
			kill "$QPID" 2>/dev/null || true
			return
		fi
		sleep 1 &
		nap=$!
		wait "$nap" || true
	done
}

# `timeout` dies with this script, SIGKILL included, and passes the
# SIGTERM on to QEMU: setpriv gives it PR_SET_PDEATHSIG (not inherited
# across fork, so each link of a chain sets its own).  Run by the
# harness, a reaper above stops the whole chain as well
# (harness/lib/base/reaper.c); without setpriv, that reaper is all.
QEMU_DIES_WITH_US=()
if setpriv --pdeathsig TERM true 2>/dev/null; then
	QEMU_DIES_WITH_US=(setpriv --pdeathsig TERM)
fi

# One boot of the guest, until QEMU exits: qrc its status, STALLED set
# when it did not reach /init in BOOT_STALL s, POWEROFF_HUNG when the
# watch above stopped it (vm-run.sh sets both limits, and says why).
boot() {
	local ticks=0

	# tail -f below needs the files before QEMU opens them.
	for f in console ctl stdout stderr; do : >"$W/$f"; done
	LC_ALL=C ${QEMU_DIES_WITH_US[@]+"${QEMU_DIES_WITH_US[@]}"} \
		timeout -k 5 "$TIMEOUT" qemu-system-x86_64 \
		"${ACCEL_ARGS[@]}" -nodefaults -nographic -no-reboot -monitor none \
		-d cpu_reset,guest_errors${EXACT_ARGS[0]+,plugin} -D "$W/qemu-debug.log" -pidfile "$W/qemu.pid" \
		-smp "$SMP_ARG" -m "$MEM" ${NUMA_ARGS[@]+"${NUMA_ARGS[@]}"} \
		-kernel "$KERNEL" -initrd "$W/initrd" -append "$CMDLINE" \
		-serial "file:$W/console" -serial "file:$W/ctl" \
		-serial "file:$W/stdout" -serial "file:$W/stderr" \
		-drive "file=$(qemu_opt_path "$W/out.img"),if=none,format=raw,id=vsbout" \
		-device nvme,drive=vsbout,serial=vsbout ${EXACT_ARGS[@]+"${EXACT_ARGS[@]}"} \
		</dev/null >"$W/qemu.log" 2>&1 &
	QPID=$!
	# Live copies of the command's output; tail exits once QEMU is gone
	# and it has read the last bytes.
	tail -n +1 -s 0.1 -f --pid="$QPID" "$W/stdout" &
	TAILS+=($!)
	tail -n +1 -s 0.1 -f --pid="$QPID" "$W/stderr" >&2 &
	TAILS+=($!)
	while kill -0 "$QPID" 2>/dev/null && ! grep -q "VSB_START $NONCE" "$W/ctl"; do
		if ((ticks >= BOOT_STALL * 5)); then
			STALLED=1
			kill "$QPID" 2>/dev/null || true
			break
		fi
		sleep 0.2
		ticks=$((ticks + 1))
	done
	# the power-off watch beside the wait, once a second: the wait
	# itself returns the moment QEMU exits
	((STALLED)) || poweroff_watch &
	WATCH=$!
	qrc=0
	wait "$QPID" 2>/dev/null || qrc=$?
	kill "$WATCH" 2>/dev/null || true
	wait "$WATCH" 2>/dev/null || true
	if [[ -e $W/poweroff-hung ]]; then
		POWEROFF_HUNG=1
		qrc=0
	fi
	QPID=''
	qemu_gone
	for p in "${TAILS[@]}"; do wait "$p" 2>/dev/null || true; done
	TAILS=()
}
