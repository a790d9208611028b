#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The suite must never lose an update it claims to count: for every
# user-space variant, at 1 and 2 workers, every diff width and several
# thresholds, the counters afterwards must hold exactly the total delta
# applied.  The expected total is computed here from the options, not
# taken from the binary.
. "$(dirname "$0")/../lib.sh"

ncpu=$(nproc)
cpus2=0-1
[ "$ncpu" -lt 2 ] && cpus2=""

loops=20000 repeat=2 warmup=1
variants=(plain-fold cmpxchg-local cmpxchg-locked atomic-global percpu-counter this-cpu-add)

for v in "${variants[@]}"; do
	for cpus in 0 $cpus2; do
		n=$(( ${#cpus} > 1 ? 2 : 1 ))
		for bits in 8 16 32; do
			for t in 0 7 125; do
				for delta in 1 -3; do
					# percpu-counter has no width or threshold: vary the batch instead
					extra=(--threshold "$t" --diff-bits "$bits")
					[ "$v" = percpu-counter ] && extra=(--batch $((t + 1)))
					[ "$v" = percpu-counter ] && [ "$bits" != 8 ] && continue
					[ "$v" = atomic-global ] && [ "$t" != 0 ] && continue
					[ "$v" = this-cpu-add ] && [ "$t" != 0 ] && continue
					out="$TMP/r.json"
					if ! "$VSB" run --variant "$v" --cpus "$cpus" --items 3 \
						--delta "$delta" --loops $loops --repeat $repeat \
						--warmup $warmup "${extra[@]}" -o "$out" >/dev/null 2>"$TMP/err"; then
						not_ok "$v cpus=$cpus bits=$bits t=$t delta=$delta runs" "$(cat "$TMP/err")"
						continue
					fi
					# a retried sample (--disturbed retry, the default) was
					# timed again: its updates count too
					read -r retried applied counted sane < <(jq -r '.meta |
						[.disturbed_stats.retried, .applied_total, .counted_total, .sanity_ok] | map(tostring) |
						@tsv' "$out")
					want=$(( (n * (warmup + repeat) + retried) * loops * delta ))
					if [ "$v" = this-cpu-add ]; then
						# never folds: the diffs wrap, so they hold the total modulo 2^bits
						[ "$sane" = true ] && [ "$applied" = "$want" ] &&
							[ $(( (counted - want) % (1 << bits) )) -eq 0 ] &&
							ok "$v cpus=$cpus bits=$bits delta=$delta: diffs = applied mod 2^$bits" ||
							not_ok "$v cpus=$cpus bits=$bits delta=$delta" "sanity $sane applied $applied counted $counted want $want"
						continue
					fi
					if [ "$sane" = true ] && [ "$applied" = "$want" ] && [ "$counted" = "$want" ]; then
						ok "$v cpus=$cpus bits=$bits t=$t delta=$delta: counted $counted = applied"
					else
						not_ok "$v cpus=$cpus bits=$bits t=$t delta=$delta" \
							"applied $applied counted $counted want $want sanity $sane"
					fi
				done
			done
		done
	done
done
[ -z "$cpus2" ] && skip "2-worker balance" "this machine has 1 CPU"
done_testing
