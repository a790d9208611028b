/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cost_table.h - what one instruction costs on one CPU, in core cycles,
 * as `vmstat-bench calibrate --costs` measured it (lib/machine/cost_probe.c),
 * and the file that keeps it (cost_table.c: the format, no timing).
 *
 * The table is keyed by the CPU's vendor, family, model and stepping, so
 * that a table is applied only to the part it was measured on.  The
 * file is a result-like CSV: a first line naming the format and its
 * version, `# key: value` lines, then rows "prim,median,lo,hi,n" read by
 * column name.  docs/costs.md says what each row times and how.
 */
#ifndef VSB_COST_TABLE_H
#define VSB_COST_TABLE_H

#include <stddef.h>
#include <stdio.h>

enum vsb_prim {
	VSB_PRIM_ADD_CHAIN = 0,	/* dependent adds, 1 cycle each: the clock */
	VSB_PRIM_IMUL_CHAIN,	/* dependent imul, 3 cycles: the self-check */
	VSB_PRIM_ADD_TPUT,	/* independent adds: cycles per add */
	VSB_PRIM_LOAD,		/* independent plain loads: cycles each */
	VSB_PRIM_STORE,		/* independent plain stores: cycles each */
	VSB_PRIM_LOCK_CMPXCHG,
	VSB_PRIM_LOCK_XADD,
	VSB_PRIM_CMPXCHG,	/* without LOCK, on memory */
	VSB_PRIM_CMPXCHG_GS,	/* without LOCK, through %gs */
	VSB_PRIM_PUSHF,
	VSB_PRIM_POPF,		/* IF unchanged */
	VSB_PRIM_PAUSE,
	VSB_PRIM_LFENCE,
	VSB_PRIM_MFENCE,
	VSB_PRIM_CPUID,
	VSB_PRIM_REP_STOSB_4K,	/* cycles per 4 KiB */
	/* kernel only: --kernel, where the module loads natively */
	VSB_PRIM_CLI_STI,	/* a cli+sti pair */
	VSB_PRIM_IRQ_SAVE_RESTORE,
	VSB_PRIM_THIS_CPU_CMPXCHG,
	VSB_PRIM_K_LOCK_CMPXCHG,
	VSB_PRIM_THIS_CPU_ADD,
	VSB_PRIM_N
};
#define VSB_PRIM_USER_N VSB_PRIM_CLI_STI	/* the ones every table must have */

struct vsb_prim_cost {
	double median, lo, hi;	/* core cycles per instruction; NAN: not measured */
	size_t n;		/* samples */
};

struct vsb_cost_table {
	char vendor[16];	/* GenuineIntel, AuthenticAMD */
	unsigned int family, model, stepping;
	char cpu_name[128];	/* model name */
	char key[64];		/* "AuthenticAMD-25-1-1": vendor-family-model-stepping */
	double tsc_per_cycle;	/* TSC ticks per core cycle during the run */
	char when[32];		/* ISO date of the run */
	struct vsb_prim_cost p[VSB_PRIM_N];
};

/* The first line of every cost table file, version and all. */
#define VSB_COST_TABLE_MAGIC	"# vmstat-bench cost table, version 1"
/* What lo and hi are, said in the file and by the printer. */
#define VSB_COST_SPREAD		"lo and hi are the 10th and 90th percentiles of the samples"

const char *vsb_prim_name(enum vsb_prim p);	/* the file's row names: "lock_cmpxchg" */
/* One line on what the row times ("lock cmpxchg %rdx,(mem), succeeding") */
const char *vsb_prim_what(enum vsb_prim p);
/* @name's row, or -1 when no row has that name */
int vsb_prim_by_name(const char *name);
/* @t's key from its vendor, family, model and stepping */
void vsb_cost_table_set_key(struct vsb_cost_table *t);
/* every row NAN, n 0: what a table holds before it is measured or read */
void vsb_cost_table_clear(struct vsb_cost_table *t);
int vsb_cost_table_write(FILE *f, const struct vsb_cost_table *t);	/* 0 or -1 (write error) */
/*
 * 0, or VSB_EXIT_USAGE after ONE vsb_err line naming what was wrong: not a
 * cost table (another format: say so), a user-space row missing, a number
 * that does not parse, an unknown row. Kernel rows may be absent or "-" (NAN).
 */
int vsb_cost_table_read(const char *path, struct vsb_cost_table *t);

#endif /* VSB_COST_TABLE_H */
