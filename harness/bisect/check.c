// SPDX-License-Identifier: GPL-2.0
/*
 * What bisect refuses before anything is built or written (exit 2, one
 * line): a tree that is not a git kernel tree, a tree with uncommitted
 * changes to tracked files (what the user sees would not be what is
 * built: bisect builds commits), revisions git does not know, good not
 * an ancestor of bad (or the same commit), a sweep with no point the
 * kernel runs, a path kbuild cannot build in (kernel-build.sh's rule:
 * no blank, no ':'), a --db store that could not be imported into, and
 * ab's options (ab --check-options judges them: its own parser).  A
 * kernel build costs minutes; a typo must cost nothing.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ab.h"
#include "benches.h"
#include "bisect.h"
#include "store.h"
#include "sweepfile.h"
#include "vsb.h"

static int is_file(const char *dir, const char *name)
{
	char p[4096 + 64];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int is_dir(const char *dir, const char *name)
{
	char p[4096 + 64];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* kernel-build.sh's test: the top Makefile says VERSION = N */
static int has_version(const char *dir)
{
	char p[4096 + 64], *buf = NULL;
	size_t len;
	int ok;

	snprintf(p, sizeof(p), "%s/Makefile", dir);
	if (vsb_read_whole(p, 1 << 20, &buf, &len))
		return 0;
	ok = !strncmp(buf, "VERSION = ", 10) || strstr(buf, "\nVERSION = ");
	free(buf);
	return ok;
}

/*
 * kernel-build.sh's rule for a path kbuild is handed: no blank (kbuild
 * splits on it) and no ':' (O= and ab's BZIMAGE:BUILD_DIR split on it).
 */
static int path_chars(const char *opt, const char *p)
{
	if (strchr(p, ':')) {
		vsb_err("%s %s: a path with ':' cannot be built with O= nor given to ab "
			"as BZIMAGE:BUILD_DIR", opt, p);
		return VSB_EXIT_USAGE;
	}
	if (p[strcspn(p, " \t\n\r\v\f")]) {
		vsb_err("%s '%.200s': a path with a blank (space, tab, line break) "
			"cannot be built by kbuild", opt, p);
		return VSB_EXIT_USAGE;
	}
	return 0;
}

/* the machine's cache (the clone, the builds): kernel-build.sh's rule too */
static int check_cache(const struct vsb_bisect *b)
{
	static struct vsb_ab ab;
	char cache[4096 + 64];

	if (strlen(b->repo) + 16 > sizeof(ab.script))
		return 0;
	snprintf(ab.script, sizeof(ab.script), "%.4000s/ci/ab-run.sh", b->repo);
	vsb_ab_cache_dir(&ab, cache, sizeof(cache));
	return path_chars("the cache path (VSB_VM_CACHE)", cache);
}

/*
 * ab's options, judged by ab's own parser before the first build (they
 * were judged at the endpoints' ab, after two builds): a bad one is
 * ab's one line and exit 2.
 */
static int check_ab_options(const struct vsb_bisect *b)
{
	char *argv[VSB_BISECT_AB_ARGS_MAX + 16];
	int n = 0, i, rc;

	argv[n++] = (char *)b->self;
	argv[n++] = "ab";
	argv[n++] = "--check-options";
	argv[n++] = "--base";
	argv[n++] = (char *)b->good_rev;
	argv[n++] = "--new";
	argv[n++] = (char *)(b->bad_rev ?: b->good_rev);
	for (i = 0; i < b->nab; i++)
		argv[n++] = b->ab_args[i];
	argv[n++] = (char *)b->sweep;
	argv[n] = NULL;
	rc = vsb_bisect_spawn(argv, NULL, 0);
	if (rc == 0)
		return 0;
	if (rc != VSB_EXIT_USAGE)
		vsb_err("bisect: ab --check-options failed (exit %d)", rc);
	return rc == VSB_EXIT_USAGE ? rc : VSB_EXIT_ERROR;
}

static int check_tree(struct vsb_bisect *b, const char *given)
{
	char *st;

	if (vsb_bisect_git(given, b->tree, sizeof(b->tree), "rev-parse",
			   "--show-toplevel", (char *)NULL) || !b->tree[0]) {
		vsb_err("--tree %s: not a git work tree", given);
		return VSB_EXIT_USAGE;
	}
	if (path_chars("--tree", b->tree))
		return VSB_EXIT_USAGE;
	if (!has_version(b->tree) || !is_file(b->tree, "Kconfig") ||
	    !is_file(b->tree, "arch/x86/Kconfig") || !is_dir(b->tree, "scripts/kconfig")) {
		vsb_err("--tree %s: not a kernel tree (no top Makefile with VERSION, "
			"Kconfig, arch/x86/Kconfig, scripts/kconfig/)", given);
		return VSB_EXIT_USAGE;
	}
	/* no optional locks: a stale index is not refreshed into .git/index */
	if (vsb_bisect_git_all(b->tree, &st, "--no-optional-locks", "status", "--porcelain",
			       "--untracked-files=no", (char *)NULL)) {
		free(st);
		vsb_err("--tree %s: git status failed", given);
		return VSB_EXIT_USAGE;
	}
	if (st[0]) {
		vsb_err("--tree %s: has uncommitted changes (%.*s...): bisect builds "
			"commits, commit or stash them first", given,
			(int)strcspn(st, "\n"), st);
		free(st);
		return VSB_EXIT_USAGE;
	}
	free(st);
	return 0;
}

static int resolve(struct vsb_bisect *b, const char *rev, const char *opt, char *sha)
{
	char spec[512];

	snprintf(spec, sizeof(spec), "%s^{commit}", rev);
	if (rev[0] == '-' || vsb_bisect_git(b->tree, sha, 41, "rev-parse", "-q",
					    "--verify", spec, (char *)NULL) ||
	    strlen(sha) != 40) {
		vsb_err("%s %s: no such commit in %s", opt, rev, b->tree);
		return VSB_EXIT_USAGE;
	}
	return 0;
}

static int check_revs(struct vsb_bisect *b)
{
	int ret = resolve(b, b->good_rev, "--good", b->good);

	ret = ret ?: resolve(b, b->bad_rev, "--bad", b->bad);
	if (ret)
		return ret;
	if (!strcmp(b->good, b->bad)) {
		vsb_err("--good %s and --bad %s are the same commit", b->good_rev,
			b->bad_rev);
		return VSB_EXIT_USAGE;
	}
	if (vsb_bisect_git(b->tree, NULL, 0, "merge-base", "--is-ancestor", b->good,
			   b->bad, (char *)NULL)) {
		vsb_err("--good %s is not an ancestor of --bad %s: bisect looks for "
			"the first bad commit after a good one", b->good_rev, b->bad_rev);
		return VSB_EXIT_USAGE;
	}
	return 0;
}

/*
 * A kernel point, as ab counts them: a module bench (backend kmod, or
 * auto for a bench the module runs) or one running the live kernel's
 * own paths.  User-space points would time the same binary at every
 * commit.
 */
static size_t kernel_points;

static int point_check(struct vsb_run_opts *o)
{
	const struct vsb_bench *bench = vsb_bench_find(o->bench);
	int kernel = bench && ((bench->run_kmod && !strcmp(o->backend, "auto")) ||
			       (bench->sides & VSB_SIDE_LIVE) ||
			       !strcmp(o->backend, "kmod"));
	int ret = vsb_run_opts_finish(o);

	if ((ret == 0 || ret == VSB_EXIT_SKIP) && kernel)
		kernel_points++;
	return ret == VSB_EXIT_SKIP ? 0 : ret;
}

int vsb_bisect_check_sweep(const char *sweep)
{
	struct vsb_sweep sw;
	int ret;

	kernel_points = 0;
	memset(&sw, 0, sizeof(sw));
	ret = vsb_sweepfile_parse(&sw, sweep, point_check);
	if (ret)
		return ret;
	vsb_sweep_free(&sw);
	if (!kernel_points) {
		vsb_err("%s: no kernel-side point (backend kmod or auto, or a live-kernel "
			"bench): every commit would measure the same user-space code", sweep);
		return VSB_EXIT_USAGE;
	}
	return 0;
}

/* This binary and the checkout it was built in (ci/bisect-build.sh). */
int vsb_bisect_find_self(struct vsb_bisect *b)
{
	ssize_t n = readlink("/proc/self/exe", b->self, sizeof(b->self) - 1);
	char *slash;

	if (n <= 0)
		goto err;
	b->self[n] = '\0';
	snprintf(b->repo, sizeof(b->repo), "%s", b->self);
	slash = strrchr(b->repo, '/');		/* <checkout>/<build>/vmstat-bench */
	if (slash)
		*slash = '\0';
	slash = strrchr(b->repo, '/');
	if (!slash)
		goto err;
	*slash = '\0';
	if (access(b->repo, R_OK) == 0 && b->repo[0]) {
		char p[4096 + 32];

		snprintf(p, sizeof(p), "%s/ci/bisect-build.sh", b->repo);
		if (access(p, X_OK) == 0)
			return 0;
	}
err:
	vsb_err("bisect: needs the checkout it was built in (no ci/bisect-build.sh "
		"next to the binary's folder)");
	return VSB_EXIT_ERROR;
}

int vsb_bisect_check(struct vsb_bisect *b)
{
	const char *given = b->tree;
	char tree[4096];
	int ret;

	snprintf(tree, sizeof(tree), "%s", given);
	if (access(tree, F_OK)) {
		vsb_err("--tree %s: no such folder", tree);
		return VSB_EXIT_USAGE;
	}
	ret = path_chars("--tree", tree);
	ret = ret ?: check_tree(b, tree);
	ret = ret ?: check_revs(b);
	ret = ret ?: vsb_bisect_check_sweep(b->sweep);
	if (!ret && b->db)
		ret = vsb_store_check_arg(b->db);
	if (!ret && vsb_bisect_find_self(b))
		ret = VSB_EXIT_ERROR;
	ret = ret ?: check_cache(b);
	ret = ret ?: check_ab_options(b);
	ret = ret ?: vsb_dir_refusal(b->out, "-o");
	return ret;
}

/*
 * bisect-step's checks before its build: the sweep, this binary's
 * checkout, the cache path and ab's options.  0, or VSB_EXIT_* after
 * one line (git bisect run is then told to stop).
 */
int vsb_bisect_check_step(struct vsb_bisect *b)
{
	int ret = vsb_bisect_check_sweep(b->sweep);

	if (!ret && vsb_bisect_find_self(b))
		ret = VSB_EXIT_ERROR;
	ret = ret ?: check_cache(b);
	return ret ?: check_ab_options(b);
}
