// SPDX-License-Identifier: GPL-2.0
/*
 * The gnuplot driver: where the scripts are, whether gnuplot is there,
 * and one chart drawn as PNG and SVG.  A chart appears complete or not
 * at all (written to a temporary name, renamed when gnuplot succeeded),
 * and a failure says gnuplot's own first complaint, not just its status.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plot.h"
#include "vsb.h"

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
}

/*
 * @s for a gnuplot single-quoted string into @buf: a quote, backslash or
 * line break would end the string and run the rest as gnuplot code
 * (system() included), so each becomes a backquote.
 */
static void gp_quoted(char *buf, size_t len, const char *s)
{
	char *c;

	snprintf(buf, len, "%s", s);
	for (c = buf; *c; c++)
		if (strchr("'\\\"\n\r", *c))
			*c = '`';
}

/*
 * @s as a gnuplot string literal, quotes included, into @buf, so that a
 * path is that path, never code.  Double-quoted, every byte but
 * letters, digits and "/._-" written as an octal escape: gnuplot 5.4
 * misreads doubled quotes in a single-quoted string (a''''b), and runs
 * a backquoted command even inside double quotes unless the backquote
 * is an escape.  A digit right after an escape is escaped too: gnuplot
 * reads "\0750" (=0) as one escape of four digits, octal 750.
 * -1 when @s holds a line break (it ends the command,
 * whatever the quoting) or does not fit.
 */
int vsb_gp_string(char *buf, size_t len, const char *s)
{
	size_t k = 0;
	int escaped = 0;

	if (len < 3 || strpbrk(s, "\n\r"))
		return -1;
	buf[k++] = '"';
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (k + 6 >= len)
			return -1;
		if ((isalnum(c) || strchr("/._-", c)) && !(escaped && isdigit(c))) {
			buf[k++] = (char)c;
			escaped = 0;
		} else {
			k += (size_t)snprintf(buf + k, len - k, "\\%03o", c);
			escaped = 1;
		}
	}
	buf[k++] = '"';
	buf[k] = '\0';
	return 0;
}

int vsb_plot_path_check(const char *path, const char *what)
{
	if (!strpbrk(path, "\n\r"))
		return 0;
	vsb_err("%s %s: a line break in a path: gnuplot cannot be given it; "
		"refused, nothing drawn", what, path);
	return VSB_EXIT_USAGE;
}

/*
 * gnuplot's stderr, in a file of our own (mkstemp: O_EXCL, so never a
 * link or FIFO planted at that name); the descriptor, or -1.
 */
static int err_file(const char *outdir, const char *chart, char *path, size_t len)
{
	snprintf(path, len, "%s/.%s.gnuplot-err.XXXXXX", outdir, chart);
	return mkostemp(path, O_CLOEXEC);
}

/* the first line gnuplot complained with: says most */
static void first_complaint(int fd, char *line, size_t len)
{
	FILE *ef = fdopen(dup(fd), "r");

	line[0] = '\0';
	if (ef) {
		rewind(ef);
		while (fgets(line, (int)len, ef))
			if (strstr(line, "rror") || strstr(line, "line "))
				break;
		fclose(ef);
	}
	line[strcspn(line, "\n")] = '\0';
}

/* gnuplot -e @expr @script, its stdout and stderr into @efd; its status */
static int run_gnuplot(const char *expr, const char *script, int efd)
{
	int status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		dup2(efd, STDERR_FILENO);
		dup2(efd, STDOUT_FILENO);
		/* its complaints are read for "error" and "line": in these words */
		setenv("LC_ALL", "C", 1);
		execlp("gnuplot", "gnuplot", "-e", expr, script, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * Each format is written to a vsb_outfile's temporary (mkstemp beside
 * the target, which must be absent or a regular file) and renamed over
 * the target only when gnuplot succeeded: a chart is complete or absent.
 */
/*
 * gnuplot 5.4's strcol() ends a quoted cell at its first comma, though
 * column() counts the cells right: a label such as "cpus=0,1 ..." would
 * lose its tail in the chart.  Where @csv quotes a comma, gnuplot reads
 * a copy in @outdir whose quoted commas are U+201A, a low mark drawn as
 * a comma, so the label reads whole and the cell stays one cell.
 * 1 and @path: a copy made (the caller removes it); 0: read @csv as it
 * is (no quoted comma, or unreadable: gnuplot then says so); -1: error.
 */
static int gp_data_copy(const char *csv, const char *outdir, const char *chart,
			char *path, size_t len)
{
	char *buf;
	size_t n, i;
	int fd, quoted = 0, ret = 0;
	FILE *f;

	if (vsb_read_whole(csv, VSB_READ_MAX, &buf, &n))
		return 0;
	for (i = 0; i < n && !ret; i++) {
		quoted = buf[i] == '"' ? !quoted : buf[i] == '\n' ? 0 : quoted;
		ret = quoted && buf[i] == ',';
	}
	if (!ret)
		goto out;
	snprintf(path, len, "%s/.%s.data.XXXXXX", outdir, chart);
	fd = mkostemp(path, O_CLOEXEC);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		vsb_err("plot: cannot write %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		ret = -1;
		goto out;
	}
	for (i = 0, quoted = 0; i < n; i++) {
		quoted = buf[i] == '"' ? !quoted : buf[i] == '\n' ? 0 : quoted;
		if (quoted && buf[i] == ',')
			fputs("\xe2\x80\x9a", f);
		else
			fputc(buf[i], f);
	}
	if (fclose(f)) {
		vsb_err("plot: cannot write %s: %s", path, strerror(errno));
		unlink(path);
		ret = -1;
	}
out:
	free(buf);
	return ret;
}

static int plot_chart(const char *chart, const char *csv, const char *outdir,
		      const char *title, const char *vars)
{
	return vsb_plot_chart_as(chart, chart, csv, outdir, title, vars);
}

/*
 * gnuplot exits 0 though its terminal's writes failed (a full disk, a
 * file size limit): the chart is taken only when the file ends as its
 * format ends, a PNG with its IEND chunk, an SVG with </svg>.
 */
static int chart_whole(const char *path, const char *fmt)
{
	static const char png_end[] = "IEND\xae\x42\x60\x82";
	char tail[64];
	struct stat st;
	ssize_t n;
	int fd = vsb_open_regular(path, O_NOFOLLOW, &st), ok = 0;

	if (fd < 0)
		return 0;
	if (st.st_size >= 16) {
		off_t at = st.st_size > (off_t)sizeof(tail) ? st.st_size - (off_t)sizeof(tail) : 0;

		n = pread(fd, tail, sizeof(tail), at);
		if (!strcmp(fmt, "png"))
			ok = n >= 8 && !memcmp(tail + n - 8, png_end, 8);
		else {
			while (n > 0 && (tail[n - 1] == '\n' || tail[n - 1] == ' '))
				n--;
			ok = n >= 6 && !memcmp(tail + n - 6, "</svg>", 6);
		}
	}
	close(fd);
	return ok;
}

/* one format drawn into @o's temporary: 0, or VSB_EXIT_ERROR after one line */
static int draw_one(const char *chart, const char *fmt, const char *script,
		    const char *expr, const char *outdir, struct vsb_outfile *o)
{
	char err[4096 + 80], line[512];
	int efd = err_file(outdir, chart, err, sizeof(err)), ret = 0;

	if (efd < 0) {
		vsb_err("plot: cannot write %s: %s", err, strerror(errno));
		return VSB_EXIT_ERROR;
	}
	if (run_gnuplot(expr, script, efd) != 0) {
		first_complaint(efd, line, sizeof(line));
		vsb_err("plot: gnuplot %s.gp failed for %s: %s", chart, fmt,
			line[0] ? line : "no message");
		ret = VSB_EXIT_ERROR;
	} else if (fflush(o->f) || !chart_whole(o->tmp, fmt)) {
		vsb_err("plot: gnuplot left %s.%s incomplete (a full disk or a file size "
			"limit?): no chart written", chart, fmt);
		ret = VSB_EXIT_ERROR;
	}
	close(efd);
	unlink(err);
	return ret;
}

int vsb_plot_chart_as(const char *chart, const char *name, const char *csv,
		      const char *outdir, const char *title, const char *vars)
{
	static const char *const fmts[] = { "png", "svg" };
	const char *dir = vsb_plots_dir();
	char script[4096 + 64], out[4096 + 320], qtitle[1024];
	char qcsv[4 * 4096 + 3], qout[4 * 4096 + 140], qdir[4 * 4096 + 67];
	char *expr = NULL;
	struct vsb_outfile o[2];
	size_t i, open = 0;
	int ret = 0;

	if (!dir) {
		vsb_err("plot: cannot find the gnuplot scripts (plots/); set VSB_PLOTS_DIR");
		return VSB_EXIT_ERROR;
	}
	/* the callers checked their paths before any work; this is the last word */
	ret = vsb_plot_path_check(dir, "plot: the scripts' folder");
	ret = ret ?: vsb_plot_path_check(csv, "plot:");
	ret = ret ?: vsb_plot_path_check(outdir, "-o");
	if (ret)
		return ret;
	if (vsb_gp_string(qcsv, sizeof(qcsv), csv) || vsb_gp_string(qdir, sizeof(qdir), dir)) {
		vsb_err("plot: %s: too long a path for gnuplot", csv);
		return VSB_EXIT_USAGE;
	}
	gp_quoted(qtitle, sizeof(qtitle), title);	/* titles come from files */
	snprintf(script, sizeof(script), "%s/%s.gp", dir, chart);
	/* both formats drawn, then both renamed: the chart is whole or absent */
	for (i = 0; i < 2 && !ret; i++) {
		snprintf(out, sizeof(out), "%s/%s.%s", outdir, name, fmts[i]);
		ret = vsb_outfile_open(&o[i], out, "-o");
		if (ret)
			break;
		open++;
		free(expr);
		vsb_gp_string(qout, sizeof(qout), o[i].tmp);	/* outdir's, checked */
		if (asprintf(&expr, "datafile=%s; outfile=%s; fmt='%s'; "
			     "charttitle='%s'; plotsdir=%s; %s", qcsv, qout, fmts[i],
			     qtitle, qdir, vars) < 0) {
			vsb_err("out of memory");
			exit(VSB_EXIT_ERROR);
		}
		ret = draw_one(chart, fmts[i], script, expr, outdir, &o[i]);
	}
	free(expr);
	for (i = 0; i < open; i++) {
		if (ret)
			vsb_outfile_abort(&o[i]);
		else
			ret = vsb_outfile_commit(&o[i]);
	}
	if (!ret)
		printf("wrote %s/%s.png and .svg\n", outdir, name);
	return ret;
}

int vsb_plot_chart(const char *chart, const char *csv, const char *outdir,
		   const char *title, const char *vars)
{
	char data[4096 + 64];
	int copied = gp_data_copy(csv, outdir, chart, data, sizeof(data));
	int ret;

	if (copied < 0)
		return VSB_EXIT_ERROR;
	ret = plot_chart(chart, copied ? data : csv, outdir, title, vars);
	if (copied)
		unlink(data);
	return ret;
}
