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
#include <dirent.h>
#include <errno.h>
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

static const char *const vname[] = { "none", "good", "bad", "skip" };

static void say_step(const struct vsb_bisect *b, const struct vsb_bisect_step *s);

static void git_dir(const struct vsb_bisect *b, char *buf, size_t len)
{
	snprintf(buf, len, "%s/git", b->out);
}

static void question(const struct vsb_bisect *b, char *buf, size_t len)
{
	vsb_bisect_question_write(buf, len, b->tree, b->good, b->bad, b->sweep,
				  b->ab_args, b->nab);
}

static int state_add(const struct vsb_bisect *b, const char *line)
{
	char path[2048 + 32];
	int fd, ok;

	snprintf(path, sizeof(path), "%s/bisect.state", b->out);
	/* never through a link planted at the name (open_out checked it) */
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		vsb_err("bisect: cannot write %s: %s", path, strerror(errno));
		return VSB_EXIT_ERROR;
	}
	ok = write(fd, line, strlen(line)) == (ssize_t)strlen(line) &&
	     write(fd, "\n", 1) == 1 && fsync(fd) == 0;
	close(fd);
	if (!ok) {
		vsb_err("bisect: cannot write %s", path);
		return VSB_EXIT_ERROR;
	}
	return 0;
}

static int record(struct vsb_bisect *b, const struct vsb_bisect_step *s)
{
	char line[512];

	if (b->nsteps >= VSB_BISECT_STEPS_MAX) {
		vsb_err("bisect: more than %d steps", VSB_BISECT_STEPS_MAX);
		return VSB_EXIT_ERROR;
	}
	b->steps[b->nsteps++] = *s;
	vsb_bisect_step_write(line, sizeof(line), s);
	return state_add(b, line);
}

/*
 * A step line beyond its shape: a verdict word its role writes (a word
 * of any other kind was replayed to git as it stood), and the folder
 * the writer names it by, inside OUT/steps (a "../../.." was read as a
 * step's folder).
 */
static int step_line_ours(const struct vsb_bisect *b, const struct vsb_bisect_step *s)
{
	static const char *const words[][3] = {
		{ "endpoints", "differ", "same" },
		{ "step", "good", "bad" },
		{ "step", "skip", "skip" },
		{ "confirm", "confirmed", "unconfirmed" },
	};
	char dir[64];
	size_t i, digits;
	int word = 0;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		word |= !strcmp(s->role, words[i][0]) &&
			(!strcmp(s->verdict, words[i][1]) || !strcmp(s->verdict, words[i][2]));
	if (!word)
		return 0;
	if (!strcmp(s->role, "endpoints"))
		return !strcmp(s->dir, "steps/00-endpoints") && !strcmp(s->sha, b->bad) &&
		       !strcmp(s->base_sha, b->good);
	if (!strcmp(s->role, "confirm")) {
		snprintf(dir, sizeof(dir), "steps/confirm-%.12s", s->sha);
		return !strcmp(s->dir, dir);
	}
	/* steps/NN-<sha12>, NN the step's number (two digits or more) */
	digits = strncmp(s->dir, "steps/", 6) ? 0 : strspn(s->dir + 6, "0123456789");
	snprintf(dir, sizeof(dir), "-%.12s", s->sha);
	return digits >= 2 && !strcmp(s->dir + 6 + digits, dir) &&
	       !strcmp(s->base_sha, b->good);
}

/* a spec line's kernel: BZIMAGE:BUILD_DIR, no ".." among its names */
static int has_dotdot(const char *p)
{
	for (; p; p = strchr(p, '/'), p = p ? p + 1 : NULL)
		if (!strncmp(p, "..", 2) && (!p[2] || p[2] == '/' || p[2] == ':'))
			return 1;
	return 0;
}

static int spec_ours(const char *spec)
{
	const char *colon = strchr(spec, ':');

	return colon && colon > spec && colon[1] && !has_dotdot(spec) &&
	       !has_dotdot(colon + 1);
}

/*
 * A line of bisect.state after the question into @b: 0, or -1 when it is
 * no line a bisect writes (the steps and builds past the most it keeps
 * are read and left out, as they were never recorded).
 */
static int load_line(struct vsb_bisect *b, const char *line)
{
	struct vsb_bisect_step s;
	char sha[41], spec[4096];

	if (!vsb_bisect_spec_read(line, sha, spec, sizeof(spec))) {
		if (!spec_ours(spec))
			return -1;
		if (b->nbuilt < VSB_BISECT_BUILT_MAX) {
			snprintf(b->built[b->nbuilt].sha, 41, "%s", sha);
			snprintf(b->built[b->nbuilt++].spec, 4096, "%s", spec);
		}
		return 0;
	}
	if (vsb_bisect_step_read(line, &s) || !step_line_ours(b, &s))
		return -1;
	if (b->nsteps < VSB_BISECT_STEPS_MAX)
		b->steps[b->nsteps++] = s;
	return 0;
}

/*
 * What a bisect makes in OUT, besides bisect.state: each must be ours
 * (no link, owned by us, written by no one else) before it is resumed,
 * written or run in (a planted OUT/git's config would be git's).
 */
static int check_own_names(const struct vsb_bisect *b)
{
	static const char *const dirs[] = { "git", "steps", "kernels" };
	static const char *const files[] = {
		"bisect.txt", "bisect.csv", "bisect.png", "bisect.svg",
	};
	char path[2048 + 32];
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", b->out, dirs[i]);
		ret = vsb_owned(path, S_IFDIR, "-o") == VSB_EXIT_USAGE;
	}
	for (i = 0; !ret && i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", b->out, files[i]);
		ret = vsb_owned(path, S_IFREG, "-o") == VSB_EXIT_USAGE;
	}
	return ret ? VSB_EXIT_USAGE : 0;
}

/* OUT without bisect.state: absent or empty, else a user's files */
static int check_fresh(const struct vsb_bisect *b)
{
	struct dirent *de;
	DIR *d = opendir(b->out);
	int busy = 0;

	if (!d)
		return errno == ENOENT ? 0 : -1;
	while (!busy && (de = readdir(d)))
		busy = strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	if (busy) {
		vsb_err("-o %s: not empty and holds no bisect (no bisect.state): give "
			"a new or empty folder", b->out);
		return VSB_EXIT_USAGE;
	}
	return 0;
}

/*
 * bisect.state read through no link, and only when it is ours: its
 * lines name the build folders where the module is made (as root).
 */
static int read_state(const struct vsb_bisect *b, const char *path, char **buf)
{
	struct stat st;
	size_t len;
	int fd, ret;

	ret = vsb_owned(path, S_IFREG, "-o");
	if (ret)
		return ret;
	fd = vsb_open_regular(path, O_NOFOLLOW, &st);
	ret = fd < 0 ? -fd : vsb_read_fd(fd, &st, 1 << 20, buf, &len);
	if (fd >= 0)
		close(fd);
	if (ret) {
		vsb_err("-o %s: cannot read bisect.state: %s", b->out,
			vsb_read_strerror(ret));
		return VSB_EXIT_USAGE;
	}
	return 0;
}

/*
 * OUT: new (the question written), or a bisect of the same question
 * (its steps loaded), or another bisect's, or a user's files, or state
 * that is not ours: refused before any work.
 */
static int open_out(struct vsb_bisect *b)
{
	char path[2048 + 32], q[8192], *buf = NULL, *cur, *line;
	int ret;

	question(b, q, sizeof(q));
	snprintf(path, sizeof(path), "%s/bisect.state", b->out);
	ret = vsb_owned_top(b->out, "-o");
	if (ret == VSB_EXIT_USAGE)
		return ret;
	ret = ret ? 1 : vsb_owned(path, S_IFREG, "-o");
	if (ret == VSB_EXIT_USAGE)
		return ret;
	if (ret == 1) {
		ret = check_fresh(b);
		if (ret > 0)
			return ret;
		if (ret < 0 || vsb_mkdir_p(b->out, 0755)) {
			vsb_err("-o %s: cannot create: %s", b->out, strerror(errno));
			return VSB_EXIT_USAGE;
		}
		ret = vsb_dir_lock(b->out, "-o");
		return ret ?: state_add(b, q);
	}
	ret = check_own_names(b) ?: read_state(b, path, &buf);
	if (ret)
		return ret;
	cur = buf;
	line = vsb_bisect_state_line(&cur);
	if (!line || strcmp(line, q)) {
		vsb_err("-o %s holds another bisect (%s): give another -o", b->out,
			line ? line : "no question");
		free(buf);
		return VSB_EXIT_USAGE;
	}
	ret = vsb_dir_lock(b->out, "-o");
	while (!ret && (line = vsb_bisect_state_line(&cur)))
		if (load_line(b, line)) {
			vsb_err("-o %s: bisect.state holds a line no bisect writes (\"%.80s\"): "
				"give another -o", b->out, line);
			ret = VSB_EXIT_USAGE;
		}
	free(buf);
	if (!ret && b->nsteps)
		vsb_note("bisect: resuming %s after %zu step(s)", b->out, b->nsteps);
	return ret;
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
		enum vsb_bisect_class v = vsb_bisect_classify(c->rows[i].verdict);

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

/*
 * @sha's kernel: built once per bisect (a commit's second build would be
 * a cache hit, but its checkout would still touch the files it differs
 * in, and the next incremental build recompile them).  0, 125, VSB_EXIT_*.
 */
static int build_once(struct vsb_bisect *b, const char *sha, char *spec, size_t len)
{
	char line[4096 + 64];
	size_t i;
	int rc;

	for (i = 0; i < b->nbuilt; i++)
		if (!strcmp(b->built[i].sha, sha)) {
			snprintf(spec, len, "%s", b->built[i].spec);
			return 0;
		}
	rc = vsb_bisect_build(b, sha, spec, len);
	if (rc)
		return rc;
	if (b->nbuilt < VSB_BISECT_BUILT_MAX) {
		snprintf(b->built[b->nbuilt].sha, 41, "%s", sha);
		snprintf(b->built[b->nbuilt++].spec, 4096, "%s", spec);
	}
	vsb_bisect_spec_write(line, sizeof(line), sha, spec);
	return state_add(b, line);
}

static int build_good(struct vsb_bisect *b)
{
	int rc = build_once(b, b->good, b->good_spec, sizeof(b->good_spec));

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
	rc = build_once(b, b->bad, spec, sizeof(spec));
	if (rc == 125) {
		vsb_err("bisect: --bad %s does not build", b->bad_rev);
		rc = VSB_EXIT_ERROR;
	}
	rc = rc ?: vsb_bisect_ab(b, b->good_spec, spec, s.dir, c, 1);
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
	rc = record(b, &s);
	if (!rc)
		say_step(b, &s);
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

/* git bisect VERB [SHA] in OUT/git; its output in *@out */
static int git_bisect(const struct vsb_bisect *b, const char *verb, const char *sha,
		      char **out)
{
	char gd[2048 + 16];

	git_dir(b, gd, sizeof(gd));
	return vsb_bisect_git_all(gd, out, "bisect", verb, sha, (char *)NULL);
}

static int start_bisect(struct vsb_bisect *b, char **out)
{
	char gd[2048 + 16];
	size_t i;
	int rc;

	git_dir(b, gd, sizeof(gd));
	free(*out);
	vsb_bisect_git_all(gd, out, "bisect", "reset", (char *)NULL);
	free(*out);
	rc = vsb_bisect_git_all(gd, out, "bisect", "start", "--no-checkout", b->bad,
				b->good, (char *)NULL);
	for (i = 0; !rc && i < b->nsteps; i++) {
		const struct vsb_bisect_step *s = &b->steps[i];

		if (strcmp(s->role, "step"))
			continue;
		free(*out);
		rc = git_bisect(b, s->verdict, s->sha, out);
		if (rc == 2 && strstr(*out, "only 'skip'ped"))
			rc = 0;
	}
	if (rc)
		vsb_err("bisect: git bisect in %s failed: %.200s", gd, *out);
	return rc ? VSB_EXIT_ERROR : 0;
}

/*
 * The good kernel is every step's base: mark its build used (its
 * .vsb-complete's mtime), so that kernel-build.sh --reuse, which keeps
 * the builds of a tree used last, does not remove it under a long bisect.
 */
static void touch_good(const struct vsb_bisect *b)
{
	const char *colon = strchr(b->good_spec, ':');
	char path[4096 + 32];

	if (!colon)
		return;
	snprintf(path, sizeof(path), "%s/.vsb-complete", colon + 1);
	utimensat(AT_FDCWD, path, NULL, 0);
}

/*
 * And more: hold good's build folder's lock (shared) for the whole
 * bisect.  kernel-build.sh --reuse prunes a lineage's older builds only
 * under their lock, skipping one somebody holds, so with VSB_KBUILD_KEEP
 * as low as 1 the build every step boots against stays.  A complete
 * build is read without the lock, so nothing waits on it.  Only a
 * .vsb-lock kernel-build.sh made is opened (never created here).
 */
static int good_lock = -1;

static void hold_good(const struct vsb_bisect *b)
{
	const char *colon = strchr(b->good_spec, ':');
	char path[4096 + 32];
	int fd;

	if (!colon)
		return;
	snprintf(path, sizeof(path), "%s/.vsb-lock", colon + 1);
	fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0 && flock(fd, LOCK_SH | LOCK_NB)) {
		close(fd);	/* a build of it under way: nothing to prune */
		fd = -1;
	}
	good_lock = fd;		/* held to the end: the lock dies with us */
}

static void say_step(const struct vsb_bisect *b, const struct vsb_bisect_step *s)
{
	char subj[128];

	vsb_bisect_subject(b, s->sha, subj, sizeof(subj));
	printf("%s %.12s %s%s%s  %s\n", s->role, s->sha, s->verdict,
	       s->why[0] ? ": " : "", s->why, subj);
	fflush(stdout);
}

/* Build @sha and compare it with good: one step's verdict into @s. */
static int measure(struct vsb_bisect *b, const char *sha, struct vsb_bisect_step *s)
{
	struct vsb_bisect_cmp *c = vsb_zalloc(sizeof(*c));
	enum vsb_bisect_verdict v = VSB_BV_SKIP;
	char spec[4096];
	int rc;

	snprintf(s->role, sizeof(s->role), "step");
	snprintf(s->sha, sizeof(s->sha), "%.40s", sha);
	snprintf(s->base_sha, sizeof(s->base_sha), "%s", b->good);
	snprintf(s->dir, sizeof(s->dir), "steps/%02zu-%.12s", b->nsteps, sha);
	touch_good(b);
	rc = build_once(b, sha, spec, sizeof(spec));
	if (rc == 125)
		snprintf(s->why, sizeof(s->why), "does not build");
	else if (!rc && (rc = vsb_bisect_ab(b, b->good_spec, spec, s->dir, c, 1)) == 125)
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
		memset(&s, 0, sizeof(s));
		rc = measure(b, head, &s);
		rc = rc ?: record(b, &s);
		if (rc)
			break;
		say_step(b, &s);
		free(out);
		if (git_bisect(b, s.verdict, s.sha, &out) && !strstr(out, "only 'skip'ped")) {
			vsb_err("bisect: git bisect %s failed: %.200s", s.verdict, out);
			rc = VSB_EXIT_ERROR;
		}
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
	int rc;

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
	rc = build_once(b, parent, pspec, sizeof(pspec));
	rc = rc ?: build_once(b, culprit, spec, sizeof(spec));
	rc = rc ?: vsb_bisect_ab(b, pspec, spec, s->dir, c, 1);
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
	return record(b, s);
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
	say_step(b, &s);
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

int vsb_bisect_run(struct vsb_bisect *b)
{
	char culprit[41] = "", *range = NULL;
	int rc;

	rc = open_out(b);
	rc = rc ?: make_clone(b);
	rc = rc ?: build_good(b);
	if (!rc)
		hold_good(b);
	rc = rc ?: endpoints(b);
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
