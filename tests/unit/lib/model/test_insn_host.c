// SPDX-License-Identifier: GPL-2.0
/*
 * The cost model's host row from a measured cost table (insn_host.c):
 * each class from the primitive that is its kernel form, rates as
 * reciprocals, cli and sti NAN until a native module timed the pair,
 * and the verdicts it then takes part in.
 */
#include <math.h>
#include <string.h>

#include "cost_table.h"
#include "insn_mix.h"
#include "tap.h"

static void table(struct vsb_cost_table *t)
{
	int p;

	vsb_cost_table_clear(t);
	snprintf(t->key, sizeof(t->key), "AuthenticAMD-26-2-1");
	snprintf(t->cpu_name, sizeof(t->cpu_name), "AMD EPYC");
	for (p = 0; p < VSB_PRIM_N; p++)
		t->p[p].median = NAN;
	t->p[VSB_PRIM_ADD_CHAIN].median = 1;
	t->p[VSB_PRIM_ADD_TPUT].median = 0.185;
	t->p[VSB_PRIM_LOAD].median = 0.25;
	t->p[VSB_PRIM_STORE].median = 0.5;
	t->p[VSB_PRIM_LOCK_CMPXCHG].median = 20.1;
	t->p[VSB_PRIM_CMPXCHG].median = 9.0;
	t->p[VSB_PRIM_CMPXCHG_GS].median = 9.05;
	t->p[VSB_PRIM_PUSHF].median = 5.0;
	t->p[VSB_PRIM_POPF].median = 13.2;
	t->p[VSB_PRIM_PAUSE].median = 65.4;
	t->p[VSB_PRIM_MFENCE].median = 76.7;
}

int main(void)
{
	struct vsb_cost_table t;
	struct vsb_uarch_cost u;
	struct vsb_mix b, n;
	struct vsb_mix_verdict v;
	int k;

	table(&t);
	vsb_uarch_from_table(&t, &u);
	TAP_OK(!strcmp(u.name, "host") && strstr(u.what, "AuthenticAMD-26-2-1"),
	       "named host, its table's key in what it is");
	TAP_NEAR(u.c[VSB_COST_WIDTH], 1 / 0.185, 1e-9, "width: 1 / the independent adds");
	TAP_NEAR(u.c[VSB_COST_STORES], 2, 1e-9, "stores: 1 / 0.5 = 2 a cycle");
	TAP_NEAR(u.c[VSB_COST_LOCK], 20.1, 1e-9, "LOCK: lock_cmpxchg");
	TAP_NEAR(u.c[VSB_COST_CMPXCHG], 9.05, 1e-9, "cmpxchg: through %%gs, as this_cpu");
	TAP_NEAR(u.c[VSB_COST_SERIAL], 76.7, 1e-9, "serializing: mfence");
	TAP_OK(isnan(u.c[VSB_COST_CLI]) && isnan(u.c[VSB_COST_STI]) &&
	       strstr(u.src[VSB_COST_CLI], "not measured"),
	       "cli, sti: no cost without a native pair, and the source says so");
	t.p[VSB_PRIM_CLI_STI].median = 26;
	vsb_uarch_from_table(&t, &u);
	TAP_NEAR(u.c[VSB_COST_CLI], 13, 1e-9, "a measured cli+sti pair: half each");
	TAP_OK(strstr(u.src[VSB_COST_LOCK], "measured: calibrate --costs") != NULL,
	       "a measured cost's source names calibrate --costs");

	/* mod-node's this_cpu_cmpxchg against the irqsave patch */
	for (k = 0; k < VSB_EXACT_RESULT_CLASSES; k++)
		b.c[k] = 0;
	b.c[VSB_MIX_INSN] = 39.53;
	b.c[VSB_MIX_CMPXCHG] = b.c[VSB_MIX_CMPXCHG_LOCAL] = 1;
	b.c[VSB_MIX_LOADS] = 8.5;
	b.c[VSB_MIX_STORES] = 4.28;
	n = b;
	n.c[VSB_MIX_INSN] = 34.64;
	n.c[VSB_MIX_CMPXCHG] = n.c[VSB_MIX_CMPXCHG_LOCAL] = 0;
	n.c[VSB_MIX_IRQ] = 3;
	n.c[VSB_MIX_PUSHF] = n.c[VSB_MIX_CLI] = n.c[VSB_MIX_STI] = 1;
	vsb_uarch_set_host(&u);
	vsb_mix_judge(&b, &n, &v);
	TAP_OK(v.nmodels == 4 && !strcmp(v.model[3], "host") && v.d_est[3] > 0,
	       "with the pair measured the host prices irqsave: +%.1f cycles", v.d_est[3]);
	TAP_OK(v.dir == VSB_MIX_CHANGED, "still changed: zen3 has no cli cost");
	vsb_uarch_set_host(NULL);
	return tap_done();
}
