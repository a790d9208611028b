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
#include <stdarg.h>
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

static int set_has(const struct strset *s, const char *v)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], v))
			return 1;
	return 0;
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

/* append to a growing gnuplot expression; out of memory is fatal */
static void cat(char **buf, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void cat(char **buf, const char *fmt, ...)
{
	char *add = NULL, *n = NULL;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&add, fmt, ap);
	va_end(ap);
	if (r < 0 || asprintf(&n, "%s%s", *buf ? *buf : "", add) < 0) {
		vsb_err("out of memory");
		exit(VSB_EXIT_ERROR);
	}
	free(add);
	free(*buf);
	*buf = n;
}

/*
 * The columns the choice needs.  Those appended later (bench, fold,
 * drift, ...) are -1 in an older sweep.csv, whose rows are then all
 * plain counter rows.
 */
struct pcols {
	int thr, var, nth, bits, batch, unit, ops, med, cihi;
	int bench, backend, sysctl, fold, fival, quiet, drift, dmax, smax;
};

static const char *cell(const struct vsb_csv *c, size_t r, int col)
{
	return col < 0 ? "" : vsb_csv_cell(c, r, col);
}

static int is_counter(const struct vsb_csv *c, const struct pcols *k, size_t r)
{
	return k->bench < 0 || !strcmp(cell(c, r, k->bench), "counter");
}

/* what the classic charts show: no fold policy, every worker updating */
static int is_plain(const struct vsb_csv *c, const struct pcols *k, size_t r)
{
	const char *f = cell(c, r, k->fold);

	return is_counter(c, k, r) && (!*f || !strcmp(f, "none")) &&
	       atol(cell(c, r, k->quiet)) == 0;
}

static int is_drift(const struct vsb_csv *c, const struct pcols *k, size_t r)
{
	return is_counter(c, k, r) && atol(cell(c, r, k->drift)) != 0 &&
	       atol(cell(c, r, k->quiet)) == 0 && *cell(c, r, k->dmax);
}

static int is_quiet(const struct vsb_csv *c, const struct pcols *k, size_t r)
{
	return is_counter(c, k, r) && atol(cell(c, r, k->quiet)) > 0 &&
	       *cell(c, r, k->smax);
}

/* "variant" or, when the rows come from several backends, "variant@backend" */
static void vkey(const struct vsb_csv *c, const struct pcols *k, size_t r,
		 int multib, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", cell(c, r, k->var), multib ? "@" : "",
		 multib ? cell(c, r, k->backend) : "");
}

static int fold_rank(const char *f)
{
	return !strcmp(f, "none") ? 0 : !strcmp(f, "local") ? 1 :
	       !strcmp(f, "remote") ? 2 : 3;
}

/*
 * Live charts: one line per value of a sysctl (vm.numa_stat=0, =1) vs
 * core count.  The labels above each core count give the change from
 * the first value to the last one, so the seed's figure is read off the
 * chart, not computed from it.  col: the column compared (cost or
 * throughput); what: its name on the label.
 */
static int plot_live(const struct vsb_csv *c, const struct pcols *k,
		     const char *csvpath, const char *outdir, const char *title,
		     const char *lists, const char *bench, const char *prefix,
		     const char *chart, int col, const char *what)
{
	struct strset sys = { 0 }, nth = { 0 };
	char sl[2048], xl[1024];
	char *vars = NULL;
	size_t r, i;
	int ret;

	for (r = 0; r < c->nrows; r++)
		if (!strcmp(cell(c, r, k->bench), bench) &&
		    !strncmp(cell(c, r, k->sysctl), prefix, strlen(prefix))) {
			set_add(&sys, cell(c, r, k->sysctl));
			set_add(&nth, cell(c, r, k->nth));
		}
	if (sys.n < 2)
		return 0;
	qsort(sys.v, sys.n, sizeof(sys.v[0]), (int (*)(const void *, const void *))strcmp);
	set_sort_num(&nth);
	set_join(&sys, sl, sizeof(sl));
	set_join(&nth, xl, sizeof(xl));
	cat(&vars, "%s sysctls='%s'; maxt=%s; xt='%s'; ", lists, sl,
	    nth.v[nth.n - 1], xl);
	for (i = 0; i < nth.n; i++) {
		double first = NAN, last = NAN;

		for (r = 0; r < c->nrows; r++) {
			const char *s = cell(c, r, k->sysctl);

			if (strcmp(cell(c, r, k->bench), bench) ||
			    strcmp(cell(c, r, k->nth), nth.v[i]) || !set_has(&sys, s))
				continue;
			if (!strcmp(s, sys.v[0]))
				first = vsb_csv_num(c, r, col);
			if (!strcmp(s, sys.v[sys.n - 1]))
				last = vsb_csv_num(c, r, col);
		}
		if (isnan(first) || isnan(last) || first <= 0)
			continue;
		/* along the bottom, where no line runs: yrange starts at 0 */
		cat(&vars, "set label %zu '%s %s vs %s: %+.1f%%' at first %s, graph 0.05 "
		    "center boxed font ',10' tc rgb '#333333' front; ", i + 1, what,
		    strchr(sys.v[sys.n - 1], '=') + 1, strchr(sys.v[0], '=') + 1,
		    (last / first - 1) * 100, nth.v[i]);
	}
	cat(&vars, "set style textbox opaque noborder margins 2, 2; ");
	ret = vsb_plot_chart(chart, csvpath, outdir, title, vars);
	free(vars);
	return ret ? ret : 1;
}

/*
 * A threshold-refresh sweep (the 004 seed): sweep.csv gives the cost
 * per threshold store; the chart wants the whole bring-up, so multiply
 * by the stores of one bring-up (the `ops` of the point's raw CSV) and
 * write the table refresh.gp reads, refresh-model's columns plus the
 * CI, to OUTDIR/refresh-sweep.csv.  1: drawn, 0: nothing to draw.
 */
static int plot_refresh_sweep(const struct vsb_csv *c, const struct pcols *k,
			      const char *csvpath, const char *outdir,
			      const char *title)
{
	int cpt = vsb_csv_col(c, "point"), cmc = vsb_csv_col(c, "model_cpus"),
	    cmn = vsb_csv_col(c, "model_nodes"), cap = vsb_csv_col(c, "approach"),
	    cns = vsb_csv_col(c, "ns_per_op_median"), clo = vsb_csv_col(c, "ci_lo");
	struct strset ap = { 0 }, nodes = { 0 };
	char dir[4096], out[4096 + 64], tmp[4096 + 80], al[512], nl[256];
	const char *slash, *m;
	size_t r, n = 0;
	char *ex = NULL;
	FILE *f;
	int ret;

	if (cpt < 0 || cmc < 0 || cmn < 0 || cap < 0 || cns < 0 || clo < 0)
		return 0;
	for (r = 0; r < c->nrows; r++)
		n += !strcmp(cell(c, r, k->bench), "threshold-refresh");
	if (!n)
		return 0;
	slash = strrchr(csvpath, '/');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - csvpath) : 1,
		 slash ? csvpath : ".");
	snprintf(out, sizeof(out), "%s/refresh-sweep.csv", outdir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", out);
	f = fopen(tmp, "w");
	if (!f) {
		vsb_err("plot: %s: %s", tmp, strerror(errno));
		return VSB_EXIT_ERROR;
	}
	fprintf(f, "# derived by vmstat-bench plot from %s: seconds = cost per "
		"store x stores per bring-up\n", csvpath);
	if ((m = vsb_csv_meta(c, "cpu_model")))
		fprintf(f, "# cpu_model: %s\n", m);
	if ((m = vsb_csv_meta(c, "kernel")))
		fprintf(f, "# kernel: %s\n", m);
	fprintf(f, "approach,nodes,ncpus,iterations,seed_estimate,seconds,"
		"seconds_ci_lo,seconds_ci_hi\n");
	for (r = 0; r < c->nrows; r++) {
		char raw[4096 + 300];
		struct vsb_csv pc;
		double ops, ns, med, scale;
		const char *se;

		if (strcmp(cell(c, r, k->bench), "threshold-refresh"))
			continue;
		snprintf(raw, sizeof(raw), "%s/%s.csv", dir, cell(c, r, cpt));
		if (vsb_csv_read(raw, &pc)) {
			fclose(f);
			unlink(tmp);
			return VSB_EXIT_USAGE;
		}
		ops = vsb_csv_col(&pc, "ops") >= 0 && pc.nrows ?
		      vsb_csv_num(&pc, 0, vsb_csv_col(&pc, "ops")) : NAN;
		se = vsb_csv_meta(&pc, "refresh_seed_estimate");
		ns = vsb_csv_num(c, r, cns);
		med = vsb_csv_num(c, r, k->med);
		/* ci_lo/hi are in the CSV's unit: to ns as the median converts */
		scale = med > 0 ? ns / med * ops / 1e9 : NAN;
		/* "16777216 iterations (...)": the number in front */
		fprintf(f, "%s,%s,%s,%.0f,%.0f,%.9g,%.9g,%.9g\n", cell(c, r, cap),
			cell(c, r, cmn), cell(c, r, cmc), ops, se ? atof(se) : 0.0,
			ns * ops / 1e9, vsb_csv_num(c, r, clo) * scale,
			vsb_csv_num(c, r, k->cihi) * scale);
		set_add(&ap, cell(c, r, cap));
		set_add(&nodes, cell(c, r, cmn));
		vsb_csv_free(&pc);
	}
	if (fclose(f) || rename(tmp, out)) {
		vsb_err("plot: %s: %s", out, strerror(errno));
		unlink(tmp);
		return VSB_EXIT_ERROR;
	}
	set_sort_num(&nodes);
	set_join(&ap, al, sizeof(al));
	set_join(&nodes, nl, sizeof(nl));
	cat(&ex, "approaches='%s'; nodes='%s'; hasci=1;", al, nl);
	ret = vsb_plot_chart("refresh", out, outdir, title, ex);
	free(ex);
	return ret ? ret : 1;
}

static int plot_sweep(const char *csvpath, const char *outdir)
{
	struct pcols k;
	int ret = 0, made = 0, newcols, multib, r2;
	struct strset thr = { 0 }, vars = { 0 }, nth = { 0 }, series = { 0 },
		      serthr = { 0 }, pcc_batch = { 0 }, pcc_nth = { 0 },
		      units = { 0 }, backends = { 0 };
	char title[512], lists[4096], b[1024], cc[2048], key[128];
	const char *fthr, *fbat;
	struct vsb_csv csv;
	char *ex = NULL;
	size_t r, i, j;

	ret = vsb_csv_read(csvpath, &csv);
	if (ret)
		return ret;
	k.thr = vsb_csv_col(&csv, "threshold");
	k.var = vsb_csv_col(&csv, "variant");
	k.nth = vsb_csv_col(&csv, "nthreads");
	k.bits = vsb_csv_col(&csv, "diff_bits");
	k.batch = vsb_csv_col(&csv, "batch");
	k.unit = vsb_csv_col(&csv, "unit");
	k.ops = vsb_csv_col(&csv, "ops_per_sec_median");
	k.med = vsb_csv_col(&csv, "median");
	k.cihi = vsb_csv_col(&csv, "ci_hi");
	k.bench = vsb_csv_col(&csv, "bench");
	k.backend = vsb_csv_col(&csv, "backend");
	k.sysctl = vsb_csv_col(&csv, "sysctl");
	k.fold = vsb_csv_col(&csv, "fold");
	k.fival = vsb_csv_col(&csv, "fold_interval_us");
	k.quiet = vsb_csv_col(&csv, "quiet_workers");
	k.drift = vsb_csv_col(&csv, "drift");
	k.dmax = vsb_csv_col(&csv, "drift_max");
	k.smax = vsb_csv_col(&csv, "stale_max_us");
	if (k.thr < 0 || k.var < 0 || k.nth < 0 || k.bits < 0 || k.batch < 0 ||
	    k.unit < 0 || k.ops < 0 || k.med < 0 || k.cihi < 0 ||
	    vsb_csv_col(&csv, "ci_lo") < 0) {
		vsb_err("%s: missing columns (threshold, variant, nthreads, ci_lo, ...): "
			"not a sweep.csv of this version", csvpath);
		vsb_csv_free(&csv);
		return VSB_EXIT_USAGE;
	}
	/* the scripts filter on these only when the file has them */
	newcols = k.bench >= 0 && k.fold >= 0 && k.quiet >= 0 && k.backend >= 0;
	for (r = 0; r < csv.nrows; r++) {
		set_add(&units, vsb_csv_cell(&csv, r, k.unit));
		if (is_plain(&csv, &k, r))
			set_add(&backends, cell(&csv, r, k.backend));
	}
	if (units.n != 1) {
		vsb_err("%s: results in %zu different units: charts never mix units",
			csvpath, units.n);
		vsb_csv_free(&csv);
		return VSB_EXIT_USAGE;
	}
	multib = backends.n > 1;
	for (r = 0; r < csv.nrows; r++) {
		const char *v = vsb_csv_cell(&csv, r, k.var);
		const char *t = vsb_csv_cell(&csv, r, k.thr);

		if (!is_plain(&csv, &k, r))
			continue;
		vkey(&csv, &k, r, multib, key, sizeof(key));
		set_add(&vars, key);
		set_add(&nth, vsb_csv_cell(&csv, r, k.nth));
		if (!strcmp(v, "percpu-counter")) {
			set_add(&pcc_batch, vsb_csv_cell(&csv, r, k.batch));
			set_add(&pcc_nth, vsb_csv_cell(&csv, r, k.nth));
		} else if (atol(t) > 0 && strcmp(v, "this-cpu-add") &&
			   strcmp(v, "atomic-global")) {
			/* variants that never fold carry a threshold they ignore */
			char s[200], st[264];

			snprintf(s, sizeof(s), "%s:%s:%s:%s", vsb_csv_cell(&csv, r, k.nth),
				 vsb_csv_cell(&csv, r, k.bits), v, cell(&csv, r, k.backend));
			set_add(&series, s);
			snprintf(st, sizeof(st), "%s|%s", s, t);
			set_add(&serthr, st);
		}
	}
	vsb_plot_title(vsb_csv_meta(&csv, "cpu_model"), vsb_csv_meta(&csv, "kernel"),
		       title, sizeof(title));
	/* a threshold line needs two thresholds */
	for (j = 0; j < series.n; j++) {
		size_t n = 0, len = strlen(series.v[j]);

		for (i = 0; i < serthr.n; i++)
			if (!strncmp(serthr.v[i], series.v[j], len) &&
			    serthr.v[i][len] == '|') {
				n++;
				set_add(&thr, serthr.v[i] + len + 1);
			}
		if (n < 2)
			series.v[j][0] = '\0';
	}
	/* the other charts hold threshold and batch at their usual value:
	 * 125 (the s8 default) and 32 (percpu_counter_batch, small machines) */
	fthr = thr.n ? set_most_common(&thr) : "0";
	if (set_has(&thr, "125"))
		fthr = "125";
	fbat = pcc_batch.n ? set_most_common(&pcc_batch) : "0";
	if (set_has(&pcc_batch, "32"))
		fbat = "32";
	set_sort_num(&nth);
	set_sort_num(&thr);
	set_sort_num(&pcc_batch);
	set_sort_num(&pcc_nth);
	set_join(&nth, b, sizeof(b));
	set_join(&vars, cc, sizeof(cc));
	snprintf(lists, sizeof(lists), "unit='%s'; newcols=%d; multib=%d; threads='%s'; "
		 "variants='%s'; thr=%s; bat=%s; nvariants=%zu; ", units.v[0], newcols,
		 multib, b, cc, fthr, fbat, vars.n);

	if (thr.n > 1) {
		/* series "nthreads:bits:variant:backend", sorted by threads */
		char st[1024] = "", sb[1024] = "", sv[2048] = "", sk[1024] = "";
		size_t o1 = 0, o2 = 0, o3 = 0, o4 = 0;
		struct strset svar = { 0 };

		for (i = 0; i < nth.n; i++)
			for (j = 0; j < series.n; j++) {
				char tmp[64], *bits, *var, *be;

				if (!series.v[j][0])
					continue;
				snprintf(tmp, sizeof(tmp), "%s", series.v[j]);
				bits = strchr(tmp, ':');
				*bits++ = '\0';
				var = strchr(bits, ':');
				*var++ = '\0';
				be = strchr(var, ':');
				*be++ = '\0';
				if (strcmp(tmp, nth.v[i]))
					continue;
				set_add(&svar, var);
				o1 += snprintf(st + o1, sizeof(st) - o1, "%s ", tmp);
				o2 += snprintf(sb + o2, sizeof(sb) - o2, "%s ", bits);
				o3 += snprintf(sv + o3, sizeof(sv) - o3, "%s ", var);
				o4 += snprintf(sk + o4, sizeof(sk) - o4, "%s ", *be ? be : "-");
			}
		set_join(&thr, cc, sizeof(cc));
		free(ex);
		ex = NULL;
		cat(&ex, "%s st='%s'; sb='%s'; sv='%s'; sk='%s'; xt='%s'; nvariants=%zu;",
		    lists, st, sb, sv, sk, cc, svar.n);
		ret = ret ?: vsb_plot_chart("threshold", csvpath, outdir, title, ex);
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
				const char *v = vsb_csv_cell(&csv, r, k.var);
				long n = atol(vsb_csv_cell(&csv, r, k.nth));

				if (!is_plain(&csv, &k, r))
					continue;
				vkey(&csv, &k, r, multib, key, sizeof(key));
				if (strcmp(key, vars.v[i]))
					continue;
				if (strcmp(v, "percpu-counter") ?
				    (atol(vsb_csv_cell(&csv, r, k.thr)) > 0 &&
				     strcmp(vsb_csv_cell(&csv, r, k.thr), fthr) &&
				     strcmp(v, "this-cpu-add") && strcmp(v, "atomic-global")) :
				    strcmp(vsb_csv_cell(&csv, r, k.batch), fbat))
					continue;
				if (!bestn || n < bestn) {
					bestn = n;
					best = vsb_csv_num(&csv, r, k.ops) / (double)n / 1e6;
				}
			}
			off += snprintf(ref + off, sizeof(ref) - off, "%.6g ",
					isnan(best) ? 0.0 : best);
		}
		free(ex);
		ex = NULL;
		cat(&ex, "%s ref='%s';", lists, ref);
		ret = ret ?: vsb_plot_chart("scaling", csvpath, outdir, title, ex);
		made++;
	}
	if (pcc_batch.n > 1) {
		set_join(&pcc_nth, b, sizeof(b));
		set_join(&pcc_batch, cc, sizeof(cc));
		free(ex);
		ex = NULL;
		cat(&ex, "%s threads='%s'; xt='%s';", lists, b, cc);
		ret = ret ?: vsb_plot_chart("batch", csvpath, outdir, title, ex);
		made++;
	}

	/* drift: cost vs max drift, a line per variant, fold policy, core count */
	if (k.dmax >= 0 && k.fold >= 0) {
		struct strset dser = { 0 }, dthr = { 0 }, dvar = { 0 }, dnth = { 0 },
			      combo = { 0 }, dbe = { 0 }, dival = { 0 };
		char sv[2048] = "", sf[1024] = "", st[1024] = "", sc[512] = "",
		     sn[512] = "", lab[512] = "";
		size_t o[6] = { 0 }, labelled[64] = { 0 };
		int f;

		for (r = 0; r < csv.nrows; r++)
			if (is_drift(&csv, &k, r))
				set_add(&dbe, cell(&csv, r, k.backend));
		for (r = 0; r < csv.nrows; r++) {
			if (!is_drift(&csv, &k, r))
				continue;
			vkey(&csv, &k, r, dbe.n > 1, key, sizeof(key));
			set_add(&dvar, key);
			set_add(&dnth, vsb_csv_cell(&csv, r, k.nth));
			set_add(&dthr, vsb_csv_cell(&csv, r, k.thr));
			if (strcmp(cell(&csv, r, k.fold), "none"))
				set_add(&dival, cell(&csv, r, k.fival));
		}
		set_sort_num(&dnth);
		/* series in order: variant (as swept), fold policy, core count */
		for (i = 0; i < dvar.n; i++)
			for (f = 0; f < 4; f++)
				for (j = 0; j < dnth.n; j++)
					for (r = 0; r < csv.nrows; r++) {
						const char *fo = cell(&csv, r, k.fold);
						char s[320], cb[320];

						if (!is_drift(&csv, &k, r) || fold_rank(fo) != f ||
						    strcmp(vsb_csv_cell(&csv, r, k.nth), dnth.v[j]))
							continue;
						vkey(&csv, &k, r, dbe.n > 1, key, sizeof(key));
						if (strcmp(key, dvar.v[i]))
							continue;
						snprintf(s, sizeof(s), "%s %s %s", key, fo, dnth.v[j]);
						if (set_has(&dser, s))
							continue;
						set_add(&dser, s);
						snprintf(cb, sizeof(cb), "%s %s", key, fo);
						set_add(&combo, cb);
						o[0] += snprintf(sv + o[0], sizeof(sv) - o[0], "%s ", key);
						o[1] += snprintf(sf + o[1], sizeof(sf) - o[1], "%s ", fo);
						o[2] += snprintf(st + o[2], sizeof(st) - o[2], "%s ", dnth.v[j]);
						o[3] += snprintf(sc + o[3], sizeof(sc) - o[3], "%zu ", combo.n);
						o[4] += snprintf(sn + o[4], sizeof(sn) - o[4], "%zu ", j + 1);
						/* thresholds printed once per core count:
						 * on its first series */
						o[5] += snprintf(lab + o[5], sizeof(lab) - o[5], "%d ",
								 !labelled[j]);
						labelled[j] = 1;
					}
		if (dser.n && (dthr.n > 1 || combo.n > 1)) {
			free(ex);
			ex = NULL;
			cat(&ex, "%s sv='%s'; sf='%s'; st='%s'; sc='%s'; sn='%s'; lab='%s'; "
			    "ncombo=%zu; dmultib=%d; interval=%s;", lists, sv, sf, st, sc,
			    sn, lab, combo.n, dbe.n > 1,
			    dival.n == 1 && *dival.v[0] ? dival.v[0] : "0");
			ret = ret ?: vsb_plot_chart("drift", csvpath, outdir, title, ex);
			made++;
		}
	}

	/* staleness: the quiet-worker rows, one group per variant and policy */
	if (k.smax >= 0 && k.quiet >= 0 && k.fold >= 0) {
		struct strset cat_ = { 0 }, qvar = { 0 }, ival = { 0 };
		char sv[1024] = "", sf[1024] = "", note[512] = "";
		size_t o1 = 0, o2 = 0;
		int f;

		for (r = 0; r < csv.nrows; r++)
			if (is_quiet(&csv, &k, r)) {
				set_add(&qvar, vsb_csv_cell(&csv, r, k.var));
				set_add(&ival, cell(&csv, r, k.fival));
				if (!note[0])
					snprintf(note, sizeof(note), "%ld CPUs, %s of them quiet "
						 "after writing; threshold %s",
						 atol(vsb_csv_cell(&csv, r, k.nth)) +
						 atol(cell(&csv, r, k.quiet)), cell(&csv, r, k.quiet),
						 vsb_csv_cell(&csv, r, k.thr));
			}
		for (i = 0; i < qvar.n; i++)
			for (f = 0; f < 4; f++)
				for (r = 0; r < csv.nrows; r++) {
					const char *fo = cell(&csv, r, k.fold);
					char s[200];

					if (!is_quiet(&csv, &k, r) || fold_rank(fo) != f ||
					    strcmp(vsb_csv_cell(&csv, r, k.var), qvar.v[i]))
						continue;
					snprintf(s, sizeof(s), "%s %s", qvar.v[i], fo);
					if (set_has(&cat_, s))
						continue;
					set_add(&cat_, s);
					o1 += snprintf(sv + o1, sizeof(sv) - o1, "%s ", qvar.v[i]);
					o2 += snprintf(sf + o2, sizeof(sf) - o2, "%s ", fo);
				}
		if (cat_.n) {
			free(ex);
			ex = NULL;
			cat(&ex, "%s sv='%s'; sf='%s'; qvariants=%zu; interval=%s; note='%s';",
			    lists, sv, sf, qvar.n, ival.n == 1 ? ival.v[0] : "0", note);
			ret = ret ?: vsb_plot_chart("staleness", csvpath, outdir, title, ex);
			made++;
		}
	}

	/* live benches with a sysctl axis */
	if (k.bench >= 0 && k.sysctl >= 0 && !ret) {
		r2 = plot_live(&csv, &k, csvpath, outdir, title, lists, "page-fault",
			       "vm.numa_stat=", "live-numa", k.med, "cost, numa\\_stat");
		if (r2 > 1)
			ret = r2;
		made += r2 == 1;
	}
	if (k.bench >= 0 && k.sysctl >= 0 && !ret) {
		r2 = plot_live(&csv, &k, csvpath, outdir, title, lists, "mmap",
			       "vm.overcommit_memory=", "live-mmap", k.ops,
			       "pairs/s, overcommit");
		if (r2 > 1)
			ret = r2;
		made += r2 == 1;
	}
	if (!ret) {
		r2 = plot_refresh_sweep(&csv, &k, csvpath, outdir, title);
		if (r2 > 1)
			ret = r2;
		made += r2 == 1;
	}
	free(ex);
	if (!made && !ret)
		printf("%s: nothing to chart: one threshold, one variant, one core "
		       "count and one batch (a chart needs an axis)\n", csvpath);
	vsb_csv_free(&csv);
	return ret;
}

/*
 * A CSV that is not a sweep: refresh-model's (refresh.csv) or the
 * hotplug script's (hotplug-summary.csv).  Checks the columns the
 * script reads, collects its series and draws it.
 */
static int plot_table(const char *csvpath, const char *outdir, const char *chart,
		      const char *const *need, const char *seriescol,
		      const char *seriesvar, const char *extra, const char *nometa)
{
	struct strset s = { 0 };
	char title[512], list[1024];
	struct vsb_csv csv;
	char *ex = NULL;
	size_t r, i;
	int ret, col;

	ret = vsb_csv_read(csvpath, &csv);
	if (ret)
		return ret;
	for (i = 0; need[i]; i++)
		if (vsb_csv_col(&csv, need[i]) < 0) {
			vsb_err("%s: no column '%s': not the CSV %s.gp reads", csvpath,
				need[i], chart);
			vsb_csv_free(&csv);
			return VSB_EXIT_USAGE;
		}
	if (!csv.nrows) {
		vsb_err("%s: no data rows", csvpath);
		vsb_csv_free(&csv);
		return VSB_EXIT_USAGE;
	}
	col = vsb_csv_col(&csv, seriescol);
	for (r = 0; r < csv.nrows; r++)
		set_add(&s, vsb_csv_cell(&csv, r, col));
	set_sort_num(&s);
	set_join(&s, list, sizeof(list));
	vsb_plot_title(vsb_csv_meta(&csv, "cpu_model"), vsb_csv_meta(&csv, "kernel"),
		       title, sizeof(title));
	if (!vsb_csv_meta(&csv, "cpu_model") && !vsb_csv_meta(&csv, "kernel"))
		snprintf(title, sizeof(title), "%s", nometa);
	cat(&ex, "%s='%s'; %s", seriesvar, list, extra);
	vsb_csv_free(&csv);
	ret = vsb_plot_chart(chart, csvpath, outdir, title, ex);
	free(ex);
	return ret;
}

static int plot_refresh(const char *csvpath, const char *outdir)
{
	static const char *const need[] = { "approach", "nodes", "ncpus",
		"iterations", "seed_estimate", "seconds", NULL };
	struct vsb_csv csv;
	struct strset ap = { 0 };
	char extra[512], list[512];
	size_t r;
	int ret, col;

	/* the approaches in the order refresh-model prints them */
	ret = vsb_csv_read(csvpath, &csv);
	if (ret)
		return ret;
	col = vsb_csv_col(&csv, "approach");
	for (r = 0; col >= 0 && r < csv.nrows; r++)
		set_add(&ap, vsb_csv_cell(&csv, r, col));
	vsb_csv_free(&csv);
	set_join(&ap, list, sizeof(list));
	snprintf(extra, sizeof(extra), "approaches='%s';", list);
	return plot_table(csvpath, outdir, "refresh", need, "nodes", "nodes", extra,
			  "machine not recorded (add # cpu_model: and # kernel: lines)");
}

static int plot_hotplug(const char *csvpath, const char *outdir)
{
	static const char *const need[] = { "vcpus", "nodes", "calls", "median_us",
		"mean_us", NULL };

	return plot_table(csvpath, outdir, "hotplug", need, "nodes", "nodes", "",
			  "guest kernel not recorded");
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: vmstat-bench plot DIR [-o OUTDIR]\n"
"\n"
"Draw gnuplot charts (PNG and SVG) of what DIR holds, titled with the machine\n"
"and kernel; a chart is drawn only when the results have its axis:\n"
" sweep.csv (vmstat-bench sweep -o DIR):\n"
"  threshold.png  cost per update vs fold threshold, one line per core count\n"
"  variants.png   update variants side by side, one bar per core count\n"
"  scaling.png    throughput vs CPUs, with the linear-scaling reference\n"
"  batch.png      percpu_counter cost vs batch, one line per core count\n"
"  drift.png      cost per update vs max drift, a line per fold policy and\n"
"                 core count, a point per threshold (--drift, --fold)\n"
"  staleness.png  how long a quiet CPU's diff stays unseen, by fold policy\n"
"                 (--quiet-workers)\n"
"  live-numa.png  page-fault cost vs CPUs, vm.numa_stat off and on\n"
"  live-mmap.png  mmap+munmap throughput vs CPUs, by vm.overcommit_memory\n"
" compare.csv (vmstat-bench compare -o DIR):\n"
"  regression.png NEW/BASE per point with its 95%% CI, coloured by verdict\n"
" refresh.csv (vmstat-bench refresh-model > DIR/refresh.csv):\n"
"  refresh.png    threshold-refresh time and iterations vs CPUs, per approach\n"
"                 and node count, next to the 004 seed's estimate\n"
" hotplug-summary.csv (ci/hotplug-scaling.sh):\n"
"  hotplug.png    vmstat_cpu_online() time vs vCPUs, per node count\n"
"Error bars are bootstrap 95%% CIs of the median.\n"
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

/* what DIR can hold, and what draws it */
static const char *const inputs[] = { "sweep.csv", "compare.csv", "refresh.csv",
	"hotplug-summary.csv" };

static int plot_compare(const char *path, const char *outdir)
{
	struct vsb_csv cc;
	char title[512], vars[64];
	int ret;

	ret = vsb_csv_read(path, &cc);
	if (ret)
		return ret;
	vsb_plot_title(vsb_csv_meta(&cc, "cpu_model"), vsb_csv_meta(&cc, "kernel"),
		       title, sizeof(title));
	snprintf(vars, sizeof(vars), "npoints=%zu;", cc.nrows);
	vsb_csv_free(&cc);
	return vsb_plot_chart("regression", path, outdir, title, vars);
}

int vsb_cmd_plot(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static int (*const draw[])(const char *, const char *) = { plot_sweep,
		plot_compare, plot_refresh, plot_hotplug };
	const char *outdir = NULL, *dir;
	char path[4096 + 32];
	int c, ret = 0, any = 0;
	size_t i;

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
	for (i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, inputs[i]);
		any |= access(path, R_OK) == 0;
	}
	if (!any) {
		vsb_err("%s: no sweep.csv, compare.csv, refresh.csv or hotplug-summary.csv: "
			"give a `sweep -o` or `compare -o` directory", dir);
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
	for (i = 0; i < sizeof(inputs) / sizeof(inputs[0]) && !ret; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, inputs[i]);
		if (access(path, R_OK) == 0)
			ret = draw[i](path, outdir);
	}
	return ret;
}
