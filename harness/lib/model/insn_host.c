// SPDX-License-Identifier: GPL-2.0
/*
 * insn_host.c - the cost model's row for the CPU at hand, from the cost
 * table `calibrate --costs` measured on it (cost_table.h).
 *
 * Each class takes the primitive that is the kernel's form of it: a
 * cmpxchg without LOCK through %gs (this_cpu_cmpxchg), a LOCK cmpxchg,
 * pushf, popf with IF unchanged, pause, and for the serializing class
 * mfence (the fences are what kernel code holds; cpuid under a
 * hypervisor is a VM exit).  The rates are the reciprocals of the
 * independent adds, loads and stores.  cli and sti are half a measured
 * cli+sti pair where the module timed one natively (--kernel), else
 * NAN: user space cannot run them, and no guess stands in.
 */
#include <math.h>
#include <stdio.h>

#include "cost_table.h"
#include "insn_mix.h"

/* the primitive each class is measured by; -1: a rate, or no such row */
static const int prim_of[VSB_COST_N] = {
	[VSB_COST_WIDTH] = VSB_PRIM_ADD_TPUT,
	[VSB_COST_LOADS] = VSB_PRIM_LOAD,
	[VSB_COST_STORES] = VSB_PRIM_STORE,
	[VSB_COST_LOCK] = VSB_PRIM_LOCK_CMPXCHG,
	[VSB_COST_CMPXCHG] = VSB_PRIM_CMPXCHG_GS,
	[VSB_COST_CLI] = VSB_PRIM_CLI_STI,
	[VSB_COST_STI] = VSB_PRIM_CLI_STI,
	[VSB_COST_PUSHF] = VSB_PRIM_PUSHF,
	[VSB_COST_POPF] = VSB_PRIM_POPF,
	[VSB_COST_PAUSE] = VSB_PRIM_PAUSE,
	[VSB_COST_SERIAL] = VSB_PRIM_MFENCE,
	[VSB_COST_IRQ_LUMP] = -1,
	[VSB_COST_REP_BYTE] = VSB_PRIM_REP_STOSB_4K,
};

/* the sources name the table they came from; one host at a time */
static char what[256], src[VSB_COST_N][192];

void vsb_uarch_from_table(const struct vsb_cost_table *t, struct vsb_uarch_cost *u)
{
	int k;

	snprintf(what, sizeof(what), "this CPU, measured: %s (%s)", t->cpu_name, t->key);
	u->name = "host";
	u->what = what;
	for (k = 0; k < VSB_COST_N; k++) {
		int p = prim_of[k];
		double v = p >= 0 ? t->p[p].median : NAN;

		if (k == VSB_COST_CLI || k == VSB_COST_STI)
			v /= 2;		/* a pair was timed: half each */
		else if (k == VSB_COST_REP_BYTE)
			v /= 4096;	/* a 4 KiB clear was timed: per byte */
		else if (k < VSB_COST_FIRST_CHARGED)
			v = v > 0 ? 1 / v : NAN;	/* cycles each -> a cycle */
		u->c[k] = v > 0 ? v : NAN;
		if (p < 0)
			snprintf(src[k], sizeof(src[k]), "no published figure: "
				 "never priced");
		else if (isnan(u->c[k]))
			snprintf(src[k], sizeof(src[k]), "no published figure: %s "
				 "not measured on %s", vsb_prim_name(p), t->key);
		else
			snprintf(src[k], sizeof(src[k]), "measured: calibrate --costs "
				 "on %s, %s%s", t->key, vsb_prim_name(p),
				 k == VSB_COST_CLI || k == VSB_COST_STI ? " / 2" : "");
		u->src[k] = src[k];
	}
}
