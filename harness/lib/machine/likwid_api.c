// SPDX-License-Identifier: GPL-2.0
/*
 * likwid's topology API through dlopen() (base/dl.c): see likwid_api.h for why.
 * VSB_LIKWID_SONAME is the soname of the liblikwid the build found (the
 * Makefile reads it), so the library loaded is the one the header
 * describes.
 */
#include <stddef.h>

#include "dl.h"
#include "likwid_api.h"

#ifdef VSB_HAVE_LIKWID
#define LIKWID_SYM(f) { #f, offsetof(struct vsb_likwid_api, f) }
static const struct vsb_dl_sym syms[] = {
	LIKWID_SYM(topology_init), LIKWID_SYM(get_cpuTopology), LIKWID_SYM(topology_finalize),
	LIKWID_SYM(numa_init), LIKWID_SYM(get_numaTopology), LIKWID_SYM(numa_finalize),
};

const struct vsb_likwid_api *vsb_likwid_api(char *why, size_t len)
{
	static struct vsb_likwid_api api;
	static struct vsb_dl dl = { .soname = VSB_LIKWID_SONAME, .syms = syms,
				     .nsyms = sizeof(syms) / sizeof(syms[0]), .api = &api };

	return vsb_dl_get(&dl, why, len);
}
#endif
