// SPDX-License-Identifier: GPL-2.0
/*
 * Placement policies on synthetic topologies (1 socket x 2 cores; 2
 * sockets x 8 cores x 2 SMT with Linux-style sibling numbering; 4 NUMA
 * nodes on 2 sockets), the oversubscription refusal, the affinity mask,
 * the sysfs topology reader on a fake /sys tree, and the likwid-vs-sysfs
 * cross-check (vsb_topo_differs, vsb_topo_cross_check) on synthetic
 * pairs that agree up to renumbering or disagree in one place.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "topo.h"
#include "tap.h"

static struct vsb_topo t;

/* cpu = smt * (sockets * cores) + socket * cores + core, as Intel numbers them */
static void mk(int sockets, int cores, int smt, int nodes_per_socket)
{
	int s, c, h;

	memset(&t, 0, sizeof(t));
	for (h = 0; h < smt; h++)
		for (s = 0; s < sockets; s++)
			for (c = 0; c < cores; c++) {
				struct vsb_topo_cpu *x = &t.cpu[t.n++];

				x->cpu = h * sockets * cores + s * cores + c;
				x->pkg = s;
				x->core = c;
				x->node = s * nodes_per_socket + c / (cores / nodes_per_socket);
				x->allowed = 1;
			}
	vsb_topo_finish(&t);
}

/* Place and compare with the expected list "a,b,c" (repeats allowed). */
static int placed(const char *policy, int n, int over, const char *want)
{
	struct vsb_cpulist cl;
	char err[256];
	const char *p = want;
	int i = 0, ok;

	if (vsb_place(&t, policy, n, over, &cl, err, sizeof(err))) {
		printf("#   %s n=%d: error: %s\n", policy, n, err);
		return 0;
	}
	ok = 1;
	while (*p) {
		char *end;
		long v = strtol(p, &end, 10);

		if (i >= cl.n || cl.cpu[i] != v)
			ok = 0;
		i++;
		p = *end == ',' ? end + 1 : end;
	}
	if (ok && i == cl.n)
		return 1;
	printf("#   %s n=%d: got", policy, n);
	for (i = 0; i < cl.n; i++)
		printf(" %d", cl.cpu[i]);
	printf(", want %s\n", want);
	return 0;
}

static int refused(const char *policy, int n, const char *needle)
{
	struct vsb_cpulist cl;
	char err[256] = "";
	int ret = vsb_place(&t, policy, n, 0, &cl, err, sizeof(err));

	if (ret != VSB_EXIT_USAGE || !strstr(err, needle)) {
		printf("#   ret %d err '%s'\n", ret, err);
		return 0;
	}
	return 1;
}

static void test_small(void)
{
	mk(1, 2, 1, 1);
	TAP_OK(t.nsockets == 1 && t.ncores == 2 && t.threads_per_core == 1 && t.nnodes == 1,
	       "1x2: counts");
	TAP_OK(placed("compact", 2, 0, "0,1"), "1x2: compact 2");
	TAP_OK(placed("scatter", 2, 0, "0,1"), "1x2: scatter 2");
	TAP_OK(placed("cores-first", 0, 0, "0,1"), "1x2: all");
	TAP_OK(refused("cores-first", 3, "only 2 CPUs"), "1x2: 3 workers refused");
	TAP_OK(placed("cores-first", 3, 1, "0,1,0"),
	       "1x2: 3 workers wrap with --allow-oversubscribe");
	TAP_OK(placed("node:0", 1, 0, "0"), "1x2: node:0");
	TAP_OK(refused("node:1", 1, "NUMA node 1"), "1x2: node:1 does not exist");
	TAP_OK(refused("diagonal", 1, "not one of"), "bad policy name");
	t.cpu[0].allowed = 0;
	TAP_OK(placed("compact", 0, 0, "1"), "1x2: a CPU outside the affinity mask is skipped");
}

static void test_smt(void)
{
	static const int sib[] = { 0, 16 }, nosib[] = { 0, 1 };
	struct vsb_cpulist cl;

	mk(2, 8, 2, 1);
	TAP_OK(t.n == 32 && t.nsockets == 2 && t.ncores == 16 && t.threads_per_core == 2,
	       "2x8x2: counts (%d cpus %d sockets %d cores %d tpc)", t.n, t.nsockets,
	       t.ncores, t.threads_per_core);
	TAP_OK(vsb_topo_find(&t, 16)->smt == 1 && vsb_topo_find(&t, 0)->smt == 0,
	       "2x8x2: cpu 16 is cpu 0's sibling");
	TAP_OK(placed("compact", 4, 0, "0,16,1,17"), "2x8x2: compact fills siblings first");
	TAP_OK(placed("cores-first", 4, 0, "0,1,2,3"), "2x8x2: cores-first");
	TAP_OK(placed("cores-first", 17, 0,
		      "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16"),
	       "2x8x2: cores-first uses every core before a sibling");
	TAP_OK(placed("scatter", 4, 0, "0,8,1,9"), "2x8x2: scatter alternates sockets");
	TAP_OK(placed("node:1", 3, 0, "8,9,10"), "2x8x2: node:1");
	TAP_OK(placed("compact", 0, 0,
		      "0,16,1,17,2,18,3,19,4,20,5,21,6,22,7,23,8,24,9,25,10,26,11,27,12,28,13,29,14,30,15,31"),
	       "2x8x2: compact all");
	vsb_cpulist_set(&cl, sib, 2);
	TAP_OK(vsb_topo_smt_shared(&t, &cl) == 1, "2x8x2: 0 and 16 share a core");
	vsb_cpulist_set(&cl, nosib, 2);
	TAP_OK(vsb_topo_smt_shared(&t, &cl) == 0, "2x8x2: 0 and 1 do not");
	TAP_OK(refused("cores-first", 33, "only 32 CPUs"), "2x8x2: 33 refused");
}

static void test_numa(void)
{
	mk(2, 8, 1, 2);
	TAP_OK(t.nnodes == 4 && t.nsockets == 2, "4 nodes: counts");
	TAP_OK(placed("scatter", 4, 0, "0,4,8,12"), "4 nodes: scatter puts one per node");
	TAP_OK(placed("scatter", 5, 0, "0,4,8,12,1"), "4 nodes: then the second round");
	TAP_OK(placed("cores-first", 4, 0, "0,1,2,3"), "4 nodes: cores-first stays close");
	TAP_OK(placed("node:2", 0, 0, "8,9,10,11"), "4 nodes: node:2 is 8-11");
	TAP_OK(refused("node:2", 5, "only 4 CPUs"), "4 nodes: 5 workers on node:2 refused");
	TAP_OK(placed("node:2", 5, 1, "8,9,10,11,8"), "4 nodes: ... unless oversubscribed");
}

static void put(const char *root, const char *rel, const char *val)
{
	char path[1024], *slash;
	FILE *f;

	mkdir(root, 0755);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = path + strlen(root) + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	if (f) {
		fputs(val, f);
		fclose(f);
	}
}

static void test_sysfs(void)
{
	char root[] = "/tmp/vsb-topoXXXXXX", cpu[600], node[600], sum[512];
	struct vsb_topo *s = &t;
	char cmd[700];

	if (!mkdtemp(root)) {
		TAP_OK(0, "mkdtemp");
		return;
	}
	snprintf(cpu, sizeof(cpu), "%s/cpu", root);
	snprintf(node, sizeof(node), "%s/node", root);
	/* 1 socket, cores 0 and 1, siblings 2 and 3; cpu 4 offline */
	put(cpu, "cpu0/topology/physical_package_id", "0\n");
	put(cpu, "cpu0/topology/core_id", "0\n");
	put(cpu, "cpu1/topology/physical_package_id", "0\n");
	put(cpu, "cpu1/topology/core_id", "4\n");
	put(cpu, "cpu2/topology/physical_package_id", "0\n");
	put(cpu, "cpu2/topology/core_id", "0\n");
	put(cpu, "cpu3/topology/physical_package_id", "0\n");
	put(cpu, "cpu3/topology/core_id", "4\n");
	put(cpu, "cpu4/online", "0\n");
	put(cpu, "cpu0/cache/index0/level", "1\n");
	put(cpu, "cpu0/cache/index0/type", "Data\n");
	put(cpu, "cpu0/cache/index0/size", "48K\n");
	put(cpu, "cpu0/cache/index0/shared_cpu_list", "0,2\n");
	put(cpu, "cpu0/cache/index1/level", "3\n");
	put(cpu, "cpu0/cache/index1/type", "Unified\n");
	put(cpu, "cpu0/cache/index1/size", "32768K\n");
	put(cpu, "cpu0/cache/index1/shared_cpu_list", "0-3\n");
	put(node, "node0/cpulist", "0,2\n");
	put(node, "node1/cpulist", "1,3\n");
	TAP_OK(vsb_topo_from_sysfs(cpu, node, s) == 0 && s->n == 4,
	       "sysfs: 4 online CPUs read, the offline one skipped (n=%d)", s->n);
	TAP_OK(s->ncores == 2 && s->threads_per_core == 2 && s->nnodes == 2,
	       "sysfs: 2 cores x 2 threads, 2 nodes (sparse core_id 0,4)");
	TAP_OK(vsb_topo_find(s, 3) && vsb_topo_find(s, 3)->smt == 1 &&
	       vsb_topo_find(s, 3)->node == 1,
	       "sysfs: cpu 3 is a sibling on node 1");
	vsb_topo_summary(s, sum, sizeof(sum));
	TAP_OK(strstr(sum, "L1d 48K/2") && strstr(sum, "L3 32M/4"),
	       "sysfs: caches (%s)", sum);
	TAP_OK(placed("cores-first", 2, 0, "0,1"), "sysfs: cores-first on it");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		printf("# could not remove %s\n", root);
}

/*
 * The likwid cross-check, without likwid: @lk stands for what likwid
 * reported, @sys for sysfs.  Ids may differ; the partitions may not.
 */
static void test_cross_check(void)
{
	static struct vsb_topo sys, lk, keep;
	int i, bad;

	mk(2, 8, 2, 2);
	sys = t;
	lk = t;
	TAP_OK(vsb_topo_differs(&lk, &sys) == -1, "cross-check: identical topologies agree");
	/* likwid numbers sockets, cores and nodes its own way */
	for (i = 0; i < lk.n; i++) {
		lk.cpu[i].pkg = 7 - lk.cpu[i].pkg;
		lk.cpu[i].core = lk.cpu[i].core * 3 + 100;
		lk.cpu[i].node = lk.cpu[i].node + 10;
	}
	TAP_OK(vsb_topo_differs(&lk, &sys) == -1 && vsb_topo_differs(&sys, &lk) == -1,
	       "cross-check: renumbered socket, core and node ids still agree");

	lk = sys;
	lk.cpu[16].core = 1;		/* cpu 16: sibling of cpu 1, not of cpu 0 */
	bad = vsb_topo_differs(&lk, &sys);
	TAP_OK(bad == 16, "cross-check: a moved SMT sibling differs at CPU 16 (got %d)", bad);

	lk = sys;
	for (i = 0; i < lk.n; i++)
		lk.cpu[i].node = 0;		/* likwid sees no NUMA */
	bad = vsb_topo_differs(&lk, &sys);
	TAP_OK(bad == 4, "cross-check: one node instead of 4 differs at CPU 4 (got %d)", bad);

	lk = sys;
	for (i = 0; i < lk.n; i++)
		lk.cpu[i].pkg = 0;		/* one socket instead of two */
	bad = vsb_topo_differs(&lk, &sys);
	TAP_OK(bad == 8, "cross-check: one socket instead of 2 differs at CPU 8 (got %d)", bad);

	lk = sys;
	lk.n--;					/* likwid missed cpu 31 */
	bad = vsb_topo_differs(&lk, &sys);
	TAP_OK(bad == 31, "cross-check: 31 CPUs vs 32 differs at CPU 31 (got %d)", bad);

	lk = sys;
	lk.cpu[5].cpu = 40;			/* a CPU number sysfs does not have */
	bad = vsb_topo_differs(&lk, &sys);
	TAP_OK(bad == 40, "cross-check: another CPU number differs there (got %d)", bad);

	/* agreeing: likwid's topology, sysfs's caches when likwid has none */
	lk = sys;
	snprintf(lk.source, sizeof(lk.source), "likwid");
	lk.cpu[0].core = 99;			/* a likwid-only id, to see whose copy wins */
	lk.cpu[16].core = 99;
	lk.ncaches = 0;
	sys.ncaches = 1;
	sys.cache[0].level = 2;
	sys.cache[0].size_kb = 2048;
	snprintf(sys.source, sizeof(sys.source), "sysfs");
	keep = sys;
	TAP_OK(vsb_topo_cross_check(&keep, &lk) == -1 &&
	       !strcmp(keep.source, "likwid (agrees with sysfs)"),
	       "cross-check: agreeing, the source is '%s'", keep.source);
	TAP_OK(vsb_topo_find(&keep, 16)->core == 99 && keep.ncaches == 1 &&
	       keep.cache[0].size_kb == 2048,
	       "cross-check: agreeing, likwid's CPUs with sysfs's caches (likwid found none)");
	lk.ncaches = 1;
	lk.cache[0].level = 3;
	lk.cache[0].size_kb = 32768;
	keep = sys;
	vsb_topo_cross_check(&keep, &lk);
	TAP_OK(keep.ncaches == 1 && keep.cache[0].level == 3,
	       "cross-check: agreeing, likwid's caches when it has some");

	/* disagreeing: sysfs kept as it was, the record says where */
	lk.cpu[16].core = 1;
	keep = sys;
	bad = vsb_topo_cross_check(&keep, &lk);
	TAP_OK(bad == 16 && !strcmp(keep.source, "sysfs (likwid disagrees at CPU 16; sysfs used)"),
	       "cross-check: disagreeing, the source is '%s'", keep.source);
	TAP_OK(vsb_topo_find(&keep, 16)->core == 0 && vsb_topo_find(&keep, 16)->smt == 1 &&
	       keep.ncaches == 1 && keep.cache[0].size_kb == 2048,
	       "cross-check: disagreeing, sysfs's CPUs and caches are kept");
}

int main(void)
{
	test_small();
	test_smt();
	test_numa();
	test_sysfs();
	test_cross_check();
	return tap_done();
}
