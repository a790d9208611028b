// SPDX-License-Identifier: GPL-2.0
/*
 * `vmstat-bench history`: every stored point's series across runs (one
 * per point and machine), its change points and trend chart, and with
 * --check the CI gate on the newest entry.  Options are checked before
 * the store is opened; every series is read and checked (mixed units)
 * before anything is written; each file is written whole or not at all.
 * This file parses the options; the work is lib/judge's (vsb_history()
 * in history_report.c, the series in history_query.c and history.c).
 */
#include <ctype.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "vsb.h"
#include "cmds.h"
#include "history.h"
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
static int parse_where(struct vsb_hist_opts *o, const char *arg)
{
	char *buf, *p;

	if (o->nbuf == VSB_HIST_MAX_WHERE || !(buf = strdup(arg)))
		goto err;
	o->wbuf[o->nbuf++] = buf;
	p = buf;
	if (!starts_key(p))
		goto err;
	while (p && o->nwhere < VSB_HIST_MAX_WHERE) {
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

static int parse(int argc, char **argv, struct vsb_hist_opts *o)
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
	return o->outdir ? vsb_hist_check_outdir(o->outdir) : 0;
}

int vsb_cmd_history(int argc, char **argv)
{
	struct vsb_hist_opts o = { .by = VSB_HIST_BY_DATE };
	size_t i;
	int ret = parse(argc, argv, &o);

	if (!ret)
		ret = vsb_history(&o);
	for (i = 0; i < o.nbuf; i++)
		free(o.wbuf[i]);
	return ret < 0 ? VSB_EXIT_OK : ret;
}
