#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Children die with their parent (issue 45): a SIGKILLed `vmstat-bench
# ab` or `bisect` leaves no process of its own running, and OUT's lock
# free for the next run.  ab runs its real chain, ci/ab-run.sh ->
# ci/vm-run.sh -> timeout -> QEMU, from a copy of the checkout whose
# ab-run.sh fakes `prepare` alone (no module build), with a fake QEMU
# first on PATH that never boots: it writes its -pidfile, starts a
# sleep in a session of its own (out of every process group above it,
# as `timeout` and QEMU are out of the script's) and waits.  bisect's
# build is a fake that does the same, and then one that returns at once
# and leaves bisect's ab to run that chain.  No guest, no kernel.
. "$(dirname "$0")/../lib.sh"

export FAKE_LOG=$TMP/log VSB_VM_ACCEL=tcg VSB_VM_CACHE=$TMP/cache
# the scripts' work folders, which a SIGKILLed one leaves, go with $TMP
export TMPDIR=$TMP/tmpdir
mkdir -p "$TMPDIR"
: >"$FAKE_LOG"
for t in busybox cpio timeout setsid flock git python3; do
	command -v $t >/dev/null || { echo "# no $t here: the chain cannot run"; exit 4; }
done

CO=$TMP/co
mkdir -p "$CO/build" "$TMP/bin"
cp "$VSB" "$CO/build/vmstat-bench"
cp -a "$VSB_ROOT/ci" "$CO/ci"
mv "$CO/ci/ab-run.sh" "$CO/ci/ab-run-real.sh"
cat >"$CO/ci/ab-run.sh" <<'EOF'
#!/bin/bash
# prepare: what the real one leaves, without a module build; boot: the real one
set -eu
case $1 in
prepare) printf 'KERNEL=%q\nKDIR=%q\nKREL=6.99.0-fake\n' "${2%%:*}" "${2#*:}" >"$3/kernel.env"
	 echo "vermagic=6.99.0-fake SMP" >"$3/vmstat_bench.ko" ;;
boot)	 [[ -z ${FAKE_BOOT_FAIL:-} ]] || exit 1
	 if [[ -n ${FAKE_BOOT_HANG:-} ]]; then	# a boot of ab --jobs
		setsid sleep 300 </dev/null >/dev/null 2>&1 &
		echo "boot $$" >>"$FAKE_LOG"
		while :; do wait; done
	 fi
	 exec bash "$(dirname "$0")/ab-run-real.sh" "$@" ;;
esac
EOF
# FAKE_QEMU: hang (the default) or alone (hangs, no sleep: a QEMU
# starts no process)
cat >"$TMP/bin/qemu-system-x86_64" <<'EOF'
#!/bin/bash
pidf=
while (($#)); do [[ $1 != -pidfile ]] || pidf=$2; shift; done
echo $$ >"$pidf"
[[ ${FAKE_QEMU:-} == alone ]] || setsid sleep 300 </dev/null >/dev/null 2>&1 &
echo "qemu $$" >>"$FAKE_LOG"
while :; do wait; done
EOF
chmod +x "$CO/ci/ab-run.sh" "$TMP/bin/qemu-system-x86_64"
export PATH=$TMP/bin:$PATH

# a bzImage whose setup header names the release, and its build folder
mkdir -p "$TMP/k/build/include/config"
echo 6.99.0-fake >"$TMP/k/build/include/config/kernel.release"
python3 -c 'import sys
b = bytearray(0x400)
b[0x202:0x206] = b"HdrS"
b[0x20e:0x210] = (0x100).to_bytes(2, "little")
v = b"6.99.0-fake (fake) #1"
b[0x300:0x300 + len(v)] = v
open(sys.argv[1], "wb").write(b)' "$TMP/k/bzImage"
K=$TMP/k/bzImage:$TMP/k/build
AB=("$CO/build/vmstat-bench" ab --base "$K" --new "$K" --timed --boots 6
	"$VSB_ROOT/configs/ab-quick.sweep")

# descendants PID: every process below PID now, from /proc's parent links
# ("PID (COMM) STATE PPID ...", COMM holding anything)
descendants() {
	cat /proc/[0-9]*/stat 2>/dev/null | awk -v root="$1" '{ p = $1; sub(/.*\) /, ""); par[p] = $2 }
		END { do { n = 0; for (c in par) if (!(c in in_) && (par[c] == root || par[c] in in_)) { in_[c] = 1; n++ } } while (n)
		for (c in in_) print c }'
}
# alive PIDS...: those still running (a zombie is gone: its files are closed)
alive() {
	local p l
	for p in "$@"; do
		read -r l 2>/dev/null <"/proc/$p/stat" || continue
		l=${l##*) }
		[ "${l%% *}" = Z ] || echo "$p"
	done
}
# wait_log PATTERN PID [N]: until the fake's log has N lines (1)
# matching PATTERN (30 s), while PID runs
wait_log() {
	for _ in $(seq 600); do
		[ "$(grep -c "$1" "$FAKE_LOG")" -ge "${3:-1}" ] && return 0
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}
# killed WHAT PID DIR SECONDS: SIGKILL PID once its fake runs; nothing
# of its tree is left SECONDS later, and DIR's lock (if DIR) is free
killed() {
	local what=$1 pid=$2 dir=$3 secs=$4 tree left
	if ! wait_log "^$what" "$pid"; then
		not_ok "$what started" "$(cat "$FAKE_LOG")" "$(tail -n 5 "$TMP/err")"
		kill -KILL "$pid" 2>/dev/null
		return
	fi
	tree=$(descendants "$pid")
	if [ -n "$dir" ]; then
		flock -n "$dir" true && not_ok "OUT locked while it runs ($what)" ||
			ok "OUT locked while it runs ($what)"
	fi
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	for _ in $(seq $((secs * 10))); do
		left=$(alive $tree)
		[ -z "$left" ] && break
		sleep 0.1
	done
	[ -n "$tree" ] && [ -z "$left" ] &&
		ok "SIGKILL: none of the $(wc -w <<<"$tree") processes below it left after $secs s ($what)" ||
		not_ok "SIGKILL: processes left ($what)" "tree: $tree" \
			"$(for p in $left; do tr '\0' ' ' <"/proc/$p/cmdline"; echo; done)"
	if [ -n "$dir" ]; then
		flock -n "$dir" true && ok "SIGKILL: OUT's lock is free ($what)" ||
			not_ok "SIGKILL: OUT's lock still held ($what)"
	fi
	# shellcheck disable=SC2086  # whatever is left, by pid, this test's own
	[ -z "$left" ] || kill -KILL $left 2>/dev/null
}

# ---- ab: SIGKILL, then SIGTERM -------------------------------------------
# (a QEMU that ignores SIGTERM is test_reaper's: it costs the reaper's
# 5 s of grace)
D=$TMP/ab
"${AB[@]}" -o "$D" >"$TMP/out" 2>"$TMP/err" </dev/null &
killed qemu $! "$D" 4
# SIGTERM: ab stops the boot (its reaper passes the signal to the whole
# chain, QEMU included), says so, keeps its state, leaves nothing behind
: >"$FAKE_LOG"
"${AB[@]}" -o "$D" >"$TMP/out" 2>"$TMP/err" </dev/null &
pid=$!
if wait_log '^qemu' $pid; then
	tree=$(descendants $pid)
	t0=$SECONDS
	kill -TERM $pid
	wait $pid
	rc=$?
	left=$(alive $tree)
	[ $rc -eq 1 ] && ((SECONDS - t0 <= 4)) && [ -z "$left" ] &&
		grep -q 'ab: interrupted during boot 1/12' "$TMP/err" &&
		grep -q '^state: interrupted$' "$D/ab.txt" &&
		ok "SIGTERM: ab stops its boot in seconds, exit 1, state kept, nothing left" ||
		not_ok "SIGTERM to ab" "exit $rc after $((SECONDS - t0)) s" "left: $left" \
			"$(tail -n 2 "$TMP/err")"
	# shellcheck disable=SC2086  # whatever is left, by pid, this test's own
	[ -z "$left" ] || kill -KILL $left 2>/dev/null
else
	not_ok "qemu started (SIGTERM)" "$(tail -n 3 "$TMP/err")"
fi
# the next ab on the folder runs (its boot fails: FAKE_BOOT_FAIL)
FAKE_BOOT_FAIL=1 timeout 60 "${AB[@]}" -o "$D" >"$TMP/out" 2>"$TMP/err" </dev/null
rc=$?
[ $rc -eq 1 ] && grep -q 'boot 1/12 .* failed' "$TMP/err" &&
	ok "after them the same ab runs again (its boot fails, not its lock)" ||
	not_ok "ab after them" "exit $rc" "$(tail -n 3 "$TMP/err")"

# ---- ci/ab-run.sh by hand: each link dies with the one above -------------
# (no reaper here: setpriv's PR_SET_PDEATHSIG for vm-run.sh and timeout)
if setpriv --pdeathsig TERM true 2>/dev/null; then
	: >"$FAKE_LOG"
	mkdir -p "$TMP/hand"
	cp "$D/base/kernel.env" "$D/base/vmstat_bench.ko" "$TMP/hand/"
	FAKE_QEMU=alone VSB_AB_BIN=$CO/build/vmstat-bench bash "$CO/ci/ab-run-real.sh" boot \
		"$TMP/hand" 1 "1 of 2" "$VSB_ROOT/configs/ab-quick.sweep" >"$TMP/out" 2>"$TMP/err" </dev/null &
	killed qemu $! "" 4
else
	skip "ab-run.sh by hand: SIGKILL takes vm-run.sh and QEMU with it" "no setpriv --pdeathsig"
fi

# ---- ab --jobs 2: two boots side by side, each in a worker of its own -----
: >"$FAKE_LOG"
FAKE_BOOT_HANG=1 "$CO/build/vmstat-bench" ab --base "$K" --new "$K" --exact --jobs 2 \
	--boots 2 "$VSB_ROOT/configs/ab-quick.sweep" -o "$TMP/abj" >"$TMP/out" 2>"$TMP/err" </dev/null &
pid=$!
wait_log '^boot' $pid 2
killed boot $pid "$TMP/abj" 4

# ---- bisect: a build that hangs, then an ab that boots ---------------------
# The fake stands in for bisect's build and its ab (VSB_BISECT_FAKE).
# FAKE_SPEC unset: the build never ends, with a sleep out of bisect's
# process group.  Set: the build is that spec at once, and ab is the
# real one above (FAKE_AB), its chain down to the fake QEMU.
cat >"$TMP/fake-build.sh" <<'EOF'
#!/bin/bash
case $1 in
build)	if [[ -n ${FAKE_SPEC:-} ]]; then echo "$FAKE_SPEC"; exit 0; fi
	setsid sleep 300 </dev/null >/dev/null 2>&1 &
	echo "build $$" >>"$FAKE_LOG"
	while :; do wait; done ;;
ab)	while (($#)) && [[ $1 != -o ]]; do shift; done
	[[ -n ${FAKE_SPEC:-} && -n ${2:-} ]] || exit 1
	# shellcheck disable=SC2086  # words: the ab command line
	exec $FAKE_AB -o "$2" ;;
*)	exit 1 ;;
esac
EOF
chmod +x "$TMP/fake-build.sh"
G=$TMP/tree
fake_series "$G" 2
: >"$FAKE_LOG"
SW=$TMP/k.sweep
printf 'name k\nbench counter\nbackend kmod\ncpus 0\nvariant this-cpu-add\n' >"$SW"
VSB_BISECT_FAKE=$TMP/fake-build.sh "$VSB" bisect --tree "$G" --good HEAD~2 --bad HEAD \
	"$SW" -o "$TMP/bis" >"$TMP/out" 2>"$TMP/err" </dev/null &
killed build $! "$TMP/bis" 10
: >"$FAKE_LOG"
VSB_BISECT_FAKE=$TMP/fake-build.sh FAKE_SPEC=$K FAKE_AB="${AB[*]}" "$VSB" bisect --tree "$G" \
	--good HEAD~2 --bad HEAD "$SW" -o "$TMP/bis2" >"$TMP/out" 2>"$TMP/err" </dev/null &
killed qemu $! "$TMP/bis2" 10
done_testing
