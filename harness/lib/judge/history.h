/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The history of a point across runs, for `vmstat-bench history`: the
 * store's runs of one point split into one series per machine, ordered
 * by kernel version, harness revision or date, each entry's median with
 * a bootstrap 95% CI, the change points of the entries' medians and the
 * --check verdict on the newest entry.
 *
 * Data in, data out: the input is a struct vsb_series as the store
 * returns it (plain arrays, which unit tests build by hand), nothing
 * here prints or touches a database, and the same input gives the same
 * output on every machine (fixed bootstrap and permutation seeds).
 * The queries that find points and machines (history_query.c), the
 * HTML page (history_html.c) and the command's whole run from its
 * options (history_report.c) are declared here too.
 */
#ifndef VSB_HISTORY_H
#define VSB_HISTORY_H

#include <stddef.h>
#include <stdio.h>

#include "changepoint.h"
#include "store.h"

enum vsb_hist_by {
	VSB_HIST_BY_DATE,	/* the run's # date: */
	VSB_HIST_BY_KERNEL,	/* kernel release, version-aware; date within one */
	VSB_HIST_BY_REVISION,	/* revisions by their first run; date within one */
};
/* "kernel", "revision", "date" -> @by; -1 for anything else. */
int vsb_hist_by_parse(const char *s, enum vsb_hist_by *by);
const char *vsb_hist_by_name(enum vsb_hist_by by);

/*
 * Order two kernel releases: runs of digits compare as numbers, the rest
 * byte by byte, and "-rcN" comes before the release it leads to, so
 * 6.1.0-9 < 6.1.0-57 < 6.12.100+deb12 and 6.2-rc3 < 6.2 < 6.2.1.
 * <0, 0, >0 as strcmp.
 */
int vsb_kernel_vercmp(const char *a, const char *b);

#define VSB_HIST_MAX_CP 64	/* change points kept per series */
/*
 * What a change point must be to be drawn and listed (issue 20): found
 * at p <= VSB_HIST_CP_ALPHA (not the search's 5%: a series of one build
 * on one machine drew one in 5 of 18 series at 5%), and a step of at
 * least VSB_HIST_CP_MIN_REL either way (the --check gate's 2%: a smaller
 * step is within what one machine's runs drift by over an hour).
 */
#define VSB_HIST_CP_ALPHA	0.01
#define VSB_HIST_CP_MIN_REL	VSB_CP_THRESHOLD

struct vsb_hist_entry {
	const struct vsb_series_run *run;	/* borrowed from the store's series */
	double median, ci_lo, ci_hi;		/* of the run's repetitions */
	double seg_median;	/* median of the medians of its segment */
	size_t cp;		/* 1 + index into cp[] when a segment starts here */
};

struct vsb_hist_series {
	const char *point_key;		/* borrowed */
	char machine[24];		/* fingerprint */
	char cpu_model[128];
	char unit[16];
	size_t n;
	struct vsb_hist_entry *e;	/* in history order */
	size_t ncp;
	struct vsb_cp cp[VSB_HIST_MAX_CP];	/* VSB_HIST_CP_ALPHA, _MIN_REL */
	struct vsb_cp_verdict verdict;	/* the --check rule, VSB_CP_CHECK_ALPHA */
	/*
	 * compare's moved-CPUs rule (c2c.c) over the history: the median
	 * c2c_ns of the segments either side of each change point, and of
	 * the verdict's baseline and newest entries (NAN: unknown, as for a
	 * one-CPU point).  moved: a regression was found, but between
	 * entries whose CPUs were clearly nearer or farther apart, so it is
	 * not called (verdict.regression 0).
	 */
	double cp_c2c[VSB_HIST_MAX_CP][2];
	double c2c_base, c2c_new;
	int moved;
	/*
	 * One build (history.c's one_build()): every entry of the segments
	 * either side of change point k ran the same kernel and the same
	 * known revision, so nothing that was measured changed there and
	 * the step is the machine's or its load's.  Such a step is listed
	 * and drawn as a machine step, not a change point, and a newest
	 * entry slower than a baseline of the same build is not called a
	 * regression (one_build_newest).
	 */
	unsigned char cp_one_build[VSB_HIST_MAX_CP];
	int one_build_newest;
	/*
	 * --check in three words, as compare decides (history.c's
	 * judge_check()): "slower" (the regression above), "faster", "same"
	 * (the 95% CI of newest / baseline inside 1 +- VSB_CP_THRESHOLD),
	 * "inconclusive" (anything else, a series too
	 * short to have a baseline included); "moved" and "one-build" are
	 * not judged.  check_lo/hi: that CI, NAN where none.
	 */
	const char *check;
	double check_lo, check_hi;
};
/* 1 when change point @k of @hs came with moved CPUs */
int vsb_hist_cp_moved(const struct vsb_hist_series *hs, size_t k);
/* 1 when change point @k of @hs lies between runs of one build */
int vsb_hist_cp_one_build(const struct vsb_hist_series *hs, size_t k);
/* The change points of @hs that are not one build's: the code's */
size_t vsb_hist_ncode(const struct vsb_hist_series *hs);

/*
 * Two different units among the runs of one machine in @se into
 * @u1/@u2 and 1, or 0 when each machine's runs share one unit (history
 * refuses a mixed series; machines may differ: a PMU host counts
 * cycles, a VM TSC ticks, and each machine is a series of its own).
 */
int vsb_hist_mixed_units(const struct vsb_series *se, const char **u1, const char **u2);

/* Sort entries into history order (stable: equal keys keep their order). */
void vsb_hist_order(struct vsb_hist_entry *e, size_t n, enum vsb_hist_by by);

/*
 * Per-entry statistics, change points and the verdict of a series whose
 * entries are in order (e[i].run set, everything else computed).
 * Returns 0 or -EINVAL (a non-finite median).
 */
int vsb_hist_analyse(struct vsb_hist_series *hs);

/*
 * Split @se into one series per machine (in the order the machines
 * first appear), leave out runs without samples, order and analyse
 * each.  The result borrows from @se: free it first.  Returns 0,
 * -EINVAL for mixed units or a bad value, -ENOMEM.
 */
int vsb_hist_build(const struct vsb_series *se, enum vsb_hist_by by,
		   struct vsb_hist_series **out, size_t *nout);
void vsb_hist_free(struct vsb_hist_series *hs, size_t n);

/* ---- history_out.c, history_html.c: the files of -o DIR ---- */
struct vsb_hist_out {
	const struct vsb_hist_series *hs;
	const char *label;	/* the point, short */
	char dir[160];		/* its folder under DIR: history.csv and the chart */
	int has_chart;
};
/*
 * Each writer: @n series @os, ordered @by, from the store @url; 0, or -1
 * when writing failed.  The series CSV takes one series (@n 1).
 */
int vsb_hist_write_series_csv(FILE *f, const struct vsb_hist_out *os, size_t n,
			      enum vsb_hist_by by, const char *url);
int vsb_hist_write_summary_csv(FILE *f, const struct vsb_hist_out *os, size_t n,
			       enum vsb_hist_by by, const char *url);
int vsb_hist_write_summary_md(FILE *f, const struct vsb_hist_out *os, size_t n,
			      enum vsb_hist_by by, const char *url);
int vsb_hist_write_html(FILE *f, const struct vsb_hist_out *os, size_t n,
			enum vsb_hist_by by, const char *url);
/* Draw @os's trend chart from DIR/<dir>/history.csv: 0 or VSB_EXIT_*. */
int vsb_hist_chart(const char *outdir, const struct vsb_hist_out *os, enum vsb_hist_by by);
/* "newest entry: ..." the --check verdict in words */
void vsb_hist_verdict_line(const struct vsb_hist_series *hs, char *buf, size_t len);

/* ---- history_query.c, history_report.c: the command's work ---- */
#define VSB_HIST_MAX_WHERE 64

struct vsb_hist_opts {
	const char *url, *machine, *outdir;
	enum vsb_hist_by by;
	int check;
	size_t nwhere;
	char *wkey[VSB_HIST_MAX_WHERE], *wval[VSB_HIST_MAX_WHERE];
	char *wbuf[VSB_HIST_MAX_WHERE];	/* one copy per --where, the pairs point in */
	size_t nbuf;
};

/* A point --where selected: its series, its histories, its short name */
struct vsb_hist_point {
	const struct vsb_store_point *point;	/* in vsb_hist_set.pts */
	struct vsb_series *se;		/* owned; the histories borrow from it */
	struct vsb_hist_series *hs;	/* one per machine */
	size_t nhs;
	char *label;
};

/* All that was read: the store's points (owned) and those selected. */
struct vsb_hist_set {
	struct vsb_store_point *pts;
	size_t npts;
	struct vsb_hist_point *sel;
	size_t nsel, cap;
	char machine[24];
};

/* history_query.c: the store's points and series @o selects, into @h */
int vsb_hist_load(const struct vsb_hist_opts *o, struct vsb_hist_set *h);
void vsb_hist_set_free(struct vsb_hist_set *h);
/* Every (point, machine) series in one list, in point then machine order. */
struct vsb_hist_out *vsb_hist_flatten(const struct vsb_hist_set *h, size_t *n);
/* history_report.c: -o DIR, before the store is read */
int vsb_hist_check_outdir(const char *dir);
/* The whole of `history` after its options: 0 or VSB_EXIT_* */
int vsb_history(const struct vsb_hist_opts *o);

#endif /* VSB_HISTORY_H */
