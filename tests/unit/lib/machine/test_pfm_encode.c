// SPDX-License-Identifier: GPL-2.0
/*
 * The libpfm4 path for real CPU models, checked on a machine without
 * their hardware.  LIBPFM_FORCE_PMU makes libpfm load one named model's
 * event table (skl, icl, amd64_fam17h_zen2, amd64_fam19h_zen3); the
 * harness's own encoder (through vsb_pmu_preflight) must then hand
 * perf_event_open the attr the vendors' manuals give for the names the
 * docs advertise, refuse the other vendor's names with a message naming
 * the event, and the verdicts and the unit ladder (cycles -> tsc -> ns)
 * must decide as docs/pmu.md says when encoding works but the open
 * fails.  The open is the harness's test hook: it records the attr the
 * kernel would get and fails (or not) with a chosen errno; the real
 * syscall is used too where this machine has no core PMU (ENOENT).
 *
 * libpfm reads LIBPFM_FORCE_PMU once, in pfm_initialize(), and the
 * harness initializes once per process, so each model runs in a forked
 * child that sets the variable before any PMU call; the child hands its
 * TAP counts back through a pipe.  The parent, unforced, checks the
 * generic names (cycles, instructions, perf::), which no model owns.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <perfmon/pfmlib.h>

#include "pmu.h"
#include "result.h"
#include "vsb.h"
#include "tap.h"

/*
 * Intel SDM Vol. 3B, "Architectural Performance Monitoring", layout of
 * IA32_PERFEVTSELx: event select in bits 7:0, unit mask in 15:8, USR 16,
 * OS 17, CMASK 31:24.  AMD PPR (Family 17h Model 31h, #55803; Family 19h
 * Model 01h, #55898), Core::X86::Msr::PERF_CTL: EventSelect[7:0] in bits
 * 7:0, UnitMask 15:8, USR 16, OS 17, CntMask 31:24, EventSelect[11:8] in
 * 35:32.  perf takes USR/OS from exclude_user/exclude_kernel, never from
 * a raw config, so the config holds only event, umask and CMASK.
 */
#define INTEL_EVT(ev, umask)	((uint64_t)(ev) | (uint64_t)(umask) << 8)
#define AMD_EVT(ev, umask)	(((uint64_t)(ev) & 0xff) | (uint64_t)(umask) << 8 | \
				 ((uint64_t)(ev) >> 8 & 0xf) << 32)
#define CMASK(n)		((uint64_t)(n) << 24)

/*
 * Intel SDM Vol. 3B, table of pre-defined architectural events, and the
 * Skylake / Ice Lake event tables of "Performance Monitoring Events":
 * INST_RETIRED.ANY_P (and architectural Instruction Retired) C0H/00H;
 * CPU_CLK_UNHALTED.THREAD_P (architectural UnHalted Core Cycles) 3CH/00H;
 * CPU_CLK_UNHALTED.REF_XCLK (Skylake: CPU_CLK_THREAD_UNHALTED.REF_XCLK)
 * 3CH/01H, a reference clock, not core cycles.
 */
#define SDM_INST_RETIRED_ANY_P		INTEL_EVT(0xc0, 0x00)
#define SDM_CPU_CLK_UNHALTED_THREAD_P	INTEL_EVT(0x3c, 0x00)
#define SDM_CPU_CLK_REF_XCLK		INTEL_EVT(0x3c, 0x01)
/* AMD PPR core PMC events: PMCx0C0 Retired Instructions, PMCx076 Cycles not in Halt */
#define PPR_RETIRED_INSTRUCTIONS	AMD_EVT(0x0c0, 0x00)
#define PPR_CYCLES_NOT_IN_HALT		AMD_EVT(0x076, 0x00)

struct enc_case {
	const char *name;	/* as a user writes it in --events */
	const char *plm;	/* --plm */
	uint64_t config;	/* from the manual, above */
	enum vsb_pmu_kind kind;
	int excl_user, excl_kernel;
};

struct model {
	const char *pmu;		/* LIBPFM_FORCE_PMU, libpfm's PMU name */
	const struct enc_case *cases;
	int ncases;
	const char *ladder;		/* "cycles-name,instructions-name" */
	uint64_t cycles_config;
	const char *foreign[3];		/* the other vendor's names */
};

#define K_CYC	VSB_PMU_K_CYCLES
#define K_INS	VSB_PMU_K_INSTR
#define K_OTH	VSB_PMU_K_OTHER

static const struct enc_case skl_cases[] = {
	{ "INST_RETIRED:ANY_P", "ku", SDM_INST_RETIRED_ANY_P, K_INS, 0, 0 },
	{ "INST_RETIRED:ANY_P", "u", SDM_INST_RETIRED_ANY_P, K_INS, 0, 1 },
	{ "INST_RETIRED:ANY_P", "k", SDM_INST_RETIRED_ANY_P, K_INS, 1, 0 },
	{ "INST_RETIRED:ANY_P:u", "ku", SDM_INST_RETIRED_ANY_P, K_INS, 0, 1 },
	{ "CPU_CLK_UNHALTED:THREAD_P", "ku", SDM_CPU_CLK_UNHALTED_THREAD_P, K_CYC, 0, 0 },
	{ "CPU_CLK_THREAD_UNHALTED:THREAD_P", "k", SDM_CPU_CLK_UNHALTED_THREAD_P,
	  K_CYC, 1, 0 },
	{ "UNHALTED_CORE_CYCLES", "ku", SDM_CPU_CLK_UNHALTED_THREAD_P, K_CYC, 0, 0 },
	{ "INSTRUCTION_RETIRED", "ku", SDM_INST_RETIRED_ANY_P, K_INS, 0, 0 },
	{ "CPU_CLK_THREAD_UNHALTED:REF_XCLK", "ku", SDM_CPU_CLK_REF_XCLK, K_OTH, 0, 0 },
	{ "INST_RETIRED:ANY_P:c=1", "ku", SDM_INST_RETIRED_ANY_P | CMASK(1), K_OTH, 0, 0 },
};

static const struct enc_case icl_cases[] = {
	{ "INST_RETIRED:ANY_P", "ku", SDM_INST_RETIRED_ANY_P, K_INS, 0, 0 },
	{ "INST_RETIRED:ANY_P", "u", SDM_INST_RETIRED_ANY_P, K_INS, 0, 1 },
	{ "CPU_CLK_UNHALTED:THREAD_P", "ku", SDM_CPU_CLK_UNHALTED_THREAD_P, K_CYC, 0, 0 },
	{ "CPU_CLK_UNHALTED:THREAD_P:k", "ku", SDM_CPU_CLK_UNHALTED_THREAD_P, K_CYC, 1, 0 },
	{ "CPU_CLK_UNHALTED:REF_XCLK", "ku", SDM_CPU_CLK_REF_XCLK, K_OTH, 0, 0 },
};

static const struct enc_case zen_cases[] = {
	{ "RETIRED_INSTRUCTIONS", "ku", PPR_RETIRED_INSTRUCTIONS, K_INS, 0, 0 },
	{ "RETIRED_INSTRUCTIONS", "u", PPR_RETIRED_INSTRUCTIONS, K_INS, 0, 1 },
	{ "RETIRED_INSTRUCTIONS", "k", PPR_RETIRED_INSTRUCTIONS, K_INS, 1, 0 },
	{ "RETIRED_INSTRUCTIONS:u", "ku", PPR_RETIRED_INSTRUCTIONS, K_INS, 0, 1 },
	{ "CYCLES_NOT_IN_HALT", "ku", PPR_CYCLES_NOT_IN_HALT, K_CYC, 0, 0 },
	{ "CYCLES_NOT_IN_HALT", "u", PPR_CYCLES_NOT_IN_HALT, K_CYC, 0, 1 },
	{ "RETIRED_INSTRUCTIONS:c=1", "ku", PPR_RETIRED_INSTRUCTIONS | CMASK(1), K_OTH, 0, 0 },
};

#define NCASES(a)	((int)(sizeof(a) / sizeof((a)[0])))

static const struct model models[] = {
	{ "skl", skl_cases, NCASES(skl_cases), "CPU_CLK_UNHALTED:THREAD_P,INST_RETIRED:ANY_P",
	  SDM_CPU_CLK_UNHALTED_THREAD_P,
	  { "RETIRED_INSTRUCTIONS", "CYCLES_NOT_IN_HALT", NULL } },
	{ "icl", icl_cases, NCASES(icl_cases), "CPU_CLK_UNHALTED:THREAD_P,INST_RETIRED:ANY_P",
	  SDM_CPU_CLK_UNHALTED_THREAD_P,
	  { "RETIRED_INSTRUCTIONS", "CYCLES_NOT_IN_HALT", NULL } },
	{ "amd64_fam17h_zen2", zen_cases, NCASES(zen_cases),
	  "CYCLES_NOT_IN_HALT,RETIRED_INSTRUCTIONS", PPR_CYCLES_NOT_IN_HALT,
	  { "INST_RETIRED:ANY_P", "CPU_CLK_UNHALTED:THREAD_P", "UNHALTED_CORE_CYCLES" } },
	{ "amd64_fam19h_zen3", zen_cases, NCASES(zen_cases),
	  "CYCLES_NOT_IN_HALT,RETIRED_INSTRUCTIONS", PPR_CYCLES_NOT_IN_HALT,
	  { "INST_RETIRED:ANY_P", "CPU_CLK_UNHALTED:THREAD_P", "UNHALTED_CORE_CYCLES" } },
};

/* ---- the open hook: record what the kernel would get, answer as told ---- */

static struct {
	int err;		/* every open fails with this; 0 succeeds */
	int member_err;		/* group members (group_fd >= 0) fail with this */
	uint64_t only_config;	/* with err: fail only this config; 0 all */
	int n;
	struct perf_event_attr attr[2 * VSB_PMU_MAX];
} hk;

static int hook_open(struct perf_event_attr *attr, int pid, int cpu,
		     int group_fd, unsigned long flags)
{
	(void)pid; (void)cpu; (void)flags;
	if (hk.n < (int)(sizeof(hk.attr) / sizeof(hk.attr[0])))
		hk.attr[hk.n++] = *attr;
	if (group_fd >= 0 && hk.member_err) {
		errno = hk.member_err;
		return -1;
	}
	if (hk.err && (!hk.only_config || attr->config == hk.only_config)) {
		errno = hk.err;
		return -1;
	}
	return open("/dev/null", O_RDONLY | O_CLOEXEC);	/* an fd to close */
}

static void hook_reset(int err)
{
	memset(&hk, 0, sizeof(hk));
	hk.err = err;
	vsb_pmu_open_hook = hook_open;
}

/* A preflight that opens again (not the cached set), through the hook as set. */
static const struct vsb_pmu_set *fresh(const char *list, const char *plm)
{
	vsb_pmu_forget();
	return vsb_pmu_preflight(list, plm);
}

/* Fresh preflight through the hook, told to answer @err. */
static const struct vsb_pmu_set *preflight(const char *list, const char *plm, int err)
{
	hook_reset(err);
	return fresh(list, plm);
}

static char errbuf[2048];

/* vsb_pmu_check_names, its messages recorded (errlog.c) into errbuf */
static int check_names(const char *list)
{
	struct vsb_errlog log;
	int ret;

	vsb_errlog_begin(&log);
	ret = vsb_pmu_check_names(list, "ku", "--events");
	vsb_errlog_end(&log);
	snprintf(errbuf, sizeof(errbuf), "%s", log.text);
	return ret;
}

/* The unit the ladder falls to without PMU cycles, as pmu.c decides it. */
static enum vsb_unit clock_unit(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return getenv("VSB_NO_TSC") ? VSB_UNIT_NS : VSB_UNIT_TSC;
#else
	return VSB_UNIT_NS;
#endif
}

/* vsb_pmu_setup_run on the cached set; fills @r (free it after). */
static enum vsb_unit ladder(const char *list, struct vsb_result *r)
{
	static struct vsb_run_opts o;
	enum vsb_unit unit;

	vsb_run_opts_defaults(&o);
	vsb_result_init(r, &o);
	vsb_pmu_setup_run(list, "ku", r, &unit);
	return unit;
}

/* ---- one model, in its own process ---- */

static void check_case(const char *pmu, const struct enc_case *c)
{
	const struct vsb_pmu_set *s = preflight(c->name, c->plm, ENOENT);
	const struct vsb_pmu_event *ev = &s->ev[0];
	const struct perf_event_attr *a = &hk.attr[0];

	TAP_OK(s->n == 1 && ev->verdict == VSB_PMU_NOPMU && hk.n == 1 &&
	       a->type == PERF_TYPE_RAW && a->config == c->config &&
	       (int)a->exclude_user == c->excl_user &&
	       (int)a->exclude_kernel == c->excl_kernel && ev->kind == c->kind &&
	       ev->attr.config == a->config,
	       "%s: %s --plm %s: type %u config %#llx (want %#llx) exclude u%d k%d "
	       "(want u%d k%d) kind %d (want %d) [%s]", pmu, c->name, c->plm,
	       a->type, (unsigned long long)a->config, (unsigned long long)c->config,
	       a->exclude_user, a->exclude_kernel, c->excl_user, c->excl_kernel,
	       ev->kind, c->kind, ev->fstr);
}

static void check_foreign(const struct model *m)
{
	int i;

	for (i = 0; i < 3 && m->foreign[i]; i++) {
		int ret = check_names(m->foreign[i]);
		char quoted[160];

		snprintf(quoted, sizeof(quoted), "'%s'", m->foreign[i]);
		TAP_OK(ret == VSB_EXIT_USAGE && strstr(errbuf, quoted) &&
		       strstr(errbuf, "not found"),
		       "%s: the other vendor's %s is refused, exit 2, naming it: %.*s",
		       m->pmu, m->foreign[i], (int)strcspn(errbuf, "\n"), errbuf);
	}
	TAP_OK(preflight(m->foreign[0], "ku", 0)->ev[0].verdict == VSB_PMU_UNKNOWN &&
	       hk.n == 0, "%s: preflight: %s is unknown-event, never opened",
	       m->pmu, m->foreign[0]);
	TAP_OK(check_names(m->ladder) == 0 && errbuf[0] == '\0',
	       "%s: its own names pass the name check (%s)", m->pmu, m->ladder);
}

/* Every errno docs/pmu.md names, on both events: verdict and unit. */
static void check_errnos(const struct model *m)
{
	static const struct { int err; enum vsb_pmu_verdict v; } tab[] = {
		{ ENOENT, VSB_PMU_NOPMU }, { ENODEV, VSB_PMU_NOPMU },
		{ ENXIO, VSB_PMU_NOPMU }, { EOPNOTSUPP, VSB_PMU_NOPMU },
		{ EACCES, VSB_PMU_EACCES }, { EPERM, VSB_PMU_EACCES },
		{ EINVAL, VSB_PMU_ERROR }, { EBUSY, VSB_PMU_ERROR },
	};
	struct vsb_result r;
	size_t i;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		const struct vsb_pmu_set *s = preflight(m->ladder, "ku", tab[i].err);
		enum vsb_unit u = ladder(m->ladder, &r);
		char want[64];

		snprintf(want, sizeof(want), "=%s(%s)", vsb_pmu_verdict_name(tab[i].v),
			 strerrorname_np(tab[i].err));
		TAP_OK(s->n == 2 && s->nactive == 0 && s->ev[0].verdict == tab[i].v &&
		       s->ev[1].verdict == tab[i].v && strstr(s->verdict, want) &&
		       u == clock_unit() && r.npmu == 0 && r.pmu_cycles < 0 &&
		       !strcmp(r.plm, "") && (tab[i].v != VSB_PMU_EACCES ||
					      strstr(s->ev[0].why, "--plm u")),
		       "%s: encoded, open fails %s: %s, unit %s [%s]", m->pmu,
		       strerrorname_np(tab[i].err), vsb_pmu_verdict_name(tab[i].v),
		       vsb_unit_name(u), s->verdict);
		vsb_result_free(&r);
	}
}

/* The ladder's steps and the partial cases. */
static void check_ladder(const struct model *m)
{
	const struct vsb_pmu_set *s;
	struct vsb_result r;
	enum vsb_unit u;

	s = preflight(m->ladder, "ku", 0);
	u = ladder(m->ladder, &r);
	TAP_OK(s->nactive == 2 && s->cycles == 0 && s->instr == 1 &&
	       u == VSB_UNIT_CYCLES && strstr(r.event, m->pmu) == r.event &&
	       !strcmp(r.unit, "cycles") && !strcmp(r.plm, "ku") && r.npmu == 2,
	       "%s: both open: unit cycles, event %s", m->pmu, r.event);
	vsb_result_free(&r);

	hook_reset(ENOENT);
	hk.only_config = m->cycles_config;
	s = fresh(m->ladder, "ku");
	u = ladder(m->ladder, &r);
	TAP_OK(s->nactive == 1 && s->cycles < 0 && s->instr == 0 &&
	       s->ev[0].verdict == VSB_PMU_NOPMU && u == clock_unit() &&
	       r.npmu == 1 && r.pmu_instr == 0 && r.pmu_cycles < 0,
	       "%s: cycles ENOENT, instructions open: unit %s, instructions still "
	       "counted", m->pmu, vsb_unit_name(u));
	vsb_result_free(&r);

	hook_reset(0);
	hk.member_err = EINVAL;
	s = fresh(m->ladder, "ku");
	TAP_OK(s->nactive == 1 && s->cycles == 0 && s->ev[1].verdict == VSB_PMU_ERROR &&
	       strstr(s->ev[1].why, "cannot join one group"),
	       "%s: each opens alone, the group refuses the second: cycles kept (%s)",
	       m->pmu, s->ev[1].why);

	setenv("VSB_NO_TSC", "1", 1);
	preflight(m->ladder, "ku", ENOENT);
	u = ladder(m->ladder, &r);
	TAP_OK(u == VSB_UNIT_NS && !strcmp(r.unit, "ns") &&
	       !strncmp(r.event, "clock_gettime", 13),
	       "%s: no cycles and no TSC: unit ns (%s)", m->pmu, r.event);
	vsb_result_free(&r);
	unsetenv("VSB_NO_TSC");
}

/* The real syscall: where no core PMU exists, raw events get ENOENT. */
static void check_real_open(const struct model *m)
{
	const struct vsb_pmu_set *s;

	if (vsb_pmu_have_core_pmu("/sys/bus/event_source/devices")) {
		printf("ok %d # SKIP %s: real open: this machine has a core PMU, so the "
		       "raw events may count\n", ++tap_n, m->pmu);
		return;
	}
	vsb_pmu_open_hook = NULL;
	s = fresh(m->ladder, "ku");
	TAP_OK(s->nactive == 0 && s->ev[0].verdict == VSB_PMU_NOPMU &&
	       s->ev[0].err == ENOENT && s->ev[1].verdict == VSB_PMU_NOPMU,
	       "%s: real perf_event_open without a PMU: %s", m->pmu, s->verdict);
}

/* 1 when libpfm activated exactly the PMU named @name. */
static int pmu_present(const char *name)
{
	pfm_pmu_info_t info;
	int p;

	if (pfm_initialize() != PFM_SUCCESS)
		return 0;
	for (p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info((pfm_pmu_t)p, &info) == PFM_SUCCESS &&
		    info.is_present && info.name && !strcasecmp(info.name, name))
			return 1;
	}
	return 0;
}

static void model_checks(const struct model *m)
{
	int i;

	setenv("LIBPFM_FORCE_PMU", m->pmu, 1);
	if (!pmu_present(m->pmu)) {
		printf("ok %d # SKIP %s: this libpfm4 (%d.%d) has no such PMU model\n",
		       ++tap_n, m->pmu, PFM_MAJ_VERSION(pfm_get_version()),
		       PFM_MIN_VERSION(pfm_get_version()));
		return;
	}
	for (i = 0; i < m->ncases; i++)
		check_case(m->pmu, &m->cases[i]);
	check_foreign(m);
	check_errnos(m);
	check_ladder(m);
	check_real_open(m);
}

/* Run model_checks in a child; take its TAP counts back. */
static void run_model(const struct model *m)
{
	int pfd[2], counts[2], st = 0;
	pid_t pid;

	fflush(stdout);
	if (pipe(pfd)) {
		TAP_OK(0, "%s: pipe: %s", m->pmu, strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		model_checks(m);
		counts[0] = tap_n;
		counts[1] = tap_failed;
		fflush(stdout);
		_exit(write(pfd[1], counts, sizeof(counts)) == sizeof(counts) ? 0 : 1);
	}
	close(pfd[1]);
	if (pid < 0 || read(pfd[0], counts, sizeof(counts)) != sizeof(counts)) {
		close(pfd[0]);
		if (pid > 0)
			waitpid(pid, &st, 0);
		TAP_OK(0, "%s: the model's child died (status %#x)", m->pmu, st);
		return;
	}
	close(pfd[0]);
	waitpid(pid, &st, 0);
	tap_n = counts[0];
	tap_failed = counts[1];
}

/* ---- generic names, unforced (libpfm's perf PMU, any machine) ---- */

static void check_generic(void)
{
	/* include/uapi/linux/perf_event.h: HW_CPU_CYCLES 0, HW_INSTRUCTIONS 1, SW_TASK_CLOCK 1 */
	static const struct { const char *name, *plm; uint32_t type; uint64_t config;
			      enum vsb_pmu_kind kind; int eu, ek; } g[] = {
		{ "cycles", "ku", PERF_TYPE_HARDWARE, 0, K_CYC, 0, 0 },
		{ "instructions", "u", PERF_TYPE_HARDWARE, 1, K_INS, 0, 1 },
		{ "cycles", "k", PERF_TYPE_HARDWARE, 0, K_CYC, 1, 0 },
		{ "perf::TASK-CLOCK", "ku", PERF_TYPE_SOFTWARE, 1, K_OTH, 0, 0 },
	};
	const struct vsb_pmu_set *s;
	size_t i;

	for (i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
		s = preflight(g[i].name, g[i].plm, ENOENT);
		TAP_OK(hk.n == 1 && hk.attr[0].type == g[i].type &&
		       hk.attr[0].config == g[i].config && s->ev[0].kind == g[i].kind &&
		       (int)hk.attr[0].exclude_user == g[i].eu &&
		       (int)hk.attr[0].exclude_kernel == g[i].ek,
		       "generic %s --plm %s: type %u config %llu exclude u%d k%d [%s]",
		       g[i].name, g[i].plm, hk.attr[0].type,
		       (unsigned long long)hk.attr[0].config, hk.attr[0].exclude_user,
		       hk.attr[0].exclude_kernel, s->ev[0].fstr);
	}
	s = preflight(VSB_PMU_DEFAULT_EVENTS, "ku", ENOENT);
	TAP_OK(s->ev[0].verdict == VSB_PMU_NOPMU && s->ev[1].verdict == VSB_PMU_NOPMU &&
	       s->cycles < 0, "generic: default events, ENOENT: both no-pmu (%s)",
	       s->verdict);
}

int main(void)
{
	size_t i;

	/* whole TAP lines, even with the warnings on stderr in the same log */
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* the parent is the unforced reference; each child forces its own */
	unsetenv("LIBPFM_FORCE_PMU");
	unsetenv("LIBPFM_ENCODE_INACTIVE");
	unsetenv("VSB_NO_TSC");
	unsetenv("VSB_PMU_GROUP_CPU");
	for (i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		run_model(&models[i]);
	check_generic();
	return tap_done();
}
