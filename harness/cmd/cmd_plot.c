// SPDX-License-Identifier: GPL-2.0
/*
 * `vmstat-bench plot DIR`: gnuplot charts of a sweep or a comparison.
 *
 * The options and which file of DIR goes to which chart builder; the
 * builders (what a result supports, the lists each script gets) are
 * harness/lib/charts/charts*.c, the gnuplot driver harness/lib/charts/plot.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <glob.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "benches.h"
#include "charts.h"
#include "charts_check.h"
#include "charts_monitor.h"
#include "cmds.h"
#include "plot.h"
#include "vsb.h"

/*
 * The charts of a sysctl's values that the benches draw (bench_model.h,
 * .sysctl_chart), in the bench table's order: each bench names its own,
 * so a new one is in the help and in the names checked before drawing.
 */
static const struct vsb_sysctl_chart *sysctl_chart(size_t i)
{
	const struct vsb_bench_model *m = &vsb_benches[i]->model;

	return m->charts == VSB_CHARTS_SYSCTL ? m->sysctl_chart : NULL;
}

static void sysctl_charts_help(FILE *f)
{
	char png[64];
	size_t i;

	for (i = 0; i < vsb_bench_count; i++) {
		if (!sysctl_chart(i))
			continue;
		snprintf(png, sizeof(png), "%s.png", sysctl_chart(i)->chart);
		fprintf(f, "  %-14s %s\n", png, sysctl_chart(i)->help);
	}
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: vmstat-bench plot DIR [-o OUTDIR]\n"
"       vmstat-bench plot FILE.monitor.csv [-o OUTDIR]\n"
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
"                 (--quiet-workers)\n");
	sysctl_charts_help(f);
	fprintf(f,
" compare.csv (vmstat-bench compare -o DIR):\n"
"  regression.png NEW/BASE per point with its 95%% CI, coloured by verdict;\n"
"                 a dotted line where all judged points moved together\n"
" refresh.csv (vmstat-bench refresh-model > DIR/refresh.csv):\n"
"  refresh.png    threshold-refresh time and iterations vs CPUs, per approach\n"
"                 and node count, next to the 004 seed's estimate\n"
" hotplug-summary.csv (ci/hotplug-scaling.sh):\n"
"  hotplug.png    vmstat_cpu_online() time vs vCPUs, per node count\n"
" FILE.monitor.csv (run or sweep --monitor, in DIR or given alone):\n"
"  FILE.monitor.png  pgalloc/pgfree, interrupts on the workers' CPUs and\n"
"                 steal/softirq/system over time, timed windows shaded\n"
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

#define MONITOR_SUFFIX ".monitor.csv"

static int is_monitor_file(const char *path)
{
	size_t n = strlen(path), k = strlen(MONITOR_SUFFIX);
	struct stat st;

	return n > k && !strcmp(path + n - k, MONITOR_SUFFIX) &&
	       !stat(path, &st) && S_ISREG(st.st_mode);
}

/*
 * OUTDIR, made only now: after every input was read and checked and
 * gnuplot found, so a refusal leaves nothing behind.  An existing path
 * that is not a directory is refused.
 */
static int make_outdir(const char *outdir)
{
	struct stat st;

	if (!*outdir) {
		vsb_err("-o: empty directory name");
		return VSB_EXIT_USAGE;
	}
	if (mkdir(outdir, 0755) && errno != EEXIST) {
		vsb_err("-o: cannot create %s: %s", outdir, strerror(errno));
		return VSB_EXIT_USAGE;
	}
	if (stat(outdir, &st) || !S_ISDIR(st.st_mode)) {
		vsb_err("-o: %s is not a directory: refused, nothing drawn", outdir);
		return VSB_EXIT_USAGE;
	}
	return 0;
}

static int need_gnuplot(void)
{
	if (vsb_have_gnuplot())
		return 0;
	vsb_err("plot: gnuplot not found: install it (apt-get install gnuplot-nox)");
	return VSB_EXIT_SKIP;
}

/*
 * Every name plot may write in OUTDIR, checked before the first chart is
 * drawn (a link or FIFO at the last name refused only when its turn came,
 * after the others were written): each chart's PNG and SVG (the builders
 * of charts*.c name them after their script; a bench's sysctl chart is
 * named by its model), refresh's table, and per FILE.monitor.csv its
 * tables and chart.
 */
static const char *const chart_names[] = {
	"threshold", "variants", "scaling", "batch", "drift", "staleness",
	"regression", "refresh", "hotplug",
};

static int check_target(const char *outdir, const char *name, const char *ext)
{
	char path[4096 + 300];

	snprintf(path, sizeof(path), "%s/%s%s", outdir, name, ext);
	return vsb_outfile_check(path, "-o");
}

static int check_monitor_targets(const char *file, const char *outdir)
{
	static const char *const ext[] = {
		".monitor-rates.csv", ".monitor-windows.csv", ".monitor.png", ".monitor.svg",
	};
	const char *b = strrchr(file, '/');
	char name[256];
	size_t i, n;
	int ret = 0;

	b = b ? b + 1 : file;
	n = strlen(b) - strlen(MONITOR_SUFFIX);
	snprintf(name, sizeof(name), "%.*s", (int)n, b);
	for (i = 0; i < sizeof(ext) / sizeof(ext[0]) && !ret; i++)
		ret = check_target(outdir, name, ext[i]);
	return ret;
}

/* @dir: DIR, or with @monitor_file the one FILE.monitor.csv drawn */
static int check_targets(const char *dir, const char *outdir, int monitor_file)
{
	char pat[4096 + 32];
	glob_t g;
	size_t i;
	int ret = 0;

	for (i = 0; i < sizeof(chart_names) / sizeof(chart_names[0]) && !ret; i++) {
		ret = check_target(outdir, chart_names[i], ".png");
		ret = ret ?: check_target(outdir, chart_names[i], ".svg");
	}
	for (i = 0; i < vsb_bench_count && !ret; i++) {
		if (!sysctl_chart(i))
			continue;
		ret = check_target(outdir, sysctl_chart(i)->chart, ".png");
		ret = ret ?: check_target(outdir, sysctl_chart(i)->chart, ".svg");
	}
	ret = ret ?: check_target(outdir, "refresh-sweep", ".csv");
	if (ret || monitor_file)
		return ret ?: check_monitor_targets(dir, outdir);
	snprintf(pat, sizeof(pat), "%s/*" MONITOR_SUFFIX, dir);
	if (glob(pat, 0, NULL, &g))
		return 0;
	for (i = 0; i < g.gl_pathc && !ret; i++)
		ret = check_monitor_targets(g.gl_pathv[i], outdir);
	globfree(&g);
	return ret;
}

/*
 * Paths go to gnuplot quoted (plot.c), so any character is fine but a
 * line break: refused here, with the scripts' folder, before any work.
 */
static int check_paths(const char *dir, const char *outdir)
{
	const char *plots = vsb_plots_dir();
	int ret = vsb_plot_path_check(dir, "plot:");

	ret = ret ?: vsb_plot_path_check(outdir, "-o");
	if (!ret && plots)
		ret = vsb_plot_path_check(plots, "plot: the scripts' folder");
	return ret;
}

/* `plot FILE.monitor.csv [-o DIR]`: DIR defaults to the file's folder */
static int plot_monitor_file(const char *file, const char *outdir)
{
	char dir[4096];
	const char *slash = strrchr(file, '/');
	int ret;

	if (!outdir) {
		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - file) : 1,
			 slash ? file : ".");
		outdir = dir;
	}
	ret = check_paths(file, outdir);
	ret = ret ?: vsb_chart_monitor_check(file);
	ret = ret ?: need_gnuplot();
	ret = ret ?: check_targets(file, outdir, 1);
	ret = ret ?: make_outdir(outdir);
	return ret ?: vsb_chart_monitor(file, outdir);
}

/* what DIR can hold, and what draws it */
static const struct {
	const char *file;
	int (*draw)(const char *csv, const char *outdir);
} inputs[] = {
	{ "sweep.csv", vsb_chart_sweep },
	{ "compare.csv", vsb_chart_compare },
	{ "refresh.csv", vsb_chart_refresh },
	{ "hotplug-summary.csv", vsb_chart_hotplug },
};
#define NINPUTS (sizeof(inputs) / sizeof(inputs[0]))

/*
 * Every input of DIR read and checked (charts_check.c), before OUTDIR
 * or any file exists: 0, or the refusal.  *@any: DIR holds something
 * to draw.
 */
static int check_inputs(const char *dir, int *any)
{
	char path[4096 + 32];
	struct stat st;
	glob_t g;
	size_t i;
	int ret = 0;

	*any = 0;
	for (i = 0; i < NINPUTS && !ret; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, inputs[i].file);
		if (lstat(path, &st))
			continue;
		*any = 1;
		ret = vsb_chart_check(inputs[i].file, path);
	}
	snprintf(path, sizeof(path), "%s/*" MONITOR_SUFFIX, dir);
	if (ret || glob(path, 0, NULL, &g))
		return ret;
	for (i = 0; i < g.gl_pathc && !ret; i++) {
		*any = 1;
		ret = vsb_chart_monitor_check(g.gl_pathv[i]);
	}
	globfree(&g);
	return ret;
}

int vsb_cmd_plot(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct vsb_getopt g = VSB_GETOPT("plot", "o:", lopts, usage, argc, argv);
	const char *outdir = NULL, *dir, *arg;
	char path[4096 + 32];
	int c, ret, any, drawn = 0;
	size_t i;

	while ((c = vsb_getopt_next(&g, &arg)) > 0)
		if (c == 'o')
			outdir = arg;
	if (c < 0)
		return vsb_getopt_status(c);
	if (argc - optind != 1) {
		vsb_err("plot: needs one result directory (see plot --help)");
		return VSB_EXIT_USAGE;
	}
	dir = argv[optind];
	if (is_monitor_file(dir))
		return plot_monitor_file(dir, outdir);
	if (!outdir)
		outdir = dir;
	ret = check_paths(dir, outdir);
	ret = ret ?: check_inputs(dir, &any);
	if (ret)
		return ret;
	if (!any) {
		vsb_err("%s: no sweep.csv, compare.csv, refresh.csv or hotplug-summary.csv: "
			"give a `sweep -o` or `compare -o` directory", dir);
		return VSB_EXIT_USAGE;
	}
	ret = need_gnuplot();
	ret = ret ?: check_targets(dir, outdir, 0);
	ret = ret ?: make_outdir(outdir);
	for (i = 0; i < NINPUTS && !ret; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, inputs[i].file);
		if (access(path, F_OK) == 0)
			ret = inputs[i].draw(path, outdir);
	}
	/* a sweep's or a run folder's FILE.monitor.csv series, one chart each */
	if (!ret)
		ret = vsb_chart_monitors(dir, outdir, &drawn);
	return ret;
}
