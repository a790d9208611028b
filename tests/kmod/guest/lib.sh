# SPDX-License-Identifier: GPL-2.0
#
# Check helpers for the in-guest kmod test scripts: POSIX sh for the
# guest's busybox.  Each check prints "ok - what" or "not ok - what"
# (with "#" detail lines); the host script (tests/kmod/*.sh) numbers
# them into TAP.  $VSB is the harness, $T a scratch folder.

T=/tmp/vsbt
mkdir -p "$T"
T_FAIL=0

t_ok() { echo "ok - $*"; }
# t_skip DESC WHY: counted as a skip on the host
t_skip() { echo "ok - $1 # SKIP $2"; }
t_fail() {
	echo "not ok - $1"
	T_FAIL=$((T_FAIL + 1))
	[ -f "$T/err" ] && sed 's/^/#   /' "$T/err" | tail -5
	return 0
}
# t_run DESC WANT_RC COMMAND...: exit status is WANT_RC
t_run() {
	t_d=$1 t_w=$2
	shift 2
	"$@" >"$T/out" 2>"$T/err"
	t_rc=$?
	if [ "$t_rc" -eq "$t_w" ]; then t_ok "$t_d"; else
		echo "#   exit $t_rc, want $t_w: $*" >>"$T/err"; t_fail "$t_d"; fi
}
# t_sane DESC VSB-ARGS...: a kmod run exits 0 and says "sanity: ok"
t_sane() {
	t_d=$1
	shift
	"$VSB" run --backend kmod "$@" >"$T/out" 2>"$T/err"
	t_rc=$?
	if [ "$t_rc" -eq 0 ] && grep -q '^sanity: ok' "$T/out"; then
		t_ok "$t_d"
	else
		{ echo "#   exit $t_rc: run $*"; grep '^sanity' "$T/out"; } >>"$T/err"
		t_fail "$t_d"
	fi
}
# t_grep DESC PATTERN FILE
t_grep() {
	if grep -q -- "$2" "$3"; then t_ok "$1"; else
		echo "#   no '$2' in $3" >"$T/err"; t_fail "$1"; fi
}
kthreads_left() {
	n=0
	for c in /proc/[0-9]*/comm; do
		case $(cat "$c" 2>/dev/null) in vmstat_bench/*) n=$((n + 1)) ;; esac
	done
	echo $n
}
memfree_kb() { sed -n 's/^MemFree: *\([0-9]*\) kB/\1/p' /proc/meminfo; }
