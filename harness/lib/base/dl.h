/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A library loaded with dlopen() on first use, its functions into a
 * struct of pointers (dl.c): how likwid (machine/likwid_api.c) and libpq
 * (store/pq_api.c) are reached without linking them, so that no start of
 * the binary pays for libraries most commands never call.
 */
#ifndef VSB_DL_H
#define VSB_DL_H

#include <stddef.h>

struct vsb_dl_sym {
	const char *name;
	size_t off;		/* the pointer's offset in the api struct */
};

struct vsb_dl {
	const char *soname;
	const struct vsb_dl_sym *syms;
	size_t nsyms;
	void *api;
	int state;		/* 0 not tried, 1 loaded, -1 failed */
	char err[160];
};

/*
 * @dl's api, loaded once per process on the first call; NULL when the
 * library or one of its symbols cannot be had, with why in @why.
 */
void *vsb_dl_get(struct vsb_dl *dl, char *why, size_t len);

/* One entry of a symbol table: the function @f, member of struct @type. */
#define VSB_DL_SYM(type, f) { #f, offsetof(struct type, f) },

/*
 * `const struct TYPE *TYPE(char *why, size_t len)`: the getter of struct
 * @type, filled from the library @lib (a soname) on the first call; the
 * symbol table (VSB_DL_SYM entries) follows.  What likwid, libpq and
 * libpfm4 each need, written once.
 */
#define VSB_DL_API(type, lib, ...)						\
const struct type *type(char *why, size_t len)					\
{										\
	static const struct vsb_dl_sym syms[] = { __VA_ARGS__ };		\
	static struct type a;							\
	static struct vsb_dl dl = { .soname = (lib), .syms = syms,		\
				     .nsyms = sizeof(syms) / sizeof(syms[0]),	\
				     .api = &a };				\
										\
	return vsb_dl_get(&dl, why, len);					\
}

#endif
