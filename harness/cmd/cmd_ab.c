// SPDX-License-Identifier: GPL-2.0
/*
 * `vmstat-bench ab --base KERNEL --new KERNEL SWEEP -o DIR`: two kernels,
 * each booted several times in ABBA order with the module loaded, the
 * sweep run in every boot, and compare's verdict at the end.
 *
 * This file is the command line; ab/check.c refuses what can be refused
 * before the first boot, ab/boot.c runs the boots, ab/report.c gives
 * the verdict, and ci/ab-run.sh is the QEMU side.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ab.h"
#include "cost_host.h"
#include "cmds.h"
#include "monitor.h"
#include "sweep.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: vmstat-bench ab --base KERNEL --new KERNEL [--boots N] [--max-boots M]\n"
"                       [--smp N] [--mem MB] [--possible N] [--nodes N]\n"
"                       [--cmdline ARGS] [--exact | --timed]\n"
"                       [--max-regression PCT] [--timeout S]\n"
"                       [--monitor LIST[:INTERVAL]] [--jobs N] [--dry-run]\n"
"                       SWEEP [-o DIR]\n"
"\n"
"A/B test of two kernels: the module is built for each, the kernels are\n"
"booted alternately in ABBA order (N boots each) in QEMU guests, the sweep\n"
"runs with the module loaded in every boot, and compare judges BASE's\n"
"boots against NEW's, each boot one run.\n"
"\n"
"KERNEL is debian:ABI (a Debian cloud kernel the package lists know, e.g.\n"
"debian:6.1.0-57, debian:6.12.117+deb12; fetched into the machine's cache,\n"
"~/.cache/vmstat-bench/vm/ (VSB_VM_CACHE moves it), nothing installed) or\n"
"BZIMAGE:BUILD_DIR (a kernel you built; BUILD_DIR is where\n"
"`make bzImage modules_prepare` ran, its release must be the bzImage's).\n"
"\n"
"options:\n"
"      --base KERNEL         the kernel to compare against\n"
"      --new KERNEL          the kernel under test\n"
"  -b, --boots N             boots per kernel (1..%d) [%d; exact mode 1]: timed,\n"
"                            with fewer than 5 no rank test over boots can\n"
"                            reach p < 0.01\n"
"      --max-boots M         while a point is undecided (inconclusive, or\n"
"                            too few boots), add ABBA pairs up to M boots a\n"
"                            side (N..%d) [%d, or N when larger; exact mode\n"
"                            N]; each look tests at its share of alpha 0.01\n"
"                            (the first half of it, the later looks the rest)\n"
"      --smp N               guest CPUs [%d]; pinned one per host CPU when\n"
"                            the host has that many\n"
"      --mem MB              guest memory [%d]\n"
"      --possible N          guest possible CPUs, the ones past --smp offline\n"
"                            [as many as --smp]\n"
"      --nodes N             guest NUMA nodes [none]\n"
"      --cmdline ARGS        extra guest kernel parameters, e.g.\n"
"                            'isolcpus=1 nohz_full=1'\n"
"  -m, --max-regression PCT  exit 1 when a point is slower by more [5]\n"
"      --exact               count each op's instructions and their mix in\n"
"                            the guest (QEMU TCG with vsb-insn; module\n"
"                            points only): the default unless KVM works here\n"
"      --timed               time the ops (the default under KVM)\n"
"      --timeout S           limit of one boot, in seconds [%d]\n"
"  -j, --jobs N              exact mode: boots at once (1..64) [as many as\n"
"                            the CPUs and memory take]; counts do not depend\n"
"                            on the load. Timed mode boots one at a time\n"
"      --monitor LIST[:INT]  sample the guest during every point, as sweep\n"
"                            --monitor does (vmstat,interrupts,stat,...):\n"
"                            each boot folder gets <point>.monitor.csv\n"
"  -o, --output DIR          results [results/ab-<sweep name>]; an ab that\n"
"                            was interrupted continues in its own DIR\n"
"  -n, --dry-run             check everything, print the boot order, boot\n"
"                            nothing\n"
"      --costs FILE|none     the measured cost table that prices exact mode's\n"
"                            counts for this CPU [its cached one, from\n"
"                            `calibrate --costs`, where there is one]\n"
"      --check-options       check the options alone (no kernel, sweep or\n"
"                            DIR is looked at): what bisect asks before its\n"
"                            first build\n"
"  -h, --help                this text\n"
"\n"
"A sweep's --guest-cpus, --guest-possible, --guest-nodes, --guest-mem and\n"
"--guest-cmdline (axes like any other) override these per point: each boot\n"
"of a kernel is then one guest per distinct shape, its points run there.\n"
"\n"
"DIR gets base/boot-K/ and new/boot-K/ (each a sweep folder, its result\n"
"files marked with # ab_kernel, ab_side, ab_boot), ab.txt (the state),\n"
"compare/ (compare.csv, summary.md, regression.png/.svg) and summary.md.\n"
"Under TCG (no usable KVM) timings are emulated, so exact mode is the\n"
"default there (docs/exact.md); timed TCG runs compare shapes only.\n"
"\n"
"example:\n"
"  vmstat-bench ab --base debian:6.1.0-57 --new debian:6.12.117+deb12 \\\n"
"      configs/ab.sweep -o results/ab-6.1-vs-6.12\n"
"\n"
"exit status: 0 no regression, 1 a regression beyond --max-regression (or\n"
"a boot failed), 2 bad input, 3 a boot failed a sanity check, 4 QEMU, a\n"
"kernel or the package lists cannot be had here, 5 no regression but a\n"
"point still inconclusive at --max-boots.\n",
		VSB_AB_BOOTS_MAX, VSB_AB_BOOTS_DEFAULT, VSB_AB_BOOTS_MAX,
		VSB_AB_MAX_BOOTS_DEFAULT, VSB_AB_SMP_DEFAULT,
		VSB_AB_MEM_DEFAULT, VSB_AB_TIMEOUT_DEFAULT);
}

static int parse_max_regression(struct vsb_ab *ab, const char *s)
{
	double v;

	if (vsb_parse_real(s, &v) || v > 1000 || strlen(s) >= sizeof(ab->max_regression)) {
		vsb_err("--max-regression: '%s' is not a percentage in 0..1000", s);
		return VSB_EXIT_USAGE;
	}
	strcpy(ab->max_regression, s);
	return 0;
}

static int parse_spec(struct vsb_ab_kernel *k, const char *opt, const char *s)
{
	if (!*s || strlen(s) >= sizeof(k->spec)) {
		vsb_err("%s: empty or too long", opt);
		return VSB_EXIT_USAGE;
	}
	strcpy(k->spec, s);
	return 0;
}

/* --costs as given; NULL: this CPU's cached table (lib/machine/cost_host.c) */
static const char *costs_spec;

enum { OPT_BASE = 256, OPT_NEW, OPT_SMP, OPT_MEM, OPT_TIMEOUT, OPT_MONITOR,
       OPT_POSSIBLE, OPT_NODES, OPT_CMDLINE, OPT_MAX_BOOTS, OPT_EXACT, OPT_TIMED,
       OPT_CHECK_OPTIONS, OPT_COSTS };

/* --cmdline: its syntax is --guest-cmdline's (guest_shape.c) */
static int parse_cmdline(struct vsb_ab *ab, const char *arg)
{
	if (strlen(arg) >= sizeof(ab->cmdline)) {
		vsb_err("--cmdline: at most %zu characters", sizeof(ab->cmdline) - 1);
		return VSB_EXIT_USAGE;
	}
	if (vsb_guest_cmdline_check(arg, "--cmdline"))
		return VSB_EXIT_USAGE;
	snprintf(ab->cmdline, sizeof(ab->cmdline), "%s", strcmp(arg, "none") ? arg : "");
	return 0;
}

static int parse_one(struct vsb_ab *ab, int c, const char *arg, int *dry)
{
	long v;

	switch (c) {
	case OPT_BASE:
		return parse_spec(&ab->k[VSB_AB_BASE], "--base", arg);
	case OPT_NEW:
		return parse_spec(&ab->k[VSB_AB_NEW], "--new", arg);
	case 'b':
		ab->boots_given = 1;
		return vsb_parse_long_range("--boots", arg, 1, VSB_AB_BOOTS_MAX,
					    &ab->boots);
	case OPT_MAX_BOOTS:
		ab->max_boots_given = 1;
		return vsb_parse_long_range("--max-boots", arg, 1, VSB_AB_BOOTS_MAX,
					    &ab->max_boots);
	case OPT_SMP:
		return vsb_parse_long_range("--smp", arg, 1, 64, &ab->smp);
	case OPT_MEM:
		return vsb_parse_long_range("--mem", arg, 256, 1L << 20, &ab->mem);
	case OPT_TIMEOUT:
		return vsb_parse_long_range("--timeout", arg, 10, 86400, &ab->timeout);
	case OPT_POSSIBLE:
		return vsb_parse_long_range("--possible", arg, 1, VSB_GUEST_POSSIBLE_MAX,
					    &ab->possible);
	case OPT_NODES:
		return vsb_parse_long_range("--nodes", arg, 1, VSB_GUEST_NODES_MAX, &ab->nodes);
	case OPT_CMDLINE:
		return parse_cmdline(ab, arg);
	case 'm':
		return parse_max_regression(ab, arg);
	case OPT_MONITOR:
		if (strlen(arg) >= sizeof(ab->monitor)) {
			vsb_err("--monitor: too long");
			return VSB_EXIT_USAGE;
		}
		if (vsb_monitor_check(arg, "--monitor"))
			return VSB_EXIT_USAGE;
		snprintf(ab->monitor, sizeof(ab->monitor), "%s", arg);
		return 0;
	case 'o':
		if (!*arg || strlen(arg) >= sizeof(ab->dir)) {
			vsb_err("--output: empty or too long");
			return VSB_EXIT_USAGE;
		}
		v = (long)strlen(arg);
		while (v > 1 && arg[v - 1] == '/')
			v--;
		snprintf(ab->dir, sizeof(ab->dir), "%.*s", (int)v, arg);
		return 0;
	case 'n':
		*dry = *dry ?: 1;
		return 0;
	case OPT_CHECK_OPTIONS:
		*dry = 2;
		return 0;
	case OPT_COSTS:
		costs_spec = arg;	/* read after the options, before any work */
		return 0;
	case 'j':
		return vsb_parse_long_range("--jobs", arg, 1, 64, &ab->jobs);
	case OPT_EXACT:
	case OPT_TIMED:
		if (ab->mode_given && ab->exact != (c == OPT_EXACT)) {
			vsb_err("--exact and --timed: one or the other");
			return VSB_EXIT_USAGE;
		}
		ab->mode_given = 1;
		ab->exact = c == OPT_EXACT;
		return 0;
	}
	return VSB_EXIT_USAGE;
}

/* 0, -1 for --help (printed), or VSB_EXIT_USAGE after one line. */
static int parse_args(struct vsb_ab *ab, int argc, char **argv, int *dry)
{
	static const struct option lopts[] = {
		{ "base", required_argument, NULL, OPT_BASE },
		{ "new", required_argument, NULL, OPT_NEW },
		{ "boots", required_argument, NULL, 'b' },
		{ "max-boots", required_argument, NULL, OPT_MAX_BOOTS },
		{ "smp", required_argument, NULL, OPT_SMP },
		{ "mem", required_argument, NULL, OPT_MEM },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "monitor", required_argument, NULL, OPT_MONITOR },
		{ "possible", required_argument, NULL, OPT_POSSIBLE },
		{ "nodes", required_argument, NULL, OPT_NODES },
		{ "cmdline", required_argument, NULL, OPT_CMDLINE },
		{ "max-regression", required_argument, NULL, 'm' },
		{ "output", required_argument, NULL, 'o' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "check-options", no_argument, NULL, OPT_CHECK_OPTIONS },
		{ "costs", required_argument, NULL, OPT_COSTS },
		{ "jobs", required_argument, NULL, 'j' },
		{ "exact", no_argument, NULL, OPT_EXACT },
		{ "timed", no_argument, NULL, OPT_TIMED },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	/* no '+': the sweep may come before -o, as in the usage line */
	struct vsb_getopt g = VSB_GETOPT("ab", "b:m:o:nj:", lopts, usage, argc, argv);
	const char *arg;
	int c, ret;

	while ((c = vsb_getopt_next(&g, &arg)) > 0) {
		ret = parse_one(ab, c, arg, dry);
		if (ret)
			return ret;
	}
	if (c != VSB_GETOPT_END)
		return c == VSB_GETOPT_HELP ? -1 : VSB_EXIT_USAGE;
	if (optind != argc - 1) {
		vsb_err(optind >= argc ? "ab: which sweep file? (see ab --help)" :
			"ab: one sweep file (see ab --help)");
		return VSB_EXIT_USAGE;
	}
	if (strlen(argv[optind]) >= sizeof(ab->sweep)) {
		vsb_err("ab: sweep file name too long");
		return VSB_EXIT_USAGE;
	}
	strcpy(ab->sweep, argv[optind]);
	return 0;
}

static void print_plan(const struct vsb_ab *ab)
{
	long i;
	int s;

	for (s = VSB_AB_BASE; s <= VSB_AB_NEW; s++)
		printf("%-4s %s (%s)\n", s == VSB_AB_BASE ? "base" : "new",
		       ab->k[s].spec, ab->k[s].release);
	printf("sweep %s: %zu module or live-kernel points\n", ab->sweep, ab->module_points);
	printf("order");
	for (i = 0; i < 2 * ab->boots; i++)
		printf(" %s%ld", vsb_ab_side(i) == VSB_AB_BASE ? "A" : "B",
		       vsb_ab_side_boot(i));
	printf("\nguest %ld vCPUs, %ld MB; %s%s\n", ab->smp, ab->mem,
	       ab->pin[0] ? "vCPU threads pinned to host CPUs " : "not pinned: ",
	       ab->pin[0] ? ab->pin : ab->pin_why);
	printf("shapes %zu: each boot is one guest of each\n", ab->nshapes);
	for (i = 0; i < (long)ab->nshapes; i++) {
		char buf[512];

		vsb_ab_shape_str(&ab->shapes[i], buf, sizeof(buf));
		printf("shape %ld %s\n", i + 1, buf);
	}
	printf("monitor %s\n", ab->monitor[0] ? ab->monitor : "none");
	printf("mode %s\n", ab->exact ? "exact (instructions per op, their mix)" :
	       "timed");
	printf("boots %ld a side, up to %ld while a point is undecided; %ld at once\n",
	       ab->boots, ab->max_boots, ab->jobs);
	printf("output %s%s\n", ab->dir, ab->resume ? " (continues the ab run there)" : "");
}

/*
 * --boots: the verdict is a rank test over runs (one run per boot), at
 * alpha 0.01.  With n boots a side, the smallest two-sided p the exact
 * Mann-Whitney test can give is 2 / C(2n, n): 0.33 for 2, 0.10 for 3,
 * 0.029 for 4, 0.0079 for 5 and 0.0022 for 6.  Below 5 no regression can
 * ever be called; at 5 only when every NEW boot is slower than every
 * BASE boot; at 6 two inversions still give p = 0.0087.  The false-alarm
 * rate is alpha per point whatever n is (the test is exact and ABBA
 * keeps a drift of the host off both sides alike); what n buys is power
 * against boot-to-boot spread (page layout, where the guest's memory
 * lands).  6 is the smallest even n (ABBA balanced in whole ABBA
 * blocks) that tolerates a boot out of line, at 12 boots in all.
 */
/*
 * --max-boots: never below --boots; by default 10, or --boots when more
 * (exact mode, decided later, starts at one boot and stays: ab/mode.c).
 */
static int max_boots(struct vsb_ab *ab)
{
	/* --boots not given: the mode decides it (check.c judges it then) */
	if (ab->max_boots && ab->max_boots < ab->boots && ab->boots_given) {
		vsb_err("--max-boots %ld is below --boots %ld: it is the most boots a "
			"side may grow to", ab->max_boots, ab->boots);
		return VSB_EXIT_USAGE;
	}
	if (!ab->max_boots_given)
		ab->max_boots = ab->boots > VSB_AB_MAX_BOOTS_DEFAULT ? ab->boots :
				VSB_AB_MAX_BOOTS_DEFAULT;
	ab->now = ab->boots;
	return 0;
}

/*
 * --jobs: exact boots may run side by side (their counts do not depend on
 * the load); a timed boot beside another would time it too.  Refused
 * before any work when the mode, given or found, is timed.
 */
static int ab_jobs(struct vsb_ab *ab)
{
	if (ab->jobs > 1 && !ab->exact) {
		vsb_err("--jobs %ld: timed boots run one at a time (a boot beside "
			"another would be part of what it times); --exact runs them "
			"side by side", ab->jobs);
		return VSB_EXIT_USAGE;
	}
	if (!ab->jobs)
		ab->jobs = vsb_ab_jobs_default(ab);
	return 0;
}

int vsb_cmd_ab(int argc, char **argv)
{
	static struct vsb_ab ab;
	int dry = 0, ret;

	memset(&ab, 0, sizeof(ab));
	ab.boots = VSB_AB_BOOTS_DEFAULT;
	ab.smp = VSB_AB_SMP_DEFAULT;
	ab.mem = VSB_AB_MEM_DEFAULT;
	ab.timeout = VSB_AB_TIMEOUT_DEFAULT;
	ab.lockfd = -1;
	strcpy(ab.max_regression, "5");
	ret = parse_args(&ab, argc, argv, &dry);
	/* this CPU's cost table unless --costs names one: a bad file is exit 2 */
	ret = ret ?: vsb_host_costs_use(costs_spec);
	ret = ret ?: max_boots(&ab);
	if (ret)
		return ret < 0 ? VSB_EXIT_OK : ret;
	if (dry == 2)
		return vsb_ab_check_options(&ab);
	/* what ab makes is its user's alone to write (state is checked so) */
	umask(umask(022) | 022);
	ret = vsb_ab_check(&ab);
	ret = ret ?: ab_jobs(&ab);
	if (ret)
		goto out;
	ab.progress = isatty(STDERR_FILENO);
	if (ab.max_boots < VSB_AB_BOOTS_VERDICT && !ab.exact)
		vsb_note("ab: with %ld boots a side, a rank test over boots (runs) "
			 "cannot reach p < 0.01: no regression can be called (see "
			 "--boots in ab --help)", ab.max_boots);
	if (dry)
		print_plan(&ab);
	else
		ret = vsb_ab_run(&ab);
out:
	free(ab.sweep_text);
	return ret;
}
