// SPDX-License-Identifier: GPL-2.0
/*
 * The cost table's file (cost_table.c): a table written reads back the
 * same, kernel rows "-" included; and each kind of bad file is refused
 * with exit 2 and one line that names what was wrong.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cost_table.h"
#include "vsb.h"
#include "tap.h"

static char dir[] = "/tmp/vsb-cost-table-XXXXXX";

static void sample_table(struct vsb_cost_table *t)
{
	int i;

	memset(t, 0, sizeof(*t));
	vsb_cost_table_clear(t);
	snprintf(t->vendor, sizeof(t->vendor), "AuthenticAMD");
	t->family = 25;
	t->model = 1;
	t->stepping = 1;
	snprintf(t->cpu_name, sizeof(t->cpu_name), "AMD EPYC 7763 64-Core Processor");
	vsb_cost_table_set_key(t);
	t->tsc_per_cycle = 0.8125;
	snprintf(t->when, sizeof(t->when), "2026-12-07T04:30:00Z");
	for (i = 0; i < VSB_PRIM_USER_N; i++)
		t->p[i] = (struct vsb_prim_cost){ 1.25 * (i + 1), 1.0 * (i + 1),
						  1.5 * (i + 1), 201 };
	t->p[VSB_PRIM_STORE].lo = -0.0125;	/* a subtraction can go below 0 */
	t->p[VSB_PRIM_THIS_CPU_ADD] = (struct vsb_prim_cost){ 2.5, 2.0, 3.0, 31 };
}

static const char *write_file(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

/* @text through the reader: its exit code, the one line in @log */
static int read_text(const char *text, struct vsb_errlog *log)
{
	struct vsb_cost_table t;
	const char *path = write_file("bad.costs", text);
	int ret;

	vsb_errlog_begin(log);
	ret = vsb_cost_table_read(path, &t);
	vsb_errlog_end(log);
	return ret;
}

static int same_cost(const struct vsb_prim_cost *a, const struct vsb_prim_cost *b)
{
	return a->n == b->n &&
	       ((isnan(a->median) && isnan(b->median)) || fabs(a->median - b->median) < 1e-4) &&
	       ((isnan(a->lo) && isnan(b->lo)) || fabs(a->lo - b->lo) < 1e-4) &&
	       ((isnan(a->hi) && isnan(b->hi)) || fabs(a->hi - b->hi) < 1e-4);
}

static void test_round_trip(void)
{
	struct vsb_cost_table t, back;
	char path[256];
	FILE *f;
	int i, same = 1;

	sample_table(&t);
	TAP_OK(!strcmp(t.key, "AuthenticAMD-25-1-1"), "key vendor-family-model-stepping: %s",
	       t.key);
	snprintf(path, sizeof(path), "%s/t.costs", dir);
	f = fopen(path, "w");
	TAP_OK(vsb_cost_table_write(f, &t) == 0, "written");
	fclose(f);
	TAP_OK(vsb_cost_table_read(path, &back) == 0, "read back");
	for (i = 0; i < VSB_PRIM_N; i++)
		if (!same_cost(&t.p[i], &back.p[i])) {
			same = 0;
			printf("# row %s differs: %g/%g\n", vsb_prim_name(i), t.p[i].median,
			       back.p[i].median);
		}
	TAP_OK(same, "every row the same, the unmeasured kernel rows NAN");
	TAP_OK(isnan(back.p[VSB_PRIM_CLI_STI].median) &&
	       back.p[VSB_PRIM_THIS_CPU_ADD].n == 31, "kernel rows: '-' NAN, a measured one kept");
	TAP_OK(!strcmp(back.key, t.key) && !strcmp(back.cpu_name, t.cpu_name) &&
	       !strcmp(back.when, t.when) && fabs(back.tsc_per_cycle - 0.8125) < 1e-6 &&
	       back.family == 25 && back.model == 1 && back.stepping == 1,
	       "metadata the same: %s, %s", back.key, back.cpu_name);
	TAP_OK(vsb_prim_by_name("lock_cmpxchg") == VSB_PRIM_LOCK_CMPXCHG &&
	       !strcmp(vsb_prim_name(VSB_PRIM_REP_STOSB_4K), "rep_stosb_4k") &&
	       vsb_prim_by_name("nope") < 0, "row names both ways");
}

/* @good with @from replaced by @to: one bad file of each kind */
static char *edit(const char *good, const char *from, const char *to)
{
	const char *at = strstr(good, from);
	char *s;

	if (!at)
		return NULL;
	if (asprintf(&s, "%.*s%s%s", (int)(at - good), good, to, at + strlen(from)) < 0)
		return NULL;
	return s;
}

static void bad_case(const char *good, const char *from, const char *to,
		     const char *want, const char *what)
{
	char *text = edit(good, from, to);
	struct vsb_errlog log;
	int ret;

	if (!text) {
		TAP_OK(0, "%s: '%s' not in the good file", what, from);
		return;
	}
	ret = read_text(text, &log);
	TAP_OK(ret == VSB_EXIT_USAGE && strstr(log.text, want) && !strchr(log.text, ';'),
	       "%s: exit %d, one line: %s", what, ret, log.text);
	free(text);
}

static void test_bad_files(void)
{
	struct vsb_cost_table t;
	struct vsb_errlog log;
	char *good = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&good, &len);
	int ret;

	sample_table(&t);
	vsb_cost_table_write(f, &t);
	fclose(f);
	ret = read_text("# vmstat-bench: 0.1 (git x, release build)\nbench,value\n", &log);
	TAP_OK(ret == VSB_EXIT_USAGE && strstr(log.text, "not a vmstat-bench cost table") &&
	       !strchr(log.text, ';'), "a result file: exit %d, %s", ret, log.text);
	bad_case(good, "version 1", "version 2", "a cost table of another version",
		 "another version");
	bad_case(good, "lock_xadd,", "lock_xaddd,", "unknown row 'lock_xaddd'",
		 "an unknown row");
	bad_case(good, "\nmfence,", "\n#mfence,", "no row 'mfence'",
		 "a user-space row missing");
	bad_case(good, "\npause,15.0000,", "\npause,15.00x,", "median '15.00x' is not a number",
		 "a median that does not parse");
	bad_case(good, "\npause,15.0000,", "\npause,-,", "a user-space row is always measured",
		 "a user-space row not measured");
	bad_case(good, "\ncpuid,", "\nlfence,", "'lfence' twice", "a row twice");
	bad_case(good, "prim,median,lo,hi,n", "prim,median,low,hi,n", "no column 'lo'",
		 "a column missing");
	bad_case(good, "# tsc_per_cycle: 0.812500", "# tsc_per_cycle: fast",
		 "tsc_per_cycle", "a clock that is not a number");
	bad_case(good, "# cpu_family: 25", "# cpu_family: 26", "not its CPU's",
		 "a key that is not its CPU's");
	bad_case(good, ",201\ncli_sti", ",2o1\ncli_sti", "not a count of samples", "a bad n");
	/* kernel rows may be absent altogether */
	{
		char *cut = strdup(good), *k = strstr(cut, "\ncli_sti,");

		k[1] = '\0';
		ret = read_text(cut, &log);
		TAP_OK(ret == 0, "no kernel rows: read (exit %d %s)", ret, log.text);
		free(cut);
	}
	free(good);
}

int main(void)
{
	char cmd[300];

	if (!mkdtemp(dir))
		return 1;
	test_round_trip();
	test_bad_files();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		printf("# could not remove %s\n", dir);
	return tap_done();
}
