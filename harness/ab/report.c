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

/*
 * compare BASE NEW --runs-only --max-regression P -o DIR/compare, each
 * boot a run: a verdict needs boots enough for the rank test over them
 * (`--boots` in cmd_ab.c), never repetitions pooled across too few boots,
 * which under one boot's cache layout understate the spread between boots.
 * DIR/base and DIR/new hold one sweep folder per boot, which compare
 * reads as one run each.
 */
int vsb_ab_compare(const struct vsb_ab_run *r)
{
	const struct vsb_ab *ab = r->ab;
	struct vsb_cmp_opts o = { .alpha = 0.01, .noise_pct = 2, .runs_only = 1 };
	char base[4096 + 8], new[4096 + 8], out[4096 + 16];
	struct vsb_compare c;
	int rc;

	/* checked when the command line was (cmd_ab.c parse_max_regression) */
	vsb_parse_real(ab->max_regression, &o.max_regression_pct);
	snprintf(base, sizeof(base), "%s/base", ab->dir);
	snprintf(new, sizeof(new), "%s/new", ab->dir);
	snprintf(out, sizeof(out), "%s/compare", ab->dir);
	vsb_cmp_init(&c);
	rc = vsb_compare_report(&c, &o, base, new, out);
	vsb_cmp_free(&c);
	return rc;
}

void vsb_ab_verdict_text(const struct vsb_ab *ab, int rc, char *buf, size_t len)
{
	if (rc == 0 && ab->boots < VSB_AB_BOOTS_VERDICT)
		/* compare --runs-only judged nothing: not a pass */
		snprintf(buf, len, "not judged: %ld boot%s a side, a verdict needs %d "
			 "(every point few-runs; no regression can be called)",
			 ab->boots, ab->boots == 1 ? "" : "s", VSB_AB_BOOTS_VERDICT);
	else if (rc == 0)
		snprintf(buf, len, "no regression beyond %s%%", ab->max_regression);
	else if (rc == 1)
		snprintf(buf, len, "REGRESSION beyond %s%%", ab->max_regression);
	else
		snprintf(buf, len, "compare failed (its message is on stderr, exit %d); "
			 "limit %s%%", rc, ab->max_regression);
}

static void summary_boots(const struct vsb_ab_run *r, FILE *f)
{
	long i;

	fprintf(f, "| # | side | boot | kernel | guest s | accel | vCPUs | sweep exit |\n"
		"|---|---|---|---|---|---|---|---|\n");
	for (i = 0; i < 2 * r->ab->boots; i++) {
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
	vsb_ab_verdict_text(ab, rc, buf, sizeof(buf));
	fprintf(f, "**Verdict:** %s (compare exit %d).\n\n", buf, rc);
	fprintf(f, "| side | KERNEL | release | boots |\n|---|---|---|---|\n");
	for (s = VSB_AB_BASE; s <= VSB_AB_NEW; s++)
		fprintf(f, "| %s | `%s` | %s | %ld |\n", vsb_ab_side_name[s], ab->k[s].spec,
			ab->k[s].release, ab->boots);
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

