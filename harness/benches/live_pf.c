// SPDX-License-Identifier: GPL-2.0
/*
 * The page-fault and mmap benches, two sets of hooks of the live runner
 * (live.h):
 *
 *   page-fault  map --size of anonymous memory, write one byte to every
 *               page, unmap it (will-it-scale page_fault1): one page
 *               allocation per fault, with its zone and NUMA counter
 *               updates, and the frees at munmap.
 *   mmap        mmap + munmap of --size, never touched (will-it-scale
 *               mmap1/mmap2): no page is allocated; what is left is the
 *               VMA work and the vm_committed_as percpu_counter, whose
 *               batch depends on vm.overcommit_memory (the 003 seed).
 *
 * The check: the /proc/vmstat deltas of the timed window must be at
 * least what the workers say they did, or the result is untrusted.
 * Before that, the check of a run's options (the bench's hook):
 * defaults that depend on the bench, memory the mappings need, and THP
 * when --thp always asks for it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "benches.h"
#include "env.h"
#include "live.h"
#include "meminfo.h"

#define LIVE_STOP_EVERY	256
#define LIVE_PF_LOOPS	1	/* default rounds per sample: 128 MiB is 32768 faults */
#define LIVE_MMAP_LOOPS	10000	/* default mmap+munmap pairs per sample */

enum live_kind { LIVE_PAGEFAULT, LIVE_MMAP };

/*
 * A page-fault worker's own minor faults over its timed samples: the
 * one count of what its mapping got that no other task can add to
 * (thp_fault_alloc is system-wide, and a QEMU beside us faults huge
 * pages all the time).  One fault per page touched: small pages.
 */
struct pf_own {
	uint64_t start, end;	/* ru_minflt before the first timed sample, after the last */
};

struct pf_priv {
	enum live_kind kind;
	struct pf_own *own;	/* MAP_SHARED, one per worker; NULL for mmap */
	unsigned int nworkers;
	size_t size, page;
	int advice;		/* MADV_HUGEPAGE / MADV_NOHUGEPAGE, or -1: none */
	int thp;		/* --thp always */
	unsigned long long loops;
	char mode[32];		/* the system's THP mode */
};

static uint64_t thread_minflt(void)
{
	struct rusage ru;

	/* RUSAGE_THREAD: a thread worker's own, not its siblings' in one mm */
	return getrusage(RUSAGE_THREAD, &ru) ? 0 : (uint64_t)ru.ru_minflt;
}

/*
 * One sample's work; returns the operations done (page faults, or
 * mmap+munmap pairs).  The stores go through a volatile pointer so the
 * compiler cannot drop them: each one is a write fault on a fresh page.
 */
static uint64_t pf_op(struct vsb_live_wctx *w, uint64_t loops)
{
	const struct pf_priv *pf = w->priv;
	unsigned long long i, ops = 0;
	size_t off, n;

	/* one syscall in the first timed sample, beside its thousands of faults */
	if (pf->own && w->rep == 0)
		pf->own[w->index].start = thread_minflt();
	for (i = 0; i < loops; i++) {
		volatile char *p;

		if (i % LIVE_STOP_EVERY == 0 && vsb_live_stopped(w))
			break;
		p = mmap(NULL, pf->size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			vsb_live_fail(w, "mmap");
			break;
		}
		if (pf->kind == LIVE_PAGEFAULT) {
			if (pf->advice >= 0 && madvise((void *)p, pf->size, pf->advice)) {
				vsb_live_fail(w, "madvise");
				munmap((void *)p, pf->size);
				break;
			}
			for (off = 0, n = 0; off < pf->size; off += pf->page, n++) {
				if (n % LIVE_STOP_EVERY == LIVE_STOP_EVERY - 1 &&
				    vsb_live_stopped(w))
					break;
				p[off] = 1;
			}
			ops += n;
		} else {
			ops++;
		}
		if (munmap((void *)p, pf->size)) {
			vsb_live_fail(w, "munmap");
			break;
		}
	}
	return ops;
}

/* after each timed sample, outside its timing: the last one's stays */
static void pf_sample(struct vsb_live_wctx *w, struct vsb_sample *s)
{
	const struct pf_priv *pf = w->priv;

	(void)s;
	if (pf->own)
		pf->own[w->index].end = thread_minflt();
}

/* The workers' own faults, said as metadata; their sum. */
static unsigned long long own_faults(const struct pf_priv *pf, struct vsb_result *r,
				     unsigned long long done)
{
	unsigned long long sum = 0;
	unsigned int i;

	for (i = 0; i < pf->nworkers; i++)
		if (pf->own[i].end >= pf->own[i].start)
			sum += pf->own[i].end - pf->own[i].start;
	vsb_result_meta(r, "live_own_faults",
			"%llu minor faults taken by the workers themselves over the timed "
			"samples (getrusage RUSAGE_THREAD), %.2f per page touched: %s",
			sum, done ? (double)sum / (double)done : 0,
			sum >= done ? "small pages" : "fewer faults than pages: huge pages");
	return sum;
}

/* vm.overcommit_memory in force now (a --sysctl of the run included); -1: unknown */
static long overcommit_policy(void)
{
	long pol;

	return vsb_read_file_long("/proc/sys/vm/overcommit_memory", &pol) ? -1 : pol;
}

/*
 * vm_committed_as_batch for the policy in force now, from the formula
 * of mm_compute_batch() (env.c), and what it means for this mapping:
 * at or past the batch every mmap and munmap takes the counter's
 * spinlock; below it they stay in the per-CPU count.
 */
static void committed_batch(struct vsb_result *r, size_t size, size_t page)
{
	long long ram_kb = vsb_meminfo_kb("MemTotal"), batch, pages = (long long)(size / page);
	int present = vsb_env_count_list("/sys/devices/system/cpu/present");
	long pol = overcommit_policy();
	char line[512];

	if (ram_kb <= 0 || present <= 0 || pol < 0) {
		vsb_result_meta(r, "mmap_committed_batch", "unknown");
		return;
	}
	batch = vsb_committed_as_batch((int)pol,
				       (unsigned long long)ram_kb * 1024 / page, present);
	snprintf(line, sizeof(line),
		 "%lld pages under vm.overcommit_memory=%ld (max(2 x %d CPUs, 32, "
		 "%lld RAM pages / %d CPUs / %d)); a %lld-page mapping %s",
		 batch, pol, present, ram_kb * 1024 / (long long)page, present,
		 pol == 2 ? 256 : 4, pages,
		 pages >= batch ? "exceeds it: every mmap and munmap takes the "
				  "vm_committed_as spinlock" :
				  "stays below it: per-CPU counts only");
	vsb_result_meta(r, "mmap_committed_batch", "%s", line);
	if (isatty(STDERR_FILENO))
		vsb_note("mmap: vm_committed_as batch %s", line);
}

/*
 * A page-fault run's sanity: the system-wide deltas cover the faults the
 * workers report, and (--thp never) the workers' own faults say their
 * pages were small.
 */
static void pf_fault_sanity(const struct pf_priv *pf, struct vsb_result *r,
			    unsigned long long done, unsigned long long faults,
			    unsigned long long allocs)
{
	unsigned long long own = own_faults(pf, r, done);

	r->counted = (long long)(pf->thp ? allocs : faults);
	if (allocs < done || (pf->advice != MADV_HUGEPAGE && faults < done)) {
		r->sanity_ok = 0;
		snprintf(r->sanity, sizeof(r->sanity),
			 "FAILED: /proc/vmstat pgfault +%llu, pgalloc_* +%llu, fewer than "
			 "the %llu page%s the workers report",
			 faults, allocs, done, pf->thp ?
			 "s touched" : " faults");
		return;
	}
	if (!pf->thp && own < done) {
		r->sanity_ok = 0;
		snprintf(r->sanity, sizeof(r->sanity),
			 "FAILED: the workers took %llu faults for %llu pages touched: "
			 "huge pages where small ones were asked for (--thp never)", own, done);
		return;
	}
	snprintf(r->sanity, sizeof(r->sanity),
		 "ok: %llu %s done; /proc/vmstat pgfault +%llu, pgalloc_* +%llu "
		 "(+%.2f%% from page tables and the rest of the system)",
		 done, pf->thp ? "pages touched" : "page faults",
		 faults, allocs, done ? 100.0 * (double)(allocs - done) / (double)done : 0);
	if (pf->thp && own >= done)
		vsb_warn_opt("thp", "--thp always: no huge page was allocated (the workers "
			 "took a fault for every page): the faults were small pages");
}

/*
 * The check that what was counted was done: system-wide deltas can only
 * exceed the workers' own operations (other tasks fault too), never fall
 * short of them.
 */
static void pf_check(void *priv, struct vsb_result *r, const struct vsb_vmstat_snap *a,
		     const struct vsb_vmstat_snap *b, double secs)
{
	const struct pf_priv *pf = priv;
	unsigned long long done = 0, faults = b->pgfault - a->pgfault;
	unsigned long long allocs = b->pgalloc - a->pgalloc;
	size_t i;

	for (i = 0; i < r->nsamples; i++)
		done += r->samples[i].ops;
	vsb_result_meta(r, "live_vmstat_delta",
			"pgfault +%llu, pgalloc_* +%llu, pgfree +%llu, thp_fault_alloc +%llu "
			"over the %.3f s timed window (whole system)", faults, allocs,
			b->pgfree - a->pgfree, b->thp_fault_alloc - a->thp_fault_alloc, secs);
	r->applied = (long long)done;
	if (pf->kind == LIVE_MMAP) {
		r->counted = (long long)done;
		snprintf(r->sanity, sizeof(r->sanity),
			 "ok: %llu mmap+munmap pairs, all succeeded; pgfault +%llu system-wide "
			 "(the mappings are never touched; /proc/vmstat counts no mmaps)",
			 done, faults);
		return;
	}
	pf_fault_sanity(pf, r, done, faults, allocs);
}

static void pf_meta(void *priv, const struct vsb_run_opts *o, struct vsb_result *r,
		    int threads)
{
	const struct pf_priv *pf = priv;
	enum live_kind kind = pf->kind;
	char hs[32];

	vsb_result_meta(r, "live", "%s of %s (%zu pages of %zu bytes) per op round, %s, "
			"%s (THP system mode %s), %llu %s per sample",
			kind == LIVE_PAGEFAULT ? "map, write every page, unmap" :
			"mmap + munmap, untouched", vsb_live_human(pf->size, hs, sizeof(hs)),
			pf->size / pf->page, pf->page,
			threads ? "threads (one shared mm)" : "processes (one mm each)",
			kind == LIVE_PAGEFAULT ? (strcmp(o->thp, "always") ?
			"thp never" : "thp always") : "thp n/a",
			pf->mode[0] ? pf->mode : "none",
			pf->loops, kind == LIVE_PAGEFAULT ? "rounds" : "pairs");
	vsb_result_meta(r, "live_op", "%s",
			kind == LIVE_PAGEFAULT ? "one page fault (4 KiB page touched)" :
			"one mmap + munmap pair");
	if (kind == LIVE_MMAP)
		committed_batch(r, pf->size, pf->page);
}

static void pf_why(void *priv, const char *what, int err, char *buf, size_t len)
{
	const struct pf_priv *pf = priv;
	char hs[32];

	snprintf(buf, len, "%s of %s failed: %s%s", what,
		 vsb_live_human(pf->size, hs, sizeof(hs)), strerror(err),
		 err == ENOMEM && !strcmp(what, "mmap") && overcommit_policy() == 2 ?
		 " (vm.overcommit_memory=2 counts it against CommitLimit)" : "");
}

static int pf_opts(const struct vsb_bench *b, struct vsb_run_opts *o)
{
	unsigned long long size, page = (unsigned long long)sysconf(_SC_PAGESIZE);
	int pf = !strcmp(b->name, "page-fault");
	char mode[32];

	vsb_parse_size(o->size, &size);		/* checked when it was set */
	if (size % page) {
		vsb_err_opt("size", "--size: %s is not a multiple of the page size (%llu)",
			o->size, page);
		return VSB_EXIT_USAGE;
	}
	/* a sample of the counter bench's default 10^6 loops would take hours */
	if (!vsb_opt_given(o, "loops"))
		o->loops = pf ? LIVE_PF_LOOPS : LIVE_MMAP_LOOPS;
	if (!pf) {
		if (vsb_opt_given(o, "thp") && strcmp(o->thp, "never")) {
			vsb_err_opt("thp", "--thp: the mmap bench never touches its mapping; "
				"THP applies to page-fault");
			return VSB_EXIT_USAGE;
		}
		return 0;
	}
	if (vsb_live_size_check(o, size, "touch"))
		return VSB_EXIT_USAGE;
	if (!strcmp(o->thp, "always")) {
		vsb_live_thp_mode(mode, sizeof(mode));
		if (!mode[0] || !strcmp(mode, "never")) {
			vsb_err_opt("thp", "--thp always: transparent huge pages are %s (%s): skipped",
				mode[0] ? "disabled" : "not built into this kernel",
				mode[0] ? THP_ENABLED " says never" : "no " THP_ENABLED);
			return VSB_EXIT_SKIP;
		}
		if (size % (2ull << 20))
			vsb_warn_opt("thp", "--thp always: %s is not a multiple of 2 MiB; the "
				 "rest is mapped with small pages", o->size);
	}
	return 0;
}

static const struct vsb_live_ops pf_ops = {
	.op = pf_op,
	.sample = pf_sample,
	.meta = pf_meta,
	.check = pf_check,
	.why = pf_why,
};

static int pf_run(const struct vsb_run_opts *o, struct vsb_result *r, enum live_kind kind)
{
	struct pf_priv pf = { .kind = kind, .advice = -1 };
	unsigned long long size;
	size_t bytes = 0;
	int ret;

	vsb_parse_size(o->size, &size);
	pf.size = (size_t)size;
	pf.page = (size_t)sysconf(_SC_PAGESIZE);
	pf.loops = (unsigned long long)o->loops;
	/* advise only against the system default, so no needless syscall */
	vsb_live_thp_mode(pf.mode, sizeof(pf.mode));
	if (kind == LIVE_PAGEFAULT && !strcmp(o->thp, "always") && strcmp(pf.mode, "always"))
		pf.advice = MADV_HUGEPAGE;
	else if (kind == LIVE_PAGEFAULT && !strcmp(o->thp, "never") &&
		 !strcmp(pf.mode, "always"))
		pf.advice = MADV_NOHUGEPAGE;
	pf.thp = kind == LIVE_PAGEFAULT && !strcmp(o->thp, "always");
	if (kind == LIVE_PAGEFAULT) {
		pf.nworkers = (unsigned int)o->cpus.n;
		bytes = pf.nworkers * sizeof(*pf.own);
		pf.own = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (pf.own == MAP_FAILED) {
			vsb_err("page-fault: cannot map its fault counts: %s", strerror(errno));
			return VSB_EXIT_ERROR;
		}
	}
	ret = vsb_live_run(o, r, &pf_ops, &pf);
	if (pf.own)
		munmap(pf.own, bytes);
	return ret;
}

static int pagefault_run(const struct vsb_run_opts *o, struct vsb_result *r)
{
	return pf_run(o, r, LIVE_PAGEFAULT);
}

static int mmap_run(const struct vsb_run_opts *o, struct vsb_result *r)
{
	return pf_run(o, r, LIVE_MMAP);
}

/* its point in the text header's words (bench_model.h) */
static void pf_describe(const struct vsb_run_opts *o, FILE *f)
{
	fprintf(f, "size %s, thp %s, tasks %s", o->size, o->thp, o->tasks);
}

/* page-fault's cost and mmap's throughput vs CPUs, a line per sysctl value */
static const struct vsb_sysctl_chart numa_chart = {
	.chart = "live-numa", .sysctl = "vm.numa_stat=", .column = "median",
	.what = "cost, numa\\_stat",
	.help = "page-fault cost vs CPUs, vm.numa_stat off and on",
};
static const struct vsb_sysctl_chart overcommit_chart = {
	.chart = "live-mmap", .sysctl = "vm.overcommit_memory=",
	.column = "ops_per_sec_median", .what = "pairs/s, overcommit",
	.help = "mmap+munmap throughput vs CPUs, by vm.overcommit_memory",
};

const struct vsb_bench vsb_bench_page_fault = {
	.name = "page-fault", .sides = VSB_SIDE_LIVE,
	.desc = "live kernel: map, write every page, unmap (will-it-scale page_fault1)",
	.run_user = pagefault_run, .check = pf_opts,
	.takes = "size thp tasks",
	.model = { .describe = pf_describe, .charts = VSB_CHARTS_SYSCTL,
		   .sysctl_chart = &numa_chart },
};

const struct vsb_bench vsb_bench_mmap = {
	.name = "mmap", .sides = VSB_SIDE_LIVE,
	.desc = "live kernel: mmap + munmap, untouched: vm_committed_as (will-it-scale mmap2)",
	.run_user = mmap_run, .check = pf_opts,
	.takes = "size thp tasks",
	.model = { .describe = pf_describe, .charts = VSB_CHARTS_SYSCTL,
		   .sysctl_chart = &overcommit_chart },
};
