// SPDX-License-Identifier: GPL-2.0
/*
 * OUT's bisect.state: the question a bisect answers (its first line),
 * then a line per built commit and per step, each appended and synced
 * before git hears of it.  Opening OUT checks what is there before it is
 * trusted: a new or empty folder, or a bisect of the same question whose
 * state, folders and files are ours and whose lines are each one a
 * bisect writes; anything else is refused before any work.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bisect.h"
#include "vsb.h"

static void question(const struct vsb_bisect *b, char *buf, size_t len)
{
	vsb_bisect_question_write(buf, len, b->tree, b->good, b->bad, b->sweep,
				  b->ab_args, b->nab);
}

int vsb_bisect_state_add(const struct vsb_bisect *b, const char *line)
{
	char path[2048 + 32];
	int fd, ok;

	snprintf(path, sizeof(path), "%s/bisect.state", b->out);
	/* never through a link planted at the name (opening OUT checked it) */
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

int vsb_bisect_record(struct vsb_bisect *b, const struct vsb_bisect_step *s)
{
	char line[512];

	if (b->nsteps >= VSB_BISECT_STEPS_MAX) {
		vsb_err("bisect: more than %d steps", VSB_BISECT_STEPS_MAX);
		return VSB_EXIT_ERROR;
	}
	b->steps[b->nsteps++] = *s;
	vsb_bisect_step_write(line, sizeof(line), s);
	return vsb_bisect_state_add(b, line);
}

/*
 * "round K SHA": the step of SHA just before was tested in round K of a
 * --split bisect, beside the other steps of round K (bisect.txt says so)
 */
int vsb_bisect_record_round(struct vsb_bisect *b, const struct vsb_bisect_step *s,
			    unsigned int round)
{
	char line[64];
	int rc = vsb_bisect_record(b, s);

	if (rc || !round)
		return rc;
	b->round[b->nsteps - 1] = round;
	if (round > b->nround)
		b->nround = round;
	vsb_bisect_round_write(line, sizeof(line), round, s->sha);
	return vsb_bisect_state_add(b, line);
}

/* a round line into the step it follows: 0, 1 (no round line), -1 */
static int load_round(struct vsb_bisect *b, const char *line)
{
	char sha[41];
	long k;
	int r = vsb_bisect_round_read(line, &k, sha);

	if (r)
		return r;
	if (k > VSB_BISECT_STEPS_MAX)
		return -1;
	if (b->nsteps == VSB_BISECT_STEPS_MAX)
		return 0;	/* its step was left out: so is it */
	if (!b->nsteps || strcmp(b->steps[b->nsteps - 1].sha, sha))
		return -1;
	b->round[b->nsteps - 1] = k;
	if ((unsigned int)k > b->nround)
		b->nround = k;
	return 0;
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
	int r = load_round(b, line);

	if (r <= 0)
		return r;
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
int vsb_bisect_open_out(struct vsb_bisect *b)
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
		return ret ?: vsb_bisect_state_add(b, q);
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
