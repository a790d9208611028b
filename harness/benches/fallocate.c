// SPDX-License-Identifier: GPL-2.0
/*
 * `--bench fallocate`: will-it-scale's fallocate1 with the pages charged
 * to a memory cgroup --memcg-depth levels down.
 *
 * Each worker has its own tmpfs file (created and unlinked at once in a
 * tmpfs this run mounts, scratch.h) and per op fallocates the next
 * --size/128 bytes of it; when the file reaches --size it is truncated
 * to 0 (fallocate1: FILESIZE 1 MB, BUFLEN FILESIZE/128).  Every page
 * is charged to the worker's memory cgroup (mem_cgroup_charge() via
 * shmem_add_to_page_cache()) and updates its memcg statistics, and the
 * truncate uncharges them.
 *
 * Since 6.8 ("mm: memcg: make stats flushing threshold per-memcg")
 * memcg_rstat_updated() walks every ancestor of the cgroup on each
 * update (6.12's mm/memcontrol.c: the loop over statc->parent); 6.1's
 * counts one per-CPU stats_updates.  The page counters are walked to the
 * root on both (page_counter_try_charge()).  So the cost grows with the
 * depth on both kernels, and faster on 6.12: depth is the axis.
 *
 * Sanity: /proc/vmstat's pgalloc_* grew by at least the pages the
 * workers fallocated, and the leaf cgroup's peak usage reached one
 * file: the pages were charged to it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "benches.h"
#include "cgroup.h"
#include "live.h"
#include "scratch.h"

#define FALLOC_SIZE	"1M"	/* default --size: fallocate1's FILESIZE */
#define FALLOC_LOOPS	10000	/* default ops per sample */
#define FALLOC_CHUNKS	128	/* fallocate1's BUFLEN is FILESIZE / 128 */

struct falloc_priv {
	char dir[256];			/* the run's tmpfs */
	size_t size, chunk, page;
	struct vsb_memcg m;
	uint64_t *ops;			/* MAP_SHARED: per worker, timed, then all */
	unsigned int n;
};

struct falloc_state {
	int fd;
	off_t place;
};

static int falloc_opts(const struct vsb_bench *b, struct vsb_run_opts *o)
{
	unsigned long long size, page = (unsigned long long)sysconf(_SC_PAGESIZE);

	(void)b;
	if (!vsb_opt_given(o, "size"))
		strcpy(o->size, FALLOC_SIZE);
	if (!vsb_opt_given(o, "loops"))
		o->loops = FALLOC_LOOPS;
	vsb_parse_size(o->size, &size);
	if (size % (FALLOC_CHUNKS * page)) {
		vsb_err_opt("size", "--size: %s is not a multiple of %llu (128 chunks of "
			    "whole pages)", o->size, FALLOC_CHUNKS * page);
		return VSB_EXIT_USAGE;
	}
	/*
	 * Each worker's file grows to --size before it is truncated, all
	 * charged at once: page-fault's bound (half of MemAvailable), so a
	 * --size 1024G is refused here, not charged until the OOM killer.
	 */
	if (vsb_live_size_check(o, size, "charge"))
		return VSB_EXIT_USAGE;
	if (getuid()) {
		vsb_err_opt("bench", "--bench fallocate: mounting its tmpfs and making "
			    "memory cgroups need root: skipped");
		return VSB_EXIT_SKIP;
	}
	return 0;
}

static int falloc_init(struct vsb_live_wctx *w)
{
	const struct falloc_priv *fp = w->priv;
	struct falloc_state *st = calloc(1, sizeof(*st));
	char path[300];

	snprintf(path, sizeof(path), "%s/w%u", fp->dir, w->index);
	if (!st)
		goto fail;
	st->fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (st->fd < 0)
		goto fail;
	unlink(path);	/* the pages go with the last close, killed or not */
	w->state = st;
	return 0;
fail:
	vsb_live_fail(w, "open of its tmpfs file");
	free(st);
	return -1;
}

static uint64_t falloc_op(struct vsb_live_wctx *w, uint64_t loops)
{
	const struct falloc_priv *fp = w->priv;
	struct falloc_state *st = w->state;
	uint64_t i;

	for (i = 0; i < loops; i++) {
		if (i % 256 == 0 && vsb_live_stopped(w))
			break;
		if (fallocate(st->fd, 0, st->place, (off_t)fp->chunk)) {
			vsb_live_fail(w, "fallocate");
			break;
		}
		st->place += (off_t)fp->chunk;
		if (st->place >= (off_t)fp->size) {
			if (ftruncate(st->fd, 0)) {
				vsb_live_fail(w, "ftruncate");
				break;
			}
			st->place = 0;
		}
	}
	if (w->rep >= 0)
		fp->ops[w->index] += i;
	fp->ops[fp->n + w->index] += i;
	return i;
}

static void falloc_fini(struct vsb_live_wctx *w)
{
	struct falloc_state *st = w->state;

	if (st)
		close(st->fd);
	free(st);
}

static void falloc_meta(void *priv, const struct vsb_run_opts *o, struct vsb_result *r,
			int threads)
{
	const struct falloc_priv *fp = priv;
	char hs[32], hc[32];

	vsb_result_meta(r, "live", "fallocate of the next %s of a %s tmpfs file per op, "
			"truncated to 0 when full (will-it-scale fallocate1), %ld ops per "
			"sample, %s", vsb_live_human(fp->chunk, hc, sizeof(hc)),
			vsb_live_human(fp->size, hs, sizeof(hs)), o->loops,
			threads ? "threads (one shared mm)" : "processes (one mm each)");
	vsb_result_meta(r, "live_op", "one fallocate of %zu pages (and 1/%d of a "
			"truncate)", fp->chunk / fp->page, FALLOC_CHUNKS);
	vsb_result_meta(r, "fallocate_memcg", "%s (depth %d, cgroup %s)", fp->m.rel,
			fp->m.depth, fp->m.v2 ? "v2" : "v1");
}

/* the leaf's peak usage in bytes, -1 where it has none (v2's root) */
static long long leaf_peak(const struct vsb_memcg *m)
{
	char path[PATH_MAX + 32];
	long v;

	vsb_memcg_file(m, m->leaf, "peak", path, sizeof(path));
	return vsb_read_file_long(path, &v) ? -1 : v;
}

static void falloc_check(void *priv, struct vsb_result *r, const struct vsb_vmstat_snap *a,
			 const struct vsb_vmstat_snap *b, double secs)
{
	const struct falloc_priv *fp = priv;
	unsigned long long ops = 0, pages, allocs = b->pgalloc - a->pgalloc, least;
	long long peak = leaf_peak(&fp->m);
	unsigned int i;

	/* a file that never filled up (few ops in all) charged its chunks so far */
	least = fp->size;
	for (i = 0; i < fp->n; i++) {
		ops += fp->ops[i];
		if (fp->ops[fp->n + i] < FALLOC_CHUNKS)
			least = fp->ops[fp->n + i] * fp->chunk < least ?
				fp->ops[fp->n + i] * fp->chunk : least;
	}
	pages = ops * (fp->chunk / fp->page);
	r->applied = (long long)pages;
	r->counted = (long long)allocs;
	r->sanity_ok = allocs >= pages && (peak < 0 || peak >= (long long)least);
	snprintf(r->sanity, sizeof(r->sanity), "%s: %llu fallocates of %zu pages; "
		 "/proc/vmstat pgalloc_* +%llu in %.3f s (whole system: at least as "
		 "many); the cgroup's peak usage %lld bytes %s %llu", r->sanity_ok ? "ok" :
		 "FAILED", ops, fp->chunk / fp->page, allocs, secs, peak,
		 peak < 0 ? "(none kept at the root), a file" :
		 peak >= (long long)least ? ">= the fullest file: charged to it," :
		 "< the fullest file: not charged to it,", least);
}

static const struct vsb_live_ops falloc_ops = {
	.name = "fallocate",
	.init = falloc_init,
	.op = falloc_op,
	.fini = falloc_fini,
	.meta = falloc_meta,
	.check = falloc_check,
};

static int falloc_run(const struct vsb_run_opts *o, struct vsb_result *r)
{
	struct falloc_priv fp = { .n = (unsigned int)o->cpus.n };
	unsigned long long size;
	int ret;

	vsb_parse_size(o->size, &size);
	fp.size = (size_t)size;
	fp.page = (size_t)sysconf(_SC_PAGESIZE);
	fp.chunk = fp.size / FALLOC_CHUNKS;
	fp.ops = mmap(NULL, 2 * fp.n * sizeof(*fp.ops), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (fp.ops == MAP_FAILED) {
		vsb_err("fallocate: cannot map its counts: %s", strerror(errno));
		return VSB_EXIT_ERROR;
	}
	memset(fp.ops, 0, 2 * fp.n * sizeof(*fp.ops));
	/* room for every worker's file, twice over */
	ret = vsb_scratch_tmpfs(fp.dir, sizeof(fp.dir), 2ull * fp.n * fp.size + (1 << 20),
				"bench");
	if (!ret)
		ret = vsb_memcg_enter(&fp.m, (int)o->memcg_depth);
	if (!ret) {
		ret = vsb_live_run(o, r, &falloc_ops, &fp);
		vsb_memcg_leave(&fp.m);
	}
	vsb_scratch_tmpfs_put();
	munmap(fp.ops, 2 * fp.n * sizeof(*fp.ops));
	return ret;
}

/* its point in the text header's words (bench_model.h) */
static void falloc_describe(const struct vsb_run_opts *o, FILE *f)
{
	fprintf(f, "file %s, memcg depth %ld, tasks %s", o->size, o->memcg_depth,
		o->tasks);
}

const struct vsb_bench vsb_bench_fallocate = {
	.name = "fallocate", .sides = VSB_SIDE_LIVE,
	.desc = "live kernel: tmpfs fallocate + ftruncate charged --memcg-depth down (will-it-scale fallocate1)",
	.run_user = falloc_run, .check = falloc_opts,
	.takes = "size memcg-depth",
	.model = { .describe = falloc_describe },
};
