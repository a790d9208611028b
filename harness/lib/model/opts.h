/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The option table: one row per option of `vmstat-bench run`.  It drives
 * getopt_long, `run --help`, the keys a sweep file accepts, and how each
 * parameter is printed into result files.  Append rows; the order is the
 * order of --help.
 */
#ifndef VSB_OPTS_H
#define VSB_OPTS_H

#include "vsb.h"

enum vsb_opt_kind {
	VSB_OPT_LONG,		/* integer in [min, max] */
	VSB_OPT_STR,		/* free string (a path) */
	VSB_OPT_CHOICE,		/* one of choices, '|'-separated */
	VSB_OPT_CPUS,		/* CPU list */
	VSB_OPT_FLAG,		/* no value on the command line; stored as long 0/1.
				 * vsb_opt_set: NULL, "", 1/yes/true -> 1, 0/no/false -> 0 */
};

/* Where an option is accepted. */
#define VSB_OPTF_SWEEP	0x1u	/* a sweep file may set it (and make it an axis) */
#define VSB_OPTF_BAR	0x2u	/* a sweep axis lists its values with '|' (they hold commas) */
/*
 * In a sweep point's id and match hash only when set away from its
 * default: options appended after sweeps were run leave their ids (and
 * --resume's checks) as they were.
 */
#define VSB_OPTF_LATE	0x4u

struct vsb_run_opts {
	char bench[32];
	char variant[32];
	char backend[16];
	char cpus_str[256];
	long threshold;
	long diff_bits;
	long items;
	long batch;
	long delta;
	long loops;
	long repeat;
	long warmup;
	char output[4096];
	char format[8];
	long order;
	long outstanding;
	char events[512];	/* libpfm4 names, comma-separated, or "none" */
	char plm[4];		/* k | u | ku */
	long allow_multiplex;
	char placement[32];	/* compact|scatter|cores-first|node:N */
	char ncpus[16];		/* N or "all"; with --placement builds cpus */
	long allow_oversubscribe;
	char preempt[4];	/* kmod: on|off, preemption in the timed loop */
	char irqs[4];		/* kmod: on|off, interrupts in the timed loop */
	char gfp[8];		/* kmod page benches: auto|kernel|atomic */
	long time_limit;	/* kmod: seconds a run may take */
	/* live benches, sysctls and tracing (live.c, sysctl.c, bpf/trace.c) */
	char size[24];		/* mapping size per worker: 4096, 64K, 128M, 1G */
	char thp[8];		/* never | always (madvise) */
	char tasks[8];		/* process | thread */
	char sysctl[256];	/* NAME=VALUE set for the run, "" for none */
	long trace;		/* BPF counts of vmstat work into the metadata */
	/* the accuracy side (drift.c) */
	char fold[8];		/* none | local | remote */
	long fold_interval_us;	/* how often the local timer / shepherd folds */
	long drift;		/* run the reader: drift and staleness */
	long quiet_workers;	/* the last N workers stop updating when timing starts */
	/* the threshold-refresh model (refresh_bench.c) */
	long model_cpus;
	long model_nodes;
	char approach[16];	/* every-online | deferred | per-node */
	/* monitors during the run (monitor.c): "" off, else LIST[:INTERVAL] */
	char monitor[128];
	/* what becomes of a disturbed sample (disturb.c): retry|keep|drop|off */
	char disturbed[8];
	/* the store `run` imports its result into (store.h); "" none */
	char db[512];
	/* the kernel's own statistics functions (benches/kstat.c) */
	char op[24];		/* a row of bench/kstat_ops.h */
	long run_length;	/* +delta this often, then -delta as often */
	long busy_workers;	/* the last N workers only update, untimed */
	long memcg_depth;	/* levels below the memory cgroup root */
	/* the guest a point needs (guest_shape.h): 0 / "none" for any */
	long guest_cpus;
	long guest_possible;
	long guest_nodes;
	long guest_mem;
	char guest_cmdline[256];
	/* memcg-stat-read: cgroups with a writer each; isolated: a gap */
	long memcg_count;
	long gap_ns;
	long dirty_pages;	/* stat-refresh: pages each CPU dirties first */
	long exact;		/* count instructions (a TCG guest), not time */

	/* derived by vsb_run_opts_finish() */
	struct vsb_cpulist cpus;
	int variant_id;		/* index into vsb_variants, -1 if none */
	int op_id;		/* index into vsb_kstat_ops, -1 if none */
	unsigned long long given; /* bit i: table row i set explicitly */
};

struct vsb_opt {
	const char *name;
	int short_name;
	enum vsb_opt_kind kind;
	size_t off;		/* into struct vsb_run_opts */
	size_t size;		/* string capacity */
	long min, max;
	const char *def;	/* default, as text; NULL: computed */
	const char *choices;
	const char *metavar;
	const char *help;
	unsigned int flags;
	/*
	 * Position of the option's parameter column in result files (1 =
	 * first), 0 for none.  Result writers and compare's matching both
	 * read the columns from here, so the two cannot drift apart.
	 */
	unsigned int col;
};

/* One parameter column of a result file, in file order. */
struct vsb_param_col {
	char name[32];			/* CSV name: the option's, '-' as '_' */
	const struct vsb_opt *opt;	/* NULL for derived ones (nthreads) */
};
#define VSB_PARAM_COLS_MAX	64
/* The parameter columns in file order; returns how many. */
size_t vsb_param_columns(struct vsb_param_col *cols, size_t max);

extern const struct vsb_opt vsb_run_opt_table[];
extern const size_t vsb_run_opt_count;

const struct vsb_opt *vsb_opt_find(const char *name);
int vsb_opt_index(const char *name);
int vsb_opt_given(const struct vsb_run_opts *o, const char *name);
/*
 * 1 when @opt, whose value (vsb_sweep_opt_value) is @v, goes into a sweep
 * point's id and match hashes: all but a VSB_OPTF_LATE one at its default
 */
int vsb_opt_hashed(const struct vsb_opt *opt, const char *v);
void vsb_run_opts_defaults(struct vsb_run_opts *o);
int vsb_opt_set(struct vsb_run_opts *o, const struct vsb_opt *opt,
		const char *value, const char *where);
int vsb_run_opts_parse(struct vsb_run_opts *o, int argc, char **argv);
void vsb_opt_format(const struct vsb_run_opts *o, const struct vsb_opt *opt,
		    char *buf, size_t len);
void vsb_run_opts_help(FILE *f);

#endif /* VSB_OPTS_H */
