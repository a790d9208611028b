# SPDX-License-Identifier: GPL-2.0
#
# Sourced by ci/false-regression-rate --separate and ci/power-ab: measure
# two sweeps as separate runs, each run a process of its own, the way two
# kernels must be measured (nothing interleaved inside a run):
#
#   separate_pair SWEEP_A SWEEP_B DIR_A DIR_B RUNS ORDER PAIR LOG
#
# ORDER sides: `sweep SWEEP_A --runs RUNS -o DIR_A`, then SWEEP_B's (the
#       side going first alternates with PAIR): two boots, one per
#       kernel, each running the sweep RUNS times.
# ORDER abba: run k of each side alternating, A B B A A B ..., each
#       `sweep SWEEP -o DIR/run-k`: what `vmstat-bench ab` does with
#       boots, so that a host drifting over minutes weighs on both sides.
# ORDER defaults: `sweep SWEEP_A -o DIR_A`, then SWEEP_B's, every option
#       at its default (RUNS is not used): one sweep a side, whose
#       repetitions the sweep spreads over its worker processes itself
#       (issue 20's bar: what a user or a CI job does by default).
#       PROCS=W in the environment passes `--procs W` to those sweeps, to
#       measure another count of worker processes against the default.
# `compare DIR_A DIR_B` then judges runs as the unit either way.

separate_pair() {
	local sa=$1 sb=$2 da=$3 db=$4 runs=$5 order=$6 pair=$7 log=$8 k first second
	# defaults: one sweep a side, every option at its default; sides: one
	# `sweep --runs RUNS` a side.  The side that goes first alternates.
	if [ "$order" = defaults ] || [ "$order" = sides ]; then
		local opt=()
		[ "$order" = sides ] && opt=(--runs "$runs")
		[ "$order" = defaults ] && [ -n "${PROCS:-}" ] && opt=(--procs "$PROCS")
		first=a second=b
		[ $((pair % 2)) -eq 0 ] && first=b second=a
		for side in $first $second; do
			local sweep=$sa dest=$da
			[ $side = b ] && sweep=$sb dest=$db
			"$VSB" sweep "$sweep" "${opt[@]}" -o "$dest" >>"$log" 2>&1 || return 1
		done
		return 0
	fi
	mkdir -p "$da" "$db"
	for k in $(seq 1 "$runs"); do
		# ABBA: runs 1, 4, 5, 8, ... start with A (and pairs alternate)
		if [ $(( (k / 2 + pair) % 2 )) -eq 1 ]; then first=a second=b; else first=b second=a; fi
		for side in $first $second; do
			local sweep=$sa dest=$da
			[ $side = b ] && sweep=$sb dest=$db
			# --procs 1: run k is one process, as a boot is one run
			"$VSB" sweep "$sweep" --procs 1 --shuffle-seed "$k" -o "$dest/run-$k" \
				>>"$log" 2>&1 || return 1
		done
	done
}
