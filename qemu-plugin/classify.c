// SPDX-License-Identifier: GPL-2.0
/*
 * classify.c - exact mode's instruction classes from an instruction's
 * bytes (classify.h says which, and why by hand).
 *
 * 64-bit mode only: the guest kernel's code is what is classified.  The
 * references are the Intel SDM's opcode map (volume 2, appendix A) and
 * its list of serializing instructions (volume 3, section 9.3).
 */
#include <linux/types.h>

#include "classify.h"
#include "kmod/uapi/vsb_exact.h"

static int is_legacy_prefix(uint8_t b)
{
	switch (b) {
	case 0xf0: case 0xf2: case 0xf3:		/* lock, repne, rep */
	case 0x2e: case 0x36: case 0x3e: case 0x26:	/* segments */
	case 0x64: case 0x65:				/* fs, gs */
	case 0x66: case 0x67:				/* sizes */
		return 1;
	}
	return 0;
}

/* ins, outs, movs, cmps, stos, lods, scas: what a rep prefix repeats */
static int is_string_op(uint8_t op)
{
	return (op >= 0x6c && op <= 0x6f) || (op >= 0xa4 && op <= 0xa7) ||
	       (op >= 0xaa && op <= 0xaf);
}

/* ModRM's mod field is not 3: the r/m operand is memory */
static int modrm_is_mem(uint8_t modrm)
{
	return (modrm >> 6) != 3;
}

static int is_marker(const uint8_t *b, size_t len, uint32_t disp)
{
	return len == VSB_EXACT_MARK_LEN && b[0] == 0x0f && b[1] == 0x1f &&
	       b[2] == 0x84 && b[3] == 0x00 &&
	       (uint32_t)(b[4] | b[5] << 8 | b[6] << 16 |
			  (uint32_t)b[7] << 24) == disp;
}

/* the two-byte map (0f xx); @rest: the bytes after 0f */
static unsigned int classify_0f(const uint8_t *rest, size_t n)
{
	if (!n)
		return 0;
	switch (rest[0]) {
	case 0xb0: case 0xb1:			/* cmpxchg r/m, r */
		return VSB_CLS_CMPXCHG;
	case 0xc7:				/* group 9: /1 cmpxchg8b/16b */
		if (n >= 2 && modrm_is_mem(rest[1]) && ((rest[1] >> 3) & 7) == 1)
			return VSB_CLS_CMPXCHG;
		return 0;
	case 0xa2:				/* cpuid */
	case 0x30:				/* wrmsr */
	case 0x08: case 0x09:			/* invd, wbinvd */
		return VSB_CLS_SERIAL;
	case 0xae:				/* lfence, mfence, sfence */
		if (n >= 2 && (rest[1] == 0xe8 || rest[1] == 0xf0 || rest[1] == 0xf8))
			return VSB_CLS_SERIAL;
		return 0;
	case 0x01:				/* serialize */
		if (n >= 2 && rest[1] == 0xe8)
			return VSB_CLS_SERIAL;
		return 0;
	}
	return 0;
}

static unsigned int classify_opcode(const uint8_t *op, size_t n)
{
	if (!n)
		return 0;
	switch (op[0]) {
	case 0xfa:
		return VSB_CLS_IRQ | VSB_CLS_CLI;
	case 0xfb:
		return VSB_CLS_IRQ | VSB_CLS_STI;
	case 0x9c:
		return VSB_CLS_IRQ | VSB_CLS_PUSHF;
	case 0x9d:
		return VSB_CLS_IRQ | VSB_CLS_POPF;
	case 0xcf:				/* iret */
		return VSB_CLS_SERIAL;
	case 0x86: case 0x87:			/* xchg: with memory, locked */
		if (n >= 2 && modrm_is_mem(op[1]))
			return VSB_CLS_LOCK;
		return 0;
	case 0x0f:
		return classify_0f(op + 1, n - 1);
	}
	return 0;
}

unsigned int vsb_classify_insn(const uint8_t *b, size_t len)
{
	unsigned int cls = 0;
	size_t i = 0;
	int rep = 0, repany = 0;

	if (is_marker(b, len, VSB_EXACT_MARK_START))
		return VSB_CLS_MARK_START;
	if (is_marker(b, len, VSB_EXACT_MARK_STOP))
		return VSB_CLS_MARK_STOP;
	for (; i < len && is_legacy_prefix(b[i]); i++) {
		if (b[i] == 0xf0)
			cls |= VSB_CLS_LOCK;
		rep |= b[i] == 0xf3;
		repany |= b[i] == 0xf3 || b[i] == 0xf2;
	}
	if (i < len && (b[i] & 0xf0) == 0x40)	/* REX */
		i++;
	if (rep && i < len && b[i] == 0x90)	/* pause is rep nop */
		return cls | VSB_CLS_PAUSE;
	if (repany && i < len && is_string_op(b[i]))
		cls |= VSB_CLS_REP_STR;
	return cls | classify_opcode(b + i, len - i);
}
