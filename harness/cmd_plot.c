// SPDX-License-Identifier: GPL-2.0
/*
 * `vmstat-bench plot DIR`: gnuplot charts of a sweep or a comparison.
 *
 * The charts themselves are plots/<chart>.gp; they read sweep.csv or
 * compare.csv and nothing else, so a user can rerun or restyle them by
 * hand.  This file decides which charts a result supports (a threshold
 * chart needs more than one threshold, ...) and hands each script the
 * lists it iterates over (core counts, variants), which gnuplot cannot
 * collect from a CSV by itself.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmds.h"
#include "csvread.h"
#include "sweep.h"

const char *vsb_plots_dir(void)
{
	static char dir[4096 + 16];
	char exe[4096], probe[4096 + 32];
	const char *env = getenv("VSB_PLOTS_DIR");
	ssize_t n;
	char *slash;

	if (env && *env)
		return env;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			/* build/vmstat-bench -> plots/ beside build/ */
			snprintf(dir, sizeof(dir), "%s/../plots", exe);
			snprintf(probe, sizeof(probe), "%s/common.gp", dir);
			if (access(probe, R_OK) == 0)
				return dir;
		}
	}
	if (access("plots/common.gp", R_OK) == 0)
		return "plots";
	return NULL;
}

int vsb_have_gnuplot(void)
{
	const char *path = getenv("PATH");
	char buf[4096];

	while (path && *path) {
		size_t n = strcspn(path, ":");

		snprintf(buf, sizeof(buf), "%.*s/gnuplot", (int)n, path);
		if (n && access(buf, X_OK) == 0)
			return 1;
		path += n + (path[n] == ':');
	}
	return 0;
}

void vsb_plot_title(const char *cpu_model, const char *kernel, char *buf,
		    size_t len)
{
	char rel[128] = "";
	char *c;

	/* "Linux 6.1.0-18-amd64 #1 SMP ..." -> "Linux 6.1.0-18-amd64" */
	if (kernel && *kernel)
		snprintf(rel, sizeof(rel), "%.*s", (int)(strcspn(kernel, "#") ?: 64),
			 kernel);
	for (c = rel + strlen(rel); c > rel && c[-1] == ' '; )
		*--c = '\0';
	snprintf(buf, len, "%s%s%s", cpu_model && *cpu_model ? cpu_model : "unknown CPU",
		 rel[0] ? ", " : "", rel);
	/* gnuplot single-quoted strings: no quotes or backslashes inside */
	for (c = buf; *c; c++)
		if (*c == '\'' || *c == '\\' || *c == '"')
			*c = '`';
}

static int quote_ok(const char *s)
{
	return !strpbrk(s, "'\n\\");
}

int vsb_plot_chart(const char *chart, const char *csv, const char *outdir,
		   const char *title, const char *vars)
{
	static const char *const fmts[] = { "png", "svg" };
	const char *dir = vsb_plots_dir();
	char script[4096 + 64], out[4096 + 64], tmp[4096 + 80], err[4096 + 80];
	char *expr = NULL, line[512];
	size_t i;
	int status, ret = 0;

	if (!dir) {
		vsb_err("plot: cannot find the gnuplot scripts (plots/); set VSB_PLOTS_DIR");
		return VSB_EXIT_ERROR;
	}
	if (!quote_ok(csv) || !quote_ok(outdir)) {
		vsb_err("plot: %s: quotes or backslashes in a path", outdir);
		return VSB_EXIT_USAGE;
	}
	snprintf(script, sizeof(script), "%s/%s.gp", dir, chart);
	for (i = 0; i < 2 && !ret; i++) {
		pid_t pid;
		FILE *ef;

		snprintf(out, sizeof(out), "%s/%s.%s", outdir, chart, fmts[i]);
		snprintf(tmp, sizeof(tmp), "%s.tmp.%s", out, fmts[i]);
		snprintf(err, sizeof(err), "%s/.%s.gnuplot-err", outdir, chart);
		free(expr);
		if (asprintf(&expr, "datafile='%s'; outfile='%s'; fmt='%s'; "
			     "charttitle='%s'; plotsdir='%s'; %s", csv, tmp, fmts[i],
			     title, dir, vars) < 0) {
			vsb_err("out of memory");
			exit(VSB_EXIT_ERROR);
		}
		fflush(stdout);
		fflush(stderr);
		pid = fork();
		if (pid == 0) {
			int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);

			if (fd >= 0) {
				dup2(fd, STDERR_FILENO);
				dup2(fd, STDOUT_FILENO);
			}
			execlp("gnuplot", "gnuplot", "-e", expr, script, (char *)NULL);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0) {
			/* the first line gnuplot complained with says most */
			line[0] = '\0';
			ef = fopen(err, "r");
			while (ef && fgets(line, sizeof(line), ef))
				if (strstr(line, "rror") || strstr(line, "line "))
					break;
			if (ef)
				fclose(ef);
			line[strcspn(line, "\n")] = '\0';
			vsb_err("plot: gnuplot %s.gp failed for %s: %s", chart, fmts[i],
				line[0] ? line : "no message");
			unlink(tmp);
			ret = VSB_EXIT_ERROR;
		} else if (rename(tmp, out)) {
			vsb_err("plot: %s: %s", out, strerror(errno));
			ret = VSB_EXIT_ERROR;
		}
		unlink(err);
	}
	free(expr);
	if (!ret)
		printf("wrote %s/%s.png and .svg\n", outdir, chart);
	return ret;
}

/* ---- choosing charts for a sweep ---- */

struct strset {
	size_t n;
	char v[64][64];
	size_t count[64];
};

static void set_add(struct strset *s, const char *v)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], v)) {
			s->count[i]++;
			return;
		}
	if (s->n < 64) {
		snprintf(s->v[s->n], sizeof(s->v[0]), "%s", v);
		s->count[s->n++] = 1;
	}
}

static int cmp_num(const void *a, const void *b)
{
	double x = atof(a), y = atof(b);

	return (x > y) - (x < y);
}

static void set_sort_num(struct strset *s)
{
	/* counts are only used before sorting */
	qsort(s->v, s->n, sizeof(s->v[0]), cmp_num);
}

static void set_join(const struct strset *s, char *buf, size_t len)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < s->n && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? " " : "", s->v[i]);
}

static const char *set_most_common(const struct strset *s)
{
	size_t i, best = 0;

	for (i = 1; i < s->n; i++)
		if (s->count[i] > s->count[best])
			best = i;
	return s->n ? s->v[best] : "";
}

static int plot_sweep(const char *csvpath, const char *outdir)
{
	int cthr, cvar, cnth, cbits, cbatch, cunit, cops, ret = 0, made = 0;
	struct strset thr = { 0 }, thr_all = { 0 }, vars = { 0 }, nth = { 0 },
		      series = { 0 }, pcc_batch = { 0 }, pcc_nth = { 0 }, units = { 0 };
	char title[512], lists[4096], a[8192], b[1024], c[1024], d[8192];
	const char *fthr, *fbat;
	struct vsb_csv csv;
	size_t r, i;

	ret = vsb_csv_read(csvpath, &csv);
	if (ret)
		return ret;
	cthr = vsb_csv_col(&csv, "threshold");
	cvar = vsb_csv_col(&csv, "variant");
	cnth = vsb_csv_col(&csv, "nthreads");
	cbits = vsb_csv_col(&csv, "diff_bits");
	cbatch = vsb_csv_col(&csv, "batch");
	cunit = vsb_csv_col(&csv, "unit");
	cops = vsb_csv_col(&csv, "ops_per_sec_median");
	if (cthr < 0 || cvar < 0 || cnth < 0 || cbits < 0 || cbatch < 0 ||
	    cunit < 0 || cops < 0 || vsb_csv_col(&csv, "ci_lo") < 0) {
		vsb_err("%s: missing columns (threshold, variant, nthreads, ci_lo, ...): "
			"not a sweep.csv of this version", csvpath);
		vsb_csv_free(&csv);
		return VSB_EXIT_USAGE;
	}
	for (r = 0; r < csv.nrows; r++) {
		const char *v = vsb_csv_cell(&csv, r, cvar);
		const char *t = vsb_csv_cell(&csv, r, cthr);

		set_add(&units, vsb_csv_cell(&csv, r, cunit));
		set_add(&vars, v);
		set_add(&nth, vsb_csv_cell(&csv, r, cnth));
		if (!strcmp(v, "percpu-counter")) {
			set_add(&pcc_batch, vsb_csv_cell(&csv, r, cbatch));
			set_add(&pcc_nth, vsb_csv_cell(&csv, r, cnth));
		} else if (atol(t) > 0) {
			char s[200];

			set_add(&thr, t);
			snprintf(s, sizeof(s), "%s:%s:%s", vsb_csv_cell(&csv, r, cnth),
				 vsb_csv_cell(&csv, r, cbits), v);
			set_add(&series, s);
		}
		set_add(&thr_all, t);
	}
	if (units.n != 1) {
		vsb_err("%s: results in %zu different units: charts never mix units",
			csvpath, units.n);
		vsb_csv_free(&csv);
		return VSB_EXIT_USAGE;
	}
	vsb_plot_title(vsb_csv_meta(&csv, "cpu_model"), vsb_csv_meta(&csv, "kernel"),
		       title, sizeof(title));
	/* the other charts hold threshold and batch at their usual value */
	fthr = thr.n ? set_most_common(&thr) : "0";
	for (i = 0; i < thr.n; i++)
		if (!strcmp(thr.v[i], "125"))
			fthr = "125";
	fbat = pcc_batch.n ? set_most_common(&pcc_batch) : "0";
	set_sort_num(&nth);
	set_sort_num(&thr);
	set_sort_num(&pcc_batch);
	set_sort_num(&pcc_nth);
	set_join(&nth, b, sizeof(b));
	set_join(&vars, c, sizeof(c));
	snprintf(lists, sizeof(lists), "unit='%s'; threads='%s'; variants='%s'; "
		 "thr=%s; bat=%s; nvariants=%zu; ", units.v[0], b, c, fthr, fbat,
		 vars.n);

	if (thr.n > 1) {
		/* series "nthreads:bits:variant", sorted by threads then bits */
		char st[1024] = "", sb[1024] = "", sv[2048] = "";
		size_t o1 = 0, o2 = 0, o3 = 0, j;

		for (i = 0; i < nth.n; i++)
			for (j = 0; j < series.n; j++) {
				char tmp[64], *bits, *var;

				snprintf(tmp, sizeof(tmp), "%s", series.v[j]);
				bits = strchr(tmp, ':');
				*bits++ = '\0';
				var = strchr(bits, ':');
				*var++ = '\0';
				if (strcmp(tmp, nth.v[i]))
					continue;
				o1 += snprintf(st + o1, sizeof(st) - o1, "%s ", tmp);
				o2 += snprintf(sb + o2, sizeof(sb) - o2, "%s ", bits);
				o3 += snprintf(sv + o3, sizeof(sv) - o3, "%s ", var);
			}
		set_join(&thr, c, sizeof(c));
		snprintf(a, sizeof(a), "%s st='%s'; sb='%s'; sv='%s'; xt='%s';", lists,
			 st, sb, sv, c);
		ret = ret ?: vsb_plot_chart("threshold", csvpath, outdir, title, a);
		made++;
	}
	if (vars.n > 1) {
		ret = ret ?: vsb_plot_chart("variants", csvpath, outdir, title, lists);
		made++;
	}
	if (nth.n > 1) {
		/* per variant: throughput per CPU at the fewest CPUs, for x * it */
		char ref[1024] = "";
		size_t off = 0;

		for (i = 0; i < vars.n; i++) {
			double best = NAN;
			long bestn = 0;

			for (r = 0; r < csv.nrows; r++) {
				const char *v = vsb_csv_cell(&csv, r, cvar);
				long n = atol(vsb_csv_cell(&csv, r, cnth));

				if (strcmp(v, vars.v[i]))
					continue;
				if (strcmp(v, "percpu-counter") ?
				    (atol(vsb_csv_cell(&csv, r, cthr)) > 0 &&
				     strcmp(vsb_csv_cell(&csv, r, cthr), fthr)) :
				    strcmp(vsb_csv_cell(&csv, r, cbatch), fbat))
					continue;
				if (!bestn || n < bestn) {
					bestn = n;
					best = vsb_csv_num(&csv, r, cops) / (double)n / 1e6;
				}
			}
			off += snprintf(ref + off, sizeof(ref) - off, "%.6g ",
					isnan(best) ? 0.0 : best);
		}
		snprintf(d, sizeof(d), "%s ref='%s';", lists, ref);
		ret = ret ?: vsb_plot_chart("scaling", csvpath, outdir, title, d);
		made++;
	}
	if (pcc_batch.n > 1) {
		set_join(&pcc_nth, b, sizeof(b));
		set_join(&pcc_batch, c, sizeof(c));
		snprintf(a, sizeof(a), "%s threads='%s'; xt='%s';", lists, b, c);
		ret = ret ?: vsb_plot_chart("batch", csvpath, outdir, title, a);
		made++;
	}
	if (!made && !ret)
		printf("%s: nothing to chart: one threshold, one variant, one core "
		       "count and one batch (a chart needs an axis)\n", csvpath);
	vsb_csv_free(&csv);
	return ret;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: vmstat-bench plot DIR [-o OUTDIR]\n"
"\n"
"Draw gnuplot charts (PNG and SVG) of a sweep directory (its sweep.csv) or\n"
"a compare directory (its compare.csv), titled with the machine and kernel:\n"
"  threshold.png  cost per update vs fold threshold, one line per core count\n"
"  variants.png   update variants side by side, one bar per core count\n"
"  scaling.png    throughput vs CPUs, with the linear-scaling reference\n"
"  batch.png      percpu_counter cost vs batch, one line per core count\n"
"  regression.png NEW/BASE per point with its 95%% CI, coloured by verdict\n"
"A chart is drawn only when the results have its axis (e.g. two or more\n"
"thresholds).  Error bars are bootstrap 95%% CIs of the median.\n"
"\n"
"options:\n"
"  -o, --output OUTDIR   where the charts go [DIR]\n"
"  -h, --help            this text\n"
"\n"
"example:\n"
"  vmstat-bench sweep configs/threshold.sweep -o results/thr\n"
"  vmstat-bench plot results/thr\n"
"\n"
"exit status: 0 ok, 1 gnuplot failed, 2 bad input, 4 gnuplot missing.\n");
}

int vsb_cmd_plot(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *outdir = NULL, *dir;
	char path[4096 + 32];
	int c, ret = 0, any = 0;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", lopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			outdir = optarg;
			break;
		case 'h':
			usage(stdout);
			return VSB_EXIT_OK;
		default:
			vsb_err("unknown or incomplete option '%s' (see plot --help)",
				argv[optind - 1]);
			return VSB_EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		vsb_err("plot: needs one result directory (see plot --help)");
		return VSB_EXIT_USAGE;
	}
	dir = argv[optind];
	if (!outdir)
		outdir = dir;
	snprintf(path, sizeof(path), "%s/sweep.csv", dir);
	any = access(path, R_OK) == 0;
	snprintf(path, sizeof(path), "%s/compare.csv", dir);
	any |= access(path, R_OK) == 0;
	if (!any) {
		vsb_err("%s: no sweep.csv or compare.csv: give a `sweep -o` or "
			"`compare -o` directory", dir);
		return VSB_EXIT_USAGE;
	}
	if (!vsb_have_gnuplot()) {
		vsb_err("plot: gnuplot not found: install it (apt-get install gnuplot-nox)");
		return VSB_EXIT_SKIP;
	}
	if (mkdir(outdir, 0755) && errno != EEXIST) {
		vsb_err("-o: cannot create %s: %s", outdir, strerror(errno));
		return VSB_EXIT_USAGE;
	}
	snprintf(path, sizeof(path), "%s/sweep.csv", dir);
	if (access(path, R_OK) == 0)
		ret = plot_sweep(path, outdir);
	snprintf(path, sizeof(path), "%s/compare.csv", dir);
	if (!ret && access(path, R_OK) == 0) {
		struct vsb_csv cc;
		char title[512], vars[64];

		ret = vsb_csv_read(path, &cc);
		if (ret)
			return ret;
		vsb_plot_title(vsb_csv_meta(&cc, "cpu_model"),
			       vsb_csv_meta(&cc, "kernel"), title, sizeof(title));
		snprintf(vars, sizeof(vars), "npoints=%zu;", cc.nrows);
		vsb_csv_free(&cc);
		ret = vsb_plot_chart("regression", path, outdir, title, vars);
	}
	return ret;
}
