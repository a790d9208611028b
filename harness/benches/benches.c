// SPDX-License-Identifier: GPL-2.0
/*
 * The bench table and backend selection.  A bench's descriptor (its
 * own file's) names the functions that run it on each side; variants
 * are checked against the side here, once, so no runner has to
 * special-case one.
 */
#include <string.h>
#include <unistd.h>

#include "benches.h"
#include "clock.h"
#include "cgroup.h"
#include "kmod_client.h"
#include "scratch.h"
#include "sysctl.h"
#include "bpf/trace.h"
#include "kmod_abi.h"

/*
 * The bench table: one row per bench, in `vmstat-bench list` order, each
 * naming the descriptor vsb_bench_<id> that the bench's own file
 * defines (benches.h).  A new bench is its file and a row here.
 */
#define VSB_BENCH_TABLE(row)	\
	row(counter)		\
	row(page_fault)		\
	row(mmap)		\
	row(page_alloc)		\
	row(page_alloc_parallel) \
	row(kstat)		\
	row(stat_refresh)	\
	row(spawn)		\
	row(fallocate)		\
	row(memcg_stat_read)	\
	row(isolated)		\
	row(threshold_refresh)

#define BENCH_EXTERN(id)	extern const struct vsb_bench vsb_bench_##id;
#define BENCH_ROW(id)		&vsb_bench_##id,

VSB_BENCH_TABLE(BENCH_EXTERN)

const struct vsb_bench *const vsb_benches[] = { VSB_BENCH_TABLE(BENCH_ROW) };
const size_t vsb_bench_count = sizeof(vsb_benches) / sizeof(vsb_benches[0]);

const struct vsb_bench *vsb_bench_find(const char *name)
{
	size_t i;

	for (i = 0; i < vsb_bench_count; i++)
		if (!strcmp(vsb_benches[i]->name, name))
			return vsb_benches[i];
	return NULL;
}

static const struct vsb_bench_model *model_of(const char *name)
{
	const struct vsb_bench *b = vsb_bench_find(name);

	return b ? &b->model : NULL;
}

/*
 * The layers below (lib/model, lib/charts, lib/judge) find a bench's
 * model by its name through bench_model.c, which cannot call up here:
 * told where the table is before main(), so every command, and every
 * test that links the benches, sees the same models.
 */
__attribute__((constructor)) static void models_downwards(void)
{
	vsb_bench_models_set(model_of, vsb_benches[0]->name);
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

/* Of @other's options, the first given that @b does not take; NULL: none. */
static const char *not_taken(const struct vsb_bench *b, const char *other,
			     const struct vsb_run_opts *o, char *name, size_t len)
{
	const char *p;
	size_t n;

	for (p = other; *p; p += n + !!p[n]) {
		n = strcspn(p, " ");
		snprintf(name, len, "%.*s", (int)n, p);
		if (vsb_opt_given(o, name) && !word_in(b->takes, name, n))
			return name;
	}
	return NULL;
}

/*
 * Every option some bench takes (its descriptor's takes) and this one
 * does not, given, refused by name; an option no bench names is every
 * bench's.
 */
static int check_takes(const struct vsb_bench *b, const struct vsb_run_opts *o)
{
	const char *bad = NULL;
	char name[32];
	size_t i;

	for (i = 0; i < vsb_bench_count && !bad; i++)
		bad = not_taken(b, vsb_benches[i]->takes, o, name, sizeof(name));
	if (!bad)
		return 0;
	vsb_err_opt(bad, "--%s: bench '%s' does not take it (of the options only "
		    "some benches take, it takes: %s)", bad, b->name,
		    *b->takes ? b->takes : "none");
	return VSB_EXIT_USAGE;
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

void vsb_bench_note_tsc(struct vsb_result *r, const char *who)
{
	vsb_result_meta(r, "tsc_hz", "%.0f", vsb_tsc_hz());
	vsb_result_meta(r, "tsc_hz_from", "%s", who);
}

/*
 * A later round is merged whole: the model's figures (samples, sanity,
 * totals, drift), the disturbance line over every round (each round
 * warned for itself), the tracer's counts, and the bench's own lines
 * (its descriptor's merge).  The first round is the point's result as
 * it is, its arrays taken over.
 */
void vsb_bench_take_round(struct vsb_result *dst, struct vsb_result *src,
			  unsigned int done)
{
	const struct vsb_bench *b;

	if (!done) {
		*dst = *src;
		memset(src, 0, sizeof(*src));
		return;
	}
	b = vsb_bench_find(dst->opts.bench);
	vsb_result_merge_round(dst, src, done);
	if (src->dist.on)
		vsb_disturb_report(dst, 0);
	vsb_trace_merge(dst, src);
	if (b && b->merge)
		b->merge(dst, src);
	vsb_result_free(src);
}
