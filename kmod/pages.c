// SPDX-License-Identifier: GPL-2.0
/*
 * pages.c - page_bench01/02/03: alloc_pages() + __free_pages() loops.
 *
 * page-alloc runs on one CPU (page_bench01); page-alloc-parallel runs the
 * same loop on every requested CPU at once under run.c's common window
 * (page_bench03).  With outstanding N a worker allocates N pages into an
 * array and then frees all N (page_bench02's pattern: past the per-CPU
 * list's high mark the zone lock comes into play); one operation is one
 * page (of the order) allocated and freed either way.
 *
 * What is deliberately measured: the whole allocator fast path including
 * its vmstat and NUMA statistics updates, which is the point.  What is
 * not: the array (allocated before the run, freed after it).
 *
 * Sanity: the kernel's own event counters must have seen at least the
 * pages this bench allocated and freed.  all_vm_events() sums every
 * CPU's pgalloc_<zone> and pgfree, before and after the run; other
 * activity only adds to the deltas, so ">=" is the check.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/vmstat.h>

#include "vsb_kmod.h"

/* pgalloc_<zone> events are laid out like the zones: see __count_zid_vm_events */
#define VSB_PGALLOC_FIRST	(PGALLOC_NORMAL - ZONE_NORMAL)
#define VSB_PGALLOC_END		(VSB_PGALLOC_FIRST + MAX_NR_ZONES)

static int vsb_pages_validate(const struct vsb_ioc_run *req)
{
	u64 held;

	if (req->order > VSB_ABI_ORDER_MAX)
		return -EINVAL;
	if (req->outstanding > VSB_ABI_OUTSTANDING_MAX)
		return -EINVAL;
	if (req->gfp >= VSB_GFP_NR)
		return -EINVAL;
	/* a sleeping allocation cannot run with preemption or irqs off */
	if ((req->flags & (VSB_RUN_IRQS_OFF | VSB_RUN_PREEMPT_OFF)) &&
	    req->gfp != VSB_GFP_ATOMIC)
		return -EINVAL;
	if (req->bench == VSB_BENCH_PAGE_ALLOC && req->ncpus != 1)
		return -EINVAL;
	/* hold at most a quarter of RAM at once, all workers together */
	held = ((u64)max(req->outstanding, 1U) << req->order) * req->ncpus;
	if (held > totalram_pages() / 4)
		return -EINVAL;
	/* counter fields must be unused */
	if (req->variant || req->threshold || req->diff_bits || req->items ||
	    req->delta || req->batch)
		return -EINVAL;
	return 0;
}

static void vsb_pages_teardown(struct vsb_ctl *c)
{
	unsigned int i;

	for (i = 0; i < c->nworkers; i++) {
		kvfree(c->w[i].held);
		c->w[i].held = NULL;
	}
	kfree(c->ev0);
	kfree(c->ev1);
	c->ev0 = c->ev1 = NULL;
}

static int vsb_pages_setup(struct vsb_ctl *c)
{
	unsigned int i;

	/*
	 * __GFP_NORETRY: an order <= 3 GFP_KERNEL allocation would otherwise
	 * retry and call the OOM killer, which cannot free what our workers
	 * hold (up to a quarter of RAM): the bench fails with -ENOMEM
	 * instead of killing someone.  The fast path, what is measured, is
	 * the same.
	 */
	c->gfp = (c->req.gfp == VSB_GFP_ATOMIC ? GFP_ATOMIC : GFP_KERNEL | __GFP_NORETRY) |
		 __GFP_NOWARN;
	if (c->req.order)
		c->gfp |= __GFP_COMP;	/* as drivers (and page_bench01) do */
	c->ev0 = kcalloc(NR_VM_EVENT_ITEMS, sizeof(*c->ev0), GFP_KERNEL);
	c->ev1 = kcalloc(NR_VM_EVENT_ITEMS, sizeof(*c->ev1), GFP_KERNEL);
	if (!c->ev0 || !c->ev1)
		goto err_free;
	if (c->req.outstanding) {
		for (i = 0; i < c->nworkers; i++) {
			c->w[i].held = kvcalloc(c->req.outstanding,
						sizeof(struct page *),
						GFP_KERNEL);
			if (!c->w[i].held)
				goto err_free;
		}
	}
	all_vm_events(c->ev0);
	return 0;

err_free:
	vsb_pages_teardown(c);
	return -ENOMEM;
}

/*
 * One timed batch.  An allocation failure ends the run with -ENOMEM,
 * after freeing what this round holds (page_bench01 returned without
 * stopping its clock; page_bench02 leaked its array); so do a signal and
 * the deadline, which are seen every VSB_PAGE_CHUNK pages.
 */
static int vsb_pages_sample(struct vsb_worker *w, u64 loops, u64 deadline,
			    u64 *opsp)
{
	struct vsb_ctl *c = w->ctl;
	unsigned int order = c->req.order, n = c->req.outstanding, i, k;
	gfp_t gfp = c->gfp;
	struct page *page;
	u64 done = 0;
	int st = 0;

	while (done < loops) {
		if (!n) {
			for (k = 0; k < VSB_PAGE_CHUNK && done < loops; k++) {
				page = alloc_pages(gfp, order);
				if (unlikely(!page)) {
					st = -ENOMEM;
					goto out;
				}
				__free_pages(page, order);
				done++;
			}
		} else {
			/*
			 * A round holds up to n pages; checking the stop and
			 * the deadline every chunk inside it keeps the promise
			 * of a bounded irq/preempt-off sample even when a round
			 * zeroes gigabytes (init_on_alloc).  A round cut short
			 * frees what it holds and counts what it did.
			 */
			for (i = 0; i < n; i++) {
				page = alloc_pages(gfp, order);
				if (unlikely(!page)) {
					st = -ENOMEM;
					break;
				}
				w->held[i] = page;
				if (unlikely(!((i + 1) % VSB_PAGE_CHUNK)) && i + 1 < n) {
					st = vsb_between_chunks(c, deadline);
					if (st) {
						i++;
						break;
					}
				}
			}
			for (k = 0; k < i; k++)
				__free_pages(w->held[k], order);
			if (st < 0)	/* -ENOMEM, a signal, the deadline */
				goto out;
			done += i;
			if (st)		/* the common stop, inside a round */
				break;
		}
		if (done >= loops)
			break;
		st = vsb_between_chunks(c, deadline);
		if (st)
			break;
	}
out:
	*opsp = done;
	w->pages += done << order;
	return st < 0 ? st : 0;
}

static void vsb_pages_check(struct vsb_ctl *c)
{
	unsigned long alloc = 0, freed;
	unsigned int i;
	u64 pages = 0;

	all_vm_events(c->ev1);
	for (i = VSB_PGALLOC_FIRST; i < VSB_PGALLOC_END; i++)
		alloc += c->ev1[i] - c->ev0[i];
	freed = c->ev1[PGFREE] - c->ev0[PGFREE];
	for (i = 0; i < c->nworkers; i++)
		pages += c->w[i].pages;
	c->req.pages = pages;
	c->req.vm_pgalloc = alloc;
	c->req.vm_pgfree = freed;
	if (alloc >= pages && freed >= pages)
		c->req.result_flags |= VSB_RES_SANITY_OK;
}

const struct vsb_bench_ops vsb_pages_ops = {
	.validate = vsb_pages_validate,
	.setup = vsb_pages_setup,
	.sample = vsb_pages_sample,
	.check = vsb_pages_check,
	.teardown = vsb_pages_teardown,
};
