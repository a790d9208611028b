// SPDX-License-Identifier: GPL-2.0
/*
 * The counter bench on user-space threads.
 *
 * One thread per CPU of --cpus, pinned before it touches its data (so its
 * slot array is first-touched on its own node, like a per-CPU area).  All
 * threads pass a barrier before each timed sample and another after it, so
 * every CPU measures the same contended window; samples are timed with
 * rdtscp around a whole batch of --loops updates, never per update.  The
 * shared "zone" counters are one contiguous array, as zone->vm_stat is.
 *
 * After the run the totals are checked: shared + every per-CPU diff must
 * equal the delta applied, or the result is marked untrustworthy.
 *
 * PMU events (pmu.c) are one group per worker, opened by the worker after
 * it is pinned and read just outside each timed batch, so the hot loop
 * never touches shared state or makes a system call.  `elapsed` is core
 * cycles when the group has them, else the TSC, else nanoseconds.
 *
 * Exact mode (--exact, under qemu-x86_64 with the TCG plugin): each
 * batch is marked for the plugin instead (batch.h), which counts the
 * worker thread's instructions between the marks; `elapsed` is that
 * count, the mix rides in the PMU columns, and no PMU is opened.  Each
 * worker finds its vCPU from a first, empty window of its own, closed
 * in worker order (exact_user.h), then numbers its windows itself.
 *
 * Disturbances (disturb.h): each worker snapshots its switches, run
 * delay, CPU, steal and interrupts after the start barrier and after the
 * batch, outside the timed window, and judges its sample.  The next
 * barrier makes every worker's verdict visible; each worker then
 * settles the attempt itself from the same verdicts (so all reach the
 * same fate without another barrier): keep it, drop the repetition, or
 * time it again.  An attempt's sample lives in att[attempt & 1] until
 * settled: a peer may still read attempt k's while this worker times
 * k + 1, never k + 2 (a barrier lies between).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/counter.h"
#include "batch.h"
#include "benches.h"
#include "clock.h"
#include "drift.h"
#include "exact_result.h"
#include "exact_user.h"
#include "kmod_client.h"
#include "pmu.h"
#include "window.h"
#include "disturb_src.h"

struct worker {
	struct vsb_counter_worker cw;
	pthread_t thread;
	unsigned int index;
	int cpu;
	int error;		/* errno of a failed pin */
	int migrated;
	int affinity_bad;	/* the mask read back is not exactly {cpu} */
	int pmu_error;		/* errno of a failed group open or read */
	int exact_error;	/* VSB_EXIT_* of a window not found */
	unsigned int exact_vcpu;	/* exact mode: the plugin's vCPU for it */
	uint64_t exact_seq;		/* the next window's number on it */
	int quiet;		/* stops updating once timing starts (nohz_full) */
	unsigned long long ops_done;	/* updates applied, warm-up included */
	struct vsb_local_fold lf;
	struct vsb_pmu_group pmu;
	struct vsb_sample *samples;
	unsigned int nkept;		/* samples[0 .. nkept) settled as kept */
	struct vsb_sample att[2];	/* the attempts being settled, by parity */
	struct vsb_disturb_src dsrc;
	struct vsb_disturb_counts dc;	/* every worker's copy is the same */
	double warm_batch_ns;		/* one warm-up batch, 0 without warm-up */
	struct shared_state *sh;
} __attribute__((aligned(VSB_CACHELINE)));

struct shared_state {
	struct vsb_counter_params params;
	vsb_counter_loop_fn loop;
	unsigned long long loops;
	unsigned int repeat, warmup;
	size_t diff_bytes;
	struct vsb_barrier barrier;
	const struct vsb_pmu_set *pmu;
	enum vsb_unit unit;
	struct vsb_drift *drift;	/* fold policy and reader, or NULL */
	struct worker *ws;		/* every worker, for the verdicts */
	int nworkers;
	int dist_policy;		/* enum vsb_disturb_policy */
	int exact_fd;			/* exact mode's window file, or -1 */
	unsigned int exact_turn;	/* the worker whose first window is next */
	uint64_t exact_taken;		/* vCPUs found by workers, a bit each */
};

/*
 * The stop check inside a batch: a batch of --loops 10^9 contended
 * updates takes seconds, and a signal must end the run within one.  A
 * batch of at most VSB_USER_CHUNK updates (the default --loops and every
 * usual one) is one call of the loop, exactly as before; a longer one is
 * cut into calls of VSB_USER_CHUNK with a look at the flag between them:
 * one load and a call per 2^20 updates (milliseconds), which is below
 * what a sample can resolve.  The loop keeps its item index across calls
 * (wp->idx), so the updates are the same sequence either way.  Returns
 * the updates done: fewer than @n only when a signal came, and then the
 * sample is discarded (the next barrier stops the run).
 */
#define VSB_USER_CHUNK (1ull << 20)

static unsigned long long run_loop(struct worker *w, unsigned long long n)
{
	struct shared_state *sh = w->sh;
	unsigned long long done = 0, k;

	if (n <= VSB_USER_CHUNK) {
		sh->loop(&w->cw, &sh->params, n);
		return n;
	}
	while (done < n && !vsb_interrupted) {
		k = n - done < VSB_USER_CHUNK ? n - done : VSB_USER_CHUNK;
		sh->loop(&w->cw, &sh->params, k);
		done += k;
	}
	return done;
}

static void warm_up(struct worker *w)
{
	struct shared_state *sh = w->sh;
	uint64_t t0 = vsb_now_ns();
	unsigned int r;

	w->ops_done = 0;
	for (r = 0; r < sh->warmup && !vsb_interrupted; r++)
		w->ops_done += run_loop(w, sh->loops);
	if (sh->warmup)
		w->warm_batch_ns = (double)(vsb_now_ns() - t0) / sh->warmup;
	w->cw.folds = 0;
	if (w->quiet)	/* an isolated CPU: nothing may interrupt it now */
		vsb_local_fold_disarm(&w->lf);
	if (w->dc.on)	/* only the reads a batch this long can afford */
		vsb_disturb_fit(&w->dsrc, w->warm_batch_ns);
}

/*
 * Exact mode: the sample's figures are its window's counts, read right
 * after the batch (the plugin wrote them at the stop marker, before this
 * thread ran on).  A window not found ends the run for every worker.
 */
static void exact_count(struct worker *w, struct vsb_sample *s)
{
	struct vsb_exact_window win;
	int ret;

	if (w->exact_error)
		return;
	ret = vsb_exact_user_read(w->sh->exact_fd, w->exact_vcpu, w->exact_seq++, &win);
	if (ret) {
		w->exact_error = ret;
		vsb_barrier_break(&w->sh->barrier);
		return;
	}
	vsb_exact_sample(&win, s);
}

/*
 * Exact mode: which vCPU the plugin counts this thread on.  One worker
 * at a time, in worker order, closes an empty window and finds the one
 * vCPU with a first window that no earlier worker took; a worker that
 * cannot (it failed to pin) still passes the turn on.
 */
static void exact_find_vcpu(struct worker *w)
{
	struct shared_state *sh = w->sh;
	int ret;

	while (__atomic_load_n(&sh->exact_turn, __ATOMIC_ACQUIRE) != w->index)
		sched_yield();
	if (!w->error) {
		vsb_exact_mark_start();
		vsb_exact_mark_stop();
		ret = vsb_exact_user_find(sh->exact_fd, sh->exact_taken, &w->exact_vcpu);
		if (ret)
			w->exact_error = ret;
		else
			sh->exact_taken |= 1ull << w->exact_vcpu;
		w->exact_seq = 1;
	}
	__atomic_store_n(&sh->exact_turn, w->index + 1, __ATOMIC_RELEASE);
}

/* One timed batch into @s, the disturbance snapshots outside it. */
static void time_batch(struct worker *w, struct vsb_sample *s, unsigned int slot)
{
	struct shared_state *sh = w->sh;
	/* worker 0 marks the sample's window, for --monitor */
	const struct vsb_batch b = { .pmu = &w->pmu, .pmu_error = &w->pmu_error,
		.dsrc = w->dc.on ? &w->dsrc : NULL, .unit = sh->unit,
		.cycles = sh->pmu->cycles, .window = !w->index, .marker = 1,
		.exact = sh->exact_fd >= 0 };
	uint64_t folds0 = w->cw.folds;
	struct vsb_batch_mark m;
	unsigned long long done;

	memset(s, 0, sizeof(*s));
	vsb_batch_begin(&b, &m);
	done = run_loop(w, sh->loops);
	vsb_batch_end(&b, &m, s);
	if (b.exact)
		exact_count(w, s);
	w->ops_done += done;	/* all of them, for the totals check */
	w->migrated |= vsb_sample_place(s, w->index, w->cpu, slot);
	s->ops = sh->loops;
	s->folds = w->cw.folds - folds0;
}

/* Attempt @att is over on every worker: its fate, from all verdicts. */
static enum vsb_disturb_fate settle(struct worker *w, unsigned int att)
{
	struct shared_state *sh = w->sh;
	unsigned int n = 0, nd = 0;
	int i;

	if (!w->dc.on)
		return VSB_FATE_KEEP;
	for (i = 0; i < sh->nworkers; i++) {
		if (sh->ws[i].quiet)
			continue;
		n++;
		nd += (unsigned int)vsb_disturb_add(&w->dc, &sh->ws[i].att[att & 1]);
	}
	return vsb_disturb_settle(&w->dc, n, nd);
}

/*
 * The timed repetitions: each starts at a barrier, which also ends the
 * previous attempt, settled here.  Kept and dropped attempts complete a
 * repetition; a retried one is timed again.
 */
static void timed_loop(struct worker *w)
{
	struct shared_state *sh = w->sh;
	unsigned int done = 0, att = 0;

	for (;;) {
		if (vsb_barrier_wait(&sh->barrier, NULL))
			break;
		if (att) {
			enum vsb_disturb_fate f = settle(w, att - 1);

			if (f == VSB_FATE_KEEP && !w->quiet)
				w->samples[w->nkept++] = w->att[(att - 1) & 1];
			if (f != VSB_FATE_RETRY)
				done++;
		}
		if (done >= sh->repeat)
			break;
		if (!w->quiet)
			time_batch(w, &w->att[att & 1], w->nkept);
		att++;
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct shared_state *sh = w->sh;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	w->error = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (!w->error && sched_getcpu() != w->cpu)
		sched_yield();	/* let the scheduler move us before first touch */
	/* published for the shepherd and the reader, which may already run */
	__atomic_store_n(&w->cw.diffs, vsb_zalloc_page(sh->diff_bytes),
			 __ATOMIC_RELEASE);
	if (!w->error && vsb_local_fold_arm(sh->drift, &w->cw, &w->lf))
		w->error = EAGAIN;
	if (!w->error) {
		CPU_ZERO(&set);
		if (pthread_getaffinity_np(pthread_self(), sizeof(set), &set) ||
		    CPU_COUNT(&set) != 1 || !CPU_ISSET(w->cpu, &set))
			w->affinity_bad = 1;
	}
	/* after pinning, on this thread: pid 0 / cpu -1 follows the thread */
	if (!w->error && sh->pmu->nactive && vsb_pmu_group_open(sh->pmu, &w->pmu))
		w->pmu_error = errno ? errno : EIO;
	vsb_disturb_counts_init(&w->dc, sh->dist_policy, sh->repeat);
	if (w->dc.on && !w->error)
		vsb_disturb_open(&w->dsrc, w->cpu);
	if (sh->exact_fd >= 0)
		exact_find_vcpu(w);
	/* nobody may start: the run would be unpinned, or uncounted */
	if (w->error || w->pmu_error || w->exact_error)
		vsb_barrier_break(&sh->barrier);
	VSB_MARKER_THREADINIT();
	VSB_MARKER_REGISTER("vsb-batch");

	if (vsb_barrier_wait(&sh->barrier, NULL))
		goto out;
	warm_up(w);
	timed_loop(w);
out:
	if (w->dsrc.buf)
		vsb_disturb_close(&w->dsrc);
	vsb_local_fold_disarm(&w->lf);
	vsb_pmu_group_close(&w->pmu);
	return NULL;
}

/* Read diff @i of a worker's array as a long, whatever its width. */
static long diff_at(const void *diffs, unsigned int bits, unsigned int i)
{
	switch (bits) {
	case 8:
		return ((const s8 *)diffs)[i];
	case 16:
		return ((const s16 *)diffs)[i];
	default:
		return ((const s32 *)diffs)[i];
	}
}

/*
 * Updates applied to item @i by one worker that ran @ops updates starting
 * at item 0: the round-robin gives the first ops % K items one extra.
 */
static long long item_updates(unsigned long long ops, unsigned int k, unsigned int i)
{
	return (long long)(ops / k + (i < ops % k));
}

/*
 * The check that the suite never loses an update it counts.  Folding
 * variants: shared + sum of diffs == applied, per item.  this-cpu-add
 * never folds, so its diff wraps at the chosen width: each slot is checked
 * modulo 2^bits.  Warm-up updates count too: they were applied.  Runs
 * after every folder has stopped.
 */
static void check_totals(struct vsb_result *r, struct worker *ws, int n,
			 vsb_shared_t *shared, vsb_pcc_t *pcc)
{
	const struct vsb_counter_params *p = &ws[0].sh->params;
	unsigned int flags = vsb_variants[r->opts.variant_id].flags;
	unsigned int i;
	int t;

	r->applied = 0;
	for (t = 0; t < n; t++)
		r->applied += (long long)ws[t].ops_done * p->delta;
	r->counted = 0;
	for (i = 0; i < p->items; i++) {
		long long want = 0, got;

		for (t = 0; t < n; t++)
			want += item_updates(ws[t].ops_done, p->items, i) * p->delta;
		if (flags & VSB_VF_NOFOLD) {
			unsigned long long mask = (1ull << p->bits) - 1;

			for (t = 0; t < n; t++) {
				long long mine = item_updates(ws[t].ops_done, p->items, i) * p->delta;

				got = diff_at(ws[t].cw.diffs, p->bits, i);
				r->counted += got;
				if (((unsigned long long)got & mask) !=
				    ((unsigned long long)mine & mask)) {
					snprintf(r->sanity, sizeof(r->sanity),
						 "FAILED: worker %d item %u diff %lld != %lld mod 2^%u",
						 t, i, got, mine, p->bits);
					r->sanity_ok = 0;
					return;
				}
			}
			continue;
		}
		got = flags & VSB_VF_PCC ? vsb_pcc_global(&pcc[i]) :
					   vsb_shared_read(&shared[i]);
		for (t = 0; t < n; t++)
			got += diff_at(ws[t].cw.diffs, p->bits, i);
		r->counted += got;
		if (got != want) {
			snprintf(r->sanity, sizeof(r->sanity),
				 "FAILED: item %u: shared + per-CPU diffs = %lld, applied %lld (off by %+lld)",
				 i, got, want, got - want);
			r->sanity_ok = 0;
			return;
		}
	}
	r->sanity_ok = 1;
	snprintf(r->sanity, sizeof(r->sanity),
		 "ok: %s = %lld applied (%d workers, delta %+ld)",
		 flags & VSB_VF_NOFOLD ? "every per-CPU diff (mod 2^bits)" :
		 flags & VSB_VF_PCC ? "percpu_counter globals + per-CPU counts" :
		 "shared counters + per-CPU diffs",
		 r->applied, n, p->delta);
}

/* Unit and PMU columns (pmu.c), plus this bench's read cost and markers. */
static void set_unit(const struct vsb_run_opts *o, struct vsb_result *r,
		     struct shared_state *sh)
{
	static const struct vsb_pmu_set no_pmu = { .cycles = -1, .instr = -1 };

	if (sh->exact_fd >= 0) {	/* counted: no PMU, no clock */
		sh->pmu = &no_pmu;
		sh->unit = VSB_UNIT_TSC;
		vsb_exact_unit(r, 1);
		VSB_MARKER_INIT();
		return;
	}
	sh->pmu = vsb_pmu_setup_run(o->events, o->plm, r, &sh->unit);
	if (sh->pmu->nactive)
		vsb_result_meta(r, "pmu_read_ns", "%.0f ns per group read, two per batch",
				vsb_pmu_read_cost_ns(sh->pmu));
	VSB_MARKER_INIT();
}

/*
 * The kept samples in repetition order, and the disturbance accounting
 * (the same in every worker: the first busy one's).  Nothing kept (every
 * repetition dropped) is untrustworthy.
 */
static int collect(struct vsb_result *r, struct worker *ws, int n)
{
	const struct worker *w0 = &ws[0];
	unsigned int rep;
	int i;

	for (rep = 0; rep < w0->nkept; rep++)
		for (i = 0; i < n; i++)
			if (!ws[i].quiet)
				vsb_result_add(r, &ws[i].samples[rep]);
	r->dist = w0->dc;
	if (r->dist.on)
		vsb_disturb_describe(&w0->dsrc, w0->warm_batch_ns, r->dist.sources,
				     sizeof(r->dist.sources));
	vsb_disturb_report(r, 1);
	if (w0->nkept)
		return 0;
	vsb_err_opt("disturbed", "--disturbed drop: all %u repetitions were disturbed, "
		    "nothing left to report (--disturbed retry or keep)", w0->sh->repeat);
	return VSB_EXIT_UNTRUSTED;
}

/*
 * Exact mode: the plugin's window file, and no disturbance bookkeeping:
 * a window holds its own thread's instructions, whatever else ran on
 * the CPU, and under the emulator the /proc figures say nothing of the
 * batch.  sh->exact_fd stays -1 when timed.
 */
static int exact_begin(const struct vsb_run_opts *o, struct shared_state *sh)
{
	unsigned int main_vcpu;
	int ret;

	sh->exact_fd = -1;
	if (!o->exact)
		return 0;
	sh->dist_policy = VSB_DISTURB_OFF;
	/* the options' check made the main thread's window: not a worker's */
	ret = vsb_exact_user_probe(&main_vcpu);
	if (!ret)
		ret = vsb_exact_user_open(&sh->exact_fd);
	sh->exact_taken = ret ? 0 : 1ull << main_vcpu;
	return ret;
}

/* Exact mode: the vCPU each worker was counted on, for the record. */
static void exact_note(struct vsb_result *r, const struct worker *ws, int n)
{
	char list[VSB_EXACT_VCPUS * 4] = "";
	size_t at = 0;
	int i;

	for (i = 0; i < n && at < sizeof(list); i++)
		at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%u",
				       i ? " " : "", ws[i].exact_vcpu);
	vsb_result_meta(r, "exact_window", "user space: each batch's call of the "
			"loop between the markers, on the worker's own thread; the "
			"plugin's vCPUs of workers 0..%d: %s", n - 1, list);
}

static int counter_run_user(const struct vsb_run_opts *o, struct vsb_result *r)
{
	struct shared_state *sh;
	struct worker *ws;
	vsb_shared_t *shared;
	vsb_pcc_t *pcc;
	unsigned int bits;
	int i, n = o->cpus.n, started = 0, ret = 0;
	struct vsb_counter_worker **wviews;
	sigset_t all, old;

	sh = vsb_zalloc_aligned(sizeof(*sh));
	bits = vsb_variants[o->variant_id].flags & VSB_VF_PCC ? 32 : (unsigned int)o->diff_bits;
	vsb_counter_params_init(&sh->params, o->threshold, o->delta, o->batch,
				(unsigned int)o->items, bits);
	sh->loop = vsb_counter_loop((unsigned int)o->variant_id, bits);
	sh->loops = (unsigned long long)o->loops;
	sh->repeat = (unsigned int)o->repeat;
	sh->warmup = (unsigned int)o->warmup;
	sh->diff_bytes = (size_t)o->items * (bits / 8);
	sh->barrier.n = (unsigned int)n;
	sh->dist_policy = vsb_disturb_parse_policy(o->disturbed);
	if (sh->dist_policy < 0)
		sh->dist_policy = VSB_DISTURB_RETRY;
	ret = exact_begin(o, sh);
	if (ret) {
		free(sh);
		return ret;
	}

	shared = vsb_zalloc_page((size_t)o->items * sizeof(*shared));
	pcc = vsb_zalloc_page((size_t)o->items * sizeof(*pcc));
	ws = vsb_zalloc_aligned((size_t)n * sizeof(*ws));
	sh->ws = ws;
	sh->nworkers = n;

	r->nthreads = n - (int)o->quiet_workers;
	set_unit(o, r, sh);
	wviews = vsb_zalloc((size_t)n * sizeof(*wviews));
	for (i = 0; i < n; i++)
		wviews[i] = &ws[i].cw;
	sh->drift = vsb_drift_start(o, &sh->params, wviews, o->cpus.cpu, n, shared);

	/* workers leave signals to the main thread, which sets the flag */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (i = 0; i < n; i++) {
		struct worker *w = &ws[i];

		w->sh = sh;
		w->index = (unsigned int)i;
		w->cpu = o->cpus.cpu[i];
		w->cw.shared = shared;
		w->cw.pcc = pcc;
		w->quiet = i >= n - (int)o->quiet_workers;
		w->samples = vsb_zalloc(sh->repeat * sizeof(*w->samples));
		errno = pthread_create(&w->thread, NULL, worker_main, w);
		if (errno) {
			vsb_err("cannot start worker %d: %s", i, strerror(errno));
			ret = VSB_EXIT_ERROR;
			/* the barrier can never fill: release whoever waits */
			vsb_barrier_break(&sh->barrier);
			break;
		}
		started++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	for (i = 0; i < started; i++)
		pthread_join(ws[i].thread, NULL);
	vsb_drift_stop(sh->drift, r);	/* no folder runs past this point */
	VSB_MARKER_CLOSE();

	for (i = 0; i < started && !ret; i++) {
		if (ws[i].error) {
			vsb_err_opt("cpus", "--cpus: cannot pin worker %d to CPU %d: %s", i,
				ws[i].cpu, strerror(ws[i].error));
			ret = VSB_EXIT_ERROR;
		} else if (ws[i].exact_error) {
			ret = ws[i].exact_error;	/* said where it was found */
		} else if (ws[i].pmu_error) {
			vsb_err_opt("events", "--events: worker %d on CPU %d cannot %s its counter group: %s",
				i, ws[i].cpu, ws[i].pmu_error == EIO ? "read" : "open",
				strerror(ws[i].pmu_error));
			ret = VSB_EXIT_ERROR;
		}
	}
	if (!ret && vsb_interrupted) {
		vsb_err("interrupted: no result written");
		ret = VSB_EXIT_ERROR;
	}
	if (!ret) {
		int bad = 0;

		ret = collect(r, ws, n);
		for (i = 0; i < n; i++) {
			r->migrated |= ws[i].migrated;
			bad += ws[i].affinity_bad;
		}
		vsb_result_note_workers(r, bad, (int)o->allow_multiplex);
		check_totals(r, ws, n, shared, pcc);
		if (sh->exact_fd >= 0)
			exact_note(r, ws, n);
	}
	if (sh->exact_fd >= 0)
		close(sh->exact_fd);
	for (i = 0; i < n; i++) {
		free(ws[i].samples);
		free(ws[i].cw.diffs);
	}
	free(wviews);
	free(ws);
	free(pcc);
	free(shared);
	free(sh);
	return ret;
}

/* Its own check: --fold against --variant (drift.c) */
static int counter_opts(const struct vsb_bench *b, struct vsb_run_opts *o)
{
	(void)b;
	return vsb_fold_check(o);
}

/* The module side is the module client's default request (kmod_client.c) */
/* its point in the text header's words (bench_model.h) */
static void counter_describe(const struct vsb_run_opts *o, FILE *f)
{
	if (o->variant_id >= 0 && vsb_variants[o->variant_id].flags & VSB_VF_PCC)
		fprintf(f, "batch %ld, s32 counts", o->batch);
	else
		fprintf(f, "threshold %ld, s%ld diffs", o->threshold, o->diff_bits);
	fprintf(f, ", %ld item%s, delta %+ld", o->items, o->items > 1 ? "s" : "",
		o->delta);
	if (strcmp(o->fold, "none"))
		fprintf(f, ", fold %s every %ld us", o->fold, o->fold_interval_us);
	if (o->quiet_workers)
		fprintf(f, ", %ld quiet worker%s", o->quiet_workers,
			o->quiet_workers > 1 ? "s" : "");
}

const struct vsb_bench vsb_bench_counter = {
	.name = "counter", .sides = VSB_SIDE_USER | VSB_SIDE_KMOD, .flags = VSB_BENCH_VARIANTS,
	.desc = "per-CPU counter updates with threshold folds (vmstat diffs, percpu_counter)",
	.run_user = counter_run_user, .run_kmod = vsb_counter_run_kmod, .check = counter_opts,
	.takes = "variant threshold diff-bits items batch delta fold fold-interval-us drift "
		 "quiet-workers preempt irqs",
	.model = { .describe = counter_describe, .label = "variant",
		   .charts = VSB_CHARTS_COUNTER },
};
