// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep's own files in DIR, written when it ends (points.txt also on
 * an interrupt): sweep.csv (one summary row per point), points.txt,
 * meta.txt and failed.txt.
 */
#define _GNU_SOURCE
#include <string.h>

#include "csvread.h"
#include "summary_csv.h"
#include "sweep_int.h"
#include "point_list.h"

/* sweep.csv's header: the first summary's metadata (not the point's own) */
static void sweep_csv_header(const struct vsb_sweep *sw, const struct vsb_csv *c,
			     FILE *f)
{
	size_t k;

	for (k = 0; k < c->nmeta; k++)
		if (vsb_summary_sweep_wide_key(c->meta[k].key))
			fprintf(f, "# %s: %s\n", c->meta[k].key, c->meta[k].val);
	fprintf(f, "# sweep_name: %s\n", sw->name);
	fputs("point", f);
	for (k = 0; k < c->ncols; k++)
		fprintf(f, ",%s", c->cols[k]);
	fputc('\n', f);
}

/*
 * sweep.csv: one row per finished point, read back from its summary
 * file (so points kept by --resume count too): the "all" row, or the
 * only row of a one-worker point, with the point id in front.  Only a
 * summary that reads back as this point's (kept.c) is copied.
 */
int vsb_sweep_write_sweep_csv(const struct vsb_sweep *sw, FILE *f)
{
	char why[600];
	size_t i, r, k;
	int header = 0;

	for (i = 0; i < sw->npoints; i++) {
		const struct vsb_sweep_point *p = &sw->points[i];
		struct vsb_csv c;

		if (p->state != VSB_PT_DONE)
			continue;
		if (vsb_sweep_summary_read(p, &c, why, sizeof(why))) {
			vsb_err("sweep.csv: point %s: its summary is gone or changed "
				"since: %s", p->id, why);
			return VSB_EXIT_ERROR;
		}
		if (!header++)
			sweep_csv_header(sw, &c, f);
		for (r = 0; r < c.nrows; r++) {
			if (!vsb_summary_csv_row(&c, r))
				continue;
			fputs(p->id, f);
			for (k = 0; k < c.ncols; k++)
				fprintf(f, ",%s", c.rows[r][k]);
			fputc('\n', f);
		}
		vsb_csv_free(&c);
	}
	return ferror(f) ? VSB_EXIT_ERROR : 0;
}

int vsb_sweep_write_text_file(const char *dir, const char *name,
			      const struct vsb_sweep *sw,
			      const struct vsb_sweep_run_opts *ro, double secs)
{
	struct vsb_outfile o;
	char path[4096];
	size_t i;
	int ret;

	ret = vsb_sweep_path_join(path, sizeof(path), dir, name, "");
	ret = ret ?: vsb_outfile_open(&o, path, "-o");
	if (ret)
		return ret;
	if (!strcmp(name, "points.txt")) {
		vsb_point_list_write(o.f, sw);
	} else if (!strcmp(name, "failed.txt")) {
		fprintf(o.f, "# points that did not finish: id, state, exit status, why\n");
		for (i = 0; i < sw->npoints; i++) {
			const struct vsb_sweep_point *p = &sw->points[i];

			if (p->state == VSB_PT_FAILED || p->state == VSB_PT_SKIPPED)
				fprintf(o.f, "%s\t%s\t%d\t%s\n", p->id,
					vsb_sweep_state_name(p), p->status, p->err);
		}
	} else if (!strcmp(name, "meta.txt")) {
		const struct vsb_sweep_point *first = NULL;

		for (i = 0; i < sw->npoints && !first; i++)
			if (sw->points[i].state == VSB_PT_DONE && sw->points[i].res.nmeta)
				first = &sw->points[i];
		fprintf(o.f, "sweep: %s\nname: %s\npoints: %zu\n", sw->path, sw->name,
			sw->npoints);
		fprintf(o.f, "dropped_points: %zu (more CPUs than online)\n", sw->ndropped);
		fprintf(o.f, "repeat_override: %ld\nshuffle_seed: %llu\nresume: %s\n",
			ro->repeat, (unsigned long long)ro->shuffle_seed,
			ro->resume ? "yes" : "no");
		fprintf(o.f, "seconds: %.1f\n", secs);
		if (ro->procs > 1)
			fprintf(o.f, "procs: %ld (worker processes, one after the other, "
				"each running its share of every point's repetitions)\n",
				ro->procs);
		for (i = 0; first && i < first->res.nmeta; i++)
			if (strncmp(first->res.meta[i].key, "sweep", 5) &&
			    !vsb_summary_point_own_key(first->res.meta[i].key))
				fprintf(o.f, "%s: %s\n", first->res.meta[i].key,
					first->res.meta[i].val);
	} else {
		ret = vsb_sweep_write_sweep_csv(sw, o.f);
	}
	if (ret) {
		vsb_outfile_abort(&o);
		return ret;
	}
	return vsb_outfile_commit(&o);
}
