// SPDX-License-Identifier: GPL-2.0
/*
 * counter.c - the bench/ counter update algorithm on real per-CPU data.
 *
 * The K per-CPU diffs are one alloc_percpu() area, like a zone's
 * per_cpu_zonestats; each pinned worker reaches its own copy through the
 * this_cpu_*() ops of prim-kernel.h.  The K shared counters are one
 * contiguous atomic_long_t array, like zone->vm_stat, so folds from
 * every CPU land on the same cache lines.  percpu-counter uses K real
 * struct percpu_counter and percpu_counter_add_batch().
 *
 * The loop for (variant, width) is looked up once per run; a sample calls
 * it chunk by chunk with a stop check between chunks (see run.c).
 * Afterwards the totals are checked: shared + every per-CPU diff must
 * equal what the workers applied (modulo 2^bits for this-cpu-add, which
 * never folds), or the result says which item failed.
 */
#include <linux/percpu.h>
#include <linux/percpu_counter.h>
#include <linux/slab.h>

#include "vsb_kmod.h"

static int vsb_counter_validate(const struct vsb_ioc_run *req)
{
	unsigned int bits = req->diff_bits;

	if (req->variant >= VSB_V_NR ||
	    !(vsb_variants[req->variant].sides & VSB_SIDE_KMOD))
		return -EINVAL;
	if (vsb_width_index(bits) < 0)
		return -EINVAL;
	if (vsb_variants[req->variant].flags & VSB_VF_PCC)
		bits = 32;
	if (req->threshold > vsb_threshold_max(bits))
		return -EINVAL;
	if (!req->items || req->items > VSB_ABI_ITEMS_MAX)
		return -EINVAL;
	if (!req->delta || req->delta > VSB_ABI_DELTA_MAX ||
	    req->delta < -VSB_ABI_DELTA_MAX)
		return -EINVAL;
	if (!req->batch || req->batch > VSB_ABI_BATCH_MAX)
		return -EINVAL;
	/* page-bench fields must be unused */
	if (req->gfp || req->order || req->outstanding)
		return -EINVAL;
	return 0;
}

static unsigned int vsb_counter_bits(const struct vsb_ctl *c)
{
	return vsb_variants[c->req.variant].flags & VSB_VF_PCC ?
	       32 : c->req.diff_bits;
}

static int vsb_counter_setup(struct vsb_ctl *c)
{
	unsigned int bits = vsb_counter_bits(c), items = c->req.items, i;
	int ret;

	c->loop = vsb_counter_loop(c->req.variant, bits);
	if (!c->loop)
		return -EINVAL;
	vsb_counter_params_init(&c->params, c->req.threshold, c->req.delta,
				c->req.batch, items, bits);

	/* alloc_percpu memory is zeroed on every CPU */
	c->diffs = __alloc_percpu(items * (bits / 8), sizeof(u32));
	if (!c->diffs)
		return -ENOMEM;
	ret = -ENOMEM;
	c->shared = kcalloc(items, sizeof(*c->shared), GFP_KERNEL);
	if (!c->shared)
		goto err_free_diffs;
	c->pcc = kcalloc(items, sizeof(*c->pcc), GFP_KERNEL);
	if (!c->pcc)
		goto err_free_shared;
	if (vsb_variants[c->req.variant].flags & VSB_VF_PCC) {
		for (i = 0; i < items; i++) {
			ret = percpu_counter_init(&c->pcc[i], 0, GFP_KERNEL);
			if (ret)
				goto err_destroy_pcc;
			c->npcc++;
		}
	}
	for (i = 0; i < c->nworkers; i++) {
		c->w[i].cw.diffs = c->diffs;
		c->w[i].cw.shared = c->shared;
		c->w[i].cw.pcc = c->pcc;
	}
	return 0;

err_destroy_pcc:
	while (c->npcc)
		percpu_counter_destroy(&c->pcc[--c->npcc]);
	kfree(c->pcc);
	c->pcc = NULL;
err_free_shared:
	kfree(c->shared);
	c->shared = NULL;
err_free_diffs:
	free_percpu(c->diffs);
	c->diffs = NULL;
	return ret;
}

static void vsb_counter_teardown(struct vsb_ctl *c)
{
	while (c->npcc)
		percpu_counter_destroy(&c->pcc[--c->npcc]);
	kfree(c->pcc);
	kfree(c->shared);
	free_percpu(c->diffs);
	c->pcc = NULL;
	c->shared = NULL;
	c->diffs = NULL;
}

static int vsb_counter_sample(struct vsb_worker *w, u64 loops, u64 deadline,
			      u64 *opsp)
{
	struct vsb_ctl *c = w->ctl;
	u64 done = 0, n;
	int st = 0;

	while (done < loops) {
		n = min_t(u64, loops - done, VSB_COUNTER_CHUNK);
		c->loop(&w->cw, &c->params, n);
		done += n;
		if (done == loops)
			break;
		st = vsb_between_chunks(c, deadline);
		if (st)
			break;
	}
	*opsp = done;
	return st < 0 ? st : 0;
}

/* Diff @i of @cpu's copy, whatever its width. */
static long vsb_diff_at(struct vsb_ctl *c, unsigned int cpu, unsigned int i,
			unsigned int bits)
{
	void *base = per_cpu_ptr(c->diffs, cpu);

	switch (bits) {
	case 8:
		return ((s8 *)base)[i];
	case 16:
		return ((s16 *)base)[i];
	default:
		return ((s32 *)base)[i];
	}
}

/* Updates one worker applied to item @i: round-robin from item 0. */
static s64 vsb_item_updates(u64 ops, unsigned int k, unsigned int i)
{
	u32 rem = do_div(ops, k);	/* ops becomes the quotient */

	return (s64)ops + (i < rem);
}

static void vsb_counter_check(struct vsb_ctl *c)
{
	unsigned int flags = vsb_variants[c->req.variant].flags;
	unsigned int bits = vsb_counter_bits(c), i, t;
	s64 delta = c->req.delta, applied = 0, counted = 0;

	c->req.result_flags |= VSB_RES_SANITY_OK;
	for (i = 0; i < c->req.items; i++) {
		s64 want = 0, got = 0;

		for (t = 0; t < c->nworkers; t++) {
			s64 w = vsb_item_updates(c->w[t].total_ops,
						 c->req.items, i) * delta;
			long d = vsb_diff_at(c, c->w[t].cpu, i, bits);

			want += w;
			if (flags & VSB_VF_NOFOLD) {
				u64 mask = (1ULL << bits) - 1;

				if (((u64)d & mask) != ((u64)w & mask) &&
				    (c->req.result_flags & VSB_RES_SANITY_OK)) {
					c->req.result_flags &= ~VSB_RES_SANITY_OK;
					c->req.sanity_item = i;
				}
				got += d;
			} else if (!(flags & VSB_VF_PCC)) {
				got += d;
			}
		}
		if (flags & VSB_VF_PCC)
			got = percpu_counter_sum(&c->pcc[i]);
		else if (!(flags & VSB_VF_NOFOLD))
			got += atomic_long_read(&c->shared[i]);
		if (!(flags & VSB_VF_NOFOLD) && got != want &&
		    (c->req.result_flags & VSB_RES_SANITY_OK)) {
			c->req.result_flags &= ~VSB_RES_SANITY_OK;
			c->req.sanity_item = i;
		}
		applied += want;
		counted += got;
	}
	c->req.applied = applied;
	c->req.counted = counted;
}

const struct vsb_bench_ops vsb_counter_ops = {
	.validate = vsb_counter_validate,
	.setup = vsb_counter_setup,
	.sample = vsb_counter_sample,
	.check = vsb_counter_check,
	.teardown = vsb_counter_teardown,
};
