// SPDX-License-Identifier: GPL-2.0
/*
 * The gnuplot driver: where the scripts are, whether gnuplot is there,
 * and one chart drawn as PNG and SVG.  A chart appears complete or not
 * at all (written to a temporary name, renamed when gnuplot succeeded),
 * and a failure says gnuplot's own first complaint, not just its status.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
