// SPDX-License-Identifier: GPL-2.0
/*
 * `vmstat-bench compare BASE NEW`: is NEW slower than BASE, point by point?
 *
 * Points are matched by their parameter columns; per point the samples
 * are the per-repetition costs (the mean over workers of each
 * repetition, as in the summary's "all" row).  A verdict needs two
 * things: a two-sided Mann-Whitney p below --alpha (the change is not
 * chance) and a change of the medians beyond the noise floor (the
 * change is large enough to matter on this machine).  Neither alone is
 * enough: with many repetitions a 0.3% shift is "significant", and with
 * few a 20% shift can be noise.  See docs/sweeps.md.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmds.h"
#include "csvread.h"
#include "sweep.h"

/*
 * What makes two rows the same point.  loops, repeat and warmup are not
 * here on purpose: the cost is per operation, so a quicker setting on
 * one side still compares.  Columns a file lacks are skipped, columns
 * added later (ncpus, placement) count when present.  Every other
 * parameter column of result.c is here: append both together.
 */
static unsigned int ignored;	/* bit k: match_cols[k] left out (--ignore) */

static const char *const match_cols[] = {
	"bench", "backend", "variant", "cpus", "nthreads", "ncpus", "placement",
	"threshold", "diff_bits", "items", "batch", "delta", "order", "outstanding",
	"preempt", "irqs", "gfp", "size", "thp", "tasks", "sysctl",
	"fold", "fold_interval_us", "drift", "quiet_workers",
	"model_cpus", "model_nodes", "approach",
};
#define NMATCH (sizeof(match_cols) / sizeof(match_cols[0]))
_Static_assert(NMATCH <= 32, "--ignore keeps one bit per match column");

#define MIN_REPS 5

struct cpoint {
	char key[1024];		/* match values joined by '|' */
	char vals[NMATCH][128];
	char unit[16];
	size_t n, cap;
	double *v;		/* per-repetition cost */
};

struct side {
	const char *path;
	size_t n;
	struct cpoint *pts;
	char cpu_model[256], kernel[256];
};

static struct cpoint *side_point(struct side *s, const char *key)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->pts[i].key, key))
			return &s->pts[i];
	s->pts = realloc(s->pts, (s->n + 1) * sizeof(*s->pts));
	if (!s->pts) {
		vsb_err("out of memory");
		exit(VSB_EXIT_ERROR);
	}
	memset(&s->pts[s->n], 0, sizeof(s->pts[0]));
	snprintf(s->pts[s->n].key, sizeof(s->pts[0].key), "%s", key);
	return &s->pts[s->n++];
}

static void point_push(struct cpoint *p, double v)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 16;
		p->v = realloc(p->v, p->cap * sizeof(*p->v));
		if (!p->v) {
			vsb_err("out of memory");
			exit(VSB_EXIT_ERROR);
		}
	}
	p->v[p->n++] = v;
}

/* One raw-sample CSV into @s: per point and repetition, the mean cost. */
static int load_file(struct side *s, const char *path)
{
	int cm[NMATCH], crep, cper, cunit, ret;
	struct vsb_csv c;
	size_t r, k, i;
	const char *m;

	ret = vsb_csv_read(path, &c);
	if (ret)
		return ret;
	crep = vsb_csv_col(&c, "rep");
	cper = vsb_csv_col(&c, "per_op");
	cunit = vsb_csv_col(&c, "unit");
	if (crep < 0 || cper < 0 || cunit < 0) {
		vsb_err("%s: no rep/per_op/unit columns: compare needs raw sample "
			"files (the .csv, not the .summary.csv)", path);
		vsb_csv_free(&c);
		return VSB_EXIT_USAGE;
	}
	for (k = 0; k < NMATCH; k++)
		cm[k] = vsb_csv_col(&c, match_cols[k]);
	if (!s->cpu_model[0] && (m = vsb_csv_meta(&c, "cpu_model")))
		snprintf(s->cpu_model, sizeof(s->cpu_model), "%s", m);
	if (!s->kernel[0] && (m = vsb_csv_meta(&c, "kernel")))
		snprintf(s->kernel, sizeof(s->kernel), "%s", m);

	for (r = 0; r < c.nrows; ) {
		char key[1024];
		size_t off = 0, end, base;
		struct cpoint *p;
		unsigned long maxrep = 0;
		double *sum, *cnt;

		for (k = 0; k < NMATCH; k++)
			off += snprintf(key + off, sizeof(key) - off, "%s|",
					ignored & (1u << k) ? "" : vsb_csv_cell(&c, r, cm[k]));
		/* the rows of one point are contiguous in our files */
		for (end = r; end < c.nrows; end++) {
			char k2[1024];
			size_t o2 = 0;

			for (k = 0; k < NMATCH; k++)
				o2 += snprintf(k2 + o2, sizeof(k2) - o2, "%s|",
					       ignored & (1u << k) ? "" :
					       vsb_csv_cell(&c, end, cm[k]));
			if (strcmp(k2, key))
				break;
			if ((unsigned long)vsb_csv_num(&c, end, crep) > maxrep)
				maxrep = (unsigned long)vsb_csv_num(&c, end, crep);
		}
		p = side_point(s, key);
		for (k = 0; k < NMATCH; k++)
			snprintf(p->vals[k], sizeof(p->vals[k]), "%s",
				 vsb_csv_cell(&c, r, cm[k]));
		if (p->unit[0] && strcmp(p->unit, vsb_csv_cell(&c, r, cunit))) {
			vsb_err("%s: the same point in %s and %s units: refusing to mix",
				path, p->unit, vsb_csv_cell(&c, r, cunit));
			vsb_csv_free(&c);
			return VSB_EXIT_USAGE;
		}
		snprintf(p->unit, sizeof(p->unit), "%s", vsb_csv_cell(&c, r, cunit));
		sum = vsb_zalloc((maxrep + 1) * sizeof(double));
		cnt = vsb_zalloc((maxrep + 1) * sizeof(double));
		for (i = r; i < end; i++) {
			double rep = vsb_csv_num(&c, i, crep), v = vsb_csv_num(&c, i, cper);

			if (isnan(rep) || isnan(v) || rep < 0) {
				vsb_err("%s: row %zu: rep or per_op is not a number", path,
					i + 1);
				free(sum);
				free(cnt);
				vsb_csv_free(&c);
				return VSB_EXIT_USAGE;
			}
			sum[(size_t)rep] += v;
			cnt[(size_t)rep] += 1;
		}
		base = p->n;
		for (i = 0; i <= maxrep; i++)
			if (cnt[i] > 0)
				point_push(p, sum[i] / cnt[i]);
		(void)base;
		free(sum);
		free(cnt);
		r = end;
	}
	vsb_csv_free(&c);
	return 0;
}

static int is_raw_csv(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && !strcmp(name + n - 4, ".csv") &&
	       !(n > 12 && !strcmp(name + n - 12, ".summary.csv")) &&
	       strcmp(name, "sweep.csv") && strcmp(name, "compare.csv");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * A sweep directory: the points points.txt lists as done (so stale files
 * of an older sweep in the same place do not count); any other
 * directory: every raw CSV in it.
 */
static int load_side(struct side *s, const char *path)
{
	char list[4096 + 16], file[8192], line[2048];
	struct stat st;
	FILE *f;
	int ret = 0;

	if (stat(path, &st)) {
		vsb_err("%s: no such file or directory", path);
		return VSB_EXIT_USAGE;
	}
	s->path = path;
	if (!S_ISDIR(st.st_mode))
		return load_file(s, path);
	snprintf(list, sizeof(list), "%s/points.txt", path);
	f = fopen(list, "r");
	if (f) {
		while (!ret && fgets(line, sizeof(line), f)) {
			char *id = line, *state;

			if (line[0] == '#')
				continue;
			state = strchr(line, '\t');
			if (!state)
				continue;
			*state++ = '\0';
			if (strncmp(state, "done\t", 5))
				continue;
			snprintf(file, sizeof(file), "%s/%s.csv", path, id);
			ret = load_file(s, file);
		}
		fclose(f);
	} else {
		DIR *d = opendir(path);
		struct dirent *de;
		char **names = NULL;
		size_t n = 0, i;

		if (!d) {
			vsb_err("%s: cannot read the directory", path);
			return VSB_EXIT_USAGE;
		}
		while ((de = readdir(d)))
			if (is_raw_csv(de->d_name)) {
				char **more = realloc(names, (n + 1) * sizeof(*names));

				if (!more) {
					vsb_err("out of memory");
					exit(VSB_EXIT_ERROR);
				}
				names = more;
				names[n++] = strdup(de->d_name);
			}
		closedir(d);
		qsort(names, n, sizeof(*names), cmp_str);
		for (i = 0; i < n; i++) {
			snprintf(file, sizeof(file), "%s/%s", path, names[i]);
			if (!ret)
				ret = load_file(s, file);
			free(names[i]);
		}
		free(names);
	}
	if (!ret && !s->n) {
		vsb_err("%s: no finished points with raw samples", path);
		ret = VSB_EXIT_USAGE;
	}
	return ret;
}

struct verdict {
	struct cpoint *b, *n;
	char label[512];
	double mb, mn, ratio, lo, hi, p, noise;
	int exact;
	const char *verdict;
	int regression;
};

static double cv_of(const double *v, size_t n)
{
	struct vsb_stats st;

	vsb_stats_compute(v, n, &st);
	return isnan(st.cv) ? 0 : st.cv;
}

/*
 * Label a point by what tells it apart: its variant, then the match
 * columns that differ between points, leaving out the ones that mean
 * nothing for it (threshold for percpu-counter, batch for the others)
 * and cpus when nthreads already varies with it.
 */
static int col_index(const char *name)
{
	size_t k;

	for (k = 0; k < NMATCH; k++)
		if (!strcmp(match_cols[k], name))
			return (int)k;
	return -1;
}

static void make_labels(struct verdict *vs, size_t nv)
{
	static const char *const shortname[][2] = {
		{ "nthreads", "threads" }, { "threshold", "thr" },
		{ "diff_bits", "bits" }, { "outstanding", "outst" },
	};
	int vary[NMATCH] = { 0 }, kvar = col_index("variant");
	size_t i, k, s;

	for (k = 0; k < NMATCH; k++)
		for (i = 1; i < nv; i++) {
			const struct cpoint *a = vs[0].b ? vs[0].b : vs[0].n;
			const struct cpoint *x = vs[i].b ? vs[i].b : vs[i].n;

			if (strcmp(a->vals[k], x->vals[k]))
				vary[k] = 1;
		}
	if (vary[col_index("cpus")])
		vary[col_index("nthreads")] = 0;
	for (i = 0; i < nv; i++) {
		const struct cpoint *x = vs[i].b ? vs[i].b : vs[i].n;
		int pcc = !strcmp(x->vals[kvar], "percpu-counter");
		size_t off = 0;

		off += snprintf(vs[i].label, sizeof(vs[i].label), "%s",
				x->vals[kvar][0] ? x->vals[kvar] : x->vals[0]);
		for (k = 0; k < NMATCH; k++) {
			const char *name = match_cols[k];

			if (!vary[k] || (int)k == kvar || !x->vals[k][0])
				continue;
			if ((pcc && (!strcmp(name, "threshold") ||
				     !strcmp(name, "diff_bits"))) ||
			    (!pcc && !strcmp(name, "batch")))
				continue;
			for (s = 0; s < sizeof(shortname) / sizeof(shortname[0]); s++)
				if (!strcmp(name, shortname[s][0]))
					name = shortname[s][1];
			if (off < sizeof(vs[i].label))
				off += snprintf(vs[i].label + off, sizeof(vs[i].label) - off,
						" %s=%s", name, x->vals[k]);
		}
	}
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: vmstat-bench compare BASE NEW [--alpha A] [--noise PCT]\n"
"                            [--max-regression PCT] [-o DIR]\n"
"\n"
"Compare two results point by point.  BASE and NEW are sweep directories\n"
"or raw-sample CSV files (from `run -o x.csv`).  Points match by bench,\n"
"backend, variant, cpus, nthreads, threshold, diff_bits, items, batch,\n"
"delta, order, outstanding (not loops or repeat: costs are per op).\n"
"\n"
"Per point: median cost NEW/BASE with a bootstrap 95%% CI, a two-sided\n"
"Mann-Whitney U p-value over the repetitions, and a verdict: slower or\n"
"faster when p < alpha AND the change exceeds the noise floor, else\n"
"no-change.  The noise floor is the larger of --noise and the coefficient\n"
"of variation of either side's repetitions.\n"
"\n"
"options:\n"
"  -a, --alpha A               significance level [0.01]\n"
"      --noise PCT             smallest change that counts, in %% [2]\n"
"  -m, --max-regression PCT    exit 1 when a point is slower by more [5]\n"
"  -o, --output DIR            write compare.csv, summary.md and the\n"
"                              regression chart (PNG, SVG) into DIR\n"
"      --ignore COL[,COL]      match points even when these columns differ\n"
"                              (e.g. variant: is atomic-global slower than\n"
"                              cmpxchg-local?); labels show BASE's values\n"
"  -h, --help                  this text\n"
"\n"
"examples:\n"
"  vmstat-bench compare results/base results/patched\n"
"  vmstat-bench compare base.csv new.csv --max-regression 2 -o cmp/\n"
"\n"
"exit status: 0 no regression, 1 a point regressed beyond the limit (or an\n"
"error), 2 bad input (also: units differ), 4 no point matched.\n");
}

static int parse_pct(const char *opt, const char *s, double min, double max,
		     double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (!*s || *end || !(v >= min && v <= max)) {
		vsb_err("%s: '%s' is not a number in %g..%g", opt, s, min, max);
		return VSB_EXIT_USAGE;
	}
	*out = v;
	return 0;
}

/* --ignore variant,batch: match points that differ in these columns */
static int parse_ignore(const char *list)
{
	char buf[256], *tok, *save = NULL;
	size_t k;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (k = 0; k < NMATCH; k++)
			if (!strcmp(tok, match_cols[k]))
				break;
		if (k == NMATCH) {
			vsb_err("--ignore: '%s' is not a matching column", tok);
			return VSB_EXIT_USAGE;
		}
		ignored |= 1u << k;
	}
	return 0;
}

static void write_outputs(const char *dir, const struct side *bs,
			  const struct side *ns, struct verdict *vs, size_t nv,
			  double alpha, double noise, double maxreg, int *ret)
{
	struct vsb_outfile csv, md;
	char path[4096 + 32], title[512];
	size_t i, k, nslow = 0, nfast = 0, nreg = 0;
	int r;

	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/compare.csv", dir);
	r = vsb_outfile_open(&csv, path, "-o");
	if (r) {
		*ret = r;
		return;
	}
	fprintf(csv.f, "# base: %s\n# new: %s\n# alpha: %g\n# noise_pct: %g\n"
		"# max_regression_pct: %g\n# cpu_model: %s\n# kernel: %s\n"
		"# new_cpu_model: %s\n# new_kernel: %s\n", bs->path, ns->path, alpha,
		noise, maxreg, bs->cpu_model, bs->kernel, ns->cpu_model, ns->kernel);
	fputs("index,label", csv.f);
	for (k = 0; k < NMATCH; k++)
		fprintf(csv.f, ",%s", match_cols[k]);
	fputs(",unit,n_base,n_new,median_base,median_new,ratio,ratio_ci_lo,"
	      "ratio_ci_hi,p,exact,noise_pct,verdict,regression\n", csv.f);
	for (i = 0; i < nv; i++) {
		const struct verdict *v = &vs[i];
		const struct cpoint *x = v->b ? v->b : v->n;

		fprintf(csv.f, "%zu,%s", i, v->label);
		for (k = 0; k < NMATCH; k++)
			fprintf(csv.f, ",%s", x->vals[k]);
		fprintf(csv.f, ",%s,%zu,%zu,%.6g,%.6g,%.6g,%.6g,%.6g,%.4g,%d,%.3g,%s,%d\n",
			x->unit, v->b ? v->b->n : 0, v->n ? v->n->n : 0, v->mb, v->mn,
			v->ratio, v->lo, v->hi, v->p, v->exact, 100 * v->noise,
			v->verdict, v->regression);
		nslow += !strcmp(v->verdict, "slower");
		nfast += !strcmp(v->verdict, "faster");
		nreg += v->regression;
	}
	r = vsb_outfile_commit(&csv);
	if (r) {
		*ret = r;
		return;
	}

	snprintf(path, sizeof(path), "%s/summary.md", dir);
	r = vsb_outfile_open(&md, path, "-o");
	if (r) {
		*ret = r;
		return;
	}
	fprintf(md.f, "# vmstat-bench compare\n\n- base: `%s`\n- new: `%s`\n"
		"- machine: %s; kernel: %s\n- verdicts: %zu slower, %zu faster, "
		"%zu no change; **%zu regression%s** beyond %g%%\n"
		"- rule: slower/faster needs Mann-Whitney p < %g and a change beyond "
		"the noise floor (max of %g%% and either side's CV)\n\n",
		bs->path, ns->path, bs->cpu_model, bs->kernel, nslow, nfast,
		nv - nslow - nfast, nreg, nreg == 1 ? "" : "s", maxreg, alpha, noise);
	fprintf(md.f, "| point | base | new | NEW/BASE [95%% CI] | p | verdict |\n"
		"|---|---:|---:|---|---:|---|\n");
	for (i = 0; i < nv; i++) {
		const struct verdict *v = &vs[i];
		const struct cpoint *x = v->b ? v->b : v->n;

		fprintf(md.f, "| %s | %.4g %s | %.4g | %.3f [%.3f, %.3f] | %.3g | %s%s |\n",
			v->label, v->mb, x->unit, v->mn, v->ratio, v->lo, v->hi, v->p,
			v->verdict, v->regression ? " **REGRESSION**" : "");
	}
	if (vsb_have_gnuplot())
		fprintf(md.f, "\n![regression chart](regression.png)\n");
	r = vsb_outfile_commit(&md);
	if (r) {
		*ret = r;
		return;
	}
	if (!vsb_have_gnuplot()) {
		vsb_warn("gnuplot not found: no regression chart (apt-get install gnuplot-nox)");
		return;
	}
	vsb_plot_title(bs->cpu_model, bs->kernel, title, sizeof(title));
	snprintf(path, sizeof(path), "%s/compare.csv", dir);
	{
		char vars[64];

		snprintf(vars, sizeof(vars), "npoints=%zu;", nv);
		r = vsb_plot_chart("regression", path, dir, title, vars);
	}
	if (r && !*ret)
		*ret = r;
}

int vsb_cmd_compare(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "alpha", required_argument, NULL, 'a' },
		{ "noise", required_argument, NULL, 'N' },
		{ "max-regression", required_argument, NULL, 'm' },
		{ "output", required_argument, NULL, 'o' },
		{ "ignore", required_argument, NULL, 'I' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	double alpha = 0.01, noise = 2, maxreg = 5;
	struct side bs = { 0 }, ns = { 0 };
	struct verdict *vs = NULL;
	const char *outdir = NULL;
	size_t i, j, nv = 0, fewest = (size_t)-1, unmatched = 0;
	int c, ret, nreg = 0;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "a:m:o:h", lopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			ret = parse_pct("--alpha", optarg, 1e-9, 0.5, &alpha);
			break;
		case 'N':
			ret = parse_pct("--noise", optarg, 0, 1000, &noise);
			break;
		case 'm':
			ret = parse_pct("--max-regression", optarg, 0, 1e6, &maxreg);
			break;
		case 'o':
			outdir = optarg;
			ret = 0;
			break;
		case 'I':
			ret = parse_ignore(optarg);
			break;
		case 'h':
			usage(stdout);
			return VSB_EXIT_OK;
		default:
			vsb_err("unknown or incomplete option '%s' (see compare --help)",
				argv[optind - 1]);
			return VSB_EXIT_USAGE;
		}
		if (ret)
			return ret;
	}
	if (argc - optind != 2) {
		vsb_err("compare: needs BASE and NEW (see compare --help)");
		return VSB_EXIT_USAGE;
	}
	ret = load_side(&bs, argv[optind]);
	ret = ret ?: load_side(&ns, argv[optind + 1]);
	if (ret)
		goto out;

	vs = vsb_zalloc((bs.n + ns.n) * sizeof(*vs));
	for (i = 0; i < bs.n; i++) {
		struct verdict *v = &vs[nv++];

		v->b = &bs.pts[i];
		for (j = 0; j < ns.n; j++)
			if (!strcmp(ns.pts[j].key, bs.pts[i].key))
				v->n = &ns.pts[j];
	}
	for (j = 0; j < ns.n; j++) {
		for (i = 0; i < bs.n; i++)
			if (!strcmp(ns.pts[j].key, bs.pts[i].key))
				break;
		if (i == bs.n)
			vs[nv++].n = &ns.pts[j];
	}
	/* units first: a mixed comparison is refused before any output */
	for (i = 0; i < nv; i++)
		if (vs[i].b && vs[i].n && strcmp(vs[i].b->unit, vs[i].n->unit)) {
			vsb_err("%s and %s measured a point in different units (%s vs %s): "
				"refusing to compare", bs.path, ns.path, vs[i].b->unit,
				vs[i].n->unit);
			ret = VSB_EXIT_USAGE;
			goto out;
		}
	make_labels(vs, nv);

	for (i = 0; i < nv; i++) {
		struct verdict *v = &vs[i];
		struct vsb_stats sb, sn;
		struct vsb_mwu mw;
		double change;

		v->mb = v->mn = v->ratio = v->lo = v->hi = v->p = NAN;
		if (!v->b || !v->n) {
			v->verdict = v->b ? "only-base" : "only-new";
			vsb_warn("point only in %s: %s", v->b ? "BASE" : "NEW", v->label);
			unmatched++;
			if (v->b)
				vsb_stats_compute(v->b->v, v->b->n, &sb), v->mb = sb.median;
			else
				vsb_stats_compute(v->n->v, v->n->n, &sn), v->mn = sn.median;
			continue;
		}
		vsb_stats_compute(v->b->v, v->b->n, &sb);
		vsb_stats_compute(v->n->v, v->n->n, &sn);
		v->mb = sb.median;
		v->mn = sn.median;
		v->ratio = v->mn / v->mb;
		vsb_ratio_ci(v->b->v, v->b->n, v->n->v, v->n->n, VSB_BOOT_SEED,
			     &v->lo, &v->hi);
		vsb_mann_whitney(v->b->v, v->b->n, v->n->v, v->n->n, &mw);
		v->p = mw.p;
		v->exact = mw.exact;
		v->noise = fmax(noise / 100, fmax(cv_of(v->b->v, v->b->n),
						  cv_of(v->n->v, v->n->n)));
		change = v->ratio - 1;
		if (v->p < alpha && fabs(change) > v->noise)
			v->verdict = change > 0 ? "slower" : "faster";
		else
			v->verdict = "no-change";
		v->regression = change > 0 && !strcmp(v->verdict, "slower") &&
				100 * change > maxreg;
		nreg += v->regression;
		if (v->b->n < fewest)
			fewest = v->b->n;
		if (v->n->n < fewest)
			fewest = v->n->n;
	}
	if (fewest < MIN_REPS && fewest != (size_t)-1)
		vsb_warn("as few as %zu repetitions on a side: the rank test needs about "
			 "%d per side to reach p < %g (3 vs 3 can never go below 0.1); "
			 "use --repeat 10", fewest, MIN_REPS, alpha);

	printf("%-44s %10s %10s %22s %9s  %s\n", "point", "base", "new",
	       "NEW/BASE [95% CI]", "p", "verdict");
	for (i = 0; i < nv; i++) {
		const struct verdict *v = &vs[i];
		char ci[64];

		snprintf(ci, sizeof(ci), "%.3f [%.3f,%.3f]", v->ratio, v->lo, v->hi);
		printf("%-44.44s %10.4g %10.4g %22s %9.2g  %s", v->label, v->mb, v->mn,
		       ci, v->p, v->verdict);
		if (!strcmp(v->verdict, "slower") || !strcmp(v->verdict, "faster"))
			printf(" (%+.1f%%)", 100 * (v->ratio - 1));
		printf("%s\n", v->regression ? "  REGRESSION" : "");
	}
	printf("(cost per op in %s; %d regression%s beyond %g%%; alpha %g; noise floor "
	       "max(%g%%, CV)%s)\n", vs[0].b ? vs[0].b->unit : vs[0].n->unit, nreg,
	       nreg == 1 ? "" : "s", maxreg, alpha, noise,
	       unmatched ? "; unmatched points listed on stderr" : "");
	fflush(stdout);
	if (outdir)
		write_outputs(outdir, &bs, &ns, vs, nv, alpha, noise, maxreg, &ret);
	if (!ret && nv == unmatched) {
		vsb_err("no point of %s matches one of %s", bs.path, ns.path);
		ret = VSB_EXIT_SKIP;
	}
	if (!ret && nreg)
		ret = VSB_EXIT_ERROR;
out:
	for (i = 0; i < bs.n; i++)
		free(bs.pts[i].v);
	for (i = 0; i < ns.n; i++)
		free(ns.pts[i].v);
	free(bs.pts);
	free(ns.pts);
	free(vs);
	return ret;
}
