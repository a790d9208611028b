# SPDX-License-Identifier: GPL-2.0
#
# TAP helpers for the shell tests: source it, call the checks, end with
# `done_testing`.  $VSB is the binary under test (set by tests/run.sh).

VSB_ROOT=${VSB_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
VSB_BUILD_DIR=${VSB_BUILD_DIR:-build}
VSB=${VSB:-$VSB_ROOT/$VSB_BUILD_DIR/vmstat-bench}
TAP_N=0
TAP_FAILED=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ok() {		# ok DESCRIPTION: a passing check
	TAP_N=$((TAP_N + 1)); echo "ok $TAP_N - $*"
}
not_ok() {	# not_ok DESCRIPTION [DETAIL...]
	local d
	TAP_N=$((TAP_N + 1)); TAP_FAILED=$((TAP_FAILED + 1))
	echo "not ok $TAP_N - $1"; shift
	# Every line of a detail is a TAP comment: tests/run.sh shows only
	# those, and a quoted "ok 3 - ..." line must never count as a pass.
	for d in "$@"; do printf '%s\n' "$d" | sed 's/^/#   /'; done
}
skip() {	# skip DESCRIPTION REASON
	TAP_N=$((TAP_N + 1)); echo "ok $TAP_N - $1 # SKIP $2"
}
check() {	# check DESCRIPTION COMMAND...: passes when COMMAND succeeds
	local d=$1; shift
	if "$@" >"$TMP/out" 2>&1; then ok "$d"; else not_ok "$d" "command: $*" "$(tail -3 "$TMP/out")"; fi
}
expect_exit() {	# expect_exit CODE DESCRIPTION COMMAND...: exit status is CODE
	local want=$1 d=$2; shift 2
	"$@" >"$TMP/out" 2>"$TMP/err"
	local rc=$?
	if [ "$rc" -eq "$want" ]; then ok "$d"; else
		not_ok "$d" "command: $*" "exit $rc, want $want" "$(tail -3 "$TMP/err")"; fi
}
# tree_snap DIR: one line per entry under DIR (path, type, size, mtime,
# inode, link target), compared before and after a command that must
# change nothing.  find's own order is readdir's, the same for a folder
# nobody touched, so no sort: an entry replaced in between may come back
# elsewhere in the list, and that is a change too.
tree_snap() { find "$1" -printf '%P %y %s %T@ %i %l\n'; }
# tree_sum [-l LIST] [-v SUFFIX] VAR DIR: VAR = "N SHA1", N the number
# of entries under DIR and SHA1 a digest of their lines: tree_snap's
# fields in its order (readdir's, depth first, links not followed),
# mtime to the nanosecond, an entry that cannot be read as a line saying
# why; LIST, if given, gets the lines.  -v: a regular file whose path
# ends in SUFFIX is listed without its size and mtime (one that may
# change within, never come or go).  The lines come from one python3,
# started at the first call, that stays for the script: the hostile
# scripts take about 3,000 snapshots, and each $(tree_snap) is a fork
# and an exec (8 ms on a 2-CPU machine) against 0.3 ms here.  Without
# python3, in a subshell (which cannot reach it) or when it does not
# answer, VAR holds tree_snap's lines themselves: never equal to a
# digest, so two snapshots not both taken the same way differ.  The
# same python3 digests files' bytes for file_sum (below).
TREE_SUM_PY='
import hashlib, os, stat, sys
KIND = {stat.S_IFREG: b"f", stat.S_IFDIR: b"d", stat.S_IFLNK: b"l",
	stat.S_IFIFO: b"p", stat.S_IFSOCK: b"s", stat.S_IFCHR: b"c", stat.S_IFBLK: b"b"}
def lines(top, vol):
	todo = [(b"", top)]
	while todo:
		rel, path = todo.pop()
		try:
			st = os.lstat(path)
			kind = KIND.get(stat.S_IFMT(st.st_mode), b"U")
			link = os.readlink(path) if kind == b"l" else b""
			names = os.listdir(path) if kind == b"d" else []
		except OSError as e:
			yield b"%s ? %s\n" % (rel, os.strerror(e.errno).encode())
			continue
		if vol and kind == b"f" and rel.endswith(vol):
			sm = b""
		else:
			sm = b"%d %d.%09d " % ((st.st_size,) + divmod(st.st_mtime_ns, 10**9))
		yield b"%s %s %s%d %s\n" % (rel, kind, sm, st.st_ino, link)
		for n in reversed(names):
			todo.append((rel + b"/" + n if rel else n, path + b"/" + n))
def contents(paths):
	h = hashlib.sha1()
	for p in paths:
		try:
			st = os.stat(p)
			if not stat.S_ISREG(st.st_mode):
				h.update(b"<%s>" % KIND.get(stat.S_IFMT(st.st_mode), b"U"))
				continue
			with open(p, "rb") as f:
				data = f.read()
			h.update(b"<f %d>" % len(data)); h.update(data)
		except OSError as e:
			h.update(b"<%s>" % os.strerror(e.errno).encode())
	return h.hexdigest().encode()
out = sys.stdout.buffer
for req in sys.stdin.buffer:
	verb, *arg = req[:-1].split(b"\0")[:-1]
	if verb == b"cat":
		out.write(b"%d %s\n" % (len(arg), contents(arg)))
		out.flush()
		continue
	top, lst, vol = arg
	h, text = hashlib.sha1(), list(lines(top, vol))
	for l in text:
		h.update(l)
	if lst:
		with open(lst, "wb") as f:
			f.writelines(text)
	out.write(b"%d %s\n" % (len(text), h.hexdigest().encode()))
	out.flush()
'
# tree_sum_end: the python3 of tree_sum, if any, ended and waited for,
# so that its CPU time counts in the script's (tests/run.sh reports it)
tree_sum_end() {
	local fd=${TREE_SUM[1]:-}
	[ -n "$fd" ] || return 0
	exec {fd}>&-
	wait "$TREE_SUM_PID" 2>/dev/null
}
# tree_sum_ask VAR FIELD...: VAR = the python3's answer to FIELD...
# (started here at the first call); fails where it cannot answer
tree_sum_ask() {
	local _ts_v=$1 _ts_f; shift
	if [ -z "${TREE_SUM_PID:-}" ] && command -v python3 >/dev/null; then
		coproc TREE_SUM { exec python3 -c "$TREE_SUM_PY"; }
	fi
	[ -n "${TREE_SUM[1]:-}" ] || return 1
	for _ts_f; do [[ $_ts_f != *$'\n'* ]] || return 1; done
	{ { printf '%s\0' "$@"; echo; } >&"${TREE_SUM[1]}"; } 2>/dev/null &&
		IFS= read -r "${_ts_v?}" <&"${TREE_SUM[0]}" && [[ ${!_ts_v} == [0-9]*' '* ]]
}
# file_sum VAR FILE...: VAR = a digest of the FILEs' bytes one after
# another, each FILE's kind and length with them (a missing one, a
# folder or a FIFO said as such, never read), as `cat | sha1sum` said
# it with two processes; without the python3 of tree_sum, that
file_sum() {
	local _ts_v=$1; shift
	tree_sum_ask "$_ts_v" cat "$@" && return 0
	printf -v "$_ts_v" '%s' "$(cat "$@" 2>/dev/null | sha1sum)"
}
tree_sum() {
	local OPTIND o list='' vol='' dir lines
	while getopts l:v: o; do
		case $o in l) list=$OPTARG ;; v) vol=$OPTARG ;; *) return 2 ;; esac
	done
	shift $((OPTIND - 1))
	dir=$2
	[[ $dir == /* ]] || dir=$PWD/$dir
	tree_sum_ask "$1" tree "$dir" "$list" "$vol" && return 0
	lines=$(tree_snap "$dir")
	[ -z "$vol" ] ||
		lines=$(sed "/${vol//\//\\/} f /s/ [0-9]* [0-9.]* \\([0-9]* \\)\$/ \\1/" <<<"$lines")
	[ -z "$list" ] || printf '%s\n' "$lines" >"$list"
	printf -v "$1" '%s' "$lines"
}
# host_benches COMMAND...: COMMAND, which runs benches on this machine
# from a file of the guest lane, while no host file runs (tests/run.sh's
# VSB_HOST_LOCK); outside tests/run.sh just COMMAND
host_benches() {
	[ -n "${VSB_HOST_LOCK:-}" ] || { "$@"; return; }
	# the lock stays with this shell: nothing COMMAND leaves behind holds it
	{ flock 7 && "$@" 7>&-; } 7>"$VSB_HOST_LOCK"
}
# catches PID SIG: wait up to 5 s until process PID has a handler for
# SIG (its SigCgt mask in /proc), so that a signal sent next reaches the
# program's own handling, not the default action of a process still
# starting; a fixed sleep waited 0.7 s for what takes milliseconds
catches() {
	local pid=$1 bit mask i
	bit=$(( $(kill -l "$2") - 1 ))
	for ((i = 0; i < 250; i++)); do
		mask=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$pid/status" 2>/dev/null) || return 1
		[ -n "$mask" ] || return 1
		(( (16#$mask >> bit) & 1 )) && return 0
		sleep 0.02
	done
	return 1
}
# matches ERE FILE: a line of FILE matches the extended regular
# expression ERE, as `grep -qE -- ERE FILE` says, without a process of
# its own (the hostile scripts ask about 1,500 times; bash's =~ is the C
# library's regcomp, GNU's \w, \b and the rest included)
matches() {
	local l
	while IFS= read -r l || [ -n "$l" ]; do
		[[ $l =~ $1 ]] && return 0
	done <"$2"
	return 1
}
# one_line FILE: FILE is exactly one newline-ended line, told without a
# process of its own (the hostile scripts ask about 1,200 times)
one_line() {
	local l
	mapfile l <"$1" 2>/dev/null || return 1
	[ ${#l[@]} -eq 1 ] && [[ ${l[0]} == *$'\n' ]]
}
expect_usage_error() {	# expect_usage_error DESC PATTERN COMMAND...: exit 2, stderr matches, one line
	local d=$1 pat=$2; shift 2
	"$@" >"$TMP/out" 2>"$TMP/err"
	local rc=$?
	if [ "$rc" -eq 2 ] && matches "$pat" "$TMP/err" && one_line "$TMP/err"; then
		ok "$d"
	else
		not_ok "$d" "command: $*" "exit $rc (want 2), stderr:" "$(head -3 "$TMP/err")"
	fi
}
# expect_skip_as_nobody DESC PATTERN COMMAND...: COMMAND run as user
# nobody (setpriv) exits 4 with one stderr line matching PATTERN; a skip
# where setpriv is missing
expect_skip_as_nobody() {
	local d=$1 pat=$2 rc; shift 2
	if ! command -v setpriv >/dev/null; then
		skip "$d" "no setpriv"
		return
	fi
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ "$rc" -eq 4 ] && one_line "$TMP/err" && matches "$pat" "$TMP/err"; then
		ok "$d"
	else
		not_ok "$d" "command: $*" "exit $rc (want 4)" "$(head -3 "$TMP/err")"
	fi
}
# tap_from_guest FILE [PREFIX]: a guest script's "ok - ...", "not ok - ..."
# and "#" lines in FILE as numbered TAP here, each description after PREFIX
tap_from_guest() {
	local line
	while IFS= read -r line; do
		case $line in
		"ok - "*)     ok "${2:-}${line#ok - }" ;;
		"not ok - "*) not_ok "${2:-}${line#not ok - }" ;;
		"#"*)         echo "$line" ;;
		esac
	done <"$1"
}
# col_of FILE NAME: the 1-based position of column NAME in FILE's header
# row (the first line not starting with '#'); files are read by column
# name, never by a position that a new parameter column would move
col_of() {
	awk -F, -v n="$2" '/^#/ { next } { for (i = 1; i <= NF; i++) if ($i == n) { print i; exit } exit }' "$1"
}

# interrupt_sweep N DIR COMMAND...: COMMAND (a sweep into DIR) in the
# background, SIGINT once DIR holds N partial points (or it ended by
# itself); returns its exit status
interrupt_sweep() {
	local n=$1 dir=$2 pid; shift 2
	"$@" &
	pid=$!
	for _ in $(seq 600); do
		[ "$(ls "$dir/"*.csv.partial 2>/dev/null | wc -l)" -ge "$n" ] && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.02
	done
	kill -INT $pid 2>/dev/null
	wait $pid
}

# odd_meta_round_trip STORE RESULT: RESULT again as run crafted-odd with
# a metadata line the store's JSON code must give back as written
# (quotes, backslashes, a tab, UTF-8, a control character, a would-be
# escape), imported into STORE and exported: one TAP line
odd_meta_round_trip() {
	local odd=$TMP/odd.csv back=$TMP/odd-back.csv
	NOTE=$(printf '# note: a "q" \\ b\\s, tab\there, \302\265s, c\001x, \\u0041 end') \
		awk '/^# run_id:/ { print "# run_id: crafted-odd"; print ENVIRON["NOTE"]; next } 1' \
		"$2" >"$odd"
	"$VSB" db import --db "$1" "$odd" >/dev/null 2>&1
	"$VSB" db export --db "$1" --run crafted-odd -o "$back" >/dev/null 2>&1
	grep -q '^# note: a "q" .*end$' "$odd" && cmp -s "$odd" "$back" &&
		ok "metadata with quotes, backslashes, a tab, UTF-8 and a control character back whole" ||
		not_ok "odd metadata" "$(diff "$odd" "$back" | head -3)"
}

done_testing() {
	tree_sum_end
	echo "1..$TAP_N"
	[ "$TAP_FAILED" -eq 0 ]
}

# fake_kernel_tree DIR: a tree that kernel-build.sh takes for a kernel
# source, whose Makefile (tests/fixtures/kbuild/Makefile) plays kbuild;
# DIR/mm/vmstat.c is the caller's to write
fake_kernel_tree() {
	mkdir -p "$1/arch/x86" "$1/scripts/kconfig" "$1/mm" "$1/kernel"
	: >"$1/Kconfig"
	: >"$1/arch/x86/Kconfig"
	: >"$1/scripts/kconfig/Makefile"
	echo 'int b;' >"$1/kernel/fork.c"
	cp "$VSB_ROOT/tests/fixtures/kbuild/Makefile" "$1/Makefile"
}

# fake_series DIR N: a git tree that bisect takes for a kernel source
# (its Makefile's version, the Kconfig files its tree check looks for),
# with commits c0 ... cN, each writing its number into mm/vmstat.c, N
# checked out; the build and ab of bisect's tests are
# tests/fixtures/bisect/fake.sh.  One git fast-import writes them all:
# an add and a commit each (and commit's gc --auto) were some 20 git
# processes a series
fake_series() {
	local i t ref
	git init -q "$1"
	t="$(date +%s) +0000" ref=$(git -C "$1" symbolic-ref HEAD)
	for ((i = 0; i <= $2; i++)); do
		echo "commit $ref"
		echo "committer t <t@t> $t"
		echo "data <<EOF"
		echo "c$i"
		echo "EOF"
		if ((i == 0)); then
			echo "M 100644 inline Makefile"
			printf 'data <<EOF\nVERSION = 6\nPATCHLEVEL = 12\nEOF\n'
			echo "M 100644 inline Kconfig"
			printf 'data <<EOF\nmainmenu "fake"\nEOF\n'
			echo "M 100644 inline arch/x86/Kconfig"
			printf 'data <<EOF\nconfig X86\nEOF\n'
			echo "M 100644 inline scripts/kconfig/Makefile"
			printf 'data 0\n'
		fi
		echo "M 100644 inline mm/vmstat.c"
		printf 'data <<EOF\n%d\nEOF\n\n' "$i"
	done | git -C "$1" fast-import --quiet
	# the work tree and index from cN: the files are written once, above
	git -C "$1" reset -q --hard
}

# fake_bisect N: the world of bisect's tests without a kernel: the fake
# build and ab (VSB_BISECT_FAKE), a series c0 ... cN at FAKE_TREE (and
# G), the fake's log at FAKE_LOG and a one-point module sweep at
# $TMP/k.sweep; fake_sha SUBJECT names a commit of the series
fake_bisect() {
	export VSB_BISECT_FAKE=$VSB_ROOT/tests/fixtures/bisect/fake.sh
	export FAKE_TREE=$TMP/tree FAKE_LOG=$TMP/log
	G=$FAKE_TREE
	fake_series "$G" "$1"
	printf 'name k\nbench counter\nbackend kmod\ncpus 0\nvariant this-cpu-add\n' >"$TMP/k.sweep"
}
fake_sha() { git -C "$G" log --format=%H --grep="^$1\$" -1; }

# need_qemu_user: exit 4 with the reason unless qemu-x86_64 can count our
# binary with the plugin (qemu-user installed, not a sanitizer build,
# the plugin built)
need_qemu_user() {
	if ! command -v qemu-x86_64 >/dev/null; then
		echo "# no qemu-x86_64 (Debian package qemu-user; ci/deps.sh installs it)"
		exit 4
	fi
	if readelf -d "$VSB" 2>/dev/null | grep -q libasan; then
		echo "# $VSB is a sanitizer build: qemu-x86_64 cannot map ASan's shadow memory"
		exit 4
	fi
	if [ ! -f "$VSB_ROOT/$VSB_BUILD_DIR/qemu-plugin/vsb-insn.so" ]; then
		echo "# no TCG plugin in $VSB_BUILD_DIR/qemu-plugin: make builds it"
		exit 4
	fi
}
