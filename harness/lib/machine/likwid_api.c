// SPDX-License-Identifier: GPL-2.0
/*
 * likwid's topology API through dlopen(): see likwid_api.h for why.
 * VSB_LIKWID_SONAME is the soname of the liblikwid the build found (the
 * Makefile reads it), so the library loaded is the one the header
 * describes.
 */
#include <dlfcn.h>
#include <stdio.h>

#include "likwid_api.h"

#ifdef VSB_HAVE_LIKWID

static int load(void *h, void *slot, const char *name, char *why, size_t len)
{
	void *sym = dlsym(h, name);

	if (!sym) {
		snprintf(why, len, "%s has no %s", VSB_LIKWID_SONAME, name);
		return -1;
	}
	/* POSIX: a data pointer from dlsym() converts to a function pointer */
	*(void **)slot = sym;
	return 0;
}

const struct vsb_likwid_api *vsb_likwid_api(char *why, size_t len)
{
	static struct vsb_likwid_api api;
	static char err[160];
	static int state;	/* 0 not tried, 1 loaded, -1 failed */
	void *h;

	if (state == 0) {
		state = -1;
		h = dlopen(VSB_LIKWID_SONAME, RTLD_NOW | RTLD_LOCAL);
		if (!h)
			snprintf(err, sizeof(err), "%s", dlerror());
		else if (!load(h, &api.topology_init, "topology_init", err, sizeof(err)) &&
			 !load(h, &api.get_cpuTopology, "get_cpuTopology", err, sizeof(err)) &&
			 !load(h, &api.topology_finalize, "topology_finalize", err, sizeof(err)) &&
			 !load(h, &api.numa_init, "numa_init", err, sizeof(err)) &&
			 !load(h, &api.get_numaTopology, "get_numaTopology", err, sizeof(err)) &&
			 !load(h, &api.numa_finalize, "numa_finalize", err, sizeof(err)))
			state = 1;
		/* a failed load keeps @h: the library stays mapped, as linked once was */
	}
	if (state < 0)
		snprintf(why, len, "%s", err);
	return state > 0 ? &api : NULL;
}
#endif
