// SPDX-License-Identifier: GPL-2.0
/*
 * `vmstat-bench calibrate`: how much does the harness itself add?
 *
 * Two checks, measured in one run on one pinned CPU:
 *  - the floor: a bare inline-asm add loop against the this-cpu-add
 *    variant through the real dispatch (loop per variant, item wrap), both
 *    timed the same way; the variant should cost at most 1.5x the bare
 *    loop, or the harness's loop structure is what is being measured;
 *  - the timer: the cost of one rdtscp (and one clock_gettime), as a
 *    share of a default-sized sample; it should stay under 1%.
 *
 * With --costs it does the other job instead: the cost table of this
 * CPU (cmd_calibrate_costs.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "bench/counter.h"
#include "clock.h"
#include "cmd_calibrate.h"
#include "cmds.h"
#include "vsb.h"

static void bare_add_loop(s8 *slot, unsigned long long n)
{
	unsigned long long k;
	s8 one = 1;

	for (k = 0; k < n; k++)
		__asm__ __volatile__("add %1, %0" : "+m"(*slot) : "q"(one) : "cc");
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static uint64_t median_u64(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

#define CAL_REPS_MAX 101
#define CAL_LOOPS_MIN 1000L

static void usage(FILE *f)
{
	fprintf(f,
"usage: vmstat-bench calibrate [--cpu N] [--loops N] [--repeat R]\n"
"       vmstat-bench calibrate --costs [--kernel] [--cpu N] [--costs-out FILE]\n"
"       vmstat-bench calibrate --show-costs FILE\n"
"\n"
"Measures the harness floor on one pinned CPU: the this-cpu-add\n"
"variant against a bare inline-asm add loop (should be within 1.5x),\n"
"and the cost of a timer read against a sample (should be under 1%%).\n"
"\n"
"--costs instead times the primitives the cost model prices (adds, loads,\n"
"stores, LOCK cmpxchg and xadd, cmpxchg plain and through %%gs, pushf,\n"
"popf, pause, lfence, mfence, cpuid, rep stosb) in core cycles on one\n"
"pinned CPU, prints the table, and keeps it in the cache under the CPU's\n"
"key ($VSB_COST_CACHE, else $XDG_CACHE_HOME or ~/.cache, vmstat-bench/costs/),\n"
"which every result's `# cost_table:` line names (docs/costs.md).\n"
"\n"
"options:\n"
"  -c, --cpu N      the CPU to pin to [first allowed]\n"
"  -n, --loops N    operations per timed sample, %ld..%ld [1000000]\n"
"  -r, --repeat R   timed samples of each loop, 1..%d [11]\n"
"      --costs      time the cost table of this CPU (see above)\n"
"      --costs-out FILE  the table into FILE as well\n"
"      --kernel     with --costs: the kernel rows too (cli+sti, irqsave,\n"
"                   this_cpu ops), in the module where it loads natively\n"
"      --show-costs FILE read a cost table, check it, print it\n"
"  -h, --help       this text\n"
"\n"
"examples:\n"
"  vmstat-bench calibrate\n"
"  vmstat-bench calibrate --cpu 1 --repeat 21\n"
"  flock /tmp/vsb-timing.lock vmstat-bench calibrate --costs\n"
"\n"
"exit status: 0 ok, 2 bad usage or a bad cost table, 3 a check failed (the\n"
"line says which; --costs: the imul chain off 3 cycles three times), 4 no\n"
"x86-64 CPU key to time under, or --kernel where the module does not run\n"
"natively (not loaded, or under QEMU TCG).\n",
		CAL_LOOPS_MIN, VSB_LOOPS_MAX, CAL_REPS_MAX);
}

/* --costs and its companions: each only where it means something */
static int check_costs_args(const struct cal_costs_args *ca, const char *floor_opt)
{
	if (ca->show && (ca->costs || ca->out || ca->kernel)) {
		vsb_err("--show-costs: reads a table, it measures nothing: not with "
			"--costs, --costs-out or --kernel");
		return VSB_EXIT_USAGE;
	}
	if (!ca->costs && (ca->out || ca->kernel)) {
		vsb_err("%s: goes with --costs", ca->out ? "--costs-out" : "--kernel");
		return VSB_EXIT_USAGE;
	}
	if ((ca->costs || ca->show) && floor_opt) {
		vsb_err("%s: the harness floor's option, not --costs's", floor_opt);
		return VSB_EXIT_USAGE;
	}
	return 0;
}

static int parse_args(int argc, char **argv, long *cpu, long *loops, long *reps,
		      struct cal_costs_args *ca)
{
	static const struct option lopts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "loops", required_argument, NULL, 'n' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "costs", no_argument, NULL, 'C' },
		{ "costs-out", required_argument, NULL, 'O' },
		{ "show-costs", required_argument, NULL, 'S' },
		{ "kernel", no_argument, NULL, 'K' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct vsb_cpulist cl = { 0 };
	struct vsb_getopt g = VSB_GETOPT("calibrate", "+c:n:r:", lopts, usage, argc, argv);
	const char *arg, *floor_opt = NULL;
	int c, ret = 0, one;
	long v;

	while ((c = vsb_getopt_next(&g, &arg)) > 0) {
		switch (c) {
		case 'c':
			if (vsb_parse_long(arg, &v)) {
				vsb_err("--cpu: '%s' is not a CPU number (calibrate pins to one CPU)",
					arg);
				return VSB_EXIT_USAGE;
			}
			ret = vsb_parse_long_range("--cpu", arg, 0, VSB_MAX_CPUS - 1, cpu);
			break;
		case 'n':
			floor_opt = "--loops";
			ret = vsb_parse_long_range("--loops", arg, CAL_LOOPS_MIN,
						   VSB_LOOPS_MAX, loops);
			break;
		case 'r':
			floor_opt = "--repeat";
			ret = vsb_parse_long_range("--repeat", arg, 1, CAL_REPS_MAX, reps);
			break;
		case 'C':
			ca->costs = 1;
			break;
		case 'O':
			ca->out = arg;
			break;
		case 'S':
			ca->show = arg;
			break;
		case 'K':
			ca->kernel = 1;
			break;
		}
		if (ret)
			return ret;
	}
	if (c < 0)
		return c == VSB_GETOPT_HELP ? -1 : VSB_EXIT_USAGE;
	if (optind < argc) {
		char extra[256];
		size_t off = 0;
		int i;

		for (i = optind; i < argc && off < sizeof(extra); i++)
			off += snprintf(extra + off, sizeof(extra) - off, "%s'%s'",
					i > optind ? " " : "", argv[i]);
		vsb_err("calibrate: unexpected argument%s %s (it takes only options)",
			argc - optind > 1 ? "s" : "", extra);
		return VSB_EXIT_USAGE;
	}
	ret = check_costs_args(ca, floor_opt);
	if (ret)
		return ret;
	/* the same check as run's --cpus: online, and ours to run on */
	one = (int)*cpu;
	cl = (struct vsb_cpulist){ .n = 1, .cpu = &one };	/* a view, checked */
	return vsb_cpulist_check_usable(&cl, "--cpu");
}

int vsb_cmd_calibrate(int argc, char **argv)
{
	long cpu = vsb_cpu_first_allowed(), loops = 1000000, reps = 11;
	uint64_t bare[CAL_REPS_MAX], var[CAL_REPS_MAX], rd[CAL_REPS_MAX], cg[CAL_REPS_MAX];
	struct vsb_counter_params p;
	struct vsb_counter_worker w;
	vsb_counter_loop_fn loop;
	s8 *slot;
	cpu_set_t set;
	double hz, bare_op, var_op, ratio, rd_ns, cg_ns, sample_ns;
	struct cal_costs_args ca = { 0 };
	int i, k, ret;

	ret = parse_args(argc, argv, &cpu, &loops, &reps, &ca);
	if (ret)
		return ret < 0 ? VSB_EXIT_OK : ret;
	if (ca.costs || ca.show)
		return vsb_calibrate_costs(&ca, cpu);
	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		vsb_err("--cpu: cannot pin to CPU %ld: %s", cpu, strerror(errno));
		return VSB_EXIT_USAGE;
	}
	hz = vsb_tsc_hz();
	slot = vsb_zalloc_aligned(VSB_CACHELINE);
	memset(&w, 0, sizeof(w));
	w.diffs = slot;
	vsb_counter_params_init(&p, 0, 1, 1, 1, 8);
	loop = vsb_counter_loop(VSB_V_this_cpu_add, 8);

	/* warm both loops, then alternate them so drift hits both alike */
	bare_add_loop(slot, (unsigned long long)loops);
	loop(&w, &p, (unsigned long long)loops);
	for (i = 0; i < reps; i++) {
		uint64_t t0 = vsb_rdtscp();

		bare_add_loop(slot, (unsigned long long)loops);
		bare[i] = vsb_rdtscp() - t0;
		t0 = vsb_rdtscp();
		loop(&w, &p, (unsigned long long)loops);
		var[i] = vsb_rdtscp() - t0;
	}
	for (i = 0; i < reps; i++) {
		uint64_t t0 = vsb_rdtscp(), n0;

		for (k = 0; k < 1000; k++)
			vsb_rdtscp();
		rd[i] = vsb_rdtscp() - t0;
		n0 = vsb_rdtscp();
		for (k = 0; k < 1000; k++)
			vsb_now_ns();
		cg[i] = vsb_rdtscp() - n0;
	}
	bare_op = (double)median_u64(bare, (size_t)reps) / (double)loops;
	var_op = (double)median_u64(var, (size_t)reps) / (double)loops;
	ratio = var_op / bare_op;
	rd_ns = (double)median_u64(rd, (size_t)reps) / 1000.0 * 1e9 / hz;
	cg_ns = (double)median_u64(cg, (size_t)reps) / 1000.0 * 1e9 / hz;
	sample_ns = var_op * (double)loops * 1e9 / hz;

	printf("calibrate on CPU %ld, TSC %.3f GHz, %ld ops x %ld repetitions (medians)\n",
	       cpu, hz / 1e9, loops, reps);
	printf("  bare asm add loop      %8.3f tsc/op  %7.3f ns/op\n", bare_op, bare_op * 1e9 / hz);
	printf("  this-cpu-add variant   %8.3f tsc/op  %7.3f ns/op\n", var_op, var_op * 1e9 / hz);
	printf("  ratio                  %8.3f        (limit 1.50): %s\n", ratio,
	       ratio <= 1.5 ? "ok" : "TOO HIGH");
	printf("  rdtscp read            %8.2f ns     = %.4f%% of a %ld-op sample\n",
	       rd_ns, 100.0 * 2 * rd_ns / sample_ns, loops);
	printf("  clock_gettime read     %8.2f ns     = %.4f%% of a %ld-op sample\n",
	       cg_ns, 100.0 * 2 * cg_ns / sample_ns, loops);
	printf("  timer reads per sample: 2 rdtscp + 2 clock_gettime = %.4f%% (limit 1%%): %s\n",
	       100.0 * 2 * (rd_ns + cg_ns) / sample_ns,
	       2 * (rd_ns + cg_ns) / sample_ns < 0.01 ? "ok" : "TOO HIGH");
	free(slot);
	return ratio <= 1.5 && 2 * (rd_ns + cg_ns) / sample_ns < 0.01 ?
		VSB_EXIT_OK : VSB_EXIT_UNTRUSTED;
}
