// SPDX-License-Identifier: GPL-2.0
/*
 * `vmstat-bench db import|export|list`: the result store from the
 * command line (harness/lib/store/store.h).  import takes result files or the
 * folders run and sweep write; export gives one run's raw CSV back;
 * list shows what is stored.  Options are parsed and checked here,
 * before the store is opened.
 */
#include <getopt.h>
#include <string.h>

#include "vsb.h"
#include "cmds.h"
#include "store.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: vmstat-bench db import [--db URL] DIR|FILE...\n"
"       vmstat-bench db export [--db URL] [--run ID] [-o FILE]\n"
"       vmstat-bench db list [--db URL] [--points]\n"
"\n"
"A store of raw results across runs, machines and kernels: SQLite by\n"
"default, PostgreSQL for a fleet, one schema.\n"
"\n"
"  import   store result files: each FILE, or every raw result in DIR and\n"
"           the folders below it (run -o, sweep -o, sweep --runs, ab -o;\n"
"           links not followed).  Summaries, sweep.csv and CSV files no run\n"
"           wrote (history's tables) are left out, those with a warning.\n"
"           All files are checked first: one bad file and nothing is\n"
"           stored.  A run already stored is counted once.\n"
"  export   one run's raw CSV as imported (default: the last imported run)\n"
"  list     machines, kernels and runs; --points the point keys\n"
"\n"
"options:\n"
"  -d, --db URL      the store: PATH, sqlite:PATH or postgresql://...\n"
"                    [$VSB_DB, else %s]\n"
"  -R, --run ID      export: a run id or a unique prefix of one\n"
"  -o, --output FILE export: write FILE (complete or not at all), not stdout\n"
"  -p, --points      list: the points (parameter keys) and their runs\n"
"  -h, --help        this text\n"
"\n"
"examples:\n"
"  vmstat-bench db import results/thr results/base.csv\n"
"  vmstat-bench db list\n"
"  vmstat-bench db export --run c-3f2a -o again.csv\n"
"  vmstat-bench db import --db 'postgresql://bench@db/vsb' results/thr\n"
"  vmstat-bench db list --db 'postgresql:///vsb?host=/run/postgresql'\n"
"\n"
"exit status: 0 ok (already stored included), 1 error (store unreachable),\n"
"2 bad usage or input (not a result file, mixed units on a point, a\n"
"corrupt, foreign or newer store, a store path that is a device, FIFO,\n"
"folder or link), 4 this build lacks SQLite or libpq.\n",
		VSB_STORE_DEFAULT);
}

struct db_opts {
	const char *url, *run, *out;
	int points;
};

static int parse(int argc, char **argv, struct db_opts *o, const char *sub)
{
	static const struct option longs[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "run", required_argument, NULL, 'R' },
		{ "output", required_argument, NULL, 'o' },
		{ "points", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct vsb_getopt g = VSB_GETOPT("db", "d:R:o:p", longs, usage, argc, argv);
	const char *arg;
	int c;

	while ((c = vsb_getopt_next(&g, &arg)) > 0) {
		switch (c) {
		case 'd':
			o->url = arg;
			break;
		case 'R':
			o->run = arg;
			break;
		case 'o':
			o->out = arg;
			break;
		case 'p':
			o->points = 1;
			break;
		}
	}
	if (c < 0)
		return c == VSB_GETOPT_HELP ? -1 : VSB_EXIT_USAGE;
	if ((o->run || o->out) && strcmp(sub, "export")) {
		vsb_err("db %s: --run and --output belong to db export", sub);
		return VSB_EXIT_USAGE;
	}
	if (o->points && strcmp(sub, "list")) {
		vsb_err("db %s: --points belongs to db list", sub);
		return VSB_EXIT_USAGE;
	}
	/* an empty prefix is every run's: never read as "the only one" */
	if (o->run && !*o->run) {
		vsb_err("db export: --run: empty run id (a run id or a unique prefix "
			"of one; no --run: the last imported)");
		return VSB_EXIT_USAGE;
	}
	if (o->url && !*o->url) {
		vsb_err("db %s: --db: empty URL", sub);
		return VSB_EXIT_USAGE;
	}
	return 0;
}

static int do_export(const struct db_opts *o)
{
	struct vsb_outfile of = { 0 };
	struct vsb_store *s;
	int ret;

	/* an unwritable -o fails before the store is read */
	if (o->out && vsb_outfile_open(&of, o->out, "--output"))
		return VSB_EXIT_USAGE;
	ret = vsb_store_open(o->url, VSB_STORE_READ, &s);
	if (!ret) {
		ret = vsb_store_export(s, o->run, o->out ? of.f : stdout);
		vsb_store_close(s);
	}
	if (o->out) {
		if (!ret)
			ret = vsb_outfile_commit(&of);
		else
			vsb_outfile_abort(&of);
	}
	return ret;
}

static int do_list(const struct db_opts *o)
{
	struct vsb_store *s;
	int ret = vsb_store_open(o->url, VSB_STORE_READ_EMPTY, &s);

	if (ret)
		return ret;
	printf("store: %s (%s)\n\n", vsb_store_url(o->url), vsb_store_backend(s));
	/* an empty database is read as it is: no schema made to list it */
	if (vsb_store_empty(s))
		printf("(empty: nothing imported yet)\n");
	else if (o->points)
		ret = vsb_store_list_points(s, stdout);
	else
		ret = vsb_store_list(s, stdout);
	vsb_store_close(s);
	return ret;
}

int vsb_cmd_db(int argc, char **argv)
{
	struct db_opts o = { 0 };
	const char *sub;
	int ret;

	if (argc < 2) {
		vsb_err("db: name a subcommand: import, export or list (see db --help)");
		return VSB_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return VSB_EXIT_OK;
	}
	sub = argv[1];
	if (strcmp(sub, "import") && strcmp(sub, "export") && strcmp(sub, "list")) {
		vsb_err("db: unknown subcommand '%s' (import, export or list)", sub);
		return VSB_EXIT_USAGE;
	}
	ret = parse(argc - 1, argv + 1, &o, sub);
	if (ret)
		return ret < 0 ? VSB_EXIT_OK : ret;
	argc -= 1 + optind;
	argv += 1 + optind;
	if (!strcmp(sub, "import")) {
		if (!argc) {
			vsb_err("db import: name result files or folders to import");
			return VSB_EXIT_USAGE;
		}
		return vsb_store_import_paths(o.url, argv, (size_t)argc, 0);
	}
	if (argc) {
		vsb_err("db %s: unexpected argument '%s'", sub, argv[0]);
		return VSB_EXIT_USAGE;
	}
	/* a store that is not one is refused before export makes its -o */
	ret = vsb_store_check(o.url, strcmp(sub, "export") ? VSB_STORE_READ_EMPTY :
			      VSB_STORE_READ);
	if (ret)
		return ret;
	return !strcmp(sub, "export") ? do_export(&o) : do_list(&o);
}
