/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sweep files and their points.
 *
 * A sweep file sets run options, one per line (`threshold 32,64,125`);
 * a list makes an axis and the points are the cartesian product of the
 * axes.  `[label]` lines start blocks: each block is its own product of
 * the lines above the first block and its own lines (which override
 * them), and the sweep is the union of the blocks.  docs/sweeps.md is
 * the user's description; this header is the program's.  Parsing knows
 * no bench: the runner (sweep/) hands in the check of a point.
 */
#ifndef VSB_SWEEPFILE_H
#define VSB_SWEEPFILE_H

#include "opts.h"
#include "result.h"

#define VSB_SWEEP_LINE_MAX	4096	/* characters per line, newline excluded */
/*
 * Points one sweep may expand to, counted from the axes before any is
 * expanded: a point holds its whole option set and result (about 48 KiB),
 * so this bounds the memory to some 470 MiB, and 10^4 points at the
 * default repetitions is already days of running.
 */
#define VSB_SWEEP_MAX_POINTS	10000
#define VSB_SWEEP_MAX_RANGE	1024	/* values one A-B range may expand to */
/* DIR/<id> + this: an unfinished point's repetitions so far (--resume) */
#define VSB_SWEEP_PARTIAL_SUFFIX ".csv.partial"
/* a partial larger than this is not read (the point starts over) */
#define VSB_SWEEP_PARTIAL_MAX	(64u << 20)

/*
 * A point's stem, DIR/<id>, leaves room in a 4096-byte path for the
 * longest suffix of its files: ".summary.csv", ".csv.partial" and
 * ".monitor.csv" are 12 characters each.
 */
#define VSB_SWEEP_STEM_MAX	(4096 - 12)

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
	/*
	 * Each wanted repetition run this many times (sweep's short runs,
	 * vsb_sweep_reps_total()); 0: not decided yet, which counts as 1.
	 */
	long run_reps;
	uint64_t file_hash;	/* of the sweep file's bytes (--resume's check) */

	/* filled by the runner */
	/*
	 * DIR/<id>: its files' names less their suffixes, set once every
	 * name with a suffix is checked to fit (sweep.c's name_points)
	 */
	char stem[VSB_SWEEP_STEM_MAX];
	enum vsb_point_state state;
	long done;		/* repetitions accumulated */
	long saved;		/* of those, in its partial file */
	long resumed;		/* of those, read back from a partial (--resume) */
	int kept;		/* done by the user's --resume (handed on as such) */
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
	uint64_t file_hash;	/* FNV-1a 64 of the file's bytes */
	int (*check)(struct vsb_run_opts *o);	/* while parsing */
};

/*
 * Checks a point's whole option set (the runner passes the benches'
 * vsb_run_opts_finish); VSB_EXIT_* after vsb_err lines, which the parser
 * records (errlog.c) and words as "path:line: point P: why".
 */
typedef int (*vsb_point_check_fn)(struct vsb_run_opts *o);

/*
 * Parse @len bytes of @buf (named @path in messages) and expand every
 * point, checking each with @check (NULL: values only).  0, or
 * VSB_EXIT_USAGE after exactly one "path:line: ..." line on stderr.
 */
int vsb_sweepfile_parse_buf(struct vsb_sweep *sw, const char *path,
			    const char *buf, size_t len, vsb_point_check_fn check);
/* The file's bytes (at most 1 MiB) into *@buf; 0, or VSB_EXIT_USAGE said. */
int vsb_sweepfile_read(const char *path, char **buf, size_t *len);
int vsb_sweepfile_parse(struct vsb_sweep *sw, const char *path,
			vsb_point_check_fn check);
void vsb_sweep_free(struct vsb_sweep *sw);
/* @opt's value in @o as point ids and match strings spell it (CPUs as a list) */
void vsb_sweep_opt_value(const struct vsb_run_opts *o, const struct vsb_opt *opt,
			 char *v, size_t len);

#endif /* VSB_SWEEPFILE_H */
