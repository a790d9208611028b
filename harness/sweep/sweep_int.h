/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the sweep runner's files share among themselves (sweep.c runs,
 * partial.c keeps unfinished points, kept.c checks finished ones,
 * write.c writes a point's files, dir_files.c the sweep's own, shares.c
 * counts a point's repetitions, procs.c hands on between worker
 * processes, paths.c holds their paths, progress.c their progress
 * line); nothing outside harness/sweep/ includes this.  It includes
 * sweep_opts.h, not the public sweep.h, so no helper depends on the
 * runner it serves.
 */
#ifndef VSB_SWEEP_INT_H
#define VSB_SWEEP_INT_H

#include "benches.h"
#include "point_list.h"
#include "point_match.h"
#include "sweep_opts.h"

/* paths.c */
int vsb_sweep_path_join(char *buf, size_t len, const char *dir,
			const char *name, const char *suffix);
int vsb_sweep_exists(const char *path);
int vsb_sweep_mkdir_p(const char *dir);
/* 0, or VSB_EXIT_USAGE after one line: a name the sweep writes is taken */
int vsb_sweep_check_targets(const struct vsb_sweep *sw,
			    const struct vsb_sweep_run_opts *ro);

/* progress.c */
void vsb_sweep_progress_clear(void);
void vsb_sweep_progress(size_t done, size_t total, long round, long rounds,
			const char *id, uint64_t start);

/* write.c: a finished point's <id>.csv and <id>.summary.csv */
int vsb_sweep_write_point(const struct vsb_sweep *sw, struct vsb_sweep_point *p,
			  const struct vsb_sweep_run_opts *ro);

/*
 * partial.c: DIR/<id>.csv.partial; @procs: what this sweep spreads over,
 * @run_min_ms: the --run-min-ms its run factors are chosen under
 */
void vsb_sweep_partial_procs(long procs, long run_min_ms);
void vsb_sweep_partial_remove(const struct vsb_sweep_point *p);
/* @p's repetitions so far, of @total (vsb_sweep_reps_total) */
void vsb_sweep_partial_save(const struct vsb_sweep_point *p, long total);
/* 1: no such file; 0: p->res and p->done hold it; -1 and @why: untrusted */
int vsb_sweep_partial_load(struct vsb_sweep_point *p, const char *path,
			   char *why, size_t wlen);

/* shares.c */
/* The repetitions @p runs in all: each wanted one run_reps times. */
long vsb_sweep_reps_total(const struct vsb_sweep_point *p);
/*
 * The repetitions of @p that worker processes 1..@k of @procs run
 * between them: (k * reps) / procs, all of them for a --trace point
 * (which keeps no partial to hand on: worker 1 runs it whole).
 */
long vsb_sweep_chunk_end(const struct vsb_sweep_point *p, long procs, long k);
/*
 * Which worker process ran which repetitions of @p (sweep --procs), as
 * the worker-list line's value (worker_list.c): each one a run of its
 * own to `compare`.  "" when one process ran them all.
 */
void vsb_sweep_worker_line(const struct vsb_sweep_point *p, long procs, char *line,
			   size_t len);

/* procs.c: what worker process K hands on to K + 1 (DIR/procs.txt) */
int vsb_sweep_handoff_write(const struct vsb_sweep *sw,
			    const struct vsb_sweep_run_opts *ro);
/* into the points' states (kept among them) and resumed counts; VSB_EXIT_* */
int vsb_sweep_handoff_read(struct vsb_sweep *sw, const struct vsb_sweep_run_opts *ro);
void vsb_sweep_handoff_remove(const struct vsb_sweep_run_opts *ro);

/* kept.c: a finished point's <id>.summary.csv, checked before it is reused */
struct vsb_csv;
/* 1: no such file; 0: @c holds it; -1 and @why: not this point's as now run */
int vsb_sweep_summary_read(const struct vsb_sweep_point *p, struct vsb_csv *c,
			   char *why, size_t wlen);

/* write.c: after each round, each point's result pair or partial */
void vsb_sweep_persist(const struct vsb_sweep *sw,
		       const struct vsb_sweep_run_opts *ro);

/* dir_files.c: the sweep's own files in DIR */
int vsb_sweep_write_sweep_csv(const struct vsb_sweep *sw, FILE *f);
int vsb_sweep_write_text_file(const char *dir, const char *name,
			      const struct vsb_sweep *sw,
			      const struct vsb_sweep_run_opts *ro, double secs);

#endif /* VSB_SWEEP_INT_H */
