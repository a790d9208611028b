// SPDX-License-Identifier: GPL-2.0
/*
 * Environment parsers: the kernel config, per-CPU sysfs values, and the
 * vm_committed_as batch the overcommit policy implies (/proc/cpuinfo is
 * cpuinfo.c's).  See env.h; meta.c turns these into `# key: value` lines.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "env.h"

static char kyn(const char *v)
{
	return v[0] == 'y' ? 'y' : v[0] == 'm' ? 'm' : 'n';
}

void vsb_kconfig_parse(FILE *f, struct vsb_kconfig *kc)
{
	char line[1024];
	int pnone = 0, pvol = 0, pfull = 0, plazy = 0, prt = 0;

	kc->found = 1;
	while (fgets(line, sizeof(line), f)) {
		char *eq, *k, *v;

		if (strncmp(line, "CONFIG_", 7))
			continue;	/* "# CONFIG_X is not set" means n: the default */
		line[strcspn(line, "\n")] = '\0';
		eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = '\0';
		k = line + 7;
		v = eq + 1;
		if (!strcmp(k, "HAVE_CMPXCHG_LOCAL"))
			kc->cmpxchg_local = kyn(v);
		else if (!strcmp(k, "NUMA"))
			kc->numa = kyn(v);
		else if (!strcmp(k, "SMP"))
			kc->smp = kyn(v);
		else if (!strcmp(k, "PREEMPT_DYNAMIC"))
			kc->preempt_dynamic = kyn(v);
		else if (!strcmp(k, "NO_HZ_FULL"))
			kc->no_hz_full = kyn(v);
		else if (!strcmp(k, "DEBUG_VM"))
			kc->debug_vm = kyn(v);
		else if (!strcmp(k, "LOCKDEP"))
			kc->lockdep = kyn(v);
		else if (!strcmp(k, "KASAN"))
			kc->kasan = kyn(v);
		else if (!strcmp(k, "HZ"))
			kc->hz = atol(v);
		else if (!strcmp(k, "NR_CPUS"))
			kc->nr_cpus = atol(v);
		else if (!strcmp(k, "PREEMPT_NONE"))
			pnone = v[0] == 'y';
		else if (!strcmp(k, "PREEMPT_VOLUNTARY"))
			pvol = v[0] == 'y';
		else if (!strcmp(k, "PREEMPT"))
			pfull = v[0] == 'y';
		else if (!strcmp(k, "PREEMPT_LAZY"))
			plazy = v[0] == 'y';
		else if (!strcmp(k, "PREEMPT_RT"))
			prt = v[0] == 'y';
	}
	/* most specific first: RT and LAZY kernels also set PREEMPT=y */
	snprintf(kc->preempt, sizeof(kc->preempt), "%s",
		 prt ? "rt" : plazy ? "lazy" : pfull ? "full" : pvol ? "voluntary" :
		 pnone ? "none" : "?");
}

/* a kernel config is some 300 KiB; anything past this is not one */
#define KCONFIG_MAX	(16u << 20)

/*
 * The whole of @path, gunzipped, in a buffer the caller frees; NULL when
 * it cannot be read, is larger than KCONFIG_MAX, or ends in an error (a
 * truncated gzip stream reads as data and then Z_BUF_ERROR): such a
 * config must not be half-parsed.  zlib passes a file that is not gzip
 * through as it is, so this one reader serves /boot/config-* and
 * /proc/config.gz, without a gzip process per record.
 */
static char *gz_slurp(const char *path, size_t *lenp)
{
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap), *more;
	gzFile gz = gzopen(path, "rb");
	int n, err = Z_OK;

	if (!gz || !buf)
		goto fail;
	while ((n = gzread(gz, buf + len, (unsigned)(cap - len))) > 0) {
		len += (size_t)n;
		if (len < cap)
			continue;
		if (cap >= KCONFIG_MAX || !(more = realloc(buf, cap * 2)))
			goto fail;
		buf = more;
		cap *= 2;
	}
	gzerror(gz, &err);
	if (n < 0 || err != Z_OK || !len)
		goto fail;
	gzclose(gz);
	*lenp = len;
	return buf;
fail:
	if (gz)
		gzclose(gz);
	free(buf);
	return NULL;
}

int vsb_kconfig_read_path(const char *path, struct vsb_kconfig *kc)
{
	size_t len;
	char *buf = gz_slurp(path, &len);
	FILE *f = buf ? fmemopen(buf, len, "r") : NULL;
	int ret = f ? 0 : -1;

	memset(kc, 0, sizeof(*kc));
	if (f) {
		vsb_kconfig_parse(f, kc);
		fclose(f);
	}
	free(buf);
	return ret;
}

int vsb_kconfig_read(const char *release, struct vsb_kconfig *kc)
{
	char path[512];

	snprintf(path, sizeof(path), "/boot/config-%s", release);
	if (vsb_kconfig_read_path(path, kc)) {
		snprintf(path, sizeof(path), "/proc/config.gz");
		if (vsb_kconfig_read_path(path, kc)) {
			snprintf(kc->source, sizeof(kc->source),
				 "none (no /boot/config-%s, no readable /proc/config.gz)",
				 release);
			return -1;
		}
	}
	snprintf(kc->source, sizeof(kc->source), "%s", path);
	return 0;
}

static char ynz(char c)
{
	return c ? c : 'n';
}

void vsb_kconfig_format(const struct vsb_kconfig *kc, char *buf, size_t len)
{
	if (!kc->found) {
		snprintf(buf, len, "unknown (%s)", kc->source);
		return;
	}
	/*
	 * HAVE_CMPXCHG_LOCAL is a prompt-less bool the architecture selects
	 * (x86, arm64, s390, riscv, loongarch), so it is in .config exactly
	 * when selected; absent means mm/vmstat.c takes the irq-disable path.
	 */
	snprintf(buf, len,
		 "HAVE_CMPXCHG_LOCAL=%c (vmstat updates: %s) NUMA=%c SMP=%c PREEMPT=%s%s "
		 "HZ=%ld NO_HZ_FULL=%c NR_CPUS=%ld DEBUG_VM=%c LOCKDEP=%c KASAN=%c",
		 ynz(kc->cmpxchg_local),
		 kc->cmpxchg_local == 'y' ? "this_cpu_cmpxchg" : "irq-disable",
		 ynz(kc->numa), ynz(kc->smp), kc->preempt,
		 kc->preempt_dynamic == 'y' ? "(dynamic)" : "", kc->hz,
		 ynz(kc->no_hz_full), kc->nr_cpus, ynz(kc->debug_vm),
		 ynz(kc->lockdep), ynz(kc->kasan));
}

long long vsb_committed_as_batch(int overcommit_policy,
				 unsigned long long ram_pages, int present_cpus)
{
	long long nr = present_cpus > 0 ? present_cpus : 1;
	long long batch = 2 * nr > 32 ? 2 * nr : 32;
	unsigned long long mem = ram_pages / (unsigned long long)nr /
				 (overcommit_policy == 2 ? 256 : 4);

	if (mem > INT_MAX)
		mem = INT_MAX;
	return (long long)mem > batch ? (long long)mem : batch;
}

struct val_group {
	char val[64];
	int n;
	int *cpu;	/* [VSB_MAX_CPUS] */
};

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

void vsb_env_per_cpu(const char *cpu_root, const char *file, char *buf,
		     size_t len)
{
	struct val_group g[8];
	int ng = 0, i, ncpu = 0, cpus[VSB_MAX_CPUS];
	size_t off = 0;
	struct dirent *de;
	DIR *d = opendir(cpu_root);

	buf[0] = '\0';
	if (!d) {
		snprintf(buf, len, "unavailable");
		return;
	}
	while ((de = readdir(d)) && ncpu < VSB_MAX_CPUS) {
		int cpu;

		if (!strncmp(de->d_name, "cpu", 3) && sscanf(de->d_name + 3, "%d", &cpu) == 1)
			cpus[ncpu++] = cpu;
	}
	closedir(d);
	qsort(cpus, (size_t)ncpu, sizeof(int), cmp_int);
	for (i = 0; i < ncpu; i++) {
		char path[512], v[64], on[512];
		long online;
		int k;

		snprintf(on, sizeof(on), "%s/cpu%d/online", cpu_root, cpus[i]);
		if (!vsb_read_file_long(on, &online) && online != 1)
			continue;
		snprintf(path, sizeof(path), "%s/cpu%d/%s", cpu_root, cpus[i], file);
		if (vsb_read_file_str(path, v, sizeof(v)) || !v[0])
			snprintf(v, sizeof(v), "none");
		for (k = 0; k < ng; k++)
			if (!strcmp(g[k].val, v))
				break;
		if (k == ng) {
			if (ng == 8)
				continue;	/* more than 8 values: the record stays short */
			snprintf(g[ng].val, sizeof(g[ng].val), "%s", v);
			g[ng].n = 0;
			g[ng].cpu = vsb_zalloc(VSB_MAX_CPUS * sizeof(*g[ng].cpu));
			ng++;
		}
		g[k].cpu[g[k].n++] = cpus[i];
	}
	for (i = 0; i < ng; i++) {
		/* formatted and dropped: a view of the scratch, not the pool */
		struct vsb_cpulist cl = { .n = g[i].n, .cpu = g[i].cpu };
		char list[256];

		vsb_cpulist_format(&cl, list, sizeof(list), ',');
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s (%s)",
						i ? "; " : "", g[i].val, list);
		free(g[i].cpu);
	}
	if (!ng)
		snprintf(buf, len, "unavailable");
}

int vsb_env_count_list(const char *path)
{
	char buf[4096], *p = buf, *end;
	int n = 0;

	if (vsb_read_file_str(path, buf, sizeof(buf)))
		return -1;
	while (*p) {
		long a = strtol(p, &end, 10), b;

		if (end == p)
			break;
		b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		n += (int)(b - a + 1);
		p = *end == ',' ? end + 1 : end;
		if (*end != ',')
			break;
	}
	return n;
}
