// SPDX-License-Identifier: GPL-2.0
/*
 * The loader of vmstat_trace.bpf.c: resolve vmstat_update(), open the
 * skeleton, set the address in rodata, load, attach, and read the
 * per-CPU counters into snapshots whose differences are windows.  The
 * program stays loaded for the life of the process, so a sweep with
 * --trace pays the load (tens of ms, BTF parsing) once, not per point.
 *
 * Without VSB_HAVE_BPF (no clang, bpftool, libbpf or BTF at build time)
 * the same entry points exist and say what is missing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "clock.h"
#include "result.h"
#include "trace.h"
#include "vmstat_trace.h"

#define BTF_PATH "/sys/kernel/btf/vmlinux"

uint64_t vsb_trace_vmstat_update_addr(void)
{
	char line[512], type, name[256];
	unsigned long long addr;
	uint64_t found = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		/* "ffffffff815d40f0 t vmstat_update", no module suffix */
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if ((type == 't' || type == 'T') && !strcmp(name, "vmstat_update")) {
			found = addr;
			break;
		}
	}
	fclose(f);
	return found;
}

void vsb_trace_diff(const struct vsb_trace_snap *a, const struct vsb_trace_snap *b,
		    struct vsb_trace_snap *d)
{
	int i;

	memset(d, 0, sizeof(*d));
	d->t_ns = b->t_ns - a->t_ns;
	d->ncpus = b->ncpus;
	for (i = 0; i < b->ncpus && i < VSB_MAX_CPUS; i++) {
		d->work[i] = b->work[i] - a->work[i];
		d->work_ns[i] = b->work_ns[i] - a->work_ns[i];
	}
	d->work_max_ns = b->work_max_ns;
	for (i = 0; i < VSB_TRACE_NSLOTS; i++)
		d->hist[i] = b->hist[i] - a->hist[i];
	for (i = 0; i < VSB_TRACE_NORDERS; i++) {
		d->alloc[i] = b->alloc[i] - a->alloc[i];
		d->freed[i] = b->freed[i] - a->freed[i];
	}
}

/*
 * A log2 histogram in the layout bcc's libbpf-tools made familiar:
 * "low -> high : count |****|", 40 stars for the largest bucket, rows
 * from the first to the last non-empty bucket.
 */
void vsb_print_log2_hist(FILE *f, const uint64_t *slots, int n, const char *unit)
{
	int i, first = -1, last = -1, width = 10, stars;
	uint64_t max = 0;
	char lo[32], hi[32];

	for (i = 0; i < n; i++)
		if (slots[i]) {
			if (first < 0)
				first = i;
			last = i;
			if (slots[i] > max)
				max = slots[i];
		}
	if (last < 0) {
		fprintf(f, "     (no events)\n");
		return;
	}
	snprintf(hi, sizeof(hi), "%llu", last >= 63 ? ~0ull : (2ull << last) - 1);
	if ((int)strlen(hi) > width)
		width = (int)strlen(hi);
	fprintf(f, "%*s%-*s : count    distribution\n", width + 1, unit, width + 3, "");
	for (i = first; i <= last; i++) {
		unsigned long long l = i ? 1ull << i : 0, h = (2ull << i) - 1;
		char bar[41];

		snprintf(lo, sizeof(lo), "%llu", l);
		snprintf(hi, sizeof(hi), "%llu", h);
		stars = (int)((slots[i] * 40 + max - 1) / max);
		memset(bar, '*', (size_t)stars);
		bar[stars] = '\0';
		fprintf(f, "%*s -> %-*s : %-8llu |%-40s|\n", width, lo, width, hi,
			(unsigned long long)slots[i], bar);
	}
}

#ifdef VSB_HAVE_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "vmstat_trace.skel.h"

static struct vmstat_trace *skel;
static int ncpus;
static struct vsb_trace_cpu *percpu;	/* ncpus values, one read */
/* the monitor's sampler thread and --trace's marks both snapshot */
static pthread_mutex_t percpu_lock = PTHREAD_MUTEX_INITIALIZER;
static char last_libbpf[256];

/* libbpf's chatter: keep the last warning for our one-line error. */
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG && !getenv("VSB_BPF_DEBUG"))
		return 0;
	if (getenv("VSB_BPF_DEBUG"))
		return vfprintf(stderr, fmt, ap);
	vsnprintf(last_libbpf, sizeof(last_libbpf), fmt, ap);
	last_libbpf[strcspn(last_libbpf, "\n")] = '\0';
	return 0;
}

int vsb_trace_available(char *why, size_t len)
{
	if (access(BTF_PATH, R_OK)) {
		snprintf(why, len, "this kernel has no BTF (%s): BPF CO-RE cannot load",
			 BTF_PATH);
		return VSB_EXIT_SKIP;
	}
	if (geteuid() != 0) {
		snprintf(why, len, "BPF tracing needs root (CAP_BPF and CAP_PERFMON)");
		return VSB_EXIT_SKIP;
	}
	if (!vsb_trace_vmstat_update_addr()) {
		snprintf(why, len, "vmstat_update is not in /proc/kallsyms "
			 "(or its address is hidden: kernel.kptr_restrict)");
		return VSB_EXIT_SKIP;
	}
	return 0;
}

int vsb_trace_open(void)
{
	char why[256];
	uint64_t addr;
	int err;

	if (skel)
		return 0;
	if (vsb_trace_available(why, sizeof(why))) {
		vsb_err("trace: %s", why);
		return VSB_EXIT_SKIP;
	}
	libbpf_set_print(libbpf_print);
	addr = vsb_trace_vmstat_update_addr();
	ncpus = libbpf_num_possible_cpus();
	if (ncpus <= 0 || ncpus > VSB_MAX_CPUS) {
		vsb_err("trace: cannot count the possible CPUs (%d)", ncpus);
		return VSB_EXIT_ERROR;
	}
	percpu = vsb_zalloc((size_t)ncpus * sizeof(*percpu));
	skel = vmstat_trace__open();
	if (!skel) {
		vsb_err("trace: cannot open the BPF object: %s", strerror(errno));
		goto err_free;
	}
	skel->rodata->targ_vmstat_update = addr;
	err = vmstat_trace__load(skel);
	if (err) {
		vsb_err("trace: the kernel refused the BPF program: %s (%s)",
			strerror(-err), last_libbpf);
		goto err_destroy;
	}
	err = vmstat_trace__attach(skel);
	if (err) {
		vsb_err("trace: cannot attach to the workqueue/kmem tracepoints: %s (%s)",
			strerror(-err), last_libbpf);
		goto err_destroy;
	}
	return 0;

err_destroy:
	vmstat_trace__destroy(skel);
	skel = NULL;
err_free:
	free(percpu);
	percpu = NULL;
	return VSB_EXIT_ERROR;
}

int vsb_trace_snapshot(struct vsb_trace_snap *s)
{
	__u32 zero = 0;
	int i, k;

	memset(s, 0, sizeof(*s));
	if (!skel)
		return VSB_EXIT_ERROR;
	pthread_mutex_lock(&percpu_lock);
	if (bpf_map__lookup_elem(skel->maps.counts, &zero, sizeof(zero), percpu,
				 (size_t)ncpus * sizeof(*percpu), 0)) {
		pthread_mutex_unlock(&percpu_lock);
		vsb_err("trace: cannot read the counters: %s", strerror(errno));
		return VSB_EXIT_ERROR;
	}
	s->t_ns = vsb_now_ns();
	s->ncpus = ncpus;
	for (i = 0; i < ncpus; i++) {
		const struct vsb_trace_cpu *c = &percpu[i];

		s->work[i] = c->work;
		s->work_ns[i] = c->work_ns;
		if (c->work_max_ns > s->work_max_ns)
			s->work_max_ns = c->work_max_ns;
		for (k = 0; k < VSB_TRACE_NSLOTS; k++)
			s->hist[k] += c->hist[k];
		for (k = 0; k < VSB_TRACE_NORDERS; k++) {
			s->alloc[k] += c->alloc[k];
			s->freed[k] += c->freed[k];
		}
	}
	pthread_mutex_unlock(&percpu_lock);
	return 0;
}

#else /* !VSB_HAVE_BPF */

int vsb_trace_available(char *why, size_t len)
{
	snprintf(why, len, "vmstat-bench was built without BPF (the build needs "
		 "clang, bpftool, libbpf-dev and /sys/kernel/btf/vmlinux: "
		 "`make deps && make`)");
	return VSB_EXIT_SKIP;
}

int vsb_trace_open(void)
{
	char why[256];

	vsb_trace_available(why, sizeof(why));
	vsb_err("trace: %s", why);
	return VSB_EXIT_SKIP;
}

int vsb_trace_snapshot(struct vsb_trace_snap *s)
{
	memset(s, 0, sizeof(*s));
	return VSB_EXIT_SKIP;
}

#endif /* VSB_HAVE_BPF */

/* ---- --trace around a bench run ---- */

static struct vsb_trace_snap win_a, win_b;
static int win_active, win_marked;

int vsb_trace_window_begin(struct vsb_result *r)
{
	int ret = vsb_trace_open();

	(void)r;
	if (ret)
		return ret;
	win_marked = 0;
	ret = vsb_trace_snapshot(&win_a);
	win_active = !ret;
	return ret;
}

void vsb_trace_mark_begin(void)
{
	if (win_active && !vsb_trace_snapshot(&win_a))
		win_marked = 1;
}

void vsb_trace_mark_end(void)
{
	if (win_active && win_marked && vsb_trace_snapshot(&win_b))
		win_marked = 0;
}

/* "cpu0=3 cpu1=2" style lists of @r's window counts, over the run's CPUs. */
static void write_trace_meta(struct vsb_result *r)
{
	char work[2048], rate[2048], us[2048], alloc[512], freed[512];
	size_t ow = 0, orate = 0, ous = 0, oa = 0, of = 0;
	const struct vsb_cpulist *cl = &r->opts.cpus;
	const struct vsb_trace_snap *d = r->trace;
	double secs = (double)d->t_ns / 1e9;
	int i;

	work[0] = rate[0] = us[0] = alloc[0] = freed[0] = '\0';
	for (i = 0; i < cl->n; i++) {
		int c = cl->cpu[i];

		if (c >= d->ncpus)
			continue;
		ow += (size_t)snprintf(work + ow, sizeof(work) - ow, "%scpu%d=%llu",
				       i ? " " : "", c, (unsigned long long)d->work[c]);
		orate += (size_t)snprintf(rate + orate, sizeof(rate) - orate,
					  "%scpu%d=%.3f", i ? " " : "", c,
					  secs > 0 ? (double)d->work[c] / secs : 0);
		ous += (size_t)snprintf(us + ous, sizeof(us) - ous, "%scpu%d=%.1f",
					i ? " " : "", c, (double)d->work_ns[c] / 1e3);
		if (ow >= sizeof(work) || orate >= sizeof(rate) || ous >= sizeof(us))
			break;
	}
	for (i = 0; i < VSB_TRACE_NORDERS; i++) {
		if (!d->alloc[i] && !d->freed[i])
			continue;
		oa += (size_t)snprintf(alloc + oa, sizeof(alloc) - oa, "%so%d=%llu",
				       oa ? " " : "", i, (unsigned long long)d->alloc[i]);
		of += (size_t)snprintf(freed + of, sizeof(freed) - of, "%so%d=%llu",
				       of ? " " : "", i, (unsigned long long)d->freed[i]);
		if (oa >= sizeof(alloc) || of >= sizeof(freed))
			break;
	}
	vsb_result_meta(r, "trace_window", "%.3f s (%s), BPF tp_btf workqueue + kmem",
			secs, r->trace_timed ? "the timed samples" : "the whole bench run");
	vsb_result_meta(r, "trace_vmstat_update_per_cpu", "%s", work);
	vsb_result_meta(r, "trace_vmstat_update_per_sec_per_cpu", "%s", rate);
	vsb_result_meta(r, "trace_vmstat_update_us_per_cpu", "%s", us);
	vsb_result_meta(r, "trace_page_alloc_by_order", "%s", alloc[0] ? alloc : "none");
	vsb_result_meta(r, "trace_page_free_by_order", "%s", freed[0] ? freed : "none");
}

void vsb_trace_window_end(struct vsb_result *r, int ret)
{
	if (!win_active)
		return;
	win_active = 0;
	if (ret)
		return;
	if (!win_marked && vsb_trace_snapshot(&win_b))
		return;
	free(r->trace);
	r->trace = vsb_zalloc(sizeof(*r->trace));
	vsb_trace_diff(&win_a, &win_b, r->trace);
	r->trace_timed = win_marked;
	write_trace_meta(r);
	win_marked = 0;
}

/* Window @s added to the sum @d: durations, per-CPU work, histograms, pages. */
static void add_window(struct vsb_trace_snap *d, const struct vsb_trace_snap *s)
{
	int i;

	d->t_ns += s->t_ns;
	for (i = 0; i < VSB_MAX_CPUS; i++) {
		d->work[i] += s->work[i];
		d->work_ns[i] += s->work_ns[i];
	}
	if (s->work_max_ns > d->work_max_ns)
		d->work_max_ns = s->work_max_ns;
	for (i = 0; i < VSB_TRACE_NSLOTS; i++)
		d->hist[i] += s->hist[i];
	for (i = 0; i < VSB_TRACE_NORDERS; i++) {
		d->alloc[i] += s->alloc[i];
		d->freed[i] += s->freed[i];
	}
	if (s->ncpus > d->ncpus)
		d->ncpus = s->ncpus;
}

/*
 * The windows of a sweep's rounds add up: their durations, per-CPU work
 * and histograms, allocations and frees; the rate is then over the sum.
 */
void vsb_trace_merge(struct vsb_result *dst, const struct vsb_result *src)
{
	struct vsb_trace_snap *d = dst->trace;
	const struct vsb_trace_snap *s = src->trace;

	if (!s)
		return;
	if (!d) {	/* the first window with one: the sum so far */
		dst->trace = d = vsb_zalloc(sizeof(*d));
		*d = *s;
		dst->trace_timed = src->trace_timed;
	} else {
		add_window(d, s);
		dst->trace_timed &= src->trace_timed;
	}
	write_trace_meta(dst);
}
