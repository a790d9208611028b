/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Comparing two results point by point, as data: load each side (raw
 * sample CSVs, or folders of them), match points by their parameter
 * columns, judge each matched pair (ratio of medians with a bootstrap
 * CI, Mann-Whitney p, noise floor, verdict; compare_judge.c, which
 * treats runs as the unit where a side has several).  Nothing here prints but
 * the vsb_err line of an error; `compare` (harness/cmd/cmd_compare.c) turns
 * the verdicts into its table, compare.csv, summary.md and chart.
 */
#ifndef VSB_COMPARE_H
#define VSB_COMPARE_H

#include <stddef.h>

#include "compare_csv.h"
#include "insn_mix.h"

#define VSB_CMP_MAX_COLS	64	/* --ignore keeps one bit per column */
#define VSB_CMP_KEY_MAX		1024	/* a point's match values, '|'-joined */
#define VSB_CMP_MIN_REPS	5	/* per side, for the rank test to say much */
/*
 * With several runs a side, the noise floor is at least this many times
 * the between-run CV (docs/sweeps.md "Several runs per side" says why 2).
 */
#define VSB_CMP_BETWEEN_K	2

/* One point of one side: its parameters and per-repetition costs. */
struct vsb_cmp_point {
	char key[VSB_CMP_KEY_MAX];	/* match values joined by '|' */
	char vals[VSB_CMP_MAX_COLS][128];	/* by vsb_compare.cols */
	char unit[16];
	size_t n, cap;
	double *v;		/* per repetition: the mean over workers */
	unsigned int *run;	/* per repetition: its run (vsb_cmp_side.runs) */
	size_t nc2c, c2ccap;
	double *c2c;		/* per file: c2c_ns of its CPUs (multi-CPU points) */
	int multi_cpu;		/* a file of it has a c2c_ns line: 2+ CPUs */
	size_t nfiles;		/* files the point is in */
	size_t nsplit;		/* of them, sweeps split into worker-process runs */
	size_t ndist;		/* repetitions left out: disturbed (drop_disturbed) */
	/*
	 * For the store's noise model (compare_store.c): the first file's
	 * point as the store keys it, its machine's fingerprint, and what
	 * the store's earlier runs of it on that machine say.
	 */
	char *skey;
	char machine[24];
	double store_cv;	/* between-run CV of the stored runs; NAN: none */
	size_t store_runs;	/* how many stored runs it is from */
	/* unit insn: each file's instruction mix of the point (insn_mix.h) */
	size_t nmix, mixcap;
	struct vsb_mix *mix;
};

struct vsb_cmp_side {
	const char *path;	/* as given, for messages and metadata */
	size_t n;
	struct vsb_cmp_point *pts;
	char cpu_model[256], kernel[256];	/* the first file's */
	char kernel_config[512];		/* its `# kernel_config:` */
	/*
	 * Runs: a file's `# run_id:` line, else the file's path (one file,
	 * one run).  Files sharing a run id are one run.
	 */
	size_t nruns;
	char **runs;
	unsigned int cur;	/* the run of the file being loaded */
};

/* One row of the comparison: a matched pair, or a point of one side. */
struct vsb_cmp_verdict {
	struct vsb_cmp_point *b, *n;	/* NULL: not on that side */
	char label[512];
	double mb, mn, ratio, lo, hi, p, noise;	/* NAN where not judged */
	/*
	 * p_adj: the p the verdict was called on: the adjusted p where
	 * several points were tested together (compare_family.c), else p.
	 */
	double p_adj;
	double between;		/* between-run CV; NAN: unknown (one run a side) */
	size_t rb, rn;		/* runs on each side */
	int by_runs;		/* 1: tested per-run medians; 0: repetitions pooled */
	int exact;
	/*
	 * mde: the minimum detectable effect, |NEW/BASE - 1| this pair's own
	 * spread and counts would call at alpha (compare_verdict.c);
	 * INFINITY where the test cannot reach alpha at all; NAN: not judged.
	 */
	double mde;
	/* the MDE's parts, so that it can be had at another alpha: the
	 * rank test's smallest p at these counts, and the spread term */
	double mde_min_p, mde_se;
	const char *verdict;	/* a word of compare_csv.h's table: slower,
				 * faster, same (the CI inside
				 * +-max_regression_pct), inconclusive (neither),
				 * only-base, only-new,
				 * moved (the CPUs' distance changed: not judged),
				 * few-runs (runs_only, too few runs: not judged),
				 * one-sweep (a multi-CPU point's runs all worker
				 * processes of one sweep on a side: not judged) */
	int regression;
	int one_sweep;		/* that rule holds (compare_judge.c) */
	double c2c_b, c2c_n;	/* medians of the sides' c2c_ns; NAN: unknown */
	/*
	 * The noise model the verdict used (VSB_CMP_MODEL_AUTO decides per
	 * point): "runs" (the rank test on per-run medians, the floor from
	 * the between-run CV), "runs+store" (the same where a side's runs
	 * are one sweep's worker processes, the floor raised to what the
	 * store's earlier sweeps of the point differ by), "store" (the
	 * repetitions' rank test, the floor from the store's between-run CV
	 * of this point on this machine), "reps" (repetitions trusted: the
	 * library's plain judgement, --noise-model reps), "none" (not
	 * judged).
	 */
	const char *model;
	double model_cv;	/* the between-run CV behind the floor; NAN: none */
	size_t model_n;		/* runs that CV is from */
	/*
	 * What decided: "rank" (the three-way rule), "mix" (unit insn, the
	 * mix alone: every class moved one way, or none did), "costs" (unit
	 * insn, every cost model agreed), "none" (not judged, or changed:
	 * the models disagree or cannot price what moved); compare.csv's
	 * `rule`.  mixv: unit insn, base's mix against new's.
	 */
	const char *rule;
	struct vsb_mix_verdict mixv;
};

/*
 * How a verdict's noise is known.  REPS (0, what a zeroed opts gives):
 * the repetitions are trusted where runs are too few, as compare always
 * did.  AUTO (compare's default): a point is judged only where its
 * between-run noise is measured: runs enough a side (worker processes
 * count: `sweep` spreads its repetitions over VSB_SWEEP_PROCS of them),
 * else the store's earlier runs of it on the machine; else it is shown,
 * not judged (`no-model`, or `few-runs` with 2+ runs a side).
 */
enum vsb_cmp_model {
	VSB_CMP_MODEL_REPS = 0,
	VSB_CMP_MODEL_AUTO,
};

/* The fewest stored runs of a point the store's noise model is taken from. */
#define VSB_CMP_STORE_MIN_RUNS	6
/* ... and the newest this many, at most. */
#define VSB_CMP_STORE_MAX_RUNS	50

struct vsb_cmp_opts {
	double alpha;		/* Mann-Whitney significance level */
	double noise_pct;	/* smallest change that counts, in % */
	double max_regression_pct;
	int runs_only;		/* judge per-run medians only: a pair with runs
				 * too few for that gets `few-runs`, never a
				 * verdict from pooled repetitions; runs are
				 * whole files (boots): worker processes inside
				 * one are not counted */
	enum vsb_cmp_model model;
	int drop_disturbed;	/* leave out repetitions another task disturbed
				 * (the `disturbed` column names a reason) */
	int per_point;		/* alpha per point (--per-point-alpha); 0:
				 * alpha over all the points tested,
				 * Benjamini-Hochberg */
};

struct vsb_compare {
	size_t ncols;
	const char *cols[VSB_CMP_MAX_COLS];	/* the columns points match by */
	unsigned long long ignored;	/* bit k: cols[k] left out of the key */
	struct vsb_cmp_side base, new;
	size_t nv;
	struct vsb_cmp_verdict *vs;	/* base's points in order, then new's rest */
	/* filled by vsb_cmp_judge() */
	size_t nreg;		/* regressions beyond max_regression_pct */
	size_t family;		/* points alpha was shared over (compare_family.c);
				 * 0: alpha per point */
	size_t unmatched;	/* points on one side only */
	size_t fewest;		/* fewest repetitions of a pooled side; (size_t)-1 */
	size_t one_run;		/* judged pairs with one run on each side */
	size_t few_runs;	/* pairs with runs too few for a run-level test */
	size_t fewest_runs;	/* fewest runs of a side among those; (size_t)-1 */
	size_t moved;		/* pairs not judged: the CPUs' distance changed */
	/* filled by vsb_cmp_judge(): how many pairs each model judged */
	size_t by_runs, by_store, by_reps;
	size_t runs_store;	/* of by_runs, floored by the store (runs+store) */
	size_t no_model;	/* AUTO: not judged, one run a side, no store */
	size_t all_disturbed;	/* not judged: a side's every repetition disturbed */
	size_t ndisturbed;	/* repetitions left out, both sides */
	size_t runs_split;	/* files whose repetitions name worker processes */
	/* filled by vsb_cmp_judge(): the judged pairs by verdict */
	size_t nslow, nfast, nsame, ninconc;
	size_t nchanged;	/* unit insn: changed, which way no model vouches */
	size_t by_exact;	/* of them, judged by the exact rule (unit insn) */
	double mde_lo, mde_hi;	/* over the inconclusive ones; NAN: none */
	double shift;		/* median NEW/BASE of the judged pairs; NAN: none */
	size_t nshift;		/* the judged pairs it is over */
	/* set before loading (vsb_compare_report does, from its options) */
	const char *store_url;	/* the store the noise model reads; NULL: none */
	int runs_only;		/* worker processes are not split into runs */
	int drop_disturbed;	/* disturbed repetitions are left out */
};

/* The match columns; vsb_cmp_free() after any use. */
void vsb_cmp_init(struct vsb_compare *c);
void vsb_cmp_free(struct vsb_compare *c);
/* Index of a match column, -1 when @name is not one. */
int vsb_cmp_col(const struct vsb_compare *c, const char *name);

/*
 * compare_walk.c: add @path to side @s: a raw-sample CSV; a sweep
 * folder (the points its points.txt lists as done); or any other folder
 * (every raw CSV in it, by name; links inside are skipped, as the
 * store's walk skips them).
 * Every file goes through the store's loader (result_load.h).
 * Repetitions of one point in several files add up.  0 or
 * VSB_EXIT_USAGE after one vsb_err line.
 */
int vsb_cmp_load(struct vsb_compare *c, struct vsb_cmp_side *s,
		 const char *path);
/* compare.c: one raw-sample CSV into @s, as vsb_cmp_load() takes it */
int vsb_cmp_load_file(struct vsb_compare *c, struct vsb_cmp_side *s,
		      const char *path);

/*
 * compare_store.c: for every matched pair, the between-run CV of the
 * stored runs of BASE's point on BASE's machine (the compared runs
 * themselves left out): 1.4826 x the median of |run median / median - 1|
 * over the newest VSB_CMP_STORE_MAX_RUNS, known where there are at least
 * VSB_CMP_STORE_MIN_RUNS.  @url as `--db` takes it (NULL: the default
 * store).  0, or the store's error (one line said).
 */
int vsb_cmp_store_noise(struct vsb_compare *c, const char *url);

/*
 * Pair base's points with new's by key and label them.  Refuses
 * (VSB_EXIT_USAGE) a pair measured in different units.
 */
int vsb_cmp_match(struct vsb_compare *c);

/*
 * Judge every matched pair; one-side points get only-base / only-new.
 * Where both sides have runs enough for the exact rank test on per-run
 * medians to reach alpha (5 and 5 at 0.01), that is the test, the
 * medians are medians of run medians and the CI resamples runs, then
 * repetitions; else the repetitions are pooled, and the noise floor
 * still takes in the between-run spread where either side has 2 runs.
 */
void vsb_cmp_judge(struct vsb_compare *c, const struct vsb_cmp_opts *o);

/* The point of a verdict row whose parameters describe it (base's first). */
static inline const struct vsb_cmp_point *
vsb_cmp_any(const struct vsb_cmp_verdict *v)
{
	return v->b ? v->b : v->n;
}

/*
 * @v's verdict is the word @w: verdicts are compare.csv's words, set
 * from its codec's table (vsb_compare_word) and told apart through it.
 */
static inline int vsb_cmp_is(const struct vsb_cmp_verdict *v,
			     enum vsb_compare_word w)
{
	return v->verdict && vsb_compare_word_of(v->verdict) == w;
}

/*
 * compare_report.c: BASE against NEW from the files to the outputs, as
 * `vmstat-bench compare` does it (@c initialised, --ignore applied):
 * the -o DIR refusals first, then loading, matching, judging, the
 * warnings on stderr, the table on stdout and, with @outdir, its files.
 * 0, VSB_EXIT_ERROR when a point regressed, VSB_EXIT_INCONCLUSIVE when
 * none did but one is inconclusive, VSB_EXIT_SKIP when no point matched,
 * or the error's code.  @c is the caller's to free.
 */
int vsb_compare_report(struct vsb_compare *c, const struct vsb_cmp_opts *o,
		       const char *base, const char *new, const char *outdir);

/*
 * The same with the store's noise model: @db as `--db` takes it
 * (`default`: $VSB_DB, else results/vmstat-bench.db), NULL for none.
 */
int vsb_compare_report_db(struct vsb_compare *c, const struct vsb_cmp_opts *o,
			  const char *base, const char *new, const char *outdir,
			  const char *db);

/*
 * The same over several paths a side, their repetitions added up (ab: the
 * boots a look reaches, not every boot folder there), the sides named
 * @bname and @nname in the outputs; no store.
 */
int vsb_compare_report_paths(struct vsb_compare *c, const struct vsb_cmp_opts *o,
			     const char *bname, const char *const *base, size_t nb,
			     const char *nname, const char *const *new, size_t nn,
			     const char *outdir);

/*
 * c->shift, the median NEW/BASE over the judged points (compare_shift.c;
 * NAN when none was), and c->nshift, how many; vsb_cmp_judge() sets them.
 * Shown (a note, a line of summary.md) when over at least
 * VSB_CMP_SHIFT_MIN_POINTS points and beyond --noise: they moved together.
 */
#define VSB_CMP_SHIFT_MIN_POINTS	4
void vsb_cmp_common_shift(struct vsb_compare *c);
int vsb_cmp_shift_shown(const struct vsb_compare *c, const struct vsb_cmp_opts *o);

/*
 * compare_verdict.c: the three-way rule.  slower / faster: p < alpha and
 * a change beyond the noise floor; same: the 95% CI of NEW/BASE inside
 * 1 +- max_regression_pct and the floor no wider than that; else
 * inconclusive.  Rows in VSB_CMP_EXACT_UNIT (instruction counts, which
 * repeat to ~0.03%) are judged by vsb_cmp_judge_exact() instead
 * (compare_exact.c): through the cost model, slower, faster, same or
 * changed.
 */
#define VSB_CMP_EXACT_UNIT	"insn"
#define VSB_CMP_EXACT_REL	0.001	/* 0.1% of BASE's median ... */
#define VSB_CMP_EXACT_ABS	0.05	/* ... or 0.05 instruction per op */
#define VSB_CMP_MDE_POWER_Z	0.8416	/* z of 80% power, the usual MDE */
double vsb_cmp_z(double alpha);		/* Phi^-1(1 - alpha / 2) */
int vsb_cmp_exact_unit(const char *unit);
void vsb_cmp_judge_exact(struct vsb_cmp_verdict *v, const struct vsb_cmp_opts *o);
const char *vsb_cmp_three_way(const struct vsb_cmp_verdict *v,
			      const struct vsb_cmp_opts *o);
/* @v's MDE at alpha from the values the test saw: @b[0..nb), @n[0..nn) */
double vsb_cmp_mde(struct vsb_cmp_verdict *v, const struct vsb_cmp_opts *o,
		   const double *b, size_t nb, const double *n, size_t nn);
/* @v's MDE at @alpha, from the parts vsb_cmp_mde() kept */
double vsb_cmp_mde_at(const struct vsb_cmp_verdict *v, double alpha);
/* an inconclusive @v's MDE raised to the change it saw and its CI's half-width */
void vsb_cmp_mde_bound(struct vsb_cmp_verdict *v);
/* verdict, MDE bound, rule and regression of a pair the rank test judged */
void vsb_cmp_decide(struct vsb_cmp_verdict *v, const struct vsb_cmp_opts *o);
/*
 * compare_family.c: the points the rank test judged, tested together.
 * vsb_cmp_family_size() counts them; vsb_cmp_share_alpha() sets each
 * one's p_adj by Benjamini-Hochberg's step-up rule and decides it again,
 * so that an A/A of many points calls a change with probability alpha
 * at most.
 */
size_t vsb_cmp_family_size(const struct vsb_compare *c);
void vsb_cmp_share_alpha(struct vsb_compare *c, const struct vsb_cmp_opts *o);
/* "0.01", or "0.01 shared over N points (Benjamini-Hochberg ...)", for reports */
void vsb_cmp_alpha_words(const struct vsb_compare *c, const struct vsb_cmp_opts *o,
			 char *buf, size_t len);
/*
 * The headline: the counts of slower / faster / same / inconclusive,
 * "no regression" only where every judged pair is the same, and the MDE
 * of the inconclusive ones.
 */
void vsb_cmp_headline(const struct vsb_compare *c, const struct vsb_cmp_opts *o,
		      char *buf, size_t len);
/* The exit status: 1 a regression, VSB_EXIT_INCONCLUSIVE, else 0. */
int vsb_cmp_status(const struct vsb_compare *c);

/*
 * ab's looks: alpha for the look at @n boots a side of a run that starts
 * at @first and may add boots up to @max (compare_verdict.c says the
 * rule).  The alphas of all the looks sum to @alpha.
 */
double vsb_cmp_look_alpha(double alpha, long first, long max, long n);

#endif /* VSB_COMPARE_H */
