// SPDX-License-Identifier: GPL-2.0
/*
 * `--bench isolated`: oslat on one CPU after it dirtied its vmstat
 * diffs.  The 002 thread's complaint: on a nohz_full CPU the
 * vmstat_update kworker interrupts a busy task (7 us on a Xeon, more
 * than 50 us seen from a guest).  6.1's vmstat_shepherd() queues
 * vmstat_update on every online CPU whose diffs are dirty; since 6.5
 * ("vmstat: skip periodic vmstat update for isolated CPUs") it skips
 * cpu_is_isolated() ones (6.12's mm/vmstat.c).
 *
 * Per window (a timed sample), the worker, pinned to the CPU of --cpus:
 *  1. spins 2 x vm.stat_interval + 0.5 s beside a helper thread of its
 *     own spinning on the same CPU: two runnable tasks keep the tick on,
 *     so this CPU's vmstat_work runs until it folds nothing and stops
 *     re-arming.  A pending vmstat_work is a *deferrable* timer
 *     (INIT_DEFERRABLE_WORK in start_shepherd_timer()), which a CPU
 *     with its tick stopped never fires, idle or busy, and the shepherd
 *     queues none while one is pending.  The helper then sleeps on a
 *     condition variable (nothing it does touches a vmstat counter);
 *  2. spins SETTLE_MS, so a nohz_full CPU stops its tick (quiet_vmstat()
 *     then, kernel/time/tick-sched.c);
 *  3. faults in --dirty-pages anonymous pages and keeps them: each
 *     fault's NR_ANON_MAPPED update sits in this CPU's diff, as a busy
 *     task's occasional fault leaves it, with the tick still stopped;
 *  4. spins --loops ms reading the TSC; an iteration longer than
 *     --gap-ns is an interruption (count, worst, total).
 * On 6.1 the shepherd now sees the dirty diff and queues vmstat_update
 * on that CPU at once; 6.12 skips the isolated CPU.  A tracefs instance of the run's
 * own (scratch.h) records workqueue_execute_start on the mono clock, so
 * the vmstat_update runs on that CPU during the window are counted and
 * matched with the interruptions they caused.
 *
 * A sample's cost is its worst iteration in ns (oslat's maximum), its
 * folds column the interruptions.  Sanity: the loop ran in every window,
 * its interruptions fit in it, and the trace lost no event.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "benches.h"
#include "clock.h"
#include "live.h"
#include "scratch.h"

#define ISOL_MS		3000	/* default --loops: window length */
#define ISOL_GAPS	1024	/* interruptions kept per window, to match */
#define ISOL_SLACK_NS	2000	/* a trace timestamp's usec rounding, and then some */
#define SETTLE_MS	200	/* spun before the dirtying: the tick stops */

struct isol_win {
	uint64_t iters, count, worst_ns, max_ns, total_ns;
	uint64_t runs, hits, worst_hit_ns;	/* vmstat_update, and interruptions it made */
	int lost;
};

struct isol_priv {
	char inst[PATH_MAX];	/* "" when not traced */
	double hz;
	uint64_t gap_ticks;
	size_t dirty;		/* bytes */
	struct isol_win *win;	/* MAP_SHARED, one per timed repetition */
	long repeat, ms, gap_ns;
	int cpu;
};

struct isol_state {
	uint64_t (*gap)[2];	/* mono ns: start, end */
	char *buf;
	/* step 1's second task: spins while spin is 1, ends at 2 */
	pthread_t helper;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int spin, have_helper;
};

static int isol_opts(const struct vsb_bench *b, struct vsb_run_opts *o)
{
	(void)b;
	if (o->cpus.n != 1) {
		vsb_err_opt("cpus", "--cpus: isolated spins on one CPU, not %d", o->cpus.n);
		return VSB_EXIT_USAGE;
	}
	if (vsb_opt_given(o, "events") && strcmp(o->events, "none")) {
		vsb_err_opt("events", "--events: isolated times its loop with the TSC alone "
			    "(a counter read would be an interruption of its own): none");
		return VSB_EXIT_USAGE;
	}
	strcpy(o->events, "none");
	if (!vsb_opt_given(o, "loops"))
		o->loops = ISOL_MS;
	if (o->loops > 600000) {
		vsb_err_opt("loops", "--loops: isolated's window is --loops ms, at most 600000");
		return VSB_EXIT_USAGE;
	}
	if (!vsb_opt_given(o, "warmup"))
		o->warmup = 0;	/* a window is seconds; its first has nothing to warm */
	return 0;
}

/* CLOCK_MONOTONIC: the tracefs "mono" clock, which vsb_now_ns()'s RAW is not */
static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int put(const char *dir, const char *file, const char *val)
{
	char path[PATH_MAX + 64];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (val[0] && write(fd, val, strlen(val)) < 0)
		ret = -1;
	close(fd);
	return ret;
}

/* The instance: workqueue_execute_start on the mono clock (CLOCK_MONOTONIC) */
static void isol_trace_setup(struct isol_priv *ip)
{
	if (vsb_scratch_trace(ip->inst, sizeof(ip->inst), "bench")) {
		vsb_warn("isolated: no tracefs instance: vmstat_update runs not counted");
		ip->inst[0] = '\0';
		return;
	}
	if (put(ip->inst, "trace_clock", "mono") || put(ip->inst, "buffer_size_kb", "256") ||
	    put(ip->inst, "events/workqueue/workqueue_execute_start/enable", "1")) {
		vsb_warn("isolated: %s: cannot enable workqueue_execute_start on the mono "
			 "clock: vmstat_update runs not counted", ip->inst);
		vsb_scratch_trace_put();
		ip->inst[0] = '\0';
	}
}

static void *helper_main(void *arg)
{
	struct isol_state *st = arg;
	int v;

	pthread_mutex_lock(&st->lock);
	for (;;) {
		while (!st->spin)
			pthread_cond_wait(&st->cond, &st->lock);
		if (st->spin == 2)
			break;
		pthread_mutex_unlock(&st->lock);
		do
			v = __atomic_load_n(&st->spin, __ATOMIC_RELAXED);
		while (v == 1);
		pthread_mutex_lock(&st->lock);
	}
	pthread_mutex_unlock(&st->lock);
	return NULL;
}

static void helper_set(struct isol_state *st, int v)
{
	pthread_mutex_lock(&st->lock);
	__atomic_store_n(&st->spin, v, __ATOMIC_RELAXED);
	pthread_cond_signal(&st->cond);
	pthread_mutex_unlock(&st->lock);
}

static int isol_init(struct vsb_live_wctx *w)
{
	struct isol_state *st = calloc(1, sizeof(*st));

	if (!st || !(st->gap = calloc(ISOL_GAPS, sizeof(*st->gap))) ||
	    !(st->buf = malloc(1 << 20))) {
		vsb_live_fail(w, "malloc");
		if (st)
			free(st->gap);
		free(st);
		return -1;
	}
	pthread_mutex_init(&st->lock, NULL);
	pthread_cond_init(&st->cond, NULL);
	/* created here, pinned: it inherits this thread's one-CPU affinity */
	errno = pthread_create(&st->helper, NULL, helper_main, st);
	if (errno) {
		vsb_live_fail(w, "pthread_create");
		free(st->gap);
		free(st->buf);
		free(st);
		return -1;
	}
	st->have_helper = 1;
	w->state = st;
	return 0;
}

/* Fault in the pages: this CPU's NR_ANON_MAPPED diff is dirty while they stay */
static char *dirty(struct vsb_live_wctx *w, size_t bytes)
{
	char *p;
	size_t i;

	if (!bytes)
		return NULL;
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		vsb_live_fail(w, "mmap");
		return NULL;
	}
	madvise(p, bytes, MADV_NOHUGEPAGE);
	for (i = 0; i < bytes; i += 4096)
		p[i] = 1;
	return p;
}

/* The busy loop: every iteration over gap_ticks is an interruption */
static void spin(const struct isol_priv *ip, struct vsb_live_wctx *w, struct isol_win *wn,
		 struct isol_state *st, uint64_t ns0, long ms)
{
	uint64_t t0 = vsb_rdtscp(), prev = t0, now, d, maxd = 0;
	uint64_t end = t0 + (uint64_t)((double)ms * ip->hz / 1000);
	double to_ns = 1e9 / ip->hz;

	do {
		now = vsb_rdtscp();
		d = now - prev;
		if (d > ip->gap_ticks) {
			if (wn->count < ISOL_GAPS) {
				st->gap[wn->count][0] = ns0 + (uint64_t)((prev - t0) * to_ns);
				st->gap[wn->count][1] = ns0 + (uint64_t)((now - t0) * to_ns);
			}
			wn->count++;
			wn->total_ns += (uint64_t)(d * to_ns);
		}
		maxd = d > maxd ? d : maxd;
		prev = now;
		if (!(++wn->iters & 0xffff) && vsb_live_stopped(w))
			break;
	} while (now < end);
	wn->max_ns = (uint64_t)(maxd * to_ns);
	wn->worst_ns = wn->count ? wn->max_ns : 0;
}

/* "  <idle>-0  [001] d..1.  123.456789: workqueue_execute_start: ..." -> ns */
static int event_ns(const char *line, uint64_t *ns)
{
	const char *ev = strstr(line, ": workqueue_execute_start:"), *p;

	if (!ev || !strstr(ev, "function vmstat_update"))
		return -1;
	for (p = ev; p > line && p[-1] != ' '; p--)
		;
	*ns = (uint64_t)(strtod(p, NULL) * 1e9 + 0.5);
	return 0;
}

/* The window's vmstat_update runs on this CPU, and the gaps they fell in */
static void count_runs(const struct isol_priv *ip, struct isol_state *st,
		       struct isol_win *wn, int cpu, uint64_t ns0, uint64_t ns1)
{
	char path[PATH_MAX + 64], *line, *save = NULL;
	uint64_t ns, i, kept = wn->count < ISOL_GAPS ? wn->count : ISOL_GAPS;
	size_t len;

	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace", ip->inst, cpu);
	if (vsb_read_file_str(path, st->buf, 1 << 20))
		return;
	len = strlen(st->buf);
	wn->lost = len >= (1 << 20) - 1;
	for (line = strtok_r(st->buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || event_ns(line, &ns) || ns + ISOL_SLACK_NS < ns0 ||
		    ns > ns1 + ISOL_SLACK_NS)
			continue;
		wn->runs++;
		for (i = 0; i < kept; i++)
			if (ns + ISOL_SLACK_NS >= st->gap[i][0] &&
			    ns <= st->gap[i][1] + ISOL_SLACK_NS) {
				uint64_t g = st->gap[i][1] - st->gap[i][0];

				wn->hits++;
				wn->worst_hit_ns = g > wn->worst_hit_ns ? g : wn->worst_hit_ns;
				break;
			}
	}
	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats", ip->inst, cpu);
	if (!vsb_read_file_str(path, st->buf, 4096) && !strstr(st->buf, "overrun: 0"))
		wn->lost = 1;
}

/* Step 1: ticking, two tasks spinning, until vmstat_work stops re-arming */
static void settle(const struct isol_priv *ip, struct vsb_live_wctx *w,
		   struct isol_state *st)
{
	struct isol_win scratch = { 0 };
	long si;

	if (vsb_read_file_long("/proc/sys/vm/stat_interval", &si) || si < 1)
		si = 1;
	helper_set(st, 1);
	spin(ip, w, &scratch, st, 0, 2000 * si + 500);
	helper_set(st, 0);
}

static uint64_t isol_op(struct vsb_live_wctx *w, uint64_t loops)
{
	const struct isol_priv *ip = w->priv;
	struct isol_state *st = w->state;
	struct isol_win scratch, *wn = w->rep >= 0 ? &ip->win[w->rep] : &scratch;
	uint64_t ns0, ns1;
	char *p;

	(void)loops;
	memset(&scratch, 0, sizeof(scratch));
	settle(ip, w, st);
	spin(ip, w, &scratch, st, mono_ns(), SETTLE_MS);
	p = dirty(w, ip->dirty);
	memset(wn, 0, sizeof(*wn));
	if (ip->inst[0])
		put(ip->inst, "trace", "");	/* empty: this window's events only */
	ns0 = mono_ns();
	spin(ip, w, wn, st, ns0, ip->ms);
	ns1 = mono_ns();
	if (p)
		munmap(p, ip->dirty);
	if (ip->inst[0])
		count_runs(ip, st, wn, w->cpu, ns0, ns1);
	return 1;
}

/* The window's worst iteration as its cost, its interruptions as folds */
static void isol_sample(struct vsb_live_wctx *w, struct vsb_sample *s)
{
	const struct isol_priv *ip = w->priv;
	const struct isol_win *wn = &ip->win[w->rep];

	s->elapsed = wn->max_ns ? wn->max_ns : 1;
	s->folds = wn->count;
}

static void isol_fini(struct vsb_live_wctx *w)
{
	struct isol_state *st = w->state;

	if (!st)
		return;
	if (st->have_helper) {
		helper_set(st, 2);
		pthread_join(st->helper, NULL);
	}
	free(st->gap);
	free(st->buf);
	free(st);
}

/* "isolated (isolcpus), nohz_full" for @cpu, from sysfs */
static void cpu_role(int cpu, char *buf, size_t len)
{
	struct vsb_cpulist iso, nohz;
	char raw[1024];
	int i, a = 0, b = 0;

	if (!vsb_read_file_str("/sys/devices/system/cpu/isolated", raw, sizeof(raw)) &&
	    !vsb_cpulist_parse_sysfs(raw, &iso))
		for (i = 0; i < iso.n; i++)
			a |= iso.cpu[i] == cpu;
	if (!vsb_read_file_str("/sys/devices/system/cpu/nohz_full", raw, sizeof(raw)) &&
	    !vsb_cpulist_parse_sysfs(raw, &nohz))
		for (i = 0; i < nohz.n; i++)
			b |= nohz.cpu[i] == cpu;
	snprintf(buf, len, "%s%s%s", a ? "isolated (isolcpus=)" : "",
		 a && b ? " and " : "", b ? "nohz_full" : "");
	if (!a && !b)
		snprintf(buf, len, "neither isolated nor nohz_full: a housekeeping CPU");
}

static void isol_meta(void *priv, const struct vsb_run_opts *o, struct vsb_result *r,
		      int threads)
{
	const struct isol_priv *ip = priv;
	char role[128], si[32];

	(void)threads;
	cpu_role(ip->cpu, role, sizeof(role));
	if (vsb_read_file_str("/proc/sys/vm/stat_interval", si, sizeof(si)))
		snprintf(si, sizeof(si), "?");
	si[strcspn(si, "\n")] = '\0';
	/* the cost is a window's worst iteration, in ns whatever the clock */
	snprintf(r->unit, sizeof(r->unit), "ns");
	snprintf(r->event, sizeof(r->event), "worst busy-loop iteration (rdtscp)");
	vsb_result_meta(r, "live", "on CPU %d: 2 x vm.stat_interval + 0.5 s spun beside a "
			"helper thread (the tick on: vmstat_work stops re-arming), %d ms spun "
			"alone (a nohz_full tick stops), %ld dirty pages faulted in and kept, "
			"then a %ld ms busy loop reading the TSC; an iteration over %ld ns is "
			"an interruption", ip->cpu, SETTLE_MS, o->dirty_pages, ip->ms,
			ip->gap_ns);
	vsb_result_meta(r, "live_op", "one window (its cost: the worst iteration, ns)");
	vsb_result_meta(r, "isolated_cpu", "%d: %s; vm.stat_interval %s s", ip->cpu, role, si);
	vsb_result_meta(r, "isolated_trace", "%s", ip->inst[0] ? "tracefs instance, "
			"workqueue_execute_start on the mono clock, this CPU's buffer" :
			"none (no tracefs instance): vmstat_update runs not counted");
}

/*
 * A window's figures as the lines list them, in their order: a point's
 * isolated_windows lists every window of every round, so that a sweep
 * spread over worker processes says what all of them saw, and
 * isolated_vmstat_update sums them.  Times in us, as read back.
 */
enum { F_COUNT, F_WORST, F_TOTAL, F_RUNS, F_HITS, F_WHIT, F_N };

static const struct {
	const char *label;
	int prec;
} isol_fig[F_N] = {
	{ "interruptions", 0 }, { "worst us", 1 }, { "total us", 1 },
	{ "vmstat_update runs", 0 }, { "overlapped", 0 }, { "worst overlapped us", 1 },
};

/* @n windows' figures, a list per figure (NAN: not traced) */
struct isol_lists {
	size_t n, cap;
	double *v[F_N];
};

static void lists_alloc(struct isol_lists *l, size_t cap)
{
	int f;

	l->n = 0;
	l->cap = cap;
	for (f = 0; f < F_N; f++)
		l->v[f] = vsb_zalloc((cap + 1) * sizeof(double));
}

static void lists_free(struct isol_lists *l)
{
	int f;

	for (f = 0; f < F_N; f++)
		free(l->v[f]);
}

/* isolated_windows of the first @k windows into @buf: 0, or -1 when too long */
static int windows_line(char *buf, size_t len, const struct isol_lists *l, size_t k)
{
	int f;

	buf[0] = '\0';
	for (f = 0; f < F_N; f++)
		if (vsb_meta_list_put(buf, len, isol_fig[f].label, l->v[f], k,
				      isol_fig[f].prec))
			return -1;
	return 0;
}

/* Both lines from @l: every window listed that fits, all of them summed */
static void isol_lines(struct vsb_result *r, const struct isol_lists *l, int cpu)
{
	char buf[sizeof(r->meta->val)];
	double runs = 0, hits = 0, whit = 0;
	size_t k = l->n, i;

	while (windows_line(buf, sizeof(buf), l, k) && k)
		k--;
	vsb_result_meta(r, "isolated_windows", "%s%s", buf, k < l->n ?
			"; (the first windows: no more fit in this line)" : "");
	for (i = 0; i < l->n; i++) {
		runs += isnan(l->v[F_RUNS][i]) ? 0 : l->v[F_RUNS][i];
		hits += isnan(l->v[F_HITS][i]) ? 0 : l->v[F_HITS][i];
		whit = l->v[F_WHIT][i] > whit ? l->v[F_WHIT][i] : whit;
	}
	vsb_result_meta(r, "isolated_vmstat_update", "%.0f runs on CPU %d in %zu windows; "
			"%.0f interruptions overlapped one, the worst %.1f us",
			runs, cpu, l->n, hits, whit);
}

/* The windows of this run, traced or not, as the lines list them */
static void run_lists(const struct isol_priv *ip, struct isol_lists *l)
{
	double untraced = ip->inst[0] ? 0 : NAN;
	long i;

	for (i = 0; i < ip->repeat; i++) {
		const struct isol_win *wn = &ip->win[i];

		l->v[F_COUNT][i] = (double)wn->count;
		l->v[F_WORST][i] = (double)wn->worst_ns / 1000;
		l->v[F_TOTAL][i] = (double)wn->total_ns / 1000;
		l->v[F_RUNS][i] = (double)wn->runs + untraced;
		l->v[F_HITS][i] = (double)wn->hits + untraced;
		l->v[F_WHIT][i] = (double)wn->worst_hit_ns / 1000 + untraced;
	}
	l->n = (size_t)ip->repeat;
}

static void isol_check(void *priv, struct vsb_result *r, const struct vsb_vmstat_snap *a,
		       const struct vsb_vmstat_snap *b, double secs)
{
	const struct isol_priv *ip = priv;
	uint64_t count = 0, total = 0, worst = 0, runs = 0;
	struct isol_lists l;
	int bad = 0, lost = 0;
	long i;

	(void)a;
	(void)b;
	for (i = 0; i < ip->repeat; i++) {
		const struct isol_win *wn = &ip->win[i];

		count += wn->count;
		total += wn->total_ns;
		worst = wn->worst_ns > worst ? wn->worst_ns : worst;
		runs += wn->runs;
		bad |= !wn->iters || wn->total_ns > (uint64_t)ip->ms * 1000000 * 11 / 10;
		lost |= wn->lost;
	}
	lists_alloc(&l, (size_t)ip->repeat);
	run_lists(ip, &l);
	isol_lines(r, &l, ip->cpu);
	lists_free(&l);
	r->applied = (long long)count;
	r->counted = (long long)runs;
	r->sanity_ok = !bad && !lost;
	snprintf(r->sanity, sizeof(r->sanity), "%s: %ld windows of %ld ms on CPU %d in "
		 "%.3f s; %llu interruptions over %ld ns, worst %.1f us, %.1f us in all; "
		 "vmstat_update ran %llu times there%s", bad ? "FAILED: a window did not "
		 "spin or lost more than itself" : lost ? "FAILED: the trace lost events" :
		 "ok", ip->repeat, ip->ms, ip->cpu, secs, (unsigned long long)count,
		 ip->gap_ns, (double)worst / 1000, (double)total / 1000,
		 (unsigned long long)runs, ip->inst[0] ? "" : " (not traced)");
}

/* @r's isolated_windows appended to @l; -1 when it does not read back whole */
static int read_lists(const struct vsb_result *r, struct isol_lists *l)
{
	const char *val = vsb_result_meta_of(r, "isolated_windows");
	long n = -1, got;
	int f;

	for (f = 0; val && f < F_N; f++) {
		got = vsb_meta_list_get(val, isol_fig[f].label, l->v[f] + l->n,
					l->cap - l->n);
		if (got < 0 || (n >= 0 && got != n))
			return -1;
		n = got;
	}
	if (!val)
		return -1;
	l->n += (size_t)n;
	return 0;
}

/*
 * A sweep's later round (another worker process's, or this one's): its
 * windows join the point's, and the lines say what all of them saw.
 */
static void isol_merge(struct vsb_result *dst, const struct vsb_result *src)
{
	struct isol_lists l;

	lists_alloc(&l, dst->nsamples + src->nsamples);
	if (!read_lists(dst, &l) && !read_lists(src, &l))
		isol_lines(dst, &l, dst->opts.cpus.cpu[0]);
	else
		vsb_warn("isolated: a round's windows did not read back: its "
			 "isolated_* lines leave them out");
	lists_free(&l);
}

static const struct vsb_live_ops isol_ops = {
	.name = "isolated",
	.init = isol_init,
	.op = isol_op,
	.sample = isol_sample,
	.fini = isol_fini,
	.meta = isol_meta,
	.check = isol_check,
};

static int isol_run(const struct vsb_run_opts *o, struct vsb_result *r)
{
	struct isol_priv ip = { .hz = vsb_tsc_hz(), .repeat = o->repeat, .ms = o->loops,
				.gap_ns = o->gap_ns, .cpu = o->cpus.cpu[0] };
	size_t bytes = (size_t)o->repeat * sizeof(*ip.win);
	int ret;

	ip.gap_ticks = (uint64_t)((double)o->gap_ns * ip.hz / 1e9);
	ip.dirty = (size_t)o->dirty_pages * 4096;
	ip.win = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ip.win == MAP_FAILED) {
		vsb_err("isolated: cannot map its windows: %s", strerror(errno));
		return VSB_EXIT_ERROR;
	}
	isol_trace_setup(&ip);
	ret = vsb_live_run(o, r, &isol_ops, &ip);
	if (ip.inst[0])
		vsb_scratch_trace_put();
	munmap(ip.win, bytes);
	return ret;
}

/* its point in the text header's words (bench_model.h) */
static void isol_describe(const struct vsb_run_opts *o, FILE *f)
{
	fprintf(f, "%ld dirty pages, windows of %ld ms, gaps over %ld ns",
		o->dirty_pages, o->loops, o->gap_ns);
}

const struct vsb_bench vsb_bench_isolated = {
	.name = "isolated", .sides = VSB_SIDE_LIVE,
	.desc = "live kernel: oslat on one CPU after it dirtied its diffs; vmstat_update runs traced",
	.run_user = isol_run, .check = isol_opts, .merge = isol_merge,
	.takes = "dirty-pages gap-ns",
	.model = { .describe = isol_describe },
};
