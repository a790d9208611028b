// SPDX-License-Identifier: GPL-2.0
/*
 * One commit of a bisect: built by ci/bisect-build.sh (or the fake of
 * VSB_BISECT_FAKE), booted against another by `vmstat-bench ab` run as a
 * child (ab's options from the command line passed on unchanged:
 * --exact, --boots, ...), its verdicts read back from
 * DIR/compare/compare.csv, and the step decided by one rule
 * (vsb_bisect_decide, docs/bisect.md): bad when a point the endpoints
 * differ on moved the same way, good when every such point is the same,
 * else undecided, which earns one more ab with twice the boots and then
 * a skip.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bisect.h"
#include "vsb.h"

#define ARGV_MAX	(VSB_BISECT_AB_ARGS_MAX + 16)

/*
 * compare's words (compare_csv.h): slower and faster are changes; so is
 * changed (exact mode: the instructions changed, which way the cycles go
 * no model vouches for), so that a bisect still finds the commit that
 * changed the count; same (which the codec also reads no-change, its
 * word before "inconclusive" was split from it) is none; anything else
 * (inconclusive, few-runs, unmatched, a word unknown here...) decides
 * nothing.
 */
enum vsb_bisect_class vsb_bisect_classify(enum vsb_compare_word w)
{
	switch (w) {
	case VSB_CW_SLOWER:
		return VSB_BC_SLOWER;
	case VSB_CW_FASTER:
		return VSB_BC_FASTER;
	case VSB_CW_CHANGED:
		return VSB_BC_CHANGED;
	case VSB_CW_SAME:
		return VSB_BC_SAME;
	default:
		return VSB_BC_UNDECIDED;
	}
}

/* @csv's rows, the first VSB_BISECT_POINTS_MAX, through compare.csv's codec */
int vsb_bisect_read_cmp(const char *csv, struct vsb_bisect_cmp *cmp)
{
	struct vsb_compare_file f;
	size_t r;

	memset(cmp, 0, sizeof(*cmp));
	if (vsb_compare_csv_read(csv, &f))
		return VSB_EXIT_ERROR;
	for (r = 0; r < f.n && cmp->n < VSB_BISECT_POINTS_MAX; r++) {
		const struct vsb_compare_row *x = &f.rows[r];
		struct vsb_bisect_row *w = &cmp->rows[cmp->n++];

		snprintf(w->label, sizeof(w->label), "%s", x->label);
		snprintf(w->unit, sizeof(w->unit), "%s", x->unit);
		snprintf(w->verdict, sizeof(w->verdict), "%s", x->verdict_word);
		w->word = x->verdict;
		w->base = x->median_base;
		w->new = x->median_new;
		w->ratio = x->ratio;
	}
	vsb_compare_csv_free(&f);
	return 0;
}

void vsb_bisect_build_argv(const struct vsb_bisect *b, const char *sha,
			   struct vsb_bisect_cmdline *c)
{
	int n = 0;

	snprintf(c->kdir, sizeof(c->kdir), "%s/kernels/%.12s", b->out, sha);
	snprintf(c->script, sizeof(c->script), "%s/ci/bisect-build.sh", b->repo);
	if (b->fake) {
		c->argv[n++] = (char *)b->fake;
		c->argv[n++] = "build";
	} else {
		c->argv[n++] = c->script;
	}
	c->argv[n++] = (char *)b->tree;
	c->argv[n++] = (char *)sha;
	c->argv[n++] = c->kdir;
	c->argv[n] = NULL;
}

/*
 * A build's exit status and last stdout line, read the one way whether
 * it ran now or ahead: 0 (@spec a kernel), 125 (it did not build),
 * VSB_EXIT_SKIP (tools missing) or VSB_EXIT_ERROR.
 */
int vsb_bisect_build_rc(int rc, const char *spec, const char *sha)
{
	if (rc == 0 && !strchr(spec, ':')) {
		vsb_warn("bisect: the build of %.12s printed no BZIMAGE:BUILD_DIR", sha);
		rc = 125;
	}
	if (rc == VSB_EXIT_SKIP || rc < 0)
		return rc < 0 ? VSB_EXIT_ERROR : VSB_EXIT_SKIP;
	return rc ? 125 : 0;
}

int vsb_bisect_build(const struct vsb_bisect *b, const char *sha, char *spec, size_t len)
{
	struct vsb_bisect_cmdline c = { .argv = { NULL } };

	vsb_bisect_build_argv(b, sha, &c);
	return vsb_bisect_build_rc(vsb_bisect_spawn(c.argv, spec, len), spec, sha);
}

/*
 * ab's --boots among the passed options: ours doubles it for a retry;
 * and --max-boots, which must not stay below the doubled count (ab
 * takes its default, at least the boots, instead)
 */
static int is_boots(char *const *a, int *skip)
{
	*skip = 0;
	if (!strcmp(a[0], "--boots") || !strcmp(a[0], "-b") ||
	    !strcmp(a[0], "--max-boots"))
		*skip = a[1] ? 2 : 1;
	else if (!strncmp(a[0], "--boots=", 8) || !strncmp(a[0], "--max-boots=", 12))
		*skip = 1;
	return *skip;
}

/* --db: the ab folder whole, both sides' boots (db import reads ab -o) */
static void db_import(const struct vsb_bisect *b, const char *dir)
{
	char *argv[] = { (char *)(b->fake_ab ?: b->self), "db", "import", "--db",
			 (char *)b->db, (char *)dir, NULL };

	if (vsb_bisect_spawn(argv, NULL, 0))
		vsb_warn("bisect: db import of %s failed", dir);
}

static int one_ab(const struct vsb_bisect *b, const char *base, const char *new,
		  const char *dir, long boots)
{
	char *argv[ARGV_MAX], nb[32];
	int n = 0, i, skip;

	argv[n++] = (char *)(b->fake_ab ?: b->self);
	argv[n++] = "ab";
	argv[n++] = "--base";
	argv[n++] = (char *)base;
	argv[n++] = "--new";
	argv[n++] = (char *)new;
	for (i = 0; i < b->nab; i++) {
		if (boots && is_boots(&b->ab_args[i], &skip)) {
			i += skip - 1;
			continue;
		}
		argv[n++] = b->ab_args[i];
	}
	if (boots) {
		snprintf(nb, sizeof(nb), "%ld", boots);
		argv[n++] = "--boots";
		argv[n++] = nb;
	}
	argv[n++] = (char *)b->sweep;
	argv[n++] = "-o";
	argv[n++] = (char *)dir;
	argv[n] = NULL;
	return vsb_bisect_spawn(argv, NULL, 0);
}

/*
 * ab of @base against @new into OUT/@dir; if the verdicts decide
 * nothing and @more, once more into OUT/@dir-more with twice the boots
 * (a new folder: ab refuses to change an old one's question).  0, 125
 * (a boot failed: skip), or VSB_EXIT_* to stop.
 */
int vsb_bisect_ab(const struct vsb_bisect *b, const char *base, const char *new,
		  const char *dir, struct vsb_bisect_cmp *c, int more)
{
	char path[2048 + 160], csv[2048 + 200];
	int rc;

	snprintf(path, sizeof(path), "%s/%s", b->out, dir);
	rc = one_ab(b, base, new, path, 0);
	for (;;) {
		if (rc == VSB_EXIT_SKIP || rc == VSB_EXIT_USAGE || rc < 0) {
			vsb_err("bisect: ab into %s stopped (exit %d)", path, rc);
			return rc < 0 ? VSB_EXIT_ERROR : rc;
		}
		/* 5: inconclusive, compare.csv written: undecided, not a failed boot */
		if (rc != 0 && rc != 1 && rc != VSB_EXIT_INCONCLUSIVE)
			return 125;	/* a boot failed or a sanity check did */
		snprintf(csv, sizeof(csv), "%s/compare/compare.csv", path);
		if (vsb_bisect_read_cmp(csv, c))
			return 125;
		if (b->db)
			db_import(b, path);
		if (!more-- || vsb_bisect_decide(b, c) != VSB_BV_NONE)
			return 0;
		vsb_note("bisect: %s decided nothing; again with %ld boots a side",
			 dir, 2 * (b->boots ?: 6));
		strncat(path, "-more", sizeof(path) - strlen(path) - 1);
		rc = one_ab(b, base, new, path, 2 * (b->boots ?: 6));
	}
}

/*
 * The rule.  With the endpoints' changed points known: bad when one of
 * them moved the way it moved from good to bad, good when all are the
 * same, else nothing.  Without (the endpoints themselves, bisect-step):
 * bad when any point is slower, faster or changed, good when all are the
 * same.
 */
enum vsb_bisect_verdict vsb_bisect_decide(const struct vsb_bisect *b,
					  const struct vsb_bisect_cmp *c)
{
	size_t i, k, same = 0;
	enum vsb_bisect_class v;

	if (!b->nchanged) {
		for (k = 0; k < c->n; k++) {
			v = vsb_bisect_classify(c->rows[k].word);
			if (v == VSB_BC_SLOWER || v == VSB_BC_FASTER ||
			    v == VSB_BC_CHANGED)
				return VSB_BV_BAD;
			same += v == VSB_BC_SAME;
		}
		return c->n && same == c->n ? VSB_BV_GOOD : VSB_BV_NONE;
	}
	for (i = 0; i < b->nchanged; i++)
		for (k = 0; k < c->n; k++) {
			if (strcmp(c->rows[k].label, b->changed[i]))
				continue;
			v = vsb_bisect_classify(c->rows[k].word);
			if (v == b->dir[i])
				return VSB_BV_BAD;
			same += v == VSB_BC_SAME;
			break;
		}
	return same == b->nchanged ? VSB_BV_GOOD : VSB_BV_NONE;
}

/*
 * bisect-step's -o and its kernels/ made before the build, ours: one
 * that cannot be made is a stop (128), never a skip (125, which made
 * git bisect run skip every commit).
 */
static int step_out(const struct vsb_bisect *b)
{
	char k[2048 + 16];
	int ret = vsb_dir_refusal(b->out, "-o") ?: vsb_owned_top(b->out, "-o");

	snprintf(k, sizeof(k), "%s/kernels", b->out);
	if (ret == VSB_EXIT_USAGE)
		return ret;
	if (vsb_mkdir_p(k, 0755) || access(k, W_OK | X_OK)) {
		vsb_err("-o %s: cannot create %s: %s", b->out, k, strerror(errno));
		return VSB_EXIT_USAGE;
	}
	return vsb_owned(k, S_IFDIR, "-o") == VSB_EXIT_USAGE ? VSB_EXIT_USAGE : 0;
}

/*
 * bisect-step: HEAD of the tree it runs in, built and booted against the
 * kernel given as good, judged by the rule without endpoints.  git
 * bisect run's exit codes: 0 good, 1 bad, 125 skip, 128 stop.
 */
int vsb_bisect_step(struct vsb_bisect *b)
{
	struct vsb_bisect_cmp *c;
	char sha[64], spec[4096], dir[64];
	enum vsb_bisect_verdict v;
	int rc, gfd, nfd;

	if (vsb_bisect_git(b->tree, sha, sizeof(sha), "rev-parse", "HEAD", (char *)NULL) ||
	    strlen(sha) != 40 ||
	    vsb_bisect_git(b->tree, b->tree, sizeof(b->tree), "rev-parse",
			   "--show-toplevel", (char *)NULL)) {
		vsb_err("bisect-step: not in a git tree with a HEAD");
		return 128;
	}
	snprintf(b->good_spec, sizeof(b->good_spec), "%s", b->good_rev);
	if (vsb_bisect_check_step(b) || step_out(b))
		return 128;
	/*
	 * good's build held (shared) from before this build, which may prune
	 * the lineage, to the end of the boots: no build or prune of the
	 * tree removes or replaces it under them (hold.c)
	 */
	gfd = vsb_bisect_hold(b->good_spec, 1);
	if (!vsb_bisect_spec_complete(b->good_spec)) {
		vsb_err("bisect-step: --good %s: its build folder is gone or not complete "
			"(removed by a prune?): build it again", b->good_rev);
		vsb_bisect_release(gfd);
		return 128;
	}
	rc = vsb_bisect_build(b, sha, spec, sizeof(spec));
	if (rc) {
		vsb_bisect_release(gfd);
		return rc == 125 ? 125 : 128;
	}
	c = vsb_zalloc(sizeof(*c));
	snprintf(dir, sizeof(dir), "%.12s", sha);
	nfd = vsb_bisect_hold(spec, 0);
	rc = vsb_bisect_ab(b, b->good_spec, spec, dir, c, 1);
	vsb_bisect_release(nfd);
	vsb_bisect_release(gfd);
	v = rc ? VSB_BV_SKIP : vsb_bisect_decide(b, c);
	free(c);
	if (rc && rc != 125)
		return 128;
	printf("bisect-step: %.12s %s\n", sha, v == VSB_BV_GOOD ? "good" :
	       v == VSB_BV_BAD ? "bad" : "skip");
	return v == VSB_BV_GOOD ? 0 : v == VSB_BV_BAD ? 1 : 125;
}
