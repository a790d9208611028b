/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libpfm4, loaded on first use (pfm_api.c), as likwid and libpq are
 * (likwid_api.h, store/pq_api.h).
 *
 * Linked at build time, libpfm4's event tables for every PMU model it
 * knows (41,000 relocations) were written by the dynamic loader at every
 * start: an empty program linked with -lpfm took 336 page faults and
 * 6.9 ms of CPU here against 48 and 1.5 ms without it.  Every exit-2
 * refusal, every `compare`, `plot` and `db`, and each sweep's parent
 * paid it; only encoding an event (pmu.c) needs the library.
 */
#ifndef VSB_PFM_API_H
#define VSB_PFM_API_H

#include <stddef.h>
#include <perfmon/pfmlib_perf_event.h>

/* the library loaded: the Makefile names the one the header came with */
#ifndef VSB_PFM_SONAME
#define VSB_PFM_SONAME "libpfm.so.4"
#endif

/* the libpfm functions pmu.c calls */
#define VSB_PFM_FUNCS(X) X(pfm_initialize) X(pfm_get_os_event_encoding) X(pfm_strerror)

/* each member has its function's own type, from the libpfm headers */
struct vsb_pfm_api {
#define VSB_PFM_MEMBER(f) __typeof__(f) *f;
	VSB_PFM_FUNCS(VSB_PFM_MEMBER)
#undef VSB_PFM_MEMBER
};

/*
 * The API, loaded once per process; NULL when libpfm4 cannot be loaded,
 * with why in @why (dlerror()'s text, or the missing symbol).
 */
const struct vsb_pfm_api *vsb_pfm_api(char *why, size_t len);

#endif
