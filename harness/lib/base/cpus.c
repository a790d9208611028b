// SPDX-License-Identifier: GPL-2.0
/*
 * CPU lists: "0-3,8,10-11" parsing and formatting, and the check that
 * every listed CPU is online and in this process's affinity mask (a
 * benchmark pinned to a CPU it cannot run on would silently migrate).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vsb.h"

/* one CPU number: vsb_scan_decimal()'s syntax (no sign, no leading zeros) */
static int parse_cpu_num(const char **s, long *v)
{
	const char *end;

	if (!isdigit((unsigned char)**s))
		return -1;
	end = vsb_scan_decimal(*s, v);
	if (!end || *v < 0 || *v >= VSB_MAX_CPUS)
		return -1;
	*s = end;
	return 0;
}

/*
 * The pool behind every list: one array per distinct list, found by a
 * linear search.  A run holds a handful of distinct lists (a sweep a few
 * dozen), so a hash table would buy nothing; the lock is for the
 * monitor and drift threads, which build theirs while workers run.
 */
struct pooled {
	int n;
	int cpu[];
};
static struct pooled **pool;
static size_t npool, pool_cap;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;

void vsb_cpulist_set(struct vsb_cpulist *cl, const int *cpu, int n)
{
	struct pooled *p = NULL;
	size_t i;

	cl->n = n;
	cl->cpu = NULL;
	if (n <= 0) {
		cl->n = 0;
		return;
	}
	pthread_mutex_lock(&pool_lock);
	for (i = 0; i < npool && !p; i++)
		if (pool[i]->n == n && !memcmp(pool[i]->cpu, cpu, (size_t)n * sizeof(*cpu)))
			p = pool[i];
	if (!p) {
		p = vsb_zalloc(sizeof(*p) + (size_t)n * sizeof(*cpu));
		p->n = n;
		memcpy(p->cpu, cpu, (size_t)n * sizeof(*cpu));
		pool = vsb_grow(pool, npool, &pool_cap, sizeof(*pool));
		pool[npool++] = p;
	}
	pthread_mutex_unlock(&pool_lock);
	cl->cpu = p->cpu;
}

/*
 * "0-3,8" into @cpu (@n of them), each CPU once (@seen); 0, or -1 said
 * against option @opt (NULL: quiet, for lists read from sysfs).
 */
static int parse_ranges(const char *s, int *cpu, int *n, char *seen,
			const char *opt)
{
	const char *p = s;
	long a, b, c;

	if (!s || !*s)
		goto bad;
	for (;;) {
		if (parse_cpu_num(&p, &a))
			goto bad;
		b = a;
		if (*p == '-') {
			p++;
			if (parse_cpu_num(&p, &b) || b < a)
				goto bad;
		}
		for (c = a; c <= b; c++) {
			if (seen[c]) {
				if (opt)
					vsb_err("%s: CPU %ld listed twice in '%s' (one "
						"worker per CPU)", opt, c, s);
				return -1;
			}
			seen[c] = 1;
			cpu[(*n)++] = (int)c;
		}
		if (*p == '\0')
			return 0;
		if (*p++ != ',')
			goto bad;
	}
bad:
	if (opt)
		vsb_err("%s: malformed CPU list '%s' (expected e.g. 0-3,8 with CPUs "
			"below %d)", opt, s ? s : "", VSB_MAX_CPUS);
	return -1;
}

int vsb_cpulist_parse(const char *s, struct vsb_cpulist *cl, const char *opt)
{
	int *cpu = vsb_zalloc(VSB_MAX_CPUS * sizeof(*cpu));
	char *seen = vsb_zalloc(VSB_MAX_CPUS);
	int n = 0, ret = 0;

	cl->n = 0;
	cl->cpu = NULL;
	if (parse_ranges(s, cpu, &n, seen, opt))
		ret = VSB_EXIT_USAGE;
	else
		vsb_cpulist_set(cl, cpu, n);
	free(cpu);
	free(seen);
	return ret;
}

int vsb_cpulist_parse_sysfs(const char *s, struct vsb_cpulist *cl)
{
	char *line = strndup(s, strcspn(s, "\n"));
	int ret;

	if (!line) {
		vsb_err("out of memory");
		exit(VSB_EXIT_ERROR);
	}
	cl->n = 0;
	cl->cpu = NULL;
	ret = *line ? vsb_cpulist_parse(line, cl, NULL) : 0;	/* "": no CPU */
	free(line);
	return ret ? -1 : 0;
}

int vsb_cpu_online(int cpu)
{
	char path[128];
	long v;

	if (cpu == 0)
		return 1;	/* cpu0 often has no "online" file */
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	if (vsb_read_file_long(path, &v) == 0)
		return v == 1;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	return access(path, F_OK) == 0;
}

/*
 * isolcpus= takes a CPU out of every task's default affinity, yet a
 * thread may still pin itself there: the isolated bench's very point.
 */
static int cpu_isolated(int cpu)
{
	struct vsb_cpulist iso;
	char buf[1024];
	int i;

	if (vsb_read_file_str("/sys/devices/system/cpu/isolated", buf, sizeof(buf)) ||
	    vsb_cpulist_parse_sysfs(buf, &iso))
		return 0;
	for (i = 0; i < iso.n; i++)
		if (iso.cpu[i] == cpu)
			return 1;
	return 0;
}

int vsb_cpulist_check_usable(const struct vsb_cpulist *cl, const char *opt)
{
	cpu_set_t *set;
	size_t sz = CPU_ALLOC_SIZE(VSB_MAX_CPUS);
	int i, ret = 0;

	set = CPU_ALLOC(VSB_MAX_CPUS);
	if (!set || sched_getaffinity(0, sz, set)) {
		vsb_err("%s: cannot read the affinity mask", opt);
		CPU_FREE(set);
		return VSB_EXIT_ERROR;
	}
	for (i = 0; i < cl->n; i++) {
		int cpu = cl->cpu[i];

		if (!vsb_cpu_online(cpu)) {
			vsb_err("%s: CPU %d is not online", opt, cpu);
			ret = VSB_EXIT_USAGE;
			break;
		}
		if (!CPU_ISSET_S(cpu, sz, set) && !cpu_isolated(cpu)) {
			vsb_err("%s: CPU %d is not in this process's allowed CPUs (taskset/cgroup)",
				opt, cpu);
			ret = VSB_EXIT_USAGE;
			break;
		}
	}
	CPU_FREE(set);
	return ret;
}

/*
 * Ranges joined by @sep: ',' for people, ';' inside CSV fields so that a
 * CPU list never needs quoting (gnuplot does not parse quoted commas).
 */
void vsb_cpulist_format(const struct vsb_cpulist *cl, char *buf, size_t len,
			char sep)
{
	size_t off = 0;
	int i = 0;

	buf[0] = '\0';
	while (i < cl->n && off < len) {
		int j = i;

		while (j + 1 < cl->n && cl->cpu[j + 1] == cl->cpu[j] + 1)
			j++;
		if (j > i)
			off += snprintf(buf + off, len - off, "%.*s%d-%d",
					off ? 1 : 0, &sep, cl->cpu[i], cl->cpu[j]);
		else
			off += snprintf(buf + off, len - off, "%.*s%d",
					off ? 1 : 0, &sep, cl->cpu[i]);
		i = j + 1;
	}
}

/*
 * The CPUs this process may run on that @busy does not name: where a
 * helper thread (drift's shepherd and reader, the monitor's sampler) runs
 * without taking time from a worker.  Empty when there is none.
 */
void vsb_cpulist_spare(const struct vsb_cpulist *busy, struct vsb_cpulist *spare)
{
	int cpu[CPU_SETSIZE], n = 0, i;
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		CPU_ZERO(&set);
	for (i = 0; i < busy->n; i++)
		if (busy->cpu[i] >= 0 && busy->cpu[i] < CPU_SETSIZE)
			CPU_CLR(busy->cpu[i], &set);
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			cpu[n++] = i;
	vsb_cpulist_set(spare, cpu, n);
}

/* Threads created with @attr run on @cl's CPUs (anywhere when @cl is empty). */
void vsb_cpulist_pin_attr(const struct vsb_cpulist *cl, pthread_attr_t *attr)
{
	cpu_set_t set;
	int i;

	if (!cl->n)
		return;
	CPU_ZERO(&set);
	for (i = 0; i < cl->n; i++)
		if (cl->cpu[i] >= 0 && cl->cpu[i] < CPU_SETSIZE)
			CPU_SET(cl->cpu[i], &set);
	pthread_attr_setaffinity_np(attr, sizeof(set), &set);
}

int vsb_cpu_first_allowed(void)
{
	cpu_set_t set;
	int c;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			return c;
	return 0;
}
