/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exact_record.h - the window file of exact mode (kmod/uapi/vsb_exact.h),
 * its reader: where a window's record lies and whether a record read
 * there is the one asked for.  The writer is the TCG plugin
 * (qemu-plugin/vsb_insn.c); lib/machine/exact_disk.c does the reading.
 */
#ifndef VSB_EXACT_RECORD_H
#define VSB_EXACT_RECORD_H

#include <stdint.h>

#include "kmod/uapi/vsb_exact.h"

/*
 * The classes a result carries, in its PMU slots (at most VSB_PMU_SLOTS):
 * record class and column name, instructions first.
 */
#define VSB_EXACT_RESULT_CLASSES	15
/*
 * Their places in a result (vsb_exact_classes[] lists them in this
 * order).  Appended, never reordered: the first VSB_MIX_OLD_CLASSES are
 * all that results written before the irq class was split carry.
 */
enum { VSB_MIX_INSN, VSB_MIX_LOCK, VSB_MIX_CMPXCHG, VSB_MIX_IRQ, VSB_MIX_POPF,
       VSB_MIX_SERIAL, VSB_MIX_LOADS, VSB_MIX_STORES, VSB_MIX_PUSHF,
       VSB_MIX_CLI, VSB_MIX_STI, VSB_MIX_PAUSE, VSB_MIX_CMPXCHG_LOCAL,
       VSB_MIX_REP_ITERS, VSB_MIX_REP_BYTES };
#define VSB_MIX_OLD_CLASSES		8
struct vsb_exact_class {
	int rec;		/* VSB_EXACT_* index into the record */
	const char *name;	/* column and event name: insn, lock, ... */
};
extern const struct vsb_exact_class vsb_exact_classes[VSB_EXACT_RESULT_CLASSES];

/* byte offset of window @seq of @cpu in the window file */
uint64_t vsb_exact_offset(unsigned int cpu, uint64_t seq);
/*
 * 0 when @buf (VSB_EXACT_REC_SIZE bytes) holds window @seq of @cpu, its
 * counts copied to @out; else a VSB_EXIT_* code after one line naming
 * what was there instead.
 */
int vsb_exact_record_take(const void *buf, unsigned int cpu, uint64_t seq,
			  struct vsb_exact_window *out);

#endif /* VSB_EXACT_RECORD_H */
