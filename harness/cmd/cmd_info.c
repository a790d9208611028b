// SPDX-License-Identifier: GPL-2.0
/*
 * `vmstat-bench info`: the environment record every result carries,
 * shown before anything runs: topology (likwid, cross-checked with
 * sysfs), the PMU verdict per event with the reason and fix, the cost of
 * one counter read, the unit a run would use, then every `key: value`
 * line of the metadata.  Nothing is measured except the read cost.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <string.h>

#include "cmds.h"
#include "pmu.h"
#include "result.h"
#include "topo.h"
#include "meta.h"

#define INFO_EVENTS VSB_PMU_DEFAULT_EVENTS ",perf::TASK-CLOCK,perf::CONTEXT-SWITCHES"

static void help(FILE *f)
{
	fprintf(f,
"usage: vmstat-bench info [--events LIST] [--plm k|u|ku]\n"
"\n"
"Print the machine's topology, which PMU events can count here (and why\n"
"not), the cost of reading a counter group, and the environment record\n"
"that every result file carries.\n"
"\n"
"options:\n"
"  -e, --events LIST    events to try [" INFO_EVENTS "]\n"
"      --plm k|u|ku     privilege levels to count [ku]\n"
"  -h, --help           this text\n"
"\n"
"examples:\n"
"  vmstat-bench info\n"
"  vmstat-bench info --events cycles,instructions --plm k\n"
"\n"
"exit status: 0 ok, 2 bad option.\n");
}

static void print_topology(const struct vsb_topo *t)
{
	char buf[1024];
	int i;

	if (!t) {
		printf("== topology: unavailable (no sysfs topology, no likwid)\n");
		return;
	}
	vsb_topo_summary(t, buf, sizeof(buf));
	printf("== topology (%s)\n%s\n", t->source, buf);
	printf("%5s %6s %5s %4s %5s %8s\n", "cpu", "socket", "core", "smt", "node",
	       "allowed");
	for (i = 0; i < t->n; i++)
		printf("%5d %6d %5d %4d %5d %8s\n", t->cpu[i].cpu, t->cpu[i].pkg,
		       t->cpu[i].core, t->cpu[i].smt, t->cpu[i].node,
		       t->cpu[i].allowed ? "yes" : "no");
}

static void print_pmu(const struct vsb_pmu_set *s)
{
	int have_tsc = 0, i;
	double cost;

#if defined(__x86_64__) || defined(__i386__)
	have_tsc = 1;
#endif
	printf("== PMU events (plm %s, perf_event_paranoid %d)\n", s->plm,
	       vsb_pmu_paranoid());
	for (i = 0; i < s->n; i++) {
		const struct vsb_pmu_event *ev = &s->ev[i];

		printf("%-28s %-13s %s\n", ev->name, vsb_pmu_verdict_name(ev->verdict),
		       ev->verdict == VSB_PMU_OK ? ev->fstr : ev->why);
	}
	cost = vsb_pmu_read_cost_ns(s);
	if (cost >= 0)
		printf("group read: %.0f ns per read() of %d counters (two per timed batch)\n",
		       cost, s->nactive);
	printf("unit of elapsed: %s\n",
	       vsb_unit_name(vsb_pmu_pick_unit(s->cycles >= 0, have_tsc)));
}

int vsb_cmd_info(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "events", required_argument, NULL, 'e' },
		{ "plm", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct vsb_getopt g = VSB_GETOPT("info", "+e:", lopts, help, argc, argv);
	const char *arg;
	static struct vsb_result r;
	char events[512] = INFO_EVENTS, plm[4] = "ku";
	const struct vsb_pmu_set *s;
	int c, ret;
	size_t i;

	while ((c = vsb_getopt_next(&g, &arg)) > 0) {
		switch (c) {
		case 'e':
			if (strlen(arg) >= sizeof(events)) {
				vsb_err("--events: value too long");
				return VSB_EXIT_USAGE;
			}
			strcpy(events, arg);
			ret = vsb_pmu_check_names(events, plm, "--events");
			if (ret)
				return ret;
			break;
		case 'p':
			if (strcmp(arg, "k") && strcmp(arg, "u") && strcmp(arg, "ku")) {
				vsb_err("--plm: '%s' is not one of k|u|ku", arg);
				return VSB_EXIT_USAGE;
			}
			strcpy(plm, arg);
			break;
		}
	}
	if (c < 0)
		return vsb_getopt_status(c);
	if (optind < argc) {
		vsb_err("info: unexpected argument '%s'", argv[optind]);
		return VSB_EXIT_USAGE;
	}
	print_topology(vsb_topo_get());
	s = vsb_pmu_preflight(events, plm);
	print_pmu(s);
	fflush(stdout);

	memset(&r, 0, sizeof(r));
	vsb_meta_collect_env(&r);
	printf("== environment\n");
	for (i = 0; i < r.nmeta; i++)
		printf("%s: %s\n", r.meta[i].key, r.meta[i].val);
	vsb_result_free(&r);
	return ferror(stdout) ? VSB_EXIT_ERROR : VSB_EXIT_OK;
}
