# SPDX-License-Identifier: GPL-2.0
#
# The verdict of ci/vm-run.sh (sourced by it): how a guest that left
# without a word ended, and a failure said with the console's lines.

# How a guest that left without a word ended.  With -d cpu_reset QEMU
# logs a triple fault, which -no-reboot turns into an exit with status 0,
# as if the guest had powered off.  Seen once in CI: a 6.12 guest under
# TCG vanished mid-run just after the clocksource watchdog dropped the TSC
# (the host had starved its vCPUs), with nothing on the console.
how_qemu_ended() {
	if grep -q '^Triple fault' "$W/qemu-debug.log" 2>/dev/null; then
		printf 'QEMU logged a triple fault'
	elif grep -aq 'reboot: Power down' "$W/console"; then
		printf 'the kernel powered off'
	elif grep -aq 'reboot: Restarting' "$W/console"; then
		printf 'the kernel restarted'
	else
		printf 'no triple fault, power-off or restart logged'
	fi
}
fail() {	# fail [--rc N] WHY...: the lines that say why, then exit N (1)
	local rc=1
	if [[ $1 == --rc ]]; then rc=$2; shift 2; fi
	log "$*"
	# the first kernel report whole (RIP, call trace): the tail of a
	# panic shows only the last oops's registers
	if [[ -n ${splat:-} ]]; then
		log "first kernel report (full log: $W/console):"
		grep -a -m1 -A 45 -E "$SPLAT_RE" "$W/console" | tr -d '\r' |
			sed 's/^/  ! /' >&2
	fi
	log "last console lines (full log: $W/console):"
	tail -n 40 "$W/console" | tr -d '\r' | sed 's/^/  | /' >&2
	[[ -s $W/qemu.log ]] && sed 's/^/  qemu: /' "$W/qemu.log" >&2
	KEEP_W=1
	exit "$rc"
}
