// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel-module backend: speaks kmod/uapi/vmstat_bench.h.
 *
 * Opens /dev/vmstat_bench, insists on the ABI version this harness was
 * built against (VSB_IOC_VERSION), sends one VSB_IOC_RUN per benchmark
 * point and turns the per-CPU samples the module writes into a user
 * buffer into the same struct vsb_result the user-space backend fills, so
 * every writer (text, CSV, JSON, summary) and `compare` apply unchanged.
 *
 * Variants travel as their row index in bench/variants.h (append-only,
 * so an index never changes meaning).  The unit of `elapsed` follows the
 * user backend's ladder: kernel-mode core cycles when the module could
 * open PMU counters, else get_cycles() (the TSC on x86), else ns.  A
 * missing PMU is recorded, never an error.
 *
 * The counter bench's accuracy side travels too: --fold, --fold-interval-us,
 * --quiet-workers and --drift become the request's fold words and flags
 * (VSB_UNSAFE_FOLD=1, which vsb_fold_check() already honoured, becomes
 * VSB_RUN_UNSAFE_FOLD), and the reader's figures the module computes fill
 * the same drift and staleness fields as harness/benches/drift.c does.
 *
 * Disturbances (disturb.h): a module with VSB_CAP_DISTURB fills each
 * sample's switches, run delay, steal and interrupts when the request's
 * sample_size asks for the whole sample.  The harness judges them, and
 * --disturbed retry times the disturbed repetitions again in a further
 * request of just those (each with its own warm-up), at most
 * VSB_DISTURB_RETRIES_PER_REP rounds per repetition.
 *
 * The ioctl sleeps interruptibly in the kernel: SIGINT makes the module
 * stop every worker within one chunk and return EINTR, which ends the run
 * with no result written.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kmod/uapi/vmstat_bench.h"
#include "benches.h"
#include "drift.h"
#include "kmod_client.h"
#include "kmod_exact.h"
#include "exact_result.h"
#include "window.h"
#include "kmod_abi.h"

int vsb_kmod_open(int *fd, struct vsb_ioc_version *v)
{
	int e = -vsb_kmod_handshake(fd, v);

	if (e == ENOENT) {
		vsb_err_opt("backend", "--backend kmod: no %s: load the module (insmod "
			"kmod/vmstat_bench.ko) or run in a VM (make vm-run)", VSB_KMOD_DEVICE);
		return VSB_EXIT_SKIP;
	}
	if (e == EACCES || e == EPERM) {
		vsb_err_opt("backend", "--backend kmod: cannot open %s: %s (the device is "
			"root-only)", VSB_KMOD_DEVICE, strerror(e));
		return VSB_EXIT_SKIP;
	}
	if (e) {
		vsb_err_opt("backend", "--backend kmod: %s does not open or answer the version "
			"query: %s", VSB_KMOD_DEVICE, strerror(e));
		return VSB_EXIT_ERROR;
	}
	if (v->version != VSB_ABI_VERSION) {
		vsb_err_opt("backend", "--backend kmod: the loaded module speaks ABI %u, this harness "
			"ABI %d: rebuild and reload kmod/vmstat_bench.ko", v->version,
			VSB_ABI_VERSION);
		close(*fd);
		*fd = -1;
		return VSB_EXIT_ERROR;
	}
	return 0;
}

/* One line saying why the module refused or ended the run. */
static int run_error(const struct vsb_run_opts *o, int e)
{
	switch (e) {
	case EBUSY:
		vsb_err_opt("backend", "--backend kmod: another run holds the module (one at a time)");
		return VSB_EXIT_ERROR;
	case EINTR:
		vsb_err("interrupted: the module stopped the run, no result written");
		return VSB_EXIT_ERROR;
	case ETIME:
		vsb_err_opt("time-limit", "--time-limit: the run was cut after %ld s (or one batch with "
			"--preempt off/--irqs off passed %d ms): lower --loops or --repeat",
			o->time_limit, VSB_ABI_ATOMIC_SAMPLE_MAX_MS);
		return VSB_EXIT_ERROR;
	case ENOMEM:
		vsb_err_opt("order", "--order %ld: a page allocation failed in the module (memory "
			"short or fragmented; try a lower --order or --outstanding)",
			o->order);
		return VSB_EXIT_ERROR;
	case EINVAL:
		vsb_err_opt("backend", "--backend kmod: the module refused the request (EINVAL): an "
			"offline CPU in --cpus, --outstanding x 2^order x CPUs over "
			"a quarter of RAM, or a --fold the variant does not survive?");
		return VSB_EXIT_USAGE;
	case EOPNOTSUPP:
		vsb_err_opt("op", "--op %s: the module does not have it on this kernel", o->op);
		return VSB_EXIT_SKIP;
	case EPERM:
		vsb_err_opt("threshold", "--threshold: the module was loaded without "
			"kstat_set_threshold=1, which lets a run set the kernel's per-CPU "
			"thresholds (meant for guests)");
		return VSB_EXIT_SKIP;
	}
	vsb_err_opt("backend", "--backend kmod: run failed: %s", strerror(e));
	return VSB_EXIT_ERROR;
}

/* the timed loop runs where it may not sleep: GFP_KERNEL is not allowed */
static int atomic_context(const struct vsb_run_opts *o)
{
	return !strcmp(o->preempt, "off") || !strcmp(o->irqs, "off");
}

/*
 * A page bench's --gfp, checked and made what the module will be asked
 * for: auto is atomic when preemption or interrupts are off, kernel
 * otherwise.  In the bench's check, so that a sweep point's options and
 * its result say the same (a partial file is written from the result and
 * read back from the point: "auto" against "kernel" failed every page
 * bench spread over worker processes), and GFP_KERNEL under --preempt
 * off is refused before any work.
 */
int vsb_kmod_page_opts(const struct vsb_bench *b, struct vsb_run_opts *o)
{
	int atomic = atomic_context(o);

	(void)b;
	if (!strcmp(o->gfp, "kernel") && atomic) {
		vsb_err_opt("gfp", "--gfp kernel: GFP_KERNEL may sleep, which --preempt off or "
			"--irqs off forbid; use --gfp atomic");
		return VSB_EXIT_USAGE;
	}
	if (!strcmp(o->gfp, "auto"))
		snprintf(o->gfp, sizeof(o->gfp), "%s", atomic ? "atomic" : "kernel");
	return 0;
}

/* gfp, preempt and irqs: what the module is asked for. */
static int kmod_flags(const struct vsb_run_opts *o, int pages,
		      struct vsb_ioc_run *req)
{
	int atomic = atomic_context(o);

	if (!strcmp(o->irqs, "off"))
		req->flags |= VSB_RUN_IRQS_OFF;
	else if (!strcmp(o->preempt, "off"))
		req->flags |= VSB_RUN_PREEMPT_OFF;
	if (!strcmp(o->events, "none"))
		req->flags |= VSB_RUN_NO_PMU;
	if (!pages)
		return 0;
	/* the check made it atomic or kernel; auto kept for a direct caller */
	req->gfp = !strcmp(o->gfp, "atomic") || (!strcmp(o->gfp, "auto") && atomic) ?
		   VSB_GFP_ATOMIC : VSB_GFP_KERNEL;
	return 0;
}

/* The result's unit, event and PMU columns from what the module did. */
static void set_unit(const struct vsb_run_opts *o, struct vsb_result *r,
		     const struct vsb_ioc_run *req)
{
	int pmu = req->result_flags & VSB_RES_PMU;

	if (pmu) {
		snprintf(r->unit, sizeof(r->unit), "cycles");
		snprintf(r->event, sizeof(r->event),
			 "PERF_COUNT_HW_CPU_CYCLES:k (perf_event_create_kernel_counter)");
		snprintf(r->plm, sizeof(r->plm), "k");
		r->npmu = 2;
		snprintf(r->pmu_event[0], sizeof(r->pmu_event[0]), "PERF_COUNT_HW_CPU_CYCLES:k");
		snprintf(r->pmu_event[1], sizeof(r->pmu_event[1]), "PERF_COUNT_HW_INSTRUCTIONS:k");
		r->pmu_cycles = 0;
		r->pmu_instr = 1;
		vsb_result_meta(r, "pmu_events", "module: cycles=ok; instructions=ok "
				"(kernel mode, per CPU)%s",
				strcmp(o->events, "cycles,instructions") ?
				"; --events other than cycles,instructions are not "
				"counted by the module" : "");
		return;
	}
#if defined(__x86_64__) || defined(__i386__)
	snprintf(r->unit, sizeof(r->unit), "tsc");
	snprintf(r->event, sizeof(r->event), "get_cycles() (rdtsc) in the module");
#else
	snprintf(r->unit, sizeof(r->unit), "ns");
	snprintf(r->event, sizeof(r->event), "ktime_get_ns() (in the module)");
#endif
	r->plm[0] = '\0';
	vsb_result_meta(r, "pmu_events", "PMU unavailable in the module: %s (%s)",
			req->flags & VSB_RUN_NO_PMU ? "--events none" :
			"perf_event_create_kernel_counter failed",
			strerror(-req->pmu_error));
}

/* One module sample as the harness's, judged when @dist; @w: exact mode's. */
static void conv_sample(const struct vsb_result *r, const struct vsb_ioc_sample *k,
			const struct vsb_exact_window *w, int dist,
			struct vsb_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->thread = k->thread;
	s->cpu = (int)k->cpu;
	s->rep = k->rep;
	s->ops = k->ops;
	s->ns = (double)k->ns;
	s->folds = k->folds;
	s->pmu_scale = 1.0;
	if (r->npmu) {
		s->pmu_scale = k->pmu_enabled ?
			       (double)k->pmu_running / (double)k->pmu_enabled : 1.0;
		s->multiplexed = !!(k->flags & VSB_SAMPLE_MULTIPLEXED);
		/* scaled like the user backend: value * enabled / running */
		s->pmu[0] = s->multiplexed && k->pmu_running ?
			    (uint64_t)((double)k->pmu_cycles / s->pmu_scale) :
			    k->pmu_cycles;
		s->pmu[1] = s->multiplexed && k->pmu_running ?
			    (uint64_t)((double)k->pmu_instr / s->pmu_scale) :
			    k->pmu_instr;
	}
	s->elapsed = !strcmp(r->unit, "cycles") ? s->pmu[0] :
		     !strcmp(r->unit, "tsc") ? k->cycles : k->ns;
	if (w)
		vsb_exact_sample(w, s);
	if (!dist)
		return;
	s->dist_valid = VSB_DIST_SWITCH | VSB_DIST_MIGRATED | VSB_DIST_STEAL |
			VSB_DIST_IRQS;
	if (k->flags & VSB_SAMPLE_RUN_DELAY)
		s->dist_valid |= VSB_DIST_RUNDELAY;
	s->nivcsw = k->nivcsw;
	s->migrations = !!(k->flags & VSB_SAMPLE_MIGRATED);
	s->run_delay_ns = k->run_delay_ns;
	s->steal_ns = k->steal_ns;
	s->irqs = k->irqs;
	s->disturbed = vsb_disturb_judge(s, &vsb_disturb_default_bounds);
}

/* Retries owed, and how often each repetition was tried. */
struct pending {
	unsigned int n;		/* repetitions the next request times */
	unsigned int *tries;
	unsigned int nkept;	/* repetitions in the result so far */
};

/*
 * One request's samples (worker-major: worker i, repetition k at
 * i * repeat + k), settled repetition by repetition: kept ones enter
 * the result, numbered in the order kept, dropped ones do not, retried
 * ones stay owed in @p.
 */
static void settle_samples(struct vsb_result *r, const struct vsb_ioc_run *req,
			   const struct vsb_ioc_sample *ks,
			   const struct vsb_exact_window *xw, struct pending *p)
{
	unsigned int nw = req->ncpus - req->quiet_workers - req->busy_workers;
	unsigned int n = p->n, m = 0, k, i;
	struct vsb_sample *s = vsb_zalloc(nw * sizeof(*s));

	for (k = 0; k < n; k++) {
		enum vsb_disturb_fate f;
		unsigned int nd = 0;

		for (i = 0; i < nw; i++) {
			size_t at = (size_t)i * req->repeat + k;
			const struct vsb_ioc_sample *q = &ks[at];

			conv_sample(r, q, xw ? &xw[at] : NULL, !!req->sample_size, &s[i]);
			if (q->flags & VSB_SAMPLE_MIGRATED)
				r->migrated = 1;
			if (r->dist.on)
				nd += (unsigned int)vsb_disturb_add(&r->dist, &s[i]);
		}
		r->dist.retries_rep = p->tries[k];
		f = vsb_disturb_settle(&r->dist, nw, nd);
		if (f == VSB_FATE_RETRY)
			p->tries[m++] = r->dist.retries_rep;
		if (f != VSB_FATE_KEEP)
			continue;
		for (i = 0; i < nw; i++) {
			s[i].rep = p->nkept;
			vsb_result_add(r, &s[i]);
			if (xw)	/* where the profile finds its windows */
				vsb_exact_note_window(r, &xw[(size_t)i * req->repeat + k]);
		}
		p->nkept++;
	}
	p->n = m;
	free(s);
}

/* One request's counts: updates applied and counted, or pages and pgalloc. */
static void round_counts(const struct vsb_ioc_run *req, long long *applied,
			 long long *counted)
{
	if (req->bench == VSB_BENCH_COUNTER || req->bench == VSB_BENCH_KSTAT) {
		*applied = req->applied;
		*counted = req->counted;
	} else {
		*applied = (long long)req->pages;
		*counted = (long long)req->vm_pgalloc;
	}
}

static void set_sanity(struct vsb_result *r, const struct vsb_ioc_run *req,
		       const struct vsb_kmod_hooks *h)
{
	int ok = !!(req->result_flags & VSB_RES_SANITY_OK);

	if (h && h->result) {
		h->result(r, req);
		return;
	}
	r->sanity_ok = ok;
	round_counts(req, &r->applied, &r->counted);
	if (req->bench == VSB_BENCH_COUNTER) {
		/*
		 * "ok" is about the counts (counted == applied), not about
		 * the work announced: the module's common stop ends every
		 * worker's sample when the first finishes --loops, so fewer
		 * updates than workers x (warm-up + repeat) x loops is the
		 * rule; say how many were done, so nobody reads the header's
		 * figure as what ran.
		 */
		if (ok)
			snprintf(r->sanity, sizeof(r->sanity),
				 "ok: %s = %lld applied (module, %u workers, delta %+d): "
				 "%lld of the %llu updates announced were done (common "
				 "stop: the first worker to finish ends each sample)",
				 vsb_variants[req->variant].flags & VSB_VF_NOFOLD ?
				 "every per-CPU diff (mod 2^bits)" :
				 vsb_variants[req->variant].flags & VSB_VF_PCC ?
				 "percpu_counter_sum()" :
				 "shared counters + per-CPU diffs",
				 (long long)req->applied, req->ncpus, req->delta,
				 req->delta ? (long long)req->applied / req->delta : 0,
				 (unsigned long long)req->loops *
				 (req->warmup + req->repeat) *
				 (req->ncpus - req->quiet_workers));
		else
			snprintf(r->sanity, sizeof(r->sanity),
				 "FAILED: item %u: counted %lld, applied %lld (module)",
				 req->sanity_item, (long long)req->counted,
				 (long long)req->applied);
		return;
	}
	snprintf(r->sanity, sizeof(r->sanity),
		 "%s: vmstat pgalloc_* delta %llu, pgfree delta %llu %s %llu pages "
		 "allocated and freed by the bench", ok ? "ok" : "FAILED",
		 (unsigned long long)req->vm_pgalloc,
		 (unsigned long long)req->vm_pgfree, ok ? ">=" : "not both >=",
		 (unsigned long long)req->pages);
}

/* --fold, --quiet-workers, --drift into the request (counter bench). */
static void kmod_fold(const struct vsb_run_opts *o, struct vsb_ioc_run *req)
{
	int policy = vsb_fold_policy(o->fold);
	const char *unsafe = getenv("VSB_UNSAFE_FOLD");

	req->fold = policy == VSB_FOLD_LOCAL ? VSB_FOLD_POLICY_LOCAL :
		    policy == VSB_FOLD_REMOTE ? VSB_FOLD_POLICY_REMOTE :
		    VSB_FOLD_POLICY_NONE;
	if (req->fold != VSB_FOLD_POLICY_NONE) {
		req->fold_interval_us = (uint32_t)o->fold_interval_us;
		/* vsb_fold_check() let the run through on this alone */
		if (unsafe && !strcmp(unsafe, "1"))
			req->flags |= VSB_RUN_UNSAFE_FOLD;
	}
	req->quiet_workers = (uint32_t)o->quiet_workers;
	if (o->drift)
		req->flags |= VSB_RUN_DRIFT;
}

/* The folder's and the reader's figures, as benches/drift.c reports them. */
static void set_drift(const struct vsb_run_opts *o, struct vsb_result *r,
		      const struct vsb_ioc_run *req)
{
	if (req->bench != VSB_BENCH_COUNTER)
		return;
	if (req->fold != VSB_FOLD_POLICY_NONE || req->flags & VSB_RUN_DRIFT)
		vsb_result_meta(r, "fold", "%s every %ld us%s; %llu folds", o->fold,
				o->fold_interval_us,
				req->fold == VSB_FOLD_POLICY_REMOTE ?
				" (shepherd kthread, xchg on per_cpu_ptr)" :
				req->fold == VSB_FOLD_POLICY_LOCAL ?
				" (pinned hrtimer on each worker CPU, this_cpu_xchg in hardirq)" :
				" (threshold folds only)",
				(unsigned long long)req->fold_count);
	if (req->quiet_workers)
		vsb_result_meta(r, "quiet_workers", "%u (the last CPUs of --cpus: "
				"warm-up only, no fold timer, no samples)",
				req->quiet_workers);
	if (!(req->flags & VSB_RUN_DRIFT) || !req->drift_samples)
		return;
	r->have_drift = 1;
	r->drift_samples = (size_t)req->drift_samples;
	r->drift_max = (double)req->drift_max;
	r->drift_p99 = (double)req->drift_p99;
	r->drift_mean = (double)req->drift_mean_milli / 1e3;
	r->stale_max_us = (double)req->stale_max_ns / 1e3;
	r->stale_p99_us = (double)req->stale_p99_ns / 1e3;
	r->stale_mean_us = (double)req->stale_mean_ns / 1e3;
	vsb_result_meta(r, "drift",
			"%zu reader samples every %d us (module kthread): |sum of "
			"per-CPU diffs| max %.0f p99 %.0f mean %.1f; staleness max "
			"%.0f us p99 %.0f us mean %.1f us", r->drift_samples,
			VSB_ABI_DRIFT_PERIOD_US, r->drift_max, r->drift_p99,
			r->drift_mean, r->stale_max_us, r->stale_p99_us,
			r->stale_mean_us);
}

/*
 * --disturbed against what the module can report (@caps: its VSB_CAP_*
 * bits from the version query); sets sample_size.
 */
static void kmod_disturb_setup(const struct vsb_run_opts *o, struct vsb_result *r,
			       unsigned int caps, struct vsb_ioc_run *req)
{
	int policy = vsb_disturb_parse_policy(o->disturbed);

	if (policy < 0)
		policy = VSB_DISTURB_RETRY;
	if (policy != VSB_DISTURB_OFF && !(caps & VSB_CAP_DISTURB)) {
		vsb_warn_opt("disturbed", "--disturbed: the loaded module does not report "
			     "disturbances (no VSB_CAP_DISTURB): rebuild and reload it");
		policy = VSB_DISTURB_OFF;
	}
	vsb_disturb_counts_init(&r->dist, policy, (unsigned long)req->repeat);
	if (policy == VSB_DISTURB_OFF)
		return;
	req->sample_size = sizeof(struct vsb_ioc_sample);
	snprintf(r->dist.sources, sizeof(r->dist.sources),
		 "the module, around each batch on the worker's CPU: current->nivcsw, "
		 "sched_info.run_delay, kcpustat steal, kstat irqs_sum + x86 irq_stat "
		 "(APIC timer, IPIs, NMIs)");
}

/*
 * The first request, then one per round of retries owed (each timing
 * only those repetitions).  The first request's unit, drift and
 * metadata stand; the sanity check must pass in every request.
 */
static int kmod_rounds(const struct vsb_run_opts *o, struct vsb_result *r,
		       int fd, unsigned int caps, struct vsb_ioc_run *req,
		       struct vsb_kmod_exact *x, const struct vsb_kmod_hooks *h)
{
	struct pending p = { .n = req->repeat };
	struct vsb_ioc_sample *ks;
	long long applied = 0, counted = 0, a, c;
	unsigned long long run_ns = 0;
	unsigned int round;
	int ret = 0, ok = 1;

	kmod_disturb_setup(o, r, caps, req);
	p.tries = vsb_zalloc(req->repeat * sizeof(*p.tries));
	ks = vsb_zalloc((size_t)req->ncpus * req->repeat * sizeof(*ks));
	req->samples_ptr = (uint64_t)(uintptr_t)ks;
	for (round = 0; p.n; round++) {
		struct vsb_ioc_run q = *req;

		q.repeat = p.n;
		q.samples_cap = q.ncpus * q.repeat;
		vsb_window_begin();	/* the whole ioctl: warm-up and setup included */
		ret = ioctl(fd, VSB_IOC_RUN, &q);
		vsb_window_end();
		if (ret) {
			ret = run_error(o, errno);
			break;
		}
		ret = vsb_kmod_exact_fetch(x, ks, (size_t)q.ncpus * q.repeat);
		if (ret)
			break;
		if (!round) {
			r->nthreads = (int)(q.ncpus - q.quiet_workers - q.busy_workers);
			set_unit(o, r, &q);
			if (x->win)
				vsb_exact_unit(r, 0);
			set_drift(o, r, &q);
		}
		settle_samples(r, &q, ks, x->win, &p);
		/* the first failed round's sanity text stays; every round counts */
		if (ok) {
			set_sanity(r, &q, h);
			ok = r->sanity_ok;
		}
		round_counts(&q, &a, &c);
		applied += a;
		counted += c;
		run_ns += q.elapsed_ns;
	}
	free(ks);
	free(p.tries);
	if (ret)
		return ret;
	r->applied = applied;
	r->counted = counted;
	vsb_result_meta(r, "kmod_run_ns", "%llu over %u request%s (setup, kthreads and "
			"checks included)", run_ns, round, round > 1 ? "s" : "");
	vsb_result_note_workers(r, -1, (int)o->allow_multiplex);
	vsb_disturb_report(r, 1);
	if (p.nkept)
		return 0;
	vsb_err_opt("disturbed", "--disturbed drop: all %u repetitions were disturbed, "
		    "nothing left to report (--disturbed retry or keep)", req->repeat);
	return VSB_EXIT_UNTRUSTED;
}

int vsb_kmod_run(const struct vsb_run_opts *o, struct vsb_result *r,
		 unsigned int bench, const struct vsb_kmod_hooks *h)
{
	int pages = bench == VSB_BENCH_PAGE_ALLOC || bench == VSB_BENCH_PAGE_ALLOC_PARALLEL;
	struct vsb_ioc_version v;
	struct vsb_ioc_run req;
	struct vsb_kmod_exact x;
	uint32_t *cpus;
	int fd, ret, i;

	memset(&req, 0, sizeof(req));
	req.size = sizeof(req);
	req.version = VSB_ABI_VERSION;
	req.bench = bench;
	ret = kmod_flags(o, pages, &req);
	if (ret)
		return ret;
	if (bench == VSB_BENCH_PAGE_ALLOC && o->cpus.n != 1) {
		vsb_err_opt("cpus", "--cpus: page-alloc runs on one CPU (page_bench01); use "
			"--bench page-alloc-parallel for %d", o->cpus.n);
		return VSB_EXIT_USAGE;
	}
	if (pages) {
		req.order = (uint32_t)o->order;
		req.outstanding = (uint32_t)o->outstanding;
		snprintf(r->opts.gfp, sizeof(r->opts.gfp), "%s",
			 req.gfp == VSB_GFP_ATOMIC ? "atomic" : "kernel");
	} else if (h && h->fill) {
		h->fill(o, &req);
	} else {
		req.variant = (uint32_t)o->variant_id;
		req.threshold = (uint32_t)o->threshold;
		req.diff_bits = (uint32_t)o->diff_bits;
		req.items = (uint32_t)o->items;
		req.delta = (int32_t)o->delta;
		req.batch = (uint32_t)o->batch;
		kmod_fold(o, &req);
	}
	req.loops = (uint64_t)o->loops;
	req.repeat = (uint32_t)o->repeat;
	req.warmup = (uint32_t)o->warmup;
	req.ncpus = (uint32_t)o->cpus.n;
	req.samples_cap = req.ncpus * req.repeat;
	req.time_limit_ms = (uint32_t)o->time_limit * 1000;

	ret = vsb_kmod_open(&fd, &v);
	if (ret)
		return ret;
	ret = h && h->have ? h->have(o, &v) : 0;
	if (!ret)
		ret = vsb_kmod_exact_begin(o, v.caps, &req, &x);
	if (ret) {
		close(fd);
		return ret;
	}
	cpus = vsb_zalloc(req.ncpus * sizeof(*cpus));
	for (i = 0; i < o->cpus.n; i++)
		cpus[i] = (uint32_t)o->cpus.cpu[i];
	req.cpus_ptr = (uint64_t)(uintptr_t)cpus;
	ret = kmod_rounds(o, r, fd, v.caps, &req, &x, h);
	if (!ret) {
		vsb_result_meta(r, "kmod_abi", "%d", VSB_ABI_VERSION);
		vsb_result_meta(r, "kmod_timed_loop", "preempt %s, irqs %s%s%s",
				req.flags & VSB_RUN_PREEMPT_OFF ? "off" : "on",
				req.flags & VSB_RUN_IRQS_OFF ? "off" : "on",
				pages ? ", gfp " : "", pages ? r->opts.gfp : "");
		if (req.flags & VSB_RUN_EXACT)
			vsb_result_meta(r, "kmod_window", "exact mode: every worker runs "
					"all --loops (no common stop)");
		else
			vsb_result_meta(r, "kmod_window", "common stop: the first worker "
					"to finish --loops ends every worker's sample; ops per "
					"sample vary");
	}
	vsb_kmod_exact_end(&x);
	free(cpus);
	close(fd);
	return ret;
}

int vsb_counter_run_kmod(const struct vsb_run_opts *o, struct vsb_result *r)
{
	return vsb_kmod_run(o, r, VSB_BENCH_COUNTER, NULL);
}
