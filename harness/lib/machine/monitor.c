// SPDX-License-Identifier: GPL-2.0
/*
 * The monitor sampler: one thread that reads the chosen /proc files (and
 * the BPF tracer's counters) every interval and writes each value as a
 * row of FILE.monitor.csv (time,source,key,cpu,value; time in seconds of
 * CLOCK_MONOTONIC since the monitor started).
 *
 * It stays out of the measurement: it runs on a CPU without a worker
 * when the process may use one, else at SCHED_IDLE (nice 19 if that is
 * refused) so that a busy worker always preempts it; it takes no lock a
 * worker takes, and the benches only publish window marks (window.c)
 * between samples.  The first sample is taken before the bench starts
 * and the last after it ends, in the caller's thread, so every timed
 * window lies between two samples: the summary's rates are counts
 * between the last sample before the first window and the first sample
 * after the last one, divided by that span (monitor_span says how wide
 * it was next to the windows themselves).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "monitor.h"
#include "monitor_csv.h"
#include "result.h"
#include "window.h"
#include "bpf/trace.h"

/* What the summary needs of each sample; the file has everything. */
struct tick {
	double t;
	unsigned int have;		/* VSB_MON_* read in this sample */
	double pgalloc, pgfree;		/* /proc/vmstat pgalloc_* summed, pgfree */
	double irq;			/* interrupts on the workers' CPUs */
	double st_total, st_steal, st_softirq, st_system, st_irq; /* workers' CPUs */
	double vmstat_update;		/* trace: work items, all CPUs, since load */
};

struct vsb_monitor {
	struct vsb_monitor_spec spec;
	unsigned int active;		/* sources still read */
	struct vsb_outfile out;
	unsigned char *worker;		/* [VSB_MAX_CPUS]: 1 on a worker's CPU */
	struct vsb_cpulist spare;	/* the CPUs with no worker, for the sampler */
	uint64_t t0;
	char place[160];
	pthread_t th;
	int have_thread, stop;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct tick *ticks, cur;
	size_t nticks, cap;
	char *buf;			/* read buffer, grown to the largest file */
	size_t buflen;
	struct vsb_trace_snap *tr, *tr_prev;
	double tr_prev_t;
	int have_tr_prev;
};

static const struct {
	unsigned int bit;
	const char *path;
	int (*parse)(const char *text, vsb_monitor_emit_fn emit, void *ctx);
} procs[] = {
	{ VSB_MON_VMSTAT, "/proc/vmstat", vsb_monitor_parse_vmstat },
	{ VSB_MON_INTERRUPTS, "/proc/interrupts", vsb_monitor_parse_interrupts },
	{ VSB_MON_STAT, "/proc/stat", vsb_monitor_parse_stat },
	{ VSB_MON_ZONEINFO, "/proc/zoneinfo", vsb_monitor_parse_zoneinfo },
	{ VSB_MON_BUDDYINFO, "/proc/buddyinfo", vsb_monitor_parse_buddyinfo },
	{ VSB_MON_LOADAVG, "/proc/loadavg", vsb_monitor_parse_loadavg },
};
#define NPROCS (sizeof(procs) / sizeof(procs[0]))

static double since_start(const struct vsb_monitor *m, uint64_t t)
{
	return (double)(int64_t)(t - m->t0) / 1e9;
}

static int is_worker(const struct vsb_monitor *m, int cpu)
{
	return cpu >= 0 && cpu < VSB_MAX_CPUS && m->worker[cpu];
}

/* One value: a row of the file, and into the summary's figures. */
static void emit(void *ctx, const char *source, const char *key, int cpu, double v)
{
	struct vsb_monitor *m = ctx;
	struct tick *k = &m->cur;

	vsb_monitor_row_write(m->out.f, k->t, source, key, cpu, v);
	if (source[0] == 'v') {			/* vmstat */
		if (!strncmp(key, "pgalloc_", 8))
			k->pgalloc += v;
		else if (!strcmp(key, "pgfree"))
			k->pgfree += v;
	} else if (source[0] == 'i') {		/* interrupts */
		if (!strcmp(key, "total") && is_worker(m, cpu))
			k->irq += v;
	} else if (!strcmp(source, "stat") && is_worker(m, cpu)) {
		k->st_total += v;
		if (!strcmp(key, "steal"))
			k->st_steal += v;
		else if (!strcmp(key, "softirq"))
			k->st_softirq += v;
		else if (!strcmp(key, "system"))
			k->st_system += v;
		else if (!strcmp(key, "irq"))
			k->st_irq += v;
	}
}

/*
 * The whole of @path into m->buf; 0 or an errno.  Opened as every file
 * read is (vsb_open_regular: never blocks, only a regular file; /proc's
 * are) and capped, so a source that is not what it should be (a
 * bind-mounted FIFO, a file without end) drops that source instead of
 * hanging the sampler or filling memory.
 */
#define SLURP_MAX	(64u << 20)
static int slurp(struct vsb_monitor *m, const char *path)
{
	struct stat st;
	size_t len = 0;
	ssize_t n;
	int fd = vsb_open_regular(path, 0, &st);

	if (fd < 0)
		return -fd;
	for (;;) {
		if (len >= SLURP_MAX) {
			close(fd);
			return EFBIG;
		}
		if (len + 1 >= m->buflen) {
			char *nb = realloc(m->buf, m->buflen * 2);

			if (!nb) {
				close(fd);
				return ENOMEM;
			}
			m->buf = nb;
			m->buflen *= 2;
		}
		n = read(fd, m->buf + len, m->buflen - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	m->buf[len] = '\0';
	return n < 0 ? errno : 0;
}

/* trace: per-second rates between the previous snapshot and this one */
static void trace_rates(struct vsb_monitor *m, double all, double dt)
{
	double prev = 0, a = 0, f = 0;
	int i;

	for (i = 0; i < m->tr->ncpus && i < VSB_MAX_CPUS; i++) {
		double d = (double)(m->tr->work[i] - m->tr_prev->work[i]);

		prev += (double)m->tr_prev->work[i];
		if (is_worker(m, i))
			emit(m, "trace", "vmstat_update_per_s", i, d / dt);
	}
	emit(m, "trace", "vmstat_update_per_s", -1, (all - prev) / dt);
	for (i = 0; i < VSB_TRACE_NORDERS; i++) {
		a += (double)(m->tr->alloc[i] - m->tr_prev->alloc[i]);
		f += (double)(m->tr->freed[i] - m->tr_prev->freed[i]);
	}
	emit(m, "trace", "page_alloc_per_s", -1, a / dt);
	emit(m, "trace", "page_free_per_s", -1, f / dt);
}

/* trace: the running total for the summary, rates into the file */
static void sample_trace(struct vsb_monitor *m)
{
	double all = 0;
	int i;

	if (vsb_trace_snapshot(m->tr)) {
		vsb_warn("--monitor: trace: cannot read the BPF counters; trace dropped");
		m->active &= ~VSB_MON_TRACE;
		return;
	}
	for (i = 0; i < m->tr->ncpus && i < VSB_MAX_CPUS; i++)
		all += (double)m->tr->work[i];
	m->cur.vmstat_update = all;
	m->cur.have |= VSB_MON_TRACE;
	if (m->have_tr_prev && m->cur.t > m->tr_prev_t)
		trace_rates(m, all, m->cur.t - m->tr_prev_t);
	memcpy(m->tr_prev, m->tr, sizeof(*m->tr));
	m->tr_prev_t = m->cur.t;
	m->have_tr_prev = 1;
}

/* One sample of every active source; called by one thread at a time. */
static void sample(struct vsb_monitor *m)
{
	size_t i;
	int e;

	memset(&m->cur, 0, sizeof(m->cur));
	m->cur.t = since_start(m, vsb_window_now_ns());
	for (i = 0; i < NPROCS; i++) {
		if (!(m->active & procs[i].bit))
			continue;
		e = slurp(m, procs[i].path);
		if (e || procs[i].parse(m->buf, emit, m) < 0) {
			vsb_warn("--monitor: %s: %s; that source is dropped", procs[i].path,
				 e ? vsb_read_strerror(e) : "not in the format expected");
			m->active &= ~procs[i].bit;
			continue;
		}
		m->cur.have |= procs[i].bit;
	}
	if (m->active & VSB_MON_TRACE)
		sample_trace(m);
	if (m->nticks == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 256;
		m->ticks = realloc(m->ticks, m->cap * sizeof(*m->ticks));
		if (!m->ticks) {
			vsb_err("out of memory in the monitor");
			exit(VSB_EXIT_ERROR);
		}
	}
	m->ticks[m->nticks++] = m->cur;
}

static void timespec_add_ms(struct timespec *ts, long ms)
{
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (ms % 1000) * 1000000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

static void *sampler_main(void *arg)
{
	struct vsb_monitor *m = arg;
	struct sched_param sp = { .sched_priority = 0 };
	struct timespec next, now;

	/* no spare CPU: yield to every worker (see vsb_monitor_start) */
	if (!m->spare.n && pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp))
		setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
	clock_gettime(CLOCK_MONOTONIC, &next);
	pthread_mutex_lock(&m->lock);
	while (!m->stop) {
		timespec_add_ms(&next, m->spec.interval_ms);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > next.tv_sec ||
		    (now.tv_sec == next.tv_sec && now.tv_nsec > next.tv_nsec))
			next = now;	/* fell behind (starved): no burst to catch up */
		while (!m->stop && pthread_cond_timedwait(&m->cond, &m->lock, &next) != ETIMEDOUT)
			;
		if (m->stop)
			break;
		pthread_mutex_unlock(&m->lock);
		sample(m);
		pthread_mutex_lock(&m->lock);
	}
	pthread_mutex_unlock(&m->lock);
	return NULL;
}

/* The trace source if it can work here, else one warning and without it. */
static void open_trace(struct vsb_monitor *m)
{
	char why[256];

	if (!(m->active & VSB_MON_TRACE))
		return;
	if (vsb_trace_available(why, sizeof(why))) {
		vsb_warn("--monitor: trace skipped: %s; the other sources are kept", why);
		m->active &= ~VSB_MON_TRACE;
		return;
	}
	if (vsb_trace_open()) {	/* it said why */
		vsb_warn("--monitor: trace skipped; the other sources are kept");
		m->active &= ~VSB_MON_TRACE;
		return;
	}
	m->tr = vsb_zalloc(sizeof(*m->tr));
	m->tr_prev = vsb_zalloc(sizeof(*m->tr_prev));
}

/*
 * Where the sampler runs: the CPUs the process may use that have no
 * worker (as drift.c places its helpers), else the workers' CPUs at
 * SCHED_IDLE.  Says so in m->place.
 */
static void describe_place(struct vsb_monitor *m)
{
	char list[128];

	vsb_cpulist_format(&m->spare, list, sizeof(list), ',');
	if (m->spare.n)
		snprintf(m->place, sizeof(m->place), "on CPU %s (no worker)", list);
	else
		snprintf(m->place, sizeof(m->place),
			 "on the workers' CPUs at SCHED_IDLE (no spare CPU)");
}

static int start_thread(struct vsb_monitor *m)
{
	pthread_condattr_t ca;
	pthread_attr_t attr;
	sigset_t all, old;
	int e;

	pthread_mutex_init(&m->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&m->cond, &ca);
	pthread_condattr_destroy(&ca);
	pthread_attr_init(&attr);
	describe_place(m);
	vsb_cpulist_pin_attr(&m->spare, &attr);
	/* signals stay with the main thread, which sets vsb_interrupted */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	e = pthread_create(&m->th, &attr, sampler_main, m);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (e) {
		vsb_err("--monitor: cannot start the sampler thread: %s", strerror(e));
		return VSB_EXIT_ERROR;
	}
	m->have_thread = 1;
	return 0;
}

static void monitor_free(struct vsb_monitor *m)
{
	free(m->worker);
	free(m->ticks);
	free(m->buf);
	free(m->tr);
	free(m->tr_prev);
	free(m);
}

int vsb_monitor_start(struct vsb_monitor **mp, const char *spec,
		      const struct vsb_cpulist *workers, const char *csv_path)
{
	struct vsb_monitor *m;
	char src[128];
	int i, ret;

	*mp = NULL;
	if (!spec || !*spec)
		return 0;
	m = vsb_zalloc(sizeof(*m));
	ret = vsb_monitor_parse_spec(spec, &m->spec, "--monitor");
	if (ret)
		goto err_free;
	m->worker = vsb_zalloc(VSB_MAX_CPUS);
	for (i = 0; i < workers->n; i++)
		if (workers->cpu[i] >= 0 && workers->cpu[i] < VSB_MAX_CPUS)
			m->worker[workers->cpu[i]] = 1;
	vsb_cpulist_spare(workers, &m->spare);
	m->buflen = 1 << 16;
	m->buf = vsb_zalloc(m->buflen);
	ret = vsb_outfile_open(&m->out, csv_path, "--monitor");
	if (ret)
		goto err_free;
	m->active = m->spec.sources;
	open_trace(m);
	vsb_monitor_format_sources(m->active, src, sizeof(src));
	m->t0 = vsb_window_now_ns();
	fprintf(m->out.f, VSB_MONITOR_CSV_TITLE "%s every %ld ms\n"
		"# clock: CLOCK_MONOTONIC, time 0 = %.9f s\n"
		"# cpu -1: not per CPU (or every CPU together); rows of source "
		"\"workers\" mark the workers' CPUs, rows of source \"window\" the "
		"timed windows\n"
		VSB_MONITOR_CSV_HEADER "\n", src, m->spec.interval_ms,
		(double)m->t0 / 1e9);
	for (i = 0; i < workers->n; i++)
		vsb_monitor_row_write(m->out.f, 0, "workers", "cpu", workers->cpu[i], 1);
	vsb_window_arm();
	sample(m);
	ret = start_thread(m);
	if (ret)
		goto err_abort;
	*mp = m;
	return 0;

err_abort:
	vsb_window_disarm();
	vsb_outfile_abort(&m->out);
err_free:
	monitor_free(m);
	return ret;
}

/*
 * The window rows, and the span the summary covers: from the first
 * window's begin to the last one's end (a begin without an end ends at
 * the last sample), or the whole run when the bench marks no window.
 */
static void write_windows(struct vsb_monitor *m, double *b0, double *e1,
			  int *nwin, double *timed)
{
	struct vsb_window_mark *wm = vsb_zalloc(VSB_WINDOW_MAX * sizeof(*wm));
	size_t n = vsb_window_read(wm, VSB_WINDOW_MAX, NULL), i;
	double open_t = -1;

	*nwin = 0;
	*timed = 0;
	*b0 = 0;
	*e1 = m->ticks[m->nticks - 1].t;
	for (i = 0; i < n; i++) {
		double t = since_start(m, wm[i].t_ns);

		if (!wm[i].end) {
			if (!*nwin)
				*b0 = t;
			open_t = t;
			++*nwin;
		} else if (open_t >= 0) {
			*timed += t - open_t;
			*e1 = t;
			open_t = -1;
		} else {
			continue;	/* an end without a begin: not a window */
		}
		vsb_monitor_row_write(m->out.f, t, "window", wm[i].end ? "end" : "begin",
				      -1, *nwin);
	}
	if (open_t >= 0)
		*e1 = m->ticks[m->nticks - 1].t;
	free(wm);
}

static void summarise(struct vsb_monitor *m, struct vsb_result *r)
{
	const struct tick *a = &m->ticks[0], *b = &m->ticks[m->nticks - 1];
	double b0, e1, timed, dt, st;
	char src[128];
	size_t i;
	int nwin;

	write_windows(m, &b0, &e1, &nwin, &timed);
	for (i = 0; i < m->nticks; i++)
		if (m->ticks[i].t <= b0)
			a = &m->ticks[i];
	for (i = m->nticks; i-- > 0;)
		if (m->ticks[i].t >= e1)
			b = &m->ticks[i];
	dt = b->t - a->t;
	vsb_monitor_format_sources(m->active, src, sizeof(src));
	vsb_result_meta(r, "monitor", "%s every %ld ms, %zu samples, sampler %s",
			src, m->spec.interval_ms, m->nticks, m->place);
	vsb_result_meta(r, "monitor_file", "%s", m->out.path);
	if (nwin)
		vsb_result_meta(r, "monitor_span", "%.3f s between the samples around "
				"%d timed window%s (%.3f s timed, %.3f s first to last)",
				dt, nwin, nwin == 1 ? "" : "s", timed, e1 - b0);
	else
		vsb_result_meta(r, "monitor_span", "%.3f s: the whole run (the bench "
				"marks no timed window)", dt);
	if (dt <= 0)
		return;
	if (a->have & b->have & VSB_MON_VMSTAT) {
		vsb_result_meta(r, "monitor_pgalloc_per_s", "%.0f", (b->pgalloc - a->pgalloc) / dt);
		vsb_result_meta(r, "monitor_pgfree_per_s", "%.0f", (b->pgfree - a->pgfree) / dt);
		vsb_result_meta(r, "monitor_pgalloc", "%.0f", b->pgalloc - a->pgalloc);
	}
	if (a->have & b->have & VSB_MON_TRACE)
		vsb_result_meta(r, "monitor_vmstat_update_per_s", "%.1f",
				(b->vmstat_update - a->vmstat_update) / dt);
	if (a->have & b->have & VSB_MON_INTERRUPTS)
		vsb_result_meta(r, "monitor_irq_per_s_workers", "%.1f", (b->irq - a->irq) / dt);
	st = b->st_total - a->st_total;
	if (a->have & b->have & VSB_MON_STAT && st > 0) {
		vsb_result_meta(r, "monitor_steal_pct", "%.2f", 100 * (b->st_steal - a->st_steal) / st);
		vsb_result_meta(r, "monitor_softirq_pct", "%.2f",
				100 * (b->st_softirq - a->st_softirq) / st);
		vsb_result_meta(r, "monitor_system_pct", "%.2f",
				100 * (b->st_system - a->st_system) / st);
	}
}

int vsb_monitor_stop(struct vsb_monitor *m, struct vsb_result *r)
{
	int ret = 0;

	if (!m)
		return 0;
	if (m->have_thread) {
		pthread_mutex_lock(&m->lock);
		m->stop = 1;
		pthread_cond_signal(&m->cond);
		pthread_mutex_unlock(&m->lock);
		pthread_join(m->th, NULL);
	}
	vsb_window_disarm();
	if (r) {
		sample(m);
		summarise(m, r);
		ret = vsb_outfile_commit(&m->out);
	} else {
		vsb_outfile_abort(&m->out);
	}
	pthread_mutex_destroy(&m->lock);
	pthread_cond_destroy(&m->cond);
	monitor_free(m);
	return ret;
}

void vsb_monitor_print_summary(const struct vsb_result *r, FILE *f)
{
	static const struct {
		const char *key, *fmt;
	} show[] = {
		{ "monitor_pgalloc_per_s", " pgalloc/s %s" },
		{ "monitor_pgfree_per_s", ", pgfree/s %s" },
		{ "monitor_vmstat_update_per_s", ", vmstat_update/s %s" },
		{ "monitor_irq_per_s_workers", ", irq/s on workers' CPUs %s" },
		{ "monitor_steal_pct", ", steal %s%%" },
		{ "monitor_softirq_pct", ", softirq %s%%" },
	};
	size_t i, k;
	int any = 0;

	for (k = 0; k < sizeof(show) / sizeof(show[0]); k++)
		for (i = 0; i < r->nmeta; i++)
			if (!strcmp(r->meta[i].key, show[k].key)) {
				if (!any++)
					fputs("monitor:", f);
				fprintf(f, show[k].fmt + (any == 1 && show[k].fmt[0] == ','),
					r->meta[i].val);
			}
	if (any)
		fputc('\n', f);
	for (i = 0; i < r->nmeta; i++)
		if (!strcmp(r->meta[i].key, "monitor_span"))
			fprintf(f, "  over %s\n", r->meta[i].val);
		else if (!strcmp(r->meta[i].key, "monitor_file"))
			fprintf(f, "  series in %s\n", r->meta[i].val);
}
