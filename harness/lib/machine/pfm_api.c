// SPDX-License-Identifier: GPL-2.0
/*
 * libpfm4 through dlopen() (base/dl.c): see pfm_api.h for why.
 */
#include "dl.h"
#include "pfm_api.h"

static const struct vsb_dl_sym syms[] = {
#define VSB_PFM_SYM(f) { #f, offsetof(struct vsb_pfm_api, f) },
	VSB_PFM_FUNCS(VSB_PFM_SYM)
#undef VSB_PFM_SYM
};

const struct vsb_pfm_api *vsb_pfm_api(char *why, size_t len)
{
	static struct vsb_pfm_api api;
	static struct vsb_dl dl = { .soname = VSB_PFM_SONAME, .syms = syms,
				     .nsyms = sizeof(syms) / sizeof(syms[0]), .api = &api };

	return vsb_dl_get(&dl, why, len);
}
