// SPDX-License-Identifier: GPL-2.0
/*
 * The bench table and backend selection.  A bench names the functions
 * that run it on each side; variants are checked against the side here,
 * once, so no runner has to special-case one.
 */
#include <string.h>
#include <unistd.h>

#include "benches.h"
#include "cgroup.h"
#include "kmod_client.h"
#include "scratch.h"
#include "sysctl.h"
#include "bpf/trace.h"
#include "kmod_abi.h"

const struct vsb_bench vsb_benches[] = {
	{ "counter", VSB_SIDE_USER | VSB_SIDE_KMOD, VSB_BENCH_VARIANTS,
	  "per-CPU counter updates with threshold folds (vmstat diffs, percpu_counter)",
	  vsb_counter_run_user, vsb_counter_run_kmod, vsb_counter_check,
	  "variant threshold diff-bits items batch delta fold fold-interval-us drift "
	  "quiet-workers preempt irqs" },
	{ "page-fault", VSB_SIDE_LIVE, 0,
	  "live kernel: map, write every page, unmap (will-it-scale page_fault1)",
	  vsb_live_pagefault_run, NULL, vsb_live_check,
	  "size thp tasks" },
	{ "mmap", VSB_SIDE_LIVE, 0,
	  "live kernel: mmap + munmap, untouched: vm_committed_as (will-it-scale mmap2)",
	  vsb_live_mmap_run, NULL, vsb_live_check,
	  "size thp tasks" },
	{ "page-alloc", VSB_SIDE_KMOD, 0,
	  "module: alloc_pages + __free_pages on one CPU, --order, --outstanding (page_bench01/02)",
	  NULL, vsb_page_alloc_run_kmod, NULL,
	  "order outstanding gfp preempt irqs" },
	{ "page-alloc-parallel", VSB_SIDE_KMOD, 0,
	  "module: the same loop on every CPU of --cpus in one common window (page_bench03)",
	  NULL, vsb_page_alloc_run_kmod, NULL,
	  "order outstanding gfp preempt irqs" },
	{ "kstat", VSB_SIDE_KMOD, 0,
	  "module: the running kernel's own statistics functions, --op (mod_zone_page_state, ...)",
	  NULL, vsb_kstat_run_kmod, vsb_kstat_check,
	  "op threshold delta batch run-length busy-workers memcg-depth preempt "
	  "irqs" },
	{ "stat-refresh", VSB_SIDE_LIVE, 0,
	  "live kernel: vm.stat_refresh, every CPU's diffs folded, after --cpus dirtied theirs",
	  vsb_stat_refresh_run, NULL, vsb_stat_refresh_check,
	  "dirty-pages" },
	{ "spawn", VSB_SIDE_LIVE, 0,
	  "live kernel: one process created and reaped, --op fork|posix-spawn (unixbench spawn)",
	  vsb_spawn_run, NULL, vsb_spawn_check,
	  "op" },
	{ "fallocate", VSB_SIDE_LIVE, 0,
	  "live kernel: tmpfs fallocate + ftruncate charged --memcg-depth down (will-it-scale fallocate1)",
	  vsb_fallocate_run, NULL, vsb_fallocate_check,
	  "size memcg-depth" },
	{ "memcg-stat-read", VSB_SIDE_LIVE, 0,
	  "live kernel: one memory.stat read among --memcg-count cgroups, --busy-workers writing",
	  vsb_memcg_stat_run, NULL, vsb_memcg_stat_check,
	  "op memcg-depth memcg-count busy-workers" },
	{ "isolated", VSB_SIDE_LIVE, 0,
	  "live kernel: oslat on one CPU after it dirtied its diffs; vmstat_update runs traced",
	  vsb_isolated_run, NULL, vsb_isolated_check,
	  "dirty-pages gap-ns" },
	{ "threshold-refresh", VSB_SIDE_USER, 0,
	  "model: refresh_zone_stat_thresholds at CPU bring-up, per --approach (004 thread)",
	  vsb_refresh_run_user, NULL, NULL,
	  "model-cpus model-nodes approach" },
};
const size_t vsb_bench_count = sizeof(vsb_benches) / sizeof(vsb_benches[0]);

const struct vsb_bench *vsb_bench_find(const char *name)
{
	size_t i;

	for (i = 0; i < vsb_bench_count; i++)
		if (!strcmp(vsb_benches[i].name, name))
			return &vsb_benches[i];
	return NULL;
}

/*
 * Mounts, tracefs instances and memory cgroups a killed run left
 * (scratch.h, cgroup.h): removed by the next run whatever it runs, as
 * its sysctls are put back; once a process, before its first point.
 */
static void sweep_leftovers(void)
{
	static int done;

	if (done++)
		return;
	vsb_scratch_sweep_stale();
	vsb_memcg_sweep_stale();
}

/*
 * --sysctl and --trace, for every bench: a sysctl a killed run left
 * changed is put back first (the state file, sysctl.c), then the new
 * one is checked as far as it can be without writing it.
 */
static int sysctl_and_trace_check(struct vsb_run_opts *o)
{
	char why[256];
	int ret;

	/*
	 * Also without --sysctl: a state file that is refused (not a
	 * regular file, damaged) or a value left changed that cannot be put
	 * back means the machine is not as it should be; measuring on it
	 * would be measuring something else.  (A live run holding the
	 * sysctls is fine: quiet_if_alive says 0.)
	 */
	ret = vsb_sysctl_recover(0, !o->sysctl[0]);
	if (ret)
		return ret;
	sweep_leftovers();
	ret = vsb_sysctl_check(o->sysctl, "--sysctl");
	if (ret)
		vsb_errlog_blame("sysctl");
	if (ret)
		return ret;
	if (o->trace && vsb_trace_available(why, sizeof(why))) {
		vsb_err_opt("trace", "--trace: %s: skipped", why);
		return VSB_EXIT_SKIP;
	}
	return 0;
}

/*
 * The options some benches read and others do not: anything else
 * (--cpus, --loops, --events, --sysctl, ...) every bench takes.
 */
#define VSB_BENCH_OWN_OPTS "variant threshold diff-bits items batch delta order " \
	"outstanding gfp size thp tasks preempt irqs fold fold-interval-us drift " \
	"quiet-workers model-cpus model-nodes approach op run-length busy-workers " \
	"memcg-depth dirty-pages memcg-count gap-ns"

static int word_in(const char *list, const char *w, size_t n)
{
	const char *p = list;

	while ((p = strstr(p, w))) {
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
}

/* Every option this bench does not read, given, refused by name. */
static int check_takes(const struct vsb_bench *b, const struct vsb_run_opts *o)
{
	const char *p = VSB_BENCH_OWN_OPTS;
	char name[32];
	size_t n;

	for (; *p; p += n + !!p[n]) {
		n = strcspn(p, " ");
		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		if (!vsb_opt_given(o, name) || word_in(b->takes, name, n))
			continue;
		vsb_err_opt(name, "--%s: bench '%s' does not take it (of the options "
			    "only some benches take, it takes: %s)", name, b->name,
			    *b->takes ? b->takes : "none");
		return VSB_EXIT_USAGE;
	}
	return 0;
}

/* Resolve --backend auto and check the bench and variant exist there. */
static int own_check(const struct vsb_bench *b, struct vsb_run_opts *o)
{
	return b->check ? b->check(b, o) : 0;
}

int vsb_bench_check(const struct vsb_bench *b, struct vsb_run_opts *o)
{
	unsigned int side;
	int ret;

	ret = check_takes(b, o) ?: sysctl_and_trace_check(o);
	if (ret)
		return ret;
	/* live benches run the kernel's own paths from user space */
	if (b->sides & VSB_SIDE_LIVE) {
		if (!strcmp(o->backend, "kmod")) {
			vsb_err_opt("backend", "--backend: bench '%s' runs the live kernel from user "
				"space: use --backend user or auto", b->name);
			return VSB_EXIT_USAGE;
		}
		strcpy(o->backend, "live");
		return own_check(b, o);
	}
	/* a module-only bench without an explicit --backend: the module */
	if (!b->run_user && b->run_kmod &&
	    !vsb_opt_given(o, "backend"))
		strcpy(o->backend, "kmod");
	if (!strcmp(o->backend, "auto"))
		strcpy(o->backend, b->run_kmod && (access(VSB_KMOD_DEVICE, F_OK) == 0 ||
						   !b->run_user) ? "kmod" : "user");
	side = !strcmp(o->backend, "kmod") ? VSB_SIDE_KMOD : VSB_SIDE_USER;
	if (!(b->sides & side) ||
	    !(side == VSB_SIDE_KMOD ? b->run_kmod : b->run_user)) {
		vsb_err_opt("backend", "--backend: bench '%s' does not run on the %s backend",
			b->name, o->backend);
		return VSB_EXIT_USAGE;
	}
	if (o->variant_id >= 0) {
		const struct vsb_variant_info *v = &vsb_variants[o->variant_id];
		unsigned int vside = side == VSB_SIDE_KMOD ? VSB_SIDE_KMOD : VSB_SIDE_USER;

		if (!(v->sides & vside)) {
			vsb_err_opt("variant", "--variant: %s has no %s form: %s", v->name,
				side == VSB_SIDE_KMOD ? "module" : "user-space",
				v->why_not);
			return VSB_EXIT_USAGE;
		}
	}
	if (side == VSB_SIDE_USER &&
	    (!strcmp(o->preempt, "off") || !strcmp(o->irqs, "off"))) {
		const char *opt = !strcmp(o->irqs, "off") ? "irqs" : "preempt";

		vsb_err_opt(opt, "--%s off: user space cannot disable %s; use --backend kmod",
			opt,
			!strcmp(o->irqs, "off") ? "interrupts" : "preemption");
		return VSB_EXIT_USAGE;
	}
	return own_check(b, o);
}

int vsb_bench_run(const struct vsb_run_opts *o, struct vsb_result *r)
{
	const struct vsb_bench *b = vsb_bench_find(o->bench);
	int ret;

	vsb_result_init(r, o);
	/* sysctl.c and bpf/trace.c: set for this point, counted around it */
	ret = vsb_sysctl_enter(o->sysctl, r);
	if (ret)
		return ret;
	if (o->trace) {
		ret = vsb_trace_window_begin(r);
		if (ret)
			return ret;
	}
	if (!strcmp(o->backend, "kmod"))
		ret = b->run_kmod(o, r);
	else
		ret = b->run_user(o, r);
	if (o->trace)
		vsb_trace_window_end(r, ret);
	return ret;
}
