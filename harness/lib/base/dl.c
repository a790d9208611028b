// SPDX-License-Identifier: GPL-2.0
/* Libraries loaded on first use: see dl.h. */
#include <dlfcn.h>
#include <stdio.h>

#include "dl.h"

void *vsb_dl_get(struct vsb_dl *dl, char *why, size_t len)
{
	void *h, *sym;
	size_t i;

	if (dl->state == 0) {
		dl->state = -1;
		h = dlopen(dl->soname, RTLD_NOW | RTLD_LOCAL);
		if (!h)
			snprintf(dl->err, sizeof(dl->err), "%s", dlerror());
		for (i = 0; h && i < dl->nsyms; i++) {
			sym = dlsym(h, dl->syms[i].name);
			if (!sym) {
				snprintf(dl->err, sizeof(dl->err), "%s has no %s",
					 dl->soname, dl->syms[i].name);
				break;
			}
			/* POSIX: a data pointer from dlsym() converts to a function pointer */
			*(void **)((char *)dl->api + dl->syms[i].off) = sym;
		}
		/* a failed load keeps @h: the library stays mapped, as linked once was */
		if (h && i == dl->nsyms)
			dl->state = 1;
	}
	if (dl->state < 0)
		snprintf(why, len, "%s", dl->err);
	return dl->state > 0 ? dl->api : NULL;
}
