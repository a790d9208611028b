/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Drawing a chart through gnuplot: find the scripts (plots/), run one on
 * a CSV into PNG and SVG, title it with the machine.  Plus the small
 * helpers chart builders use to hand gnuplot the lists it cannot
 * collect from a CSV by itself (core counts, variants).  Used by `plot`
 * and by `compare -o` for its regression chart.
 */
#ifndef VSB_PLOT_H
#define VSB_PLOT_H

#include <stddef.h>

/* Directory holding the gnuplot scripts (plots/); NULL if not found. */
const char *vsb_plots_dir(void);
/* 1 if gnuplot can be run. */
int vsb_have_gnuplot(void);
/*
 * Run plots/<chart>.gp on @csv, writing <outdir>/<chart>.png and .svg;
 * @title is any text (quoted here); @vars are extra gnuplot assignments
 * ("a='x'; b=2;") whose strings the caller made safe.  0 or VSB_EXIT_*.
 */
int vsb_plot_chart(const char *chart, const char *csv, const char *outdir,
		   const char *title, const char *vars);
/* The same, writing <outdir>/<name>.png and .svg (one chart per series):
 * each through its own temporary, so nothing but those two is replaced. */
int vsb_plot_chart_as(const char *chart, const char *name, const char *csv,
		      const char *outdir, const char *title, const char *vars);
/*
 * Paths go to gnuplot as string literals, whatever characters they hold
 * (a checkout under .../o'brien/ included): only a line break cannot be
 * said.  vsb_plot_path_check() refuses that (VSB_EXIT_USAGE after one
 * line naming @what and @path), for commands to call before any work;
 * vsb_gp_string() writes @s quoted, 0, or -1 for a line break or no room.
 */
int vsb_plot_path_check(const char *path, const char *what);
int vsb_gp_string(char *buf, size_t len, const char *s);
/* "cpu_model, kernel release" from a CSV's metadata, for titles. */
void vsb_plot_title(const char *cpu_model, const char *kernel, char *buf,
		    size_t len);

#endif /* VSB_PLOT_H */
