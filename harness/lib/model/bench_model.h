/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench_model.h - what the layers below benches/ know of a bench: the
 * words of its text header, the columns that name what a point of it
 * runs, and the charts its rows are drawn in.
 *
 * Each bench fills its own in its descriptor (benches.h, .model), in
 * its own file; benches.c hands this layer the way to find one by name
 * (vsb_bench_models_set), because lib/model, lib/charts and lib/judge
 * must not call upwards, and a result file names its bench only by
 * name.  So no file below benches/ names a bench, and a new bench is
 * still its file and one row.
 */
#ifndef VSB_BENCH_MODEL_H
#define VSB_BENCH_MODEL_H

#include <stdio.h>

struct vsb_run_opts;

/* which of a sweep's charts (lib/charts) a bench's rows are drawn in */
enum vsb_chart_family {
	VSB_CHARTS_NONE,	/* none of them */
	VSB_CHARTS_COUNTER,	/* threshold, variants, scaling, batch, drift, staleness */
	VSB_CHARTS_SYSCTL,	/* a line per value of a sysctl, vs core count (.sysctl_chart) */
	VSB_CHARTS_REFRESH,	/* refresh-sweep: a whole bring-up's time */
};

/* A bench's points against the values of a sysctl (VSB_CHARTS_SYSCTL). */
struct vsb_sysctl_chart {
	const char *chart;	/* plots/<chart>.gp draws OUTDIR/<chart>.png */
	const char *sysctl;	/* "vm.numa_stat=": the sysctl whose values are the lines */
	const char *column;	/* the sweep.csv column compared: "median", ... */
	const char *what;	/* its name on the chart's labels (gnuplot text) */
	const char *help;	/* what the chart shows, in `plot --help` */
};

struct vsb_bench_model {
	/*
	 * The point's parameters that matter for this bench, in words,
	 * after "BENCH/BACKEND on CPUs LIST: " of the text header
	 * (result_write.c); NULL: none.
	 */
	void (*describe)(const struct vsb_run_opts *o, FILE *f);
	/*
	 * What one repetition is, when it is one event and not --loops
	 * operations per worker ("bring-ups"); NULL: operations.
	 */
	const char *reps_are;
	/*
	 * The columns whose values, space-separated, name what a point
	 * runs in a label (compare's verdicts, exact mode's mix.csv):
	 * "variant" (the counter's), "bench op" (kstat's); NULL: "bench".
	 */
	const char *label;
	enum vsb_chart_family charts;
	const struct vsb_sysctl_chart *sysctl_chart;
};

/*
 * Where benches.c's table is: @find gives the model of the bench named
 * so (NULL: none), @first is the table's first bench (--bench's
 * default, and the bench of a result file that has no bench column).
 */
void vsb_bench_models_set(const struct vsb_bench_model *(*find)(const char *name),
			  const char *first);
/* @name's model; never NULL: an unknown bench's is blank (all NULL, no charts) */
const struct vsb_bench_model *vsb_bench_model(const char *name);
/* the table's first bench; "" before vsb_bench_models_set */
const char *vsb_bench_default(void);
/* @label of the bench's model, or "bench" */
const char *vsb_bench_label(const struct vsb_bench_model *m);

#endif /* VSB_BENCH_MODEL_H */
