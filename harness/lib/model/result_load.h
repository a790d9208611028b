/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loading one raw-sample result file for the store and for `compare`:
 * the `# key: value` metadata, the header row, and every sample row
 * checked before anything is written (cell counts, integers, repetition
 * numbers, positive finite costs, one unit per point).  Unlike
 * csvread.c, which splits every cell of every row into its own array,
 * this keeps one pointer per row into the file's buffer, so a file of a
 * million samples costs the file plus 12 bytes a row; cells are cut out
 * of a row on demand, by csvread.c's tokenizer (vsb_csv_split).  The point of a row is its parameter columns, every
 * column before `thread` (the same prefix result.c writes first).
 */
#ifndef VSB_RESULT_LOAD_H
#define VSB_RESULT_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "csvread.h"
#include "hash.h"

#define VSB_RL_MAX_BYTES (1024u << 20)
#define VSB_RL_MAX_COLS VSB_CSV_MAX_CELLS

struct vsb_rl_point {
	char *prefix;		/* the row's parameter cells, comma-joined */
	char *key;		/* canonical: name=value,... in header order */
	char unit[16];
	size_t nsamples;
};

/* vsb_rl_read() flags */
#define VSB_RL_EMPTY_OK		1u	/* a header without samples: an empty file */
#define VSB_RL_NEED_COST	2u	/* every sample has a per_op (compare's need) */
#define VSB_RL_REP_BOUND	4u	/* rep below VSB_REPEAT_MAX, as a run writes */

struct vsb_rl_file {
	char path[4096];
	unsigned int flags;		/* VSB_RL_* it was read with */
	char *buf;			/* the file; rows point into it */
	size_t len;
	uint64_t hash;			/* FNV-1a 64 of the bytes as read */
	char content_id[24];		/* "c-" and the hash in hex */
	size_t nmeta;
	struct vsb_csv_meta *meta;	/* in file order */
	char *header;			/* the header row, as written */
	size_t ncols;
	char *cols[VSB_RL_MAX_COLS];	/* names, NUL-terminated copies */
	size_t nparam;			/* columns before `thread` */
	/* sample columns; -1 where the file has none (optional ones) */
	int c_thread, c_cpu, c_rep, c_ops, c_elapsed, c_unit;
	int c_per_op, c_ns_per_op, c_cycles, c_instr, c_pmu_events, c_pmu_values;
	size_t nrows;
	char **rows;			/* NUL-terminated lines, commas kept */
	uint32_t *row_point;		/* index into points */
	uint32_t *row_line;		/* the line of the file each row is */
	size_t nchecked;		/* rows 0 .. this - 1 checked whole */
	size_t npoints;
	struct vsb_rl_point *points;
};

/*
 * 0, or VSB_EXIT_USAGE after one line naming the file (and row) when it
 * is not a complete raw-sample result or is not a regular file.  Rows:
 * every cell there, thread/cpu/rep/ops/elapsed decimal integers, rep
 * not negative, per_op empty or a positive finite number, one unit per
 * point; @flags (VSB_RL_*) add to that.  vsb_rl_load() is vsb_rl_read()
 * without flags, the store's: a file without samples is refused, a
 * sample without a cost is stored as one, and a repetition number is
 * not bounded (the store indexes nothing by it).
 */
int vsb_rl_read(const char *path, unsigned int flags, struct vsb_rl_file *f);
int vsb_rl_load(const char *path, struct vsb_rl_file *f);
/*
 * vsb_rl_read() in two passes, for a reader that checks the rows while
 * it uses them (the PostgreSQL import, whose server stores rows while
 * the next ones are checked).  vsb_rl_scan(): the first pass: the bytes
 * and their hash, the metadata, the header, each row's line and point
 * (its parameter cells); f->nchecked 0.  Refuses as vsb_rl_read() does
 * what it sees (a header, no samples, a row too short for its point:
 * then the rows up to it checked whole, the first bad one named).
 * vsb_rl_check(): the second pass over row @i, which must be
 * f->nchecked (in order: a point's unit is its first sample's), cut into
 * @cells (VSB_RL_MAX_COLS); 0, or VSB_EXIT_USAGE after vsb_rl_read()'s
 * line about it; @f stays the caller's to free.  vsb_rl_check_rest():
 * every row not yet checked.
 */
int vsb_rl_scan(const char *path, unsigned int flags, struct vsb_rl_file *f);
int vsb_rl_check(struct vsb_rl_file *f, size_t i, struct vsb_csv_span *cells);
int vsb_rl_check_rest(struct vsb_rl_file *f);
void vsb_rl_free(struct vsb_rl_file *f);
const char *vsb_rl_meta(const struct vsb_rl_file *f, const char *key);
/* Index of the column named @name; -1 when the file has none. */
int vsb_rl_col(const struct vsb_rl_file *f, const char *name);
/* Cut row @i into @cells (f->ncols of them). */
void vsb_rl_cells(const struct vsb_rl_file *f, size_t i, struct vsb_csv_span *cells);
/*
 * The numbers of a sample row, from its @cells (vsb_rl_cells) as the
 * loader checked them: its counts and cost (NAN: no cost), and the
 * optional figures, NAN where the cell is absent, empty or not a
 * number in numbers.c's syntax (what the writer's %.6g writes).
 */
struct vsb_rl_sample {
	long thread, cpu, rep, ops, elapsed;
	double per_op, ns_per_op, cycles, instr;
};
void vsb_rl_sample(const struct vsb_rl_file *f, const struct vsb_csv_span *cells,
		   struct vsb_rl_sample *s);
/* The row from column `thread` on, comma-joined, and its length. */
const char *vsb_rl_tail(const struct vsb_rl_file *f, size_t i, size_t *len);


/* 1 when @path names a file that is not a raw result by its name:
 * FILE.summary.csv, sweep.csv, compare.csv, a monitor's series and its
 * chart tables, a .partial.  The one rule for the store and compare. */
int vsb_rl_is_derived_name(const char *path);
/*
 * Did a vmstat-bench run write @path?  Its metadata, before the header
 * row, carries "# vmstat-bench: VERSION" (VSB_META_WRITER, result.h: as
 * meta.c records it and result_write.c writes it); history's tables, a
 * plotting script's input or a spreadsheet's export do not.  Only the
 * comment lines are read.
 */
int vsb_rl_written_by_a_run(const char *path);

#endif /* VSB_RESULT_LOAD_H */
