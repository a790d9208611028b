#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The fifth hostile probe's classes (issue 45): bisect, bisect-step, ab's
# folder and exact mode, vm-run.sh, kmod-run.sh and kernel-build.sh held
# to the contract.  Each case says its class so that a run on an older
# binary (VSB=, VSB_ROOT=) counts them per class:
#   [sym]   a symlink planted in bisect's or ab's -o is not followed
#   [own]   state another user planted (or anyone may write) is not trusted
#   [comma] a comma in a path does not change what QEMU loads or opens
#   [pre]   every check before the first build or boot: exit 2, one line,
#           nothing made (no OUT, nothing built)
#   [exit]  bisect-step's exit codes are git bisect run's; ab's exit 5 is
#           undecided, not a failed boot
#   [write] bisect writes nowhere it must not (a user's -o, .git/index,
#           a state edited beyond its shape)
#   [kill]  children die with bisect; what a bisect boots against is held
#           from kernel-build.sh's pruning
# No guest boots and no kernel is built: the builds and ab are
# tests/fixtures/bisect/fake.sh (VSB_BISECT_FAKE).  It times nothing, so
# it runs in the guest lane, which is the shorter one (tests/run.sh).
#
# lane: guest
. "$(dirname "$0")/../lib.sh"

fake_bisect 3
export VSB_VM_CACHE=$TMP/cache
unset VSB_VM_ACCEL
C0=$(fake_sha c0) C3=$(fake_sha c3)
SW=$TMP/k.sweep
echo victim >"$TMP/victim"
mkdir -p "$TMP/vdir"
echo inside >"$TMP/vdir/f"
have_nobody=0
id nobody >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && have_nobody=1

bis() {		# bis OUT [args...]: the bisect of c0..c3 (c2 slow)
	local o=$1
	shift
	: >"$FAKE_LOG"
	FAKE_SLOW=c2 timeout -k 2 30 "$VSB" bisect --tree "$G" --good "$C0" --bad "$C3" \
		"$@" "$SW" -o "$o" >"$TMP/out" 2>"$TMP/err" </dev/null
}

# refused DESC PATTERN OUT: the last bis/step was exit 2 with one stderr
# line matching PATTERN, nothing built or booted, and OUT (if given and
# it was not there) not made; the victims untouched
refused() {
	local d=$1 pat=$2 rc=$3 out=${4:-} why=()
	[ "$rc" -eq 2 ] || why+=("exit $rc (want 2)")
	one_line "$TMP/err" || why+=("$(wc -l <"$TMP/err") stderr lines (want 1)")
	matches "$pat" "$TMP/err" || why+=("stderr does not match /$pat/")
	[ ! -s "$FAKE_LOG" ] || why+=("built or booted: $(head -c 200 "$FAKE_LOG")")
	[ -z "$out" ] || [ ! -e "$out" ] || why+=("$out was made")
	[ "$(cat "$TMP/victim")" = victim ] || { why+=("the victim was written"); echo victim >"$TMP/victim"; }
	[ "$(ls "$TMP/vdir")" = f ] || { why+=("the victim folder was written"); find "$TMP/vdir" -mindepth 1 ! -name f -delete; }
	if [ ${#why[@]} -eq 0 ]; then ok "$d"; else not_ok "$d" "${why[@]}" "$(head -c 300 "$TMP/err")"; fi
}

# a finished bisect to copy and plant into
bis "$TMP/done"
rc=$?
[ $rc -eq 0 ] && [ -f "$TMP/done/bisect.state" ] && ok "[pre] a bisect of the fake tree finds its culprit (the base the cases copy)" ||
	not_ok "[pre] the base bisect" "exit $rc" "$(tail -3 "$TMP/err")"
fresh() { rm -rf "$TMP/o"; cp -a "$TMP/done" "$TMP/o"; }

# ---- [sym] links planted in OUT ----------------------------------------
for target in nowhere victim vdir; do
	rm -rf "$TMP/o" "$TMP/nowhere"; mkdir "$TMP/o"
	ln -s "$TMP/$target" "$TMP/o/bisect.state"
	bis "$TMP/o"
	rc=$?
	[ ! -e "$TMP/nowhere" ] || { rc=99; rm -f "$TMP/nowhere"; }
	refused "[sym] OUT/bisect.state a link to $target: not followed, nothing created" \
		'symbolic link|not followed' $rc
done
for name in git steps kernels bisect.txt bisect.csv bisect.png bisect.svg; do
	for target in victim vdir; do
		fresh
		rm -rf "${TMP:?}/o/$name"
		ln -s "$TMP/$target" "$TMP/o/$name"
		bis "$TMP/o"
		refused "[sym] OUT/$name a link to the $target of a finished bisect: refused, not followed" \
			"$name.*symbolic link" $?
	done
done
if ((have_nobody)); then
	ln -s "$TMP/vdir" "$TMP/olink" && chown -h nobody "$TMP/olink"
	bis "$TMP/olink"
	refused "[sym] -o a link another user owns: not followed" 'olink.*symbolic link' $?
	rm -f "$TMP/olink"
else
	skip "[sym] -o a link another user owns" "not root or no user nobody"
fi

# ---- [own] state another user planted ----------------------------------
if ((have_nobody)); then
	for name in . bisect.state git steps kernels bisect.txt bisect.csv; do
		fresh
		chown nobody "$TMP/o/$name"
		bis "$TMP/o"
		refused "[own] OUT/$name owned by nobody: not trusted, nothing resumed" \
			'owned by nobody' $?
	done
	rm -rf "$TMP/o"; mkdir "$TMP/o"
	cp "$TMP/done/bisect.state" "$TMP/o/" && chown nobody "$TMP/o/bisect.state"
	bis "$TMP/o"
	refused "[own] a bisect.state planted by nobody alone: not resumed" 'owned by nobody' $?
else
	skip "[own] files owned by nobody" "not root or no user nobody"
fi
for name in . bisect.state git steps kernels; do
	for m in g+w o+w; do
		fresh
		chmod "$m" "$TMP/o/$name"
		bis "$TMP/o"
		refused "[own] OUT/$name $m: not trusted, nothing resumed" 'writable by' $?
	done
done

# ---- [write] OUT and its state --------------------------------------------
for f in notes.txt bisect.txt bisect.csv sub/; do
	rm -rf "$TMP/o"; mkdir -p "$TMP/o"
	case $f in */) mkdir "$TMP/o/$f" ;; *) echo mine >"$TMP/o/$f" ;; esac
	bis "$TMP/o"
	rc=$?
	{ [ -d "$TMP/o/$f" ] || [ "$(cat "$TMP/o/$f")" = mine ]; } &&
		[ "$(ls -A "$TMP/o")" = "${f%/}" ] || rc=98
	refused "[write] an -o holding a user's $f and no bisect: refused, left as it was" \
		'holds no bisect' $rc
done
state_edit() {	# state_edit DESC SED: a finished state edited, refused
	fresh
	sed -i "$2" "$TMP/o/bisect.state"
	bis "$TMP/o"
	refused "[write] bisect.state $1: refused, nothing replayed" 'a line no bisect writes' $?
}
state_edit "a step's verdict 'maybe'" 's/^\(step step [0-9a-f]* [0-9a-f]*\) [a-z]* /\1 maybe /'
state_edit "a step's verdict 'differ'" 's/^\(step step [0-9a-f]* [0-9a-f]*\) [a-z]* /\1 differ /'
state_edit "a step's verdict 'confirmed'" 's/^\(step step [0-9a-f]* [0-9a-f]*\) [a-z]* /\1 confirmed /'
state_edit "the endpoints' verdict 'good'" 's/^\(step endpoints [0-9a-f]* [0-9a-f]*\) [a-z]* /\1 good /'
state_edit "the confirm's verdict 'bad'" 's/^\(step confirm [0-9a-f]* [0-9a-f]*\) [a-z]* /\1 bad /'
state_edit "a role 'other'" 's/^step step /step other /'
state_edit "a step's folder ../../.." 's|^\(step step .*\) steps/[^ ]*$|\1 ../../..|'
state_edit "a step's folder steps/../../etc" 's|^\(step step .*\) steps/[^ ]*$|\1 steps/../../etc|'
state_edit "a step's folder /etc" 's|^\(step step .*\) steps/[^ ]*$|\1 /etc|'
state_edit "the endpoints' folder steps/x" 's|^\(step endpoints .*\) steps/[^ ]*$|\1 steps/x|'
state_edit "the confirm's folder of another commit" 's|^\(step confirm .*\) steps/confirm-[0-9a-f]*$|\1 steps/confirm-000000000000|'
state_edit "a spec with ../ in its build folder" '0,/^spec /s|^\(spec [0-9a-f]* [^:]*\):.*|\1:/tmp/../etc|'
state_edit "a spec with no build folder" '0,/^spec /s|^\(spec [0-9a-f]* [^:]*\):.*|\1|'

# git status does not refresh the user's .git/index: vmstat.c's new
# mtime would be written into it, so its bytes would change (no sleep
# needed for its own mtime to differ)
touch -d '2001-01-01' "$G/mm/vmstat.c"
idx=$(stat -c '%Y %s' "$G/.git/index"; sha256sum <"$G/.git/index")
: >"$FAKE_LOG"
"$VSB" bisect --tree "$G" --good "$C0" --bad nosuchrev "$SW" -o "$TMP/oi" >"$TMP/out" 2>"$TMP/err"
[ "$idx" = "$(stat -c '%Y %s' "$G/.git/index"; sha256sum <"$G/.git/index")" ] &&
	ok "[write] the tree check leaves a stale .git/index as it was (no optional locks)" ||
	not_ok "[write] .git/index rewritten by git status"
touch "$G/mm/vmstat.c"

# ---- [pre] every check before the first build --------------------------
pre() {		# pre DESC PATTERN ARGS...: bisect refused, no OUT, nothing built
	local d=$1 pat=$2
	shift 2
	rm -rf "$TMP/np"
	bis "$TMP/np" "$@"
	refused "$d" "$pat" $? "$TMP/np"
}
for v in '--smp 0' '--smp 65' '--smp x' '--mem 1' '--mem 010' '--boots 0' '--boots 51' \
	'--boots=0' '--max-boots 0' '--max-boots x' '--timeout 1' '--timeout 0x10' \
	'--max-regression x' '--max-regression -1' '--monitor nosuch' '--possible 0' \
	'--nodes 0' '--cmdline a\nb' '--no-such-option' '--exact --timed' \
	'--timed --max-boots 3' '--exact --possible 100'; do
	# shellcheck disable=SC2086
	pre "[pre] ab option $v: judged by ab before any build" '.' $v
done
pre "[pre] --max-boots takes its value: --max-boots 3 --exact is no second SWEEP" \
	'needs a value|SWEEP' --max-boots
VSB_VM_ACCEL=foo pre "[pre] VSB_VM_ACCEL=foo: refused before any build" 'VSB_VM_ACCEL'
VSB_VM_ACCEL=kvm pre "[pre] --exact with VSB_VM_ACCEL=kvm: refused before any build" \
	'VSB_VM_ACCEL=kvm' --exact
: >"$TMP/notastore"
echo garbage >"$TMP/garbage.db"
mkfifo "$TMP/fifo.db"
mkdir -p "$TMP/dir.db"
ln -s "$TMP/nowhere-db" "$TMP/dangling.db"
for db in "$TMP/dir.db" "$TMP/fifo.db" "$TMP/garbage.db" "$TMP/dangling.db" \
	  "sqlite:$TMP/dir.db" "postgresql://[bad" "nosuch://x" ""; do
	pre "[pre] --db '$db': checked before any build" '.' --db "$db"
done
mk_tree() {	# mk_tree PATH: the fake tree cloned to PATH
	rm -rf "$1"
	git clone -q "$G" "$1"
}
for name in 'a b' 'a:b' "$(printf 'a\tb')"; do
	mk_tree "$TMP/$name"
	rm -rf "$TMP/np"
	: >"$FAKE_LOG"
	FAKE_SLOW=c2 "$VSB" bisect --tree "$TMP/$name" --good "$C0" --bad "$C3" "$SW" \
		-o "$TMP/np" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	refused "[pre] --tree with $(printf %q "$name" | tr -d "'\$"): refused as kernel-build.sh does" \
		'blank|:' $rc "$TMP/np"
	rm -rf "${TMP:?}/$name"
done
for cache in "$TMP/c d" "$TMP/c:d"; do
	VSB_VM_CACHE=$cache pre "[pre] the cache path $(basename "$cache"): refused before any build" \
		'cache path'
done
echo file >"$TMP/afile"
bis "$TMP/afile/x"
refused "[pre] -o under a file: refused before any build" 'not a directory' $?

# ---- [exit] bisect-step and ab's exit 5 --------------------------------------
step() {	# step OUT [args...]: bisect-step at HEAD (c3) of the tree
	local o=$1
	shift
	: >"$FAKE_LOG"
	(cd "$G" && FAKE_SLOW=c2 timeout -k 2 30 "$VSB" bisect-step --good "fake-$C0:$TMP/k0" \
		"$@" "$SW" -o "$o" >"$TMP/out" 2>"$TMP/err" </dev/null)
}
mkdir -p "$TMP/k0"
rm -rf "$TMP/so"; mkdir "$TMP/so"; echo file >"$TMP/so/kernels"
step "$TMP/so"
rc=$?
[ $rc -ge 128 ] && [ ! -s "$FAKE_LOG" ] && ok "[exit] bisect-step whose -o/kernels cannot be made: stop (exit $rc), not skip" ||
	not_ok "[exit] bisect-step, -o/kernels a file" "exit $rc (want 128+)" "$(cat "$FAKE_LOG")"
for v in '--smp 0' '--boots 0' '--no-such-option' '--max-boots x'; do
	rm -rf "$TMP/so"
	# shellcheck disable=SC2086
	step "$TMP/so" $v
	rc=$?
	[ $rc -ge 128 ] && [ ! -s "$FAKE_LOG" ] && [ ! -e "$TMP/so" ] &&
		ok "[exit] bisect-step with ab option $v: stop before the build" ||
		not_ok "[exit] bisect-step with $v" "exit $rc" "$(cat "$FAKE_LOG")"
done
if ((have_nobody)); then
	rm -rf "$TMP/so"; mkdir "$TMP/so"; chown nobody "$TMP/so"
	step "$TMP/so"
	rc=$?
	[ $rc -ge 128 ] && [ ! -s "$FAKE_LOG" ] && ok "[exit] bisect-step into an -o owned by nobody: stop" ||
		not_ok "[exit] bisect-step, -o owned by nobody" "exit $rc"
fi
# ab's exit 5 with compare.csv written: undecided, a second ab with twice the boots
rm -rf "$TMP/so"
FAKE_FLAKY=c3 FAKE_EXIT5=1 step "$TMP/so" --boots 3
rc=$?
[ $rc -eq 125 ] && [ "$(grep -c '^ab ' "$FAKE_LOG")" -eq 2 ] && grep -q -- '--boots 6' "$FAKE_LOG" &&
	ok "[exit] bisect-step: ab's exit 5 earns the second ab with twice the boots, then skip" ||
	not_ok "[exit] bisect-step and ab's exit 5" "exit $rc" "$(cat "$FAKE_LOG")" "$(tail -3 "$TMP/err")"
rm -rf "$TMP/o5"
FAKE_FLAKY=c1 FAKE_EXIT5=1 bis "$TMP/o5" --boots 3
grep -q 'undecided after more boots' "$TMP/out" && ls -d "$TMP/o5/steps/"*"-$(fake_sha c1 | cut -c1-12)-more" >/dev/null &&
	ok "[exit] bisect: ab's exit 5 is undecided (a second ab into -more), not a failed boot" ||
	not_ok "[exit] bisect and ab's exit 5" "$(cat "$TMP/out")" "$(cat "$FAKE_LOG")"

# ---- [kill] a killed bisect's children; the good build held -------------
rm -rf "$TMP/ok"
: >"$FAKE_LOG"
FAKE_SLEEP=c2 FAKE_SLOW=c2 "$VSB" bisect --tree "$G" --good "$C0" --bad "$C3" "$SW" \
	-o "$TMP/ok" >"$TMP/out" 2>"$TMP/err" </dev/null &
bpid=$!
for _ in $(seq 300); do
	grep -q '^ab c0 c2' "$FAKE_LOG" 2>/dev/null && break
	sleep 0.05
done
glock=$TMP/ok/kernels/$(cut -c1-12 <<<"$C0")/.vsb-lock
# kernel-build.sh's prune: (exec 9>>LOCK && flock -n 9 && rm -rf BUILD)
if [ -f "$glock" ] && ! (exec 9>>"$glock" && flock -n 9); then
	ok "[kill] the good build's lock is held while the steps boot against it (prune skips it)"
else
	not_ok "[kill] the good build's lock held" "$(ls -la "$(dirname "$glock")" 2>&1)"
fi
# the ab runs under a reaper (a copy of bisect between them): a
# descendant of bisect, not its child
below() {	# below PID ANCESTOR: PID's parents lead to ANCESTOR
	local p=$1
	while [ "${p:-0}" -gt 1 ]; do
		p=$(awk '{ print $4 }' "/proc/$p/stat" 2>/dev/null) || return 1
		[ "$p" = "$2" ] && return 0
	done
	return 1
}
abpid=$(for p in $(pgrep -f 'fake.sh ab'); do below "$p" $bpid && echo "$p"; done | head -n1)
{ kill -KILL $bpid; wait $bpid; } 2>/dev/null
gone=0
for _ in $(seq 100); do
	[ -n "$abpid" ] && ! kill -0 "$abpid" 2>/dev/null && { gone=1; break; }
	sleep 0.05
done
((gone)) && ok "[kill] a SIGKILLed bisect leaves no ab running (it dies with its parent)" ||
	not_ok "[kill] the ab of a killed bisect" "ab pid '${abpid}' still there"
[ -z "$abpid" ] || kill -KILL "$abpid" 2>/dev/null

done_testing
