# SPDX-License-Identifier: GPL-2.0
#
# Sourced by ci/regression and ci/false-regression-rate: measure two
# sweeps interleaved, one repetition at a time, each in a fresh process:
#
#   interleave SWEEP_A SWEEP_B DIR_A DIR_B ROUNDS LOG
#
# Round r runs `sweep SWEEP_A --repeat 1` then `sweep SWEEP_B --repeat 1`
# (the order alternating from round to round) and copies every point's raw
# CSV into DIR_A / DIR_B as r<r>-<point>.csv; `compare DIR_A DIR_B` then
# merges each point's rounds into one sample of ROUNDS values.
#
# REPEAT=R in the environment makes each round's process run R
# repetitions (`--repeat R --procs 1`): a round is still one run, its
# value the median of R.  A history made of such runs finds smaller steps
# (ci/history-rate); compare then tests the rounds' run medians.
#
# Why: on this VM the host decides where the two vCPUs run, and a
# contended 2-CPU point can be 2x slower for seconds at a time, and a
# little different in every process.  Two sweeps run one after the other
# can each sit in a different state, so within-sweep repetitions, however
# many, understate the noise and a rank test cries wolf
# (ci/false-regression-rate --separate measures how often).  Interleaved rounds expose both sides
# to the same states, and one sample per process makes the samples
# independent, as the Mann-Whitney test assumes.  A kernel A/B (two boots)
# cannot be interleaved like this; there, repeat whole sweeps instead.

interleave() {
	local sa=$1 sb=$2 da=$3 db=$4 rounds=$5 log=$6 r first second
	local tmp
	tmp=$(mktemp -d)
	mkdir -p "$da" "$db"
	for r in $(seq 1 "$rounds"); do
		if [ $((r % 2)) -eq 1 ]; then first=a second=b; else first=b second=a; fi
		for side in $first $second; do
			local sweep=$sa dest=$da
			[ $side = b ] && sweep=$sb dest=$db
			"$VSB" sweep "$sweep" --repeat "${REPEAT:-1}" --procs 1 --force \
				-o "$tmp/$side" >>"$log" 2>&1 || {
				rm -rf "$tmp"; return 1; }
			for f in "$tmp/$side"/*.csv; do
				case "$f" in
				*.summary.csv|*/sweep.csv) ;;
				*) cp "$f" "$dest/r$r-$(basename "$f")" ;;
				esac
			done
		done
	done
	rm -rf "$tmp"
}
