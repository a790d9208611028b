// SPDX-License-Identifier: GPL-2.0
/*
 * The live benches' runner (live.h): the running kernel's own paths,
 * driven from user space, for machines where the module cannot be
 * loaded.  A bench brings its hooks (page-fault and mmap: live_pf.c;
 * spawn.c, fallocate.c, memcg_stat.c, isolated.c).
 *
 * Workers are processes (each its own mm) or threads (one shared mm:
 * the mm-wide RSS counters and mmap lock are then shared), pinned one
 * per CPU of --cpus.  Everything they share lives in one MAP_SHARED
 * mapping so both kinds use the same code.  The parent waits for every
 * worker to be pinned and warmed up, snapshots /proc/vmstat (and the
 * BPF counters with --trace), releases them, and snapshots again when
 * the last one is done: the deltas cover the timed samples, for the
 * bench's check.  The parent sleeps meanwhile, so on a small machine it
 * does not take a CPU from a worker.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/prim-user.h"
#include "batch.h"
#include "benches.h"
#include "clock.h"
#include "disturb.h"
#include "live.h"
#include "meminfo.h"
#include "pmu.h"
#include "window.h"
#include "bpf/trace.h"
#include "vmstat.h"
#include "disturb_src.h"

struct live_worker {
	unsigned int index;
	int cpu;
	int err;		/* errno of the failing call */
	char what[48];		/* which call */
	int migrated;
	int affinity_bad;
	int pmu_error;
	struct vsb_pmu_group pmu;
} __attribute__((aligned(VSB_CACHELINE)));

/* One MAP_SHARED mapping: this, then the workers, then the samples. */
struct live_shared {
	unsigned int n;
	const struct vsb_live_ops *ops;
	void *priv;
	unsigned long long loops;
	unsigned int repeat, warmup;
	enum vsb_unit unit;
	const struct vsb_pmu_set *pmu;	/* a copy in each forked worker */
	unsigned long long overcount;	/* test hook: claim more than done */
	unsigned int ready __attribute__((aligned(VSB_CACHELINE)));
	unsigned int go;
	unsigned int stop;	/* parent: interrupted; worker: failed */
	unsigned int done;
	struct vsb_barrier bar;
	struct live_worker *w;
	struct vsb_sample *samples;	/* [worker][rep] */
	/*
	 * --disturbed: each worker reads its disturbances around every
	 * sample (disturb.h) and worker 0 says how; a live bench keeps
	 * disturbed samples, marked (its processes cannot redo a repetition
	 * together), whatever the policy asked.
	 */
	int dist_on;
	char dist_sources[256];
};

/* ---- workers ---- */

static void fail(struct live_shared *sh, struct live_worker *w, const char *what)
{
	if (!w->err) {
		w->err = errno ? errno : EIO;
		snprintf(w->what, sizeof(w->what), "%s", what);
	}
	__atomic_store_n(&sh->stop, 1, __ATOMIC_RELEASE);
}

void vsb_live_fail(struct vsb_live_wctx *c, const char *what)
{
	fail(c->sh, c->w, what);
}

/*
 * Stop requests reach inside a sample: the parent turns a signal into
 * sh->stop, and a bench looks at it every few hundred operations (well
 * under a millisecond of work, and a load of a line nobody writes until
 * then, so the timed loop does not notice), never only between
 * samples: a sample of a large --loops or --size lasts minutes.  A
 * stopped sample is incomplete and the run writes nothing.
 */
int vsb_live_stopped(const struct vsb_live_wctx *c)
{
	const struct live_shared *sh = c->sh;

	return __atomic_load_n(&sh->stop, __ATOMIC_RELAXED);
}

const char *vsb_live_human(unsigned long long b, char *buf, size_t len)
{
	if (b >= (1ull << 30) && !(b % (1ull << 30)))
		snprintf(buf, len, "%llu GiB", b >> 30);
	else if (b >= (1ull << 20) && !(b % (1ull << 20)))
		snprintf(buf, len, "%llu MiB", b >> 20);
	else if (b >= 1024 && !(b % 1024))
		snprintf(buf, len, "%llu KiB", b >> 10);
	else
		snprintf(buf, len, "%llu bytes", b);
	return buf;
}

void vsb_live_thp_mode(char *buf, size_t len)
{
	char raw[128], *l, *r;

	buf[0] = '\0';
	if (vsb_read_file_str(THP_ENABLED, raw, sizeof(raw)))
		return;
	l = strchr(raw, '[');
	r = l ? strchr(l, ']') : NULL;
	if (l && r)
		snprintf(buf, len, "%.*s", (int)(r - l - 1), l + 1);
}

int vsb_live_size_check(const struct vsb_run_opts *o, unsigned long long size,
			const char *what)
{
	long long avail = vsb_meminfo_kb("MemAvailable");

	if (avail <= 0 || size / 1024 * (unsigned long long)o->cpus.n <=
			  (unsigned long long)avail / 2)
		return 0;
	vsb_err_opt("size", "--size: %d workers x %s would %s more than half of the "
		    "%lld MiB available", o->cpus.n, o->size, what, avail >> 10);
	return VSB_EXIT_USAGE;
}

/* Pinned, and its counter group open; a failure is the run's stop. */
static void worker_pin(struct live_shared *sh, struct live_worker *w)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	/* pid 0 is the calling thread, for a forked worker and a thread alike */
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fail(sh, w, "sched_setaffinity");
	} else {
		if (sched_getcpu() != w->cpu)
			sched_yield();
		CPU_ZERO(&set);
		if (sched_getaffinity(0, sizeof(set), &set) || CPU_COUNT(&set) != 1 ||
		    !CPU_ISSET(w->cpu, &set))
			w->affinity_bad = 1;
		if (sh->pmu->nactive && vsb_pmu_group_open(sh->pmu, &w->pmu)) {
			w->pmu_error = errno ? errno : EIO;
			fail(sh, w, "perf_event_open");
		}
	}
}

static void worker_main(struct live_shared *sh, struct live_worker *w)
{
	struct vsb_sample *samples = &sh->samples[(size_t)w->index * sh->repeat];
	struct vsb_disturb_src dsrc = { .fd_sched = -1, .fd_stat = -1, .fd_irq = -1 };
	struct vsb_live_wctx wc = { .index = w->index, .cpu = w->cpu, .rep = -1,
				    .priv = sh->priv, .sh = sh, .w = w };
	const struct vsb_live_ops *ops = sh->ops;
	double warm_ns = 0;	/* the last warm-up batch, for vsb_disturb_fit */
	unsigned int r;

	worker_pin(sh, w);
	if (!w->err && ops->init && ops->init(&wc))
		fail(sh, w, "init");	/* unless the hook said what */
	for (r = 0; r < sh->warmup && !__atomic_load_n(&sh->stop, __ATOMIC_ACQUIRE); r++) {
		uint64_t t = vsb_now_ns();

		ops->op(&wc, sh->loops);
		warm_ns = (double)(vsb_now_ns() - t);	/* this worker's own batch */
	}
	if (sh->dist_on) {
		vsb_disturb_open(&dsrc, w->cpu);
		vsb_disturb_fit(&dsrc, warm_ns);
		if (!w->index)
			vsb_disturb_describe(&dsrc, warm_ns, sh->dist_sources,
					     sizeof(sh->dist_sources));
	}
	__atomic_add_fetch(&sh->ready, 1, __ATOMIC_ACQ_REL);
	/* the parent snapshots the counters before it says go: sleep, not spin */
	while (!__atomic_load_n(&sh->go, __ATOMIC_ACQUIRE))
		usleep(100);

	for (r = 0; r < sh->repeat; r++) {
		const struct vsb_batch b = { .pmu = &w->pmu, .pmu_error = &w->pmu_error,
			.dsrc = sh->dist_on ? &dsrc : NULL, .unit = sh->unit,
			.cycles = sh->pmu->cycles };
		struct vsb_sample *s = &samples[r];
		struct vsb_batch_mark m;

		if (vsb_barrier_wait(&sh->bar, &sh->stop))
			break;
		wc.rep = r;
		vsb_batch_begin(&b, &m);
		s->ops = ops->op(&wc, sh->loops);
		vsb_batch_end(&b, &m, s);
		if (ops->sample)
			ops->sample(&wc, s);
		w->migrated |= vsb_sample_place(s, w->index, w->cpu, r);
		s->ops += sh->overcount;
	}
	/* the others may wait in the barrier for a sample this one skipped */
	if (r < sh->repeat) {
		__atomic_store_n(&sh->stop, 1, __ATOMIC_RELEASE);
		vsb_barrier_break(&sh->bar);
	}
	if (ops->fini)
		ops->fini(&wc);
	vsb_pmu_group_close(&w->pmu);
	if (sh->dist_on)
		vsb_disturb_close(&dsrc);
	__atomic_add_fetch(&sh->done, 1, __ATOMIC_ACQ_REL);
}

struct thread_arg {
	struct live_shared *sh;
	struct live_worker *w;
};

static void *thread_main(void *arg)
{
	struct thread_arg *a = arg;

	worker_main(a->sh, a->w);
	return NULL;
}

/* ---- the parent ---- */

/* Sleep until @counter reaches n; pass an interruption on as stop. */
static void wait_for(struct live_shared *sh, unsigned int *counter)
{
	while (__atomic_load_n(counter, __ATOMIC_ACQUIRE) < sh->n) {
		if (vsb_interrupted)
			__atomic_store_n(&sh->stop, 1, __ATOMIC_RELEASE);
		usleep(1000);
	}
}

/* The shared mapping: header, workers, then every worker's samples. */
static struct live_shared *live_map(const struct vsb_run_opts *o, unsigned int n,
				    size_t *bytes)
{
	struct live_shared *sh;
	size_t woff, soff;

	woff = (sizeof(*sh) + VSB_CACHELINE - 1) & ~(size_t)(VSB_CACHELINE - 1);
	soff = woff + n * sizeof(struct live_worker);
	*bytes = soff + (size_t)n * (size_t)o->repeat * sizeof(struct vsb_sample);
	sh = mmap(NULL, *bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		vsb_err("cannot map %zu bytes for the workers: %s", *bytes, strerror(errno));
		return NULL;
	}
	sh->w = (struct live_worker *)((char *)sh + woff);
	sh->samples = (struct vsb_sample *)((char *)sh + soff);
	sh->n = n;
	sh->bar.n = n;
	sh->loops = (unsigned long long)o->loops;
	sh->repeat = (unsigned int)o->repeat;
	sh->warmup = (unsigned int)o->warmup;
	sh->overcount = getenv("VSB_TEST_OVERCOUNT") ?
			strtoull(getenv("VSB_TEST_OVERCOUNT"), NULL, 10) : 0;
	sh->dist_on = strcmp(o->disturbed, "off") != 0;
	return sh;
}

struct live_tasks {
	int threads;
	pthread_t *th;
	struct thread_arg *ta;
	pid_t *pids;
	unsigned int started;
};

/* Start the workers (threads or processes); how many started. */
static unsigned int start_workers(struct live_shared *sh, const struct vsb_run_opts *o,
				  struct live_tasks *t)
{
	unsigned int n = sh->n, i;
	sigset_t all, old;

	/* workers leave signals to the parent, which tells them to stop */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (i = 0; i < n; i++) {
		struct live_worker *w = &sh->w[i];

		w->index = i;
		w->cpu = o->cpus.cpu[i];
		w->pmu.n = 0;
		if (t->threads) {
			t->ta[i].sh = sh;
			t->ta[i].w = w;
			errno = pthread_create(&t->th[i], NULL, thread_main, &t->ta[i]);
			if (errno)
				break;
		} else {
			pid_t parent = getpid();

			t->pids[i] = fork();
			if (t->pids[i] < 0)
				break;
			if (t->pids[i] == 0) {
				/* a killed parent must not leave workers faulting */
				prctl(PR_SET_PDEATHSIG, SIGKILL);
				if (getppid() != parent)
					_exit(1);
				signal(SIGINT, SIG_IGN);
				signal(SIGTERM, SIG_IGN);
				signal(SIGHUP, SIG_IGN);
				pthread_sigmask(SIG_SETMASK, &old, NULL);
				worker_main(sh, w);
				/* no atexit handlers here: they are the parent's */
				_exit(0);
			}
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return i;
}

/* Wait for every started worker; VSB_EXIT_ERROR if a process died. */
static int reap_workers(const struct live_shared *sh, const struct live_tasks *t)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < t->started; i++) {
		int st;

		if (t->threads) {
			pthread_join(t->th[i], NULL);
			continue;
		}
		while (waitpid(t->pids[i], &st, 0) < 0 && errno == EINTR)
			;
		if ((!WIFEXITED(st) || WEXITSTATUS(st)) && !ret) {
			vsb_err("worker %u on CPU %d died (%s %d)", i, sh->w[i].cpu,
				WIFSIGNALED(st) ? "signal" : "exit status",
				WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
			ret = VSB_EXIT_ERROR;
		}
	}
	return ret;
}

/* The first worker's failure, said once; VSB_EXIT_ERROR when there was one. */
static int worker_errors(const struct live_shared *sh, unsigned int started)
{
	unsigned int i;
	char why[512];

	for (i = 0; i < started; i++) {
		const struct live_worker *w = &sh->w[i];

		if (!w->err)
			continue;
		if (!strcmp(w->what, "sched_setaffinity")) {
			vsb_err_opt("cpus", "--cpus: cannot pin worker %u to CPU %d: %s", i, w->cpu,
				strerror(w->err));
		} else if (!strcmp(w->what, "perf_event_open")) {
			vsb_err_opt("events", "--events: worker %u on CPU %d cannot open its counter "
				"group: %s", i, w->cpu, strerror(w->pmu_error));
		} else {
			if (sh->ops->why)
				sh->ops->why(sh->priv, w->what, w->err, why, sizeof(why));
			else
				snprintf(why, sizeof(why), "%s failed: %s", w->what,
					 strerror(w->err));
			vsb_err("%s%sworker %u on CPU %d: %s", sh->ops->name ?: "",
				sh->ops->name ? ": " : "", i, w->cpu, why);
		}
		return VSB_EXIT_ERROR;
	}
	return 0;
}

static void collect(const struct vsb_run_opts *o, struct vsb_result *r,
		    const struct live_shared *sh)
{
	unsigned int rep, i, bad = 0;

	vsb_disturb_counts_init(&r->dist, sh->dist_on ? VSB_DISTURB_KEEP : VSB_DISTURB_OFF,
				sh->repeat);
	for (rep = 0; rep < sh->repeat; rep++) {
		unsigned int nd = 0;

		for (i = 0; i < sh->n; i++) {
			const struct vsb_sample *s = &sh->samples[(size_t)i * sh->repeat + rep];

			vsb_result_add(r, s);
			if (sh->dist_on)
				nd += (unsigned int)vsb_disturb_add(&r->dist, s);
		}
		if (sh->dist_on)
			vsb_disturb_settle(&r->dist, sh->n, nd);
	}
	if (sh->dist_on) {
		memcpy(r->dist.sources, sh->dist_sources, sizeof(r->dist.sources));
		if (strcmp(o->disturbed, "keep"))
			vsb_result_meta(r, "disturbed_live", "--disturbed %s: a live bench "
					"keeps disturbed samples, marked (its workers cannot "
					"redo a repetition together)", o->disturbed);
	}
	vsb_disturb_report(r, 1);
	for (i = 0; i < sh->n; i++) {
		r->migrated |= sh->w[i].migrated;
		bad += sh->w[i].affinity_bad;
	}
	vsb_result_note_workers(r, (int)bad, (int)o->allow_multiplex);
}

int vsb_live_run(const struct vsb_run_opts *o, struct vsb_result *r,
		 const struct vsb_live_ops *ops, void *priv)
{
	unsigned int n = ops->nworkers ? ops->nworkers : (unsigned int)o->cpus.n;
	struct live_tasks t = { .threads = !strcmp(o->tasks, "thread") };
	struct vsb_vmstat_snap va, vb;
	struct live_shared *sh;
	size_t bytes;
	uint64_t t0, t1;
	int ret = 0;

	sh = live_map(o, n, &bytes);
	if (!sh)
		return VSB_EXIT_ERROR;
	sh->ops = ops;
	sh->priv = priv;
	r->nthreads = (int)n;
	sh->pmu = vsb_pmu_setup_run(o->events, o->plm, r, &sh->unit);
	if (ops->meta)
		ops->meta(priv, o, r, t.threads);
	fflush(stdout);
	fflush(stderr);
	if (t.threads) {
		t.th = vsb_zalloc(n * sizeof(*t.th));
		t.ta = vsb_zalloc(n * sizeof(*t.ta));
	} else {
		t.pids = vsb_zalloc(n * sizeof(*t.pids));
	}
	t.started = start_workers(sh, o, &t);
	if (t.started < n) {
		vsb_err("cannot start worker %u: %s", t.started, strerror(errno));
		ret = VSB_EXIT_ERROR;
		/* the started ones wait for go; let them find stop */
		__atomic_store_n(&sh->stop, 1, __ATOMIC_RELEASE);
		__atomic_add_fetch(&sh->ready, n - t.started, __ATOMIC_ACQ_REL);
		__atomic_add_fetch(&sh->done, n - t.started, __ATOMIC_ACQ_REL);
		/* the barrier can never fill: release whoever waits in it */
		vsb_barrier_break(&sh->bar);
	}

	wait_for(sh, &sh->ready);
	vsb_vmstat_read(&va);
	if (ops->window)
		ops->window(priv, 0);
	vsb_trace_mark_begin();
	vsb_window_begin();
	t0 = vsb_now_ns();
	__atomic_store_n(&sh->go, 1, __ATOMIC_RELEASE);
	wait_for(sh, &sh->done);
	t1 = vsb_now_ns();
	vsb_window_end();
	vsb_trace_mark_end();
	if (ops->window)
		ops->window(priv, 1);
	vsb_vmstat_read(&vb);

	if (reap_workers(sh, &t))
		ret = VSB_EXIT_ERROR;
	if (!ret)
		ret = worker_errors(sh, t.started);
	if (!ret && vsb_interrupted) {
		vsb_err("interrupted: no result written");
		ret = VSB_EXIT_ERROR;
	}
	if (!ret) {
		collect(o, r, sh);
		ops->check(priv, r, &va, &vb, (double)(t1 - t0) / 1e9);
	}
	free(t.th);
	free(t.ta);
	free(t.pids);
	munmap(sh, bytes);
	return ret;
}
