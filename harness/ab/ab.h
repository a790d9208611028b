/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `vmstat-bench ab`: what cmd_ab.c (the command line) hands to ab/:
 * check.c (what is refused before the first boot), boot.c (the state
 * file, the boots in ABBA order, the progress line), report.c (the
 * verdict and summary.md) and order.c (the ABBA order).  The QEMU side
 * is ci/ab-run.sh.  Only cmd_ab.c and ab/ include this.
 */
#ifndef VSB_AB_H
#define VSB_AB_H

#include <stddef.h>
#include <stdint.h>

#include "guest_shape.h"

struct vsb_run_opts;

#define VSB_AB_BOOTS_MAX	50	/* per side */
#define VSB_AB_BOOTS_DEFAULT	6	/* per side; cmd_ab.c says why */
#define VSB_AB_BOOTS_VERDICT	5	/* fewest a side for a verdict at 0.01 */
/* --max-boots: ABBA pairs are added up to this while a point is undecided */
#define VSB_AB_MAX_BOOTS_DEFAULT	10
#define VSB_AB_SMP_DEFAULT	2
#define VSB_AB_MEM_DEFAULT	1024	/* MB: the page benches hold pages */
#define VSB_AB_TIMEOUT_DEFAULT	1800	/* seconds per boot, TCG included */
#define VSB_AB_FLAVOUR		"cloud-amd64"
#define VSB_AB_SHAPES_MAX	16	/* guests of different shapes a boot may take */
#define VSB_AB_EXACT_VCPUS	64	/* exact mode's plugin: vCPUs it counts */

enum { VSB_AB_BASE, VSB_AB_NEW };

struct vsb_ab_kernel {
	char spec[4096];	/* as given: debian:ABI or BZIMAGE:BUILD_DIR */
	int debian;
	char release[256];	/* uname -r of the guest */
};

struct vsb_ab {
	struct vsb_ab_kernel k[2];
	char sweep[4096];	/* the file as given */
	char sweep_base[256];	/* its name, also the copy's name in DIR */
	char *sweep_text;	/* its bytes, copied into DIR */
	size_t sweep_len;
	uint64_t sweep_hash;
	long boots, smp, mem, timeout;
	long max_boots;		/* --max-boots: boots a side it may grow to */
	long now;		/* boots a side this run has reached (boot.c) */
	long possible, nodes;	/* the guest's shape beside --smp and --mem, 0 for none */
	char cmdline[VSB_GUEST_CMDLINE_MAX];	/* extra kernel parameters, "" none */
	/* the distinct guests the sweep's points need, in the sweep's order */
	struct vsb_guest_shape shapes[VSB_AB_SHAPES_MAX];
	size_t nshapes;
	char max_regression[32];
	char monitor[256];	/* --monitor for the guest's sweep, "" for none */
	char dir[2048];		/* short enough for every path built in it */
	char self[4096];	/* this binary, run again in the guest */
	char script[4096];	/* ci/ab-run.sh */
	char pin[512];		/* host CPUs for vCPU 0..smp-1, "" if none */
	char pin_why[256];
	size_t module_points;	/* the sweep's points that run on the module */
	int resume;		/* DIR holds this ab, some boots done */
	int exact;		/* count instructions (exact mode), not time */
	int mode_given;		/* --exact or --timed said so; else vsb_ab_mode() */
	int boots_given;	/* --boots said how many; else by the mode */
	int max_boots_given;	/* --max-boots said; else by the mode */
	int progress;		/* stderr is a terminal */
	long jobs;		/* boots at once (exact mode only; jobs.c) */
	int lockfd;
};

/* What the run knows of each boot; filled as they finish or are found. */
struct vsb_ab_boot {
	int done;
	int status;		/* the guest sweep's exit status (0 or 3); -1: unreadable */
	double secs;		/* wall time on the host, this run only */
	char accel[16];
	char pinning[256];
	char guest_secs[32];
};

struct vsb_ab_run {
	struct vsb_ab *ab;
	struct vsb_ab_boot b[2 * VSB_AB_BOOTS_MAX];
	long ndone, nthis;	/* boots finished; of those, by this run */
	double secs_this;	/* their wall time */
	int tcg_said;
	int worker;		/* a worker process of jobs.c: one boot, no ab.txt */
	const char *state;
	char *mix_md;		/* exact mode: mix.c's table for summary.md */
	int prepared[2];	/* a side's kernel and module made ready */
	/* the last look's verdict (report.c): its alpha, points undecided */
	double alpha;
	size_t undecided, judged;
	const char *stop;	/* why no boot was added: "decided", "max boots" */
	char headline[512];
};

/*
 * shape.c: ab's own shape (its --smp, --mem, --possible, --nodes,
 * --cmdline) checked and made the default of every point's; each point
 * adds its shape to ab->shapes; the shapes as ci/ab-run.sh reads them
 * (VSB_AB_SHAPES: "SMP MAXCPUS NODES MEM CMDLINE" a line, "none" for
 * no parameters) and as ab.txt and --dry-run say them.
 */
int vsb_ab_shape_defaults(struct vsb_ab *ab);
int vsb_ab_shape_add(struct vsb_ab *ab, const struct vsb_run_opts *o);
void vsb_ab_shapes_env(const struct vsb_ab *ab, char *buf, size_t len);
void vsb_ab_shape_str(const struct vsb_guest_shape *s, char *buf, size_t len);

/* check.c: every refusal before the first boot, then the pinning plan */
int vsb_ab_check(struct vsb_ab *ab);
/* VSB_VM_ACCEL's value: 0, or VSB_EXIT_USAGE after one line */
int vsb_ab_check_accel(void);
/* the mode's limits (exact: 64 vCPUs; timed: --max-boots >= --boots) */
int vsb_ab_check_mode_limits(const struct vsb_ab *ab);
/* ab --check-options: the options alone */
int vsb_ab_check_options(const struct vsb_ab *ab);

/* boot.c */
extern const char *const vsb_ab_side_name[2];
void vsb_ab_order_str(const struct vsb_ab *ab, char *buf, size_t len);
void vsb_ab_pin_str(const struct vsb_ab *ab, char *buf, size_t len);
int vsb_ab_run(struct vsb_ab *ab);
/* side of the i-th boot (0-based) of the ABBA sequence, and its number */
int vsb_ab_side(long i);
long vsb_ab_side_boot(long i);
/* DIR/ab.txt's "key: value"; 0 and @val, or -1 */
int vsb_ab_state_get(const char *dir, const char *key, char *val, size_t len);

/*
 * boot.c's steps, handed to jobs.c (which boot.c calls, so not linked
 * back to): one boot (retried once), a finished boot's folder loaded,
 * ab.txt rewritten.
 */
struct vsb_ab_boot_ops {
	int (*one)(struct vsb_ab_run *r, long i);
	void (*load)(struct vsb_ab_run *r, long i);
	int (*state)(struct vsb_ab_run *r, const char *state);
};
/*
 * jobs.c: the boots not done yet, up to @jobs at once; 0 or VSB_EXIT_*
 * (the failing boot said what failed).  The default --jobs: 1 timed,
 * else as many as the CPUs and the memory this process may use take.
 */
int vsb_ab_boots_parallel(struct vsb_ab_run *r, long jobs,
			  const struct vsb_ab_boot_ops *ops);
long vsb_ab_jobs_default(const struct vsb_ab *ab);

/* report.c: compare's exit status; the look's numbers into @r */
int vsb_ab_compare(struct vsb_ab_run *r);
int vsb_ab_summary(const struct vsb_ab_run *r, int rc);
/* compare's headline, or why there is none, from its exit status @rc */
void vsb_ab_verdict_text(const struct vsb_ab_run *r, int rc, char *buf, size_t len);

/* check.c: the kernel cache folder, in ci/cache.bash's order */
void vsb_ab_cache_dir(const struct vsb_ab *ab, char *buf, size_t len);
/*
 * mode.c: exact or timed, from --exact/--timed or the default (exact
 * unless the guests will run under KVM); VSB_EXIT_USAGE after one line
 * for --exact where KVM is forced.
 */
int vsb_ab_mode(struct vsb_ab *ab);

/*
 * mix.c: exact mode's DIR/mix.csv (none when no point counted insn),
 * and its table for summary.md into r->mix_md (the caller frees it)
 */
int vsb_ab_mix(struct vsb_ab_run *r);
/*
 * profile.c: exact mode's DIR/profile.csv from each side's boot folders,
 * and its table of changed functions appended to r->mix_md; a point
 * without a profile is said and left out.
 */
int vsb_ab_profile(struct vsb_ab_run *r);

#endif /* VSB_AB_H */
