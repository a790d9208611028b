// SPDX-License-Identifier: GPL-2.0
/*
 * Exact mode's formats in lib/model: a result in unit insn with its mix
 * in the tcg:* PMU columns, written by the result writer and read back
 * by the one loader into a mix per op (the median over samples); the
 * cycle model on a mix worked out by hand; mix.csv's header and row; and
 * the window record: the one asked for is taken, an empty slot or
 * another window's record is refused.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exact_record.h"
#include "insn_mix.h"
#include "opts.h"
#include "bench_model.h"
#include "result.h"
#include "result_load.h"
#include "tap.h"

static struct vsb_run_opts opts;

/*
 * A kstat point in insn: 3 samples of 1000 ops, one with an interrupt;
 * with @nclass classes (VSB_MIX_OLD_CLASSES: as written before the irq
 * class was split).
 */
static void write_exact_result(const char *path, int nclass)
{
	static const uint64_t insn[3] = { 37522, 37522, 39000 };
	struct vsb_result r;
	FILE *f;
	int k;
	unsigned int i;

	vsb_result_init(&r, &opts);
	snprintf(r.unit, sizeof(r.unit), "insn");
	snprintf(r.event, sizeof(r.event), "instructions (test)");
	snprintf(r.plm, sizeof(r.plm), "k");
	r.npmu = nclass;
	for (k = 0; k < nclass; k++)
		snprintf(r.pmu_event[k], sizeof(r.pmu_event[k]), "tcg:%s",
			 vsb_exact_classes[k].name);
	r.pmu_instr = 0;
	for (i = 0; i < 3; i++) {
		struct vsb_sample s = { .thread = 0, .cpu = 0, .rep = i, .ops = 1000,
					.elapsed = insn[i], .ns = insn[i], .pmu_scale = 1 };

		s.pmu[VSB_MIX_INSN] = insn[i];
		s.pmu[VSB_MIX_LOCK] = 110;
		s.pmu[VSB_MIX_CMPXCHG] = 1000;
		s.pmu[VSB_MIX_IRQ] = i == 2 ? 4 : 0;
		s.pmu[VSB_MIX_POPF] = i == 2 ? 1 : 0;
		s.pmu[VSB_MIX_SERIAL] = 0;
		s.pmu[VSB_MIX_LOADS] = 8504;
		s.pmu[VSB_MIX_STORES] = 4278;
		s.pmu[VSB_MIX_CMPXCHG_LOCAL] = 1000;
		vsb_result_add(&r, &s);
	}
	r.sanity_ok = 1;
	f = fopen(path, "w");
	TAP_OK(f && !vsb_result_write(&r, f, "csv"), "an insn result is written");
	if (f)
		fclose(f);
	vsb_result_free(&r);
}

static void test_round_trip(void)
{
	char path[] = "/tmp/vsb-mix-XXXXXX.csv";
	struct vsb_rl_file f;
	struct vsb_mix m;
	int fd = mkstemps(path, 4);

	close(fd);
	write_exact_result(path, VSB_EXACT_RESULT_CLASSES);
	TAP_OK(vsb_rl_read(path, 0, &f) == 0 && f.npoints == 1, "the loader reads it: one point");
	TAP_OK(!strcmp(f.points[0].unit, "insn"), "in unit insn");
	TAP_OK(vsb_mix_of_point(&f, 0, &m) == 0, "its mix is there");
	TAP_NEAR(m.c[VSB_MIX_INSN], 37.522, 1e-9, "insn per op: the median, not the "
		 "interrupted sample's 39.0 (%g)", m.c[VSB_MIX_INSN]);
	TAP_NEAR(m.c[VSB_MIX_CMPXCHG], 1.0, 1e-9, "cmpxchg per op 1");
	TAP_NEAR(m.c[VSB_MIX_LOCK], 0.11, 1e-9, "lock per op 0.11");
	TAP_NEAR(m.c[VSB_MIX_LOADS], 8.504, 1e-9, "loads per op");
	TAP_NEAR(m.c[VSB_MIX_STORES], 4.278, 1e-9, "stores per op");
	TAP_NEAR(m.c[VSB_MIX_IRQ], 0, 1e-9, "irq per op: the median 0");
	TAP_NEAR(m.c[VSB_MIX_CMPXCHG_LOCAL], 1.0, 1e-9, "cmpxchg without LOCK 1");
	vsb_rl_free(&f);
	write_exact_result(path, VSB_MIX_OLD_CLASSES);
	TAP_OK(vsb_rl_read(path, 0, &f) == 0 && vsb_mix_of_point(&f, 0, &m) == 0,
	       "a result with the old eight classes still has a mix");
	TAP_OK(isnan(m.c[VSB_MIX_CLI]) && isnan(m.c[VSB_MIX_CMPXCHG_LOCAL]) &&
	       m.c[VSB_MIX_LOCK] > 0.1, "the classes it lacks are unknown, not 0");
	vsb_rl_free(&f);
	unlink(path);
}

/* the bench table is above lib/model: a stand-in with kstat's label */
static const struct vsb_bench_model *test_models(const char *name)
{
	static const struct vsb_bench_model kstat = { .label = "bench op" };

	return !strcmp(name, "kstat") ? &kstat : NULL;
}

/* a point's label: its bench, what its bench's label names, its CPUs */
static void test_label(void)
{
	char path[] = "/tmp/vsb-mix-XXXXXX.csv", label[256];
	struct vsb_run_opts keep = opts;
	struct vsb_rl_file f;
	int fd = mkstemps(path, 4);

	close(fd);
	vsb_bench_models_set(test_models, "kstat");
	snprintf(opts.bench, sizeof(opts.bench), "kstat");
	snprintf(opts.op, sizeof(opts.op), "mod-zone");
	write_exact_result(path, VSB_EXACT_RESULT_CLASSES);
	TAP_OK(vsb_rl_read(path, 0, &f) == 0, "a kstat point is read");
	vsb_mix_point_label(&f, 0, label, sizeof(label));
	TAP_OK(!strncmp(label, "kstat mod-zone", 14) && !strstr(label, "cmpxchg"),
	       "its label names its op, by its model, not its variant (%s)", label);
	vsb_rl_free(&f);
	snprintf(opts.bench, sizeof(opts.bench), "page-alloc");
	write_exact_result(path, VSB_EXACT_RESULT_CLASSES);
	TAP_OK(vsb_rl_read(path, 0, &f) == 0, "a point of a bench with no label columns");
	vsb_mix_point_label(&f, 0, label, sizeof(label));
	TAP_OK(!strncmp(label, "page-alloc", 10) && !strstr(label, "mod-zone") &&
	       !strstr(label, "cmpxchg"), "its label is its bench's name (%s)",
	       label);
	vsb_rl_free(&f);
	vsb_bench_models_set(NULL, "");
	unlink(path);
	opts = keep;
}

static struct vsb_mix mix_of(double insn, double loads, double stores)
{
	struct vsb_mix m;
	int k;

	for (k = 0; k < VSB_EXACT_RESULT_CLASSES; k++)
		m.c[k] = 0;
	m.c[VSB_MIX_INSN] = insn;
	m.c[VSB_MIX_LOADS] = loads;
	m.c[VSB_MIX_STORES] = stores;
	return m;
}

static void test_estimate(void)
{
	struct vsb_uarch_cost u = { .name = "t",
		.c = { 4, 2, 1, 18, 6, 5, 8, 1, 20, 140, 30, NAN } };
	struct vsb_mix cx = mix_of(40, 8, 4), lk, irq = mix_of(36, 8, 12), old;

	cx.c[VSB_MIX_CMPXCHG] = cx.c[VSB_MIX_CMPXCHG_LOCAL] = 1;
	lk = cx;
	lk.c[VSB_MIX_LOCK] = 1;
	lk.c[VSB_MIX_CMPXCHG_LOCAL] = 0;
	/* 40 / 4 = 10 beats 8 / 2 and 4 / 1; one unlocked cmpxchg: 6 */
	TAP_NEAR(vsb_mix_estimate(&cx, &u), 16, 1e-9, "this_cpu_cmpxchg: 10 + 6");
	/* the same cmpxchg locked: charged once, as LOCK */
	TAP_NEAR(vsb_mix_estimate(&lk, &u), 28, 1e-9, "LOCK cmpxchg: 10 + 18, not + 6 more");
	/* pushf, cli, sti, popf: each its own cost; 12 stores at 1 a cycle bind */
	irq.c[VSB_MIX_IRQ] = 4;
	irq.c[VSB_MIX_PUSHF] = irq.c[VSB_MIX_CLI] = irq.c[VSB_MIX_STI] = 1;
	irq.c[VSB_MIX_POPF] = 1;
	TAP_NEAR(vsb_mix_estimate(&irq, &u), 12 + 1 + 5 + 8 + 20, 1e-9,
		 "irqsave: stores bind (12), + pushf 1 + cli 5 + sti 8 + popf 20");
	irq.c[VSB_MIX_PAUSE] = 2;
	TAP_NEAR(vsb_mix_estimate(&irq, &u), 12 + 34 + 280, 1e-9,
		 "pause is a class of its own: 2 x 140");
	u.c[VSB_COST_CLI] = NAN;
	TAP_OK(isnan(vsb_mix_estimate(&irq, &u)), "a cli with no cost: no estimate");
	TAP_NEAR(vsb_mix_estimate(&cx, &u), 16, 1e-9,
		 "... while a mix without cli is priced as before");
	/* a result written before the split: irq less popf has no one cost */
	old = irq;
	old.c[VSB_MIX_PUSHF] = old.c[VSB_MIX_CLI] = old.c[VSB_MIX_STI] = NAN;
	old.c[VSB_MIX_PAUSE] = old.c[VSB_MIX_CMPXCHG_LOCAL] = NAN;
	u.c[VSB_COST_CLI] = 5;
	TAP_OK(isnan(vsb_mix_estimate(&old, &u)), "an old result's irq lump is not priced");
	old = lk;
	old.c[VSB_MIX_CMPXCHG_LOCAL] = NAN;
	TAP_NEAR(vsb_mix_estimate(&old, &u), 28, 1e-9,
		 "an old result's local cmpxchg: cmpxchg less LOCK");
	/*
	 * page_bench01 under init_on_alloc: 5010 insn, 4096 of them the
	 * iterations of the rep stosb that clears the page, 4245 stores.
	 * Charged 914 plain (/4) and 149 stores, and 4096 bytes at 32 a cycle.
	 */
	old = mix_of(5010, 400, 4245);
	old.c[VSB_MIX_REP_ITERS] = old.c[VSB_MIX_REP_BYTES] = 4096;
	u.c[VSB_COST_REP_BYTE] = 1.0 / 32;
	TAP_NEAR(vsb_mix_estimate(&old, &u), 914.0 / 4 + 4096.0 / 32, 1e-9,
		 "a page clear: its iterations are bytes at the fast-string rate, "
		 "not 4096 instructions and stores");
	u.c[VSB_COST_REP_BYTE] = NAN;
	TAP_OK(isnan(vsb_mix_estimate(&old, &u)), "no fast-string rate: no estimate");
	TAP_OK(vsb_uarch_ncosts == 3 && !strcmp(vsb_uarch_costs[0].name, "skl") &&
	       !strcmp(vsb_uarch_costs[1].name, "zen3") && !strcmp(vsb_uarch_costs[2].name, "icl"),
	       "three microarchitectures: skl, zen3, icl");
}

/* every cost of the cited tables has a source; a missing one says so */
static void test_sources(void)
{
	size_t u;
	int k, bad = 0;

	for (u = 0; u < vsb_uarch_ncosts; u++)
		for (k = 0; k < VSB_COST_N; k++) {
			const char *src = vsb_uarch_costs[u].src[k];

			if (k == VSB_COST_IRQ_LUMP)
				continue;	/* never priced, by design */
			if (!src || !*src)
				bad++;
			else if (isnan(vsb_uarch_costs[u].c[k]) && !strstr(src, "no published"))
				bad++;
		}
	TAP_OK(!bad, "every cost of every table is cited, and every missing one "
	       "says none is published (%d not)", bad);
	TAP_OK(!isnan(vsb_uarch_costs[0].c[VSB_COST_CLI]) &&
	       isnan(vsb_uarch_costs[1].c[VSB_COST_CLI]),
	       "cli: Intel's figure on skl, none on zen3");
}

static void test_mix_csv(void)
{
	struct vsb_mix m = { .c = { [VSB_MIX_INSN] = 37.5 } };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	vsb_mix_csv_header(f);
	vsb_mix_csv_row(f, "kstat mod-zone cpus=0,1", "base", &m);
	fclose(f);
	static const char head[] = "label,side,insn_per_op,lock,cmpxchg,irq,popf,"
		"serializing,loads,stores,est_cycles_skl,est_cycles_zen3,est_cycles_icl,"
		"pushf,cli,sti,pause,cmpxchg_local,rep_iters,rep_bytes,est_cycles_host\n";

	TAP_OK(len >= sizeof(head) - 1 && !strncmp(buf, head, sizeof(head) - 1),
	       "mix.csv's header: the columns it had, then those appended");
	TAP_OK(strstr(buf, "\nkstat mod-zone cpus=0;1,base,37.5000,") != NULL,
	       "a label's comma is written ';': one cell");
	free(buf);
}

static void test_record(void)
{
	struct vsb_exact_window w = { .magic = VSB_EXACT_MAGIC, .vcpu = 1, .seq = 7 }, out;
	char blank[VSB_EXACT_REC_SIZE] = { 0 };

	w.count[VSB_EXACT_INSN] = 12345;
	TAP_OK(vsb_exact_offset(1, 7) == (VSB_EXACT_RING + 7) * VSB_EXACT_REC_SIZE,
	       "window 7 of CPU 1 sits after CPU 0's ring");
	TAP_OK(vsb_exact_offset(0, VSB_EXACT_RING + 3) == 3 * VSB_EXACT_REC_SIZE,
	       "the ring wraps");
	TAP_OK(vsb_exact_record_take(&w, 1, 7, &out) == 0 && out.count[VSB_EXACT_INSN] == 12345,
	       "the record asked for is taken");
	fprintf(stderr, "# expected: two refusals below\n");
	TAP_OK(vsb_exact_record_take(blank, 1, 7, &out) != 0, "an empty slot is refused");
	TAP_OK(vsb_exact_record_take(&w, 1, 7 + VSB_EXACT_RING, &out) != 0,
	       "another window in the slot (the ring wrapped) is refused");
	TAP_OK(sizeof(struct vsb_exact_window) == VSB_EXACT_REC_SIZE, "a record is VSB_EXACT_REC_SIZE bytes");
}

int main(void)
{
	vsb_run_opts_defaults(&opts);
	test_round_trip();
	test_label();
	test_estimate();
	test_sources();
	test_mix_csv();
	test_record();
	return tap_done();
}
