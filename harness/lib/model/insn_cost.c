// SPDX-License-Identifier: GPL-2.0
/*
 * insn_cost.c - exact mode's cycle estimate: a model, labelled as one,
 * every cost in it cited or measured.
 *
 * An instruction count says that code changed and by how much, not
 * which way the cycles go: the irqsave patch to mod_node_page_state runs
 * fewer instructions than the this_cpu_cmpxchg loop it replaces, and is
 * slower on hardware (the kernel left that path for this_cpu_cmpxchg at
 * 170 against 32 cycles, 7c83912062c8).  The estimate charges
 *
 *	max(insn / width, loads / load ports, stores / store ports)
 *	+ sum over the special classes of count x cost
 *
 * cycles per op: the plain code at the core's throughput bound, plus
 * each special instruction's cost in full, as if nothing overlapped it.
 * A locked cmpxchg is charged once, as LOCK.  What it misses: dependency
 * chains and branch mispredictions in the plain code, cache misses and
 * contention between CPUs (the counts cannot see them), and the overlap
 * a real core finds around cheap special instructions.  docs/exact.md
 * checks it against cycles measured here and the seeds' hardware.
 *
 * A cost no source gives is NAN, never a guess: an estimate that needs
 * it is NAN, and a verdict that needs it cannot be vouched for by that
 * core (insn_judge.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "insn_mix.h"

#define AGNER	"Agner Fog, instruction tables (2021-08-17), "
#define ITJ	"Intel Technology Journal 12(3), 2008, 45nm Core (Penryn): " \
		"the newest published cli/sti figure, 6 generations older"
#define NONE	"no published figure for this core"
#define NOREP	NONE " (fast-string rate; the host's table measures it)"

/*
 * Rates are reciprocal: instructions, loads and stores a cycle.  Agner
 * gives reciprocal throughputs; where he gives only a latency (Zen 3's
 * locked operations and cmpxchg) that is the figure, and the row says so.
 */
const struct vsb_uarch_cost vsb_uarch_costs[] = {
	{ .name = "skl", .what = "Intel Skylake (client and server)",
	  .c = { 4, 2, 1, 18, 6, 5, 8, 1, 20, 140, 33, NAN, NAN },
	  .src = {
		[VSB_COST_WIDTH] = "Intel optimization manual: 4 uops a cycle "
				   "allocated and retired",
		[VSB_COST_LOADS] = "Intel optimization manual: 2 loads a cycle",
		[VSB_COST_STORES] = "Intel optimization manual: 1 store a cycle",
		[VSB_COST_LOCK] = AGNER "Skylake, LOCK CMPXCHG m,r",
		[VSB_COST_CMPXCHG] = AGNER "Skylake, CMPXCHG m,r",
		[VSB_COST_CLI] = ITJ ", CLI throughput 5",
		[VSB_COST_STI] = ITJ ", STI throughput 8",
		[VSB_COST_PUSHF] = AGNER "Skylake, PUSHF",
		[VSB_COST_POPF] = AGNER "Skylake, POPF",
		[VSB_COST_PAUSE] = "Intel optimization manual: PAUSE latency "
				   "about 140 from Skylake on, about 10 before",
		[VSB_COST_SERIAL] = AGNER "Skylake, MFENCE",
		[VSB_COST_REP_BYTE] = NOREP,
	  } },
	{ .name = "zen3", .what = "AMD Zen 3",
	  .c = { 4, 3, 2, 8, 9, NAN, NAN, 4, 13, NAN, 60, NAN, NAN },
	  .src = {
		[VSB_COST_WIDTH] = AGNER "Zen 3: 4 integer ALUs",
		[VSB_COST_LOADS] = AGNER "Zen 3: 3 loads a cycle",
		[VSB_COST_STORES] = AGNER "Zen 3: 2 stores a cycle",
		[VSB_COST_LOCK] = AGNER "Zen 3, LOCK CMPXCHG m,r (latency only)",
		[VSB_COST_CMPXCHG] = AGNER "Zen 3, CMPXCHG m,r (latency only)",
		[VSB_COST_CLI] = NONE " (no table measures cli on AMD)",
		[VSB_COST_STI] = NONE " (no table measures sti on AMD)",
		[VSB_COST_PUSHF] = AGNER "Zen 3, PUSHF",
		[VSB_COST_POPF] = AGNER "Zen 3, POPF",
		[VSB_COST_PAUSE] = NONE,
		[VSB_COST_SERIAL] = AGNER "Zen 3, MFENCE",
		[VSB_COST_REP_BYTE] = NOREP,
	  } },
	{ .name = "icl", .what = "Intel Ice Lake and Tiger Lake",
	  .c = { 4, 2, 1, 22, 7, 5, 8, 1, 21, NAN, 36, NAN, NAN },
	  .src = {
		[VSB_COST_WIDTH] = AGNER "Ice Lake: 4 integer ALUs",
		[VSB_COST_LOADS] = "Intel optimization manual: 2 loads a cycle",
		[VSB_COST_STORES] = AGNER "Ice Lake: 1 store a cycle to one line",
		[VSB_COST_LOCK] = AGNER "Ice Lake, LOCK CMPXCHG m,r",
		[VSB_COST_CMPXCHG] = AGNER "Ice Lake, CMPXCHG m,r",
		[VSB_COST_CLI] = ITJ ", CLI throughput 5",
		[VSB_COST_STI] = ITJ ", STI throughput 8",
		[VSB_COST_PUSHF] = AGNER "Ice Lake, PUSHF",
		[VSB_COST_POPF] = AGNER "Ice Lake, POPF",
		[VSB_COST_PAUSE] = NONE " (Intel's 140 is said of Skylake)",
		[VSB_COST_SERIAL] = AGNER "Ice Lake, MFENCE",
		[VSB_COST_REP_BYTE] = NOREP,
	  } },
};
const size_t vsb_uarch_ncosts = sizeof(vsb_uarch_costs) / sizeof(vsb_uarch_costs[0]);

const char *vsb_cost_class_name(enum vsb_cost_class k)
{
	static const char *const names[VSB_COST_N] = {
		"width", "loads", "stores", "lock", "cmpxchg", "cli", "sti",
		"pushf", "popf", "pause", "serializing", "irq", "rep_bytes",
	};

	return k < VSB_COST_N ? names[k] : "?";
}

static struct vsb_uarch_cost host;
static int have_host;

void vsb_uarch_set_host(const struct vsb_uarch_cost *h)
{
	have_host = h != NULL;
	if (h)
		host = *h;
}

const struct vsb_uarch_cost *vsb_uarch_host(void)
{
	return have_host ? &host : NULL;
}

size_t vsb_uarch_models(const struct vsb_uarch_cost **out)
{
	size_t n = 0, u;

	for (u = 0; u < vsb_uarch_ncosts && n < VSB_UARCH_MAX; u++)
		out[n++] = &vsb_uarch_costs[u];
	if (have_host && n < VSB_UARCH_MAX)
		out[n++] = &host;
	return n;
}

/* a class the result does not carry counts as none (pause: as plain) */
static double known(double v)
{
	return isnan(v) ? 0 : v;
}

void vsb_mix_charges(const struct vsb_mix *m, double k[VSB_COST_N])
{
	const double *c = m->c;
	int split = !isnan(c[VSB_MIX_CLI]) && !isnan(c[VSB_MIX_STI]) &&
		    !isnan(c[VSB_MIX_PUSHF]);

	/* a rep string's iterations: its bytes, not instructions or stores */
	k[VSB_COST_WIDTH] = c[VSB_MIX_INSN] - known(c[VSB_MIX_REP_ITERS]);
	k[VSB_COST_LOADS] = c[VSB_MIX_LOADS];
	k[VSB_COST_STORES] = fmax(0, c[VSB_MIX_STORES] - known(c[VSB_MIX_REP_ITERS]));
	k[VSB_COST_REP_BYTE] = known(c[VSB_MIX_REP_BYTES]);
	k[VSB_COST_LOCK] = c[VSB_MIX_LOCK];
	/* older results: cmpxchg less LOCK, wrong where a LOCK add is beside */
	k[VSB_COST_CMPXCHG] = !isnan(c[VSB_MIX_CMPXCHG_LOCAL]) ?
			      c[VSB_MIX_CMPXCHG_LOCAL] :
			      fmax(0, c[VSB_MIX_CMPXCHG] - c[VSB_MIX_LOCK]);
	k[VSB_COST_CLI] = split ? c[VSB_MIX_CLI] : 0;
	k[VSB_COST_STI] = split ? c[VSB_MIX_STI] : 0;
	k[VSB_COST_PUSHF] = split ? c[VSB_MIX_PUSHF] : 0;
	k[VSB_COST_IRQ_LUMP] = split ? 0 : fmax(0, c[VSB_MIX_IRQ] - c[VSB_MIX_POPF]);
	k[VSB_COST_POPF] = c[VSB_MIX_POPF];
	k[VSB_COST_PAUSE] = known(c[VSB_MIX_PAUSE]);
	k[VSB_COST_SERIAL] = c[VSB_MIX_SERIAL];
}

double vsb_mix_plain(const double k[VSB_COST_N], const struct vsb_uarch_cost *u)
{
	return fmax(k[VSB_COST_WIDTH] / u->c[VSB_COST_WIDTH],
		    fmax(k[VSB_COST_LOADS] / u->c[VSB_COST_LOADS],
			 k[VSB_COST_STORES] / u->c[VSB_COST_STORES]));
}

double vsb_mix_estimate(const struct vsb_mix *m, const struct vsb_uarch_cost *u)
{
	double k[VSB_COST_N], est;
	int j;

	vsb_mix_charges(m, k);
	est = vsb_mix_plain(k, u);
	for (j = VSB_COST_FIRST_CHARGED; j < VSB_COST_N; j++)
		if (k[j] != 0)	/* a missing cost matters only where charged */
			est += k[j] * u->c[j];
	return est;
}

const char *vsb_uarch_names(void)
{
	static char buf[128];
	const struct vsb_uarch_cost *u[VSB_UARCH_MAX];
	size_t n = vsb_uarch_models(u), i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < n && off < sizeof(buf); i++)
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%s",
					i ? ", " : "", u[i]->name);
	return buf;
}
