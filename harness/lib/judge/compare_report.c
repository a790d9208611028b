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
#include <unistd.h>

#include "c2c_rule.h"
#include "charts.h"
#include "compare.h"
#include "compare_csv.h"
#include "cost_host.h"
#include "plot.h"
#include "shift_line.h"
#include "stats.h"
#include "store.h"
#include "vsb.h"

/*
 * compare.csv's `test`: the noise model row @v was judged by, as the
 * `# noise_model:` line names them (the repetitions' test is "pooled"),
 * or "none" for a row that was not judged: one side only, or a verdict
 * that says why not (no-model, few-runs, one-sweep, moved, disturbed),
 * whatever test its runs would have allowed.
 */
static const char *test_name(const struct vsb_cmp_verdict *v)
{
	if (!v->b || !v->n || !v->model || !strcmp(v->model, "none"))
		return "none";
	return !strcmp(v->model, "reps") ? "pooled" : v->model;
}

/* row @i of compare.csv, through its codec (compare_csv.c) */
static void write_csv_row(FILE *f, const struct vsb_compare *c, size_t i)
{
	const struct vsb_cmp_verdict *v = &c->vs[i];
	const struct vsb_cmp_point *x = vsb_cmp_any(v);
	const char *params[VSB_CMP_MAX_COLS];
	struct vsb_compare_row r = {
		.index = i, .label = v->label, .params = params,
		.unit = x->unit, .n_base = v->b ? v->b->n : 0,
		.n_new = v->n ? v->n->n : 0, .median_base = v->mb,
		.median_new = v->mn, .ratio = v->ratio, .ratio_ci_lo = v->lo,
		.ratio_ci_hi = v->hi, .p = v->p, .exact = v->exact,
		.noise_pct = 100 * v->noise,
		.verdict = vsb_compare_word_of(v->verdict),
		.regression = v->regression, .runs_base = v->rb, .runs_new = v->rn,
		.test = test_name(v), .rule = v->rule ? v->rule : "none",
		/* change: insn rows, what moved */
		.change = v->mixv.line, .why = v->mixv.why,
	};
	size_t k;

	for (k = 0; k < c->ncols; k++)
		params[k] = x->vals[k];
	/*
	 * between_cv_pct is the between-run CV the noise floor took: of the
	 * runs compared, or with test `store` the store's (empty: unknown,
	 * one run a side); test names the noise model (test_name()).
	 */
	if (v->model && strstr(v->model, "store"))	/* store, runs+store */
		r.between_cv_pct = 100 * v->model_cv;
	else
		r.between_cv_pct = 100 * v->between;
	/* mde_pct: empty where not judged, inf where no test could call any */
	r.mde_pct = 100 * v->mde;
	/* p_adj: the p the verdict was called on, alpha shared over the
	 * points (compare_family.c); empty where no rank test judged */
	r.p_adj = c->family > 1 && !strcmp(r.rule, "rank") ? v->p_adj : NAN;
	vsb_compare_csv_row(f, &r, c->ncols);
}

static const char *model_name(const struct vsb_cmp_opts *o)
{
	return o->runs_only ? "runs-only" :
	       o->model == VSB_CMP_MODEL_AUTO ? "auto" : "reps";
}

static const char *or_unknown(const char *s)
{
	return s[0] ? s : "unknown";
}

/*
 * One line of summary.md on what the sides ran, @what: its value where
 * they agree, both where they differ (two kernels, their configs: what an
 * A/B of kernels is about, and a change in the vmstat update path or the
 * preempt model is a reason of its own).
 */
static void sides_line(FILE *f, const char *what, const char *base, const char *new)
{
	if (strcmp(base, new))
		fprintf(f, "- %s differs: base `%s`, new `%s`\n", what, base, new);
	else
		fprintf(f, "- %s: %s\n", what, base);
}

static void sides_md(FILE *f, const struct vsb_compare *c)
{
	sides_line(f, "machine", c->base.cpu_model, c->new.cpu_model);
	sides_line(f, "kernel", c->base.kernel, c->new.kernel);
	sides_line(f, "kernel config", or_unknown(c->base.kernel_config),
		   or_unknown(c->new.kernel_config));
}

/* The common shift, when shown, as one sentence for stderr and summary.md. */
static int shift_line(const struct vsb_compare *c, const struct vsb_cmp_opts *o,
		      char *buf, size_t len)
{
	if (!vsb_cmp_shift_shown(c, o))
		return 0;
	snprintf(buf, len, "the %zu judged points moved together, their median "
		 "NEW/BASE %.3f: a change common to all of them (a compiler, a kernel "
		 "config) or the machine between the two sides' runs (ci/sweep-drift "
		 "measures how far this machine's sweeps lie apart); read each "
		 "point's ratio against %.3f", c->nshift, c->shift, c->shift);
	return 1;
}

/* DIR/compare.csv: the metadata, then one row per verdict */
static int write_csv(const char *dir, const struct vsb_compare *c,
		     const struct vsb_cmp_opts *o)
{
	const struct vsb_cmp_side *bs = &c->base, *ns = &c->new;
	struct vsb_outfile csv;
	char path[4096 + 32], line[512];
	size_t i;
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
	fprintf(csv.f, "# kernel_config: %s\n# new_kernel_config: %s\n",
		or_unknown(bs->kernel_config), or_unknown(ns->kernel_config));
	/* the chart draws the shift where the note is given (vsb_chart_compare) */
	vsb_shift_lines_write(csv.f, c->shift, c->nshift, vsb_cmp_shift_shown(c, o));
	fprintf(csv.f, "# noise_model: %s; per row, test: runs (the rank test on "
		"per-run medians, floor from their between-run CV), runs+store (the "
		"same, a side's runs one sweep's processes, the floor at least what "
		"the store's sweeps of the point differ by: between_cv_pct), store (the "
		"repetitions' rank test, floor from the store's between-run CV of "
		"the point: between_cv_pct), pooled (repetitions trusted: only "
		"with --noise-model reps), exact (unit insn), none (not judged: one "
		"side only, or the verdict says why)\n"
		"# noise_models: %zu runs, %zu store, %zu pooled, %zu not judged; "
		"of the runs, %zu runs+store\n"
		"# store: %s\n# disturbed_repetitions: %s, %zu left out\n"
		"# verdicts: same needs the 95%% CI inside 1 +- max_regression_pct "
		"and the noise floor no wider; else inconclusive; test exact (unit "
		"insn): a class moved beyond max(0.1%% of base, 0.05) per op, and "
		"which way is the cost model's (docs/exact.md): rule mix (every class "
		"moved one way), costs (every model agreed), none (changed: they "
		"disagree or lack a cost); mde_pct: "
		"the smallest change the row could call (80%% power at alpha)\n",
		model_name(o), c->by_runs, c->by_store, c->by_reps,
		c->nv - c->by_runs - c->by_store - c->by_reps - c->by_exact,
		c->runs_store, c->store_url ? c->store_url : "none",
		o->drop_disturbed ? "left out" : "kept", c->ndisturbed);
	fprintf(csv.f, "# cost_models: %s\n# cost_host: %s\n", vsb_uarch_names(),
		vsb_host_costs_used());
	vsb_cmp_headline(c, o, line, sizeof(line));
	fprintf(csv.f, "# headline: %s\n", line);
	vsb_compare_csv_header(csv.f, (const char *const *)c->cols, c->ncols);
	for (i = 0; i < c->nv; i++)
		write_csv_row(csv.f, c, i);
	return vsb_outfile_commit(&csv);
}

/*
 * The runs of side @s that hold a sample: a file split into its worker
 * processes (`# sweep_procs:`) names a run of its own that none uses.
 */
static size_t runs_used(const struct vsb_cmp_side *s)
{
	unsigned char *seen = vsb_zalloc(s->nruns + 1);
	size_t i, j, n = 0;

	for (i = 0; i < s->n; i++)
		for (j = 0; j < s->pts[i].n; j++)
			if (s->pts[i].run[j] < s->nruns && !seen[s->pts[i].run[j]]) {
				seen[s->pts[i].run[j]] = 1;
				n++;
			}
	free(seen);
	return n;
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
		 "%d x the between-run CV", runs_used(&c->base), runs_used(&c->new),
		 VSB_CMP_BETWEEN_K);
	return 0;
}

static size_t count_verdict(const struct vsb_compare *c,
			    enum vsb_compare_word what)
{
	size_t i, n = 0;

	for (i = 0; i < c->nv; i++)
		n += vsb_cmp_is(&c->vs[i], what);
	return n;
}

/*
 * How many points were judged and on what basis, and why the rest were
 * not, in one line (summary.md, the table's foot, stderr under AUTO).
 * 1 when points went unjudged for want of a noise model (no-model,
 * few-runs): stderr then says how to get one.
 */
static int basis_line(const struct vsb_compare *c, const struct vsb_cmp_opts *o,
		      char *buf, size_t len)
{
	size_t pairs = c->nv - c->unmatched,
	       judged = c->by_runs + c->by_store + c->by_reps + c->by_exact;
	size_t nomodel = count_verdict(c, VSB_CW_NO_MODEL);
	size_t few = count_verdict(c, VSB_CW_FEW_RUNS);
	size_t sweep1 = count_verdict(c, VSB_CW_ONE_SWEEP);
	size_t off;

	off = (size_t)snprintf(buf, len, "judged %zu of %zu points: %zu by runs (the "
			       "rank test on per-run medians, %zu+ runs a side), %zu by "
			       "the store's between-run noise", judged, pairs, c->by_runs,
			       runs_needed(o->alpha), c->by_store);
	if (c->runs_store && off < len)
		off += (size_t)snprintf(buf + off, len - off, "; %zu by runs floored by "
					"how far the store's sweeps of them differ", c->runs_store);
	if (c->by_exact && off < len)
		off += (size_t)snprintf(buf + off, len - off, ", %zu by the exact rule "
					"(instruction counts)", c->by_exact);
	if (c->by_reps && off < len)
		off += (size_t)snprintf(buf + off, len - off, ", %zu on repetitions "
					"(--noise-model reps)", c->by_reps);
	if (judged < pairs && off < len)
		snprintf(buf + off, len - off, "; not judged: %zu no-model, %zu few-runs, "
			 "%zu one-sweep, %zu moved, %zu disturbed", nomodel, few, sweep1,
			 count_verdict(c, VSB_CW_MOVED),
			 count_verdict(c, VSB_CW_DISTURBED));
	return nomodel || few || sweep1;
}

/* summary.md's noise model cell: which, and the between-run CV it took */
static void model_cell(const struct vsb_cmp_verdict *v, char *buf, size_t len)
{
	const char *m = v->model ? v->model : "none";

	if (!strcmp(m, "store"))
		snprintf(buf, len, "store: CV %.2g%% over %zu runs", 100 * v->model_cv,
			 v->model_n);
	else if (!strcmp(m, "runs"))
		snprintf(buf, len, "runs: %zu + %zu, CV %.2g%%", v->rb, v->rn,
			 100 * v->between);
	else if (!strcmp(m, "runs+store"))
		snprintf(buf, len, "runs: %zu + %zu, CV %.2g%%; sweeps (store): CV %.2g%% "
			 "over %zu", v->rb, v->rn, 100 * v->between, 100 * v->model_cv,
			 v->model_n);
	else if (!strcmp(m, "reps"))
		snprintf(buf, len, "repetitions");
	else if (!strcmp(m, "exact") && v->mixv.line[0])
		snprintf(buf, len, "exact, by %s: %s%s%s", v->rule, v->mixv.line,
			 v->mixv.why[0] ? "; " : "", v->mixv.why);
	else if (!strcmp(m, "exact"))
		snprintf(buf, len, "exact: instruction counts");
	else
		snprintf(buf, len, "none");
}

/* DIR/summary.md: the verdicts as a markdown table, for a CI page */
static int write_md(const char *dir, const struct vsb_compare *c,
		    const struct vsb_cmp_opts *o, int chart)
{
	struct vsb_outfile md;
	char path[4096 + 32], runs[512], basis[512], line[512], alpha[128];
	size_t i;
	int r;

	runs_line(c, o, runs, sizeof(runs));
	basis_line(c, o, basis, sizeof(basis));
	vsb_cmp_alpha_words(c, o, alpha, sizeof(alpha));
	snprintf(path, sizeof(path), "%s/summary.md", dir);
	r = vsb_outfile_open(&md, path, "-o");
	if (r)
		return r;
	fprintf(md.f, "# vmstat-bench compare\n\n- base: `%s`\n- new: `%s`\n",
		c->base.path, c->new.path);
	sides_md(md.f, c);
	vsb_cmp_headline(c, o, line, sizeof(line));
	fprintf(md.f, "- **verdict: %s**%s\n"
		"- rule: slower/faster needs Mann-Whitney p < %s and a change beyond "
		"the noise floor (max of %g%% and either side's CV); same needs the "
		"95%% CI of NEW/BASE inside 1 +- %g%% and the floor no wider; else "
		"inconclusive, with its MDE (the smallest change the row could call); "
		"unit insn: a class moved beyond max(0.1%% of base, 0.05) per op, "
		"slower or faster only where the mix moved one way or every cost "
		"model agrees, else changed (docs/exact.md)\n- %s\n- noise model "
		"`%s`: %s\n",
		line, c->unmatched ? " (points on one side only are listed below)" : "",
		alpha, o->noise_pct, o->max_regression_pct, runs, model_name(o), basis);
	if (c->store_url)
		fprintf(md.f, "- store: `%s`\n", c->store_url);
	if (shift_line(c, o, line, sizeof(line)))
		fprintf(md.f, "- %s\n", line);
	if (c->ndisturbed)
		fprintf(md.f, "- %zu repetition%s left out: another task disturbed them "
			"(their `disturbed` column)\n", c->ndisturbed,
			c->ndisturbed == 1 ? "" : "s");
	fprintf(md.f, "\n| point | base | new | NEW/BASE [95%% CI] | p | verdict | MDE | "
		"noise model |\n|---|---:|---:|---|---:|---|---:|---|\n");
	for (i = 0; i < c->nv; i++) {
		const struct vsb_cmp_verdict *v = &c->vs[i];
		char model[640];

		model_cell(v, model, sizeof(model));
		fprintf(md.f, "| %s | %.4g %s | %.4g | %.3f [%.3f, %.3f] | %.3g | %s%s | ",
			v->label, v->mb, vsb_cmp_any(v)->unit, v->mn, v->ratio, v->lo,
			v->hi, v->p, v->verdict, v->regression ? " **REGRESSION**" : "");
		if (isnan(v->mde))
			fputs("|", md.f);
		else
			fprintf(md.f, "%.3g%% |", 100 * v->mde);
		fprintf(md.f, " %s |\n", model);
	}
	if (chart)
		fprintf(md.f, "\n![regression chart](regression.png)\n");
	return vsb_outfile_commit(&md);
}

/* What -o DIR gets: write_csv's, write_md's, vsb_chart_compare's two. */
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

/*
 * The chart of DIR/compare.csv, as `plot DIR` draws it later; 1 when it
 * was drawn.  A chart of an earlier comparison in the folder goes first:
 * left there, it would pass for this one's.  A chart that fails is said,
 * not returned: the verdicts, their exit code and the files that hold
 * them stand without it.
 */
static int draw_chart(const char *dir)
{
	static const char *const charts[] = { "regression.png", "regression.svg" };
	char path[4096 + 32];
	size_t i;

	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, charts[i]);
		unlink(path);
	}
	if (!vsb_have_gnuplot()) {
		vsb_warn("gnuplot not found: no regression chart (apt-get install gnuplot-nox)");
		return 0;
	}
	snprintf(path, sizeof(path), "%s/compare.csv", dir);
	if (vsb_chart_compare(path, dir))
		vsb_warn("no regression chart in %s: compare.csv and summary.md hold the "
			 "verdicts", dir);
	snprintf(path, sizeof(path), "%s/%s", dir, charts[0]);
	return access(path, F_OK) == 0;
}

/* compare.csv, the chart, summary.md (which links the chart if drawn) */
static int write_outputs(const char *dir, const struct vsb_compare *c,
			 const struct vsb_cmp_opts *o)
{
	int r;

	if (vsb_mkdir_p(dir, 0755)) {
		vsb_err("-o: cannot create %s: %s", dir, strerror(errno));
		return VSB_EXIT_ERROR;
	}
	r = write_csv(dir, c, o);
	return r ?: write_md(dir, c, o, draw_chart(dir));
}

/*
 * AUTO on stderr: points left unjudged for want of a noise model, and
 * how to get one; then the basis of what was judged.
 */
static void auto_lines(const struct vsb_compare *c, const struct vsb_cmp_opts *o)
{
	size_t nomodel = count_verdict(c, VSB_CW_NO_MODEL);
	size_t few = count_verdict(c, VSB_CW_FEW_RUNS);
	size_t sweep1 = count_verdict(c, VSB_CW_ONE_SWEEP), need = runs_needed(o->alpha);
	char basis[512];

	if (nomodel)
		vsb_warn("%zu point%s not judged (verdict `no-model`): one run a side, and "
			 "%s; `vmstat-bench sweep` spreads its repetitions over %zu worker "
			 "processes (--repeat %zu or more), which measures it, as `sweep "
			 "--runs %zu` does", nomodel, nomodel == 1 ? "" : "s",
			 c->store_url ? "the store holds too few runs of them on this "
			 "machine to know their between-run noise" :
			 "no store (--db) to learn their between-run noise from", need, need,
			 need);
	if (few)
		vsb_warn("%zu point%s not judged (verdict `few-runs`): as few as %zu runs "
			 "a side, and the rank test on per-run medians needs %zu to reach "
			 "p < %g; repetitions are not trusted instead (--noise-model reps "
			 "trusts them)", few, few == 1 ? "" : "s",
			 c->fewest_runs == (size_t)-1 ? (size_t)2 : c->fewest_runs, need,
			 o->alpha);
	if (sweep1)
		vsb_warn("%zu multi-CPU point%s not judged (verdict `one-sweep`): a "
			 "side's runs are the worker processes of one sweep, which share "
			 "the host's placement of the vCPUs and its load, so their spread "
			 "does not show how two sweeps differ; give --db a store with "
			 "earlier runs of them, or compare `sweep --runs %zu` folders",
			 sweep1, sweep1 == 1 ? "" : "s", need);
	basis_line(c, o, basis, sizeof(basis));
	vsb_note("note: %s", basis);
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
	if (c->ndisturbed)
		vsb_note("note: %zu repetition%s left out: another task ran on the "
			 "workers' CPUs during them (their `disturbed` column)",
			 c->ndisturbed, c->ndisturbed == 1 ? "" : "s");
	if (c->all_disturbed)
		vsb_warn("%zu point%s not judged (verdict `disturbed`): every repetition "
			 "of a side was disturbed by another task", c->all_disturbed,
			 c->all_disturbed == 1 ? "" : "s");
	if (shift_line(c, o, runs, sizeof(runs)))
		vsb_note("note: %s", runs);
	if (o->model == VSB_CMP_MODEL_AUTO && !o->runs_only) {
		if (c->nv > c->unmatched)
			auto_lines(c, o);
		return;
	}
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
	char runs[96] = "", alpha[128];
	size_t i;

	printf("%-44s %10s %10s %22s %9s  %s\n", "point", "base", "new",
	       "NEW/BASE [95% CI]", "p", "verdict");
	for (i = 0; i < c->nv; i++) {
		const struct vsb_cmp_verdict *v = &c->vs[i];
		char ci[64];

		snprintf(ci, sizeof(ci), "%.3f [%.3f,%.3f]", v->ratio, v->lo, v->hi);
		printf("%-44.44s %10.4g %10.4g %22s %9.2g  %s", v->label, v->mb, v->mn,
		       ci, v->p, v->verdict);
		if (vsb_cmp_is(v, VSB_CW_SLOWER) || vsb_cmp_is(v, VSB_CW_FASTER))
			printf(" (%+.1f%%)", 100 * (v->ratio - 1));
		if (vsb_cmp_is(v, VSB_CW_MOVED))
			printf(" (c2c %.0f -> %.0f ns)", v->c2c_b, v->c2c_n);
		if (vsb_cmp_is(v, VSB_CW_INCONCLUSIVE))
			printf(" (MDE %.3g%%)", 100 * v->mde);
		printf("%s\n", v->regression ? "  REGRESSION" : "");
	}
	if (c->one_run < c->nv - c->unmatched || c->by_store)
		snprintf(runs, sizeof(runs), ", %d x between-run CV", VSB_CMP_BETWEEN_K);
	if (c->by_store || c->runs_store)
		snprintf(runs + strlen(runs), sizeof(runs) - strlen(runs),
			 ", z(alpha) x sqrt 2 x the store's CV");
	vsb_cmp_alpha_words(c, o, alpha, sizeof(alpha));
	printf("(cost per op in %s; %zu regression%s beyond %g%%; alpha %s; noise floor "
	       "max(%g%%, CV%s)%s)\n", unit, c->nreg, c->nreg == 1 ? "" : "s",
	       o->max_regression_pct, alpha, o->noise_pct,
	       runs,
	       c->unmatched ? "; unmatched points listed on stderr" : "");
	if (o->model == VSB_CMP_MODEL_AUTO && !o->runs_only && c->nv > c->unmatched) {
		char basis[512];

		basis_line(c, o, basis, sizeof(basis));
		printf("(%s)\n", basis);
	}
	if (c->nv > c->unmatched) {
		char line[512];

		vsb_cmp_headline(c, o, line, sizeof(line));
		printf("verdict: %s\n", line);
	}
	fflush(stdout);
}

int vsb_compare_report(struct vsb_compare *c, const struct vsb_cmp_opts *o,
		       const char *base, const char *new, const char *outdir)
{
	return vsb_compare_report_db(c, o, base, new, outdir, NULL);
}

/* Loaded sides to the outputs: match, judge, say, write; the status. */
static int judge_report(struct vsb_compare *c, const struct vsb_cmp_opts *o,
			const char *outdir, int db)
{
	int ret = vsb_cmp_match(c);

	if (!ret && db)
		ret = vsb_cmp_store_noise(c, c->store_url);
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
	return ret ?: vsb_cmp_status(c);
}

int vsb_compare_report_db(struct vsb_compare *c, const struct vsb_cmp_opts *o,
			  const char *base, const char *new, const char *outdir,
			  const char *db)
{
	int ret = outdir ? outdir_refusal(outdir) : 0;

	/* the store must be there before anything is read */
	c->store_url = db ? vsb_store_url(vsb_store_arg(db)) : NULL;
	if (!ret && db)
		ret = vsb_store_check(c->store_url, VSB_STORE_READ);
	c->runs_only = o->runs_only;
	c->drop_disturbed = o->drop_disturbed;
	ret = ret ?: vsb_cmp_load(c, &c->base, base);
	ret = ret ?: vsb_cmp_load(c, &c->new, new);
	return ret ?: judge_report(c, o, outdir, db != NULL);
}

int vsb_compare_report_paths(struct vsb_compare *c, const struct vsb_cmp_opts *o,
			     const char *bname, const char *const *base, size_t nb,
			     const char *nname, const char *const *new, size_t nn,
			     const char *outdir)
{
	int ret = outdir ? outdir_refusal(outdir) : 0;
	size_t i;

	c->store_url = NULL;
	c->runs_only = o->runs_only;
	c->drop_disturbed = o->drop_disturbed;
	for (i = 0; i < nb && !ret; i++)
		ret = vsb_cmp_load(c, &c->base, base[i]);
	for (i = 0; i < nn && !ret; i++)
		ret = vsb_cmp_load(c, &c->new, new[i]);
	/* the outputs name the sides, not their last path */
	c->base.path = bname;
	c->new.path = nname;
	return ret ?: judge_report(c, o, outdir, 0);
}
