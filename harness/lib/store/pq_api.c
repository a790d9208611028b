// SPDX-License-Identifier: GPL-2.0
/*
 * libpq through dlopen() (base/dl.c): see pq_api.h for why.  VSB_PQ_SONAME is the
 * soname of the libpq the build found (the store's make fragment reads
 * it), so the library loaded is the one the header describes.
 */
#include "dl.h"
#include "pq_api.h"

#ifdef VSB_HAVE_PG
#ifndef VSB_PQ_SONAME
#define VSB_PQ_SONAME "libpq.so.5"
#endif

static const struct vsb_dl_sym syms[] = {
#define VSB_PQ_SYM(f) { #f, offsetof(struct vsb_pq_api, f) },
	VSB_PQ_FUNCS(VSB_PQ_SYM)
#undef VSB_PQ_SYM
};

const struct vsb_pq_api *vsb_pq_api(char *why, size_t len)
{
	static struct vsb_pq_api api;
	static struct vsb_dl dl = { .soname = VSB_PQ_SONAME, .syms = syms,
				     .nsyms = sizeof(syms) / sizeof(syms[0]), .api = &api };

	return vsb_dl_get(&dl, why, len);
}
#endif
