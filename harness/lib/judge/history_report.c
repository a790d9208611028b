// SPDX-License-Identifier: GPL-2.0
/*
 * `vmstat-bench history` from its options to its outputs: -o DIR's
 * refusals before the store is read, the series (history_query.c),
 * every file checked before the first is written and each written
 * whole or not at all (history_out.c, history_html.c), the text report
 * on stdout, and with --check the CI gate on each series' newest entry.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vsb.h"
#include "history.h"
#include "plot.h"
#include "store.h"

/* The files -o DIR gets at its top, in write_outputs()'s order. */
static const char *const top_files[] = { "summary.csv", "summary.md", "index.html" };
#define NTOP (sizeof(top_files) / sizeof(top_files[0]))

/*
 * A file history will write must be absent or a regular file, as
 * vsb_outfile_open() wants; checked for every file before any is
 * written, since that open refuses each only when its turn comes.
 */
static int check_out_file(const char *dir, const char *name)
{
	char path[4400];
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = vsb_open_regular(path, O_NOFOLLOW, &st);
	if (fd >= 0)
		close(fd);
	else if (fd == -ELOOP || fd == -EISDIR || -fd >= VSB_ENOTREG) {
		vsb_err("history: -o: %s: %s: refused, nothing written", path,
			vsb_read_strerror(-fd));
		return VSB_EXIT_USAGE;
	}
	return 0;
}

/* -o DIR, before the store is read: a folder or a path to make one at. */
int vsb_hist_check_outdir(const char *dir)
{
	size_t i;

	/* gnuplot is handed the charts' paths: a line break refused now */
	if (vsb_dir_refusal(dir, "-o") || vsb_plot_path_check(dir, "history: -o"))
		return VSB_EXIT_USAGE;
	for (i = 0; i < NTOP; i++)
		if (check_out_file(dir, top_files[i]))
			return VSB_EXIT_USAGE;
	return 0;
}

typedef int (*writer_fn)(FILE *f, const struct vsb_hist_out *os, size_t n,
			 enum vsb_hist_by by, const char *url);

/* OUTDIR/NAME through @fn, whole or not at all */
static int write_file(const char *outdir, const char *name, writer_fn fn,
		      const struct vsb_hist_out *os, size_t n, enum vsb_hist_by by,
		      const char *url)
{
	struct vsb_outfile of;
	char path[4400];

	snprintf(path, sizeof(path), "%s/%s", outdir, name);
	if (vsb_outfile_open(&of, path, "-o"))
		return VSB_EXIT_USAGE;
	if (fn(of.f, os, n, by, url)) {
		vsb_err("history: %s: write failed", path);
		vsb_outfile_abort(&of);
		return VSB_EXIT_ERROR;
	}
	return vsb_outfile_commit(&of);
}

/* Each series' folder and files, known once the store is read. */
static int check_series_outputs(const char *outdir, const struct vsb_hist_out *os,
				size_t n)
{
	static const char *const files[] = { "history.csv", "history.png", "history.svg" };
	char dir[4400];
	size_t i, k;

	for (i = 0; i < n; i++) {
		snprintf(dir, sizeof(dir), "%s/%s", outdir, os[i].dir);
		if (vsb_dir_refusal(dir, "-o"))
			return VSB_EXIT_USAGE;
		for (k = 0; k < (os[i].has_chart ? 3u : 1u); k++)
			if (check_out_file(dir, files[k]))
				return VSB_EXIT_USAGE;
	}
	return 0;
}

static int write_outputs(const char *outdir, const struct vsb_hist_out *os, size_t n,
			 enum vsb_hist_by by, const char *url)
{
	static const writer_fn top_writers[NTOP] = {
		vsb_hist_write_summary_csv, vsb_hist_write_summary_md, vsb_hist_write_html,
	};
	char path[4400];
	size_t i;
	int ret = 0;

	if (vsb_mkdir_p(outdir, 0755)) {
		vsb_err("history: -o %s: %s", outdir, strerror(errno));
		return VSB_EXIT_USAGE;
	}
	if (n && !os[0].has_chart)
		vsb_warn("gnuplot not found: no trend charts (apt-get install gnuplot-nox)");
	for (i = 0; i < n && !ret; i++) {
		snprintf(path, sizeof(path), "%s/%s", outdir, os[i].dir);
		if (mkdir(path, 0755) && errno != EEXIST) {
			vsb_err("history: %s: %s", path, strerror(errno));
			return VSB_EXIT_ERROR;
		}
		snprintf(path, sizeof(path), "%s/history.csv", os[i].dir);
		ret = write_file(outdir, path, vsb_hist_write_series_csv, &os[i], 1, by, url);
		if (!ret && os[i].has_chart)
			ret = vsb_hist_chart(outdir, &os[i], by);
	}
	for (i = 0; i < NTOP && !ret; i++)
		ret = write_file(outdir, top_files[i], top_writers[i], os, n, by, url);
	return ret;
}

/* The text report: each series, its change points, its verdict. */
static void report(const struct vsb_hist_out *os, size_t n, enum vsb_hist_by by)
{
	char v[160];
	size_t i, k;

	for (i = 0; i < n; i++) {
		const struct vsb_hist_series *hs = os[i].hs;
		size_t nc = vsb_hist_ncode(hs);

		vsb_hist_verdict_line(hs, v, sizeof(v));
		printf("%s on %s: %zu entries by %s, %zu change point%s", os[i].label,
		       hs->machine, hs->n, vsb_hist_by_name(by), nc, nc == 1 ? "" : "s");
		if (hs->ncp > nc)
			printf(", %zu machine step%s", hs->ncp - nc, hs->ncp - nc == 1 ? "" : "s");
		printf("; %s\n", v);
		for (k = 0; k < hs->ncp; k++) {
			const struct vsb_cp *c = &hs->cp[k];
			const struct vsb_series_run *a = hs->e[c->index - 1].run,
						    *b = hs->e[c->index].run;

			printf("  %s at entry %zu: %s (%s, %s) -> %s (%s, %s): %.4g -> %.4g "
			       "%s, %+.1f%%, p %.3g",
			       vsb_hist_cp_one_build(hs, k) ? "machine step" : "change",
			       c->index, a->kernel, a->revision,
			       a->date, b->kernel, b->revision, b->date, c->before, c->after,
			       hs->unit, 100 * c->rel_change, c->p_value);
			if (vsb_hist_cp_moved(hs, k))
				printf(" (CPUs moved: c2c %.0f -> %.0f ns)", hs->cp_c2c[k][0],
				       hs->cp_c2c[k][1]);
			if (vsb_hist_cp_one_build(hs, k))
				fputs(" (one build on both sides: the machine or its load moved, "
				      "not the code)", stdout);
			putchar('\n');
		}
	}
}

/*
 * The gate's one line: "no regression" only when every judged series'
 * newest entry is the same; the counts; the largest margin among the
 * inconclusive ones (the smallest step this store could have called).
 * Exit 1 for a regression, VSB_EXIT_INCONCLUSIVE when none but a series
 * could not tell, else 0 (moved and one-build series are not judged).
 */
static int gate_line(const struct vsb_hist_out *os, size_t n, size_t nreg)
{
	size_t i, nsame = 0, nfast = 0, ninc = 0, nnot = 0;
	char why[96] = "";
	double mde = 0;

	for (i = 0; i < n; i++) {
		const struct vsb_hist_series *hs = os[i].hs;

		nsame += !strcmp(hs->check, "same");
		nfast += !strcmp(hs->check, "faster");
		nnot += hs->moved || hs->one_build_newest;
		if (!strcmp(hs->check, "inconclusive")) {
			ninc++;
			/* no baseline yet: nothing could be called */
			mde = fmax(mde, hs->verdict.rule == VSB_CP_RULE_NONE ? INFINITY :
				   hs->verdict.margin);
		}
	}
	if (!nreg && !ninc && !nfast) {
		printf("history --check: no regression: every judged series' newest entry "
		       "the same within +-%g%% (%zu same, %zu not judged)\n",
		       100 * VSB_CP_THRESHOLD, nsame, nnot);
		return VSB_EXIT_OK;
	}
	if (ninc && isinf(mde))
		snprintf(why, sizeof(why), "; a series too short to have a baseline");
	else if (ninc)
		snprintf(why, sizeof(why), "; this store could not tell steps below %.1f%%",
			 100 * mde);
	printf("history --check: %s%zu series: %zu slower, %zu faster, %zu same, "
	       "%zu inconclusive, %zu not judged%s\n", nreg ? "REGRESSION; " :
	       ninc ? "inconclusive; " : "", n, nreg, nfast, nsame, ninc, nnot, why);
	return nreg ? VSB_EXIT_ERROR : ninc ? VSB_EXIT_INCONCLUSIVE : VSB_EXIT_OK;
}

static int gate(const struct vsb_hist_out *os, size_t n)
{
	size_t i, nreg = 0;

	for (i = 0; i < n; i++) {
		const struct vsb_cp_verdict *v = &os[i].hs->verdict;

		if (os[i].hs->moved)
			fprintf(stderr, "history --check: not judged: %s on %s: newest entry "
				"%+.1f%%, but its CPUs moved (c2c %.0f -> %.0f ns): the host's "
				"placement, not the code\n", os[i].label, os[i].hs->machine,
				100 * v->rel_change, os[i].hs->c2c_base, os[i].hs->c2c_new);
		if (os[i].hs->one_build_newest)
			fprintf(stderr, "history --check: not judged: %s on %s: newest entry "
				"%+.1f%%, but it and its baseline are one build (kernel %s, "
				"revision %s): the machine moved, not the code\n", os[i].label,
				os[i].hs->machine, 100 * v->rel_change,
				os[i].hs->e[os[i].hs->n - 1].run->kernel,
				os[i].hs->e[os[i].hs->n - 1].run->revision);
		if (!v->regression)
			continue;
		nreg++;
		fprintf(stderr, "history --check: REGRESSION: %s on %s: newest entry %+.1f%% "
			"(%.4g -> %.4g %s, %s rule, p %.3g) since entry %zu\n", os[i].label,
			os[i].hs->machine, 100 * v->rel_change, v->base, v->newest,
			os[i].hs->unit, v->rule == VSB_CP_RULE_SEGMENT ? "segment" : "tail",
			v->p_value, v->new_start);
	}
	return gate_line(os, n, nreg);
}

int vsb_history(const struct vsb_hist_opts *o)
{
	struct vsb_hist_set h = { 0 };
	struct vsb_hist_out *os = NULL;
	size_t n = 0;
	int ret = vsb_hist_load(o, &h);

	if (ret)
		goto out_free;
	os = vsb_hist_flatten(&h, &n);
	/* every path written is checked before the first is */
	if (o->outdir)
		ret = check_series_outputs(o->outdir, os, n);
	if (ret)
		goto out_free;
	report(os, n, o->by);
	if (o->outdir)
		ret = write_outputs(o->outdir, os, n, o->by, vsb_store_url(o->url));
	if (o->check && !ret)
		ret = gate(os, n);
out_free:
	free(os);
	vsb_hist_set_free(&h);
	return ret;
}
