// SPDX-License-Identifier: GPL-2.0
/*
 * `vmstat-bench history`: every stored point's series across runs (one
 * per point and machine), its change points and trend chart, and with
 * --check the CI gate on the newest entry.  Options are checked before
 * the store is opened; every series is read and checked (mixed units)
 * before anything is written; each file is written whole or not at all.
 * The series themselves are built in harness/lib/judge/history.c.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vsb.h"
#include "cmds.h"
#include "history.h"
#include "plot.h"
#include "store.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: vmstat-bench history [--db URL] [--machine M] [--where KEY=VALUE,...]\n"
"                            [--by kernel|revision|date] [--check] [-o DIR]\n"
"\n"
"Each stored point's history: one series per point and machine, one entry\n"
"per run (median cost per op, bootstrap 95%% CI of the median), change points\n"
"of the entries' medians (E-Divisive means, permutation p <= %g, steps of\n"
"%g%% or more).\n"
"\n"
"  -d, --db URL        the store [$VSB_DB, else %s]\n"
"  -m, --machine M     one machine: a fingerprint or a unique prefix (db list)\n"
"  -w, --where K=V,... only points whose parameter K is V (a key repeated:\n"
"                      any of its values); may be given more than once; V as\n"
"                      stored, a comma in it ';' (cpus=0;2, isolcpus=1;3)\n"
"  -b, --by ORDER      date (default), kernel (version order, 6.1.0-9 <\n"
"                      6.1.0-57 < 6.12.100), revision (by first run; date within)\n"
"  -c, --check         exit 1 when the newest entry of a series is a significant\n"
"                      regression against the segment before it (p < %g, over\n"
"                      %g%% and 3 standard errors), naming each; else each\n"
"                      newest entry is same (the 95%% CI of its ratio to the\n"
"                      baseline within +-that %%) or inconclusive (a series too\n"
"                      short or too noisy), exit 5 when one is\n"
"  -o, --output DIR    write index.html, summary.md, summary.csv and, per series,\n"
"                      NN-POINT/history.csv, .png and .svg (needed without --check)\n"
"  -h, --help          this text\n"
"\n"
"examples:\n"
"  vmstat-bench history -o results/history\n"
"  vmstat-bench history --by kernel --where variant=this-cpu-add,cpus=0 -o h\n"
"  vmstat-bench history --check --db ci.db -o ci/out/history\n"
"\n"
"exit status: 0 ok, 1 error or (--check) a regression, 2 bad usage or input\n"
"(unknown --by or --where key, no such machine, empty store, mixed units on a\n"
"point), 4 this build lacks the store's library, 5 (--check) no regression\n"
"but a series inconclusive.\n",
		VSB_HIST_CP_ALPHA, 100 * VSB_HIST_CP_MIN_REL, VSB_STORE_DEFAULT,
		VSB_CP_CHECK_ALPHA, 100 * VSB_CP_THRESHOLD);
}

#define MAX_WHERE 64

struct hist_opts {
	const char *url, *machine, *outdir;
	enum vsb_hist_by by;
	int check;
	size_t nwhere;
	char *wkey[MAX_WHERE], *wval[MAX_WHERE];
	char *wbuf[MAX_WHERE];	/* one copy per --where, the pairs point in */
	size_t nbuf;
};

/* Does @s start "NAME=" (a parameter name)? */
static int starts_key(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	while (isalnum((unsigned char)*s) || *s == '_')
		s++;
	return *s == '=';
}

/*
 * K=V,K=V: a comma starts a new pair only when NAME= follows, so a
 * value may hold commas (cpus=0,2,variant=x).
 */
static int parse_where(struct hist_opts *o, const char *arg)
{
	char *buf, *p;

	if (o->nbuf == MAX_WHERE || !(buf = strdup(arg)))
		goto err;
	o->wbuf[o->nbuf++] = buf;
	p = buf;
	if (!starts_key(p))
		goto err;
	while (p && o->nwhere < MAX_WHERE) {
		char *eq = strchr(p, '='), *c = eq;

		while ((c = strchr(c + 1, ',')) && !starts_key(c + 1))
			;
		if (c)
			*c = '\0';
		*eq = '\0';
		o->wkey[o->nwhere] = p;
		o->wval[o->nwhere++] = eq + 1;
		p = c ? c + 1 : NULL;
	}
	if (!p)
		return 0;
err:
	vsb_err("history: --where '%s': want KEY=VALUE[,KEY=VALUE...]", arg);
	return VSB_EXIT_USAGE;
}

/* The files -o DIR gets at its top, in write_outputs()'s order. */
static const char *const top_files[] = { "summary.csv", "summary.md", "index.html" };
#define NTOP (sizeof(top_files) / sizeof(top_files[0]))

/*
 * A file history will write must be absent or a regular file, as
 * vsb_outfile_open() wants; checked for every file before any is
 * written, since that open refuses each only when its turn comes.
 */
static int check_out_file(const char *dir, const char *name)
{
	char path[4400];
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = vsb_open_regular(path, O_NOFOLLOW, &st);
	if (fd >= 0)
		close(fd);
	else if (fd == -ELOOP || fd == -EISDIR || -fd >= VSB_ENOTREG) {
		vsb_err("history: -o: %s: %s: refused, nothing written", path,
			vsb_read_strerror(-fd));
		return VSB_EXIT_USAGE;
	}
	return 0;
}

/* -o DIR, before the store is read: a folder or a path to make one at. */
static int check_outdir(const char *dir)
{
	size_t i;

	/* gnuplot is handed the charts' paths: a line break refused now */
	if (vsb_dir_refusal(dir, "-o") || vsb_plot_path_check(dir, "history: -o"))
		return VSB_EXIT_USAGE;
	for (i = 0; i < NTOP; i++)
		if (check_out_file(dir, top_files[i]))
			return VSB_EXIT_USAGE;
	return 0;
}

static int parse(int argc, char **argv, struct hist_opts *o)
{
	static const struct option longs[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "machine", required_argument, NULL, 'm' },
		{ "where", required_argument, NULL, 'w' },
		{ "by", required_argument, NULL, 'b' },
		{ "check", no_argument, NULL, 'c' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct vsb_getopt g = VSB_GETOPT("history", "d:m:w:b:co:", longs, usage, argc, argv);
	const char *arg;
	int c;

	while ((c = vsb_getopt_next(&g, &arg)) > 0) {
		switch (c) {
		case 'd': o->url = arg; break;
		case 'm': o->machine = arg; break;
		case 'o': o->outdir = arg; break;
		case 'c': o->check = 1; break;
		case 'w':
			if (parse_where(o, arg))
				return VSB_EXIT_USAGE;
			break;
		case 'b':
			if (vsb_hist_by_parse(arg, &o->by)) {
				vsb_err("history: --by '%s': want kernel, revision or date", arg);
				return VSB_EXIT_USAGE;
			}
			break;
		}
	}
	if (c < 0)
		return c == VSB_GETOPT_HELP ? -1 : VSB_EXIT_USAGE;
	if (optind < argc) {
		vsb_err("history: unexpected argument '%s'", argv[optind]);
		return VSB_EXIT_USAGE;
	}
	if ((o->url && !*o->url) || (o->machine && !*o->machine) ||
	    (o->outdir && !*o->outdir)) {
		vsb_err("history: an empty --db, --machine or --output");
		return VSB_EXIT_USAGE;
	}
	if (!o->outdir && !o->check) {
		vsb_err("history: name an output folder with -o DIR (or gate with --check)");
		return VSB_EXIT_USAGE;
	}
	return o->outdir ? check_outdir(o->outdir) : 0;
}

/* All that was read: the store's series (owned) and ours (borrowing). */
struct hist {
	struct vsb_store_point *pts;
	size_t npts;
	struct vsb_series **se;		/* one per selected point */
	const struct vsb_store_point **sel;	/* ... and its point */
	size_t nse;
	struct vsb_hist_series **hs;	/* per selected point, per machine */
	size_t *nhs;
	char **label;			/* per selected point */
	char machine[24];
};

/* Every --where key must be some stored point's parameter. */
static int check_where(const struct hist_opts *o, const struct hist *h)
{
	size_t i, j;

	for (i = 0; i < o->nwhere; i++) {
		for (j = 0; j < h->npts; j++)
			if (vsb_store_point_param(&h->pts[j], o->wkey[i]))
				break;
		if (j == h->npts) {
			vsb_err("history: --where: no stored point has a parameter '%s' "
				"(see db list --points)", o->wkey[i]);
			return VSB_EXIT_USAGE;
		}
	}
	return 0;
}

/* Each key given must match one of its values. */
static int where_match(const struct hist_opts *o, const struct vsb_store_point *p)
{
	size_t i, j;

	for (i = 0; i < o->nwhere; i++) {
		int any = 0, hit = 0;

		for (j = 0; j < o->nwhere; j++) {
			const char *val;

			if (strcmp(o->wkey[j], o->wkey[i]))
				continue;
			any = 1;
			val = vsb_store_point_param(p, o->wkey[j]);
			if (val && !strcmp(val, o->wval[j]))
				hit = 1;
		}
		if (any && !hit)
			return 0;
	}
	return 1;
}

/* --machine: an exact fingerprint or a unique prefix. */
static int resolve_machine(struct vsb_store *s, const char *want, char *fp, size_t len)
{
	struct vsb_store_machine *ms;
	size_t n, i, hits = 0;
	int ret = vsb_store_machines(s, &ms, &n);

	for (i = 0; !ret && i < n; i++) {
		if (!strcmp(ms[i].fingerprint, want)) {
			hits = 1;
			snprintf(fp, len, "%s", ms[i].fingerprint);
			break;
		}
		if (!strncmp(ms[i].fingerprint, want, strlen(want)) && !hits++)
			snprintf(fp, len, "%s", ms[i].fingerprint);
	}
	free(ms);
	if (!ret && hits != 1) {
		vsb_err("history: --machine '%s': %s (see db list)", want,
			hits ? "ambiguous prefix" : "no such machine");
		ret = VSB_EXIT_USAGE;
	}
	return ret;
}


static void *grow(void *p, size_t n, size_t size)
{
	p = realloc(p, n * size);
	if (!p) {
		vsb_err("out of memory");
		exit(VSB_EXIT_ERROR);
	}
	return p;
}

/* Does @name's value differ between the selected points? */
static int varies(const struct hist *h, const char *name, const char *val)
{
	size_t i;

	for (i = 0; i < h->nse; i++) {
		const char *other = vsb_store_point_param(h->sel[i], name);

		if (!other || strcmp(other, val))
			return 1;
	}
	return 0;
}

/*
 * A short name for each selected point: bench and variant, the CPUs,
 * and every parameter whose value differs between the selected points
 * (the full key is long: every option of the option table).
 */
static void make_labels(struct hist *h)
{
	size_t i, k;

	h->label = grow(NULL, h->nse ?: 1, sizeof(*h->label));
	for (i = 0; i < h->nse; i++) {
		const struct vsb_store_point *p = h->sel[i];
		char lab[1024] = "";
		size_t len = 0;

		for (k = 0; k < p->n && len < sizeof(lab) - 1; k++) {
			const char *key = p->name[k], *val = p->val[k];
			int plain = !strcmp(key, "bench") || !strcmp(key, "variant");

			if (!plain && strcmp(key, "cpus") && !varies(h, key, val))
				continue;
			len += (size_t)snprintf(lab + len, sizeof(lab) - len, "%s%s%s%s",
						len ? " " : "", plain ? "" : key,
						plain ? "" : "=", val);
		}
		h->label[i] = strdup(len ? lab : h->se[i]->point_key);
	}
}

/* Read the selected points' series and build their histories. */
static int load_series(struct vsb_store *s, const struct hist_opts *o, struct hist *h)
{
	const char *u1, *u2;
	size_t i;
	int ret;

	for (i = 0; i < h->npts; i++) {
		struct vsb_series se;

		if (!where_match(o, &h->pts[i]))
			continue;
		ret = vsb_store_series(s, h->pts[i].key, h->machine[0] ? h->machine : NULL, &se);
		if (ret)
			return ret;
		if (vsb_hist_mixed_units(&se, &u1, &u2)) {
			vsb_err("history: point %s: mixed units on one machine (%s and %s): refusing to "
				"chart or judge them as one series", se.point_key, u1, u2);
			vsb_series_free(&se);
			return VSB_EXIT_USAGE;
		}
		h->se = grow(h->se, h->nse + 1, sizeof(*h->se));
		h->hs = grow(h->hs, h->nse + 1, sizeof(*h->hs));
		h->nhs = grow(h->nhs, h->nse + 1, sizeof(*h->nhs));
		h->sel = grow(h->sel, h->nse + 1, sizeof(*h->sel));
		/* one allocation per series: the histories point into it */
		h->se[h->nse] = grow(NULL, 1, sizeof(se));
		*h->se[h->nse] = se;
		h->sel[h->nse] = &h->pts[i];
		ret = vsb_hist_build(h->se[h->nse], o->by, &h->hs[h->nse], &h->nhs[h->nse]);
		h->nse++;
		if (ret) {
			vsb_err("history: point %s: %s", se.point_key, strerror(-ret));
			return VSB_EXIT_ERROR;
		}
	}
	return 0;
}

static int load(const struct hist_opts *o, struct hist *h)
{
	struct vsb_store *s;
	size_t i, n = 0;
	int ret = vsb_store_open(o->url, VSB_STORE_READ, &s);

	if (ret)
		return ret;
	ret = vsb_store_points(s, &h->pts, &h->npts);
	if (!ret && !h->npts) {
		vsb_err("history: %s holds no runs (vmstat-bench db import first)",
			vsb_store_url(o->url));
		ret = VSB_EXIT_USAGE;
	}
	ret = ret ?: check_where(o, h);
	if (!ret && o->machine)
		ret = resolve_machine(s, o->machine, h->machine, sizeof(h->machine));
	ret = ret ?: load_series(s, o, h);
	vsb_store_close(s);
	for (i = 0; i < h->nse; i++)
		n += h->nhs[i];
	if (!ret && !n) {
		vsb_err("history: no stored run matches the --where and --machine given");
		ret = VSB_EXIT_USAGE;
	}
	if (!ret)
		make_labels(h);
	return ret;
}

static void hist_free(struct hist *h)
{
	size_t i;

	for (i = 0; i < h->nse; i++) {
		vsb_hist_free(h->hs[i], h->nhs[i]);
		vsb_series_free(h->se[i]);
		free(h->se[i]);
		if (h->label)
			free(h->label[i]);
	}
	free(h->se);
	free(h->sel);
	free(h->hs);
	free(h->nhs);
	free(h->label);
	vsb_store_points_free(h->pts, h->npts);
}

/* ---- output ---- */

/* "NN-label[_machine]" with file-name-safe characters only */
static void series_dir(struct vsb_hist_out *os, size_t i, int machines)
{
	size_t k = (size_t)snprintf(os->dir, sizeof(os->dir), "%02zu-", i + 1);
	const char *s;

	for (s = os->label; *s && k < 96; s++) {
		char c = *s;

		os->dir[k++] = isalnum((unsigned char)c) || c == '-' || c == '.' ? c :
			       c == '=' ? '-' : '_';
	}
	if (machines)
		k += (size_t)snprintf(os->dir + k, sizeof(os->dir) - k, "_%.10s",
				      os->hs->machine);
	os->dir[k] = '\0';
}

/* Every (point, machine) series in one list, in point then machine order. */
static struct vsb_hist_out *flatten(const struct hist *h, size_t *n)
{
	struct vsb_hist_out *os = NULL;
	int machines = 0, charts = vsb_have_gnuplot();
	size_t i, j, m = 0;

	for (i = 0; i < h->nse; i++)
		for (j = 0; j < h->nhs[i]; j++) {
			os = grow(os, m + 1, sizeof(*os));
			memset(&os[m], 0, sizeof(*os));
			os[m].hs = &h->hs[i][j];
			os[m].label = h->label[i];
			os[m].has_chart = charts;
			machines |= strcmp(os[m].hs->machine, os[0].hs->machine) != 0;
			m++;
		}
	for (i = 0; i < m; i++)
		series_dir(&os[i], i, machines);
	*n = m;
	return os;
}

typedef int (*writer_fn)(FILE *f, const struct vsb_hist_out *os, size_t n,
			 enum vsb_hist_by by, const char *url);

/* OUTDIR/NAME through @fn, whole or not at all */
static int write_file(const char *outdir, const char *name, writer_fn fn,
		      const struct vsb_hist_out *os, size_t n, enum vsb_hist_by by,
		      const char *url)
{
	struct vsb_outfile of;
	char path[4400];

	snprintf(path, sizeof(path), "%s/%s", outdir, name);
	if (vsb_outfile_open(&of, path, "-o"))
		return VSB_EXIT_USAGE;
	if (fn(of.f, os, n, by, url)) {
		vsb_err("history: %s: write failed", path);
		vsb_outfile_abort(&of);
		return VSB_EXIT_ERROR;
	}
	return vsb_outfile_commit(&of);
}

/* Each series' folder and files, known once the store is read. */
static int check_series_outputs(const char *outdir, const struct vsb_hist_out *os,
				size_t n)
{
	static const char *const files[] = { "history.csv", "history.png", "history.svg" };
	char dir[4400];
	size_t i, k;

	for (i = 0; i < n; i++) {
		snprintf(dir, sizeof(dir), "%s/%s", outdir, os[i].dir);
		if (vsb_dir_refusal(dir, "-o"))
			return VSB_EXIT_USAGE;
		for (k = 0; k < (os[i].has_chart ? 3u : 1u); k++)
			if (check_out_file(dir, files[k]))
				return VSB_EXIT_USAGE;
	}
	return 0;
}

static int write_outputs(const char *outdir, const struct vsb_hist_out *os, size_t n,
			 enum vsb_hist_by by, const char *url)
{
	static const writer_fn top_writers[NTOP] = {
		vsb_hist_write_summary_csv, vsb_hist_write_summary_md, vsb_hist_write_html,
	};
	char path[4400];
	size_t i;
	int ret = 0;

	if (vsb_mkdir_p(outdir, 0755)) {
		vsb_err("history: -o %s: %s", outdir, strerror(errno));
		return VSB_EXIT_USAGE;
	}
	if (n && !os[0].has_chart)
		vsb_warn("gnuplot not found: no trend charts (apt-get install gnuplot-nox)");
	for (i = 0; i < n && !ret; i++) {
		snprintf(path, sizeof(path), "%s/%s", outdir, os[i].dir);
		if (mkdir(path, 0755) && errno != EEXIST) {
			vsb_err("history: %s: %s", path, strerror(errno));
			return VSB_EXIT_ERROR;
		}
		snprintf(path, sizeof(path), "%s/history.csv", os[i].dir);
		ret = write_file(outdir, path, vsb_hist_write_series_csv, &os[i], 1, by, url);
		if (!ret && os[i].has_chart)
			ret = vsb_hist_chart(outdir, &os[i], by);
	}
	for (i = 0; i < NTOP && !ret; i++)
		ret = write_file(outdir, top_files[i], top_writers[i], os, n, by, url);
	return ret;
}

/* The text report: each series, its change points, its verdict. */
static void report(const struct vsb_hist_out *os, size_t n, enum vsb_hist_by by)
{
	char v[160];
	size_t i, k;

	for (i = 0; i < n; i++) {
		const struct vsb_hist_series *hs = os[i].hs;
		size_t nc = vsb_hist_ncode(hs);

		vsb_hist_verdict_line(hs, v, sizeof(v));
		printf("%s on %s: %zu entries by %s, %zu change point%s", os[i].label,
		       hs->machine, hs->n, vsb_hist_by_name(by), nc, nc == 1 ? "" : "s");
		if (hs->ncp > nc)
			printf(", %zu machine step%s", hs->ncp - nc, hs->ncp - nc == 1 ? "" : "s");
		printf("; %s\n", v);
		for (k = 0; k < hs->ncp; k++) {
			const struct vsb_cp *c = &hs->cp[k];
			const struct vsb_series_run *a = hs->e[c->index - 1].run,
						    *b = hs->e[c->index].run;

			printf("  %s at entry %zu: %s (%s, %s) -> %s (%s, %s): %.4g -> %.4g "
			       "%s, %+.1f%%, p %.3g",
			       vsb_hist_cp_one_build(hs, k) ? "machine step" : "change",
			       c->index, a->kernel, a->revision,
			       a->date, b->kernel, b->revision, b->date, c->before, c->after,
			       hs->unit, 100 * c->rel_change, c->p_value);
			if (vsb_hist_cp_moved(hs, k))
				printf(" (CPUs moved: c2c %.0f -> %.0f ns)", hs->cp_c2c[k][0],
				       hs->cp_c2c[k][1]);
			if (vsb_hist_cp_one_build(hs, k))
				fputs(" (one build on both sides: the machine or its load moved, "
				      "not the code)", stdout);
			putchar('\n');
		}
	}
}

/*
 * The gate's one line: "no regression" only when every judged series'
 * newest entry is the same; the counts; the largest margin among the
 * inconclusive ones (the smallest step this store could have called).
 * Exit 1 for a regression, VSB_EXIT_INCONCLUSIVE when none but a series
 * could not tell, else 0 (moved and one-build series are not judged).
 */
static int gate_line(const struct vsb_hist_out *os, size_t n, size_t nreg)
{
	size_t i, nsame = 0, nfast = 0, ninc = 0, nnot = 0;
	char why[96] = "";
	double mde = 0;

	for (i = 0; i < n; i++) {
		const struct vsb_hist_series *hs = os[i].hs;

		nsame += !strcmp(hs->check, "same");
		nfast += !strcmp(hs->check, "faster");
		nnot += hs->moved || hs->one_build_newest;
		if (!strcmp(hs->check, "inconclusive")) {
			ninc++;
			/* no baseline yet: nothing could be called */
			mde = fmax(mde, hs->verdict.rule == VSB_CP_RULE_NONE ? INFINITY :
				   hs->verdict.margin);
		}
	}
	if (!nreg && !ninc && !nfast) {
		printf("history --check: no regression: every judged series' newest entry "
		       "the same within +-%g%% (%zu same, %zu not judged)\n",
		       100 * VSB_CP_THRESHOLD, nsame, nnot);
		return VSB_EXIT_OK;
	}
	if (ninc && isinf(mde))
		snprintf(why, sizeof(why), "; a series too short to have a baseline");
	else if (ninc)
		snprintf(why, sizeof(why), "; this store could not tell steps below %.1f%%",
			 100 * mde);
	printf("history --check: %s%zu series: %zu slower, %zu faster, %zu same, "
	       "%zu inconclusive, %zu not judged%s\n", nreg ? "REGRESSION; " :
	       ninc ? "inconclusive; " : "", n, nreg, nfast, nsame, ninc, nnot, why);
	return nreg ? VSB_EXIT_ERROR : ninc ? VSB_EXIT_INCONCLUSIVE : VSB_EXIT_OK;
}

static int gate(const struct vsb_hist_out *os, size_t n)
{
	size_t i, nreg = 0;

	for (i = 0; i < n; i++) {
		const struct vsb_cp_verdict *v = &os[i].hs->verdict;

		if (os[i].hs->moved)
			fprintf(stderr, "history --check: not judged: %s on %s: newest entry "
				"%+.1f%%, but its CPUs moved (c2c %.0f -> %.0f ns): the host's "
				"placement, not the code\n", os[i].label, os[i].hs->machine,
				100 * v->rel_change, os[i].hs->c2c_base, os[i].hs->c2c_new);
		if (os[i].hs->one_build_newest)
			fprintf(stderr, "history --check: not judged: %s on %s: newest entry "
				"%+.1f%%, but it and its baseline are one build (kernel %s, "
				"revision %s): the machine moved, not the code\n", os[i].label,
				os[i].hs->machine, 100 * v->rel_change,
				os[i].hs->e[os[i].hs->n - 1].run->kernel,
				os[i].hs->e[os[i].hs->n - 1].run->revision);
		if (!v->regression)
			continue;
		nreg++;
		fprintf(stderr, "history --check: REGRESSION: %s on %s: newest entry %+.1f%% "
			"(%.4g -> %.4g %s, %s rule, p %.3g) since entry %zu\n", os[i].label,
			os[i].hs->machine, 100 * v->rel_change, v->base, v->newest,
			os[i].hs->unit, v->rule == VSB_CP_RULE_SEGMENT ? "segment" : "tail",
			v->p_value, v->new_start);
	}
	return gate_line(os, n, nreg);
}

int vsb_cmd_history(int argc, char **argv)
{
	struct hist_opts o = { .by = VSB_HIST_BY_DATE };
	struct hist h = { 0 };
	struct vsb_hist_out *os = NULL;
	size_t n = 0, i;
	int ret = parse(argc, argv, &o);

	if (ret)
		goto out;
	ret = load(&o, &h);
	if (ret)
		goto out_free;
	os = flatten(&h, &n);
	/* every path written is checked before the first is */
	if (o.outdir)
		ret = check_series_outputs(o.outdir, os, n);
	if (ret)
		goto out_free;
	report(os, n, o.by);
	if (o.outdir)
		ret = write_outputs(o.outdir, os, n, o.by, vsb_store_url(o.url));
	if (o.check && !ret)
		ret = gate(os, n);
out_free:
	free(os);
	hist_free(&h);
out:
	for (i = 0; i < o.nbuf; i++)
		free(o.wbuf[i]);
	return ret < 0 ? VSB_EXIT_OK : ret;
}
