// SPDX-License-Identifier: GPL-2.0
/*
 * profile_syms.c - a kernel's text symbols by address (profile_syms.h).
 *
 * Neither kallsyms nor System.map gives sizes, so a symbol is taken to
 * run up to the next one; an address is named by the last symbol at or
 * below it, as perf and cg_annotate do without debug information.
 * Where two symbols share an address (aliases), the first in the file
 * names it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vsb.h"
#include "profile_syms.h"

static int by_addr(const void *a, const void *b)
{
	const struct vsb_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x < y ? -1 : x > y;	/* keep file order: qsort is not stable */
}

/* one line into @t; the name is copied into @names at *@used */
static void take_line(const char *line, struct vsb_syms *t, size_t *cap,
		      char **names, size_t *used, size_t *ncap)
{
	unsigned long long addr;
	char type, name[256], mod[128] = "";
	int n;
	size_t len;

	n = sscanf(line, "%llx %c %255s [%127[^]]]", &addr, &type, name, mod);
	if (n < 3 || !strchr("tTwW", type) || !addr)
		return;
	len = strlen(name) + (*mod ? strlen(mod) + 3 : 0) + 1;
	*names = vsb_grow(*names, *used + len - 1, ncap, 1);
	if (*mod)
		snprintf(*names + *used, len, "%s [%s]", name, mod);
	else
		snprintf(*names + *used, len, "%s", name);
	t->s = vsb_grow(t->s, t->n, cap, sizeof(*t->s));
	t->s[t->n].addr = addr;
	t->s[t->n++].name = (const char *)(uintptr_t)*used;	/* an offset until done */
	*used += len;
}

int vsb_syms_load(const char *path, struct vsb_syms *t, char *why, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[512];
	size_t cap = 0, used = 0, ncap = 0, i;

	memset(t, 0, sizeof(*t));
	if (!f) {
		snprintf(why, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f))
		take_line(line, t, &cap, &t->buf, &used, &ncap);
	fclose(f);
	if (!t->n) {
		snprintf(why, len, "%s: no text symbol with an address (kallsyms read "
			 "without CAP_SYSLOG, or not a symbol file)", path);
		vsb_syms_free(t);
		return -1;
	}
	for (i = 0; i < t->n; i++)
		t->s[i].name = t->buf + (uintptr_t)t->s[i].name;
	qsort(t->s, t->n, sizeof(*t->s), by_addr);
	return 0;
}

long vsb_syms_find(const struct vsb_syms *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n;

	if (!t->n || addr < t->s[0].addr)
		return -1;
	while (hi - lo > 1) {	/* s[lo].addr <= addr < s[hi].addr */
		size_t mid = lo + (hi - lo) / 2;

		if (t->s[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	while (lo > 0 && t->s[lo - 1].addr == t->s[lo].addr)
		lo--;		/* an alias: the first of them */
	return (long)lo;
}

uint64_t vsb_syms_addr(const struct vsb_syms *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->s[i].name, name))
			return t->s[i].addr;
	return 0;
}

void vsb_syms_free(struct vsb_syms *t)
{
	free(t->s);
	free(t->buf);
	memset(t, 0, sizeof(*t));
}
