#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `vmstat-bench bisect` and `bisect-step` without a kernel: the build and
# ab are replaced by tests/fixtures/bisect/fake.sh (VSB_BISECT_FAKE),
# which makes up a metric per commit of a small git "kernel tree" made
# here (c0 ... c8, one commit slower), so the driver's logic is what is
# tested, in seconds: the culprit and its check, the step rule with
# compare's old and new words, ab's options passed on, --db, skips (no
# build, undecided after more boots), a culprit hidden by skips, endpoints
# that do not differ, resume after a kill, another question refused on
# the same OUT, every refusal before anything is built (one line, exit
# 2), the user's tree untouched, and bisect-step under `git bisect run`.
# Then once with the real builds (ci/bisect-build.sh and kernel-build.sh
# --reuse on a tree whose Makefile plays kbuild) and only ab faked
# (VSB_BISECT_FAKE_AB).
#
# It times nothing and boots no guest: it runs in the guest lane to even
# the lanes out (tests/run.sh).
# lane: guest
. "$(dirname "$0")/../lib.sh"

fake_bisect 8
C0=$(fake_sha c0) C4=$(fake_sha c4) C5=$(fake_sha c5) C8=$(fake_sha c8)
printf 'name u\nbench counter\nbackend user\ncpus 0\nvariant this-cpu-add\n' >"$TMP/u.sweep"
snap() { git -C "$G" rev-parse HEAD; sha256sum <"$G/.git/index"; git -C "$G" status --porcelain;
	 git -C "$G" for-each-ref; ls "$G/.git"; }
snap >"$TMP/snap0"

bisect() {	# bisect OUT [args...]: FAKE_* from the caller's environment
	local o=$1
	shift
	rm -f "$FAKE_LOG"
	"$VSB" bisect --tree "$G" --good "$C0" --bad "$C8" "$@" "$TMP/k.sweep" -o "$o" \
		>"$TMP/out" 2>"$TMP/err"
}

# --- the culprit ------------------------------------------------------------------
FAKE_SLOW=c5 bisect "$TMP/o1" --boots 3 --exact
rc=$?
[ $rc -eq 0 ] && [ "$(tail -n1 "$TMP/out")" = "culprit: $C5 c5" ] &&
	ok "the slow commit found: exit 0, the last stdout line names it with its subject" ||
	not_ok "the slow commit found" "exit $rc" "$(tail -n3 "$TMP/out")" "$(tail -n3 "$TMP/err")"
[ "$(tail -n1 "$TMP/o1/bisect.txt")" = "culprit: $C5" ] &&
	grep -q "^step 0 endpoints $C8 c8" "$TMP/o1/bisect.txt" &&
	grep -q '^  kstat mod-zone: 100 -> 150 tsc (x1.500) slower$' "$TMP/o1/bisect.txt" &&
	[ "$(grep -c '^  verdict: ' "$TMP/o1/bisect.txt")" -eq 5 ] &&
	ok "bisect.txt: every step with its subject, metric per point and verdict; last line culprit: SHA" ||
	not_ok "bisect.txt" "$(cat "$TMP/o1/bisect.txt")"
grep -q "^ab c4 c5 --boots 3 --exact " "$FAKE_LOG" && grep -q "^confirm $(cut -c1-12 <<<"$C5") confirmed" "$TMP/out" &&
	ok "the culprit confirmed against its parent (ab c4 against c5)" ||
	not_ok "the culprit confirmed against its parent" "$(cat "$FAKE_LOG")"
[ "$(grep -c '^ab ' "$FAKE_LOG")" -eq "$(grep -c ' --boots 3 --exact ' "$FAKE_LOG")" ] &&
	ok "ab's options (--boots 3 --exact) passed to every ab unchanged" ||
	not_ok "ab's options passed unchanged" "$(cat "$FAKE_LOG")"
[ "$(grep -c '^build ' "$FAKE_LOG")" -eq "$(grep '^build ' "$FAKE_LOG" | sort -u | wc -l)" ] &&
	ok "each commit built once" || not_ok "each commit built once" "$(grep '^build' "$FAKE_LOG")"
head -n1 "$TMP/o1/bisect.csv" | grep -q '^# good: ' && grep -q '^place,commit,verdict,series,metric,unit$' "$TMP/o1/bisect.csv" &&
	grep -q "^5,$(cut -c1-12 <<<"$C5"),bad,1,150,tsc$" "$TMP/o1/bisect.csv" &&
	grep -q "^0,$(cut -c1-12 <<<"$C0"),good,1,100,tsc$" "$TMP/o1/bisect.csv" &&
	ok "bisect.csv: the metric per commit tried, by place" || not_ok "bisect.csv" "$(cat "$TMP/o1/bisect.csv")"
if command -v gnuplot >/dev/null; then
	[ -s "$TMP/o1/bisect.png" ] && [ -s "$TMP/o1/bisect.svg" ] && ok "the chart: bisect.png and .svg" ||
		not_ok "the chart" "$(grep -i chart "$TMP/err")"
else
	skip "the chart" "no gnuplot"
fi
snap >"$TMP/snap1"
cmp -s "$TMP/snap0" "$TMP/snap1" && ok "the user's tree: HEAD, index, status, refs, .git unchanged" ||
	not_ok "the user's tree unchanged" "$(diff "$TMP/snap0" "$TMP/snap1")"

# the same command on a finished OUT: the answer again, nothing measured
FAKE_SLOW=c5 bisect "$TMP/o1" --boots 3 --exact
rc=$?
[ $rc -eq 0 ] && [ "$(tail -n1 "$TMP/out")" = "culprit: $C5 c5" ] && [ ! -s "$FAKE_LOG" ] &&
	ok "a finished OUT again: the culprit, nothing built or booted" ||
	not_ok "a finished OUT again" "exit $rc" "$(cat "$FAKE_LOG" 2>/dev/null)"
expect_usage_error "another question on the same OUT is refused" 'holds another bisect' \
	"$VSB" bisect --tree "$G" --good "$C4" --bad "$C8" "$TMP/k.sweep" -o "$TMP/o1"

# a state whose step line was damaged: refused before anything is built
cp -r "$TMP/o1" "$TMP/o1bad" && : >"$FAKE_LOG"
sed -i '0,/^step endpoints /s/^step endpoints \([0-9a-f]*\) /step endpoints \1x /' "$TMP/o1bad/bisect.state"
expect_usage_error "a bisect.state line no bisect writes is refused" 'bisect.state holds a line no bisect writes' \
	"$VSB" bisect --tree "$G" --good "$C0" --bad "$C8" --boots 3 --exact "$TMP/k.sweep" \
	-o "$TMP/o1bad"
[ ! -s "$FAKE_LOG" ] && ok "the damaged state: nothing built or booted" ||
	not_ok "the damaged state: nothing built" "$(cat "$FAKE_LOG")"

# compare's old word "no-change" counts as same; --db imports each ab
FAKE_SLOW=c3 FAKE_WORDS=old bisect "$TMP/o2" --db "sqlite:$TMP/db"
[ $? -eq 0 ] && [ "$(tail -n1 "$TMP/out")" = "culprit: $(fake_sha c3) c3" ] &&
	ok "the old verdict word no-change is read as same" || not_ok "no-change read as same" "$(tail -n3 "$TMP/err")"
[ "$(grep -c '^db ' "$FAKE_LOG")" -eq "$(grep -c '^ab ' "$FAKE_LOG")" ] && grep -q "^db sqlite:$TMP/db " "$FAKE_LOG" &&
	ok "--db: every ab's results imported" || not_ok "--db imports" "$(cat "$FAKE_LOG")"

# exact mode's "changed" (the count moved, no cost model says which way;
# ab exits 5 for it) is a change: bisect still finds the commit, and
# bisect-step calls it bad
FAKE_SLOW=c6 FAKE_WORDS=exact bisect "$TMP/o2x"
[ $? -eq 0 ] && [ "$(tail -n1 "$TMP/out")" = "culprit: $(fake_sha c6) c6" ] &&
	ok "changed endpoints: the commit that changed the count is found" ||
	not_ok "bisect to a changed count" "$(tail -n3 "$TMP/err")"

# --- skips ------------------------------------------------------------------------------
FAKE_SLOW=c5 FAKE_NOBUILD=c4 FAKE_FLAKY=c6 bisect "$TMP/o3" --boots 3
rc=$?
if [ $rc -eq 1 ] && grep -q 'skipped commits hide the culprit' "$TMP/out" &&
   [ "$(tail -n1 "$TMP/out")" = "culprit: one of 2 commits (skips hide it), see $TMP/o3/bisect.txt" ] &&
   grep -qx "$C4" "$TMP/o3/bisect.txt" && grep -qx "$C5" "$TMP/o3/bisect.txt" &&
   ! grep -q '^culprit: ' "$TMP/o3/bisect.txt"; then
	ok "a culprit hidden by a skip: exit 1, the range printed and in bisect.txt"
else
	not_ok "a culprit hidden by a skip" "exit $rc" "$(cat "$TMP/out")"
fi
grep -q 'skip: does not build' "$TMP/out" && ok "a commit that does not build is skipped" ||
	not_ok "a commit that does not build is skipped" "$(cat "$TMP/out")"
FAKE_SLOW=c5 FAKE_NOBUILD=c3 FAKE_FLAKY=c6 bisect "$TMP/o4" --boots 3
rc=$?
[ $rc -eq 0 ] && [ "$(tail -n1 "$TMP/out")" = "culprit: $C5 c5" ] &&
	grep -q 'c6 --boots 6 ' "$FAKE_LOG" && grep -q "skip: undecided after more boots  c6" "$TMP/out" &&
	ok "an undecided step gets twice the boots, then a skip; the culprit still found" ||
	not_ok "undecided: more boots, then skip" "exit $rc" "$(cat "$TMP/out")" "$(cat "$FAKE_LOG")"

# endpoints that do not differ
FAKE_SLOW=none bisect "$TMP/o5"
rc=$?
[ $rc -eq 1 ] && grep -q 'do not differ on the sweep' "$TMP/err" && [ "$(grep -c '^ab ' "$FAKE_LOG")" -eq 1 ] &&
	ok "endpoints that do not differ: exit 1, said, no step" ||
	not_ok "endpoints that do not differ" "exit $rc" "$(cat "$TMP/err")"

# --- resume after a kill --------------------------------------------------------------------
rm -f "$FAKE_LOG"
FAKE_SLOW=c5 FAKE_SLEEP=c6 setsid "$VSB" bisect --tree "$G" --good "$C0" --bad "$C8" \
	"$TMP/k.sweep" -o "$TMP/o6" >"$TMP/out" 2>"$TMP/err" &
pid=$!
for _ in $(seq 100); do grep -q '^ab c0 c6' "$FAKE_LOG" 2>/dev/null && break; sleep 0.1; done
kill -KILL -- -$pid 2>/dev/null
wait $pid 2>/dev/null
before=$(grep -c '^ab ' "$FAKE_LOG")
FAKE_SLOW=c5 "$VSB" bisect --tree "$G" --good "$C0" --bad "$C8" "$TMP/k.sweep" -o "$TMP/o6" \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ] && [ "$before" -eq 3 ] && [ "$(tail -n1 "$TMP/out")" = "culprit: $C5 c5" ] &&
	[ "$(grep -c '^ab c0 c4' "$FAKE_LOG")" -eq 1 ] && [ "$(grep -c '^ab c0 c8' "$FAKE_LOG")" -eq 1 ] &&
	[ "$(grep -c '^build c0' "$FAKE_LOG")" -eq 1 ] && grep -q 'resuming' "$TMP/err" &&
	[ "$(tail -n1 "$TMP/o6/bisect.txt")" = "culprit: $C5" ] &&
	ok "killed in a step, the same command resumes: the steps done not redone, the culprit found" ||
	not_ok "resume after a kill" "exit $rc, $before ab before" "$(cat "$FAKE_LOG")" "$(tail -n3 "$TMP/err")"

# SIGTERM in a step: passed on to ab, exit 1 said, the step left for a resume
rm -f "$FAKE_LOG"
FAKE_SLOW=c5 FAKE_SLEEP=c6 "$VSB" bisect --tree "$G" --good "$C0" --bad "$C8" \
	"$TMP/k.sweep" -o "$TMP/o7" >"$TMP/out" 2>"$TMP/err" &
pid=$!
for _ in $(seq 100); do grep -q '^ab c0 c6' "$FAKE_LOG" 2>/dev/null && break; sleep 0.1; done
sleep 0.2
t0=$(date +%s)
kill -TERM $pid
wait $pid
rc=$?
[ $rc -eq 1 ] && [ $(($(date +%s) - t0)) -le 5 ] && grep -q 'interrupted; the same command resumes' "$TMP/err" &&
	[ "$(grep -c interrupted "$TMP/err")" -eq 1 ] && ! grep -q "^step step $(fake_sha c6)" "$TMP/o7/bisect.state" && grep -q '^step endpoints' "$TMP/o7/bisect.state" &&
	ok "SIGTERM in a step: passed to ab, exit 1 at once, one line, the step not recorded" ||
	not_ok "SIGTERM in a step" "exit $rc" "$(cat "$TMP/err")"
FAKE_SLOW=c5 "$VSB" bisect --tree "$G" --good "$C0" --bad "$C8" "$TMP/k.sweep" -o "$TMP/o7" \
	>"$TMP/out" 2>"$TMP/err"
[ $? -eq 0 ] && [ "$(tail -n1 "$TMP/out")" = "culprit: $C5 c5" ] &&
	ok "after SIGTERM the same command finishes" || not_ok "after SIGTERM the same command finishes" "$(tail -n3 "$TMP/err")"

# --- real builds (ci/bisect-build.sh, kernel-build.sh --reuse), ab faked ---------------------
# a tree whose Makefile plays kbuild with make's own mtime rules, every
# commit changing mm/vmstat.c only: each build after the first starts
# from the last one's folder and compiles that one file.  c0 ... c4, c3
# slow: two steps (c2, c3), each build out of order with the one before
# (c0, c4, c2, c3); a real build costs some 1.5 CPU-s (kernel-build.sh),
# so no more commits than that
R=$TMP/rtree
git init -q "$R"
fake_kernel_tree "$R"
for i in 0 1 2 3 4; do
	echo "int a$i;" >"$R/mm/vmstat.c"
	git -C "$R" add -A
	git -C "$R" -c user.name=t -c user.email=t@t commit -q -m "c$i"
done
rsnap() { git -C "$R" rev-parse HEAD; sha256sum <"$R/.git/index"; git -C "$R" status --porcelain; }
rsnap >"$TMP/rsnap0"
rm -f "$FAKE_LOG"
fake=$VSB_BISECT_FAKE
VSB_VM_CACHE=$TMP/vcache VSB_BISECT_FAKE= VSB_BISECT_FAKE_AB=$fake FAKE_TREE=$R FAKE_SLOW=c3 \
	"$VSB" bisect --tree "$R" --good HEAD~4 --bad HEAD "$TMP/k.sweep" -o "$TMP/o8" >"$TMP/out" 2>"$TMP/err"
rc=$?
if [ $rc -eq 4 ]; then
	skip "real builds with a fake kbuild, ab faked" "$(grep -m1 SKIP "$TMP/err")"
else
	R3=$(git -C "$R" log --format=%H --grep='^c3$' -1)
	nb=$(ls -d "$TMP"/vcache/kbuild/*/.vsb-complete 2>/dev/null | wc -l)
	inc=1
	for d in "$TMP"/vcache/kbuild/*/; do
		[ -f "$d/.vsb-complete" ] || continue
		[ "$(grep -c 'kernel/fork.c' "$d/compiled.log")" -eq 1 ] || inc=0
	done
	[ $rc -eq 0 ] && [ "$(tail -n1 "$TMP/out")" = "culprit: $R3 c3" ] && [ "$nb" -eq 4 ] && [ $inc -eq 1 ] &&
		[ -f "$TMP/o8/kernels/$(cut -c1-12 <<<"$R3")/kernel.env" ] &&
		ok "real builds: the culprit found, 4 commits built once each, kernel/fork.c compiled once in all" ||
		not_ok "real builds with a fake kbuild" "exit $rc, $nb builds, incremental $inc" "$(tail -n5 "$TMP/err")"
	rsnap >"$TMP/rsnap1"
	cmp -s "$TMP/rsnap0" "$TMP/rsnap1" && [ ! -e "$R/.config" ] &&
		ok "real builds: the user's tree untouched (HEAD, index, status)" ||
		not_ok "real builds: the user's tree untouched" "$(diff "$TMP/rsnap0" "$TMP/rsnap1")"
fi

# --- refusals: one line, exit 2, nothing built, no OUT ----------------------------------------
refused() {	# refused DESC PATTERN ARGS...
	local d=$1 pat=$2
	shift 2
	rm -f "$FAKE_LOG"
	rm -rf "$TMP/or"
	expect_usage_error "refused: $d" "$pat" "$VSB" bisect "$@" -o "$TMP/or"
	[ ! -e "$FAKE_LOG" ] && [ ! -e "$TMP/or" ] || not_ok "refused: $d: nothing built, no OUT" "$(cat "$FAKE_LOG" 2>/dev/null)"
}
mkdir -p "$TMP/plain" "$TMP/nk"
git init -q "$TMP/nk"
refused "not a git tree" 'not a git work tree' --tree "$TMP/plain" --good a --bad b "$TMP/k.sweep"
refused "a git tree that is no kernel tree" 'not a kernel tree' --tree "$TMP/nk" --good a --bad b "$TMP/k.sweep"
refused "an unknown good revision" '--good v9.9: no such commit' --tree "$G" --good v9.9 --bad "$C8" "$TMP/k.sweep"
refused "an unknown bad revision" '--bad nope: no such commit' --tree "$G" --good "$C0" --bad nope "$TMP/k.sweep"
refused "good not an ancestor of bad" 'is not an ancestor of --bad' --tree "$G" --good "$C8" --bad "$C0" "$TMP/k.sweep"
refused "good and bad the same" 'the same commit' --tree "$G" --good "$C4" --bad "$C4" "$TMP/k.sweep"
refused "a sweep with no kernel-side point" 'no kernel-side point' --tree "$G" --good "$C0" --bad "$C8" "$TMP/u.sweep"
refused "no --bad" 'needs --tree, --good, --bad' --tree "$G" --good "$C0" "$TMP/k.sweep"
refused "ab's --base" '--base: bisect gives ab its kernels' --tree "$G" --good "$C0" --bad "$C8" --base x "$TMP/k.sweep"
refused "--boots out of range" 'boots' --tree "$G" --good "$C0" --bad "$C8" --boots 0 "$TMP/k.sweep"
echo 9 >>"$G/mm/vmstat.c"
refused "a dirty tree" 'uncommitted changes' --tree "$G" --good "$C0" --bad "$C8" "$TMP/k.sweep"
git -C "$G" checkout -q -- mm/vmstat.c

# --- bisect-step under git bisect run, in a clone of the tree ------------------------------------
git clone -q "$G" "$TMP/work"
spec0=$(VSB_BISECT_FAKE= "$VSB_BISECT_FAKE" build "$G" "$C0" "$TMP/k0")
step() {	# step REV: bisect-step's exit status with HEAD at REV
	git -C "$TMP/work" checkout -q "$1"
	(cd "$TMP/work" && "$VSB" bisect-step --good "$spec0" "$TMP/k.sweep" -o "$TMP/st" >/dev/null 2>&1)
}
export FAKE_SLOW=c5 FAKE_NOBUILD=c2 FAKE_FLAKY=c7
codes=''
for c in c1 c2 c5 c7 c8; do step "$(fake_sha "$c")"; codes+="$c:$? "; done
[ "$codes" = "c1:0 c2:125 c5:1 c7:125 c8:1 " ] &&
	ok "bisect-step: 0 good, 1 bad, 125 for no build or undecided" || not_ok "bisect-step's exit codes" "$codes"
(cd "$TMP/work" && "$VSB" bisect-step "$TMP/k.sweep" -o "$TMP/st" >/dev/null 2>&1)
[ $? -eq 128 ] && ok "bisect-step: bad input is 128 (git bisect run stops)" || not_ok "bisect-step: bad input 128"
git -C "$TMP/work" checkout -q "$C8"
(cd "$TMP/work" && git bisect start "$C8" "$C0" >/dev/null 2>&1 &&
	git bisect run "$VSB" bisect-step --good "$spec0" "$TMP/k.sweep" -o "$TMP/st" >"$TMP/run.out" 2>&1)
grep -q "^$C5 is the first bad commit" "$TMP/run.out" &&
	ok "git bisect run with bisect-step names the slow commit" ||
	not_ok "git bisect run with bisect-step" "$(tail -n5 "$TMP/run.out")"
done_testing
