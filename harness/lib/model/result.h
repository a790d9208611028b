/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A benchmark point's results: its parameters, every raw sample, the
 * environment it ran in, and its sanity verdict.  Aggregates are computed
 * from the raw samples when written, never stored instead of them.
 */
#ifndef VSB_RESULT_H
#define VSB_RESULT_H

#include "disturb.h"
#include "opts.h"
#include "pmu_names.h"
#include "stats.h"

struct vsb_sample {
	unsigned int thread;	/* worker index */
	int cpu;		/* CPU the worker was pinned to */
	unsigned int rep;	/* repetition, 0-based */
	uint64_t ops;		/* operations in the sample */
	uint64_t elapsed;	/* in the result's unit */
	double ns;		/* wall time of the sample */
	uint64_t folds;		/* folds into the shared counter */
	/* PMU group deltas over the batch, scaled when multiplexed */
	uint64_t pmu[VSB_PMU_SLOTS];	/* in the order of vsb_result.pmu_event */
	double pmu_scale;	/* time_running / time_enabled, 1 = never multiplexed */
	int multiplexed;	/* pmu_scale < 1: values are extrapolated */
	/* appended: what else ran on the CPU during the batch (disturb.h) */
	uint64_t nivcsw;	/* involuntary context switches of the worker */
	uint64_t migrations;	/* CPU changes seen (before/after the batch) */
	uint64_t run_delay_ns;	/* runnable but not running */
	uint64_t steal_ns;	/* steal time of its CPU */
	uint64_t irqs;		/* interrupts on its CPU */
	unsigned int dist_valid;	/* VSB_DIST_* measured */
	unsigned int disturbed;	/* VSB_DIST_* past their bound */
};

struct vsb_trace_snap;

struct vsb_meta_kv {
	char key[64];
	char val[1024];
};

/*
 * Metadata lines made apart from any result, as the environment record
 * is (machine/meta.c), and handed to one whole (vsb_result_take_meta):
 * a plain array, filled once, so the maker and the result do not call
 * each other line by line.  Room for every line the record has, with
 * some to spare; a line past it is dropped with a warning.
 */
#define VSB_META_REC_MAX	96
/*
 * The key of the metadata line that says which vmstat-bench wrote a
 * result (meta.c): a file that has it is a run's own, not a table made
 * elsewhere (vsb_rl_written_by_a_run, result_load.h).
 */
#define VSB_META_WRITER		"vmstat-bench"
struct vsb_meta_rec {
	size_t n;
	struct vsb_meta_kv kv[VSB_META_REC_MAX];
};

struct vsb_result {
	struct vsb_run_opts opts;	/* backend resolved, format chosen */
	char unit[16];			/* tsc | cycles | ns */
	char event[VSB_PMU_FSTR_LEN];	/* full event name (libpfm's, whole), or the clock */
	char plm[8];			/* privilege levels counted, "" for clocks */
	int nthreads;
	size_t nsamples, cap;
	struct vsb_sample *samples;
	size_t nmeta, metacap;
	struct vsb_meta_kv *meta;
	int sanity_ok;			/* 1 ok, 0 failed */
	char sanity[512];		/* what was checked, or what failed */
	int migrated;			/* a worker ran on a CPU it was not pinned to */
	int have_drift;			/* --drift: the reader's figures below */
	size_t drift_samples;
	double drift_max, drift_p99, drift_mean;	/* |sum of per-CPU diffs| */
	double stale_max_us, stale_p99_us, stale_mean_us;
	struct vsb_trace_snap *trace;	/* --trace: the window's counts, owned */
	int trace_timed;		/* the window is the timed samples only */
	long long applied;		/* total delta the workers applied */
	long long counted;		/* what the counters hold afterwards */
	/* PMU events counted per sample (pmu.c); npmu 0 when none */
	int npmu;
	char pmu_event[VSB_PMU_SLOTS][VSB_PMU_FSTR_LEN];	/* libpfm full names */
	int pmu_cycles, pmu_instr;	/* index into pmu_event, -1 if not counted */
	int mux_samples;		/* samples whose counters were multiplexed */
	int multiplexed;		/* mux_samples and no --allow-multiplex: exit 3 */
	struct vsb_disturb_counts dist;	/* --disturbed accounting */
};

/* One aggregate row: thread -1 is "all workers together". */
struct vsb_agg_row {
	int thread;
	int cpu;
	struct vsb_stats cost;		/* unit per op */
	struct vsb_stats ns_per_op;
	struct vsb_stats ops_per_sec;	/* summed across workers for "all" */
	double folds_per_op;
	/* medians per op of each PMU event; NaN where not counted */
	double pmu_per_op[VSB_PMU_SLOTS];
	double cycles_per_op, instr_per_op, ipc;
	int mux_samples;
};

void vsb_result_init(struct vsb_result *r, const struct vsb_run_opts *o);
void vsb_result_free(struct vsb_result *r);
void vsb_result_add(struct vsb_result *r, const struct vsb_sample *s);
/* After a timed batch: who and where; 1 when the worker is not on @cpu now. */
int vsb_sample_place(struct vsb_sample *s, unsigned int thread, int cpu, unsigned int rep);
void vsb_result_meta(struct vsb_result *r, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* @r's value of @key, or NULL */
const char *vsb_result_meta_of(const struct vsb_result *r, const char *key);
/* A line of @m: its key's line replaced, else added at the end. */
void vsb_meta_rec_add(struct vsb_meta_rec *m, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* @m's lines into @r in @m's order, each replacing @r's line of its key. */
void vsb_result_take_meta(struct vsb_result *r, const struct vsb_meta_rec *m);
/*
 * A metadata value of labelled lists, one figure a repetition:
 * "interruptions 3;0;1; worst us 12.5;0.0;4.0" (isolated_windows), so
 * that a bench can list its repetitions' figures and a sweep's rounds
 * can be joined.  vsb_meta_list_put() appends "@label v;v;..." to @buf
 * (after "; " when it holds a list already), each figure with @prec
 * decimals, NAN as "-": 0, or -1 and @buf as it was when it would not
 * fit.  vsb_meta_list_get() reads @label's figures back into @v ("-"
 * as NAN): how many, or -1 when @label has no list there, a figure does
 * not read or there are more than @max.
 */
int vsb_meta_list_put(char *buf, size_t len, const char *label, const double *v,
		      size_t n, int prec);
long vsb_meta_list_get(const char *val, const char *label, double *v, size_t max);
void vsb_result_merge_round(struct vsb_result *dst, const struct vsb_result *src,
			    unsigned int rep);
void vsb_result_note_workers(struct vsb_result *r, int affinity_bad,
			     int allow_multiplex);
/* result_agg.c: a row per worker and one for all, in a fresh array */
size_t vsb_result_aggregate(const struct vsb_result *r, struct vsb_agg_row **rows);
/* result_write.c; @format: "csv" (the raw samples), "json" or else text */
int vsb_result_write(const struct vsb_result *r, FILE *f, const char *format);
/* the raw CSV; with the summary CSV, the pair a sweep writes per point */
int vsb_result_write_csv(const struct vsb_result *r, FILE *f);
int vsb_result_write_summary_csv(const struct vsb_result *r, FILE *f);
/* result_read.c: a raw CSV's samples back into @r; NULL, or what is wrong */
struct vsb_csv;
const char *vsb_result_read_samples(const struct vsb_csv *c, struct vsb_result *r,
				    long rounds);

#endif /* VSB_RESULT_H */
