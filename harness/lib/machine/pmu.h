/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PMU counting through libpfm4: event names -> perf_event_attr, a
 * preflight that opens each event once and says why one cannot count,
 * one counter group per pinned worker read around each timed batch, the
 * multiplexing scale, and the fallback ladder for the unit of `elapsed`
 * (PMU core cycles, else the TSC, else clock_gettime nanoseconds).
 *
 * Encoding succeeding says nothing about availability (libpfm activates
 * model PMU tables from CPUID alone, so a VM "has" cycles): only
 * perf_event_open() tells, which is why the preflight opens every event.
 * The pure parts (name list parsing, error classification, scaling, the
 * unit ladder) take plain values so the unit tests can drive them.
 */
#ifndef VSB_PMU_H
#define VSB_PMU_H

#include <linux/perf_event.h>
#include <stdint.h>
#include <stddef.h>

#include "pmu_names.h"

enum vsb_pmu_verdict {
	VSB_PMU_OK = 0,
	VSB_PMU_EACCES,		/* perf_event_paranoid / capabilities */
	VSB_PMU_NOPMU,		/* no hardware PMU behind the event (VM, container) */
	VSB_PMU_UNKNOWN,	/* libpfm does not know the name or an attribute */
	VSB_PMU_ERROR,		/* anything else: errno in err */
	VSB_PMU_NOTTRIED,	/* group full, or disabled */
};

/* What an event measures, for the ladder and the derived metrics. */
enum vsb_pmu_kind {
	VSB_PMU_K_OTHER = 0,
	VSB_PMU_K_CYCLES,	/* core cycles (not reference cycles) */
	VSB_PMU_K_INSTR,	/* instructions retired */
};

struct vsb_pmu_event {
	char name[VSB_PMU_NAME_LEN];	/* as the user wrote it */
	char fstr[VSB_PMU_FSTR_LEN];	/* libpfm's fully qualified name */
	struct perf_event_attr attr;
	enum vsb_pmu_verdict verdict;
	enum vsb_pmu_kind kind;
	int err;			/* errno, or the libpfm error code */
	char why[256];			/* one line: what failed and how to fix it */
};

/* The requested events after the preflight. */
struct vsb_pmu_set {
	char plm[4];			/* k | u | ku */
	int n;
	struct vsb_pmu_event ev[VSB_PMU_MAX];
	int nactive;			/* events that count, in group order */
	int active[VSB_PMU_MAX];	/* indices into ev[] */
	int cycles;			/* position in active[] of core cycles, -1 */
	int instr;			/* position in active[] of instructions, -1 */
	char verdict[1024];		/* "name=ok; name=no-pmu (ENOENT)" for the record */
};

/* One open group: read it with vsb_pmu_group_read. */
struct vsb_pmu_group {
	int n;
	int fd[VSB_PMU_MAX];		/* fd[0] is the leader, -1 when closed */
};

/* A group read: time_enabled, time_running and raw values. */
struct vsb_pmu_reading {
	uint64_t enabled, running;
	uint64_t val[VSB_PMU_MAX];
};

/* Result of the ladder: the unit `elapsed` is counted in. */
enum vsb_unit { VSB_UNIT_CYCLES, VSB_UNIT_TSC, VSB_UNIT_NS };

/* ---- pure helpers (unit tested) ---- */

/* Classify a perf_event_open errno for an event of @type; fills @why. */
enum vsb_pmu_verdict vsb_pmu_classify(int err, uint32_t type, int paranoid,
				      const char *name, const char *plm,
				      char *why, size_t len);
/*
 * Which kind of event libpfm resolved: from the attr and libpfm's
 * "EVENT[:UMASK]" name (model events only; generic ones by config).
 */
enum vsb_pmu_kind vsb_pmu_event_kind(uint32_t type, uint64_t config,
				     const char *pfm_name);
/*
 * Delta of one event between two readings, scaled by enabled/running
 * when the group was multiplexed.  *scale gets running/enabled of the
 * interval (1.0 when it ran all the time), *mux 1 when it was < 1.
 */
uint64_t vsb_pmu_scale_delta(const struct vsb_pmu_reading *a,
			     const struct vsb_pmu_reading *b, int i,
			     double *scale, int *mux);
enum vsb_unit vsb_pmu_pick_unit(int have_cycles, int have_tsc);
struct vsb_result;
struct vsb_sample;
void vsb_pmu_fill_sample(struct vsb_sample *s, int ngroup, int pmu_ok,
			 const struct vsb_pmu_reading *a,
			 const struct vsb_pmu_reading *b, enum vsb_unit unit,
			 int cycles, uint64_t tsc, uint64_t ns);
const struct vsb_pmu_set *vsb_pmu_setup_run(const char *events, const char *plm,
					    struct vsb_result *r, enum vsb_unit *unit);
const char *vsb_unit_name(enum vsb_unit u);
const char *vsb_pmu_verdict_name(enum vsb_pmu_verdict v);

/* ---- libpfm / perf_event ---- */

/*
 * Check that every name encodes (no open): a typo is bad input, exit 2,
 * with libpfm's own error text.  Called while options are checked.
 */
int vsb_pmu_check_names(const char *list, const char *plm, const char *where);
/*
 * Encode and open each event once, classify, and print one line per
 * problem (the "no hardware PMU" line once per process).  Cached: a sweep
 * that asks again with the same events and plm gets the same set.
 */
const struct vsb_pmu_set *vsb_pmu_preflight(const char *list, const char *plm);
/* Say "VM without a PMU" unless the preflight already did (once per process). */
void vsb_pmu_warn_vm(void);
/* The last preflight's verdict line, "" if none ran. */
const char *vsb_pmu_last_verdict(void);

/* Open the active events as one group on the calling thread. */
int vsb_pmu_group_open(const struct vsb_pmu_set *s, struct vsb_pmu_group *g);
int vsb_pmu_group_read(const struct vsb_pmu_group *g, struct vsb_pmu_reading *rd);
void vsb_pmu_group_close(struct vsb_pmu_group *g);

/* Median cost of one group read() in ns (the per-batch overhead is two). */
double vsb_pmu_read_cost_ns(const struct vsb_pmu_set *s);

/* Test hook: when set, used instead of the perf_event_open syscall. */
extern int (*vsb_pmu_open_hook)(struct perf_event_attr *attr, int pid,
				int cpu, int group_fd, unsigned long flags);
/*
 * Tests: drop the cached preflight (and the once-said "no PMU" line), so
 * the same events are opened again, e.g. after changing the open hook.
 */
void vsb_pmu_forget(void);

/* perf_event_paranoid, or -100 when it cannot be read. */
int vsb_pmu_paranoid(void);
/* 1 when /sys/bus/event_source/devices has a core PMU (cpu, cpu_core, armv8...). */
int vsb_pmu_have_core_pmu(const char *devices_dir);

/*
 * likwid marker regions around the timed loops (`make LIKWID=1`): lets
 * `likwid-perfctr -m -g GROUP vmstat-bench run ...` measure exactly the
 * batches.  Without -DLIKWID_PERFMON they compile to nothing.
 */
#ifdef LIKWID_PERFMON
#include <likwid-marker.h>
#define VSB_MARKER_INIT()		LIKWID_MARKER_INIT
#define VSB_MARKER_THREADINIT()		LIKWID_MARKER_THREADINIT
#define VSB_MARKER_REGISTER(tag)	LIKWID_MARKER_REGISTER(tag)
#define VSB_MARKER_START(tag)		LIKWID_MARKER_START(tag)
#define VSB_MARKER_STOP(tag)		LIKWID_MARKER_STOP(tag)
#define VSB_MARKER_CLOSE()		LIKWID_MARKER_CLOSE
#else
#define VSB_MARKER_INIT()		do { } while (0)
#define VSB_MARKER_THREADINIT()		do { } while (0)
#define VSB_MARKER_REGISTER(tag)	do { } while (0)
#define VSB_MARKER_START(tag)		do { } while (0)
#define VSB_MARKER_STOP(tag)		do { } while (0)
#define VSB_MARKER_CLOSE()		do { } while (0)
#endif

#endif /* VSB_PMU_H */
