/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the sweep runner's files share among themselves (sweep.c runs,
 * partial.c keeps unfinished points, write.c writes the sweep's own
 * files); nothing outside harness/sweep/ includes this.
 */
#ifndef VSB_SWEEP_INT_H
#define VSB_SWEEP_INT_H

#include "benches.h"
#include "sweep.h"

/* common.c */
int vsb_sweep_path_join(char *buf, size_t len, const char *dir,
			const char *name, const char *suffix);
int vsb_sweep_exists(const char *path);
int vsb_sweep_mkdir_p(const char *dir);
void vsb_sweep_progress_clear(void);
void vsb_sweep_progress(size_t done, size_t total, long round, long rounds,
			const char *id, uint64_t start);

/* write.c: a finished point's <id>.csv and <id>.summary.csv */
int vsb_sweep_write_point(const struct vsb_sweep *sw, struct vsb_sweep_point *p,
			  const struct vsb_sweep_run_opts *ro);

/* partial.c: DIR/<id>.csv.partial */
void vsb_sweep_partial_remove(const struct vsb_sweep_run_opts *ro,
			      const struct vsb_sweep_point *p);
void vsb_sweep_partial_save(const struct vsb_sweep_run_opts *ro,
			    const struct vsb_sweep_point *p);
/* 1: no such file; 0: p->res and p->done hold it; -1 and @why: untrusted */
int vsb_sweep_partial_load(struct vsb_sweep_point *p, const char *path,
			   char *why, size_t wlen);

/* write.c */
const char *vsb_sweep_state_name(const struct vsb_sweep_point *p);
void vsb_sweep_persist(const struct vsb_sweep *sw,
		       const struct vsb_sweep_run_opts *ro);
int vsb_sweep_write_sweep_csv(const struct vsb_sweep *sw,
			      const struct vsb_sweep_run_opts *ro, FILE *f);
int vsb_sweep_write_text_file(const char *dir, const char *name,
			      const struct vsb_sweep *sw,
			      const struct vsb_sweep_run_opts *ro, double secs);

#endif /* VSB_SWEEP_INT_H */
