/* SPDX-License-Identifier: GPL-2.0 */
/*
 * insn_mix.h - exact mode's instruction mix per op: read from a raw
 * result's rows (the tcg:* classes in pmu_events/pmu_values, which
 * benches/kmod_exact.c writes), turned into an estimate of cycles by a
 * per-class cost model (insn_cost.c), judged base against new through
 * that model (insn_judge.c), and written as mix.csv, `ab`'s table of
 * both sides.
 */
#ifndef VSB_INSN_MIX_H
#define VSB_INSN_MIX_H

#include <stddef.h>
#include <stdio.h>

#include "exact_record.h"
#include "result_load.h"

/*
 * Per op, in vsb_exact_classes' order (insn, lock, cmpxchg, ...); NAN
 * for a class the result does not carry (one written before the class
 * was counted: the first VSB_MIX_OLD_CLASSES are always there).
 */
struct vsb_mix {
	double c[VSB_EXACT_RESULT_CLASSES];
};

/*
 * The median per op of each class over rows [@r, @end) of @f, the rows
 * in insn with at least the old classes; 0, or -1 when none is.
 */
int vsb_mix_of_rows(const struct vsb_rl_file *f, size_t r, size_t end,
		    struct vsb_mix *m);
/* The same over the rows of point @pt of @f; -1 unless it is in insn. */
int vsb_mix_of_point(const struct vsb_rl_file *f, size_t pt, struct vsb_mix *m);
/* "kstat mod-zone cpus=0": what row @row of @f runs, and where */
void vsb_mix_point_label(const struct vsb_rl_file *f, size_t row, char *buf,
			 size_t len);
/* Class by class, the median of @n mixes (boots): NAN where one lacks it. */
void vsb_mix_median(const struct vsb_mix *mixes, size_t n, struct vsb_mix *m);

/*
 * What the model charges for: the plain code at the core's throughput
 * (instructions, loads and stores a cycle), then each special
 * instruction's cycles in full.  IRQ_LUMP is cli, sti and pushf of a
 * result that did not tell them apart: no core has one cost for the
 * three, so it is never priced.  A rep string instruction's iterations
 * are not plain instructions (TCG counts each): they are taken out of
 * insn and stores and charged by the bytes they store, at the core's
 * fast-string rate (REP_BYTE).
 */
enum vsb_cost_class {
	VSB_COST_WIDTH,		/* plain instructions a cycle */
	VSB_COST_LOADS,		/* loads a cycle */
	VSB_COST_STORES,	/* stores a cycle */
	VSB_COST_LOCK,		/* cycles: a LOCK-prefixed read-modify-write */
	VSB_COST_CMPXCHG,	/* cycles: cmpxchg without LOCK */
	VSB_COST_CLI,
	VSB_COST_STI,
	VSB_COST_PUSHF,
	VSB_COST_POPF,
	VSB_COST_PAUSE,
	VSB_COST_SERIAL,	/* lfence, mfence, cpuid, iret, wrmsr */
	VSB_COST_IRQ_LUMP,
	VSB_COST_REP_BYTE,	/* cycles a byte a rep string instruction stores */
	VSB_COST_N
};
/* the first class charged per instruction (those before are rates) */
#define VSB_COST_FIRST_CHARGED	VSB_COST_LOCK

/* A microarchitecture's costs, each with its source; NAN: none published. */
struct vsb_uarch_cost {
	const char *name;	/* skl, zen3: the est_cycles_<name> column */
	const char *what;
	double c[VSB_COST_N];
	const char *src[VSB_COST_N];
};
/* The cited tables (insn_cost.c), in est_cycles_ column order. */
extern const struct vsb_uarch_cost vsb_uarch_costs[];
extern const size_t vsb_uarch_ncosts;
const char *vsb_cost_class_name(enum vsb_cost_class k);

/*
 * The models a verdict and mix.csv go through: the cited tables, then
 * the host's measured one where vsb_uarch_set_host() gave it (NULL
 * clears it).  At most VSB_UARCH_MAX.
 */
#define VSB_UARCH_MAX	8
void vsb_uarch_set_host(const struct vsb_uarch_cost *host);
/* insn_host.c: the host's row from its measured cost table (cost_table.h) */
struct vsb_cost_table;
void vsb_uarch_from_table(const struct vsb_cost_table *t, struct vsb_uarch_cost *u);
const struct vsb_uarch_cost *vsb_uarch_host(void);
size_t vsb_uarch_models(const struct vsb_uarch_cost **out);
/* their names, ", "-joined: "skl, zen3, icl, host" */
const char *vsb_uarch_names(void);

/*
 * What the model charges mix @m for, per class of enum vsb_cost_class
 * (the rates' slots hold insn, loads and stores); NAN where the mix
 * cannot say (an old result's split of the irq class).
 */
void vsb_mix_charges(const struct vsb_mix *m, double k[VSB_COST_N]);
/* The plain code's cycles of charges @k: the tightest throughput bound. */
double vsb_mix_plain(const double k[VSB_COST_N], const struct vsb_uarch_cost *u);
/* The model's cycles per op for mix @m on @u; NAN where a cost is missing. */
double vsb_mix_estimate(const struct vsb_mix *m, const struct vsb_uarch_cost *u);

/*
 * insn_judge.c: base @b against new @n through every model.  Counts
 * that moved by no more than the exact tolerance have not moved.  Where
 * every class moved the same way the direction needs no cost (the work
 * of one side contains the other's); otherwise every model must price
 * every moved class and agree beyond its tolerance.
 */
enum vsb_mix_dir {
	VSB_MIX_SAME,		/* no class moved */
	VSB_MIX_SLOWER,
	VSB_MIX_FASTER,
	VSB_MIX_CHANGED,	/* moved; the models disagree or cannot price it */
};
struct vsb_mix_verdict {
	enum vsb_mix_dir dir;
	int by_costs;		/* 1: the models decided; 0: the mix alone did */
	size_t nmodels;
	const char *model[VSB_UARCH_MAX];
	double est_base[VSB_UARCH_MAX];	/* base's cycles per op; NAN: no cost */
	double d_est[VSB_UARCH_MAX];	/* cycles per op, new - base; NAN: no cost */
	double rel_est[VSB_UARCH_MAX];	/* d_est over base's estimate; NAN */
	char line[320];		/* "-4.9 insn, +3 sti, ...; est +6.1 skl, ..." */
	char why[160];		/* for changed: the models that disagree or cannot */
};
#define VSB_MIX_REL_TOL	0.001	/* a class or estimate moves beyond 0.1% ... */
#define VSB_MIX_ABS_TOL	0.05	/* ... or 0.05 an op (cycles: a quarter) */
void vsb_mix_judge(const struct vsb_mix *b, const struct vsb_mix *n,
		   struct vsb_mix_verdict *v);

/* mix.csv: the header, then one row per point and side */
void vsb_mix_csv_header(FILE *f);
void vsb_mix_csv_row(FILE *f, const char *label, const char *side,
		     const struct vsb_mix *m);

#endif /* VSB_INSN_MIX_H */
