/* SPDX-License-Identifier: GPL-2.0 */
/*
 * insn_mix.h - exact mode's instruction mix per op: read from a raw
 * result's rows (the tcg:* classes in pmu_events/pmu_values, which
 * benches/kmod_exact.c writes), turned into an estimate of cycles by a
 * per-class cost model (insn_cost.c), and written as mix.csv, `ab`'s
 * table of both sides.
 */
#ifndef VSB_INSN_MIX_H
#define VSB_INSN_MIX_H

#include <stddef.h>
#include <stdio.h>

#include "exact_record.h"
#include "result_load.h"

/* per op, in vsb_exact_classes' order (insn, lock, cmpxchg, ...) */
struct vsb_mix {
	double c[VSB_EXACT_RESULT_CLASSES];
};

/*
 * The median per op of each class over the rows of point @pt of @f;
 * 0 when the point is in insn with every class there, else -1.
 */
int vsb_mix_of_point(const struct vsb_rl_file *f, size_t pt, struct vsb_mix *m);

/* A microarchitecture's cost per class (cycles), with its sources. */
struct vsb_uarch_cost {
	const char *name;	/* skl, zen3: the est_cycles_<name> column */
	const char *what;
	double width;		/* plain instructions a cycle */
	double loads, stores;	/* memory operations a cycle */
	double lock;		/* a LOCK-prefixed read-modify-write, xchg with memory */
	double cmpxchg;		/* cmpxchg without LOCK */
	double irq;		/* cli, sti, pushf */
	double popf;
	double serializing;	/* lfence, mfence, cpuid, iret, wrmsr */
};
extern const struct vsb_uarch_cost vsb_uarch_costs[];
extern const size_t vsb_uarch_ncosts;

/* The model's cycles per op for mix @m on @u (insn_cost.c says how). */
double vsb_mix_estimate(const struct vsb_mix *m, const struct vsb_uarch_cost *u);

/* mix.csv: the header, then one row per point and side */
void vsb_mix_csv_header(FILE *f);
void vsb_mix_csv_row(FILE *f, const char *label, const char *side,
		     const struct vsb_mix *m);

#endif /* VSB_INSN_MIX_H */
