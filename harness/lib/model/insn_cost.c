// SPDX-License-Identifier: GPL-2.0
/*
 * insn_cost.c - exact mode's cycle estimate: a model, labelled as one.
 *
 * An instruction count says that code changed and by how much, not
 * which way the cycles go: the irqsave patch to mod_node_page_state runs
 * fewer instructions than the this_cpu_cmpxchg loop it replaces, and is
 * slower on hardware, because pushf/popf/cli cost more than a cmpxchg
 * without LOCK.  The estimate charges
 *
 *	max(insn / width, loads / load ports, stores / store ports)
 *	+ lock * LOCK + max(0, cmpxchg - lock) * CMPXCHG
 *	+ (irq - popf) * IRQ + popf * POPF + serializing * SERIAL
 *
 * cycles per op: the plain code at the core's throughput bound, plus
 * each special instruction's cost in full, as if nothing overlapped it.
 * A locked cmpxchg is charged once, as LOCK.  What it misses: dependency
 * chains and branch mispredictions in the plain code, cache misses and
 * contention between CPUs (the counts cannot see them), and the overlap
 * a real core finds around cheap special instructions.  docs/exact.md
 * gives the sources of every cost and checks the model against the
 * seeds' measurements on hardware.
 */
#include <math.h>

#include "insn_mix.h"

/*
 * Cycles per instruction, from Agner Fog's instruction tables (revision
 * of 2021-08-17): reciprocal throughputs where the table gives them,
 * the latency where it gives only that (Zen 3's locked operations and
 * its cmpxchg).  docs/exact.md names each row.  Two figures are no
 * source's: cli and sti, which no table measures on these cores (the
 * IRQ class, cli/sti/pushf, takes pushf's figure averaged with an
 * assumed 3 for cli), and the plain code's width, the ALU limit of 4.
 * Ice Lake/Tiger Lake is here because the 002 thread measured on one.
 */
const struct vsb_uarch_cost vsb_uarch_costs[] = {
	{ .name = "skl", .what = "Intel Skylake (client and server)",
	  .width = 4, .loads = 2, .stores = 1,
	  .lock = 18, .cmpxchg = 6, .irq = 2, .popf = 20, .serializing = 33 },
	{ .name = "zen3", .what = "AMD Zen 3",
	  .width = 4, .loads = 3, .stores = 2,
	  .lock = 8, .cmpxchg = 9, .irq = 3.5, .popf = 13, .serializing = 60 },
	{ .name = "icl", .what = "Intel Ice Lake and Tiger Lake",
	  .width = 4, .loads = 2, .stores = 1,
	  .lock = 22, .cmpxchg = 7, .irq = 2, .popf = 21, .serializing = 36 },
};
const size_t vsb_uarch_ncosts = sizeof(vsb_uarch_costs) / sizeof(vsb_uarch_costs[0]);

double vsb_mix_estimate(const struct vsb_mix *m, const struct vsb_uarch_cost *u)
{
	const double *c = m->c;
	double plain = fmax(c[VSB_MIX_INSN] / u->width,
			    fmax(c[VSB_MIX_LOADS] / u->loads, c[VSB_MIX_STORES] / u->stores));
	double unlocked = fmax(0, c[VSB_MIX_CMPXCHG] - c[VSB_MIX_LOCK]);

	return plain + c[VSB_MIX_LOCK] * u->lock + unlocked * u->cmpxchg +
	       fmax(0, c[VSB_MIX_IRQ] - c[VSB_MIX_POPF]) * u->irq +
	       c[VSB_MIX_POPF] * u->popf + c[VSB_MIX_SERIAL] * u->serializing;
}
