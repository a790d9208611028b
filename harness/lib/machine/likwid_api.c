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
#define LIKWID_SYM(f) VSB_DL_SYM(vsb_likwid_api, f)
VSB_DL_API(vsb_likwid_api, VSB_LIKWID_SONAME,
	   LIKWID_SYM(topology_init) LIKWID_SYM(get_cpuTopology) LIKWID_SYM(topology_finalize)
	   LIKWID_SYM(numa_init) LIKWID_SYM(get_numaTopology) LIKWID_SYM(numa_finalize))
#endif
