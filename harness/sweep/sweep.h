/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sweep files and their points.
 *
 * A sweep file sets run options, one per line (`threshold 32,64,125`);
 * a list makes an axis and the points are the cartesian product of the
 * axes.  `[label]` lines start blocks: each block is its own product of
 * the lines above the first block and its own lines (which override
 * them), and the sweep is the union of the blocks.  docs/sweeps.md is
 * the user's description; this header is the program's.
 */
#ifndef VSB_SWEEP_H
#define VSB_SWEEP_H

#include "opts.h"
#include "result.h"

#define VSB_SWEEP_LINE_MAX	4096	/* characters per line, newline excluded */
#define VSB_SWEEP_MAX_POINTS	100000
#define VSB_SWEEP_MAX_RANGE	1024	/* values one A-B range may expand to */
/* DIR/<id> + this: an unfinished point's repetitions so far (--resume) */
#define VSB_SWEEP_PARTIAL_SUFFIX ".csv.partial"

struct vsb_sweep_axis {
	int opt;		/* row of vsb_run_opt_table */
	int line;
	size_t nvals;
	char **vals;
};

struct vsb_sweep_block {
	char label[64];		/* "" for a file without blocks */
	int line;
	size_t naxes;
	struct vsb_sweep_axis *axes;
};

enum vsb_point_state {
	VSB_PT_PENDING,
	VSB_PT_DONE,		/* written (this run or before --resume) */
	VSB_PT_FAILED,
	VSB_PT_SKIPPED,		/* the bench said 4: missing module, root, ... */
};

struct vsb_sweep_point {
	char id[192];		/* stable from the parameters; file names */
	char params[1024];	/* "block=s16 threshold=4096 cpus=0-1" */
	int line;		/* for messages */
	struct vsb_run_opts opts;	/* checked by vsb_run_opts_finish() */
	long reps;		/* repetitions wanted */

	/* filled by the runner */
	enum vsb_point_state state;
	long done;		/* repetitions accumulated */
	long saved;		/* of those, in its partial file */
	long resumed;		/* of those, read back from a partial (--resume) */
	struct vsb_result res;
	int status;		/* VSB_EXIT_* of the failing chunk */
	char err[512];
	int untrusted;
};

struct vsb_sweep {
	char path[4096];
	char name[64];
	size_t nblocks;
	struct vsb_sweep_block *blocks;
	size_t npoints;
	struct vsb_sweep_point *points;
	size_t ndropped;	/* points asking for more CPUs than are online */
};

/*
 * Parse @len bytes of @buf (named @path in messages) and expand and check
 * every point.  0, or VSB_EXIT_USAGE after exactly one "path:line: ..."
 * line on stderr.
 */
int vsb_sweep_parse_buf(struct vsb_sweep *sw, const char *path, const char *buf,
			size_t len);
int vsb_sweep_parse_file(struct vsb_sweep *sw, const char *path);
void vsb_sweep_free(struct vsb_sweep *sw);

struct vsb_sweep_run_opts {
	char dir[4096];
	long repeat;		/* > 0: overrides every point's repeat */
	int resume;		/* keep finished points, continue partial ones */
	uint64_t shuffle_seed;	/* 0: file order every round */
	int progress;		/* progress line on stderr */
};

/* Run, write DIR; returns the sweep's exit status (see docs/sweeps.md). */
int vsb_sweep_run(struct vsb_sweep *sw, const struct vsb_sweep_run_opts *ro);

#endif /* VSB_SWEEP_H */

/* ---- cmd_plot.c: charts through gnuplot, shared with compare ---- */

/* Directory holding the gnuplot scripts (plots/); NULL if not found. */
const char *vsb_plots_dir(void);
/* 1 if gnuplot can be run. */
int vsb_have_gnuplot(void);
/*
 * Run plots/<chart>.gp on @csv, writing <outdir>/<chart>.png and .svg;
 * @vars are extra gnuplot assignments ("a='x'; b=2;").  0 or VSB_EXIT_*.
 */
int vsb_plot_chart(const char *chart, const char *csv, const char *outdir,
		   const char *title, const char *vars);
/* "cpu_model, kernel release" from a CSV's metadata, for titles. */
void vsb_plot_title(const char *cpu_model, const char *kernel, char *buf,
		    size_t len);
