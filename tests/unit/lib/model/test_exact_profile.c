// SPDX-License-Identifier: GPL-2.0
/*
 * Exact mode's profile on the host: a synthetic kallsyms (aliases, a
 * module's symbol, a data symbol that names nothing) and a blocks file
 * of three windows on two vCPUs, turned into a profile per op: each
 * block named by the symbol at or below its start, calls the entries of
 * blocks at a symbol's first instruction, a block below every symbol
 * "(unknown)", rows under 0.1% folded into "(other)", the rows summing
 * to the windows' count per op; a window the profile lacks refused; a
 * symbol file of another kernel told apart; and the diff table listing
 * the function that changed and not the ones that did not.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exact_profile.h"
#include "opts.h"
#include "profile_diff.h"
#include "profile_dir.h"
#include "result.h"
#include "tap.h"

static struct vsb_run_opts opts;

/* a sweep's rounds: each round's windows follow the point's so far */
static void test_merge(void)
{
	struct vsb_result a, b;
	const char *w;

	vsb_result_init(&a, &opts);
	vsb_result_init(&b, &opts);
	vsb_result_meta(&a, "exact_windows", "boot=x 0:0-0 1:0-0");
	vsb_result_meta(&b, "exact_windows", "boot=x 0:1-1 1:1-1");
	vsb_result_merge_round(&a, &b, 1);
	w = vsb_result_meta_of(&a, "exact_windows");
	TAP_OK(w && !strcmp(w, "boot=x 0:0-0 1:0-0 0:1-1 1:1-1"),
	       "a sweep's rounds: their windows appended (%s)", w ? w : "none");
	vsb_result_meta(&b, "exact_windows", "boot=y 0:2-2");
	vsb_result_merge_round(&a, &b, 2);
	w = vsb_result_meta_of(&a, "exact_windows");
	TAP_OK(w && !strncmp(w, "too many", 8), "a round of another boot: none (%s)",
	       w ? w : "none");
	vsb_result_free(&a);
	vsb_result_free(&b);
}

static const char *kallsyms =
	"ffffffff81000000 T alpha\n"
	"ffffffff81000050 d data_not_text\n"
	"ffffffff81000100 t beta\n"
	"ffffffff81000100 t beta_alias\n"
	"ffffffff81000200 T gamma\n"
	"ffffffffc0001000 t mod_fn\t[vmstat_bench]\n";

/* blocks: address, entries, then 13 classes (insn, lock, ...) */
static const char *blocks =
	"vsb-profile 1\n"
	"# a file from before rep_iters: ... and the 13 classes of vsb_exact.h\n"
	"W 0 0\n"
	"ffffffff81000000 10 30 1 0 0 0 7 3 0 0 0 0 0 0\n"
	"ffffffff81000120 0 5 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"ffffffffc0001000 10 20 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"W 1 0\n"
	"ffffffff81000100 4 8 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"W 0 1\n"
	"ffffffff81000000 10 30 1 0 0 0 7 3 0 0 0 0 0 0\n"
	"00000000000000ff 0 1 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"ffffffff81000200 2 0 0 0 0 0 0 0 0 0 0 0 0 0\n";

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
}

static const struct vsb_pfn *fn_of(const struct vsb_prof *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->fn[i].name, name))
			return &p->fn[i];
	return NULL;
}

static void test_profile(const struct vsb_syms *s, const struct vsb_pblocks *pb)
{
	const struct vsb_pfn *a, *b, *m, *u, *o;
	struct vsb_prof p;
	char why[256];
	double sum = 0;
	size_t i;

	TAP_OK(!vsb_prof_of(pb, s, "boot=x 0:0-1 1:0-0", 20, &p, why, sizeof(why)),
	       "profile of windows 0-1 of vCPU 0 and 0 of vCPU 1");
	a = fn_of(&p, "alpha");
	b = fn_of(&p, "beta");
	m = fn_of(&p, "mod_fn [vmstat_bench]");
	u = fn_of(&p, "(unknown)");
	o = fn_of(&p, VSB_PROF_OTHER);
	TAP_OK(a && a->c[0] == 3 && a->calls == 1 && a->c[VSB_MIX_LOCK] == 0.1 &&
	       a->c[VSB_MIX_LOADS] == 0.7, "alpha: 60 insn, 20 calls, 2 lock over 20 ops");
	TAP_OK(a && isnan(a->c[VSB_MIX_REP_ITERS]) && a->c[VSB_MIX_CMPXCHG_LOCAL] == 0,
	       "a class the file does not hold (13 classes: no rep_iters) is unknown, not 0");
	TAP_OK(b && b->c[0] == 0.65 && b->calls == 0.2,
	       "beta (not its alias): its interior block and its entry, 4 calls");
	TAP_OK(m && m->c[0] == 1 && m->calls == 0.5, "a module's function by its name");
	TAP_OK(u && u->c[0] == 0.05 && u->calls == 0, "below every symbol: (unknown)");
	TAP_OK(o && o->c[0] == 0 && o->calls == 0.1 && p.fn[p.n - 1].c[0] == 0 &&
	       !fn_of(&p, "gamma"), "gamma, under 0.1%%, folded into (other), last");
	TAP_OK(p.n >= 2 && !strcmp(p.fn[0].name, "alpha") && !strcmp(p.fn[1].name,
	       "mod_fn [vmstat_bench]"), "most instructions first");
	for (i = 0; i < p.n; i++)
		sum += p.fn[i].c[0];
	TAP_NEAR(sum, 94.0 / 20, 1e-12, "rows sum to the windows' 94 insn over 20 ops");
	TAP_OK(p.nwindows == 3, "three windows");
	vsb_prof_free(&p);
	TAP_OK(vsb_prof_of(pb, s, "boot=x 0:0-2", 20, &p, why, sizeof(why)) &&
	       strstr(why, "window 2 of vCPU 0 is not in the profile"),
	       "a window the profile lacks is refused: %s", why);
	TAP_OK(vsb_prof_of(pb, s, "0:0-1", 20, &p, why, sizeof(why)) &&
	       strstr(why, "no exact_windows"), "no boot in the spec: refused: %s", why);
}

static void test_match(const char *dir, const struct vsb_syms *s)
{
	char path[256], why[256];
	struct vsb_syms other;

	snprintf(path, sizeof(path), "%s/System.map", dir);
	put_file(path, "ffffffff81000000 T alpha\nffffffff81000200 T gamma\n");
	TAP_OK(!vsb_syms_load(path, &other, why, sizeof(why)) &&
	       !vsb_syms_match(&other, s, why, sizeof(why)), "a matching System.map");
	vsb_syms_free(&other);
	put_file(path, "ffffffff81000000 T alpha\nffffffff81000210 T gamma\n");
	TAP_OK(!vsb_syms_load(path, &other, why, sizeof(why)) &&
	       vsb_syms_match(&other, s, why, sizeof(why)) &&
	       strstr(why, "gamma is at ffffffff81000210"),
	       "another kernel's: %s", why);
	vsb_syms_free(&other);
	put_file(path, "0000000000000000 T alpha\n");
	TAP_OK(vsb_syms_load(path, &other, why, sizeof(why)) &&
	       strstr(why, "no text symbol with an address"),
	       "kallsyms without addresses: %s", why);
}

static void test_diff(const char *dir, const struct vsb_syms *s,
		      const struct vsb_pblocks *pb)
{
	struct vsb_prof p;
	struct vsb_prows t;
	char path[256], why[256], *out = NULL;
	size_t len = 0, n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/profile.csv", dir);
	f = fopen(path, "w");
	vsb_prof_csv_header(f);
	vsb_prof_of(pb, s, "boot=x 0:0-0", 10, &p, why, sizeof(why));
	vsb_prof_csv_rows(f, "kstat op", "base", &p);
	vsb_prof_free(&p);
	vsb_prof_of(pb, s, "boot=x 0:0-1", 10, &p, why, sizeof(why));
	vsb_prof_csv_rows(f, "kstat op", "new", &p);
	vsb_prof_free(&p);
	fclose(f);
	TAP_OK(!vsb_prows_read(path, &t) && t.n > 4, "profile.csv read back");
	f = open_memstream(&out, &len);
	n = vsb_prof_diff(f, &t, 0, 10);
	fclose(f);
	TAP_OK(n >= 1 && strstr(out, "alpha") && strstr(out, "+3.000"),
	       "diff: alpha, +3 insn per op (one more window's 30 over 10 ops)");
	TAP_OK(strstr(out, "+0.10 lock") != NULL, "diff: the classes that moved");
	TAP_OK(!strstr(out, "mod_fn"), "diff: the module's function did not change");
	free(out);
	vsb_prows_free(&t);
	f = fopen(path, "w");
	fputs("label,side,function\nx,base,f\n", f);
	fclose(f);
	TAP_OK(vsb_prows_read(path, &t) == 2, "a file that is not profile.csv: exit 2");
}

int main(void)
{
	char dir[] = "/tmp/vsb-prof-test.XXXXXX", path[256], why[256], cmd[300];
	struct vsb_syms s;
	struct vsb_pblocks pb;

	TAP_OK(mkdtemp(dir) != NULL, "scratch folder");
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	put_file(path, kallsyms);
	TAP_OK(!vsb_syms_load(path, &s, why, sizeof(why)) && s.n == 5,
	       "kallsyms: 5 text symbols, the data symbol left out");
	snprintf(path, sizeof(path), "%s/blocks", dir);
	put_file(path, blocks);
	TAP_OK(!vsb_pblocks_read(path, &pb, why, sizeof(why)) && pb.nw == 3 && pb.nb == 7,
	       "blocks: 3 windows, 7 blocks");
	test_merge();
	test_profile(&s, &pb);
	test_match(dir, &s);
	test_diff(dir, &s, &pb);
	put_file(path, "W 0 0\n");
	TAP_OK(vsb_pblocks_read(path, &pb, why, sizeof(why)) &&
	       strstr(why, "not a profile of vsb-insn"), "no format line: %s", why);
	vsb_syms_free(&s);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		return 1;
	return tap_done();
}
