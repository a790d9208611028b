// SPDX-License-Identifier: GPL-2.0
/*
 * PMU counting through libpfm4 (see pmu.h for the model).
 *
 * Everything that touches libpfm runs on the main thread before workers
 * start (pfm_initialize is not thread-safe); workers only see the
 * perf_event_attr copies in the preflight set and call perf_event_open
 * and read(), which are.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* the kernel's header first: libpfm's copy steps aside when it sees it */
#include "pmu.h"
#include "clock.h"
#include "result.h"
#include "vsb.h"

#include "pfm_api.h"

int (*vsb_pmu_open_hook)(struct perf_event_attr *attr, int pid, int cpu,
			 int group_fd, unsigned long flags);

static int sys_perf_event_open(struct perf_event_attr *attr, int pid, int cpu,
			       int group_fd, unsigned long flags)
{
	if (vsb_pmu_open_hook)
		return vsb_pmu_open_hook(attr, pid, cpu, group_fd, flags);
	return (int)syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

/* ---- pure helpers ---- */

static int is_hw_type(uint32_t type)
{
	/* software, tracepoint and breakpoint events exist in every guest */
	return type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE ||
	       type == PERF_TYPE_RAW || type >= PERF_TYPE_MAX;
}

enum vsb_pmu_verdict vsb_pmu_classify(int err, uint32_t type, int paranoid,
				      const char *name, const char *plm,
				      char *why, size_t len)
{
	int kernel = strchr(plm, 'k') != NULL;

	switch (err) {
	case 0:
		snprintf(why, len, "%s: counts", name);
		return VSB_PMU_OK;
	case EACCES:
	case EPERM:
		/*
		 * paranoid 2 allows user-only counting of one's own tasks,
		 * 1 adds kernel mode; Debian's 3 allows nothing unprivileged.
		 */
		snprintf(why, len,
			 "%s: permission denied (perf_event_paranoid=%d; counting %s mode "
			 "needs paranoid <= %d, CAP_PERFMON or root: "
			 "sysctl -w kernel.perf_event_paranoid=%d%s)",
			 name, paranoid, kernel ? "kernel" : "user", kernel ? 1 : 2,
			 kernel ? 1 : 2, kernel ? ", or --plm u" : "");
		return VSB_PMU_EACCES;
	case ENOENT:
	case ENXIO:
	case ENODEV:
	case EOPNOTSUPP:
		if (is_hw_type(type)) {
			snprintf(why, len,
				 "%s: no hardware PMU (%s): a VM or container without a "
				 "virtual PMU, or the CPU lacks this event",
				 name, strerrorname_np(err) ? strerrorname_np(err) : "?");
			return VSB_PMU_NOPMU;
		}
		break;
	case EINVAL:
		snprintf(why, len, "%s: the kernel rejects this event or modifier (EINVAL)",
			 name);
		return VSB_PMU_ERROR;
	}
	snprintf(why, len, "%s: perf_event_open failed: %s", name, strerror(err));
	return VSB_PMU_ERROR;
}

static int has(const char *s, const char *sub)
{
	return strstr(s, sub) != NULL;
}

enum vsb_pmu_kind vsb_pmu_event_kind(uint32_t type, uint64_t config,
				     const char *pfm_name)
{
	char up[VSB_PMU_NAME_LEN];
	size_t i;

	if (type == PERF_TYPE_HARDWARE) {
		if (config == PERF_COUNT_HW_CPU_CYCLES)
			return VSB_PMU_K_CYCLES;
		if (config == PERF_COUNT_HW_INSTRUCTIONS)
			return VSB_PMU_K_INSTR;
		return VSB_PMU_K_OTHER;
	}
	if (!is_hw_type(type) || type == PERF_TYPE_HW_CACHE || !pfm_name)
		return VSB_PMU_K_OTHER;
	for (i = 0; i < sizeof(up) - 1 && pfm_name[i]; i++)
		up[i] = (char)toupper((unsigned char)pfm_name[i]);
	up[i] = '\0';
	/*
	 * Model PMU names.  Reference cycles (a REF_* umask or event) tick at
	 * the TSC rate, not the core's.  Skylake's libpfm table spells the
	 * SDM's CPU_CLK_UNHALTED as CPU_CLK_THREAD_UNHALTED; AMD calls core
	 * cycles CYCLES_NOT_IN_HALT (PPR PMCx076).
	 */
	if (!has(up, "REF") && (has(up, "UNHALTED_CORE_CYCLES") ||
				has(up, "CPU_CLK_UNHALTED") ||
				has(up, "CPU_CLK_THREAD_UNHALTED") ||
				!strcmp(up, "CYCLES_NOT_IN_HALT") ||
				has(up, "CPU_CYCLES") || !strcmp(up, "CYCLES")))
		return VSB_PMU_K_CYCLES;
	if (has(up, "INST_RETIRED") || has(up, "INSTRUCTIONS_RETIRED") ||
	    has(up, "INSTRUCTION_RETIRED") || !strcmp(up, "RETIRED_INSTRUCTIONS") ||
	    !strcmp(up, "INST_RETIRED"))
		return VSB_PMU_K_INSTR;
	return VSB_PMU_K_OTHER;
}

uint64_t vsb_pmu_scale_delta(const struct vsb_pmu_reading *a,
			     const struct vsb_pmu_reading *b, int i,
			     double *scale, int *mux)
{
	uint64_t de = b->enabled - a->enabled;
	uint64_t dr = b->running - a->running;
	uint64_t dv = b->val[i] - a->val[i];

	if (dr >= de) {		/* ran the whole interval (or no time passed) */
		*scale = 1.0;
		*mux = 0;
		return dv;
	}
	*mux = 1;
	if (dr == 0) {		/* never scheduled: nothing to extrapolate from */
		*scale = 0.0;
		return 0;
	}
	*scale = (double)dr / (double)de;
	return (uint64_t)((long double)dv * (long double)de / (long double)dr + 0.5L);
}

enum vsb_unit vsb_pmu_pick_unit(int have_cycles, int have_tsc)
{
	if (have_cycles)
		return VSB_UNIT_CYCLES;
	return have_tsc ? VSB_UNIT_TSC : VSB_UNIT_NS;
}

const char *vsb_unit_name(enum vsb_unit u)
{
	return u == VSB_UNIT_CYCLES ? "cycles" : u == VSB_UNIT_TSC ? "tsc" : "ns";
}

const char *vsb_pmu_verdict_name(enum vsb_pmu_verdict v)
{
	static const char *const names[] = {
		"ok", "eacces", "no-pmu", "unknown-event", "error", "not-tried",
	};

	return (unsigned int)v < sizeof(names) / sizeof(names[0]) ? names[v] : "?";
}

/* ---- libpfm ---- */

static const struct vsb_pfm_api *pfm;	/* loaded by pfm_ready() */
static char pfm_why[112];		/* why not, when it cannot be (fits ev->why) */

/* libpfm4 loaded and initialised, once; PFM_SUCCESS or its error */
static int pfm_ready(void)
{
	static int ret = 1;

	if (ret == 1) {
		pfm = vsb_pfm_api(pfm_why, sizeof(pfm_why));
		ret = pfm ? pfm->pfm_initialize() : PFM_ERR_NOINIT;
	}
	return ret;
}

/* libpfm's text for @ret, or why the library could not be loaded */
static const char *pfm_error(int ret)
{
	return pfm ? pfm->pfm_strerror(ret) : pfm_why;
}

static int plm_mask(const char *plm)
{
	return (strchr(plm, 'k') ? PFM_PLM0 : 0) | (strchr(plm, 'u') ? PFM_PLM3 : 0);
}

/*
 * What the kind is judged by: "EVENT[:UMASK...]" from libpfm's fully
 * qualified "pmu::EVENT:UMASK:mod=v:...", so that a reference-clock umask
 * of a cycles event is seen.  Returns 1 when a modifier changes what is
 * counted (edge, invert, counter mask, any-thread), making the event
 * neither plain cycles nor plain instructions.
 */
static int kind_key(const char *fstr, char *key, size_t len)
{
	const char *p = strstr(fstr, "::");
	size_t off = 0;
	int altered = 0;

	p = p ? p + 2 : fstr;
	key[0] = '\0';
	while (*p) {
		size_t n = strcspn(p, ":");
		const char *eq = memchr(p, '=', n);

		if (!eq && off < len)
			off += snprintf(key + off, len - off, "%s%.*s", off ? ":" : "",
					(int)n, p);
		else if (eq && eq - p == 1 && strchr("eict", *p) &&
			 strtoull(eq + 1, NULL, 0))
			altered = 1;
		p += n;
		if (*p)
			p++;
	}
	return altered;
}

/* Fill ev->attr, fstr and kind; returns the libpfm error code. */
static int encode(struct vsb_pmu_event *ev, const char *plm)
{
	pfm_perf_encode_arg_t arg;
	char key[VSB_PMU_FSTR_LEN];
	char *fstr = NULL;
	int ret;

	memset(&ev->attr, 0, sizeof(ev->attr));
	ev->attr.size = sizeof(ev->attr);
	memset(&arg, 0, sizeof(arg));
	arg.attr = &ev->attr;
	arg.fstr = &fstr;
	arg.size = sizeof(arg);
	ret = pfm_ready();
	if (ret != PFM_SUCCESS)
		return ret;
	/* plm applies only where the name carries no :u/:k of its own */
	ret = pfm->pfm_get_os_event_encoding(ev->name, plm_mask(plm),
					     PFM_OS_PERF_EVENT_EXT, &arg);
	if (ret != PFM_SUCCESS)
		return ret;
	snprintf(ev->fstr, sizeof(ev->fstr), "%s", fstr ? fstr : ev->name);
	free(fstr);
	ev->kind = kind_key(ev->fstr, key, sizeof(key)) ? VSB_PMU_K_OTHER :
		   vsb_pmu_event_kind(ev->attr.type, ev->attr.config, key);
	/*
	 * Not pinned: a pinned group that cannot be scheduled reads nothing;
	 * an ordinary one is multiplexed, which we can see and scale.
	 */
	ev->attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			       PERF_FORMAT_TOTAL_TIME_RUNNING;
	ev->attr.disabled = 0;
	ev->attr.inherit = 0;
	return PFM_SUCCESS;
}

int vsb_pmu_check_names(const char *list, const char *plm, const char *where)
{
	char names[VSB_PMU_MAX][VSB_PMU_NAME_LEN];
	struct vsb_pmu_event ev;
	int n, i, ret;

	ret = vsb_pmu_parse_list(list, names, VSB_PMU_MAX, &n, where);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		memset(&ev, 0, sizeof(ev));
		memcpy(ev.name, names[i], sizeof(ev.name));
		ret = encode(&ev, plm);
		if (ret != PFM_SUCCESS) {
			vsb_err("%s: event '%s': %s (libpfm4; `showevtinfo` lists names)",
				where, names[i], pfm_error(ret));
			return VSB_EXIT_USAGE;
		}
	}
	return 0;
}

int vsb_pmu_paranoid(void)
{
	long v;

	if (vsb_read_file_long("/proc/sys/kernel/perf_event_paranoid", &v))
		return -100;
	return (int)v;
}

int vsb_pmu_have_core_pmu(const char *devices_dir)
{
	static const char *const core[] = { "cpu", "cpu_core", "cpu_atom",
					    "cpum_cf", NULL };
	struct dirent *de;
	DIR *d = opendir(devices_dir);
	int found = 0, i;

	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		for (i = 0; core[i]; i++)
			if (!strcmp(de->d_name, core[i]))
				found = 1;
		if (!strncmp(de->d_name, "armv", 4))
			found = 1;
	}
	closedir(d);
	return found;
}

static struct vsb_pmu_set cached;
static int said_nopmu;	/* "no hardware PMU" is said once per process */

void vsb_pmu_warn_vm(void)
{
	if (said_nopmu)
		return;
	said_nopmu = 1;
	vsb_warn("running in a VM without a virtual PMU: time only, no cycle counts");
}
static char cached_key[1024];
static int cached_valid;

void vsb_pmu_forget(void)
{
	cached_valid = 0;
	said_nopmu = 0;
}

const char *vsb_pmu_last_verdict(void)
{
	return cached_valid ? cached.verdict : "";
}

static void set_verdict_line(struct vsb_pmu_set *s)
{
	size_t off = 0;
	int i;

	s->verdict[0] = '\0';
	if (!s->n)
		snprintf(s->verdict, sizeof(s->verdict), "no events requested");
	for (i = 0; i < s->n && off < sizeof(s->verdict); i++) {
		const struct vsb_pmu_event *ev = &s->ev[i];

		off += snprintf(s->verdict + off, sizeof(s->verdict) - off, "%s%s=%s",
				i ? "; " : "", ev->name, vsb_pmu_verdict_name(ev->verdict));
		if (ev->verdict != VSB_PMU_OK && ev->verdict != VSB_PMU_UNKNOWN &&
		    ev->err && off < sizeof(s->verdict))
			off += snprintf(s->verdict + off, sizeof(s->verdict) - off,
					"(%s)", strerrorname_np(ev->err) ?
					strerrorname_np(ev->err) : "?");
	}
}

/*
 * The CPU a group follows its thread on: -1, anywhere.  The test-only
 * VSB_PMU_GROUP_CPU=N binds it to CPU N instead; while the thread runs
 * elsewhere the kernel keeps the group enabled but not running, so
 * time_running falls behind time_enabled exactly as under multiplexing.
 * Software events never multiplex, so this is how tests/cli/test_pmu.sh
 * drives the multiplexed path (scale, flag, exit 3) through the real
 * kernel on a machine without a PMU.
 */
static int group_cpu(void)
{
	const char *v = getenv("VSB_PMU_GROUP_CPU");

	return v && *v ? atoi(v) : -1;
}

/* Open the active events as a group; on failure, the member that failed. */
static int open_group(const struct vsb_pmu_set *s, struct vsb_pmu_group *g,
		      int *failed)
{
	int i, cpu = group_cpu();

	g->n = 0;
	for (i = 0; i < s->nactive; i++) {
		struct perf_event_attr attr = s->ev[s->active[i]].attr;
		int fd = sys_perf_event_open(&attr, 0, cpu, i ? g->fd[0] : -1, 0);

		if (fd < 0) {
			int err = errno;

			*failed = i;
			vsb_pmu_group_close(g);
			return err;
		}
		g->fd[g->n++] = fd;
	}
	return 0;
}

const struct vsb_pmu_set *vsb_pmu_preflight(const char *list, const char *plm)
{
	char names[VSB_PMU_MAX][VSB_PMU_NAME_LEN];
	struct vsb_pmu_set *s = &cached;
	struct vsb_pmu_group g;
	int paranoid = vsb_pmu_paranoid();
	char key[sizeof(cached_key)];
	int i, n, ret, nopmu = 0;

	snprintf(key, sizeof(key), "%s|%s", list, plm);
	if (cached_valid && !strcmp(key, cached_key))
		return s;
	memset(s, 0, sizeof(*s));
	snprintf(s->plm, sizeof(s->plm), "%s", plm);
	s->cycles = s->instr = -1;
	if (vsb_pmu_parse_list(list, names, VSB_PMU_MAX, &n, "--events"))
		n = 0;	/* already reported; count nothing */
	s->n = n;
	for (i = 0; i < n; i++) {
		struct vsb_pmu_event *ev = &s->ev[i];
		struct perf_event_attr attr;
		int fd;

		memcpy(ev->name, names[i], sizeof(ev->name));
		ret = encode(ev, plm);
		if (ret != PFM_SUCCESS) {
			ev->verdict = VSB_PMU_UNKNOWN;
			ev->err = ret;
			/* names[i], not ev->name: both would live in `cached` */
			snprintf(ev->why, sizeof(ev->why), "%.*s: %s (libpfm4)",
				 VSB_PMU_NAME_LEN, names[i], pfm_error(ret));
			continue;
		}
		attr = ev->attr;
		fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
		ev->err = fd < 0 ? errno : 0;
		if (fd >= 0)
			close(fd);
		ev->verdict = vsb_pmu_classify(ev->err, ev->attr.type, paranoid,
					       ev->name, plm, ev->why, sizeof(ev->why));
		if (ev->verdict == VSB_PMU_OK)
			s->active[s->nactive++] = i;
	}
	/* every event may open alone and still not as one group */
	while (s->nactive) {
		int failed = 0, err = open_group(s, &g, &failed);
		struct vsb_pmu_event *bad = &s->ev[s->active[failed]];
		char why[sizeof(bad->why)];

		if (!err) {
			vsb_pmu_group_close(&g);
			break;
		}
		bad->verdict = VSB_PMU_ERROR;
		bad->err = err;
		snprintf(why, sizeof(why),
			 "%.*s: cannot join one group with the events before it: %s",
			 VSB_PMU_NAME_LEN, bad->name, strerror(err));
		memcpy(bad->why, why, sizeof(why));
		memmove(&s->active[failed], &s->active[failed + 1],
			(size_t)(s->nactive - failed - 1) * sizeof(int));
		s->nactive--;
	}
	for (i = 0; i < s->nactive; i++) {
		enum vsb_pmu_kind k = s->ev[s->active[i]].kind;

		if (k == VSB_PMU_K_CYCLES && s->cycles < 0)
			s->cycles = i;
		if (k == VSB_PMU_K_INSTR && s->instr < 0)
			s->instr = i;
	}
	for (i = 0; i < n; i++) {
		const struct vsb_pmu_event *ev = &s->ev[i];

		if (ev->verdict == VSB_PMU_NOPMU)
			nopmu++;
		else if (ev->verdict != VSB_PMU_OK)
			vsb_warn("%s; not counted", ev->why);
	}
	if (nopmu && !said_nopmu) {
		said_nopmu = 1;
		vsb_warn("no hardware PMU: %d of %d events cannot count (%s); "
			 "this looks like a VM or container without a virtual PMU "
			 "(only perf:: software events count here)", nopmu, n,
			 vsb_pmu_have_core_pmu("/sys/bus/event_source/devices") ?
			 "the core PMU exists but refuses them" :
			 "no cpu PMU in /sys/bus/event_source/devices");
	}
	set_verdict_line(s);
	snprintf(cached_key, sizeof(cached_key), "%s", key);
	cached_valid = 1;
	return s;
}

int vsb_pmu_group_open(const struct vsb_pmu_set *s, struct vsb_pmu_group *g)
{
	int failed = 0;

	return open_group(s, g, &failed);
}

int vsb_pmu_group_read(const struct vsb_pmu_group *g, struct vsb_pmu_reading *rd)
{
	uint64_t buf[3 + VSB_PMU_MAX];
	ssize_t got, want = (ssize_t)((3 + (size_t)g->n) * sizeof(uint64_t));
	int i;

	do
		got = read(g->fd[0], buf, sizeof(buf));
	while (got < 0 && errno == EINTR);
	if (got != want || buf[0] != (uint64_t)g->n)
		return -1;
	rd->enabled = buf[1];
	rd->running = buf[2];
	for (i = 0; i < g->n; i++)
		rd->val[i] = buf[3 + i];
	return 0;
}

void vsb_pmu_group_close(struct vsb_pmu_group *g)
{
	int i;

	/* members first: closing the leader alone would orphan them */
	for (i = g->n - 1; i >= 0; i--)
		if (g->fd[i] >= 0)
			close(g->fd[i]);
	g->n = 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double vsb_pmu_read_cost_ns(const struct vsb_pmu_set *s)
{
	struct vsb_pmu_group g;
	struct vsb_pmu_reading rd;
	double per[9];
	int i, j;

	if (!s->nactive || vsb_pmu_group_open(s, &g))
		return -1;
	/* nine rounds of 200 reads, median: one preemption cannot skew it */
	for (i = 0; i < 9; i++) {
		uint64_t t0 = vsb_now_ns(), t1;

		for (j = 0; j < 200; j++)
			vsb_pmu_group_read(&g, &rd);
		t1 = vsb_now_ns();
		per[i] = (double)(t1 - t0) / 200;
	}
	vsb_pmu_group_close(&g);
	qsort(per, 9, sizeof(per[0]), cmp_double);
	return per[4];
}

/*
 * The fallback ladder for a run, decided once before the workers start:
 * core cycles from the PMU group, else the TSC, else CLOCK_MONOTONIC_RAW.
 * VSB_NO_TSC=1 in the environment takes the last step on x86 too (for
 * tests; non-x86 builds always take it).  Fills the result's unit, event,
 * plm and PMU columns; returns the event set the workers open.
 */
const struct vsb_pmu_set *vsb_pmu_setup_run(const char *events, const char *plm,
					    struct vsb_result *r, enum vsb_unit *unit)
{
	const struct vsb_pmu_set *ps = vsb_pmu_preflight(events, plm);
	int have_tsc = 0, i;

#if defined(__x86_64__) || defined(__i386__)
	have_tsc = !getenv("VSB_NO_TSC");
#endif
	*unit = vsb_pmu_pick_unit(ps->cycles >= 0, have_tsc);
	snprintf(r->unit, sizeof(r->unit), "%s", vsb_unit_name(*unit));
	snprintf(r->event, sizeof(r->event), "%s",
		 *unit == VSB_UNIT_CYCLES ? ps->ev[ps->active[ps->cycles]].fstr :
		 *unit == VSB_UNIT_TSC ? "rdtscp" : "clock_gettime(CLOCK_MONOTONIC_RAW)");
	/* plm describes the PMU columns; a clock-only row has none */
	snprintf(r->plm, sizeof(r->plm), "%s", ps->nactive ? ps->plm : "");
	r->npmu = ps->nactive;
	r->pmu_cycles = ps->cycles;
	r->pmu_instr = ps->instr;
	for (i = 0; i < ps->nactive; i++)
		snprintf(r->pmu_event[i], sizeof(r->pmu_event[i]), "%s",
			 ps->ev[ps->active[i]].fstr);
	vsb_result_meta(r, "pmu_events", "%s", ps->verdict);
	return ps;
}

/*
 * After a timed batch: the PMU deltas (scaled when multiplexed) and the
 * elapsed time in the run's unit, into @s.  @pmu_ok is 0 when a group
 * read failed; the caller reports that.
 */
void vsb_pmu_fill_sample(struct vsb_sample *s, int ngroup, int pmu_ok,
			 const struct vsb_pmu_reading *a,
			 const struct vsb_pmu_reading *b, enum vsb_unit unit,
			 int cycles, uint64_t tsc, uint64_t ns)
{
	int k;

	s->pmu_scale = 1.0;
	for (k = 0; k < ngroup && pmu_ok; k++)
		s->pmu[k] = vsb_pmu_scale_delta(a, b, k, &s->pmu_scale, &s->multiplexed);
	s->elapsed = unit == VSB_UNIT_CYCLES ? s->pmu[cycles] :
		     unit == VSB_UNIT_TSC ? tsc : ns;
	s->ns = (double)ns;
}
