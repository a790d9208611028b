// SPDX-License-Identifier: GPL-2.0
/*
 * `--bench kstat`: the running kernel's own statistics functions, timed
 * in the module (kmod/kstat.c; the ops are bench/kstat_ops.h's rows).
 *
 * This file checks the options before anything runs, fills the request's
 * kstat words, moves the process --memcg-depth levels down for the
 * lruvec op (so the module's page is charged to a memory cgroup), and
 * turns the module's counts into the sanity line: the item's exact value
 * before and after (the module's reading of the shared counter and every
 * CPU's diff), the folds counted, and /proc/vmstat's line for the item
 * before and after, each read after a vm.stat_refresh so that it is
 * exact too.  The run itself is kmod_client.c's, shared with the other
 * module benches.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "kmod/uapi/vmstat_bench.h"
#include "bench/kstat_ops.h"
#include "benches.h"
#include "cgroup.h"
#include "kmod_client.h"
#include "vmstat.h"

static const char *item_name(unsigned int f)
{
	return f & VSB_KF_ZONE ? VSB_KSTAT_ZONE_ITEM_NAME :
	       f & VSB_KF_NODE ? VSB_KSTAT_NODE_ITEM_NAME :
	       f & VSB_KF_EVENT ? VSB_KSTAT_EVENT_ITEM_NAME : NULL;
}

static int kstat_find(const char *name)
{
	int i;

	for (i = 0; i < VSB_KSTAT_NR; i++)
		if (!strcmp(vsb_kstat_ops[i].name, name))
			return i;
	return -1;
}

/* Its own check (the descriptor's): every kstat option, before anything runs. */
static int kstat_opts(const struct vsb_bench *b, struct vsb_run_opts *o)
{
	unsigned int f;

	(void)b;
	o->op_id = kstat_find(o->op);
	if (o->op_id < 0) {
		vsb_err_opt("op", "--op: unknown kstat op '%s' (see `vmstat-bench list`)", o->op);
		return VSB_EXIT_USAGE;
	}
	f = vsb_kstat_ops[o->op_id].flags;
	if (o->delta < 1) {
		vsb_err_opt("delta", "--delta: kstat runs +delta then -delta: want 1..%d, not %ld",
			    VSB_ABI_DELTA_MAX, o->delta);
		return VSB_EXIT_USAGE;
	}
	if ((f & VSB_KF_UNIT) && o->delta != 1) {
		vsb_err_opt("delta", "--delta: %s updates by one (inc/dec): want 1, not %ld",
			    o->op, o->delta);
		return VSB_EXIT_USAGE;
	}
	if (vsb_opt_given(o, "threshold") && !(f & (VSB_KF_ZONE | VSB_KF_NODE))) {
		vsb_err_opt("threshold", "--threshold: %s has no vmstat threshold (%s)", o->op,
			    f & VSB_KF_PCC ? "it folds at --batch" : "it never folds");
		return VSB_EXIT_USAGE;
	}
	if (vsb_opt_given(o, "threshold") &&
	    (o->threshold < 1 || o->threshold > VSB_ABI_KSTAT_THRESHOLD_MAX)) {
		vsb_err_opt("threshold", "--threshold: the kernel's s8 diffs take 1..%d, not %ld "
			    "(leave it out for the kernel's own)", VSB_ABI_KSTAT_THRESHOLD_MAX,
			    o->threshold);
		return VSB_EXIT_USAGE;
	}
	if (o->busy_workers >= o->cpus.n) {
		vsb_err_opt("busy-workers", "--busy-workers: %ld leaves no worker timed (%d CPUs)",
			    o->busy_workers, o->cpus.n);
		return VSB_EXIT_USAGE;
	}
	if (o->quiet_workers) {
		vsb_err_opt("quiet-workers", "--quiet-workers: counter only; kstat has "
			    "--busy-workers");
		return VSB_EXIT_USAGE;
	}
	if (strcmp(o->fold, "none") || o->drift) {
		vsb_err_opt(strcmp(o->fold, "none") ? "fold" : "drift",
			    "--fold and --drift: counter only; the kernel folds its own diffs");
		return VSB_EXIT_USAGE;
	}
	return 0;
}

static void kstat_fill(const struct vsb_run_opts *o, struct vsb_ioc_run *req)
{
	unsigned int f = vsb_kstat_ops[o->op_id].flags;

	req->kstat_op = (uint32_t)o->op_id;
	req->delta = (int32_t)o->delta;
	req->run_length = (uint32_t)o->run_length;
	req->busy_workers = (uint32_t)o->busy_workers;
	if (f & VSB_KF_PCC)
		req->batch = (uint32_t)o->batch;
	/* 0: the kernel's own; a sweep's threshold axis gives it explicitly */
	if (vsb_opt_given(o, "threshold"))
		req->threshold = (uint32_t)o->threshold;
}

/* The op against what the loaded module has (its VERSION answer). */
static int kstat_have(const struct vsb_run_opts *o, const struct vsb_ioc_version *v)
{
	const struct vsb_kstat_op_info *op = &vsb_kstat_ops[o->op_id];

	if (!(v->caps & VSB_CAP_KSTAT)) {
		vsb_err_opt("bench", "--bench kstat: the loaded module has no kstat bench: "
			    "rebuild and reload kmod/vmstat_bench.ko");
		return VSB_EXIT_SKIP;
	}
	if (!(v->kstat_ops & (1ULL << o->op_id))) {
		vsb_err_opt("op", "--op %s: not in this module on this kernel: %s", op->name,
			    op->why_not[0] ? op->why_not : "unknown reason");
		return VSB_EXIT_SKIP;
	}
	return 0;
}

/* vm.stat_refresh folds every CPU's diffs: /proc/vmstat is then exact. */
static int refreshed_value(const char *item, unsigned long long *v)
{
	int fd = open("/proc/sys/vm/stat_refresh", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (write(fd, "1", 1) != 1) {
		close(fd);
		return -1;
	}
	close(fd);
	return vsb_vmstat_value(item, v);
}

/* What the module says of its threshold and page, as metadata. */
static void module_meta(struct vsb_result *r, const struct vsb_ioc_run *q)
{
	const struct vsb_kstat_op_info *op = &vsb_kstat_ops[q->kstat_op];

	if (op->flags & (VSB_KF_ZONE | VSB_KF_NODE))
		vsb_result_meta(r, "stat_threshold", "%u (%s), %u in the run%s",
				q->kstat_threshold, op->flags & VSB_KF_ZONE ?
				"the zone's per-CPU stat_threshold" :
				"the node's per-CPU stat_threshold", q->kstat_threshold_run,
				q->threshold ? " (set for the run, put back after)" :
				" (the kernel's own)");
	if (op->flags & VSB_KF_MEMCG)
		vsb_result_meta(r, "kstat_page", "%s", q->result_flags & VSB_RES_MEMCG ?
				"charged to the memory cgroup (__GFP_ACCOUNT): the memcg path" :
				"charged to no memory cgroup (the root): the node-only path");
	vsb_result_meta(r, "kstat_folds", "%llu, moving %llu (module: each worker "
			"reads its diff once per run)", (unsigned long long)q->kstat_folds,
			(unsigned long long)q->kstat_moved);
}

/* The module's counts as the sanity line, and its metadata. */
static void kstat_result(struct vsb_result *r, const struct vsb_ioc_run *q)
{
	const struct vsb_kstat_op_info *op = &vsb_kstat_ops[q->kstat_op];
	const char *item = item_name(op->flags);
	int ok = !!(q->result_flags & VSB_RES_SANITY_OK);

	module_meta(r, q);
	r->sanity_ok = ok;
	r->applied = q->applied;
	r->counted = q->counted;
	if (op->flags & VSB_KF_NOCALL) {
		snprintf(r->sanity, sizeof(r->sanity), "ok: %s updates nothing (module, %u "
			 "workers)", op->name, q->ncpus);
		return;
	}
	if (op->flags & VSB_KF_PCC) {
		snprintf(r->sanity, sizeof(r->sanity), "%s: the run's percpu_counter sums to "
			 "%lld, its workers added %lld (module; %llu folds at batch %u)",
			 ok ? "ok" : "FAILED", (long long)q->counted, (long long)q->applied,
			 (unsigned long long)q->kstat_folds, q->batch);
		return;
	}
	snprintf(r->sanity, sizeof(r->sanity), "%s: %s (kernel item %u) exact value "
		 "(shared + every CPU's diff) %lld before, %lld after (%+lld); the runs "
		 "left %+lld at the common stop, put back; %llu folds moved %llu (module, "
		 "%u workers)", ok ? "ok" : "FAILED", item, q->sanity_item,
		 (long long)q->kstat_before, (long long)(q->kstat_before + q->counted),
		 (long long)q->counted, (long long)q->applied,
		 (unsigned long long)q->kstat_folds, (unsigned long long)q->kstat_moved,
		 q->ncpus);
}

/* /proc/vmstat's line for the item, beside the module's own reading. */
static void vmstat_line(struct vsb_result *r, const char *item, int have_before,
			unsigned long long before)
{
	unsigned long long after;

	if (!have_before || refreshed_value(item, &after)) {
		vsb_result_meta(r, "kstat_vmstat", "%s: not compared (vm.stat_refresh "
				"not writable or no such line)", item);
		return;
	}
	vsb_result_meta(r, "kstat_vmstat", "%s %llu before, %llu after (each read after "
			"vm.stat_refresh)%s", item, before, after,
			before == after ? "" : ": CHANGED");
	if (before != after && r->sanity_ok) {
		r->sanity_ok = 0;
		snprintf(r->sanity, sizeof(r->sanity), "FAILED: /proc/vmstat %s %llu before, "
			 "%llu after the run, though the module read it back", item, before,
			 after);
	}
}

static void kstat_meta(struct vsb_result *r, const struct vsb_run_opts *o,
		       const struct vsb_memcg *m)
{
	const struct vsb_kstat_op_info *op = &vsb_kstat_ops[o->op_id];
	const char *item = item_name(op->flags);

	vsb_result_meta(r, "kstat_op", "%s: %s", op->name, op->fn);
	if (item)
		vsb_result_meta(r, "kstat_item", "%s (%s)", item,
				op->flags & VSB_KF_ZONE ? "zone" :
				op->flags & VSB_KF_NODE ? "node" : "vm event");
	vsb_result_meta(r, "kstat_runs", "%ld x %+ld then %ld x %+ld", o->run_length,
			o->delta, o->run_length, -o->delta);
	if (op->flags & VSB_KF_MEMCG)
		vsb_result_meta(r, "kstat_memcg", "%s (depth %d, cgroup %s)", m->rel,
				m->depth, m->v2 ? "v2" : "v1");
}

static const struct vsb_kmod_hooks kstat_hooks = {
	.fill = kstat_fill,
	.have = kstat_have,
	.result = kstat_result,
};

/* Its module side. */
static int kstat_run(const struct vsb_run_opts *o, struct vsb_result *r)
{
	const struct vsb_kstat_op_info *op = &vsb_kstat_ops[o->op_id];
	const char *item = item_name(op->flags);
	struct vsb_memcg m;
	unsigned long long before = 0;
	int have_before, ret;

	memset(&m, 0, sizeof(m));
	if (op->flags & VSB_KF_MEMCG) {
		ret = vsb_memcg_enter(&m, (int)o->memcg_depth);
		if (ret)
			return ret;
	}
	have_before = item && !refreshed_value(item, &before);
	ret = vsb_kmod_run(o, r, VSB_BENCH_KSTAT, &kstat_hooks);
	if (op->flags & VSB_KF_MEMCG)
		vsb_memcg_leave(&m);
	if (ret)
		return ret;
	kstat_meta(r, o, &m);
	if (item)
		vmstat_line(r, item, have_before, before);
	return 0;
}

/* its point in the text header's words (bench_model.h) */
static void kstat_describe(const struct vsb_run_opts *o, FILE *f)
{
	fprintf(f, "op %s, runs of %ld x %+ld then %+ld", o->op, o->run_length,
		o->delta, -o->delta);
	if (vsb_opt_given(o, "threshold"))
		fprintf(f, ", threshold %ld", o->threshold);
	if (o->busy_workers)
		fprintf(f, ", %ld busy worker%s", o->busy_workers,
			o->busy_workers > 1 ? "s" : "");
	if (!strcmp(o->op, "lruvec"))
		fprintf(f, ", memcg depth %ld", o->memcg_depth);
}

const struct vsb_bench vsb_bench_kstat = {
	.name = "kstat", .sides = VSB_SIDE_KMOD,
	.desc = "module: the running kernel's own statistics functions, --op (mod_zone_page_state, ...)",
	.run_kmod = kstat_run, .check = kstat_opts,
	.takes = "op threshold delta batch run-length busy-workers memcg-depth preempt irqs",
	.model = { .describe = kstat_describe, .label = "bench op" },
};
