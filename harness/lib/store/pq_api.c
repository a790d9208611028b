// SPDX-License-Identifier: GPL-2.0
/*
 * libpq through dlopen(): see pq_api.h for why.  VSB_PQ_SONAME is the
 * soname of the libpq the build found (the store's make fragment reads
 * it), so the library loaded is the one the header describes.
 */
#include <dlfcn.h>
#include <stdio.h>

#include "pq_api.h"

#ifdef VSB_HAVE_PG
#ifndef VSB_PQ_SONAME
#define VSB_PQ_SONAME "libpq.so.5"
#endif

static const struct {
	const char *name;
	size_t off;
} syms[] = {
#define VSB_PQ_SYM(f) { #f, offsetof(struct vsb_pq_api, f) },
	VSB_PQ_FUNCS(VSB_PQ_SYM)
#undef VSB_PQ_SYM
};

const struct vsb_pq_api *vsb_pq_api(char *why, size_t len)
{
	static struct vsb_pq_api api;
	static char err[160];
	static int state;	/* 0 not tried, 1 loaded, -1 failed */
	void *h, *sym;
	size_t i;

	if (state == 0) {
		state = -1;
		h = dlopen(VSB_PQ_SONAME, RTLD_NOW | RTLD_LOCAL);
		if (!h)
			snprintf(err, sizeof(err), "%s", dlerror());
		for (i = 0; h && i < sizeof(syms) / sizeof(syms[0]); i++) {
			sym = dlsym(h, syms[i].name);
			if (!sym) {
				snprintf(err, sizeof(err), "%s has no %s", VSB_PQ_SONAME,
					 syms[i].name);
				break;
			}
			/* POSIX: a data pointer from dlsym() converts to a function pointer */
			*(void **)((char *)&api + syms[i].off) = sym;
		}
		if (h && i == sizeof(syms) / sizeof(syms[0]))
			state = 1;
	}
	if (state < 0)
		snprintf(why, len, "%s", err);
	return state > 0 ? &api : NULL;
}
#endif
