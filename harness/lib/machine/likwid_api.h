/* SPDX-License-Identifier: GPL-2.0 */
/*
 * likwid's topology API, loaded on first use (likwid_api.c).
 *
 * Linked at build time, liblikwid (with lua and hwloc behind it) cost
 * every start of the binary about 50 ms here (a 20-exec loop of an empty
 * program: 5 ms a start without it, 53 ms with it), whether or not the
 * topology was ever read: every exit-2 refusal, every --help, every
 * worker process of a sweep paid it.  Loaded with dlopen() only when
 * vsb_topo_get() asks for the topology, the library costs what it did
 * only to the runs that use it.
 */
#ifndef VSB_LIKWID_API_H
#define VSB_LIKWID_API_H

#ifdef VSB_HAVE_LIKWID
#include <likwid.h>

/* the library loaded: the Makefile names the one beside likwid.h */
#ifndef VSB_LIKWID_SONAME
#define VSB_LIKWID_SONAME "liblikwid.so"
#endif

struct vsb_likwid_api {
	int (*topology_init)(void);
	CpuTopology_t (*get_cpuTopology)(void);
	void (*topology_finalize)(void);
	int (*numa_init)(void);
	NumaTopology_t (*get_numaTopology)(void);
	void (*numa_finalize)(void);
};

/*
 * The API, loaded once per process; NULL when the library cannot be
 * loaded, with why in @why (dlerror()'s text, or a missing symbol).
 */
const struct vsb_likwid_api *vsb_likwid_api(char *why, size_t len);
#endif

#endif
