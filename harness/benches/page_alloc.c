// SPDX-License-Identifier: GPL-2.0
/*
 * The page allocator benches, in the module only (kmod/pages.c): the
 * ports of page_bench01/02 (page-alloc, one CPU, --outstanding pages
 * kept) and page_bench03 (page-alloc-parallel, every CPU of --cpus in
 * one window).  The request's page words are the module client's
 * (kmod_client.c); this file says which bench the module runs.
 */
#include "benches.h"
#include "kmod_client.h"

static int page_alloc_run(const struct vsb_run_opts *o, struct vsb_result *r)
{
	return vsb_kmod_run(o, r, VSB_BENCH_PAGE_ALLOC, NULL);
}

static int page_alloc_parallel_run(const struct vsb_run_opts *o, struct vsb_result *r)
{
	return vsb_kmod_run(o, r, VSB_BENCH_PAGE_ALLOC_PARALLEL, NULL);
}

/* its point in the text header's words (bench_model.h) */
static void page_alloc_describe(const struct vsb_run_opts *o, FILE *f)
{
	fprintf(f, "order %ld, %ld outstanding, gfp %s, preempt %s, irqs %s",
		o->order, o->outstanding, o->gfp, o->preempt, o->irqs);
}

const struct vsb_bench vsb_bench_page_alloc = {
	.name = "page-alloc", .sides = VSB_SIDE_KMOD,
	.desc = "module: alloc_pages + __free_pages on one CPU, --order, --outstanding (page_bench01/02)",
	.run_kmod = page_alloc_run, .check = vsb_kmod_page_opts,
	.takes = "order outstanding gfp preempt irqs",
	.model = { .describe = page_alloc_describe },
};

const struct vsb_bench vsb_bench_page_alloc_parallel = {
	.name = "page-alloc-parallel", .sides = VSB_SIDE_KMOD,
	.desc = "module: the same loop on every CPU of --cpus in one common window (page_bench03)",
	.run_kmod = page_alloc_parallel_run, .check = vsb_kmod_page_opts,
	.takes = "order outstanding gfp preempt irqs",
	.model = { .describe = page_alloc_describe },
};
