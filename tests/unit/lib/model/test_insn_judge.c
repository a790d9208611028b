// SPDX-License-Identifier: GPL-2.0
/*
 * Exact verdicts through the cost model (lib/model/insn_judge.c) on
 * known mixes: fewer instructions is not faster.  The mixes are the
 * kstat ops' as counted in a 6.12 guest (docs/exact.md): mod_node's
 * this_cpu_cmpxchg path, the patch that puts it under local_irq_save
 * (-4.9 insn, +3 irq, -1 cmpxchg), one nop more, the LOCK patch, an
 * A/A, and plain instructions taken out.
 */
#include <math.h>
#include <string.h>

#include "insn_mix.h"
#include "tap.h"

/* mod-node on 6.12: 39.53 insn, one %gs cmpxchg, 8.5 loads, 4.28 stores */
static struct vsb_mix mod_node(void)
{
	struct vsb_mix m;
	int k;

	for (k = 0; k < VSB_EXACT_RESULT_CLASSES; k++)
		m.c[k] = 0;
	m.c[VSB_MIX_INSN] = 39.53;
	m.c[VSB_MIX_LOCK] = 0.11;
	m.c[VSB_MIX_CMPXCHG] = m.c[VSB_MIX_CMPXCHG_LOCAL] = 1;
	m.c[VSB_MIX_LOADS] = 8.5;
	m.c[VSB_MIX_STORES] = 4.28;
	return m;
}

/* the same op under local_irq_save: pushf, cli, sti; no cmpxchg */
static struct vsb_mix irqsave(void)
{
	struct vsb_mix m = mod_node();

	m.c[VSB_MIX_INSN] = 34.64;
	m.c[VSB_MIX_CMPXCHG] = m.c[VSB_MIX_CMPXCHG_LOCAL] = 0;
	m.c[VSB_MIX_IRQ] = 3;
	m.c[VSB_MIX_PUSHF] = m.c[VSB_MIX_CLI] = m.c[VSB_MIX_STI] = 1;
	m.c[VSB_MIX_LOADS] = 6.51;
	m.c[VSB_MIX_STORES] = 3.30;
	return m;
}

static const char *dir_name(enum vsb_mix_dir d)
{
	static const char *const n[] = { "same", "slower", "faster", "changed" };

	return n[d];
}

static void test_irqsave(void)
{
	struct vsb_mix b = mod_node(), n = irqsave();
	struct vsb_mix_verdict v;

	vsb_mix_judge(&b, &n, &v);
	TAP_OK(v.dir != VSB_MIX_FASTER, "irqsave patch (-4.9 insn, +3 irq, -1 cmpxchg) "
	       "is not faster (%s)", dir_name(v.dir));
	TAP_OK(v.dir == VSB_MIX_CHANGED && v.by_costs,
	       "it is changed: zen3 has no cost for cli, so the models cannot agree");
	TAP_OK(strstr(v.why, "zen3 has no cost for cli") != NULL, "why says so: %s", v.why);
	TAP_OK(strstr(v.line, "-4.89 insn") && strstr(v.line, "+1 cli") &&
	       strstr(v.line, "+1 sti") && strstr(v.line, "-1 cmpxchg") &&
	       strstr(v.line, "? zen3"), "the line names the change: %s", v.line);
	TAP_OK(v.d_est[0] > 5, "skl: the irq path costs more (%+.2f cycles)", v.d_est[0]);
}

static void test_host_agrees(void)
{
	struct vsb_mix b = mod_node(), n = irqsave();
	struct vsb_uarch_cost host = { .name = "host",
		.c = { 4, 3, 2, 20, 7, 5, 8, 2, 15, 60, 40, NAN } };
	struct vsb_mix_verdict v;

	/* a host table without cli/sti (no native module): still changed */
	host.c[VSB_COST_CLI] = host.c[VSB_COST_STI] = NAN;
	vsb_uarch_set_host(&host);
	vsb_mix_judge(&b, &n, &v);
	TAP_OK(v.nmodels == 4 && v.dir == VSB_MIX_CHANGED && isnan(v.d_est[3]),
	       "the host's table counts as a model: changed, host has no cli cost");
	vsb_uarch_set_host(NULL);
}

static void test_nop(void)
{
	struct vsb_mix b = mod_node(), n = mod_node();
	struct vsb_mix_verdict v;

	n.c[VSB_MIX_INSN] += 1;
	vsb_mix_judge(&b, &n, &v);
	TAP_OK(v.dir == VSB_MIX_SLOWER && !v.by_costs, "+1 nop is slower (%s), by the "
	       "mix alone: nothing went out", dir_name(v.dir));
}

static void test_lock(void)
{
	struct vsb_mix b = mod_node(), n = mod_node();
	struct vsb_mix_verdict v;
	size_t i;
	int all = 1;

	/* +5 insn, +1 LOCK, all else the same */
	n.c[VSB_MIX_INSN] += 5;
	n.c[VSB_MIX_LOCK] += 1;
	vsb_mix_judge(&b, &n, &v);
	TAP_OK(v.dir == VSB_MIX_SLOWER, "+5 insn with +1 LOCK is slower (%s)",
	       dir_name(v.dir));
	/* the LOCK patch itself: the %gs cmpxchg becomes a locked one */
	n.c[VSB_MIX_CMPXCHG_LOCAL] = 0;
	vsb_mix_judge(&b, &n, &v);
	for (i = 0; i < v.nmodels; i++)
		all &= v.d_est[i] > 0;
	TAP_OK(v.dir == VSB_MIX_SLOWER && v.by_costs && all,
	       "the LOCK patch (a local cmpxchg made locked, +5 insn) is slower on "
	       "every model (%s: %s)", dir_name(v.dir), v.line);
}

static void test_same_and_faster(void)
{
	struct vsb_mix b = mod_node(), n = mod_node();
	struct vsb_mix_verdict v;

	n.c[VSB_MIX_INSN] += 0.01;	/* an interrupt's share: within tolerance */
	vsb_mix_judge(&b, &n, &v);
	TAP_OK(v.dir == VSB_MIX_SAME && !v.line[0], "an A/A is same, with no line");
	n = mod_node();
	n.c[VSB_MIX_INSN] -= 3;
	vsb_mix_judge(&b, &n, &v);
	TAP_OK(v.dir == VSB_MIX_FASTER, "a pure removal of plain instructions is "
	       "faster (%s)", dir_name(v.dir));
}

static void test_models_disagree(void)
{
	struct vsb_mix b = mod_node(), n = mod_node();
	struct vsb_mix_verdict v;

	/* a local cmpxchg swapped for popf: skl 20 vs 6, zen3 13 vs 9 -> slower */
	n.c[VSB_MIX_CMPXCHG] = n.c[VSB_MIX_CMPXCHG_LOCAL] = 0;
	n.c[VSB_MIX_IRQ] = n.c[VSB_MIX_POPF] = 1;
	vsb_mix_judge(&b, &n, &v);
	TAP_OK(v.dir == VSB_MIX_SLOWER && v.by_costs, "cmpxchg -> popf: slower on "
	       "every model (%s)", dir_name(v.dir));
	/* a local cmpxchg swapped for 16 stores: skl +10.4 - 6, zen3 +0.3 - 9 */
	n = mod_node();
	n.c[VSB_MIX_CMPXCHG] = n.c[VSB_MIX_CMPXCHG_LOCAL] = 0;
	n.c[VSB_MIX_STORES] += 16;
	vsb_mix_judge(&b, &n, &v);
	TAP_OK(v.dir == VSB_MIX_CHANGED && strstr(v.why, "disagree"),
	       "cmpxchg -> 16 stores: skl slower, zen3 faster: changed (%s)", v.why);
}

int main(void)
{
	test_irqsave();
	test_host_agrees();
	test_nop();
	test_lock();
	test_same_and_faster();
	test_models_disagree();
	return tap_done();
}
