// SPDX-License-Identifier: GPL-2.0
/*
 * One commit of a bisect in OUT, as run.c's walk and split.c's rounds
 * both take it: built once (a build ahead taken, the spec recorded in
 * bisect.state), booted against good with its build held, said on
 * stdout.  Apart from run.c so that a round (split.c) uses it without
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
