# SPDX-License-Identifier: GPL-2.0
#
# seeds-chart.bash - seed 001's curve as a chart, sourced by ci/seeds
# after its rows (it uses their csv_where and est): folds per op against
# 1/threshold, from the module's counter variant (cmpxchg-local across
# configs/seeds-threshold.sweep's thresholds: the bench counts each fold,
# so the figure is a count even in a timed sweep) and from the kernel's
# own mod_zone_page_state (LOCK-prefixed instructions an op in the exact
# guest at thresholds 8 and 125), beside the fold rate a counter of +1
# updates must have, one fold every 1.5 x threshold + 1 updates.
# Written next to the table as charts/seeds-folds.{png,svg}; a source
# that was not measured is left out and the chart says so.

seeds_folds_chart() {	# seeds_folds_chart OUTBASE
	local out=$1 dat=$STATE/folds.dat k f n=0 title
	: >"$dat"
	for k in 32 125 4096 32765; do
		f=$(csv_where "$STATE/thr/sweep.csv" folds_per_op threshold="$k" 2>/dev/null) &&
			[[ -n $f ]] && printf 'counter %s %s\n' "$k" "$f" >>"$dat" && n=$((n + 1))
	done
	if ((!QUICK)) && step_done exact; then
		for k in 8 125; do
			f=$(est base "thr$k" lock 2>/dev/null) && [[ -n $f ]] &&
				printf 'kernel %s %s\n' "$k" "$f" >>"$dat" && n=$((n + 1))
		done
	fi
	((n)) || { log "the folds chart: no point measured, none drawn"; return 0; }
	local kern=''
	title="seed 001: folds per op against 1/threshold"
	if grep -q '^kernel' "$dat"; then
		kern=", \"< grep '^kernel' $dat\" using (1/\$2):3 with points pt 5 ps 1.5 lc rgb \"#d62728\" title \"kernel mod_zone_page_state: LOCK insn per op (exact guest)\""
	else
		title+=" (no guest: the kernel's points left out)"
	fi
	mkdir -p "$(dirname "$out")"
	LC_ALL=C gnuplot <<EOF_GP || { log "the folds chart: gnuplot failed"; return 1; }
set datafile separator whitespace
set logscale xy
set xlabel "1 / threshold"
set ylabel "folds per op"
set key bottom right
set format x "%.0e"
set format y "%.0e"
set grid
set title "$title"
set xrange [1e-5:0.2]
ideal(x) = 1 / (1.5 / x + 1)
set terminal pngcairo size 900,560 noenhanced
set output "$out.png"
plot ideal(x) with lines lc rgb "#888888" dt 2 title "one fold every 1.5 x threshold + 1 updates of +1", \
     "< grep '^counter' $dat" using (1/\$2):3 with linespoints pt 7 lc rgb "#1f77b4" title "counter bench, cmpxchg-local, 2 CPUs (folds counted)"$kern
set terminal svg size 900,560 noenhanced
set output "$out.svg"
replot
EOF_GP
	log "the folds chart: $out.png and .svg ($n points)"
}
