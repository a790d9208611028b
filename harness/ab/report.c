// SPDX-License-Identifier: GPL-2.0
/*
 * `vmstat-bench ab`'s ending: compare's verdict over the boots (each boot
 * one run) and DIR/summary.md, which says what was compared, how the
 * boots went (order, accelerator, pinning) and embeds compare's table.
 * The verdict is the compare library's (vsb_compare_report), called in
 * this process with the options `compare --runs-only` would get, so its
 * table, warnings and exit status are exactly those of the command.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "ab.h"
#include "compare.h"
#include "stats.h"
#include "vsb.h"

/* compare's summary.md under ours: without its title and its chart link
 * (relative to compare/, shown above already) */
static void embed(const char *path, FILE *to)
{
	char line[4096];
	int e;
	FILE *f = vsb_fopen_regular(path, VSB_READ_MAX, &e);

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "# ", 2) && strncmp(line, "![", 2))
			fputs(line, to);
	fclose(f);
}

/* Points compare could not decide: inconclusive, or too few boots to judge. */
static size_t undecided(const struct vsb_compare *c)
{
	size_t i, n = c->ninconc;

	for (i = 0; i < c->nv; i++)
		n += vsb_cmp_is(&c->vs[i], VSB_CW_FEW_RUNS);
	return n;
}

/*
 * Side @s's boot folders 1..now: a look judges the boots it has reached,
 * never a folder past them (a hand-made one, or a later pair's).
 */
struct boot_paths {
	char buf[VSB_AB_BOOTS_MAX][4096 + 32];
	char *p[VSB_AB_BOOTS_MAX];
};

static void boot_paths(const struct vsb_ab *ab, int s, struct boot_paths *bp)
{
	long k;

	for (k = 0; k < ab->now && k < VSB_AB_BOOTS_MAX; k++) {
		snprintf(bp->buf[k], sizeof(bp->buf[k]), "%s/%s/boot-%ld", ab->dir,
			 vsb_ab_side_name[s], k + 1);
		bp->p[k] = bp->buf[k];
	}
}

/*
 * compare BASE NEW --runs-only --max-regression P -o DIR/compare over
 * the boots 1..now of each side, each boot a run: a verdict needs boots
 * enough for the rank test over them (`--boots` in cmd_ab.c), never
 * repetitions pooled across too few boots, which under one boot's cache
 * layout understate the spread between boots.  DIR/base and DIR/new
 * hold one sweep folder per boot, which compare reads as one run each;
 * the look's alpha is its share (vsb_cmp_look_alpha).
 */
int vsb_ab_compare(struct vsb_ab_run *r)
{
	const struct vsb_ab *ab = r->ab;
	struct vsb_cmp_opts o = { .alpha = 0.01, .noise_pct = 2, .runs_only = 1 };
	char base[4096 + 8], new[4096 + 8], out[4096 + 16];
	static struct boot_paths bp, np;
	struct vsb_compare c;
	int rc;

	/* checked when the command line was (cmd_ab.c parse_max_regression) */
	vsb_parse_real(ab->max_regression, &o.max_regression_pct);
	/* this look's share of alpha (compare_verdict.c: the looks sum to it) */
	o.alpha = vsb_cmp_look_alpha(o.alpha, ab->boots, ab->max_boots, ab->now);
	r->alpha = o.alpha;
	snprintf(base, sizeof(base), "%s/base", ab->dir);
	snprintf(new, sizeof(new), "%s/new", ab->dir);
	snprintf(out, sizeof(out), "%s/compare", ab->dir);
	boot_paths(ab, VSB_AB_BASE, &bp);
	boot_paths(ab, VSB_AB_NEW, &np);
	vsb_cmp_init(&c);
	rc = vsb_compare_report_paths(&c, &o, base, (const char *const *)bp.p,
				      (size_t)ab->now, new, (const char *const *)np.p,
				      (size_t)ab->now, out);
	r->undecided = undecided(&c);
	r->judged = c.nslow + c.nfast + c.nsame + c.ninconc;
	vsb_cmp_headline(&c, &o, r->headline, sizeof(r->headline));
	vsb_cmp_free(&c);
	return rc;
}

/* The fewest boots a side for the rank test over boots to reach @alpha */
static long boots_needed(double alpha)
{
	long n;

	for (n = 2; n < VSB_AB_BOOTS_MAX && vsb_mwu_min_p(n, n) >= alpha; n++)
		;
	return n;
}

void vsb_ab_verdict_text(const struct vsb_ab_run *r, int rc, char *buf, size_t len)
{
	const struct vsb_ab *ab = r->ab;
	long n = ab->now;

	if (rc == 0 && !r->judged)
		/* compare --runs-only judged nothing: not a pass */
		snprintf(buf, len, "not judged: %ld boot%s a side, a verdict needs %ld "
			 "(every point few-runs; no regression can be called)",
			 n, n == 1 ? "" : "s", boots_needed(r->alpha));
	else if (rc == 0 || rc == 1 || rc == VSB_EXIT_INCONCLUSIVE)
		snprintf(buf, len, "%s; %ld boots a side (stopped: %s)", r->headline, n,
			 r->stop ? r->stop : "?");
	else
		snprintf(buf, len, "compare failed (its message is on stderr, exit %d); "
			 "limit %s%%", rc, ab->max_regression);
}

static void summary_boots(const struct vsb_ab_run *r, FILE *f)
{
	long i;

	fprintf(f, "| # | side | boot | kernel | guest s | accel | vCPUs | sweep exit |\n"
		"|---|---|---|---|---|---|---|---|\n");
	for (i = 0; i < 2 * r->ab->now; i++) {
		const struct vsb_ab_boot *b = &r->b[i];

		fprintf(f, "| %ld | %s | %ld | %s | %s | %s | %s | %d |\n", i + 1,
			vsb_ab_side_name[vsb_ab_side(i)], vsb_ab_side_boot(i),
			r->ab->k[vsb_ab_side(i)].release, b->guest_secs, b->accel,
			b->pinning, b->status);
	}
}

int vsb_ab_summary(const struct vsb_ab_run *r, int rc)
{
	const struct vsb_ab *ab = r->ab;
	char path[4096 + 16], buf[2048];
	struct vsb_outfile of;
	FILE *f;
	int s;

	snprintf(path, sizeof(path), "%s/summary.md", ab->dir);
	if (vsb_outfile_open(&of, path, "-o"))
		return VSB_EXIT_ERROR;
	f = of.f;
	fprintf(f, "# A/B: %s vs %s\n\n", ab->k[0].spec, ab->k[1].spec);
	if (ab->exact)
		fprintf(f, "**Mode: exact.** Each op's instructions were counted "
			"under QEMU TCG (the vsb-insn plugin), per vCPU; nothing was "
			"timed. mix.csv has the mix and a cycle estimate from a "
			"model (docs/exact.md).\n\n");
	else if (r->tcg_said)
		fprintf(f, "**Mode: timed, under TCG (no usable KVM on this host): "
			"the timings are emulated.** Compare shapes (which points "
			"move, and which way), not values.\n\n");
	vsb_ab_verdict_text(r, rc, buf, sizeof(buf));
	fprintf(f, "**Verdict:** %s (compare exit %d).\n\n", buf, rc);
	fprintf(f, "**Boots:** %ld a side (BASE %ld, NEW %ld), from --boots %ld up to "
		"--max-boots %ld, one ABBA pair added while a point was undecided; "
		"stopped: %s.  This look's alpha %.3g: the looks' alphas sum to 0.01 "
		"(the first half of it, the rest shared), and compare shares a look's "
		"alpha over the points (Benjamini-Hochberg), so an A/A raises a false "
		"alarm anywhere with probability 0.01 at most.\n\n", ab->now, ab->now,
		ab->now, ab->boots, ab->max_boots, r->stop ? r->stop : "?", r->alpha);
	fprintf(f, "| side | KERNEL | release | boots |\n|---|---|---|---|\n");
	for (s = VSB_AB_BASE; s <= VSB_AB_NEW; s++)
		fprintf(f, "| %s | `%s` | %s | %ld |\n", vsb_ab_side_name[s], ab->k[s].spec,
			ab->k[s].release, ab->now);
	vsb_ab_order_str(ab, buf, sizeof(buf));
	fprintf(f, "\nSweep `%s` (copy in this folder), %ld vCPUs and %ld MB per "
		"guest, the module built for each kernel; boots in ABBA order: %s.\n",
		ab->sweep_base, ab->smp, ab->mem, buf);
	vsb_ab_pin_str(ab, buf, sizeof(buf));
	fprintf(f, "Pinning asked for: %s.\n", buf);
	fprintf(f, "Each boot is one run: `vmstat-bench compare --runs-only %s/base "
		"%s/new`.\n\n", ab->dir, ab->dir);
	summary_boots(r, f);
	fprintf(f, "\n![regression chart](compare/regression.png)\n\n## compare\n\n");
	if (r->mix_md)
		fputs(r->mix_md, f);
	snprintf(path, sizeof(path), "%s/compare/summary.md", ab->dir);
	embed(path, f);
	return vsb_outfile_commit(&of) ? VSB_EXIT_ERROR : 0;
}

