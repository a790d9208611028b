/* SPDX-License-Identifier: GPL-2.0 */
/*
 * classify.h - which of exact mode's classes an x86-64 instruction is in,
 * from its bytes alone.
 *
 * Just enough of a decoder for the classes of kmod/uapi/vsb_exact.h:
 * legacy prefixes (LOCK among them), a REX byte, and the one- and two-byte
 * opcodes of cmpxchg, xchg, the interrupt flag, pause and the fences.  Anything
 * it does not know (VEX/EVEX, three-byte maps) is "other", which is what
 * those instructions are to the classes counted.  Written by hand because
 * it is twenty opcodes: a full disassembler (capstone, libopcodes) would
 * be a dependency of the plugin for no class it adds.
 */
#ifndef VSB_QEMU_PLUGIN_CLASSIFY_H
#define VSB_QEMU_PLUGIN_CLASSIFY_H

#include <stddef.h>
#include <stdint.h>

#define VSB_CLS_LOCK		(1U << 0)	/* LOCK prefix, or xchg with memory */
#define VSB_CLS_CMPXCHG		(1U << 1)	/* cmpxchg r/m, cmpxchg8b/16b */
#define VSB_CLS_IRQ		(1U << 2)	/* cli, sti, pushf, popf */
#define VSB_CLS_SERIAL		(1U << 3)	/* serializing, or a fence */
#define VSB_CLS_PUSHF		(1U << 4)
#define VSB_CLS_POPF		(1U << 5)
#define VSB_CLS_MARK_START	(1U << 6)	/* exact mode's window markers */
#define VSB_CLS_MARK_STOP	(1U << 7)
#define VSB_CLS_CLI		(1U << 8)
#define VSB_CLS_STI		(1U << 9)
#define VSB_CLS_PAUSE		(1U << 10)	/* f3 90 */
#define VSB_CLS_REP_STR		(1U << 11)	/* rep/repne movs, stos, lods, cmps, scas, ins, outs */

unsigned int vsb_classify_insn(const uint8_t *b, size_t len);

#endif /* VSB_QEMU_PLUGIN_CLASSIFY_H */
