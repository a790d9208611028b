// SPDX-License-Identifier: GPL-2.0
/*
 * The --monitor spec and the /proc formats the sampler reads.  Pure text
 * in, values out through a callback, so the unit tests feed them copies
 * of real files (tests/fixtures/monitor/).  Written by hand: these are a
 * few line formats of the kernel's own, and the libraries that read them
 * (procps' libproc2) cover neither zoneinfo's pagesets nor buddyinfo.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "monitor_spec.h"
#include "vsb.h"

static const struct {
	const char *name;
	unsigned int bit;
} sources[] = {
	{ "vmstat", VSB_MON_VMSTAT },
	{ "interrupts", VSB_MON_INTERRUPTS },
	{ "stat", VSB_MON_STAT },
	{ "zoneinfo", VSB_MON_ZONEINFO },
	{ "buddyinfo", VSB_MON_BUDDYINFO },
	{ "loadavg", VSB_MON_LOADAVG },
	{ "trace", VSB_MON_TRACE },
};
#define NSOURCES (sizeof(sources) / sizeof(sources[0]))

static int source_bit(const char *name, size_t len, unsigned int *bit)
{
	size_t i;

	if (len == 3 && !strncmp(name, "all", 3)) {
		*bit = (1u << NSOURCES) - 1;
		return 0;
	}
	for (i = 0; i < NSOURCES; i++)
		if (strlen(sources[i].name) == len && !strncmp(sources[i].name, name, len)) {
			*bit = sources[i].bit;
			return 0;
		}
	return -1;
}

/*
 * "1", "0.5s", "250ms" -> whole milliseconds in range, into *@ms: 0, -1
 * when not a number, or vsb_real_units()'s refusal (the value itself
 * checked: 99.5ms is under 100 ms, not 100 ms).
 */
static int parse_interval(const char *s, long *ms)
{
	const char *end;
	long long v;
	double d;
	int ret;

	end = vsb_scan_real(s, &d);
	if (!end || (*end && strcmp(end, "ms") && strcmp(end, "s")))
		return -1;
	ret = vsb_real_units(d, strcmp(end, "ms") ? 1000 : 1, VSB_MON_INTERVAL_MIN_MS,
			     VSB_MON_INTERVAL_MAX_MS, &v);
	*ms = (long)v;
	return ret;
}

static int parse_list(const char *list, size_t len, unsigned int *bits,
		      const char *where)
{
	const char *p = list, *end = list + len;

	*bits = 0;
	while (p <= end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		size_t n = comma ? (size_t)(comma - p) : (size_t)(end - p);
		unsigned int bit;

		if (!n) {
			vsb_err("%s: empty source name in '%.*s' (sources: vmstat, interrupts, "
				"stat, zoneinfo, buddyinfo, loadavg, trace, all)", where,
				(int)len, list);
			return VSB_EXIT_USAGE;
		}
		if (source_bit(p, n, &bit)) {
			vsb_err("%s: unknown source '%.*s' (sources: vmstat, interrupts, "
				"stat, zoneinfo, buddyinfo, loadavg, trace, all)", where,
				(int)n, p);
			return VSB_EXIT_USAGE;
		}
		*bits |= bit;
		if (!comma)
			break;
		p = comma + 1;
	}
	return 0;
}

int vsb_monitor_parse_spec(const char *spec, struct vsb_monitor_spec *s,
			   const char *where)
{
	const char *colon = strchr(spec, ':');
	size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
	long ms;
	int ret;

	s->sources = 0;
	s->interval_ms = VSB_MON_INTERVAL_DEF_MS;
	ret = parse_list(spec, len, &s->sources, where);
	if (ret || !colon)
		return ret;
	ret = parse_interval(colon + 1, &ms);
	if (ret == -1) {
		vsb_err("%s: interval '%s' is not a number of seconds (1, 0.5s) or "
			"milliseconds (250ms)", where, colon + 1);
		return VSB_EXIT_USAGE;
	}
	if (ret == VSB_UNITS_RANGE) {
		vsb_err("%s: interval '%s' is out of range (%ld ms .. %ld s)", where,
			colon + 1, VSB_MON_INTERVAL_MIN_MS, VSB_MON_INTERVAL_MAX_MS / 1000);
		return VSB_EXIT_USAGE;
	}
	if (ret) {
		vsb_err("%s: interval '%s' is not a whole number of milliseconds", where,
			colon + 1);
		return VSB_EXIT_USAGE;
	}
	s->interval_ms = ms;
	return 0;
}

int vsb_monitor_check(const char *v, const char *where)
{
	struct vsb_monitor_spec s;

	return *v ? vsb_monitor_parse_spec(v, &s, where) : 0;
}

void vsb_monitor_format_sources(unsigned int bits, char *buf, size_t len)
{
	size_t i, o = 0;

	buf[0] = '\0';
	for (i = 0; i < NSOURCES && o < len; i++)
		if (bits & sources[i].bit)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? "," : "",
					      sources[i].name);
}

void vsb_monitor_path(const char *path, char *buf, size_t len)
{
	size_t n = strlen(path);

	if (n > 4 && !strcmp(path + n - 4, ".csv"))
		snprintf(buf, len, "%.*s.monitor.csv", (int)(n - 4), path);
	else
		snprintf(buf, len, "%s.monitor.csv", path);
}

/* ---- /proc formats ---- */

/* the next line of *p into @line (NUL-terminated, newline dropped); 0 at the end */
static int next_line(const char **p, char *line, size_t len)
{
	const char *s = *p, *nl;
	size_t n;

	if (!*s)
		return 0;
	nl = strchr(s, '\n');
	n = nl ? (size_t)(nl - s) : strlen(s);
	*p = nl ? nl + 1 : s + n;
	if (n >= len)
		n = len - 1;
	memcpy(line, s, n);
	line[n] = '\0';
	return 1;
}

/* "pgalloc_normal 42948987" per line */
int vsb_monitor_parse_vmstat(const char *text, vsb_monitor_emit_fn emit, void *ctx)
{
	char line[256], key[128];
	unsigned long long v;
	int n = 0;

	while (next_line(&text, line, sizeof(line))) {
		if (!line[0])
			continue;
		if (sscanf(line, "%127s %llu", key, &v) != 2)
			return -1;
		emit(ctx, "vmstat", key, -1, (double)v);
		n++;
	}
	return n ? n : -1;
}

/*
 * A header of "CPU0 CPU1 ..." (offline CPUs left out, so the numbers come
 * from the header), then one line per interrupt source: "NAME:" and a
 * count per CPU.  ERR and MIS have one machine-wide count and are left
 * out of the per-CPU totals.  The local timer and the IPIs that explain
 * a slow CPU (rescheduling, function calls, TLB shootdowns) are kept by
 * name too.
 */
int vsb_monitor_parse_interrupts(const char *text, vsb_monitor_emit_fn emit, void *ctx)
{
	static const char *const named[] = { "LOC", "RES", "CAL", "TLB" };
	char line[4096], *tok, *save;
	int cpus[VSB_MAX_CPUS], ncol = 0, i, n = 0;
	double *total, *row;

	if (!next_line(&text, line, sizeof(line)))
		return -1;
	for (tok = strtok_r(line, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (strncmp(tok, "CPU", 3) || ncol >= VSB_MAX_CPUS)
			return -1;
		cpus[ncol++] = atoi(tok + 3);
	}
	if (!ncol)
		return -1;
	total = calloc(2 * (size_t)ncol, sizeof(*total));
	if (!total)
		return -1;
	row = total + ncol;
	while (next_line(&text, line, sizeof(line))) {
		char name[16] = "", *p = line, *end;
		size_t k;
		int keep = 0;

		while (isspace((unsigned char)*p))
			p++;
		end = strchr(p, ':');
		if (!end)
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(end - p), p);
		for (k = 0; k < sizeof(named) / sizeof(named[0]); k++)
			keep |= !strcmp(name, named[k]);
		p = end + 1;
		for (i = 0; i < ncol; i++) {
			row[i] = strtod(p, &end);
			if (end == p)
				break;
			p = end;
		}
		if (i < ncol)	/* ERR:, MIS: one machine-wide count */
			continue;
		for (i = 0; i < ncol; i++) {
			total[i] += row[i];
			if (keep) {
				emit(ctx, "interrupts", name, cpus[i], row[i]);
				n++;
			}
		}
	}
	for (i = 0; i < ncol; i++)
		emit(ctx, "interrupts", "total", cpus[i], total[i]);
	free(total);
	return n + ncol;
}

/* "cpu  user nice system idle iowait irq softirq steal guest guest_nice" */
int vsb_monitor_parse_stat(const char *text, vsb_monitor_emit_fn emit, void *ctx)
{
	static const char *const field[] = {
		"user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal",
	};
	char line[512];
	int n = 0;

	while (next_line(&text, line, sizeof(line))) {
		unsigned long long v[8] = { 0 };
		char *p = line + 3, *end;
		int cpu = -1, k;

		if (strncmp(line, "cpu", 3))
			continue;
		if (isdigit((unsigned char)*p)) {
			cpu = (int)strtol(p, &end, 10);
			p = end;
		}
		if (!isspace((unsigned char)*p))
			return -1;
		/* steal is there since 2.6.11; older fields absent read 0 */
		for (k = 0; k < 8; k++) {
			v[k] = strtoull(p, &end, 10);
			if (end == p)
				break;
			p = end;
		}
		if (k < 4)
			return -1;
		for (k = 0; k < 8; k++)
			emit(ctx, "stat", field[k], cpu, (double)v[k]);
		n += 8;
	}
	return n ? n : -1;
}

/*
 * Per zone ("Node 0, zone   Normal"): "pages free N", the watermarks
 * ("min N", "low N", "high N", no colon), then per CPU ("cpu: N") the
 * pageset's "count:", "high:", "batch:" and "vm stats threshold:".  The
 * per-node stats block some kernels print under the first zone is left
 * out (it is /proc/vmstat's nr_* again).
 */
int vsb_monitor_parse_zoneinfo(const char *text, vsb_monitor_emit_fn emit, void *ctx)
{
	char line[512], zone[64] = "", key[160], word[64];
	int node, cpu = -1, n = 0;
	unsigned long long v;

	while (next_line(&text, line, sizeof(line))) {
		char zname[32];

		if (sscanf(line, "Node %d, zone %31s", &node, zname) == 2) {
			snprintf(zone, sizeof(zone), "node%d/%s", node, zname);
			cpu = -1;
			continue;
		}
		if (!zone[0])
			continue;
		if (sscanf(line, " pages free %llu", &v) == 1) {
			snprintf(key, sizeof(key), "%s/free", zone);
		} else if (sscanf(line, " cpu: %d", &cpu) == 1) {
			continue;
		} else if (sscanf(line, " vm stats threshold: %llu", &v) == 1 && cpu >= 0) {
			snprintf(key, sizeof(key), "%s/stat_threshold", zone);
			emit(ctx, "zoneinfo", key, cpu, (double)v);
			n++;
			continue;
		} else if (sscanf(line, " %63[a-z_]: %llu", word, &v) == 2 && cpu >= 0) {
			if (strcmp(word, "count") && strcmp(word, "high") && strcmp(word, "batch"))
				continue;
			snprintf(key, sizeof(key), "%s/pcp_%s", zone, word);
			emit(ctx, "zoneinfo", key, cpu, (double)v);
			n++;
			continue;
		} else if (cpu < 0 && sscanf(line, " %63s %llu", word, &v) == 2 &&
			   (!strcmp(word, "min") || !strcmp(word, "low") ||
			    !strcmp(word, "high"))) {
			snprintf(key, sizeof(key), "%s/wmark_%s", zone, word);
		} else {
			continue;
		}
		emit(ctx, "zoneinfo", key, -1, (double)v);
		n++;
	}
	return n ? n : -1;
}

/* "Node 0, zone   Normal  10896   8193 ..." : free blocks per order */
int vsb_monitor_parse_buddyinfo(const char *text, vsb_monitor_emit_fn emit, void *ctx)
{
	char line[512], zname[32], key[96];
	int node, off, n = 0;

	while (next_line(&text, line, sizeof(line))) {
		char *p, *end;
		int order;

		if (!line[0])
			continue;
		if (sscanf(line, "Node %d, zone %31s%n", &node, zname, &off) != 2)
			return -1;
		p = line + off;
		for (order = 0;; order++) {
			double v = strtod(p, &end);

			if (end == p)
				break;
			p = end;
			snprintf(key, sizeof(key), "node%d/%s/order%d", node, zname, order);
			emit(ctx, "buddyinfo", key, -1, v);
			n++;
		}
	}
	return n ? n : -1;
}

/* "2.08 2.72 1.70 8/112 19124" */
int vsb_monitor_parse_loadavg(const char *text, vsb_monitor_emit_fn emit, void *ctx)
{
	double l1, l5, l15;
	long run, tasks;

	if (sscanf(text, "%lf %lf %lf %ld/%ld", &l1, &l5, &l15, &run, &tasks) != 5)
		return -1;
	emit(ctx, "loadavg", "load1", -1, l1);
	emit(ctx, "loadavg", "load5", -1, l5);
	emit(ctx, "loadavg", "load15", -1, l15);
	emit(ctx, "loadavg", "running", -1, (double)run);
	emit(ctx, "loadavg", "tasks", -1, (double)tasks);
	return 5;
}
