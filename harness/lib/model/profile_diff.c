// SPDX-License-Identifier: GPL-2.0
/*
 * profile_diff.c - profile.csv read back, and the table of what changed
 * between base and new (profile_diff.h), as cg_diff does for
 * Cachegrind: its users read the difference, not the totals.  The
 * tolerance is exact mode's (docs/exact.md): max(0.1%, 0.05
 * instruction an op), here of the point's whole count, so a function
 * that moved by less than the point could show is not listed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vsb.h"
#include "profile_diff.h"

/* one row "label,side,function,insn,calls,<classes 1..>" into @r */
static int parse_row(char *line, struct vsb_prow *r)
{
	char *cell[3 + 1 + VSB_EXACT_RESULT_CLASSES], *p = line, *end;
	size_t n = 0;
	int c;

	line[strcspn(line, "\r\n")] = '\0';
	while (n < sizeof(cell) / sizeof(cell[0])) {
		cell[n++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p++ = '\0';
	}
	if (n != sizeof(cell) / sizeof(cell[0]) || p)
		return -1;
	snprintf(r->label, sizeof(r->label), "%s", cell[0]);
	snprintf(r->side, sizeof(r->side), "%s", cell[1]);
	snprintf(r->fn, sizeof(r->fn), "%s", cell[2]);
	r->c[0] = strtod(cell[3], &end);
	if (*end)
		return -1;
	r->calls = strtod(cell[4], &end);
	if (*end)
		return -1;
	for (c = 1; c < VSB_EXACT_RESULT_CLASSES; c++) {
		r->c[c] = strtod(cell[4 + c], &end);
		if (*end)
			return -1;
	}
	return 0;
}

int vsb_prows_read(const char *path, struct vsb_prows *t)
{
	FILE *f = fopen(path, "r");
	char line[2048];
	size_t cap = 0, ln = 0;

	memset(t, 0, sizeof(*t));
	if (!f) {
		vsb_err("%s: cannot read: %m", path);
		return VSB_EXIT_USAGE;
	}
	while (fgets(line, sizeof(line), f)) {
		ln++;
		if (line[0] == '#' || !strncmp(line, "label,side,function,", 20))
			continue;
		t->r = vsb_grow(t->r, t->n, &cap, sizeof(*t->r));
		if (parse_row(line, &t->r[t->n])) {
			vsb_err("%s:%zu: not a profile.csv row (label,side,function,"
				"insn_per_op,calls_per_op, then the mix classes)", path, ln);
			fclose(f);
			vsb_prows_free(t);
			return VSB_EXIT_USAGE;
		}
		t->n++;
	}
	fclose(f);
	return 0;
}

void vsb_prows_free(struct vsb_prows *t)
{
	free(t->r);
	memset(t, 0, sizeof(*t));
}

/* the row of @fn on @side of @label, or NULL */
static const struct vsb_prow *find(const struct vsb_prows *t, const char *label,
				   const char *side, const char *fn)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->r[i].label, label) && !strcmp(t->r[i].side, side) &&
		    !strcmp(t->r[i].fn, fn))
			return &t->r[i];
	return NULL;
}

static double side_total(const struct vsb_prows *t, const char *label, const char *side)
{
	double s = 0;
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->r[i].label, label) && !strcmp(t->r[i].side, side))
			s += t->r[i].c[0];
	return s;
}

static int has_side(const struct vsb_prows *t, const char *label, const char *side)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->r[i].label, label) && !strcmp(t->r[i].side, side))
			return 1;
	return 0;
}

struct change {
	const char *fn;
	const struct vsb_prow *b, *n;
	double d;
};

static int by_size(const void *x, const void *y)
{
	const struct change *a = x, *b = y;

	if (fabs(a->d) != fabs(b->d))
		return fabs(a->d) > fabs(b->d) ? -1 : 1;
	return strcmp(a->fn, b->fn);
}

/* "+1 lock, +3 loads": the classes other than insn that moved (@sign 0: @n's own) */
static void mix_moved(char *buf, size_t len, const struct vsb_prow *b,
		      const struct vsb_prow *n, int sign)
{
	size_t at = 0;
	int c;

	buf[0] = '\0';
	for (c = 1; c < VSB_EXACT_RESULT_CLASSES && at < len; c++) {
		double d = (n ? n->c[c] : 0) - (b ? b->c[c] : 0);

		if (c == VSB_MIX_IRQ || isnan(d) || fabs(d) < 0.005)
			continue;	/* irq: its parts are listed */
		at += (size_t)snprintf(buf + at, len - at, sign ? "%s%+.2f %s" : "%s%.2f %s",
				       at ? ", " : "", d, vsb_exact_classes[c].name);
	}
}

/* the functions of @label that moved, into @ch; their number */
static size_t changes(const struct vsb_prows *t, const char *label, double tol,
		      struct change *ch, size_t max)
{
	size_t i, n = 0, k;

	for (i = 0; i < t->n && n < max; i++) {
		const struct vsb_prow *b, *nw;
		const char *fn = t->r[i].fn;

		if (strcmp(t->r[i].label, label))
			continue;
		for (k = 0; k < n && strcmp(ch[k].fn, fn); k++)
			;
		if (k < n)
			continue;
		b = find(t, label, "base", fn);
		nw = find(t, label, "new", fn);
		ch[n].fn = fn;
		ch[n].b = b;
		ch[n].n = nw;
		ch[n].d = (nw ? nw->c[0] : 0) - (b ? b->c[0] : 0);
		if (fabs(ch[n].d) > tol ||
		    fabs((nw ? nw->calls : 0) - (b ? b->calls : 0)) > 0.005)
			n++;
	}
	qsort(ch, n, sizeof(*ch), by_size);
	return n;
}

static void print_change(FILE *f, const struct change *c, int md)
{
	char mix[256];

	mix_moved(mix, sizeof(mix), c->b, c->n, 1);
	fprintf(f, md ? "| %s | %+.3f | %.3f -> %.3f | %.2f -> %.2f | %s |\n" :
		"  %-40s %+10.3f  %9.3f -> %-9.3f  calls %.2f -> %.2f  %s\n", c->fn, c->d,
		c->b ? c->b->c[0] : 0.0, c->n ? c->n->c[0] : 0.0,
		c->b ? c->b->calls : 0.0, c->n ? c->n->calls : 0.0, mix);
}

/* one side's functions, most first (profile.csv keeps that order) */
static void print_side(FILE *f, const struct vsb_prows *t, const char *label,
		       const char *side, int md, size_t top)
{
	char mix[256];
	size_t i, k = 0;

	for (i = 0; i < t->n && k < top; i++) {
		const struct vsb_prow *r = &t->r[i];

		if (strcmp(r->label, label) || strcmp(r->side, side))
			continue;
		k++;
		mix_moved(mix, sizeof(mix), NULL, r, 0);	/* its own classes */
		fprintf(f, md ? "| %s | %.3f | %.2f | %s |\n" :
			"  %-40s %10.3f  calls %.2f  %s\n", r->fn, r->c[0], r->calls, mix);
	}
}

size_t vsb_prof_diff(FILE *f, const struct vsb_prows *t, int md, size_t top)
{
	struct change *ch = vsb_zalloc((t->n + 1) * sizeof(*ch));
	size_t i, j, n, total = 0;

	for (i = 0; i < t->n; i++) {
		const char *label = t->r[i].label;
		double b, nw;

		for (j = 0; j < i && strcmp(t->r[j].label, label); j++)
			;
		if (j < i)
			continue;	/* a label once, where it first appears */
		b = side_total(t, label, "base");
		nw = side_total(t, label, "new");
		if (!has_side(t, label, "base") || !has_side(t, label, "new")) {
			fprintf(f, md ? "\n**%s** (%s): insn per op by function\n\n"
				"| function | insn/op | calls/op | mix/op |\n|---|---|---|---|\n" :
				"%s (%s): insn per op by function\n", label, t->r[i].side);
			print_side(f, t, label, t->r[i].side, md, top);
			continue;
		}
		n = changes(t, label, fmax(0.001 * b, 0.05), ch, t->n);
		total += n;
		fprintf(f, md ? "\n**%s**: %.3f -> %.3f insn per op, %s\n" :
			"%s: %.3f -> %.3f insn per op, %s\n", label, b, nw,
			n ? "changed in:" : "no function changed");
		if (!n)
			continue;
		if (md)
			fprintf(f, "\n| function | change | insn/op | calls/op | mix moved |\n"
				"|---|---|---|---|---|\n");
		for (j = 0; j < n && j < top; j++)
			print_change(f, &ch[j], md);
	}
	free(ch);
	return total;
}
