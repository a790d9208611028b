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

#endif
