// SPDX-License-Identifier: GPL-2.0
/*
 * Topology discovery (likwid, sysfs) and placement policies; see topo.h.
 *
 * Placement orders, all over the allowed CPUs only:
 *   compact      fill a core's SMT siblings, then the next core, then the
 *                next socket (threads share as much cache as possible);
 *   cores-first  one thread per physical core, socket by socket, before
 *                any SMT sibling (no two workers share a core's pipeline);
 *   scatter      one thread per core, round-robin across NUMA nodes (or
 *                sockets on a one-node machine), siblings last;
 *   node:N       cores-first inside NUMA node N.
 * Cores are ranked by their lowest CPU number, never by core_id, which is
 * sparse on many machines.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "likwid_api.h"

/*
 * likwid's numa_init() leaves two directory streams and a small buffer
 * allocated (likwid 5.2, once per process, nothing we can free).  Keep
 * them out of the leak report of `make check`'s sanitizer build, which is
 * about our allocations: LeakSanitizer ignores what is allocated while it
 * is disabled.
 */
#if defined(__SANITIZE_ADDRESS__)
#define VSB_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VSB_LSAN 1
#endif
#endif
#if defined(VSB_LSAN) && defined(VSB_HAVE_LIKWID)
#include <sanitizer/lsan_interface.h>
#define foreign_leaks_begin()	__lsan_disable()
#define foreign_leaks_end()	__lsan_enable()
#else
#define foreign_leaks_begin()	do { } while (0)
#define foreign_leaks_end()	do { } while (0)
#endif

#include "topo.h"
#include "topo_cache.h"

static int cmp_cpu(const void *a, const void *b)
{
	const struct vsb_topo_cpu *x = a, *y = b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

const struct vsb_topo_cpu *vsb_topo_find(const struct vsb_topo *t, int cpu)
{
	int i;

	for (i = 0; i < t->n; i++)
		if (t->cpu[i].cpu == cpu)
			return &t->cpu[i];
	return NULL;
}

static int same_core(const struct vsb_topo_cpu *a, const struct vsb_topo_cpu *b)
{
	return a->pkg == b->pkg && a->core == b->core;
}

void vsb_topo_finish(struct vsb_topo *t)
{
	int i, j, maxsmt = 0;

	qsort(t->cpu, (size_t)t->n, sizeof(t->cpu[0]), cmp_cpu);
	t->nsockets = t->ncores = t->nnodes = 0;
	for (i = 0; i < t->n; i++) {
		int first_core = 1, first_pkg = 1, first_node = 1;

		t->cpu[i].smt = 0;
		for (j = 0; j < i; j++) {
			if (same_core(&t->cpu[j], &t->cpu[i])) {
				t->cpu[i].smt++;
				first_core = 0;
			}
			if (t->cpu[j].pkg == t->cpu[i].pkg)
				first_pkg = 0;
			if (t->cpu[j].node == t->cpu[i].node)
				first_node = 0;
		}
		t->ncores += first_core;
		t->nsockets += first_pkg;
		t->nnodes += first_node;
		if (t->cpu[i].smt > maxsmt)
			maxsmt = t->cpu[i].smt;
	}
	t->threads_per_core = maxsmt + 1;
}

void vsb_topo_mark_allowed(struct vsb_topo *t)
{
	size_t sz = CPU_ALLOC_SIZE(VSB_MAX_CPUS);
	cpu_set_t *set = CPU_ALLOC(VSB_MAX_CPUS);
	int i;

	if (!set || sched_getaffinity(0, sz, set)) {
		for (i = 0; i < t->n; i++)
			t->cpu[i].allowed = 1;
		CPU_FREE(set);
		return;
	}
	for (i = 0; i < t->n; i++)
		t->cpu[i].allowed = CPU_ISSET_S((size_t)t->cpu[i].cpu, sz, set) != 0;
	CPU_FREE(set);
}

/* ---- sysfs ---- */

static long read_long_at(const char *dir, const char *file, long def)
{
	char path[1024];
	long v;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return vsb_read_file_long(path, &v) ? def : v;
}

static void read_node_map(const char *node_root, struct vsb_topo *t)
{
	struct dirent *de;
	DIR *d = opendir(node_root);

	if (!d)
		return;
	while ((de = readdir(d))) {
		struct vsb_cpulist cl;
		char path[512], buf[4096];
		int node, i;

		if (strncmp(de->d_name, "node", 4) || sscanf(de->d_name + 4, "%d", &node) != 1)
			continue;
		snprintf(path, sizeof(path), "%s/%s/cpulist", node_root, de->d_name);
		if (vsb_read_file_str(path, buf, sizeof(buf)) || !buf[0])
			continue;
		/* a malformed file only loses the node mapping */
		i = vsb_cpulist_parse_sysfs(buf, &cl);
		if (i)
			continue;
		for (i = 0; i < cl.n; i++) {
			int k;

			for (k = 0; k < t->n; k++)
				if (t->cpu[k].cpu == cl.cpu[i])
					t->cpu[k].node = node;
		}
	}
	closedir(d);
}

static void read_caches(const char *cpu_root, int cpu, struct vsb_topo *t)
{
	int idx;

	t->ncaches = 0;
	for (idx = 0; idx < 8; idx++) {
		struct vsb_topo_cache *c = &t->cache[t->ncaches];
		char dir[512], buf[4096], path[600];
		struct vsb_cpulist cl;

		snprintf(dir, sizeof(dir), "%s/cpu%d/cache/index%d", cpu_root, cpu, idx);
		c->level = (int)read_long_at(dir, "level", -1);
		if (c->level < 0)
			break;
		snprintf(path, sizeof(path), "%s/type", dir);
		if (vsb_read_file_str(path, c->type, sizeof(c->type)))
			snprintf(c->type, sizeof(c->type), "?");
		snprintf(path, sizeof(path), "%s/size", dir);
		c->size_kb = vsb_read_file_str(path, buf, sizeof(buf)) ? 0 : atol(buf);
		snprintf(path, sizeof(path), "%s/shared_cpu_list", dir);
		c->shared_by = 1;
		if (!vsb_read_file_str(path, buf, sizeof(buf)) &&
		    !vsb_cpulist_parse_sysfs(buf, &cl))
			c->shared_by = cl.n;
		t->ncaches++;
	}
}

int vsb_topo_from_sysfs(const char *cpu_root, const char *node_root,
			struct vsb_topo *t)
{
	struct dirent *de;
	DIR *d = opendir(cpu_root);

	memset(t, 0, sizeof(*t));
	if (!d)
		return -1;
	while ((de = readdir(d)) && t->n < VSB_MAX_CPUS) {
		struct vsb_topo_cpu *c = &t->cpu[t->n];
		char dir[512];
		int cpu;

		if (strncmp(de->d_name, "cpu", 3) || sscanf(de->d_name + 3, "%d", &cpu) != 1)
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", cpu_root, de->d_name);
		/* offline CPUs have no topology directory */
		if (read_long_at(dir, "online", 1) != 1)
			continue;
		c->pkg = (int)read_long_at(dir, "topology/physical_package_id", -1);
		c->core = (int)read_long_at(dir, "topology/core_id", -1);
		if (c->pkg < 0 || c->core < 0)
			continue;
		c->cpu = cpu;
		c->allowed = 1;
		t->n++;
	}
	closedir(d);
	if (!t->n)
		return -1;
	read_node_map(node_root, t);
	vsb_topo_finish(t);
	read_caches(cpu_root, t->cpu[0].cpu, t);
	snprintf(t->source, sizeof(t->source), "sysfs");
	return 0;
}

/* ---- likwid ---- */

#ifdef VSB_HAVE_LIKWID
static int topo_from_likwid(const struct vsb_likwid_api *lw, struct vsb_topo *t)
{
	static const char *const ctype[] = { "none", "Data", "Instruction",
					     "Unified", "ITLB", "DTLB" };
	CpuTopology_t lt;
	NumaTopology_t nt;
	unsigned int i, j;

	memset(t, 0, sizeof(*t));
	if (lw->topology_init())
		return -1;
	lt = lw->get_cpuTopology();
	if (!lt || !lt->threadPool) {
		lw->topology_finalize();
		return -1;
	}
	for (i = 0; i < lt->numHWThreads && t->n < VSB_MAX_CPUS; i++) {
		struct vsb_topo_cpu *c = &t->cpu[t->n++];

		/* likwid's apicId field holds the OS processor number */
		c->cpu = (int)lt->threadPool[i].apicId;
		c->pkg = (int)lt->threadPool[i].packageId;
		c->core = (int)lt->threadPool[i].coreId;
		c->allowed = 1;
	}
	for (i = 0; i < lt->numCacheLevels && t->ncaches < 8; i++) {
		struct vsb_topo_cache *c = &t->cache[t->ncaches++];
		unsigned int ty = (unsigned int)lt->cacheLevels[i].type;

		c->level = (int)lt->cacheLevels[i].level;
		snprintf(c->type, sizeof(c->type), "%s", ty < 6 ? ctype[ty] : "?");
		c->size_kb = (long)(lt->cacheLevels[i].size / 1024);
		c->shared_by = (int)lt->cacheLevels[i].threads;
	}
	if (lw->numa_init() == 0) {
		nt = lw->get_numaTopology();
		for (i = 0; nt && i < nt->numberOfNodes; i++)
			for (j = 0; j < nt->nodes[i].numberOfProcessors; j++) {
				int k;

				for (k = 0; k < t->n; k++)
					if (t->cpu[k].cpu == (int)nt->nodes[i].processors[j])
						t->cpu[k].node = (int)nt->nodes[i].id;
			}
		lw->numa_finalize();
	}
	lw->topology_finalize();
	vsb_topo_finish(t);
	/* likwid.h carries no usable version macro (Debian: a placeholder) */
	snprintf(t->source, sizeof(t->source), "likwid");
	return t->n ? 0 : -1;
}
#endif

/*
 * Ids may be numbered differently (likwid and sysfs do not agree on
 * core ids on every machine), so compare the partitions: same CPUs,
 * same sibling sets, same sockets, same nodes.
 */
int vsb_topo_differs(const struct vsb_topo *a, const struct vsb_topo *b)
{
	int i, j;

	if (a->n != b->n)
		return a->n < b->n ? a->n : b->n;
	for (i = 0; i < a->n; i++) {
		if (a->cpu[i].cpu != b->cpu[i].cpu)
			return a->cpu[i].cpu;
		for (j = 0; j < i; j++) {
			if (same_core(&a->cpu[i], &a->cpu[j]) !=
			    same_core(&b->cpu[i], &b->cpu[j]) ||
			    (a->cpu[i].pkg == a->cpu[j].pkg) !=
			    (b->cpu[i].pkg == b->cpu[j].pkg) ||
			    (a->cpu[i].node == a->cpu[j].node) !=
			    (b->cpu[i].node == b->cpu[j].node))
				return a->cpu[i].cpu;
		}
	}
	return -1;
}

int vsb_topo_cross_check(struct vsb_topo *sys, const struct vsb_topo *lk)
{
	int bad = vsb_topo_differs(lk, sys);

	if (bad < 0) {
		struct vsb_topo_cache c[8];
		int nc = sys->ncaches;

		/* keep sysfs caches if likwid found none */
		memcpy(c, sys->cache, sizeof(c));
		*sys = *lk;
		if (!sys->ncaches) {
			memcpy(sys->cache, c, sizeof(c));
			sys->ncaches = nc;
		}
		snprintf(sys->source + strlen(sys->source),
			 sizeof(sys->source) - strlen(sys->source),
			 " (agrees with sysfs)");
	} else {
		snprintf(sys->source, sizeof(sys->source),
			 "sysfs (likwid disagrees at CPU %d; sysfs used)", bad);
	}
	return bad;
}

const struct vsb_topo *vsb_topo_get(void)
{
	static struct vsb_topo sys, *t;
	static int done;

	if (done)
		return t;
	done = 1;
	if (vsb_topo_from_sysfs("/sys/devices/system/cpu", "/sys/devices/system/node",
				&sys) == 0)
		t = &sys;
#ifdef VSB_HAVE_LIKWID
	{
		static struct vsb_topo lk, raw;
		const struct vsb_likwid_api *lw;
		char why[160] = "";
		int ret = -1;

		raw = sys;	/* the cache's key: sysfs as read */
		if (t && vsb_topo_cache_load(&raw, VSB_LIKWID_SONAME, &sys) == 0) {
			snprintf(sys.source + strlen(sys.source),
				 sizeof(sys.source) - strlen(sys.source),
				 ", checked earlier this boot");
			vsb_topo_mark_allowed(t);
			return t;
		}
		foreign_leaks_begin();
		lw = vsb_likwid_api(why, sizeof(why));
		if (lw)
			ret = topo_from_likwid(lw, &lk);
		foreign_leaks_end();
		if (!lw && t) {
			snprintf(t->source, sizeof(t->source),
				 "sysfs (likwid not loaded: %.100s)", why);
		} else if (ret == 0) {
			if (!t) {
				t = &lk;
				snprintf(t->source + strlen(t->source),
					 sizeof(t->source) - strlen(t->source),
					 " (no sysfs topology to cross-check)");
			} else {
				vsb_topo_cross_check(&sys, &lk);
				vsb_topo_cache_store(&raw, VSB_LIKWID_SONAME, &sys);
			}
		} else if (t) {
			snprintf(t->source, sizeof(t->source),
				 "sysfs (likwid topology_init failed)");
		}
	}
#else
	if (t)
		snprintf(t->source, sizeof(t->source), "sysfs (built without likwid)");
#endif
	if (t)
		vsb_topo_mark_allowed(t);
	return t;
}

static const char *plural(int n)
{
	return n == 1 ? "" : "s";
}

void vsb_topo_summary(const struct vsb_topo *t, char *buf, size_t len)
{
	int i, cps = t->nsockets ? t->ncores / t->nsockets : t->ncores;
	size_t off;

	off = (size_t)snprintf(buf, len,
			       "%d socket%s x %d core%s x %d thread%s, %d NUMA node%s, %d CPU%s",
			       t->nsockets, plural(t->nsockets), cps, plural(cps),
			       t->threads_per_core, plural(t->threads_per_core),
			       t->nnodes, plural(t->nnodes), t->n, plural(t->n));
	for (i = 0; i < t->ncaches && off < len; i++) {
		const struct vsb_topo_cache *c = &t->cache[i];
		char unit = 'K';
		long sz = c->size_kb;

		if (sz >= 1024 && sz % 1024 == 0) {
			sz /= 1024;
			unit = 'M';
		}
		off += (size_t)snprintf(buf + off, len - off, "%s L%d%s %ld%c/%d",
					i ? "," : ";", c->level,
					c->type[0] == 'D' ? "d" : c->type[0] == 'I' ? "i" : "",
					sz, unit, c->shared_by);
	}
}

int vsb_topo_smt_shared(const struct vsb_topo *t, const struct vsb_cpulist *cl)
{
	int i, j;

	for (i = 0; i < cl->n; i++) {
		const struct vsb_topo_cpu *a = vsb_topo_find(t, cl->cpu[i]);

		for (j = 0; a && j < i; j++) {
			const struct vsb_topo_cpu *b = vsb_topo_find(t, cl->cpu[j]);

			if (b && a != b && same_core(a, b))
				return 1;
		}
	}
	return 0;
}

/* ---- placement ---- */

static int rank_domain(const struct vsb_topo *t, enum vsb_policy p, int by_node,
		       const struct vsb_topo_cpu *c)
{
	(void)t;
	if (p == P_SCATTER)
		return by_node ? c->node : c->pkg;
	return p == P_NODE ? c->node : c->pkg;
}

struct slot {
	int cpu, smt, rank, dom, dom2;
};

static int cmp_compact(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	if (x->dom2 != y->dom2)
		return x->dom2 - y->dom2;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	if (x->smt != y->smt)
		return x->smt - y->smt;
	return x->cpu - y->cpu;
}

static int cmp_cores_first(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	if (x->smt != y->smt)
		return x->smt - y->smt;
	if (x->dom2 != y->dom2)
		return x->dom2 - y->dom2;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	return x->cpu - y->cpu;
}

static int cmp_scatter(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	if (x->smt != y->smt)
		return x->smt - y->smt;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	if (x->dom != y->dom)
		return x->dom - y->dom;
	return x->cpu - y->cpu;
}

int vsb_place(const struct vsb_topo *t, const char *policy, int n,
	      int allow_oversubscribe, struct vsb_cpulist *out,
	      char *err, size_t errlen)
{
	struct slot *s;
	enum vsb_policy p;
	int node = -1, i, j, ns = 0, by_node, *cpu;

	vsb_cpulist_set(out, NULL, 0);
	if (vsb_place_policy_parse(policy, &p, &node)) {
		snprintf(err, errlen, "'%s' is not one of %s", policy, VSB_PLACEMENTS);
		return VSB_EXIT_USAGE;
	}
	if (n < 0 || n > VSB_MAX_CPUS) {
		snprintf(err, errlen, "%d workers is out of range (1..%d)", n, VSB_MAX_CPUS);
		return VSB_EXIT_USAGE;
	}
	s = vsb_zalloc((size_t)(t->n ? t->n : 1) * sizeof(*s));
	/* scatter over NUMA nodes when they split sockets, else over sockets */
	by_node = t->nnodes > 1 && t->nnodes >= t->nsockets;
	for (i = 0; i < t->n; i++) {
		const struct vsb_topo_cpu *c = &t->cpu[i];

		if (!c->allowed || (p == P_NODE && c->node != node))
			continue;
		s[ns].cpu = c->cpu;
		s[ns].smt = c->smt;
		s[ns].dom = by_node ? c->node : c->pkg;
		s[ns].dom2 = p == P_NODE ? 0 : c->pkg;
		ns++;
	}
	/*
	 * Rank of a core inside its domain: how many cores of the same domain
	 * start at a lower CPU number.  A core starts at its smt-0 thread,
	 * the lowest-numbered (vsb_topo_finish numbers siblings in CPU order).
	 */
	for (i = 0; i < ns; i++) {
		const struct vsb_topo_cpu *ci = vsb_topo_find(t, s[i].cpu);
		int first = ci->cpu, rank = 0;

		for (j = 0; j < t->n; j++)
			if (t->cpu[j].smt == 0 && same_core(&t->cpu[j], ci))
				first = t->cpu[j].cpu;
		for (j = 0; j < t->n; j++) {
			const struct vsb_topo_cpu *cj = &t->cpu[j];

			if (cj->smt == 0 && cj->cpu < first &&
			    rank_domain(t, p, by_node, cj) == rank_domain(t, p, by_node, ci))
				rank++;
		}
		s[i].rank = rank;
	}
	if (!ns) {
		free(s);
		if (p == P_NODE)
			snprintf(err, errlen, "NUMA node %d has no CPU this process may use",
				 node);
		else
			snprintf(err, errlen, "no CPU this process may use");
		return VSB_EXIT_USAGE;
	}
	qsort(s, (size_t)ns, sizeof(*s), p == P_COMPACT ? cmp_compact :
	      p == P_SCATTER ? cmp_scatter : cmp_cores_first);
	if (n == 0)
		n = ns;
	if (n > ns && !allow_oversubscribe) {
		free(s);
		snprintf(err, errlen,
			 "%d workers but only %d CPU%s for placement %s "
			 "(--allow-oversubscribe puts several workers on one CPU)",
			 n, ns, plural(ns), policy);
		return VSB_EXIT_USAGE;
	}
	cpu = vsb_zalloc((size_t)(n ? n : 1) * sizeof(*cpu));
	for (i = 0; i < n; i++)
		cpu[i] = s[i % ns].cpu;
	vsb_cpulist_set(out, cpu, n);
	free(cpu);
	free(s);
	return 0;
}
