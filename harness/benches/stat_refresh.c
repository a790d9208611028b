// SPDX-License-Identifier: GPL-2.0
/*
 * `--bench stat-refresh`: the kernel's whole fold of the per-CPU vmstat
 * diffs, timed.  A write to /proc/sys/vm/stat_refresh runs
 * refresh_vm_stats() on every online CPU (schedule_on_each_cpu) and
 * waits for all of them: what vmstat_shepherd's periodic work does one
 * CPU at a time, here for every CPU at once, on the kernel's own code.
 * Its cost grows with the online CPUs (a guest's vCPUs are an axis) and
 * with the diffs there are to fold.
 *
 * Before each sample every CPU of --cpus dirties its own diffs: a thread
 * pinned there faults in --dirty-pages anonymous pages and keeps them
 * mapped, so each fault's NR_ANON_MAPPED (and LRU) update sits in that
 * CPU's diff until a fold.  The first CPU's thread then times --loops
 * refreshes (the first folds what was dirtied; any more fold only what
 * the machine dirtied meanwhile), and the pages are unmapped untimed.
 * The other threads sleep in a pthread barrier meanwhile: a spinning one
 * would hold its CPU against the refresh's kworker.
 *
 * Sanity: /proc/vmstat's nr_anon_pages, read after a refresh just before
 * the pages are faulted and again after the timed one, must have grown by
 * at least half the pages faulted: the fold reached every dirtied CPU.
 * (Other tasks fault and free too; only a fold that missed CPUs falls
 * that far short.)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "batch.h"
#include "benches.h"
#include "env.h"
#include "vmstat.h"

#define REFRESH_PATH	"/proc/sys/vm/stat_refresh"
#define REFRESH_LOOPS	1	/* default refreshes per sample */

struct refresh_shared {
	const struct vsb_run_opts *o;
	pthread_barrier_t bar;
	unsigned int n;			/* threads, one per CPU of --cpus */
	size_t bytes;			/* what each faults in */
	int fd;				/* /proc/sys/vm/stat_refresh */
	struct vsb_sample *samples;	/* repeat of them, the first CPU's */
	enum vsb_unit unit;
	const struct vsb_pmu_set *pmu;
	unsigned long long faulted, grew; /* pages, over every sample */
	int go;				/* 1: every thread started; -1: not */
	int err;			/* the first failure's errno */
	char what[64];
	int migrated, affinity_bad;
};

struct refresh_thread {
	struct refresh_shared *sh;
	unsigned int index;
	int cpu;
	pthread_t t;
};

static int stat_refresh_opts(const struct vsb_bench *b, struct vsb_run_opts *o)
{
	(void)b;
	if (!vsb_opt_given(o, "loops"))
		o->loops = REFRESH_LOOPS;
	if (access(REFRESH_PATH, W_OK)) {
		vsb_err_opt("bench", "--bench stat-refresh: cannot write %s: %s (root "
			    "writes it)", REFRESH_PATH, strerror(errno));
		return VSB_EXIT_SKIP;
	}
	return 0;
}

static void fail(struct refresh_shared *sh, const char *what, int err)
{
	if (__atomic_exchange_n(&sh->err, err ? err : EIO, __ATOMIC_ACQ_REL))
		return;		/* the first one is said */
	snprintf(sh->what, sizeof(sh->what), "%s", what);
}

static int refresh(struct refresh_shared *sh)
{
	if (pwrite(sh->fd, "1", 1, 0) != 1) {
		fail(sh, "a write to " REFRESH_PATH, errno);
		return -1;
	}
	return 0;
}

static long long anon_pages(void)
{
	unsigned long long v;

	return vsb_vmstat_value("nr_anon_pages", &v) ? -1 : (long long)v;
}

/* Fault in the pages: each write leaves this CPU's NR_ANON_MAPPED diff dirty. */
static void *dirty(struct refresh_shared *sh)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), i;
	char *p;

	if (!sh->bytes)
		return NULL;
	p = mmap(NULL, sh->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		fail(sh, "mmap", errno);
		return NULL;
	}
	madvise(p, sh->bytes, MADV_NOHUGEPAGE);	/* one fault, one page */
	for (i = 0; i < sh->bytes; i += page)
		p[i] = 1;
	return p;
}

/*
 * The first CPU's round: a refresh to start from folded diffs, the count,
 * its own pages dirtied between the barriers as the others dirty theirs,
 * then the timed refreshes; *@p: its pages, to unmap after.
 */
static void timed_round(struct refresh_shared *sh, struct vsb_sample *s,
			const struct vsb_batch *b, unsigned int rep, int cpu, char **p)
{
	struct vsb_batch_mark m;
	long long a, z;
	unsigned long long i;

	memset(s, 0, sizeof(*s));
	refresh(sh);
	a = anon_pages();
	pthread_barrier_wait(&sh->bar);	/* everyone dirties... */
	*p = dirty(sh);
	pthread_barrier_wait(&sh->bar);	/* ...and has */
	vsb_batch_begin(b, &m);
	for (i = 0; i < (unsigned long long)sh->o->loops && !refresh(sh); i++)
		;
	vsb_batch_end(b, &m, s);
	z = anon_pages();
	s->ops = i;
	sh->migrated |= vsb_sample_place(s, 0, cpu, rep);
	if (a >= 0 && z >= 0) {
		sh->faulted += sh->n * (sh->bytes / (size_t)sysconf(_SC_PAGESIZE));
		sh->grew += z > a ? (unsigned long long)(z - a) : 0;
	}
}

static void pin(struct refresh_thread *t)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(t->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fail(t->sh, "sched_setaffinity", errno);
		return;
	}
	if (sched_getcpu() != t->cpu)
		sched_yield();
}

/* Every thread: three barriers a round, the first CPU's timing between. */
static void *thread_main(void *arg)
{
	struct refresh_thread *t = arg;
	struct refresh_shared *sh = t->sh;
	struct vsb_pmu_group g = { .n = 0 };
	int pmu_error = 0;
	const struct vsb_batch b = { .pmu = &g, .pmu_error = &pmu_error, .unit = sh->unit,
		.cycles = sh->pmu->cycles };
	unsigned int r, warm = (unsigned int)sh->o->warmup;
	unsigned int nr = warm + (unsigned int)sh->o->repeat;

	/* nobody enters a barrier before every thread exists */
	while (!__atomic_load_n(&sh->go, __ATOMIC_ACQUIRE))
		usleep(100);
	if (sh->go < 0)
		return NULL;
	pin(t);
	if (!t->index && sh->pmu->nactive && vsb_pmu_group_open(sh->pmu, &g))
		fail(sh, "perf_event_open", errno);
	for (r = 0; r < nr; r++) {
		struct vsb_sample scratch;
		char *p = NULL;

		if (t->index) {
			pthread_barrier_wait(&sh->bar);
			p = dirty(sh);
			pthread_barrier_wait(&sh->bar);
		} else {
			timed_round(sh, r < warm ? &scratch : &sh->samples[r - warm], &b,
				    r < warm ? 0 : r - warm, t->cpu, &p);
		}
		pthread_barrier_wait(&sh->bar);	/* the timed refreshes are done */
		if (p)
			munmap(p, sh->bytes);
	}
	vsb_pmu_group_close(&g);
	return NULL;
}

static void refresh_sanity(struct vsb_result *r, const struct refresh_shared *sh)
{
	r->applied = (long long)sh->faulted;
	r->counted = (long long)sh->grew;
	r->sanity_ok = !sh->faulted || sh->grew >= sh->faulted / 2;
	snprintf(r->sanity, sizeof(r->sanity), "%s: /proc/vmstat nr_anon_pages grew by "
		 "%llu over the timed refreshes of %llu pages faulted on %u CPU%s (each "
		 "read after a refresh; at least half must show)",
		 r->sanity_ok ? "ok" : "FAILED: the refreshes did not fold every dirtied "
		 "CPU", sh->grew, sh->faulted, sh->n, sh->n > 1 ? "s" : "");
	if (!sh->faulted)
		snprintf(r->sanity, sizeof(r->sanity), "ok: %llu refreshes, nothing dirtied "
			 "(--dirty-pages 0)", (unsigned long long)sh->o->loops);
}

static void refresh_meta(struct vsb_result *r, const struct refresh_shared *sh)
{
	int online = vsb_env_count_list("/sys/devices/system/cpu/online");

	vsb_result_meta(r, "stat_refresh", "%llu write%s of 1 to %s a sample, from CPU %d; "
			"refresh_vm_stats() runs on each of the %d online CPUs",
			(unsigned long long)sh->o->loops, sh->o->loops > 1 ? "s" : "",
			REFRESH_PATH, sh->o->cpus.cpu[0], online);
	vsb_result_meta(r, "stat_refresh_dirty", "%ld pages faulted in and kept by each "
			"of the %u CPUs of --cpus before each sample, unmapped after",
			sh->o->dirty_pages, sh->n);
}

static int start(struct refresh_shared *sh, struct refresh_thread *t)
{
	unsigned int i;
	int e;

	for (i = 0; i < sh->n; i++) {
		t[i].sh = sh;
		t[i].index = i;
		t[i].cpu = sh->o->cpus.cpu[i];
		e = pthread_create(&t[i].t, NULL, thread_main, &t[i]);
		if (e) {
			vsb_err("cannot start thread %u: %s", i, strerror(e));
			return (int)i;
		}
	}
	return (int)i;
}

static int stat_refresh_run(const struct vsb_run_opts *o, struct vsb_result *r)
{
	struct refresh_shared sh = { .o = o, .n = (unsigned int)o->cpus.n };
	struct refresh_thread *t = vsb_zalloc(sh.n * sizeof(*t));
	int started, i, ret = 0;

	sh.bytes = (size_t)o->dirty_pages * (size_t)sysconf(_SC_PAGESIZE);
	sh.samples = vsb_zalloc((size_t)o->repeat * sizeof(*sh.samples));
	sh.fd = open(REFRESH_PATH, O_WRONLY | O_CLOEXEC);
	if (sh.fd < 0) {
		vsb_err("cannot open %s: %s", REFRESH_PATH, strerror(errno));
		ret = VSB_EXIT_ERROR;
		goto out;
	}
	sh.pmu = vsb_pmu_setup_run(o->events, o->plm, r, &sh.unit);
	pthread_barrier_init(&sh.bar, NULL, sh.n);
	r->nthreads = 1;
	started = start(&sh, t);
	__atomic_store_n(&sh.go, started == (int)sh.n ? 1 : -1, __ATOMIC_RELEASE);
	for (i = 0; i < started; i++)
		pthread_join(t[i].t, NULL);
	pthread_barrier_destroy(&sh.bar);
	close(sh.fd);
	if (started < (int)sh.n)
		ret = VSB_EXIT_ERROR;	/* said by start(); the started ones ran */
	if (!ret && sh.err) {
		vsb_err("stat-refresh: %s failed: %s", sh.what, strerror(sh.err));
		ret = VSB_EXIT_ERROR;
	}
	if (!ret) {
		for (i = 0; i < (int)o->repeat; i++)
			vsb_result_add(r, &sh.samples[i]);
		r->migrated = sh.migrated;
		refresh_meta(r, &sh);
		refresh_sanity(r, &sh);
		vsb_result_note_workers(r, sh.affinity_bad, (int)o->allow_multiplex);
	}
out:
	free(sh.samples);
	free(t);
	return ret;
}

/* its point in the text header's words (bench_model.h) */
static void stat_refresh_describe(const struct vsb_run_opts *o, FILE *f)
{
	fprintf(f, "%ld dirty pages per CPU of --cpus", o->dirty_pages);
}

const struct vsb_bench vsb_bench_stat_refresh = {
	.name = "stat-refresh", .sides = VSB_SIDE_LIVE,
	.desc = "live kernel: vm.stat_refresh, every CPU's diffs folded, after --cpus dirtied theirs",
	.run_user = stat_refresh_run, .check = stat_refresh_opts,
	.takes = "dirty-pages",
	.model = { .describe = stat_refresh_describe },
};
