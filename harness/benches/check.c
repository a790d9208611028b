// SPDX-License-Identifier: GPL-2.0
/*
 * Checks of a whole run option set before anything runs: the bench and
 * variant exist, options agree with each other, the CPU list is built
 * and usable, and the bench's own check hook (its descriptor's)
 * accepts it.  Called for the
 * CLI and for every sweep point.  Parsing single values is opts.c's job
 * (lib/); this file knows the benches, so it sits above them.
 */
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "benches.h"
#include "kmod_exact.h"
#include "guest.h"
#include "pmu.h"
#include "topo.h"
#include "bench/variants.h"

/* a refusal by a library check that took "--@opt" as its where */
static int blame(int ret, const char *opt)
{
	if (ret)
		vsb_errlog_blame(opt);
	return ret;
}

/*
 * The CPU list: --cpus as written, or --ncpus workers placed by
 * --placement on this machine's topology.  Giving both is ambiguous.
 */
static int finish_cpus(struct vsb_run_opts *o)
{
	const struct vsb_topo *t;
	char err[256];
	int n;

	if (!vsb_opt_given(o, "ncpus") && !vsb_opt_given(o, "placement"))
		return blame(vsb_cpulist_parse(o->cpus_str, &o->cpus, "--cpus"), "cpus");
	if (vsb_opt_given(o, "cpus")) {
		const char *opt = vsb_opt_given(o, "ncpus") ? "ncpus" : "placement";

		vsb_err_opt(opt, "--%s: give either --cpus or --ncpus/--placement, not both",
			    opt);
		return VSB_EXIT_USAGE;
	}
	t = vsb_topo_get();
	if (!t) {
		vsb_err_opt("ncpus", "--ncpus: cannot read the CPU topology (sysfs); use --cpus");
		return VSB_EXIT_ERROR;
	}
	/* the parser that checked the value (opts.c), never a second one */
	n = 0;
	if (strcmp(o->ncpus, "all")) {
		long v;

		if (vsb_parse_long(o->ncpus, &v) || v < 1 || v > VSB_MAX_CPUS) {
			vsb_err_opt("ncpus", "--ncpus: '%s' is not a worker count "
				    "(1..%d) or 'all'", o->ncpus, VSB_MAX_CPUS);
			return VSB_EXIT_USAGE;
		}
		n = (int)v;
	}
	if (vsb_place(t, o->placement, n, (int)o->allow_oversubscribe, &o->cpus,
		      err, sizeof(err))) {
		vsb_err_opt("ncpus", "--ncpus: %s", err);
		return VSB_EXIT_USAGE;
	}
	vsb_cpulist_format(&o->cpus, o->cpus_str, sizeof(o->cpus_str), ',');
	return 0;
}

/*
 * --guest-*: a bad combination is refused (exit 2) wherever the point is
 * checked, ab's host included, with the fields not asked for taken from
 * ab's defaults or else this machine; the shape is this machine's or the
 * point is skipped (exit 4): in a guest ab booted for another shape, or
 * on a host with no such guest.
 */
static int check_guest_shape(const struct vsb_run_opts *o)
{
	struct vsb_guest_shape want, def;
	char cmdline[4096];

	vsb_guest_shape_of(o, &want);
	if (!vsb_guest_shape_asked(&want))
		return 0;
	if (vsb_guest_shape_default()) {
		def = *vsb_guest_shape_default();
	} else {
		/* only its vCPUs: its own possible CPUs, nodes, parameters are no limit */
		vsb_guest_this(&def, cmdline, sizeof(cmdline));
		def.possible = def.nodes = 0;
		def.cmdline[0] = '\0';
	}
	vsb_guest_shape_merge(&want, &def);
	if (want.mem && want.mem < VSB_GUEST_MEM_MIN) {
		vsb_err_opt("guest-mem", "--guest-mem %ld: a guest needs %d MB at least",
			    want.mem, VSB_GUEST_MEM_MIN);
		return VSB_EXIT_USAGE;
	}
	return vsb_guest_shape_check(&want, 0);
}

/* After every other check: a point of another shape does not run here. */
static int guest_shape_here(const struct vsb_run_opts *o, int ret)
{
	struct vsb_guest_shape want;
	char why[256];

	vsb_guest_shape_of(o, &want);
	if ((ret && ret != VSB_EXIT_SKIP) || !vsb_guest_shape_asked(&want) ||
	    vsb_guest_matches(&want, why, sizeof(why)))
		return ret;
	vsb_err_opt("guest-cpus", "another guest shape: the point needs %s: skipped "
		    "(`vmstat-bench ab` boots a guest of each shape in a sweep)", why);
	return VSB_EXIT_SKIP;
}

/*
 * Checks that need more than one option, and derived fields.  Called for
 * the CLI and for every sweep point before anything runs.
 */
int vsb_run_opts_finish(struct vsb_run_opts *o)
{
	const struct vsb_bench *b = vsb_bench_find(o->bench);
	int i, ret;

	if (!b) {
		vsb_err_opt("bench", "--bench: unknown bench '%s' (see `vmstat-bench list`)", o->bench);
		return VSB_EXIT_USAGE;
	}
	o->variant_id = -1;
	o->op_id = -1;
	if (b->flags & VSB_BENCH_VARIANTS) {
		for (i = 0; i < VSB_V_NR; i++)
			if (!strcmp(vsb_variants[i].name, o->variant))
				o->variant_id = i;
		if (o->variant_id < 0) {
			vsb_err_opt("variant", "--variant: unknown variant '%s' (see `vmstat-bench list`)",
				o->variant);
			return VSB_EXIT_USAGE;
		}
	}
	if (vsb_width_index((unsigned int)o->diff_bits) < 0) {
		vsb_err_opt("diff-bits", "--diff-bits: %ld is not 8, 16 or 32", o->diff_bits);
		return VSB_EXIT_USAGE;
	}
	if (o->variant_id >= 0) {
		unsigned int f = vsb_variants[o->variant_id].flags;

		if (f & VSB_VF_PCC)
			o->diff_bits = 32;	/* percpu_counter counts are s32 */
		if (f & VSB_VF_NOTHRESH)
			o->threshold = 0;
	}
	if (o->threshold > vsb_threshold_max((unsigned int)o->diff_bits)) {
		vsb_err_opt("threshold", "--threshold: %ld does not fit a %ld-bit diff (at most %ld)",
			o->threshold, o->diff_bits,
			vsb_threshold_max((unsigned int)o->diff_bits));
		return VSB_EXIT_USAGE;
	}
	if (o->delta == 0) {
		vsb_err_opt("delta", "--delta: must not be 0");
		return VSB_EXIT_USAGE;
	}
	ret = check_guest_shape(o);
	if (ret)
		return ret;
	ret = finish_cpus(o);
	if (ret)
		return ret;
	ret = blame(vsb_cpulist_check_usable(&o->cpus, "--cpus"), "cpus");
	if (ret)
		return ret;
	if (o->quiet_workers >= o->cpus.n) {
		vsb_err_opt("quiet-workers", "--quiet-workers: %ld leaves no worker updating (%d CPUs)",
			o->quiet_workers, o->cpus.n);
		return VSB_EXIT_USAGE;
	}
	/* a typo in an event name is bad input; the default set may not encode */
	if (vsb_opt_given(o, "events")) {
		ret = blame(vsb_pmu_check_names(o->events, o->plm, "--events"),
			    "events");
		if (ret)
			return ret;
	}
	if (vsb_opt_given(o, "output") && !o->output[0]) {
		vsb_err_opt("output", "--output: empty file name (leave -o out to print to stdout)");
		return VSB_EXIT_USAGE;
	}
	if (!o->format[0]) {
		const char *dot = strrchr(o->output, '.');

		strcpy(o->format, dot && !strcmp(dot, ".csv") ? "csv" :
				  dot && !strcmp(dot, ".json") ? "json" : "text");
	}
	ret = vsb_bench_check(b, o);
	if (!ret)
		ret = vsb_kmod_exact_check(o);
	return guest_shape_here(o, ret);
}
