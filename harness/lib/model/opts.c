// SPDX-License-Identifier: GPL-2.0
/*
 * Parsing and checking of the run options, driven by vsb_run_opt_table.
 *
 * Every error names the option (or the sweep file and line) and returns
 * VSB_EXIT_USAGE; nothing runs and nothing is written before the whole
 * option set has been checked.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "bench_model.h"
#include "guest_shape.h"
#include "monitor_spec.h"
#include "opts.h"
#include "pmu_names.h"
#include "sysctl_spec.h"
#include "placement.h"
#include "bench/variants.h"

#define OFF(f) offsetof(struct vsb_run_opts, f)
#define SZ(f) sizeof(((struct vsb_run_opts *)0)->f)

static int check_events(const char *v, const char *where)
{
	char names[VSB_PMU_MAX][VSB_PMU_NAME_LEN];
	int n;

	return vsb_pmu_parse_list(v, names, VSB_PMU_MAX, &n, where);
}

static int check_ncpus(const char *v, const char *where)
{
	long n;

	if (!strcmp(v, "all"))
		return 0;
	if (vsb_parse_long(v, &n) || n < 1 || n > VSB_MAX_CPUS) {
		vsb_err("%s: '%s' is not a worker count (1..%d) or 'all'", where, v,
			VSB_MAX_CPUS);
		return VSB_EXIT_USAGE;
	}
	return 0;
}

/*
 * An option's default as text: its row's, but --bench's is the first
 * bench of the bench table (bench_model.h), which this layer does not
 * name; NULL: none, or computed.
 */
static const char *opt_default(const struct vsb_opt *opt)
{
	if (opt->off == OFF(bench))
		return *vsb_bench_default() ? vsb_bench_default() : NULL;
	return opt->def;
}

const struct vsb_opt vsb_run_opt_table[] = {
	{ "bench", 'b', VSB_OPT_STR, OFF(bench), SZ(bench), 0, 0, NULL,
	  NULL, "NAME", "benchmark to run (see `vmstat-bench list`)", VSB_OPTF_SWEEP, 1 },
	{ "variant", 'V', VSB_OPT_STR, OFF(variant), SZ(variant), 0, 0,
	  "cmpxchg-local", NULL, "NAME", "counter update variant (see `vmstat-bench list`)",
	  VSB_OPTF_SWEEP, 3 },
	{ "backend", 'B', VSB_OPT_CHOICE, OFF(backend), SZ(backend), 0, 0, "user",
	  "user|kmod|auto", "WHERE",
	  "user: harness threads; kmod: the kernel module; auto: kmod if loaded",
	  VSB_OPTF_SWEEP, 2 },
	{ "cpus", 'c', VSB_OPT_CPUS, OFF(cpus_str), SZ(cpus_str), 0, 0, NULL,
	  NULL, "LIST", "one pinned worker per CPU, e.g. 0-3,8 (default: first allowed CPU)",
	  VSB_OPTF_SWEEP, 4 },
	{ "threshold", 't', VSB_OPT_LONG, OFF(threshold), 0, 0, (1L << 31) - 3,
	  "125", NULL, "N", "fold when |diff| > N; at most 125/32765/2^31-3 for 8/16/32-bit diffs",
	  VSB_OPTF_SWEEP, 6 },
	{ "diff-bits", 'w', VSB_OPT_LONG, OFF(diff_bits), 0, 8, 32, "8", NULL,
	  "8|16|32", "width of the per-CPU diff (vm_stat_diff is s8)", VSB_OPTF_SWEEP, 7 },
	{ "items", 'k', VSB_OPT_LONG, OFF(items), 0, 1, VSB_ITEMS_MAX, "1", NULL,
	  "K", "counters updated round-robin (zone stat items)", VSB_OPTF_SWEEP, 8 },
	{ "batch", 0, VSB_OPT_LONG, OFF(batch), 0, 1, VSB_BATCH_MAX, "32", NULL,
	  "N", "percpu-counter batch (percpu_counter_batch is max(32, 2*ncpus))",
	  VSB_OPTF_SWEEP, 9 },
	{ "delta", 'd', VSB_OPT_LONG, OFF(delta), 0, -VSB_DELTA_MAX, VSB_DELTA_MAX,
	  "1", NULL, "N", "added per update; +-1 are inc/dec with the kernel's overstep",
	  VSB_OPTF_SWEEP, 10 },
	{ "loops", 'n', VSB_OPT_LONG, OFF(loops), 0, 1, VSB_LOOPS_MAX, "1000000",
	  NULL, "N", "operations per timed sample, per worker (max 10^9)", VSB_OPTF_SWEEP, 11 },
	{ "repeat", 'r', VSB_OPT_LONG, OFF(repeat), 0, 1, VSB_REPEAT_MAX, "10", NULL,
	  "R", "timed samples per worker (max 1000)", VSB_OPTF_SWEEP, 0 },
	{ "warmup", 'W', VSB_OPT_LONG, OFF(warmup), 0, 0, VSB_WARMUP_MAX, "2", NULL,
	  "W", "untimed samples before the first timed one (max 100)", VSB_OPTF_SWEEP, 0 },
	{ "output", 'o', VSB_OPT_STR, OFF(output), SZ(output), 0, 0, "", NULL,
	  "FILE", "write results to FILE (complete or not at all); table still on stdout", 0, 0 },
	{ "format", 'f', VSB_OPT_CHOICE, OFF(format), SZ(format), 0, 0, NULL,
	  "text|csv|json", "FMT", "output format (default: from -o's suffix, else text)", 0, 0 },
	{ "order", 0, VSB_OPT_LONG, OFF(order), 0, 0, 10, "0", NULL, "N",
	  "page order for page-alloc benches (0..10)", VSB_OPTF_SWEEP, 12 },
	{ "outstanding", 0, VSB_OPT_LONG, OFF(outstanding), 0, 0, 8192, "0", NULL,
	  "N", "page-alloc: keep N pages allocated before freeing (page_bench02)",
	  VSB_OPTF_SWEEP, 13 },
	/* not a sweep key: its commas would make it an axis */
	{ "events", 'e', VSB_OPT_STR, OFF(events), SZ(events), 0, 0,
	  VSB_PMU_DEFAULT_EVENTS, NULL, "LIST",
	  "libpfm4 events counted per batch, one group, e.g. perf::TASK-CLOCK; none: off",
	  0, 0 },
	{ "plm", 0, VSB_OPT_CHOICE, OFF(plm), SZ(plm), 0, 0, "ku", "k|u|ku", "k|u|ku",
	  "privilege levels the events count (kernel on purpose: the cost is there)",
	  VSB_OPTF_SWEEP, 0 },
	{ "allow-multiplex", 0, VSB_OPT_FLAG, OFF(allow_multiplex), 0, 0, 1, NULL,
	  NULL, "", "accept multiplexed (scaled) counters instead of exit 3", 0, 0 },
	{ "placement", 0, VSB_OPT_STR, OFF(placement), SZ(placement), 0, 0,
	  "cores-first", NULL, "POLICY",
	  "with --ncpus: " VSB_PLACEMENTS, VSB_OPTF_SWEEP, 0 },
	{ "ncpus", 'N', VSB_OPT_STR, OFF(ncpus), SZ(ncpus), 0, 0, "1", NULL, "N|all",
	  "N workers placed by --placement (instead of --cpus)", VSB_OPTF_SWEEP, 0 },
	{ "allow-oversubscribe", 0, VSB_OPT_FLAG, OFF(allow_oversubscribe), 0, 0, 1,
	  NULL, NULL, "", "let --ncpus exceed the usable CPUs (workers share CPUs)", 0, 0 },
	/* live benches (live.c), sysctls (sysctl.c), tracing (bpf/trace.c) */
	{ "size", 0, VSB_OPT_STR, OFF(size), SZ(size), 0, 0, "128M", NULL, "BYTES",
	  "page-fault/mmap: mapping size per worker (K/M/G suffixes)", VSB_OPTF_SWEEP, 17 },
	{ "thp", 0, VSB_OPT_CHOICE, OFF(thp), SZ(thp), 0, 0, "never", "never|always",
	  "never|always", "page-fault: transparent huge pages for the mapping (madvise)",
	  VSB_OPTF_SWEEP, 18 },
	{ "tasks", 0, VSB_OPT_CHOICE, OFF(tasks), SZ(tasks), 0, 0, "process",
	  "process|thread", "process|thread",
	  "live benches: workers are processes (own mm) or threads (one shared mm)",
	  VSB_OPTF_SWEEP, 19 },
	{ "sysctl", 0, VSB_OPT_STR, OFF(sysctl), SZ(sysctl), 0, 0, "", NULL,
	  "NAME=V", "set a sysctl for the run, restored after (root); a sweep axis "
	  "in sweep files: sysctl vm.numa_stat=0,1", VSB_OPTF_SWEEP, 20 },
	{ "trace", 0, VSB_OPT_FLAG, OFF(trace), 0, 0, 1, NULL, NULL, "",
	  "count vmstat work and page allocations with BPF into the metadata (root)",
	  VSB_OPTF_SWEEP, 21 },
	/* kernel module backend (kmod_client.c) */
	{ "preempt", 0, VSB_OPT_CHOICE, OFF(preempt), SZ(preempt), 0, 0, "on", "on|off",
	  "on|off", "kmod: off runs each timed batch under preempt_disable()",
	  VSB_OPTF_SWEEP, 14 },
	{ "irqs", 0, VSB_OPT_CHOICE, OFF(irqs), SZ(irqs), 0, 0, "on", "on|off",
	  "on|off", "kmod: off runs each timed batch under local_irq_save()",
	  VSB_OPTF_SWEEP, 15 },
	{ "gfp", 0, VSB_OPT_CHOICE, OFF(gfp), SZ(gfp), 0, 0, "auto",
	  "auto|kernel|atomic", "FLAGS",
	  "kmod page-alloc: kernel (GFP_KERNEL) or atomic (GFP_ATOMIC); auto: atomic "
	  "with preempt/irqs off",
	  VSB_OPTF_SWEEP, 16 },
	{ "time-limit", 0, VSB_OPT_LONG, OFF(time_limit), 0, 1, 600, "60", NULL, "S",
	  "kmod: a longer run is cut with an error (max 600 s)", VSB_OPTF_SWEEP, 0 },
	{ "fold", 0, VSB_OPT_CHOICE, OFF(fold), SZ(fold), 0, 0, "none",
	  "none|local|remote", "POLICY",
	  "who else folds the diffs: local = each writer on a timer (vmstat_update), "
	  "remote = a shepherd thread with xchg (the 002 proposal)", VSB_OPTF_SWEEP, 22 },
	{ "fold-interval-us", 0, VSB_OPT_LONG, OFF(fold_interval_us), 0, 10, 10000000,
	  "1000", NULL, "US", "period of the local or remote fold (10 us .. 10 s)",
	  VSB_OPTF_SWEEP, 23 },
	{ "drift", 0, VSB_OPT_FLAG, OFF(drift), 0, 0, 1, NULL, NULL, "",
	  "sample the shared counters every 100 us: drift (sum of unfolded diffs) "
	  "and staleness", VSB_OPTF_SWEEP, 24 },
	{ "quiet-workers", 0, VSB_OPT_LONG, OFF(quiet_workers), 0, 0, VSB_MAX_CPUS - 1,
	  "0", NULL, "N", "the last N workers stop updating once timing starts and are "
	  "never interrupted (nohz_full CPUs)", VSB_OPTF_SWEEP, 25 },
	{ "model-cpus", 0, VSB_OPT_LONG, OFF(model_cpus), 0, 1, 4096, "1024", NULL,
	  "N", "threshold-refresh: CPUs the modelled machine brings online", VSB_OPTF_SWEEP, 26 },
	{ "model-nodes", 0, VSB_OPT_LONG, OFF(model_nodes), 0, 1, 64, "1", NULL,
	  "N", "threshold-refresh: NUMA nodes of the modelled machine", VSB_OPTF_SWEEP, 27 },
	{ "approach", 0, VSB_OPT_CHOICE, OFF(approach), SZ(approach), 0, 0,
	  "every-online", "every-online|deferred|per-node", "HOW",
	  "threshold-refresh: today's refresh at each online, the 004 patch's one "
	  "deferred refresh, or the review's per-node values", VSB_OPTF_SWEEP, 28 },
	/* not a sweep key: its commas would make it an axis (monitor.c) */
	{ "monitor", 0, VSB_OPT_STR, OFF(monitor), SZ(monitor), 0, 0, "", NULL,
	  "LIST[:INT]", "sample vmstat,interrupts,stat,zoneinfo,buddyinfo,loadavg,trace "
	  "every INT (1 s; >= 100ms) into FILE.monitor.csv beside -o FILE", 0, 0 },
	{ "disturbed", 0, VSB_OPT_CHOICE, OFF(disturbed), SZ(disturbed), 0, 0, "retry",
	  "retry|keep|drop|off", "FATE",
	  "a sample whose batch saw an involuntary switch, migration, run delay, steal "
	  "or an interrupt burst: time it again (3 times at most), keep it marked, drop "
	  "it; off: no bookkeeping", VSB_OPTF_SWEEP, 0 },
	/* the kernel's own statistics functions (benches/kstat.c) */
	{ "op", 0, VSB_OPT_STR, OFF(op), SZ(op), 0, 0, "mod-zone", NULL, "NAME",
	  "kstat: the kernel function timed (see `vmstat-bench list`); spawn: "
	  "fork|posix-spawn; memcg-stat-read: sibling|parent", VSB_OPTF_SWEEP, 29 },
	{ "run-length", 0, VSB_OPT_LONG, OFF(run_length), 0, 1, 1000000, "128", NULL,
	  "L", "kstat: L updates of +delta, then L of -delta: set L against the "
	  "threshold for the folds you want", VSB_OPTF_SWEEP, 30 },
	{ "busy-workers", 0, VSB_OPT_LONG, OFF(busy_workers), 0, 0, VSB_MAX_CPUS - 1,
	  "0", NULL, "N", "kstat: the last N workers only update (percpu-counter-sum: "
	  "they add), untimed; memcg-stat-read: the last N CPUs run the writers", VSB_OPTF_SWEEP, 31 },
	{ "memcg-depth", 0, VSB_OPT_LONG, OFF(memcg_depth), 0, 0, 16, "1", NULL, "N",
	  "memory cgroup levels below the caller's own the run charges to (kstat "
	  "lruvec, fallocate, memcg-stat-read); 0: that one", VSB_OPTF_SWEEP, 32 },
	{ "dirty-pages", 0, VSB_OPT_LONG, OFF(dirty_pages), 0, 0, 262144, "64", NULL, "N",
	  "stat-refresh, isolated: pages each CPU of --cpus faults in (dirtying its "
	  "vmstat diffs) before each sample", VSB_OPTF_SWEEP, 33 },
	/* exact mode (benches/kmod_exact.c, docs/exact.md): no column, the unit says */
	{ "exact", 0, VSB_OPT_FLAG, OFF(exact), 0, 0, 1, NULL, NULL, "",
	  "module benches in a QEMU TCG guest booted for it (ci/kmod-run.sh --exact, ab), "
	  "or the user-space counter under qemu-x86_64 with the plugin (ci/model-check): "
	  "count the instructions of each op and their mix (unit insn), do not time them",
	  VSB_OPTF_SWEEP, 0 },
	/* the guest a point needs (guest_shape.h); ab boots one per shape */
	{ "guest-cpus", 0, VSB_OPT_LONG, OFF(guest_cpus), 0, 0, VSB_GUEST_CPUS_MAX, "0",
	  NULL, "N", "the guest's vCPUs this point needs (ab boots such a guest; "
	  "elsewhere a point of another shape is skipped); 0: any",
	  VSB_OPTF_SWEEP | VSB_OPTF_LATE, 34 },
	{ "guest-possible", 0, VSB_OPT_LONG, OFF(guest_possible), 0, 0,
	  VSB_GUEST_POSSIBLE_MAX, "0", NULL, "N", "the guest's possible CPUs (the "
	  "ones past --guest-cpus there but offline); 0: any", VSB_OPTF_SWEEP | VSB_OPTF_LATE, 35 },
	{ "guest-nodes", 0, VSB_OPT_LONG, OFF(guest_nodes), 0, 0, VSB_GUEST_NODES_MAX, "0",
	  NULL, "N", "the guest's NUMA nodes; 0: any", VSB_OPTF_SWEEP | VSB_OPTF_LATE, 36 },
	{ "guest-mem", 0, VSB_OPT_LONG, OFF(guest_mem), 0, 0, 1L << 20, "0", NULL, "MB",
	  "the guest's memory; 0: any", VSB_OPTF_SWEEP | VSB_OPTF_LATE, 37 },
	{ "guest-cmdline", 0, VSB_OPT_STR, OFF(guest_cmdline), SZ(guest_cmdline), 0, 0,
	  "none", NULL, "ARGS", "extra kernel parameters of the guest (isolcpus=1 "
	  "nohz_full=1 ...); a sweep axis lists them with '|'",
	  VSB_OPTF_SWEEP | VSB_OPTF_LATE | VSB_OPTF_BAR, 38 },
	{ "memcg-count", 0, VSB_OPT_LONG, OFF(memcg_count), 0, 1, 4096, "8", NULL, "N",
	  "memcg-stat-read: sibling memory cgroups, a writer process in each",
	  VSB_OPTF_SWEEP | VSB_OPTF_LATE, 39 },
	{ "gap-ns", 0, VSB_OPT_LONG, OFF(gap_ns), 0, 100, 1000000000, "5000", NULL, "NS",
	  "isolated: a busy-loop iteration longer than this is an interruption",
	  VSB_OPTF_SWEEP | VSB_OPTF_LATE, 40 },
	/* not a sweep key: `sweep --db` imports the whole folder (store.h) */
	{ "db", 0, VSB_OPT_STR, OFF(db), SZ(db), 0, 0, "", NULL, "URL",
	  "import the result into a store once written: an SQLite file, "
	  "postgresql://..., or `default` ($VSB_DB, else results/vmstat-bench.db)",
	  0, 0 },
};
const size_t vsb_run_opt_count = sizeof(vsb_run_opt_table) / sizeof(vsb_run_opt_table[0]);

/* `given` has a bit per row */
_Static_assert(sizeof(vsb_run_opt_table) / sizeof(vsb_run_opt_table[0]) <=
	       8 * sizeof(((struct vsb_run_opts *)0)->given),
	       "more run options than bits in vsb_run_opts.given");

/* the derived parameter column: workers, from the CPU list */
#define COL_NTHREADS	5

size_t vsb_param_columns(struct vsb_param_col *cols, size_t max)
{
	size_t i, n = 0, pos;

	for (pos = 1; n < max; pos++) {
		const struct vsb_opt *opt = NULL;
		char *c;

		for (i = 0; i < vsb_run_opt_count && !opt; i++)
			if (vsb_run_opt_table[i].col == pos)
				opt = &vsb_run_opt_table[i];
		if (!opt && pos != COL_NTHREADS)
			break;
		snprintf(cols[n].name, sizeof(cols[n].name), "%s",
			 opt ? opt->name : "nthreads");
		for (c = cols[n].name; *c; c++)
			if (*c == '-')
				*c = '_';
		cols[n++].opt = opt;
	}
	return n;
}

/* Syntax checks of string options beyond their length, by option name. */
static const struct {
	const char *name;
	int (*check)(const char *value, const char *where);
} value_checks[] = {
	{ "events", check_events },
	{ "placement", vsb_placement_check },
	{ "ncpus", check_ncpus },
	{ "size", vsb_check_size },
	{ "sysctl", vsb_sysctl_check_syntax },
	{ "monitor", vsb_monitor_check },
	{ "guest-cmdline", vsb_guest_cmdline_check },
};

static int check_value(const struct vsb_opt *opt, const char *value,
		       const char *where)
{
	size_t i;

	for (i = 0; i < sizeof(value_checks) / sizeof(value_checks[0]); i++)
		if (!strcmp(value_checks[i].name, opt->name))
			return value_checks[i].check(value, where);
	return 0;
}

int vsb_opt_index(const char *name)
{
	size_t i;

	for (i = 0; i < vsb_run_opt_count; i++)
		if (!strcmp(vsb_run_opt_table[i].name, name))
			return (int)i;
	return -1;
}

int vsb_opt_hashed(const struct vsb_opt *opt, const char *v)
{
	return !(opt->flags & VSB_OPTF_LATE) || !opt->def || strcmp(v, opt->def);
}

/* 1 when option @name was set explicitly (command line or sweep file) */
int vsb_opt_given(const struct vsb_run_opts *o, const char *name)
{
	int i = vsb_opt_index(name);

	return i >= 0 && (o->given >> i) & 1;
}

const struct vsb_opt *vsb_opt_find(const char *name)
{
	int i = vsb_opt_index(name);

	return i < 0 ? NULL : &vsb_run_opt_table[i];
}

static int choice_ok(const char *choices, const char *v)
{
	size_t n = strlen(v);
	const char *p = choices;

	while (p && *p) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);

		if (len == n && !strncmp(p, v, n))
			return 1;
		p = bar ? bar + 1 : NULL;
	}
	return 0;
}

int vsb_opt_set(struct vsb_run_opts *o, const struct vsb_opt *opt,
		const char *value, const char *where)
{
	char *field = (char *)o + opt->off;
	long v;

	switch (opt->kind) {
	case VSB_OPT_FLAG:
		if (!value || !*value || !strcmp(value, "1") || !strcmp(value, "yes") ||
		    !strcmp(value, "true")) {
			v = 1;
		} else if (!strcmp(value, "0") || !strcmp(value, "no") ||
			   !strcmp(value, "false")) {
			v = 0;
		} else {
			vsb_err("%s: '%s' is not yes or no", where, value);
			return VSB_EXIT_USAGE;
		}
		*(long *)field = v;
		break;
	case VSB_OPT_LONG:
		if (vsb_parse_long_range(where, value, opt->min, opt->max, &v))
			return VSB_EXIT_USAGE;
		*(long *)field = v;
		break;
	case VSB_OPT_CHOICE:
		if (!choice_ok(opt->choices, value)) {
			vsb_err("%s: '%s' is not one of %s", where, value, opt->choices);
			return VSB_EXIT_USAGE;
		}
		/* fall through */
	case VSB_OPT_STR:
	case VSB_OPT_CPUS:
		if (strlen(value) >= opt->size) {
			vsb_err("%s: value too long (at most %zu characters)", where,
				opt->size - 1);
			return VSB_EXIT_USAGE;
		}
		if (check_value(opt, value, where))
			return VSB_EXIT_USAGE;
		strcpy(field, value);
		break;
	}
	o->given |= 1ull << (opt - vsb_run_opt_table);
	return 0;
}

void vsb_run_opts_defaults(struct vsb_run_opts *o)
{
	size_t i;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < vsb_run_opt_count; i++) {
		const struct vsb_opt *opt = &vsb_run_opt_table[i];

		if (opt_default(opt))
			vsb_opt_set(o, opt, opt_default(opt), opt->name);
	}
	snprintf(o->cpus_str, sizeof(o->cpus_str), "%d", vsb_cpu_first_allowed());
	o->given = 0;
	o->variant_id = -1;
	o->op_id = -1;
}

void vsb_opt_format(const struct vsb_run_opts *o, const struct vsb_opt *opt,
		    char *buf, size_t len)
{
	const char *field = (const char *)o + opt->off;

	if (opt->kind == VSB_OPT_LONG || opt->kind == VSB_OPT_FLAG)
		snprintf(buf, len, "%ld", *(const long *)field);
	else
		snprintf(buf, len, "%s", field);
}

int vsb_run_opts_parse(struct vsb_run_opts *o, int argc, char **argv)
{
	struct option lopts[64];
	char shorts[128] = "+h";
	size_t i, ns = 2;
	int c, idx, ret;

	for (i = 0; i < vsb_run_opt_count; i++) {
		const struct vsb_opt *opt = &vsb_run_opt_table[i];

		lopts[i].name = opt->name;
		lopts[i].has_arg = opt->kind == VSB_OPT_FLAG ? no_argument :
							      required_argument;
		lopts[i].flag = NULL;
		lopts[i].val = 1000 + (int)i;
		if (opt->short_name) {
			shorts[ns++] = (char)opt->short_name;
			if (opt->kind != VSB_OPT_FLAG)
				shorts[ns++] = ':';
		}
	}
	shorts[ns] = '\0';
	memset(&lopts[i], 0, sizeof(lopts[i]));
	lopts[i].name = "help";
	lopts[i].val = 'h';
	memset(&lopts[i + 1], 0, sizeof(lopts[i + 1]));

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, shorts, lopts, &idx)) != -1) {
		const struct vsb_opt *opt = NULL;
		char where[64];

		if (c == 'h') {
			vsb_run_opts_help(stdout);
			return -1;
		}
		if (c == '?' || c == ':') {
			if (optopt >= 1000)
				vsb_err("--%s needs a value", vsb_run_opt_table[optopt - 1000].name);
			else if (optopt)
				vsb_err("unknown or incomplete option '-%c' (see --help)", optopt);
			else
				vsb_err("unknown option '%s' (see --help)", argv[optind - 1]);
			return VSB_EXIT_USAGE;
		}
		if (c >= 1000) {
			opt = &vsb_run_opt_table[c - 1000];
		} else {
			for (i = 0; i < vsb_run_opt_count; i++)
				if (vsb_run_opt_table[i].short_name == c)
					opt = &vsb_run_opt_table[i];
		}
		snprintf(where, sizeof(where), "--%s", opt->name);
		ret = vsb_opt_set(o, opt, optarg, where);
		if (ret)
			return ret;
	}
	if (optind < argc) {
		vsb_err("unexpected argument '%s' (options take the form --name VALUE)",
			argv[optind]);
		return VSB_EXIT_USAGE;
	}
	return 0;
}

void vsb_run_opts_help(FILE *f)
{
	size_t i;

	fprintf(f,
"usage: vmstat-bench run [options]\n"
"\n"
"Run one benchmark point: one pinned worker per CPU of --cpus, all started\n"
"and stopped together, --repeat timed samples of --loops operations each.\n"
"\n"
"options:\n");
	for (i = 0; i < vsb_run_opt_count; i++) {
		const struct vsb_opt *opt = &vsb_run_opt_table[i];
		char left[64];

		if (opt->short_name)
			snprintf(left, sizeof(left), "-%c, --%s %s", opt->short_name,
				 opt->name, opt->metavar);
		else
			snprintf(left, sizeof(left), "    --%s%s%s", opt->name,
				 opt->metavar[0] ? " " : "", opt->metavar);
		fprintf(f, "  %-28s %s", left, opt->help);
		if (opt_default(opt) && opt_default(opt)[0])
			fprintf(f, " [%s]", opt_default(opt));
		fputc('\n', f);
	}
	fprintf(f,
"  -h, --help                   this text\n"
"\n"
"Integers (every option, CPU numbers, node:N, sysctl values) are decimal:\n"
"an optional '-', no '+', no 0x, no leading zeros (010 is refused, not read\n"
"as 10 or 8), nothing out of range clamped.\n"
"\n"
"examples:\n"
"  vmstat-bench run --variant cmpxchg-locked --cpus 0-1 --threshold 32\n"
"  vmstat-bench run --variant percpu-counter --batch 64 --cpus 0,1 -o pcc.csv\n"
"  vmstat-bench run --variant plain-fold --diff-bits 16 --threshold 4096 --format json\n"
"  vmstat-bench run --ncpus 4 --placement scatter --events cycles,instructions\n"
"  vmstat-bench run --events perf::TASK-CLOCK,perf::CONTEXT-SWITCHES --plm ku\n"
"\n"
"exit status: 0 ok, 1 error, 2 bad option, 3 result failed its sanity check,\n"
"a worker migrated or counters were multiplexed (see --allow-multiplex),\n"
"4 skipped (what is missing is printed).\n");
}
