// SPDX-License-Identifier: GPL-2.0
/*
 * profile.c - exact mode's profile of an `ab`: DIR/profile.csv, per
 * point and side the functions that ran each op (with calls and mix per
 * op), and the cg_diff-style table of what changed for summary.md.
 *
 * Counts repeat from boot to boot, so a side's profile is its first
 * boot's that has one.  A point without a profile (a result counted
 * before profiles, a guest that kept no symbols) is left out with the
 * reason, and its counts stand in mix.csv all the same.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vsb.h"
#include "ab.h"
#include "profile_diff.h"
#include "profile_dir.h"

/* the functions listed per point in summary.md */
#define AB_PROFILE_TOP	12

static int side_rows(const struct vsb_ab *ab, int s, FILE *out, struct vsb_prof_dir *d)
{
	char dir[4096 + 64];
	long b;
	int ret = 0;

	for (b = 1; b <= ab->now && !d->nprof && !ret; b++) {
		snprintf(dir, sizeof(dir), "%s/%s/boot-%ld", ab->dir, vsb_ab_side_name[s], b);
		ret = vsb_prof_dir_rows(dir, vsb_ab_side_name[s], out, d);
	}
	return ret;
}

/* summary.md's section, appended to the mix's */
static void append_md(struct vsb_ab_run *r, const char *csv)
{
	struct vsb_prows t;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (vsb_prows_read(csv, &t))
		return;
	f = open_memstream(&buf, &len);
	if (r->mix_md)
		fputs(r->mix_md, f);
	fprintf(f, "## Where the instructions ran (exact mode's profile)\n\n"
		"Per point, the functions whose instructions per op changed beyond "
		"max(0.1%%, 0.05), biggest first, with calls per op (entries of the "
		"function's first instruction) and the classes that moved; "
		"profile.csv has every function. Inlined code counts for its caller "
		"(docs/exact.md, Profiles). `vmstat-bench profile %s` prints it.\n",
		r->ab->dir);
	vsb_prof_diff(f, &t, 1, AB_PROFILE_TOP);
	fputc('\n', f);
	fclose(f);
	free(r->mix_md);
	r->mix_md = buf;
	vsb_prows_free(&t);
}

int vsb_ab_profile(struct vsb_ab_run *r)
{
	const struct vsb_ab *ab = r->ab;
	struct vsb_prof_dir d[2] = { { 0 }, { 0 } };
	struct vsb_outfile of;
	char path[4096 + 16];
	int s, ret = 0;

	snprintf(path, sizeof(path), "%s/profile.csv", ab->dir);
	if (vsb_outfile_open(&of, path, "-o"))
		return VSB_EXIT_ERROR;
	vsb_prof_csv_header(of.f);
	for (s = VSB_AB_BASE; s <= VSB_AB_NEW && !ret; s++)
		ret = side_rows(ab, s, of.f, &d[s]);
	for (s = VSB_AB_BASE; s <= VSB_AB_NEW; s++)
		if (d[s].nskip)
			vsb_note("ab: %s: %zu point%s without a profile (%s); their counts "
				 "stand", vsb_ab_side_name[s], d[s].nskip,
				 d[s].nskip == 1 ? "" : "s", d[s].skip_why);
	if (ret || (!d[0].nprof && !d[1].nprof)) {
		vsb_outfile_abort(&of);
		return ret;
	}
	if (vsb_outfile_commit(&of))
		return VSB_EXIT_ERROR;
	append_md(r, path);
	return 0;
}
