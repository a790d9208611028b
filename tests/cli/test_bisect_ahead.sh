#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bisect's builds ahead (--ahead N, harness/bisect/ahead.c) and the
# build locks its steps hold (hold.c), without a kernel: the build and
# ab are tests/fixtures/bisect/fake.sh, on a git "kernel tree" c0 ... c8
# whose c5 is slow, with every ab taking FAKE_AB_SECS so that builds
# ahead run beside it.  Checked: each step's commit was built while the
# step before booted, both of git's next candidates are built (and only
# they), the verdicts and the culprit are those of --ahead 0, a stale
# build of the candidate git did not pick is cancelled (no wait for it,
# no process left), SIGTERM and SIGKILL of bisect leave no build
# running and the same command resumes, a commit that does not build is
# skipped from its build ahead, --ahead's refusals, the real build
# scripts with a fake kbuild, and that a step's kernels and bisect-step's
# good kernel are held (a prune's `flock -n` fails on them) while booted.
. "$(dirname "$0")/../lib.sh"

fake_bisect 8
export FAKE_TAG="t$$"
C0=$(fake_sha c0) C5=$(fake_sha c5) C8=$(fake_sha c8)

bisect() {	# bisect OUT [args...]: FAKE_* from the caller's environment
	local o=$1
	shift
	rm -f "$FAKE_LOG"
	"$VSB" bisect --tree "$G" --good "$C0" --bad "$C8" "$@" "$TMP/k.sweep" -o "$o" \
		>"$TMP/out" 2>"$TMP/err"
}
strays() { pgrep -f "fake-build-$FAKE_TAG-" | wc -l; }
built_set() { sed -n 's/^built //p' "$FAKE_LOG" | sort | tr '\n' ' '; }
# each step's commit (an ab against c0 after the endpoints') built before
# the ab before it ended: built while that one booted
built_during_boots() {
	awk '/^ab /    { n++; new[n] = $3; base[n] = $2 }
	     /^ab-end / { end[n] = NR }
	     /^built /  { b[$2] = NR }
	     END { for (i = 2; i <= n; i++) {
			if (base[i] != "c0") continue
			if (!(new[i] in b) || b[new[i]] > end[i - 1]) { print new[i]; bad = 1 }
		   }
		   exit bad }' "$FAKE_LOG"
}

# --- the same answer, sooner ---------------------------------------------------------
# --ahead 0 builds nothing beside a boot: its abs need not take long
FAKE_SLOW=c5 bisect "$TMP/a0" --ahead 0 --exact
rc0=$?
log0=$(cat "$FAKE_LOG")
set0=$(built_set)
export FAKE_AB_SECS=0.5
FAKE_SLOW=c5 bisect "$TMP/a2" --ahead 2 --exact
rc=$?
[ $rc0 -eq 0 ] && [ $rc -eq 0 ] && [ "$(tail -n1 "$TMP/out")" = "culprit: $C5 c5" ] &&
	ok "--ahead 2: the slow commit found, exit 0, as with --ahead 0" ||
	not_ok "--ahead 2 finds the culprit" "exit $rc0 / $rc" "$(tail -n3 "$TMP/err")"
diff <(grep '^step ' "$TMP/a0/bisect.state" | sed "s#$TMP/a0##") \
     <(grep '^step ' "$TMP/a2/bisect.state" | sed "s#$TMP/a2##") >/dev/null &&
	diff <(sed "s#$TMP/a0##" "$TMP/a0/bisect.txt") <(sed "s#$TMP/a2##" "$TMP/a2/bisect.txt") >/dev/null &&
	ok "--ahead 2: the same steps, verdicts and bisect.txt as --ahead 0" ||
	not_ok "the same verdicts with and without builds ahead" \
		"$(diff "$TMP/a0/bisect.state" "$TMP/a2/bisect.state")"
miss=$(built_during_boots)
[ $? -eq 0 ] && [ "$(grep -c 'built ahead$' "$TMP/err")" -eq 3 ] &&
	ok "--ahead 2: each step's commit was built while the step before booted" ||
	not_ok "steps built ahead" "not ahead: $miss" "$(cat "$FAKE_LOG")"
# git's picks on this history: c4 first; then c2 (c4 bad) or c6 (good);
# c6 bad: c5 or c7; after c5 none is left (c5 or c6 is the culprit)
[ "$set0" = "c0 c4 c5 c6 c8 " ] && [ "$(built_set)" = "c0 c2 c4 c5 c6 c7 c8 " ] &&
	ok "--ahead 2: both of git's next candidates built, no other commit" ||
	not_ok "the candidates built ahead" "--ahead 0: $set0" "--ahead 2: $(built_set)"
[ "$(grep -c '^ab ' "$FAKE_LOG")" -eq "$(grep -c '^ab ' <<<"$log0")" ] &&
	ok "--ahead 2: a commit built ahead and not picked is never booted" ||
	not_ok "only the picked commits booted" "$(cat "$FAKE_LOG")"

# The checks below do not need builds ahead to finish within a boot:
# instant abs keep them short (the last section sets its own)
export FAKE_AB_SECS=''

# --- a stale build ahead is cancelled -------------------------------------------------
# c2 (the pick if c4 were bad) is built first and takes 60 s: c4 is
# good, so git asks for c6, and c2's build is killed, not waited for
t0=$(date +%s)
FAKE_SLOW=c5 FAKE_BUILD_SLOW=c2 bisect "$TMP/a3" --ahead 2
rc=$?
secs=$(($(date +%s) - t0))
[ $rc -eq 0 ] && [ "$(tail -n1 "$TMP/out")" = "culprit: $C5 c5" ] && [ $secs -lt 40 ] &&
	! grep -q '^built c2' "$FAKE_LOG" && [ "$(strays)" -eq 0 ] &&
	ok "a build ahead of the candidate not picked is cancelled: no wait, no process left (${secs} s)" ||
	not_ok "a stale build ahead cancelled" "exit $rc, $secs s, $(strays) left" "$(cat "$FAKE_LOG")"

# --- a commit that does not build: skipped from its build ahead --------------------------
FAKE_SLOW=c5 FAKE_NOBUILD=c6 bisect "$TMP/a4" --ahead 0
rc0=$? out0=$(sed "s#$TMP/a4##" "$TMP/out")
FAKE_SLOW=c5 FAKE_NOBUILD=c6 bisect "$TMP/a5" --ahead 2
rc=$?
[ $rc -eq $rc0 ] && [ "$(sed "s#$TMP/a5##" "$TMP/out")" = "$out0" ] &&
	grep -q 'skip: does not build' "$TMP/out" && [ "$(grep -c '^build c6' "$FAKE_LOG")" -eq 1 ] &&
	ok "a commit that does not build ahead is skipped as without --ahead, not built twice" ||
	not_ok "a failed build ahead" "exit $rc0 / $rc" "$out0" "$(cat "$TMP/out")" "$(cat "$FAKE_LOG")"

# --- SIGTERM, SIGKILL: no build left running; the same command resumes ------------------
# c4's ab sleeps 60 s while c2 and c6 are built ahead, slowly
run_bg() {	# run_bg OUT: bisect in the background, $pid, once c4's ab runs
	rm -f "$FAKE_LOG"
	FAKE_SLOW=c5 FAKE_SLEEP=c4 FAKE_BUILD_SLOW="c2 c6" "$VSB" bisect --tree "$G" \
		--good "$C0" --bad "$C8" --ahead 2 "$TMP/k.sweep" -o "$1" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	for _ in $(seq 200); do
		grep -q '^ab c0 c4' "$FAKE_LOG" 2>/dev/null && [ "$(strays)" -ge 1 ] && break
		sleep 0.1
	done
}
run_bg "$TMP/a6"
running=$(strays)
t0=$(date +%s)
kill -TERM $pid
wait $pid
rc=$?
# "at once": well before the 60 s the boot and the builds ahead would
# take; 10 s, since under make test's guest lane the stop took over 5
took=$(($(date +%s) - t0))
[ "$running" -ge 1 ] && [ $rc -eq 1 ] && [ $took -le 10 ] &&
	[ "$(grep -c interrupted "$TMP/err")" -eq 1 ] && [ "$(strays)" -eq 0 ] &&
	ok "SIGTERM while building ahead: exit 1 at once (${took} s), one line, no build left running" ||
	not_ok "SIGTERM while building ahead" "exit $rc in $took s, $running built before, $(strays) after" \
		"$(cat "$TMP/err")"
FAKE_SLOW=c5 "$VSB" bisect --tree "$G" --good "$C0" --bad "$C8" --ahead 2 "$TMP/k.sweep" \
	-o "$TMP/a6" >"$TMP/out" 2>"$TMP/err"
[ $? -eq 0 ] && [ "$(tail -n1 "$TMP/out")" = "culprit: $C5 c5" ] &&
	ok "after SIGTERM the same command finishes" || not_ok "resume after SIGTERM" "$(tail -n3 "$TMP/err")"

run_bg "$TMP/a7"
running=$(strays)
kill -KILL $pid
wait $pid 2>/dev/null
for _ in $(seq 50); do [ "$(strays)" -eq 0 ] && break; sleep 0.1; done
[ "$running" -ge 1 ] && [ "$(strays)" -eq 0 ] &&
	ok "SIGKILL of bisect: its builds ahead end with it (within 5 s)" ||
	not_ok "SIGKILL leaves no build" "$running before, $(strays) after" "$(pgrep -af "fake-build-$FAKE_TAG-")"
FAKE_SLOW=c5 "$VSB" bisect --tree "$G" --good "$C0" --bad "$C8" "$TMP/k.sweep" \
	-o "$TMP/a7" >"$TMP/out" 2>"$TMP/err"
[ $? -eq 0 ] && [ "$(tail -n1 "$TMP/out")" = "culprit: $C5 c5" ] &&
	ok "after SIGKILL the same command finishes" || not_ok "resume after SIGKILL" "$(tail -n3 "$TMP/err")"

# --- --ahead's refusals -------------------------------------------------------------------
rm -f "$FAKE_LOG"
for bad in 15 -1 x '' 2x; do
	expect_usage_error "--ahead '$bad' is refused" '--ahead' \
		"$VSB" bisect --tree "$G" --good "$C0" --bad "$C8" --ahead "$bad" "$TMP/k.sweep" -o "$TMP/ar"
done
expect_usage_error "--ahead with no value is refused" '--ahead' \
	"$VSB" bisect --tree "$G" --good "$C0" --bad "$C8" "$TMP/k.sweep" -o "$TMP/ar" --ahead
[ ! -e "$TMP/ar" ] && [ ! -e "$FAKE_LOG" ] &&
	ok "--ahead's refusals: nothing built, no OUT made" ||
	not_ok "--ahead's refusals leave nothing" "$(ls -la "$TMP/ar" 2>&1)" "$(cat "$FAKE_LOG" 2>&1)"

expect_usage_error "--ahead 2 with --timed is refused (a build would be timed with the boot)" \
	'--ahead 2 with --timed' \
	"$VSB" bisect --tree "$G" --good "$C0" --bad "$C8" --ahead 2 --timed "$TMP/k.sweep" -o "$TMP/ar"

# --- timed boots: nothing built beside them ------------------------------------------------
# ab's own choice, timed (FAKE_MODE: what KVM would make it), and
# --timed with the default --ahead: each step builds its commit itself
FAKE_SLOW=c5 FAKE_MODE=timed bisect "$TMP/t1" --ahead 2
rc1=$? set1=$(built_set) n1=$(grep -c 'ahead' "$TMP/err")
FAKE_SLOW=c5 bisect "$TMP/t2" --timed
rc2=$? n2=$(grep -c 'ahead' "$TMP/err")
[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ "$n1" -eq 0 ] && [ "$n2" -eq 0 ] &&
	[ "$set1" = "$set0" ] && [ "$(built_set)" = "$set0" ] &&
	ok "timed boots (ab's choice, or --timed): no build beside them, the same builds as --ahead 0" ||
	not_ok "no builds ahead beside timed boots" "exit $rc1 / $rc2, $n1 / $n2 ahead lines" \
		"--ahead 0: $set0" "timed: $set1 / $(built_set)"

# --- a step's kernels held while booted ---------------------------------------------------
# kernel-build.sh prunes with `flock -n` (exclusive) on .vsb-lock: it
# must fail on good's folder and on the step's while c4's ab runs
export FAKE_BUILD_SLOW=''
rm -f "$FAKE_LOG"
FAKE_SLOW=c5 FAKE_SLEEP=c4 "$VSB" bisect --tree "$G" --good "$C0" --bad "$C8" --ahead 0 \
	"$TMP/k.sweep" -o "$TMP/a8" >"$TMP/out" 2>"$TMP/err" &
pid=$!
for _ in $(seq 200); do grep -q '^ab c0 c4' "$FAKE_LOG" 2>/dev/null && break; sleep 0.1; done
k0=$TMP/a8/kernels/$(cut -c1-12 <<<"$C0") k4=$TMP/a8/kernels/$(cut -c1-12 <<<"$(fake_sha c4)")
held=0
flock -n -x "$k0/.vsb-lock" true || held=$((held + 1))
flock -n -x "$k4/.vsb-lock" true || held=$((held + 1))
kill -TERM $pid
wait $pid
[ $held -eq 2 ] && flock -n -x "$k0/.vsb-lock" true && flock -n -x "$k4/.vsb-lock" true &&
	ok "bisect holds good's and the step's build locks while it boots them, not after" ||
	not_ok "build locks held in a step" "$held of 2 held"

# bisect-step: good's folder held during the step; a good gone is 128
spec0=$(VSB_BISECT_FAKE= "$VSB_BISECT_FAKE" build "$G" "$C0" "$TMP/k0")
git clone -q "$G" "$TMP/work"
git -C "$TMP/work" checkout -q "$(fake_sha c4)"
rm -f "$FAKE_LOG"
(cd "$TMP/work" && FAKE_SLEEP=c4 exec "$VSB" bisect-step --good "$spec0" "$TMP/k.sweep" \
	-o "$TMP/st" >/dev/null 2>&1) &
pid=$!
for _ in $(seq 200); do grep -q '^ab c0 c4' "$FAKE_LOG" 2>/dev/null && break; sleep 0.1; done
held=0
flock -n -x "$TMP/k0/.vsb-lock" true || held=1
kill -TERM $pid
wait $pid
[ $held -eq 1 ] && flock -n -x "$TMP/k0/.vsb-lock" true &&
	ok "bisect-step holds good's build lock while it boots" || not_ok "bisect-step holds good's lock"
rm -f "$TMP/k0/.vsb-complete"
(cd "$TMP/work" && "$VSB" bisect-step --good "$spec0" "$TMP/k.sweep" -o "$TMP/st2" \
	>/dev/null 2>"$TMP/err")
rc=$?
[ $rc -eq 128 ] && grep -q 'build folder is gone or not complete' "$TMP/err" &&
	ok "bisect-step with good's build gone: 128 (git bisect run stops), said" ||
	not_ok "bisect-step with good's build gone" "exit $rc" "$(cat "$TMP/err")"

# --- the real build scripts, a fake kbuild, ab faked ------------------------------------------
# c0 ... c4, c3 slow: git asks for c2, then c3 (c1 were c2 bad), each
# built ahead; a real build costs some 1.5 CPU-s (kernel-build.sh), so
# no more commits than that
R=$TMP/rtree
git init -q "$R"
fake_kernel_tree "$R"
for i in 0 1 2 3 4; do
	echo "int a$i;" >"$R/mm/vmstat.c"
	git -C "$R" add -A
	git -C "$R" -c user.name=t -c user.email=t@t commit -q -m "c$i"
done
fake=$VSB_BISECT_FAKE
rm -f "$FAKE_LOG"
VSB_VM_CACHE=$TMP/vcache VSB_KBUILD_KEEP=20 VSB_BISECT_FAKE= VSB_BISECT_FAKE_AB=$fake FAKE_TREE=$R FAKE_SLOW=c3 FAKE_AB_SECS=1 \
	"$VSB" bisect --tree "$R" --good HEAD~4 --bad HEAD --ahead 2 --exact "$TMP/k.sweep" -o "$TMP/a9" \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc -eq 4 ]; then
	skip "real builds ahead with a fake kbuild" "$(grep -m1 SKIP "$TMP/err")"
else
	R3=$(git -C "$R" log --format=%H --grep='^c3$' -1)
	# the 4 commits booted, and c1 where its build ahead ended before
	# git's answer made it stale (cancelled: not complete)
	nb=$(ls -d "$TMP"/vcache/kbuild/*/.vsb-complete 2>/dev/null | wc -l)
	inc=1
	for d in "$TMP"/vcache/kbuild/*/; do
		[ -f "$d/.vsb-complete" ] || continue
		[ "$(grep -c 'kernel/fork.c' "$d/compiled.log")" -eq 1 ] || inc=0
	done
	[ $rc -eq 0 ] && [ "$(tail -n1 "$TMP/out")" = "culprit: $R3 c3" ] && [ "$nb" -ge 4 ] && [ "$nb" -le 5 ] &&
		[ $inc -eq 1 ] && [ "$(grep -c 'built ahead$' "$TMP/err")" -eq 2 ] &&
		ok "real builds ahead: the culprit found, each step's commit built ahead, every complete build from the last (fork.c once)" ||
		not_ok "real builds ahead" "exit $rc, $nb builds, incremental $inc" "$(tail -n5 "$TMP/err")"
fi
done_testing
