// SPDX-License-Identifier: GPL-2.0
/*
 * exact_profile.c - exact mode's profile per op (exact_profile.h).
 *
 * The plugin writes, per closed window, the blocks that ran in it with
 * their entries and classes (qemu-plugin/profile.c); a result names the
 * windows of its kept samples (exact_windows metadata) and the ops they
 * ran.  A point's profile is then the sum over those windows, block by
 * block, named by the symbol holding the block's start, divided by the
 * ops: its rows add up to the windows' count per op by construction of
 * the plugin (every counted instruction is in a block), which
 * tests/vm/exact.sh checks against mix.csv.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vsb.h"
#include "exact_profile.h"
#include "exact_windows.h"

/* "W vcpu seq" or a block line into @pb; -1 when neither */
static int take_line(const char *line, struct vsb_pblocks *pb, size_t *wcap,
		     size_t *bcap)
{
	unsigned long long a, b;
	struct vsb_pblock *k;
	const char *p;
	char *end;
	int c;

	if (line[0] == 'W') {
		if (sscanf(line, "W %llu %llu", &a, &b) != 2)
			return -1;
		pb->w = vsb_grow(pb->w, pb->nw, wcap, sizeof(*pb->w));
		pb->w[pb->nw].vcpu = (unsigned int)a;
		pb->w[pb->nw].seq = b;
		pb->w[pb->nw].first = pb->nb;
		pb->w[pb->nw++].n = 0;
		return 0;
	}
	if (!pb->nw)
		return -1;
	pb->b = vsb_grow(pb->b, pb->nb, bcap, sizeof(*pb->b));
	k = &pb->b[pb->nb];
	errno = 0;
	k->addr = strtoull(line, &end, 16);
	p = end;
	k->entries = strtoull(p, &end, 10);
	memset(k->count, 0, sizeof(k->count));
	for (c = 0; c < pb->nclass; c++) {
		p = end;
		k->count[c] = strtoull(p, &end, 10);
		if (end == p)
			return -1;
	}
	if (errno)
		return -1;
	pb->nb++;
	pb->w[pb->nw - 1].n++;
	return 0;
}

int vsb_pblocks_read(const char *path, struct vsb_pblocks *pb, char *why, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	size_t wcap = 0, bcap = 0, ln = 1;

	memset(pb, 0, sizeof(*pb));
	if (!f) {
		snprintf(why, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!fgets(line, sizeof(line), f) || strncmp(line, "vsb-profile 1", 13)) {
		snprintf(why, len, "%s: not a profile of vsb-insn (no 'vsb-profile 1' line)",
			 path);
		fclose(f);
		return -1;
	}
	pb->nclass = VSB_EXACT_NCLASS;
	while (fgets(line, sizeof(line), f)) {
		const char *n = strstr(line, "and the ");
		int k;

		ln++;
		/* "... and the 13 classes of ...": a file from before rep_iters */
		if (line[0] == '#' && n && sscanf(n, "and the %d classes", &k) == 1 &&
		    k > 0 && k <= VSB_EXACT_NCLASS)
			pb->nclass = k;
		if (line[0] == '#')
			continue;
		if (take_line(line, pb, &wcap, &bcap)) {
			snprintf(why, len, "%s:%zu: not a window or block line", path, ln);
			fclose(f);
			vsb_pblocks_free(pb);
			return -1;
		}
	}
	fclose(f);
	return 0;
}

void vsb_pblocks_free(struct vsb_pblocks *pb)
{
	free(pb->w);
	free(pb->b);
	memset(pb, 0, sizeof(*pb));
}

int vsb_prof_spec_boot(const char *spec, char *boot, size_t len)
{
	const char *b = spec ? strstr(spec, "boot=") : NULL;
	size_t n;

	if (!b)
		return -1;
	b += 5;
	n = strcspn(b, " ");
	if (!n || n >= len)
		return -1;
	memcpy(boot, b, n);
	boot[n] = '\0';
	return 0;
}

/* the window (@vcpu, @seq) of @pb, or NULL; the last written wins */
static const struct vsb_pwindow *find_window(const struct vsb_pblocks *pb,
					     unsigned int vcpu, uint64_t seq)
{
	size_t i = pb->nw;

	while (i--)
		if (pb->w[i].vcpu == vcpu && pb->w[i].seq == seq)
			return &pb->w[i];
	return NULL;
}

/* per function, by symbol index (+1; 0 is "(unknown)") */
struct acc {
	long *slot;		/* symbol + 1 -> function index + 1 */
	struct vsb_prof *p;
	size_t cap;
};

/* a class the file does not hold is unknown (NAN), never 0 */
static void add_block(struct acc *a, const struct vsb_syms *syms, int nclass,
		      const struct vsb_pblock *k)
{
	long s = vsb_syms_find(syms, k->addr);
	struct vsb_pfn *fn;
	int c;

	if (!a->slot[s + 1]) {
		a->p->fn = vsb_grow(a->p->fn, a->p->n, &a->cap, sizeof(*a->p->fn));
		fn = &a->p->fn[a->p->n];
		memset(fn, 0, sizeof(*fn));
		snprintf(fn->name, sizeof(fn->name), "%s", s < 0 ? "(unknown)" :
			 syms->s[s].name);
		a->slot[s + 1] = (long)++a->p->n;
	}
	fn = &a->p->fn[a->slot[s + 1] - 1];
	if (s >= 0 && syms->s[s].addr == k->addr)
		fn->calls += (double)k->entries;
	for (c = 0; c < VSB_EXACT_RESULT_CLASSES; c++)
		fn->c[c] += vsb_exact_classes[c].rec < nclass ?
			    (double)k->count[vsb_exact_classes[c].rec] : NAN;
}

/* every window of @spec's runs "v:a-b" into @a; -1 with why */
static int add_windows(struct acc *a, const struct vsb_pblocks *pb,
		       const struct vsb_syms *syms, const char *spec,
		       char *why, size_t len)
{
	const char *p = spec;
	unsigned long long lo, hi, q;
	unsigned int v;
	size_t i;
	int more;

	while ((more = vsb_exact_windows_next(&p, &v, &lo, &hi))) {
		if (more < 0) {
			snprintf(why, len, "exact_windows: '%.40s' is not vcpu:first-last",
				 strchr(p, ' ') + 1);
			return -1;
		}
		for (q = lo; q <= hi; q++) {
			const struct vsb_pwindow *w = find_window(pb, v, q);

			if (!w) {
				snprintf(why, len, "window %llu of vCPU %u is not in the "
					 "profile", q, v);
				return -1;
			}
			for (i = 0; i < w->n; i++)
				add_block(a, syms, pb->nclass, &pb->b[w->first + i]);
			a->p->nwindows++;
		}
	}
	return 0;
}

static int by_insn(const void *x, const void *y)
{
	const struct vsb_pfn *a = x, *b = y;

	if (a->c[VSB_MIX_INSN] != b->c[VSB_MIX_INSN])
		return a->c[VSB_MIX_INSN] > b->c[VSB_MIX_INSN] ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* per op, most first, the small ones folded into one "(other)" row */
static void finish(struct vsb_prof *p, double ops)
{
	struct vsb_pfn other = { .name = VSB_PROF_OTHER };
	double total = 0;
	size_t i, k = 0;
	int c, folded = 0;

	for (i = 0; i < p->n; i++) {
		for (c = 0; c < VSB_EXACT_RESULT_CLASSES; c++)
			p->fn[i].c[c] /= ops;
		p->fn[i].calls /= ops;
		total += p->fn[i].c[VSB_MIX_INSN];
	}
	qsort(p->fn, p->n, sizeof(*p->fn), by_insn);
	for (i = 0; i < p->n; i++) {
		if (p->fn[i].c[VSB_MIX_INSN] >= VSB_PROF_MIN_SHARE * total) {
			p->fn[k++] = p->fn[i];
			continue;
		}
		for (c = 0; c < VSB_EXACT_RESULT_CLASSES; c++)
			other.c[c] += p->fn[i].c[c];
		other.calls += p->fn[i].calls;
		folded = 1;
	}
	if (folded)
		p->fn[k++] = other;
	p->n = k;
	p->ops = ops;
}

int vsb_prof_of(const struct vsb_pblocks *pb, const struct vsb_syms *syms,
		const char *spec, double ops, struct vsb_prof *p, char *why, size_t len)
{
	struct acc a = { .p = p };

	memset(p, 0, sizeof(*p));
	if (!spec || strncmp(spec, "boot=", 5)) {
		snprintf(why, len, "no exact_windows metadata (a result counted before "
			 "profiles, or not in exact mode)");
		return -1;
	}
	if (!(ops > 0)) {
		snprintf(why, len, "no ops in the result's samples");
		return -1;
	}
	a.slot = vsb_zalloc((syms->n + 1) * sizeof(*a.slot));
	if (add_windows(&a, pb, syms, spec, why, len)) {
		free(a.slot);
		vsb_prof_free(p);
		return -1;
	}
	free(a.slot);
	finish(p, ops);
	return 0;
}

void vsb_prof_free(struct vsb_prof *p)
{
	free(p->fn);
	memset(p, 0, sizeof(*p));
}

void vsb_prof_csv_header(FILE *f)
{
	int c;

	fprintf(f, "# exact mode's profile: per op, the instructions and calls of "
		"each function and their mix (docs/exact.md, Profiles); rows below "
		"0.1%% of the op in (other)\n");
	fprintf(f, "label,side,function,insn_per_op,calls_per_op");
	for (c = 1; c < VSB_EXACT_RESULT_CLASSES; c++)
		fprintf(f, ",%s", vsb_exact_classes[c].name);
	fputc('\n', f);
}

void vsb_prof_csv_rows(FILE *f, const char *label, const char *side,
		       const struct vsb_prof *p)
{
	size_t i;
	int c;

	for (i = 0; i < p->n; i++) {
		fprintf(f, "%s,%s,%s,%.6g,%.6g", label, side, p->fn[i].name,
			p->fn[i].c[VSB_MIX_INSN], p->fn[i].calls);
		for (c = 1; c < VSB_EXACT_RESULT_CLASSES; c++)
			fprintf(f, ",%.6g", p->fn[i].c[c]);
		fputc('\n', f);
	}
}
