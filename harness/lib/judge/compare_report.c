// SPDX-License-Identifier: GPL-2.0
/*
 * A comparison from its inputs to its outputs, for `compare` and `ab`
 * alike: the -o refusals before anything is read, loading, matching and
 * judging (compare.c, compare_judge.c), the warnings, the table on
 * stdout, and with -o DIR compare.csv, summary.md and the regression
 * chart.  `ab` calls it in-process for its verdict over the boots.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "c2c_rule.h"
#include "compare.h"
#include "plot.h"
#include "stats.h"
#include "vsb.h"

static void write_csv_row(FILE *f, const struct vsb_compare *c, size_t i)
{
	const struct vsb_cmp_verdict *v = &c->vs[i];
	const struct vsb_cmp_point *x = vsb_cmp_any(v);
	size_t k;

	fprintf(f, "%zu,%s", i, v->label);
	for (k = 0; k < c->ncols; k++)
		fprintf(f, ",%s", x->vals[k]);
	fprintf(f, ",%s,%zu,%zu,%.6g,%.6g,%.6g,%.6g,%.6g,%.4g,%d,%.3g,%s,%d",
		x->unit, v->b ? v->b->n : 0, v->n ? v->n->n : 0, v->mb, v->mn,
		v->ratio, v->lo, v->hi, v->p, v->exact, 100 * v->noise,
		v->verdict, v->regression);
	fprintf(f, ",%zu,%zu,", v->rb, v->rn);
	if (!isnan(v->between))	/* empty: unknown, one run a side */
		fprintf(f, "%.3g", 100 * v->between);
	fprintf(f, ",%s\n", !v->b || !v->n ? "" : v->by_runs ? "runs" : "pooled");
}

/* DIR/compare.csv: the metadata, then one row per verdict */
static int write_csv(const char *dir, const struct vsb_compare *c,
		     const struct vsb_cmp_opts *o)
{
	const struct vsb_cmp_side *bs = &c->base, *ns = &c->new;
	struct vsb_outfile csv;
	char path[4096 + 32];
	size_t i, k;
	int r;

	snprintf(path, sizeof(path), "%s/compare.csv", dir);
	r = vsb_outfile_open(&csv, path, "-o");
	if (r)
		return r;
	fprintf(csv.f, "# base: %s\n# new: %s\n# alpha: %g\n# noise_pct: %g\n"
		"# max_regression_pct: %g\n# cpu_model: %s\n# kernel: %s\n"
		"# new_cpu_model: %s\n# new_kernel: %s\n", bs->path, ns->path,
		o->alpha, o->noise_pct, o->max_regression_pct, bs->cpu_model,
		bs->kernel, ns->cpu_model, ns->kernel);
	fputs("index,label", csv.f);
	for (k = 0; k < c->ncols; k++)
		fprintf(csv.f, ",%s", c->cols[k]);
	fputs(",unit,n_base,n_new,median_base,median_new,ratio,ratio_ci_lo,"
	      "ratio_ci_hi,p,exact,noise_pct,verdict,regression,runs_base,"
	      "runs_new,between_cv_pct,test\n", csv.f);
	for (i = 0; i < c->nv; i++)
		write_csv_row(csv.f, c, i);
	return vsb_outfile_commit(&csv);
}

/* The fewest runs a side that let the rank test on run medians reach @alpha. */
static size_t runs_needed(double alpha)
{
	size_t r;

	for (r = 2; r < 64 && vsb_mwu_min_p(r, r) >= alpha; r++)
		;
	return r;
}

/*
 * The one line on runs, for stderr and summary.md: whether the
 * between-run noise is known, and what the test was.  0: nothing to
 * warn about (the line is then for summary.md only).
 */
static int runs_line(const struct vsb_compare *c, const struct vsb_cmp_opts *o,
		     char *buf, size_t len)
{
	size_t judged = c->nv - c->unmatched, need = runs_needed(o->alpha);
	double alpha = o->alpha;

	if (o->runs_only && (c->one_run || c->few_runs)) {
		size_t n = c->one_run + c->few_runs;

		snprintf(buf, len, "--runs-only: %zu point%s not judged (verdict "
			 "`few-runs`): the rank test on per-run medians needs %zu runs "
			 "a side to reach p < %g, and these have %zu; repetitions are "
			 "not pooled instead", n, n == 1 ? "" : "s", need, alpha,
			 c->one_run ? (size_t)1 : c->fewest_runs);
		return 1;
	}

	if (c->one_run) {
		char where[64] = "";

		if (c->one_run < judged)
			snprintf(where, sizeof(where), " at %zu of %zu points", c->one_run,
				 judged);
		snprintf(buf, len, "between-run noise unknown%s: one run a side, and "
			 "repetitions inside one process understate how far runs made "
			 "apart differ; `vmstat-bench sweep --runs %zu SWEEP -o DIR` on "
			 "each side measures it", where, need);
		return 1;
	}
	if (c->few_runs) {
		snprintf(buf, len, "as few as %zu run%s on a side (at %zu point%s): the rank "
			 "test on per-run medians needs %zu a side to reach p < %g, so "
			 "repetitions are pooled there, the noise floor widened to %d x "
			 "the between-run CV", c->fewest_runs,
			 c->fewest_runs == 1 ? "" : "s", c->few_runs,
			 c->few_runs == 1 ? "" : "s", need, alpha,
			 VSB_CMP_BETWEEN_K);
		return 1;
	}
	snprintf(buf, len, "runs: %zu in BASE, %zu in NEW: per-run medians tested, "
		 "the CI resamples runs then repetitions, the noise floor is at least "
		 "%d x the between-run CV", c->base.nruns, c->new.nruns,
		 VSB_CMP_BETWEEN_K);
	return 0;
}

static size_t count_verdict(const struct vsb_compare *c, const char *what)
{
	size_t i, n = 0;

	for (i = 0; i < c->nv; i++)
		n += !strcmp(c->vs[i].verdict, what);
	return n;
}

/* DIR/summary.md: the verdicts as a markdown table, for a CI page */
static int write_md(const char *dir, const struct vsb_compare *c,
		    const struct vsb_cmp_opts *o)
{
	size_t i, nslow = count_verdict(c, "slower"),
	       nfast = count_verdict(c, "faster"), nreg = c->nreg,
	       nsame = count_verdict(c, "no-change"),
	       nnot = count_verdict(c, "moved") + count_verdict(c, "few-runs");
	struct vsb_outfile md;
	char path[4096 + 32], runs[512], rest[128] = "";
	int r;

	runs_line(c, o, runs, sizeof(runs));
	/* not judged and one-side points are neither a change nor none */
	if (nnot)
		snprintf(rest, sizeof(rest), ", %zu not judged (moved, few-runs)", nnot);
	if (c->unmatched)
		snprintf(rest + strlen(rest), sizeof(rest) - strlen(rest),
			 ", %zu on one side only", c->unmatched);
	snprintf(path, sizeof(path), "%s/summary.md", dir);
	r = vsb_outfile_open(&md, path, "-o");
	if (r)
		return r;
	fprintf(md.f, "# vmstat-bench compare\n\n- base: `%s`\n- new: `%s`\n"
		"- machine: %s; kernel: %s\n- verdicts: %zu slower, %zu faster, "
		"%zu no change%s; **%zu regression%s** beyond %g%%\n"
		"- rule: slower/faster needs Mann-Whitney p < %g and a change beyond "
		"the noise floor (max of %g%% and either side's CV)\n- %s\n\n",
		c->base.path, c->new.path, c->base.cpu_model, c->base.kernel, nslow,
		nfast, nsame, rest, nreg, nreg == 1 ? "" : "s",
		o->max_regression_pct, o->alpha, o->noise_pct, runs);
	fprintf(md.f, "| point | base | new | NEW/BASE [95%% CI] | p | verdict |\n"
		"|---|---:|---:|---|---:|---|\n");
	for (i = 0; i < c->nv; i++) {
		const struct vsb_cmp_verdict *v = &c->vs[i];

		fprintf(md.f, "| %s | %.4g %s | %.4g | %.3f [%.3f, %.3f] | %.3g | %s%s |\n",
			v->label, v->mb, vsb_cmp_any(v)->unit, v->mn, v->ratio, v->lo,
			v->hi, v->p, v->verdict, v->regression ? " **REGRESSION**" : "");
	}
	if (vsb_have_gnuplot())
		fprintf(md.f, "\n![regression chart](regression.png)\n");
	return vsb_outfile_commit(&md);
}

/* What -o DIR gets: write_csv's, write_md's, and vsb_plot_chart's two. */
static const char *const out_names[] = { "compare.csv", "summary.md",
	"regression.png", "regression.svg" };

/*
 * -o names a folder: refused before anything is read when it, or a
 * folder on its way, exists as something else (a file, a FIFO, a
 * device, a link to one), or is a link to nothing; and when a file
 * compare writes there exists as anything but a regular file.  Each
 * write checks its own target too, but only as it comes: a link at
 * summary.md was found with compare.csv already written.
 */
static int outdir_refusal(const char *dir)
{
	char path[4096 + 32];
	struct stat st;
	size_t i;

	if (!*dir) {
		vsb_err("-o: empty folder name");
		return VSB_EXIT_USAGE;
	}
	if (vsb_dir_refusal(dir, "-o"))
		return VSB_EXIT_USAGE;
	if (stat(dir, &st) && !lstat(dir, &st)) {
		vsb_err("-o: %s is a link to nothing", dir);
		return VSB_EXIT_USAGE;
	}
	for (i = 0; i < sizeof(out_names) / sizeof(out_names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, out_names[i]);
		if (vsb_outfile_check(path, "-o"))
			return VSB_EXIT_USAGE;
	}
	return 0;
}

/* compare.csv, summary.md and the chart; the first error is kept */
static int write_outputs(const char *dir, const struct vsb_compare *c,
			 const struct vsb_cmp_opts *o)
{
	char path[4096 + 32], title[512], vars[64];
	int r;

	if (vsb_mkdir_p(dir, 0755)) {
		vsb_err("-o: cannot create %s: %s", dir, strerror(errno));
		return VSB_EXIT_ERROR;
	}
	r = write_csv(dir, c, o);
	r = r ?: write_md(dir, c, o);
	if (r)
		return r;
	if (!vsb_have_gnuplot()) {
		vsb_warn("gnuplot not found: no regression chart (apt-get install gnuplot-nox)");
		return 0;
	}
	vsb_plot_title(c->base.cpu_model, c->base.kernel, title, sizeof(title));
	snprintf(path, sizeof(path), "%s/compare.csv", dir);
	snprintf(vars, sizeof(vars), "npoints=%zu;", c->nv);
	return vsb_plot_chart("regression", path, dir, title, vars);
}

/* What stderr says about the verdicts: one-side points, thin samples. */
static void warn_verdicts(const struct vsb_compare *c, const struct vsb_cmp_opts *o)
{
	double alpha = o->alpha;
	char runs[512];
	size_t i;

	for (i = 0; i < c->nv; i++) {
		const struct vsb_cmp_verdict *v = &c->vs[i];

		if (!v->b || !v->n)
			vsb_warn("point only in %s: %s", v->b ? "BASE" : "NEW",
				 v->label);
	}
	if (c->fewest < VSB_CMP_MIN_REPS && c->fewest != (size_t)-1)
		vsb_warn("as few as %zu repetitions on a side: the rank test needs about "
			 "%d per side to reach p < %g (3 vs 3 can never go below 0.1); "
			 "use --repeat 10", c->fewest, VSB_CMP_MIN_REPS, alpha);
	if (c->moved)
		vsb_warn("%zu multi-CPU point%s not judged (verdict `moved`): the "
			 "workers' CPUs were more than %gx nearer or farther apart on one "
			 "side (c2c_ns in the metadata): the host moved the vCPUs between "
			 "the runs, and their costs with them; compare runs made under one "
			 "placement, or alternate the sides (ab does)", c->moved,
			 c->moved == 1 ? "" : "s", VSB_C2C_MOVED_RATIO);
	if (c->nv > c->unmatched && runs_line(c, o, runs, sizeof(runs))) {
		if (c->one_run && !o->runs_only)
			vsb_note("note: %s", runs);
		else
			vsb_warn("%s", runs);
	}
}

static void print_table(const struct vsb_compare *c, const struct vsb_cmp_opts *o)
{
	/* no row at all: two empty files */
	const char *unit = c->nv ? vsb_cmp_any(&c->vs[0])->unit : "";
	char runs[48] = "";
	size_t i;

	printf("%-44s %10s %10s %22s %9s  %s\n", "point", "base", "new",
	       "NEW/BASE [95% CI]", "p", "verdict");
	for (i = 0; i < c->nv; i++) {
		const struct vsb_cmp_verdict *v = &c->vs[i];
		char ci[64];

		snprintf(ci, sizeof(ci), "%.3f [%.3f,%.3f]", v->ratio, v->lo, v->hi);
		printf("%-44.44s %10.4g %10.4g %22s %9.2g  %s", v->label, v->mb, v->mn,
		       ci, v->p, v->verdict);
		if (!strcmp(v->verdict, "slower") || !strcmp(v->verdict, "faster"))
			printf(" (%+.1f%%)", 100 * (v->ratio - 1));
		if (!strcmp(v->verdict, "moved"))
			printf(" (c2c %.0f -> %.0f ns)", v->c2c_b, v->c2c_n);
		printf("%s\n", v->regression ? "  REGRESSION" : "");
	}
	if (c->one_run < c->nv - c->unmatched)
		snprintf(runs, sizeof(runs), ", %d x between-run CV", VSB_CMP_BETWEEN_K);
	printf("(cost per op in %s; %zu regression%s beyond %g%%; alpha %g; noise floor "
	       "max(%g%%, CV%s)%s)\n", unit, c->nreg, c->nreg == 1 ? "" : "s",
	       o->max_regression_pct, o->alpha, o->noise_pct,
	       runs,
	       c->unmatched ? "; unmatched points listed on stderr" : "");
	fflush(stdout);
}

int vsb_compare_report(struct vsb_compare *c, const struct vsb_cmp_opts *o,
		       const char *base, const char *new, const char *outdir)
{
	int ret = outdir ? outdir_refusal(outdir) : 0;

	ret = ret ?: vsb_cmp_load(c, &c->base, base);
	ret = ret ?: vsb_cmp_load(c, &c->new, new);
	ret = ret ?: vsb_cmp_match(c);
	if (ret)
		return ret;
	vsb_cmp_judge(c, o);
	warn_verdicts(c, o);
	print_table(c, o);
	/* nothing to judge: said before any file is written */
	if (c->nv == c->unmatched) {
		vsb_err("no point of %s matches one of %s", c->base.path, c->new.path);
		return VSB_EXIT_SKIP;
	}
	if (outdir)
		ret = write_outputs(outdir, c, o);
	return !ret && c->nreg ? VSB_EXIT_ERROR : ret;
}
