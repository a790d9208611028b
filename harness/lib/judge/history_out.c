// SPDX-License-Identifier: GPL-2.0
/*
 * The files of `vmstat-bench history -o DIR` other than index.html:
 * each series' history.csv (what plots/history.gp reads: one row per
 * entry, its change point and x label), its trend chart, and the
 * summary of every change point as CSV and markdown.  Writers take an
 * open FILE (the command writes each file whole or not at all).
 */
#include <stdlib.h>
#include <string.h>

#include "vsb.h"
#include "history.h"
#include "plot.h"

/* The group an entry belongs to on the x axis: kernel, revision or day. */
static void group_of(const struct vsb_hist_entry *e, enum vsb_hist_by by,
		     char *buf, size_t len)
{
	const struct vsb_series_run *r = e->run;

	if (by == VSB_HIST_BY_KERNEL)
		snprintf(buf, len, "%s", r->kernel);
	else if (by == VSB_HIST_BY_REVISION)
		snprintf(buf, len, "%s", r->revision[0] ? r->revision : "?");
	else
		snprintf(buf, len, "%.10s", r->date);
}

#define MAX_TICKS 24

/*
 * Which entries get an x label: where a group starts, thinned to at most
 * MAX_TICKS; with a single group (one day, say), evenly spaced entries.
 */
static void pick_ticks(const struct vsb_hist_series *hs, enum vsb_hist_by by,
		       unsigned char *tick)
{
	char a[256], b[256];
	size_t i, starts = 0, step, k = 0;

	for (i = 0; i < hs->n; i++) {
		group_of(&hs->e[i], by, a, sizeof(a));
		if (i)
			group_of(&hs->e[i - 1], by, b, sizeof(b));
		tick[i] = !i || strcmp(a, b);
		starts += tick[i];
	}
	if (starts == 1)
		memset(tick, 1, hs->n);
	starts = starts == 1 ? hs->n : starts;
	step = (starts + MAX_TICKS - 1) / MAX_TICKS;
	for (i = 0; i < hs->n; i++)
		if (tick[i])
			tick[i] = (k++ % step) == 0;
}

/* CSV cells gnuplot reads unquoted: no commas or quotes inside */
static void cell(FILE *f, const char *s)
{
	fputc(',', f);
	for (; *s; s++)
		fputc(*s == ',' ? ';' : *s == '"' ? '\'' : *s, f);
}

/* a date label: the time of day alone when the whole series is one day */
static void tick_text(const struct vsb_hist_series *hs, size_t i, enum vsb_hist_by by,
		      char *buf, size_t len)
{
	const char *d = hs->e[i].run->date, *t = strlen(d) > 11 ? d + 11 : "";
	int oneday = !strncmp(hs->e[0].run->date, hs->e[hs->n - 1].run->date, 10);

	if (by != VSB_HIST_BY_DATE)
		group_of(&hs->e[i], by, buf, len);
	else if (oneday)
		snprintf(buf, len, "%.8s", t);
	else
		snprintf(buf, len, "%.10s %.5s", d, t);
}

int vsb_hist_write_series_csv(FILE *f, const struct vsb_hist_out *os, size_t n,
			      enum vsb_hist_by by, const char *url)
{
	const struct vsb_hist_series *hs = os->hs;
	unsigned char *tick = vsb_zalloc(hs->n ?: 1);
	char t[256];
	size_t i;

	(void)n;
	(void)url;
	pick_ticks(hs, by, tick);
	fprintf(f, "# point: %s\n# machine: %s\n# cpu_model: %s\n# unit: %s\n# by: %s\n",
		hs->point_key, hs->machine, hs->cpu_model, hs->unit, vsb_hist_by_name(by));
	fputs("index,run_id,kernel,revision,date,n,median,ci_lo,ci_hi,seg_median,"
	      "cp,cp_rel,cp_p,cp_label,tick,show_tick,c2c_ns,cp_kind\n", f);
	for (i = 0; i < hs->n; i++) {
		const struct vsb_hist_entry *e = &hs->e[i];
		const struct vsb_cp *c = e->cp ? &hs->cp[e->cp - 1] : NULL;

		fprintf(f, "%zu", i);
		cell(f, e->run->run_id);
		cell(f, e->run->kernel);
		cell(f, e->run->revision);
		cell(f, e->run->date);
		fprintf(f, ",%zu,%.6g,%.6g,%.6g,%.6g,%zu", e->run->n, e->median,
			e->ci_lo, e->ci_hi, e->seg_median, e->cp);
		/* with many change points only the size fits beside each line */
		if (c && hs->ncp <= 3)
			fprintf(f, ",%.6g,%.4g,%+.1f%% (p %.3g)%s", c->rel_change,
				c->p_value, 100 * c->rel_change, c->p_value,
				vsb_hist_cp_moved(hs, e->cp - 1) ? " CPUs moved" :
				vsb_hist_cp_one_build(hs, e->cp - 1) ? " one build" : "");
		else if (c)
			fprintf(f, ",%.6g,%.4g,%+.1f%%%s", c->rel_change, c->p_value,
				100 * c->rel_change,
				vsb_hist_cp_moved(hs, e->cp - 1) ? " moved" : "");
		else
			fputs(",,,", f);
		tick_text(hs, i, by, t, sizeof(t));
		cell(f, t);
		fprintf(f, ",%d,", tick[i]);
		if (e->run->c2c_ns > 0)
			fprintf(f, "%.1f", e->run->c2c_ns);
		/* code: a change point; machine: a step between runs of one build */
		fputs(!c ? "," : vsb_hist_cp_one_build(hs, e->cp - 1) ? ",machine" : ",code", f);
		fputc('\n', f);
	}
	free(tick);
	return ferror(f) ? -1 : 0;
}

/* gnuplot single-quoted, enhanced text: no quotes, specials escaped */
static void gp_text(char *out, size_t len, const char *s)
{
	size_t k = 0;

	for (; *s && k + 3 < len; s++) {
		if (strchr("'\"\\", *s)) {
			out[k++] = '`';
			continue;
		}
		if (strchr("_^@&~{}", *s))
			out[k++] = '\\';
		out[k++] = *s;
	}
	out[k] = '\0';
}

void vsb_hist_verdict_line(const struct vsb_hist_series *hs, char *buf, size_t len)
{
	const struct vsb_cp_verdict *v = &hs->verdict;

	if (v->regression)
		snprintf(buf, len, "newest entry: REGRESSION %+.1f%% vs entries %zu-%zu",
			 100 * v->rel_change, v->base_start, v->base_end - 1);
	else if (hs->moved)
		snprintf(buf, len, "newest entry: not judged, %+.1f%% vs entries %zu-%zu "
			 "but its CPUs moved (c2c %.0f -> %.0f ns)", 100 * v->rel_change,
			 v->base_start, v->base_end - 1, hs->c2c_base, hs->c2c_new);
	else if (hs->one_build_newest)
		snprintf(buf, len, "newest entry: not judged, %+.1f%% vs entries %zu-%zu "
			 "but all of one build (the machine moved, not the code)",
			 100 * v->rel_change, v->base_start, v->base_end - 1);
	else if (v->rule == VSB_CP_RULE_NONE)
		snprintf(buf, len, "newest entry: inconclusive (%zu entries: no baseline "
			 "to judge it against yet)", hs->n);
	else if (!strcmp(hs->check, "same"))
		snprintf(buf, len, "newest entry: same (%+.1f%%, 95%% CI [%.3f, %.3f] "
			 "within +-%g%%)", 100 * v->rel_change, hs->check_lo, hs->check_hi,
			 100 * VSB_CP_THRESHOLD);
	else
		/* the margin is the smallest step the rule would call: its MDE */
		snprintf(buf, len, "newest entry: %s (%+.1f%%, 95%% CI [%.3f, %.3f]; "
			 "could not tell changes below %.1f%%)", hs->check,
			 100 * v->rel_change, hs->check_lo, hs->check_hi, 100 * v->margin);
}

int vsb_hist_chart(const char *outdir, const struct vsb_hist_out *os, enum vsb_hist_by by)
{
	const struct vsb_hist_series *hs = os->hs;
	char dir[4096], csv[4400], title[512], lab[1024], vars[2048], verdict[160];
	char sub[700];
	size_t i;

	snprintf(dir, sizeof(dir), "%s/%s", outdir, os->dir);
	snprintf(csv, sizeof(csv), "%s/history.csv", dir);
	snprintf(sub, sizeof(sub), "%s (machine %s), %s per op, one entry per run, by %s",
		 hs->cpu_model[0] ? hs->cpu_model : "unknown CPU", hs->machine,
		 !strcmp(hs->unit, "tsc") ? "TSC ticks" : hs->unit, vsb_hist_by_name(by));
	gp_text(title, sizeof(title), sub);
	gp_text(lab, sizeof(lab), os->label);
	vsb_hist_verdict_line(hs, verdict, sizeof(verdict));
	for (i = 0; i < hs->n && !(hs->e[i].run->c2c_ns > 0); i++)
		;
	snprintf(vars, sizeof(vars), "pointlabel='%s'; byname='%s'; nentries=%zu; "
		 "ncp=%zu; nmachine=%zu; verdict='%s'; regression=%d; unit='%s'; "
		 "hasc2c=%d;", lab, vsb_hist_by_name(by), hs->n, vsb_hist_ncode(hs),
		 hs->ncp - vsb_hist_ncode(hs), verdict, hs->verdict.regression,
		 strchr(hs->unit, '\'') ? "?" : hs->unit, i < hs->n);
	return vsb_plot_chart("history", csv, dir, title, vars);
}

/* RFC 4180: the point keys hold commas */
static void qcell(FILE *f, const char *s, int first)
{
	if (!first)
		fputc(',', f);
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void entry_cells(FILE *f, const struct vsb_hist_entry *e)
{
	qcell(f, e->run->run_id, 0);
	qcell(f, e->run->kernel, 0);
	qcell(f, e->run->revision, 0);
	qcell(f, e->run->date, 0);
}

int vsb_hist_write_summary_csv(FILE *f, const struct vsb_hist_out *os, size_t n,
			       enum vsb_hist_by by, const char *url)
{
	size_t i, k;

	(void)url;
	fprintf(f, "# by: %s\n# alpha: %g\n# min_step: %g\n", vsb_hist_by_name(by),
		VSB_HIST_CP_ALPHA, VSB_HIST_CP_MIN_REL);
	fputs("series,point,label,machine,cpu_model,unit,from_index,from_run,from_kernel,"
	      "from_revision,from_date,to_index,to_run,to_kernel,to_revision,to_date,"
	      "before,after,rel_change,p_value,newest_regression,kind\n", f);
	for (i = 0; i < n; i++) {
		const struct vsb_hist_series *hs = os[i].hs;

		for (k = 0; k < hs->ncp; k++) {
			const struct vsb_cp *c = &hs->cp[k];

			qcell(f, os[i].dir, 1);
			qcell(f, hs->point_key, 0);
			qcell(f, os[i].label, 0);
			qcell(f, hs->machine, 0);
			qcell(f, hs->cpu_model, 0);
			qcell(f, hs->unit, 0);
			fprintf(f, ",%zu", c->index - 1);
			entry_cells(f, &hs->e[c->index - 1]);
			fprintf(f, ",%zu", c->index);
			entry_cells(f, &hs->e[c->index]);
			fprintf(f, ",%.6g,%.6g,%.6g,%.4g,%d,%s\n", c->before, c->after,
				c->rel_change, c->p_value, hs->verdict.regression &&
				hs->verdict.new_start == c->index,
				vsb_hist_cp_one_build(hs, k) ? "machine" : "code");
		}
	}
	return ferror(f) ? -1 : 0;
}

static void md_entry(FILE *f, const struct vsb_hist_entry *e, size_t i)
{
	fprintf(f, "%zu: %s, %.12s, %s", i, e->run->kernel,
		e->run->revision[0] ? e->run->revision : "?", e->run->date);
}

int vsb_hist_write_summary_md(FILE *f, const struct vsb_hist_out *os, size_t n,
			      enum vsb_hist_by by, const char *url)
{
	char v[160];
	size_t i, k;

	fprintf(f, "# vmstat-bench history\n\n- store: `%s`\n- order: by %s, one entry "
		"per run (median of its repetitions, bootstrap 95%% CI)\n- change points: "
		"E-Divisive means, permutation p <= %g and a step of %g%% or more; --check: "
		"p < %g and beyond %g%%\n\n"
		"- machine steps: change points between runs of one build (one kernel, "
		"one clean revision, in the segments either side): not the code's\n\n"
		"| series | machine | unit | entries | change points | machine steps | newest entry |\n"
		"|---|---|---|---:|---:|---:|---|\n", url, vsb_hist_by_name(by), VSB_HIST_CP_ALPHA,
		100 * VSB_HIST_CP_MIN_REL, VSB_CP_CHECK_ALPHA, 100 * VSB_CP_THRESHOLD);
	for (i = 0; i < n; i++) {
		const struct vsb_hist_series *hs = os[i].hs;

		vsb_hist_verdict_line(hs, v, sizeof(v));
		fprintf(f, "| %s | %s | %s | %zu | %zu | %zu | %s |\n", os[i].label,
			hs->machine, hs->unit, hs->n, vsb_hist_ncode(hs),
			hs->ncp - vsb_hist_ncode(hs), v + strlen("newest entry: "));
	}
	fputs("\n## change points\n\n| series | from | to | before | after | change | p |\n"
	      "|---|---|---|---:|---:|---:|---:|\n", f);
	for (i = 0; i < n; i++)
		for (k = 0; k < os[i].hs->ncp; k++) {
			const struct vsb_cp *c = &os[i].hs->cp[k];

			fprintf(f, "| %s | ", os[i].label);
			md_entry(f, &os[i].hs->e[c->index - 1], c->index - 1);
			fputs(" | ", f);
			md_entry(f, &os[i].hs->e[c->index], c->index);
			fprintf(f, " | %.4g | %.4g | %+.1f%%", c->before, c->after,
				100 * c->rel_change);
			if (vsb_hist_cp_moved(os[i].hs, k))
				fprintf(f, " (CPUs moved: c2c %.0f -> %.0f ns)",
					os[i].hs->cp_c2c[k][0], os[i].hs->cp_c2c[k][1]);
			if (vsb_hist_cp_one_build(os[i].hs, k))
				fputs(" (machine step: one build)", f);
			fprintf(f, " | %.3g |\n", c->p_value);
		}
	for (i = 0; i < n; i++) {
		if (!os[i].has_chart)
			continue;
		fprintf(f, "\n### %s (%s)\n\n![trend](%s/history.png)\n", os[i].label,
			os[i].hs->machine, os[i].dir);
	}
	return ferror(f) ? -1 : 0;
}
