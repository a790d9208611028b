// SPDX-License-Identifier: GPL-2.0
/*
 * The page allocator benches, in the module only (kmod/pages.c): the
 * ports of page_bench01/02 (page-alloc, one CPU, --outstanding pages
 * kept) and page_bench03 (page-alloc-parallel, every CPU of --cpus in
 * one window).  The request's page words are the module client's
 * (kmod_client.c); this file says which bench the module runs.
 */
#include <string.h>

#include "benches.h"
#include "kmod_client.h"

int vsb_page_alloc_run_kmod(const struct vsb_run_opts *o, struct vsb_result *r)
{
	return vsb_kmod_run(o, r, !strcmp(o->bench, "page-alloc") ?
			VSB_BENCH_PAGE_ALLOC : VSB_BENCH_PAGE_ALLOC_PARALLEL, NULL);
}
