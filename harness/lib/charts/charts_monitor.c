// SPDX-License-Identifier: GPL-2.0
/*
 * The chart of a monitor series (FILE.monitor.csv, monitor.c): the rates
 * that explain a cost, over time, with the timed windows shaded.  The
 * long-format file holds counters as read; gnuplot cannot difference a
 * sum of rows by time by itself, so the rates between consecutive
 * samples are derived here (each as a flat segment over its interval) into a small wide table (time, pgalloc/s,
 * pgfree/s, interrupts/s on the workers' CPUs, steal/softirq/system % of
 * the workers' CPUs, vmstat_update/s) and the windows into another, both
 * beside the chart, and plots/monitor.gp draws them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "charts_check.h"
#include "charts_monitor.h"
#include "monitor_csv.h"
#include "plot.h"
#include "vsb.h"

/* per sample time: the sums the rates come from */
struct msample {
	double t, pgalloc, pgfree, irq, total, steal, softirq, system, vmu;
	unsigned int have;	/* 1 vmstat, 2 interrupts, 4 stat, 8 trace */
};

struct mseries {
	struct msample *s;
	size_t n, cap;
	double win[2 * 4096];	/* begin, end pairs */
	size_t nwin;
	unsigned char *worker;
	char header[256];
};

static struct msample *at(struct mseries *m, double t)
{
	if (m->n && m->s[m->n - 1].t == t)
		return &m->s[m->n - 1];
	m->s = vsb_grow(m->s, m->n, &m->cap, sizeof(*m->s));
	memset(&m->s[m->n], 0, sizeof(m->s[0]));
	m->s[m->n].t = t;
	return &m->s[m->n++];
}

static int worker_cpu(const struct mseries *m, int cpu)
{
	return cpu >= 0 && cpu < VSB_MAX_CPUS && m->worker[cpu];
}

static void add_row(struct mseries *m, double t, const char *src, const char *key,
		    int cpu, double v)
{
	struct msample *s;

	if (!strcmp(src, "workers")) {
		if (cpu >= 0 && cpu < VSB_MAX_CPUS)
			m->worker[cpu] = 1;
		return;
	}
	if (!strcmp(src, "window")) {
		if (m->nwin < sizeof(m->win) / sizeof(m->win[0]) &&
		    (m->nwin % 2 == 0) == !strcmp(key, "begin"))
			m->win[m->nwin++] = t;
		return;
	}
	s = at(m, t);
	if (!strcmp(src, "vmstat")) {
		s->have |= 1;
		if (!strncmp(key, "pgalloc_", 8))
			s->pgalloc += v;
		else if (!strcmp(key, "pgfree"))
			s->pgfree += v;
	} else if (!strcmp(src, "interrupts") && !strcmp(key, "total") &&
		   worker_cpu(m, cpu)) {
		s->have |= 2;
		s->irq += v;
	} else if (!strcmp(src, "stat") && worker_cpu(m, cpu)) {
		s->have |= 4;
		s->total += v;
		s->steal += strcmp(key, "steal") ? 0 : v;
		s->softirq += strcmp(key, "softirq") ? 0 : v;
		s->system += strcmp(key, "system") ? 0 : v;
	} else if (!strcmp(src, "trace") && !strcmp(key, "vmstat_update_per_s") &&
		   cpu < 0) {
		s->have |= 8;
		s->vmu = v;
	}
}

static void row_of(const struct vsb_monitor_row *r, void *arg)
{
	add_row(arg, r->t, r->source, r->key, r->cpu, r->value);
}

/* capped like every CSV the tool reads (vsb_read_whole's limit) */
static int read_series(const char *path, struct mseries *m)
{
	struct stat st;
	int bad, fd = vsb_open_regular(path, 0, &st);
	FILE *f;

	if (fd >= 0 && (unsigned long long)st.st_size > VSB_READ_MAX) {
		close(fd);
		fd = -EFBIG;
	}
	if (fd < 0) {
		vsb_err("plot: %s: %s", path, vsb_read_strerror(-fd));
		return VSB_EXIT_USAGE;
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		vsb_err("plot: %s: %s", path, strerror(errno));
		return VSB_EXIT_USAGE;
	}
	bad = vsb_monitor_csv_read(f, m->header, sizeof(m->header), row_of, m);
	fclose(f);
	if (bad || !m->n) {
		vsb_err("plot: %s is not a monitor series (time,source,key,cpu,value)", path);
		return VSB_EXIT_USAGE;
	}
	return 0;
}

/* the largest value of each rate column (-1: none), for the scales */
static double colmax[7];

static void rate(FILE *f, int col, int ok, double num, double den)
{
	double v = num / den;

	if (ok && den > 0) {
		fprintf(f, ",%.6g", v);
		if (v > colmax[col])
			colmax[col] = v;
	} else {
		fputs(",nan", f);
	}
}

/* the rates between consecutive samples, at the middle of each interval */
static int write_rates(const struct mseries *m, const char *path)
{
	struct vsb_outfile o;
	size_t i;
	FILE *f;
	int ret;

	for (i = 0; i < 7; i++)
		colmax[i] = -1;
	/* never through a link or onto a device planted at that name */
	ret = vsb_outfile_open(&o, path, "-o");
	if (ret)
		return ret;
	f = o.f;
	fputs("time,pgalloc_s,pgfree_s,irq_s,steal_pct,softirq_pct,system_pct,vmstat_update_s\n", f);
	for (i = 1; i < m->n; i++) {
		const struct msample *a = &m->s[i - 1], *b = &m->s[i];
		double dt = b->t - a->t, dst = b->total - a->total;
		unsigned int h = a->have & b->have;
		int end;

		/* a rate holds over its whole interval: a row at each end */
		for (end = 0; end < 2; end++) {
			fprintf(f, "%.6f", end ? b->t : a->t);
			rate(f, 0, h & 1, b->pgalloc - a->pgalloc, dt);
			rate(f, 1, h & 1, b->pgfree - a->pgfree, dt);
			rate(f, 2, h & 2, b->irq - a->irq, dt);
			rate(f, 3, h & 4, 100 * (b->steal - a->steal), dst);
			rate(f, 4, h & 4, 100 * (b->softirq - a->softirq), dst);
			rate(f, 5, h & 4, 100 * (b->system - a->system), dst);
			rate(f, 6, b->have & 8, b->vmu, 1);
			fputc('\n', f);
		}
	}
	return vsb_outfile_commit(&o);
}

static int write_windows(const struct mseries *m, const char *path)
{
	struct vsb_outfile o;
	size_t i;
	int ret = vsb_outfile_open(&o, path, "-o");

	if (ret)
		return ret;
	fputs("begin,end\n", o.f);
	for (i = 0; i + 1 < m->nwin; i += 2)
		fprintf(o.f, "%.6f,%.6f\n", m->win[i], m->win[i + 1]);
	return vsb_outfile_commit(&o);
}

/* "dir/x.monitor.csv" -> "x" */
static void stem(const char *csv, char *buf, size_t len)
{
	char *copy = strdup(csv), *b = basename(copy);
	size_t n = strlen(b);

	if (n > 12 && !strcmp(b + n - 12, ".monitor.csv"))
		b[n - 12] = '\0';
	snprintf(buf, len, "%s", b);
	free(copy);
}

int vsb_chart_monitor_check(const char *path)
{
	struct mseries m = { 0 };
	int ret;

	m.worker = vsb_zalloc(VSB_MAX_CPUS);
	ret = read_series(path, &m);
	free(m.s);
	free(m.worker);
	return ret;
}

int vsb_chart_monitor(const char *csv, const char *outdir)
{
	struct mseries m = { 0 };
	char name[256], rates[4096 + 300], wins[4096 + 300], vars[4 * (4096 + 300) + 700];
	char qwins[4 * (4096 + 300) + 3];
	char title[600], to[300];
	int ret;

	m.worker = vsb_zalloc(VSB_MAX_CPUS);
	ret = read_series(csv, &m);
	if (ret)
		goto out;
	stem(csv, name, sizeof(name));
	snprintf(rates, sizeof(rates), "%s/%s.monitor-rates.csv", outdir, name);
	snprintf(wins, sizeof(wins), "%s/%s.monitor-windows.csv", outdir, name);
	ret = write_rates(&m, rates);
	if (!ret)
		ret = write_windows(&m, wins);
	if (ret)
		goto out;
	snprintf(title, sizeof(title), "%s: %s", name, m.header[0] ? m.header : "monitor");
	if (vsb_gp_string(qwins, sizeof(qwins), wins)) {
		vsb_err("plot: %s: a line break or too long a path for gnuplot", wins);
		ret = VSB_EXIT_USAGE;	/* cmd_plot checked it: not reached */
		goto out;
	}
	snprintf(vars, sizeof(vars), "windowfile=%s; nwin=%zu; tmin=%g; tmax=%g; "
		 "array cmax[7] = [%g, %g, %g, %g, %g, %g, %g];", qwins, m.nwin / 2,
		 m.nwin && m.win[0] < m.s[0].t ? m.win[0] : m.s[0].t,
		 m.nwin && m.win[m.nwin - 1] > m.s[m.n - 1].t ? m.win[m.nwin - 1] : m.s[m.n - 1].t,
		 colmax[0], colmax[1], colmax[2], colmax[3], colmax[4], colmax[5], colmax[6]);
	/*
	 * Drawn straight to NAME.monitor.png and .svg: drawing monitor.png
	 * and renaming it replaced a user's own monitor.png (and .svg).
	 */
	snprintf(to, sizeof(to), "%s.monitor", name);
	ret = vsb_plot_chart_as("monitor", to, rates, outdir, title, vars);
out:
	free(m.s);
	free(m.worker);
	return ret;
}

int vsb_chart_monitors(const char *dir, const char *outdir, int *drawn)
{
	char pat[4096 + 32];
	glob_t g;
	size_t i;
	int ret = 0;

	*drawn = 0;
	snprintf(pat, sizeof(pat), "%s/*.monitor.csv", dir);
	if (glob(pat, 0, NULL, &g))
		return 0;	/* none (or unreadable: the caller's checks say so) */
	for (i = 0; i < g.gl_pathc && !ret; i++) {
		ret = vsb_chart_monitor(g.gl_pathv[i], outdir);
		*drawn += !ret;
	}
	globfree(&g);
	return ret;
}
