// SPDX-License-Identifier: GPL-2.0
/*
 * The bisection itself.  git's own algorithm chooses the commits (merges
 * and skips as `git bisect` handles them), run in a bare clone of the
 * tree in OUT/git (git clone --shared: the tree's objects are borrowed,
 * nothing of the tree is written) with --no-checkout, so a step is
 * BISECT_HEAD.  Every decision goes first to OUT/bisect.state, then to
 * git: an interrupted bisect given the same command replays the state
 * into a fresh `git bisect start` and goes on where it stopped (the ab of
 * the step it was in resumes in its own folder, as ab does).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bisect.h"
#include "vsb.h"

/* walk()'s ends beside VSB_EXIT_* */
#define WALK_CULPRIT	(-1)
#define WALK_RANGE	(-2)

static void git_dir(const struct vsb_bisect *b, char *buf, size_t len)
{
	snprintf(buf, len, "%s/git", b->out);
}

static int make_clone(const struct vsb_bisect *b)
{
	char gd[2048 + 16], *argv[] = { "git", "clone", "-q", "--bare", "--shared",
					(char *)b->tree, gd, NULL };

	git_dir(b, gd, sizeof(gd));
	if (!access(gd, F_OK))
		return 0;
	if (vsb_bisect_spawn(argv, NULL, 0)) {
		vsb_err("bisect: git clone --bare --shared %s %s failed", b->tree, gd);
		return VSB_EXIT_ERROR;
	}
	return 0;
}

/* the endpoints' compare: which points differ, and which way */
static int endpoints_changed(struct vsb_bisect *b, const struct vsb_bisect_cmp *c)
{
	size_t i;

	b->nchanged = 0;
	for (i = 0; i < c->n; i++) {
		enum vsb_bisect_class v = vsb_bisect_classify(c->rows[i].word);

		if (v != VSB_BC_SLOWER && v != VSB_BC_FASTER && v != VSB_BC_CHANGED)
			continue;
		snprintf(b->changed[b->nchanged], sizeof(b->changed[0]), "%s",
			 c->rows[i].label);
		b->dir[b->nchanged++] = v;
	}
	return b->nchanged;
}

static const struct vsb_bisect_step *find_step(const struct vsb_bisect *b,
					       const char *role)
{
	size_t i;

	for (i = 0; i < b->nsteps; i++)
		if (!strcmp(b->steps[i].role, role))
			return &b->steps[i];
	return NULL;
}

static int build_good(struct vsb_bisect *b)
{
	int rc = vsb_bisect_build_once(b, b->good, b->good_spec, sizeof(b->good_spec));

	if (rc == 125) {
		vsb_err("bisect: --good %s does not build: nothing to compare with",
			b->good_rev);
		return VSB_EXIT_ERROR;
	}
	return rc;
}

static int endpoints(struct vsb_bisect *b)
{
	const struct vsb_bisect_step *done = find_step(b, "endpoints");
	struct vsb_bisect_step s = { .role = "endpoints", .dir = "steps/00-endpoints" };
	struct vsb_bisect_cmp *c = vsb_zalloc(sizeof(*c));
	char spec[4096], csv[2048 + 64];
	int rc = 0;

	snprintf(csv, sizeof(csv), "%s/%s/compare/compare.csv", b->out, s.dir);
	if (done && !vsb_bisect_read_cmp(csv, c))
		goto judged;
	rc = vsb_bisect_build_once(b, b->bad, spec, sizeof(spec));
	if (rc == 125) {
		vsb_err("bisect: --bad %s does not build", b->bad_rev);
		rc = VSB_EXIT_ERROR;
	}
	if (!rc) {	/* git's first pick, built while the endpoints boot */
		vsb_bisect_ahead_plan(b, NULL);
		vsb_bisect_ahead_launch(b);
	}
	rc = rc ?: vsb_bisect_ab_held(b, b->good_spec, spec, s.dir, c);
	if (rc == 125) {
		vsb_err("bisect: the endpoints' ab failed (a boot failed): see %s/%s",
			b->out, s.dir);
		rc = VSB_EXIT_ERROR;
	}
	if (rc)
		goto out;
	snprintf(s.sha, sizeof(s.sha), "%s", b->bad);
	snprintf(s.base_sha, sizeof(s.base_sha), "%s", b->good);
	snprintf(s.verdict, sizeof(s.verdict), "%s",
		 endpoints_changed(b, c) ? "differ" : "same");
	rc = vsb_bisect_record(b, &s);
	if (!rc)
		vsb_bisect_say_step(b, &s);
judged:
	if (!rc && !endpoints_changed(b, c)) {
		vsb_err("bisect: --good %s and --bad %s do not differ on the sweep's "
			"points (see %s/%s/compare/compare.csv): nothing to bisect",
			b->good_rev, b->bad_rev, b->out, s.dir);
		rc = 1;
	}
out:
	free(c);
	return rc;
}

static int start_bisect(struct vsb_bisect *b, char **out)
{
	char gd[2048 + 16], mark[2048 + 32];
	int rc;

	git_dir(b, gd, sizeof(gd));
	/*
	 * A bisect a killed run left is reset first.  With no BISECT_START
	 * there is none (git's reset checks just that and does nothing), and
	 * `git bisect` is a shell script that costs some 0.15 s of CPU to
	 * say so: a fresh OUT, every first run, skips it.
	 */
	snprintf(mark, sizeof(mark), "%s/BISECT_START", gd);
	if (!access(mark, F_OK)) {
		free(*out);
		vsb_bisect_git_all(gd, out, "bisect", "reset", (char *)NULL);
	}
	free(*out);
	rc = vsb_bisect_git_all(gd, out, "bisect", "start", "--no-checkout", b->bad,
				b->good, (char *)NULL);
	if (rc) {
		vsb_err("bisect: git bisect in %s failed: %.200s", gd, *out);
		return VSB_EXIT_ERROR;
	}
	return vsb_bisect_mark(b, 0, b->nsteps, out);
}

/*
 * And more: hold good's build folder's lock (shared) for the whole
 * bisect (hold.c), so that no prune of the lineage's older builds, with
 * VSB_KBUILD_KEEP as low as 1, removes the build every step boots
 * against; a removal under way is waited for, and a good build found
 * gone is built again.  The lock dies with us.
 */
static int hold_good(struct vsb_bisect *b)
{
	int fd = vsb_bisect_hold(b->good_spec, 1);

	if (vsb_bisect_spec_complete(b->good_spec))
		return 0;	/* held (or a kernel with no lock to hold) */
	vsb_bisect_release(fd);
	if (vsb_interrupted)
		return VSB_EXIT_ERROR;
	/* removed while we waited: it is seen gone and built again */
	return build_good(b) ?: (vsb_bisect_hold(b->good_spec, 1), 0);
}

/* Build @sha and compare it with good: one step's verdict into @s. */
static int measure(struct vsb_bisect *b, const char *sha, struct vsb_bisect_step *s)
{
	char spec[4096];
	int rc;

	vsb_bisect_step_init(b, sha, b->nsteps, s);
	vsb_bisect_touch_good(b);
	rc = vsb_bisect_build_once(b, sha, spec, sizeof(spec));
	/* built: the commits git may ask for next, built while this boots */
	if (rc == 0 || rc == 125)
		vsb_bisect_ahead_launch(b);
	if (rc == 125) {
		snprintf(s->why, sizeof(s->why), "does not build");
		snprintf(s->verdict, sizeof(s->verdict), "skip");
		return 0;
	}
	return rc ?: vsb_bisect_judge(b, spec, s);
}

/* git's answer: 0 go on (BISECT_HEAD), WALK_CULPRIT, WALK_RANGE, or 1 */
static int answer(const char *out, char *culprit, char **range)
{
	const char *p = strstr(out, " is the first bad commit");

	if (p && p - out >= 40) {
		snprintf(culprit, 41, "%.40s", p - 40);
		return WALK_CULPRIT;
	}
	p = strstr(out, "could be any of:\n");
	if (p) {
		const char *e = strstr(p, "We cannot bisect more");

		p += strlen("could be any of:\n");
		*range = strndup(p, e ? (size_t)(e - p) : strlen(p));
		return WALK_RANGE;
	}
	return strstr(out, "Bisecting:") ? 0 : 1;
}

static int walk(struct vsb_bisect *b, char *culprit, char **range)
{
	char gd[2048 + 16], head[64], *out = NULL;
	struct vsb_bisect_step s;
	int rc = start_bisect(b, &out), a;

	git_dir(b, gd, sizeof(gd));
	while (!rc) {
		a = answer(out, culprit, range);
		if (a < 0)
			break;
		if (a > 0 || vsb_bisect_git(gd, head, sizeof(head), "rev-parse",
					    "BISECT_HEAD", (char *)NULL)) {
			vsb_err("bisect: git bisect said: %.200s", out);
			rc = VSB_EXIT_ERROR;
			break;
		}
		if (b->split > 1) {
			rc = vsb_bisect_round(b, head, &out);
			continue;
		}
		vsb_bisect_ahead_plan(b, head);
		rc = measure(b, head, &s);
		rc = rc ?: vsb_bisect_record(b, &s);
		if (rc)
			break;
		vsb_bisect_say_step(b, &s);
		rc = vsb_bisect_mark(b, b->nsteps - 1, b->nsteps, &out);
	}
	free(out);
	return rc ? rc : a;
}

/*
 * The culprit's check: its first parent against it, the same rule.
 * Both were built already or are one incremental build away.
 */
static int confirm(struct vsb_bisect *b, const char *culprit, struct vsb_bisect_step *s)
{
	struct vsb_bisect_cmp *c = vsb_zalloc(sizeof(*c));
	char gd[2048 + 16], parent[64], pspec[4096], spec[4096], ref[64];
	int rc, pfd;

	git_dir(b, gd, sizeof(gd));
	snprintf(ref, sizeof(ref), "%s^", culprit);
	memset(s, 0, sizeof(*s));
	snprintf(s->role, sizeof(s->role), "confirm");
	snprintf(s->sha, sizeof(s->sha), "%s", culprit);
	snprintf(s->dir, sizeof(s->dir), "steps/confirm-%.12s", culprit);
	if (vsb_bisect_git(gd, parent, sizeof(parent), "rev-parse", ref, (char *)NULL)) {
		free(c);
		return VSB_EXIT_ERROR;
	}
	snprintf(s->base_sha, sizeof(s->base_sha), "%.40s", parent);
	vsb_bisect_ahead_stop(b);	/* nothing more to build ahead */
	rc = vsb_bisect_build_once(b, parent, pspec, sizeof(pspec));
	rc = rc ?: vsb_bisect_build_once(b, culprit, spec, sizeof(spec));
	pfd = rc ? -1 : vsb_bisect_hold(pspec, 0);
	rc = rc ?: vsb_bisect_ab_held(b, pspec, spec, s->dir, c);
	vsb_bisect_release(pfd);
	if (!rc)
		snprintf(s->verdict, sizeof(s->verdict), "%s",
			 vsb_bisect_decide(b, c) == VSB_BV_BAD ? "confirmed" : "unconfirmed");
	else if (rc == 125)
		snprintf(s->verdict, sizeof(s->verdict), "unconfirmed");
	free(c);
	if (rc && rc != 125)
		return rc;
	if (strcmp(s->verdict, "confirmed"))
		snprintf(s->why, sizeof(s->why), "its parent against it does not show the change");
	return vsb_bisect_record(b, s);
}

static int finish_culprit(struct vsb_bisect *b, const char *culprit)
{
	const struct vsb_bisect_step *done = find_step(b, "confirm");
	struct vsb_bisect_step s;
	char subj[256];
	int rc = 0, ok;

	if (done)
		s = *done;
	else
		rc = confirm(b, culprit, &s);
	if (rc)
		return rc;
	ok = !strcmp(s.verdict, "confirmed");
	vsb_bisect_say_step(b, &s);
	vsb_bisect_effect(b, &s);
	rc = vsb_bisect_write(b, culprit, NULL);
	vsb_bisect_subject(b, culprit, subj, sizeof(subj));
	printf("culprit: %s %s%s\n", culprit, subj, ok ? "" : " (not confirmed)");
	return rc ?: (ok ? 0 : 1);
}

static int finish_range(struct vsb_bisect *b, char *range)
{
	size_t n = strlen(range) / 41;

	char subj[256], *p;

	vsb_bisect_write(b, NULL, range);
	printf("skipped commits hide the culprit; it is one of:\n");
	for (p = range; strlen(p) >= 40; p += 41) {
		char sha[41];

		snprintf(sha, sizeof(sha), "%.40s", p);
		vsb_bisect_subject(b, sha, subj, sizeof(subj));
		printf("  %s %s\n", sha, subj);
	}
	printf("culprit: one of %zu commits (skips hide it), see %s/bisect.txt\n", n,
	       b->out);
	free(range);
	return 1;
}

static int run(struct vsb_bisect *b)
{
	char culprit[41] = "", *range = NULL;
	int rc;

	rc = vsb_bisect_open_out(b);
	rc = rc ?: make_clone(b);
	rc = rc ?: build_good(b);
	rc = rc ?: hold_good(b);
	rc = rc ?: endpoints(b);
	rc = rc ?: vsb_bisect_split_check(b);
	if (rc == 1)
		vsb_bisect_write(b, NULL, NULL);
	if (rc)
		return rc;
	rc = walk(b, culprit, &range);
	if (rc == WALK_CULPRIT)
		return finish_culprit(b, culprit);
	if (rc == WALK_RANGE)
		return finish_range(b, range);
	if (!vsb_interrupted)
		vsb_bisect_write(b, NULL, NULL);
	return rc;
}

int vsb_bisect_run(struct vsb_bisect *b)
{
	int rc;

	b->baton = -1;
	if (b->ahead < 0)
		b->ahead = vsb_bisect_ahead_default();
	rc = run(b);
	vsb_bisect_ahead_stop(b);	/* no build left behind, whatever the end */
	return rc;
}
