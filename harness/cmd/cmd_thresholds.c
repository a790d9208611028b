// SPDX-License-Identifier: GPL-2.0
/*
 * `vmstat-bench thresholds`: what accuracy the kernel buys with its
 * per-CPU counters on a given machine.
 *
 * With no machine options, thresholds reads this machine's zones from
 * /proc/zoneinfo and shows the kernel's own threshold beside the
 * formula's, so the model is checked every time it is used.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "env.h"
#include "thresholds.h"
#include "vsb.h"

#define MAX_ZONES 256

static const char *const policy_names[3] = { "guess", "always", "never" };

static void thresholds_help(FILE *f)
{
	fprintf(f, "usage: vmstat-bench thresholds [--cpus N --nodes M --zone-mb X[,Y...]] [--format text|csv]\n\n"
	       "The kernel's per-CPU vmstat stat_threshold per zone (calculate_normal_threshold:\n"
	       "2 * fls(cpus) * (1 + fls(zone MiB / 128)), at most 125), the pressure threshold\n"
	       "((low - min watermark) / cpus), the worst-case error of a counter read without\n"
	       "folding (threshold x CPUs, per item), and the vm_committed_as percpu_counter batch\n"
	       "under each overcommit policy with its worst-case error (batch x CPUs).\n\n"
	       "Without options: this machine, from /proc/zoneinfo, with the kernel's own\n"
	       "threshold beside the formula's.  With --cpus/--nodes/--zone-mb: a synthetic\n"
	       "machine whose every node has zones of the given sizes; watermarks are modelled\n"
	       "(min_free_kbytes = sqrt(16 x lowmem KiB), watermark_scale_factor 10).\n\n"
	       "examples:\n"
	       "  vmstat-bench thresholds\n"
	       "  vmstat-bench thresholds --cpus 88 --nodes 2 --zone-mb 4,3072,98304\n"
	       "  vmstat-bench thresholds --cpus 1024 --nodes 16 --zone-mb 65536 --format csv\n");
}

struct thr_opts {
	long cpus, nodes;
	unsigned long mb[16];
	int nmb, csv;
};

static int parse(int argc, char **argv, struct thr_opts *o)
{
	static const struct option lopts[] = {
		{ "cpus", required_argument, NULL, 'c' },
		{ "nodes", required_argument, NULL, 'N' },
		{ "zone-mb", required_argument, NULL, 'z' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct vsb_getopt g = VSB_GETOPT("thresholds", "+c:N:z:f:", lopts,
					 thresholds_help, argc, argv);
	const char *arg;
	int c;

	while ((c = vsb_getopt_next(&g, &arg)) > 0) {
		switch (c) {
		case 'c':
			if (vsb_parse_long(arg, &o->cpus) || o->cpus < 1 || o->cpus > 65536) {
				vsb_err("--cpus: '%s' is not a CPU count (1..65536)", arg);
				return VSB_EXIT_USAGE;
			}
			break;
		case 'N':
			if (vsb_parse_long(arg, &o->nodes) || o->nodes < 1 || o->nodes > 64) {
				vsb_err("--nodes: '%s' is not a node count (1..64)", arg);
				return VSB_EXIT_USAGE;
			}
			break;
		case 'z':
			o->nmb = vsb_parse_ulong_list(arg, o->mb, 4);
			if (o->nmb < 0) {
				vsb_err("--zone-mb: '%s' is not a list of 1..4 zone sizes in MiB", arg);
				return VSB_EXIT_USAGE;
			}
			break;
		case 'f':
			if (strcmp(arg, "text") && strcmp(arg, "csv")) {
				vsb_err("--format: '%s' is not one of text|csv", arg);
				return VSB_EXIT_USAGE;
			}
			o->csv = !strcmp(arg, "csv");
			break;
		}
	}
	if (c < 0)
		return c == VSB_GETOPT_HELP ? -1 : VSB_EXIT_USAGE;
	if (optind < argc) {
		vsb_err("thresholds: unexpected argument '%s'", argv[optind]);
		return VSB_EXIT_USAGE;
	}
	if ((o->cpus || o->nodes || o->nmb) && (!o->cpus || !o->nmb)) {
		vsb_err("thresholds: a synthetic machine needs --cpus and --zone-mb (--nodes defaults to 1)");
		return VSB_EXIT_USAGE;
	}
	return 0;
}

/* Every node with zones of the given sizes; watermarks modelled. */
static int synthetic_zones(struct thr_opts *o, struct vsb_zoneinfo *zones,
			   unsigned long *ram_pages)
{
	unsigned long lowmem = 0, mfk;
	int n, i, nz = 0;

	o->nodes = o->nodes ? o->nodes : 1;
	for (n = 0; n < o->nodes; n++)
		for (i = 0; i < o->nmb; i++) {
			struct vsb_zoneinfo *z = &zones[nz++];

			memset(z, 0, sizeof(*z));
			z->node = n;
			snprintf(z->name, sizeof(z->name), "zone%d", i);
			z->managed = o->mb[i] << (20 - VSB_PAGE_SHIFT);
			z->threshold = -1;
			lowmem += z->managed;
		}
	mfk = vsb_min_free_kbytes(lowmem);
	for (i = 0; i < nz; i++) {
		struct vsb_wmarks w;

		vsb_zone_wmarks(zones[i].managed, lowmem, mfk, 10, &w);
		zones[i].min = w.min;
		zones[i].low = w.low;
		zones[i].high = w.high;
	}
	*ram_pages = lowmem;
	return nz;
}

/* This machine's zones, CPUs and nodes; -1 when /proc/zoneinfo fails. */
static int machine_zones(struct thr_opts *o, struct vsb_zoneinfo *zones,
			 unsigned long *ram_pages)
{
	int i, nz = vsb_zoneinfo_parse("/proc/zoneinfo", zones, MAX_ZONES);

	if (nz <= 0)
		return -1;
	o->cpus = sysconf(_SC_NPROCESSORS_ONLN);
	for (i = 0; i < nz; i++)
		if (zones[i].node + 1 > o->nodes)
			o->nodes = zones[i].node + 1;
	/* totalram_pages() is what MemTotal reports */
	*ram_pages = (unsigned long)sysconf(_SC_PHYS_PAGES);
	return nz;
}

static void print_zones(const struct thr_opts *o, const struct vsb_zoneinfo *zones,
			int nz)
{
	long cpus = o->cpus;
	int i;

	for (i = 0; i < nz; i++) {
		const struct vsb_zoneinfo *z = &zones[i];
		int t, p;

		if (!z->managed)
			continue;	/* unpopulated zones get no per-CPU threshold */
		t = vsb_normal_threshold((unsigned int)cpus, z->managed);
		p = vsb_pressure_threshold(z->low, z->min, (unsigned int)cpus);
		if (o->csv) {
			printf("stat_threshold,%d,%s,%ld,%lu,%d,%d,%d,%ld\n", z->node,
			       z->name, cpus, z->managed, t, z->threshold, p, (long)t * cpus);
		} else {
			char kern[16];

			snprintf(kern, sizeof(kern), z->threshold < 0 ? "-" : "%d", z->threshold);
			printf("%-4d %-8s %12.1f %9d %7s %9d %16ld\n", z->node, z->name,
			       z->managed / 256.0, t, kern, p, (long)t * cpus);
		}
	}
}

static void print_batches(const struct thr_opts *o, unsigned long ram_pages)
{
	long cpus = o->cpus;
	int i;

	if (!o->csv)
		printf("\nvm_committed_as (percpu_counter) batch, pages:\n"
		       "%-22s %12s %22s\n", "vm.overcommit_memory", "batch",
		       "worst error (x CPUs)");
	for (i = 0; i < 3; i++) {
		long long b = vsb_committed_as_batch(i, ram_pages, (int)cpus);

		if (o->csv)
			printf("committed_as_batch,,%s,%ld,%lu,%lld,,,%lld\n", policy_names[i],
			       cpus, ram_pages, b, b * cpus);
		else
			printf("%d (%-6s)             %12lld %16lld pages (%.1f MiB)\n", i,
			       policy_names[i], b, b * cpus, b * cpus / 256.0);
	}
	if (!o->csv)
		printf("\nthreshold: calculate_normal_threshold(); kernel: what the running kernel set\n"
		       "(\"vm stats threshold\" in /proc/zoneinfo); max drift: threshold x CPUs pages per\n"
		       "counter that a reader of the global value may miss.\n");
}

int vsb_cmd_thresholds(int argc, char **argv)
{
	static struct vsb_zoneinfo zones[MAX_ZONES];
	struct thr_opts o = { 0 };
	unsigned long ram_pages = 0;
	const char *src;
	int nz, ret = parse(argc, argv, &o);

	if (ret)
		return ret < 0 ? VSB_EXIT_OK : ret;
	if (o.nmb) {
		nz = synthetic_zones(&o, zones, &ram_pages);
		src = "synthetic; watermarks modelled";
	} else {
		nz = machine_zones(&o, zones, &ram_pages);
		if (nz < 0) {
			vsb_err("thresholds: cannot read /proc/zoneinfo");
			return VSB_EXIT_SKIP;
		}
		src = "this machine, /proc/zoneinfo";
	}
	if (o.csv)
		printf("item,node,zone,cpus,managed_pages,value,kernel_value,pressure,worst_error_pages\n");
	else
		printf("%ld CPUs, %ld node%s, %.1f GiB RAM (%s)\n\n"
		       "%-4s %-8s %12s %9s %7s %9s %16s\n", o.cpus, o.nodes,
		       o.nodes > 1 ? "s" : "", ram_pages / 262144.0, src, "node",
		       "zone", "managed MiB", "threshold", "kernel", "pressure",
		       "max drift pages");
	print_zones(&o, zones, nz);
	print_batches(&o, ram_pages);
	return VSB_EXIT_OK;
}
