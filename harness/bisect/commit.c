// SPDX-License-Identifier: GPL-2.0
/*
 * One commit of a bisect in OUT, as run.c's walk and split.c's rounds
 * both take it: built once (a build ahead taken, the spec recorded in
 * bisect.state), booted against good with its build held and judged by
 * the rule, said on stdout, and told to git as a mark.  Apart from run.c so that a round (split.c) uses it without
 * using the walk that uses the round.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bisect.h"
#include "vsb.h"

static const char *const vname[] = { "none", "good", "bad", "skip" };

/*
 * @sha's kernel: built once per bisect (a commit's second build would be
 * a cache hit, but its checkout would still touch the files it differs
 * in, and the next incremental build recompile them).  0, 125, VSB_EXIT_*.
 */
int vsb_bisect_build_once(struct vsb_bisect *b, const char *sha, char *spec, size_t len)
{
	char line[4096 + 64];
	size_t i;
	int rc;

	for (i = 0; i < b->nbuilt; i++)
		if (!strcmp(b->built[i].sha, sha)) {
			if (vsb_bisect_spec_complete(b->built[i].spec)) {
				snprintf(spec, len, "%s", b->built[i].spec);
				return 0;
			}
			/* its folder removed since (VSB_KBUILD_KEEP): again */
			vsb_note("bisect: the build of %.12s is gone: building it again", sha);
			b->built[i] = b->built[--b->nbuilt];
			break;
		}
	rc = vsb_bisect_ahead_take(b, sha, spec, len);
	if (rc < 0)
		rc = vsb_bisect_build(b, sha, spec, len);
	if (rc)
		return rc;
	if (b->nbuilt < VSB_BISECT_BUILT_MAX) {
		snprintf(b->built[b->nbuilt].sha, 41, "%s", sha);
		snprintf(b->built[b->nbuilt++].spec, 4096, "%s", spec);
	}
	vsb_bisect_spec_write(line, sizeof(line), sha, spec);
	return vsb_bisect_state_add(b, line);
}

/* ab of @base against @new with @new's build held too (good's is) */
int vsb_bisect_ab_held(const struct vsb_bisect *b, const char *base, const char *new,
		       const char *dir, struct vsb_bisect_cmp *c)
{
	int fd = vsb_bisect_hold(new, 0);
	int rc = vsb_bisect_ab(b, base, new, dir, c, 1);

	vsb_bisect_release(fd);
	return rc;
}

/*
 * The good kernel is every step's base: mark its build used (its
 * .vsb-complete's mtime), so that kernel-build.sh --reuse, which keeps
 * the builds of a tree used last, does not remove it under a long bisect.
 */
void vsb_bisect_touch_good(const struct vsb_bisect *b)
{
	const char *colon = strchr(b->good_spec, ':');
	char path[4096 + 32];

	if (!colon)
		return;
	snprintf(path, sizeof(path), "%s/.vsb-complete", colon + 1);
	utimensat(AT_FDCWD, path, NULL, 0);
}

void vsb_bisect_say_step(const struct vsb_bisect *b, const struct vsb_bisect_step *s)
{
	char subj[128];

	vsb_bisect_subject(b, s->sha, subj, sizeof(subj));
	printf("%s %.12s %s%s%s  %s\n", s->role, s->sha, s->verdict,
	       s->why[0] ? ": " : "", s->why, subj);
	fflush(stdout);
}

/* git bisect VERB [SHA] in OUT/git; its output in *@out */
static int git_bisect(const struct vsb_bisect *b, const char *verb, const char *sha,
		      char **out)
{
	char gd[2048 + 16];

	snprintf(gd, sizeof(gd), "%s/git", b->out);
	return vsb_bisect_git_all(gd, out, "bisect", verb, sha, (char *)NULL);
}

static int mark_one(const struct vsb_bisect *b, const struct vsb_bisect_step *s,
		    char **out)
{
	int rc;

	free(*out);
	rc = git_bisect(b, s->verdict, s->sha, out);
	if (rc && strstr(*out, "only 'skip'ped"))
		rc = 0;
	if (rc)
		vsb_err("bisect: git bisect %s %.12s failed: %.200s", s->verdict, s->sha,
			*out);
	return rc ? VSB_EXIT_ERROR : 0;
}

/* is the bad step @k an ancestor of another of @bad's @n? */
static int below_another(const struct vsb_bisect *b, const size_t *bad, size_t n,
			 size_t k)
{
	char gd[2048 + 16];
	size_t j;

	snprintf(gd, sizeof(gd), "%s/git", b->out);
	for (j = 0; j < n; j++)
		if (j != k && !vsb_bisect_git(gd, NULL, 0, "merge-base", "--is-ancestor",
					      b->steps[bad[k]].sha, b->steps[bad[j]].sha,
					      (char *)NULL))
			return 1;
	return 0;
}

/*
 * Steps @from to @to told to git: goods and skips (each a ref of its
 * own, in any order), then the bads, a descendant before its ancestors.
 * git keeps one bad (refs/bisect/bad, each `bad` replaces it), so the
 * last must be the earliest: a step at a time that is the order they
 * were found in; a round (--split 3) finds them in any order.
 */
int vsb_bisect_mark(struct vsb_bisect *b, size_t from, size_t to, char **out)
{
	size_t bad[VSB_BISECT_STEPS_MAX], nbad = 0, i, k;
	int rc = 0;

	for (i = from; !rc && i < to; i++) {
		const struct vsb_bisect_step *s = &b->steps[i];

		if (strcmp(s->role, "step"))
			continue;
		if (!strcmp(s->verdict, "bad"))
			bad[nbad++] = i;
		else
			rc = mark_one(b, s, out);
	}
	while (!rc && nbad) {
		for (k = 0; k < nbad && below_another(b, bad, nbad, k); k++)
			;
		if (k == nbad)
			k = 0;	/* none is: git's history has no cycle, a git error */
		rc = mark_one(b, &b->steps[bad[k]], out);
		memmove(&bad[k], &bad[k + 1], (--nbad - k) * sizeof(bad[0]));
	}
	return rc;
}

void vsb_bisect_step_init(const struct vsb_bisect *b, const char *sha, size_t n,
			  struct vsb_bisect_step *s)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->role, sizeof(s->role), "step");
	snprintf(s->sha, sizeof(s->sha), "%.40s", sha);
	snprintf(s->base_sha, sizeof(s->base_sha), "%s", b->good);
	snprintf(s->dir, sizeof(s->dir), "steps/%02zu-%.12s", n, sha);
}

int vsb_bisect_judge(const struct vsb_bisect *b, const char *spec,
		     struct vsb_bisect_step *s)
{
	struct vsb_bisect_cmp *c = vsb_zalloc(sizeof(*c));
	enum vsb_bisect_verdict v = VSB_BV_SKIP;
	int rc = vsb_bisect_ab_held(b, b->good_spec, spec, s->dir, c);

	if (rc == 125)
		snprintf(s->why, sizeof(s->why), "a boot failed");
	else if (!rc && (v = vsb_bisect_decide(b, c)) == VSB_BV_NONE)
		snprintf(s->why, sizeof(s->why), "undecided after more boots");
	free(c);
	if (rc && rc != 125)
		return rc;
	if (v == VSB_BV_NONE)
		v = VSB_BV_SKIP;
	snprintf(s->verdict, sizeof(s->verdict), "%s", vname[v]);
	return 0;
}
