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

#define VSB_PQ_SYM(f) VSB_DL_SYM(vsb_pq_api, f)
VSB_DL_API(vsb_pq_api, VSB_PQ_SONAME, VSB_PQ_FUNCS(VSB_PQ_SYM))
#endif
