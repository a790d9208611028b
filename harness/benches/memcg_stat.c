// SPDX-License-Identifier: GPL-2.0
/*
 * `--bench memcg-stat-read`: the latency of one read of memory.stat,
 * against the number of cgroups and the writers updating them.
 *
 * Reading memory.stat flushes the pending per-CPU rstat updates first.
 * On 6.1 the flush is global: mem_cgroup_flush_stats() flushes from the
 * root (cgroup_rstat_flush_irqsafe(root_mem_cgroup)) once the updates
 * anywhere pass MEMCG_CHARGE_BATCH x the online CPUs, so a reader of a
 * quiet cgroup pays for every busy one.  6.12 flushes the subtree of the
 * cgroup read, and only when that subtree has passed its own threshold
 * (memcg_vmstats_needs_flush(), mm/memcontrol.c).
 *
 * The run makes --memcg-count sibling cgroups c1..cN below its chain
 * (--memcg-depth >= 1) and one more, c0, for the reader (the timed
 * worker, on the first CPU of --cpus), which writes a file of
 * READER_PAGES pages into its own tmpfs first.  Each sibling gets a
 * writer process pinned round-robin to the last --busy-workers CPUs,
 * fallocating and truncating WRITER_PAGES pages of its own file in a
 * loop (charges and uncharges: memcg stat updates); with no busy
 * workers they write once and sleep.  --op sibling reads c0's
 * memory.stat, --op parent the chain's leaf (all of them).
 *
 * Sanity: every read returned a memory.stat with a shmem line, and c0's
 * (the leaf's) reads back the reader's file: shmem >= READER_PAGES pages
 * (the runner's own shared mapping is shmem in c0 too), once the periodic
 * flusher has run if the last timed read was stale.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "benches.h"
#include "cgroup.h"
#include "live.h"
#include "scratch.h"

#define READ_LOOPS	100	/* default reads per sample */
#define READER_PAGES	64
#define WRITER_PAGES	16
#define STAT_MAX	(64 << 10)

struct mst_shared {
	unsigned int stop;		/* writers: end */
	uint64_t reads, bad;		/* the reader's */
	long long shmem;		/* the last read's shmem line, bytes */
};

struct mst_priv {
	char dir[256];
	char stat[PATH_MAX + 32];	/* the file read */
	struct vsb_memcg m;
	int parent;
	long nwriters, busy;
	pid_t *pids;
	struct mst_shared *sh;		/* MAP_SHARED */
	const struct vsb_run_opts *o;
};

struct mst_state {
	int fd, file;
	char *buf;
};

static int mst_opts(const struct vsb_bench *b, struct vsb_run_opts *o)
{
	(void)b;
	if (!vsb_opt_given(o, "op"))
		strcpy(o->op, "sibling");
	if (strcmp(o->op, "sibling") && strcmp(o->op, "parent")) {
		vsb_err_opt("op", "--op: memcg-stat-read reads its own cgroup (sibling) or "
			    "the parent of all (parent), not '%s'", o->op);
		return VSB_EXIT_USAGE;
	}
	if (o->memcg_depth < 1) {
		vsb_err_opt("memcg-depth", "--memcg-depth: memcg-stat-read makes its "
			    "cgroups below a chain of its own: at least 1, not 0");
		return VSB_EXIT_USAGE;
	}
	if (o->busy_workers >= o->cpus.n) {
		vsb_err_opt("busy-workers", "--busy-workers: %ld leaves no CPU of the %d "
			    "for the reader", o->busy_workers, o->cpus.n);
		return VSB_EXIT_USAGE;
	}
	if (!vsb_opt_given(o, "loops"))
		o->loops = READ_LOOPS;
	if (getuid()) {
		vsb_err_opt("bench", "--bench memcg-stat-read: its cgroups and tmpfs need "
			    "root: skipped");
		return VSB_EXIT_SKIP;
	}
	return 0;
}

/*
 * memory.stat's shmem line, -1 when it has none: "shmem" (v2's is the
 * subtree's), or v1's hierarchical "total_shmem" when the parent is read
 */
static long long shmem_of(const struct mst_priv *mp, const char *buf)
{
	const char *key = mp->parent && !mp->m.v2 ? "total_shmem " : "shmem ";
	size_t n = strlen(key);
	const char *p = buf;

	for (; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, key, n))
			return atoll(p + n);
	return -1;
}

static int mst_init(struct vsb_live_wctx *w)
{
	const struct mst_priv *mp = w->priv;
	struct mst_state *st = calloc(1, sizeof(*st));
	char path[300];

	snprintf(path, sizeof(path), "%s/reader", mp->dir);
	if (!st || !(st->buf = malloc(STAT_MAX)))
		goto fail;
	st->file = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (st->file < 0 || fallocate(st->file, 0, 0, READER_PAGES * 4096L))
		goto fail;
	unlink(path);
	st->fd = open(mp->stat, O_RDONLY | O_CLOEXEC);
	if (st->fd < 0)
		goto fail;
	w->state = st;
	return 0;
fail:
	vsb_live_fail(w, "its file or memory.stat");
	if (st)
		free(st->buf);
	free(st);
	return -1;
}

/* One whole read of memory.stat: from offset 0, the kernel formats anew */
static ssize_t read_stat(struct mst_state *st)
{
	ssize_t n, got = 0;

	while ((n = pread(st->fd, st->buf + got, STAT_MAX - 1 - got, got)) > 0)
		got += n;
	if (n < 0)
		return -1;
	st->buf[got] = '\0';
	return got;
}

static uint64_t mst_op(struct vsb_live_wctx *w, uint64_t loops)
{
	const struct mst_priv *mp = w->priv;
	struct mst_state *st = w->state;
	uint64_t i;

	for (i = 0; i < loops; i++) {
		if (i % 64 == 0 && vsb_live_stopped(w))
			break;
		if (read_stat(st) <= 0) {
			vsb_live_fail(w, "a read of memory.stat");
			break;
		}
	}
	if (w->rep >= 0) {
		mp->sh->reads += i;
		mp->sh->shmem = shmem_of(mp, st->buf);
		mp->sh->bad += mp->sh->shmem < 0;
	}
	return i;
}

static void mst_fini(struct vsb_live_wctx *w)
{
	struct mst_state *st = w->state;

	if (!st)
		return;
	close(st->fd);
	close(st->file);	/* the tmpfs's unmount frees its pages */
	free(st->buf);
	free(st);
}

static void mst_meta(void *priv, const struct vsb_run_opts *o, struct vsb_result *r,
		     int threads)
{
	const struct mst_priv *mp = priv;

	(void)threads;
	vsb_result_meta(r, "live", "one read of %s memory.stat (from offset 0), %ld per "
			"sample, on CPU %d", mp->parent ? "the parent's" : "a quiet sibling's",
			o->loops, o->cpus.cpu[0]);
	vsb_result_meta(r, "live_op", "one read of memory.stat, whole");
	vsb_result_meta(r, "memcg_stat_cgroups", "%ld siblings c1..c%ld below %s (cgroup "
			"%s), each with a writer; the reader in c0", mp->nwriters,
			mp->nwriters, mp->m.rel, mp->m.v2 ? "v2" : "v1");
	vsb_result_meta(r, "memcg_stat_writers", "%s", mp->busy ? "each fallocates and "
			"truncates 16 pages of its tmpfs file in a loop, pinned round-robin "
			"to the last --busy-workers CPUs" : "none running: each wrote 16 pages "
			"once and sleeps");
}

/* c0's (the leaf's) shmem, read until a flush shows the reader's file */
static long long settled_shmem(const struct mst_priv *mp, long long want)
{
	struct mst_state st = { .buf = malloc(STAT_MAX) };
	long long v = -1;
	int i;

	st.fd = open(mp->stat, O_RDONLY | O_CLOEXEC);
	for (i = 0; st.fd >= 0 && st.buf && i < 40; i++) {
		if (read_stat(&st) > 0)
			v = shmem_of(mp, st.buf);
		if (v >= want)
			break;
		usleep(100000);	/* the periodic flusher runs every 2 s */
	}
	if (st.fd >= 0)
		close(st.fd);
	free(st.buf);
	return v;
}

static void mst_check(void *priv, struct vsb_result *r, const struct vsb_vmstat_snap *a,
		      const struct vsb_vmstat_snap *b, double secs)
{
	const struct mst_priv *mp = priv;
	long long want = READER_PAGES * 4096LL, last = mp->sh->shmem;
	long long settled = last >= want ? last : settled_shmem(mp, want);
	/* at least: the runner's MAP_SHARED mapping is shmem charged to c0 too */
	int ok_val = settled >= want;

	(void)a;
	(void)b;
	r->applied = (long long)mp->sh->reads;
	r->counted = settled;
	r->sanity_ok = !mp->sh->bad && ok_val;
	snprintf(r->sanity, sizeof(r->sanity), "%s: %llu reads in %.3f s, %llu without a "
		 "shmem line; %s shmem %lld bytes (the last timed read %lld), at least "
		 "the reader's file, %lld", r->sanity_ok ? "ok" : "FAILED",
		 (unsigned long long)mp->sh->reads, secs, (unsigned long long)mp->sh->bad,
		 mp->parent ? "the parent's" : "its cgroup's", settled, last, want);
}

static const struct vsb_live_ops mst_ops = {
	.name = "memcg-stat-read",
	.nworkers = 1,
	.init = mst_init,
	.op = mst_op,
	.fini = mst_fini,
	.meta = mst_meta,
	.check = mst_check,
};

/* A writer: into its cgroup, on its CPU, charging until told to stop. */
static void writer_main(const struct mst_priv *mp, long i)
{
	const struct vsb_cpulist *cl = &mp->o->cpus;
	char cg[PATH_MAX + 16], path[300];
	cpu_set_t set;
	int fd;

	vsb_memcg_child(&mp->m, (int)i + 1, cg, sizeof(cg));
	CPU_ZERO(&set);
	CPU_SET(mp->busy ? cl->cpu[cl->n - mp->busy + i % mp->busy] : cl->cpu[0], &set);
	snprintf(path, sizeof(path), "%s/w%ld", mp->dir, i);
	if (sched_setaffinity(0, sizeof(set), &set) || vsb_memcg_move(cg, (long)getpid()))
		_exit(2);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		_exit(3);
	unlink(path);
	do {
		if (fallocate(fd, 0, 0, WRITER_PAGES * 4096L))
			_exit(4);
		if (mp->busy && ftruncate(fd, 0))
			_exit(5);
	} while (mp->busy && !__atomic_load_n(&mp->sh->stop, __ATOMIC_RELAXED));
	while (!__atomic_load_n(&mp->sh->stop, __ATOMIC_RELAXED))
		usleep(10000);
	_exit(0);
}

static int start_writers(struct mst_priv *mp)
{
	pid_t parent = getpid();
	long i;

	for (i = 0; i < mp->nwriters; i++) {
		mp->pids[i] = fork();
		if (mp->pids[i] < 0) {
			vsb_err("memcg-stat-read: cannot start writer %ld: %s", i,
				strerror(errno));
			return VSB_EXIT_ERROR;
		}
		if (!mp->pids[i]) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != parent)
				_exit(1);
			signal(SIGINT, SIG_IGN);
			signal(SIGTERM, SIG_IGN);
			writer_main(mp, i);
		}
	}
	return 0;
}

/* Every writer gone (their cgroups must be empty to go): 1 if one failed */
static int stop_writers(struct mst_priv *mp)
{
	int bad = 0, st, i;
	long k;

	__atomic_store_n(&mp->sh->stop, 1, __ATOMIC_RELEASE);
	for (k = 0; k < mp->nwriters && mp->pids[k] > 0; k++) {
		for (i = 0; i < 200 && waitpid(mp->pids[k], &st, WNOHANG) == 0; i++)
			usleep(10000);
		if (i == 200) {
			kill(mp->pids[k], SIGKILL);
			waitpid(mp->pids[k], &st, 0);
		}
		if (!bad && (!WIFEXITED(st) || WEXITSTATUS(st))) {
			vsb_err("memcg-stat-read: writer %ld ended with status 0x%x", k, st);
			bad = 1;
		}
	}
	return bad;
}

static int mst_setup(struct mst_priv *mp, const struct vsb_run_opts *o)
{
	int ret = vsb_scratch_tmpfs(mp->dir, sizeof(mp->dir), (mp->nwriters * WRITER_PAGES +
				    READER_PAGES) * 4096ull + (1 << 20), "bench");

	ret = ret ?: vsb_memcg_enter(&mp->m, (int)o->memcg_depth);
	ret = ret ?: vsb_memcg_children(&mp->m, (int)mp->nwriters + 1);
	if (ret)
		return ret;
	if (mp->parent)
		vsb_memcg_file(&mp->m, mp->m.leaf, "stat", mp->stat, sizeof(mp->stat));
	else {
		char c0[PATH_MAX + 16];

		vsb_memcg_child(&mp->m, 0, c0, sizeof(c0));
		vsb_memcg_file(&mp->m, c0, "stat", mp->stat, sizeof(mp->stat));
	}
	return start_writers(mp);
}

static int mst_run(const struct vsb_run_opts *o, struct vsb_result *r)
{
	struct mst_priv mp = { .parent = !strcmp(o->op, "parent"), .o = o,
			       .nwriters = o->memcg_count, .busy = o->busy_workers };
	int ret;

	mp.sh = mmap(NULL, sizeof(*mp.sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		     -1, 0);
	mp.pids = vsb_zalloc((size_t)mp.nwriters * sizeof(*mp.pids));
	if (mp.sh == MAP_FAILED) {
		vsb_err("memcg-stat-read: cannot map its counts: %s", strerror(errno));
		free(mp.pids);
		return VSB_EXIT_ERROR;
	}
	memset(mp.sh, 0, sizeof(*mp.sh));
	ret = mst_setup(&mp, o);
	if (!ret)
		ret = vsb_live_run(o, r, &mst_ops, &mp);
	if (stop_writers(&mp) && !ret)
		ret = VSB_EXIT_ERROR;
	vsb_memcg_leave(&mp.m);
	vsb_scratch_tmpfs_put();
	munmap(mp.sh, sizeof(*mp.sh));
	free(mp.pids);
	return ret;
}

/* its point in the text header's words (bench_model.h) */
static void mst_describe(const struct vsb_run_opts *o, FILE *f)
{
	fprintf(f, "op %s, %ld cgroups, %ld writer CPU%s, memcg depth %ld", o->op,
		o->memcg_count, o->busy_workers, o->busy_workers == 1 ? "" : "s",
		o->memcg_depth);
}

const struct vsb_bench vsb_bench_memcg_stat_read = {
	.name = "memcg-stat-read", .sides = VSB_SIDE_LIVE,
	.desc = "live kernel: one memory.stat read among --memcg-count cgroups, --busy-workers writing",
	.run_user = mst_run, .check = mst_opts,
	.takes = "op memcg-depth memcg-count busy-workers",
	.model = { .describe = mst_describe },
};
