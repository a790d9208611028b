// SPDX-License-Identifier: GPL-2.0
/*
 * DIR/index.html of `vmstat-bench history`: one static page (no script,
 * no external resource, relative links only) that a CI artifact or a
 * mailing-list link opens as is.  It lists the machines, then for every
 * series its SVG trend chart, the kernels it spans, its change points
 * and the --check verdict.  Every text from the store is HTML-escaped.
 */
#include <string.h>

#include "vsb.h"
#include "history.h"

static void esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*s, f);
		}
	}
}

static const char style[] =
"body{font-family:sans-serif;margin:1.5em auto;max-width:1100px;color:#222}"
"h1{font-size:1.5em}h2{font-size:1.15em;margin-top:2em;border-top:1px solid #ccc;"
"padding-top:.8em}table{border-collapse:collapse;margin:.5em 0}"
"td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;font-size:.9em}"
"th{background:#f3f3f3}td.n{text-align:right}.reg{color:#b00;font-weight:bold}"
".ok{color:#070}img{max-width:100%;border:1px solid #ddd}code{font-size:.9em;overflow-wrap:anywhere}"
".small{font-size:.85em;color:#555}";

/* "release, revision, date" of one entry */
static void entry_label(FILE *f, const struct vsb_hist_entry *e)
{
	esc(f, e->run->kernel);
	fputs(" &middot; ", f);
	esc(f, e->run->revision[0] ? e->run->revision : "?");
	fputs(" &middot; ", f);
	esc(f, e->run->date);
}

static void verdict(FILE *f, const struct vsb_hist_series *hs)
{
	const struct vsb_cp_verdict *v = &hs->verdict;

	if (v->regression)
		fprintf(f, "<span class=\"reg\">newest entry is a regression: %+.1f%% "
			"(margin %.1f%%, p %.3g)</span>", 100 * v->rel_change,
			100 * v->margin, v->p_value);
	else if (hs->moved)
		fprintf(f, "<span class=\"ok\">newest entry not judged: %+.1f%%, but its "
			"CPUs moved (c2c %.0f &rarr; %.0f ns)</span>", 100 * v->rel_change,
			hs->c2c_base, hs->c2c_new);
	else
		fputs("<span class=\"ok\">newest entry: no significant regression</span>", f);
}

/* The distinct kernels of a series, in history order, with run counts. */
static void kernels(FILE *f, const struct vsb_hist_series *hs)
{
	size_t i, j, cnt;

	fputs("<p class=\"small\">kernels: ", f);
	for (i = 0; i < hs->n; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(hs->e[j].run->kernel, hs->e[i].run->kernel))
				break;
		if (j < i)
			continue;
		for (cnt = 0, j = i; j < hs->n; j++)
			cnt += !strcmp(hs->e[j].run->kernel, hs->e[i].run->kernel);
		fputs(i ? ", " : "", f);
		fputs("<code>", f);
		esc(f, hs->e[i].run->kernel);
		fprintf(f, "</code> (%zu)", cnt);
	}
	fputs("</p>\n", f);
}

static void cp_table(FILE *f, const struct vsb_hist_series *hs)
{
	size_t k;

	if (!hs->ncp) {
		fputs("<p>no change points</p>\n", f);
		return;
	}
	fputs("<table><tr><th>#</th><th>from entry</th><th>to entry</th><th>before</th>"
	      "<th>after</th><th>change</th><th>p</th></tr>\n", f);
	for (k = 0; k < hs->ncp; k++) {
		const struct vsb_cp *c = &hs->cp[k];

		fprintf(f, "<tr><td class=\"n\">%zu</td><td>%zu: ", k + 1, c->index - 1);
		entry_label(f, &hs->e[c->index - 1]);
		fprintf(f, "</td><td>%zu: ", c->index);
		entry_label(f, &hs->e[c->index]);
		fprintf(f, "</td><td class=\"n\">%.4g</td><td class=\"n\">%.4g</td>"
			"<td class=\"n%s\">%+.1f%%%s</td><td class=\"n\">%.3g</td></tr>\n",
			c->before, c->after,
			c->rel_change > 0 && !vsb_hist_cp_one_build(hs, k) ? " reg" : "",
			100 * c->rel_change,
			vsb_hist_cp_one_build(hs, k) ? " (machine step: one build)" : "",
			c->p_value);
	}
	fputs("</table>\n", f);
}

static void one_series(FILE *f, const struct vsb_hist_out *p, size_t i)
{
	const struct vsb_hist_series *hs = p->hs;

	fprintf(f, "<h2 id=\"s%zu\">", i + 1);
	esc(f, p->label);
	fputs("</h2>\n<p>machine <code>", f);
	esc(f, hs->machine);
	fputs("</code> (", f);
	esc(f, hs->cpu_model[0] ? hs->cpu_model : "unknown CPU");
	fprintf(f, "), %zu entries, unit <code>", hs->n);
	esc(f, hs->unit);
	fputs("</code> per op; ", f);
	verdict(f, hs);
	fputs("</p>\n<p class=\"small\">point <code>", f);
	esc(f, hs->point_key);
	fputs("</code></p>\n", f);
	kernels(f, hs);
	if (p->has_chart) {
		fputs("<p><img src=\"", f);
		esc(f, p->dir);
		fputs("/history.svg\" alt=\"trend chart of ", f);
		esc(f, p->label);
		fputs("\"></p>\n", f);
	} else {
		fputs("<p class=\"small\">(no chart: gnuplot is not installed)</p>\n", f);
	}
	cp_table(f, hs);
	fputs("<p class=\"small\">data: <a href=\"", f);
	esc(f, p->dir);
	fputs("/history.csv\">history.csv</a></p>\n", f);
}

/* Every machine of the page once, with its series count. */
static void machines(FILE *f, const struct vsb_hist_out *ps, size_t n)
{
	size_t i, j, cnt;

	fputs("<table><tr><th>machine</th><th>CPU</th><th>series</th></tr>\n", f);
	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(ps[j].hs->machine, ps[i].hs->machine))
				break;
		if (j < i)
			continue;
		for (cnt = 0, j = i; j < n; j++)
			cnt += !strcmp(ps[j].hs->machine, ps[i].hs->machine);
		fputs("<tr><td><code>", f);
		esc(f, ps[i].hs->machine);
		fputs("</code></td><td>", f);
		esc(f, ps[i].hs->cpu_model);
		fprintf(f, "</td><td class=\"n\">%zu</td></tr>\n", cnt);
	}
	fputs("</table>\n", f);
}

static void contents(FILE *f, const struct vsb_hist_out *ps, size_t n)
{
	size_t i;

	fputs("<table><tr><th>series</th><th>machine</th><th>entries</th>"
	      "<th>change points</th><th>newest entry</th></tr>\n", f);
	for (i = 0; i < n; i++) {
		fprintf(f, "<tr><td><a href=\"#s%zu\">", i + 1);
		esc(f, ps[i].label);
		fputs("</a></td><td><code>", f);
		esc(f, ps[i].hs->machine);
		fprintf(f, "</code></td><td class=\"n\">%zu</td><td class=\"n\">%zu</td><td>",
			ps[i].hs->n, ps[i].hs->ncp);
		fputs(ps[i].hs->verdict.regression ? "<span class=\"reg\">regression</span>" :
		      "ok", f);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

int vsb_hist_write_html(FILE *f, const struct vsb_hist_out *ps, size_t n,
			enum vsb_hist_by by, const char *store_url)
{
	size_t i, nreg = 0;

	for (i = 0; i < n; i++)
		nreg += ps[i].hs->verdict.regression != 0;
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<title>vmstat-bench history</title>\n<style>%s</style>\n</head>\n<body>\n"
		"<h1>vmstat-bench history</h1>\n<p>store <code>", style);
	esc(f, store_url);
	fprintf(f, "</code>, entries ordered by %s; %zu series, %zu with the newest "
		"entry a regression. Each entry is one run: its median cost per op with "
		"the bootstrap 95%% CI of the median; dashed red lines mark change points "
		"(E-Divisive means, permutation p &le; %g, a step of %g%% or more).</p>\n",
		vsb_hist_by_name(by), n, nreg, VSB_HIST_CP_ALPHA, 100 * VSB_HIST_CP_MIN_REL);
	fputs("<h2>machines</h2>\n", f);
	machines(f, ps, n);
	fputs("<h2>series</h2>\n", f);
	contents(f, ps, n);
	for (i = 0; i < n; i++)
		one_series(f, &ps[i], i);
	fputs("</body>\n</html>\n", f);
	return ferror(f) ? -1 : 0;
}
