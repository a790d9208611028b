#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bisect --split 3 (harness/bisect/split.c): git's pick and both of its
# next candidates tested at once a round, without a kernel: the build
# and ab are tests/fixtures/bisect/fake.sh, on a git "kernel tree"
# c0 ... c8.  Checked: the culprit and exit of --split 1, at two culprit
# places; fewer rounds than steps; the abs of a round overlapped (the
# fake log's ab / ab-end lines, abs of a second); every commit both
# runs tested got the same verdict; SIGTERM mid-round, then the same
# command resumes to the same culprit without redoing a finished step,
# no process left; SIGKILL leaves no ab either; the refusals.
. "$(dirname "$0")/../lib.sh"

fake_bisect 8
C0=$(fake_sha c0) C8=$(fake_sha c8)

bisect() {	# bisect OUT [args...]: FAKE_* from the caller's environment
	local o=$1
	shift
	rm -f "$FAKE_LOG"
	"$VSB" bisect --tree "$G" --good "$C0" --bad "$C8" --ahead 0 --exact "$@" \
		"$TMP/k.sweep" -o "$o" >"$TMP/out" 2>"$TMP/err"
}
# "SUBJECT VERDICT" per step of bisect.txt (the endpoints' and the
# check's left out), sorted
verdicts() {
	awk '/^step [0-9]+ step / { s = $5 } /^  verdict: / && s { print s, $2; s = "" }' \
		"$1/bisect.txt" | tr -d , | sort
}
# the most abs of the log under way at once
overlap() {
	awk '/^ab / { n++; if (n > m) m = n } /^ab-end / { n-- } END { print m + 0 }' "$FAKE_LOG"
}
procs() { pgrep -f "$VSB_BISECT_FAKE" | wc -l; }

# --- the same culprit as a step at a time, in fewer rounds -----------------------------
for slow in c5 c1; do
	FAKE_SLOW=$slow bisect "$TMP/s1-$slow" --split 1
	rc1=$? out1=$(tail -n1 "$TMP/out")
	steps=$(grep -c '^step ' "$TMP/out")
	FAKE_SLOW=$slow FAKE_AB_SECS=1 bisect "$TMP/s3-$slow" --split 3
	rc3=$? out3=$(tail -n1 "$TMP/out")
	rounds=$(grep -o 'round [0-9]*:' "$TMP/err" | sort -u | wc -l)
	most=$(overlap)
	[ $rc1 -eq 0 ] && [ $rc3 -eq 0 ] && [ "$out3" = "$out1" ] &&
		[ "$out3" = "culprit: $(fake_sha $slow) $slow" ] &&
		ok "--split 3, $slow slow: the culprit and exit of --split 1" ||
		not_ok "--split 3 finds $slow" "exit $rc1 / $rc3" "$out1" "$out3" "$(tail -n5 "$TMP/err")"
	[ "$rounds" -ge 1 ] && [ "$rounds" -lt "$steps" ] &&
		ok "--split 3, $slow slow: $rounds round(s) where --split 1 took $steps step(s)" ||
		not_ok "fewer rounds than steps" "$rounds rounds, $steps steps" "$(cat "$TMP/err")"
	# two abs at once at least: 2 vCPUs hold two boots (one a side of each)
	if [ "$(nproc)" -ge 2 ]; then
		[ "$most" -ge 2 ] &&
			ok "--split 3, $slow slow: the abs of a round ran at once ($most together)" ||
			not_ok "the abs of a round overlapped" "most at once: $most" "$(cat "$FAKE_LOG")"
	else
		skip "the abs of a round overlapped" "one CPU here: a round's abs queue"
	fi
	j1=$(join <(verdicts "$TMP/s1-$slow") <(verdicts "$TMP/s3-$slow"))
	[ -n "$j1" ] && ! awk '$2 != $3 { bad = 1 } END { exit !bad }' <<<"$j1" &&
		ok "--split 3, $slow slow: every commit both runs tested got the same verdict" ||
		not_ok "the same verdicts" "$j1" "$(verdicts "$TMP/s1-$slow")" "$(verdicts "$TMP/s3-$slow")"
done
grep -q '^  round 1: booted at once' "$TMP/s3-c1/bisect.txt" &&
	[ "$(grep -c '^round ' "$TMP/s3-c1/bisect.state")" -ge 2 ] &&
	ok "bisect.txt and bisect.state say which steps ran in the same round" ||
	not_ok "rounds in bisect.txt" "$(cat "$TMP/s3-c1/bisect.txt")"
# each step as alone: its folder steps/NN-<sha12> with its ab's compare
nodir=0
while read -r _ _ _ _ _ dir; do
	[ -f "$TMP/s3-c1/$dir/compare/compare.csv" ] || nodir=1
done < <(grep '^step step ' "$TMP/s3-c1/bisect.state")
[ $nodir -eq 0 ] && ok "--split 3: each step in its own folder, as alone" ||
	not_ok "a step's folder" "$(cat "$TMP/s3-c1/bisect.state")"

# --- a commit that does not build: a skip, the round goes on ------------------------------
FAKE_SLOW=c5 FAKE_NOBUILD=c6 bisect "$TMP/n1" --split 1
rc1=$? out1=$(tail -n1 "$TMP/out")
FAKE_SLOW=c5 FAKE_NOBUILD=c6 bisect "$TMP/n3" --split 3
rc=$?
[ $rc -eq $rc1 ] && [ "$(tail -n1 "$TMP/out")" = "$out1" ] &&
	grep -q 'skip: does not build' "$TMP/out" &&
	ok "--split 3: a commit that does not build is skipped, the answer of --split 1 (exit $rc)" ||
	not_ok "a round with a commit that does not build" "exit $rc1 / $rc" "$out1" "$(cat "$TMP/out")"

# --- SIGTERM mid-round; the same command resumes ----------------------------------------
# round 1 is c4, c2 and c6; c4's ab sleeps 60 s, the others end at once
rm -f "$FAKE_LOG"
FAKE_SLOW=c5 FAKE_SLEEP=c4 "$VSB" bisect --tree "$G" --good "$C0" --bad "$C8" --ahead 0 \
	--exact --split 3 "$TMP/k.sweep" -o "$TMP/t" >"$TMP/out" 2>"$TMP/err" &
pid=$!
for _ in $(seq 200); do
	grep -q '^ab c0 c4' "$FAKE_LOG" 2>/dev/null &&
		[ "$(grep -c '^ab-end c0 c[0-7]' "$FAKE_LOG")" -ge 2 ] && break
	sleep 0.1
done
finished=$(sed -n 's/^ab-end c0 //p' "$FAKE_LOG" | grep -v c8 | tr '\n' ' ')
t0=$(date +%s)
kill -TERM $pid
wait $pid
rc=$?
took=$(($(date +%s) - t0))
for _ in $(seq 50); do [ "$(procs)" -eq 0 ] && break; sleep 0.1; done
[ -n "$finished" ] && [ $rc -eq 1 ] && [ $took -le 10 ] &&
	[ "$(grep -c interrupted "$TMP/err")" -eq 1 ] && [ "$(procs)" -eq 0 ] &&
	ok "SIGTERM mid-round: exit 1 at once (${took} s), one line, no ab left" ||
	not_ok "SIGTERM mid-round" "exit $rc in $took s, finished: $finished, $(procs) left" \
		"$(cat "$TMP/err")"
rm -f "$FAKE_LOG"
FAKE_SLOW=c5 "$VSB" bisect --tree "$G" --good "$C0" --bad "$C8" --ahead 0 --exact --split 3 \
	"$TMP/k.sweep" -o "$TMP/t" >"$TMP/out" 2>"$TMP/err"
rc=$?
again=0
for s in $finished; do grep -q "^ab c0 $s " "$FAKE_LOG" && again=1; done
[ $rc -eq 0 ] && [ "$(tail -n1 "$TMP/out")" = "culprit: $(fake_sha c5) c5" ] && [ $again -eq 0 ] &&
	grep -q '^ab c0 c4 ' "$FAKE_LOG" &&
	ok "after SIGTERM the same command finishes, the steps done before not redone" ||
	not_ok "resume after SIGTERM" "exit $rc, redone: $again ($finished)" "$(cat "$FAKE_LOG")" \
		"$(tail -n3 "$TMP/err")"

# --- SIGKILL mid-round: the workers and their abs die with bisect -------------------------
rm -f "$FAKE_LOG"
FAKE_SLOW=c5 FAKE_SLEEP=c4 "$VSB" bisect --tree "$G" --good "$C0" --bad "$C8" --ahead 0 \
	--exact --split 3 "$TMP/k.sweep" -o "$TMP/k" >"$TMP/out" 2>"$TMP/err" &
pid=$!
for _ in $(seq 200); do grep -q '^ab c0 c4' "$FAKE_LOG" 2>/dev/null && break; sleep 0.1; done
running=$(procs)
kill -KILL $pid
wait $pid 2>/dev/null
for _ in $(seq 100); do [ "$(procs)" -eq 0 ] && break; sleep 0.1; done
FAKE_SLOW=c5 "$VSB" bisect --tree "$G" --good "$C0" --bad "$C8" --ahead 0 --exact --split 3 \
	"$TMP/k.sweep" -o "$TMP/k" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$running" -ge 1 ] && [ "$(procs)" -eq 0 ] && [ $rc -eq 0 ] &&
	[ "$(tail -n1 "$TMP/out")" = "culprit: $(fake_sha c5) c5" ] &&
	ok "SIGKILL mid-round: no ab left, the same command finishes" ||
	not_ok "SIGKILL mid-round" "$running before, $(procs) after, exit $rc" "$(tail -n3 "$TMP/err")"

# --- refusals: one line, exit 2, nothing made -----------------------------------------
refused() {	# refused WHAT ARGS...: exit 2, one line on stderr, no OUT
	local what=$1
	shift
	rm -rf "$TMP/r"
	"$VSB" bisect --tree "$G" --good "$C0" --bad "$C8" "$@" "$TMP/k.sweep" -o "$TMP/r" \
		>"$TMP/out" 2>"$TMP/err"
	local rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && [ ! -e "$TMP/r" ] &&
		ok "refused: $what ($(cat "$TMP/err"))" ||
		not_ok "refused: $what" "exit $rc" "$(cat "$TMP/err")"
}
refused "--split 2" --split 2
refused "--split x" --split x
refused "--split without a value" --split
refused "--split= empty" --split=
refused "--split 3 --timed" --split 3 --timed
# ab's choice timed, learnt at the endpoints: refused before any step
rm -f "$FAKE_LOG"
FAKE_SLOW=c5 FAKE_MODE=timed "$VSB" bisect --tree "$G" --good "$C0" --bad "$C8" --split 3 \
	"$TMP/k.sweep" -o "$TMP/tm" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 2 ] && grep -q 'booted timed' "$TMP/err" && [ "$(grep -c '^ab ' "$FAKE_LOG")" -eq 1 ] &&
	ok "--split 3 where ab's choice is timed: refused after the endpoints, no step booted" ||
	not_ok "--split 3 with timed boots" "exit $rc" "$(cat "$TMP/err")"
done_testing
