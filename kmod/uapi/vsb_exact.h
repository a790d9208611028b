/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * vsb_exact.h - exact mode's contract between three parties: the module
 * (which marks each timed window), the QEMU TCG plugin (which counts the
 * instructions of each window on its own vCPU) and the harness in the
 * guest (which reads the counts back).
 *
 * Under QEMU's TCG, times of the guest's code are the emulator's, but
 * the instructions it executes are exact.  The module brackets every
 * timed batch with two marker instructions; the plugin recognises them
 * by their bytes when it translates them, and counts, per vCPU, what ran
 * between them.  The plugin cannot write guest memory or registers (API
 * version 1, QEMU 7.2), so each window's counts go to a file on the host
 * that the guest sees as a read-only NVMe disk (serial VSB_EXACT_SERIAL):
 * record (vcpu, seq) sits at a fixed offset, and the harness reads it
 * with O_DIRECT after the run's ioctl returned.  seq is the window's
 * number on its CPU since boot, which the module reports in each sample.
 *
 * Markers: an 8-byte NOP, "nopl disp32(%rax,%rax,1)", whose displacement
 * says start or stop.  Any x86-64 CPU executes it as a NOP, so a module
 * asked for exact mode outside the emulator merely wastes two cycles a
 * batch; no compiler emits these displacements.
 */
#ifndef _UAPI_VSB_EXACT_H
#define _UAPI_VSB_EXACT_H

#include <linux/types.h>

#define VSB_EXACT_MARK_START	0x2b425356U	/* "VSB+" little-endian */
#define VSB_EXACT_MARK_STOP	0x2d425356U	/* "VSB-" */
/* the marker's bytes: 0f 1f 84 00 then the displacement, little-endian */
#define VSB_EXACT_MARK_LEN	8
/*
 * The marker as inline assembly, for the module and the user-space batch
 * alike: asm volatile(VSB_EXACT_MARK_ASM :: "i" (VSB_EXACT_MARK_START)).
 * Written as bytes so that no assembler picks another NOP encoding; the
 * displacement is the constant itself (%c0).
 */
#define VSB_EXACT_MARK_ASM	".byte 0x0f,0x1f,0x84,0x00\n\t.long %c0"

/* the disk's NVMe serial number, and the kernel parameter that says so */
#define VSB_EXACT_SERIAL	"vsbexact"
#define VSB_EXACT_CMDLINE	"vsb.exact=1"

/*
 * The window file: VSB_EXACT_RING records per vCPU, vCPU after vCPU, for
 * at most VSB_EXACT_VCPUS vCPUs; window seq of vCPU v is record
 * v * VSB_EXACT_RING + seq % VSB_EXACT_RING.  A run reads its windows
 * right after its ioctl, so the ring need only hold one run's samples
 * of one CPU (VSB_ABI_REPEAT_MAX); the record's own vcpu and seq say
 * whether it is the one asked for.
 */
#define VSB_EXACT_VCPUS		64
/* where window @seq of vCPU @vcpu lies: the writer's and every reader's */
#define VSB_EXACT_OFFSET(vcpu, seq) \
	(((__u64)(vcpu) * VSB_EXACT_RING + (__u64)(seq) % VSB_EXACT_RING) * \
	 VSB_EXACT_REC_SIZE)
#define VSB_EXACT_RING		4096
#define VSB_EXACT_MAGIC		0x58425356U	/* "VSBX" */

/* instruction classes, the order of vsb_exact_window.count[] */
#define VSB_EXACT_INSN		0	/* every instruction */
#define VSB_EXACT_LOCK		1	/* LOCK-prefixed, and xchg with memory */
#define VSB_EXACT_CMPXCHG	2	/* cmpxchg, cmpxchg8b/16b, locked or not */
#define VSB_EXACT_IRQ		3	/* cli, sti, pushf, popf */
#define VSB_EXACT_SERIAL_INSN	4	/* serializing instructions and fences */
#define VSB_EXACT_LOADS		5	/* memory reads */
#define VSB_EXACT_STORES	6	/* memory writes */
#define VSB_EXACT_PUSHF		7	/* pushf alone (irq: all four) */
#define VSB_EXACT_POPF		8	/* popf alone */
/*
 * Appended: the irq class split by instruction, each with a cost of its
 * own (docs/exact.md), the spin-wait hint, and cmpxchg without LOCK,
 * which a count of cmpxchg less one of LOCK cannot give where a window
 * holds a locked add too (a fold beside this_cpu_cmpxchg).
 */
#define VSB_EXACT_CLI		9
#define VSB_EXACT_STI		10
#define VSB_EXACT_PAUSE		11	/* pause (f3 90): what cpu_relax() emits */
#define VSB_EXACT_CMPXCHG_LOCAL	12	/* cmpxchg, cmpxchg8b/16b without LOCK */
/*
 * rep-prefixed string instructions: TCG runs one iteration at a time, so
 * each iteration is an execution, counted in insn as well; REP_BYTES is
 * the bytes their iterations stored (rep stosb of a page: 4096 and 4096;
 * rep stosq: 512 and 4096).  The cost model prices those by bytes at the
 * core's fast-string rate, not as instructions.
 */
#define VSB_EXACT_REP_ITERS	13
#define VSB_EXACT_REP_BYTES	14
#define VSB_EXACT_NCLASS	15

struct vsb_exact_window {
	__u32 magic;		/* VSB_EXACT_MAGIC: the record was written */
	__u32 vcpu;
	__u64 seq;		/* the window's number on its vCPU, from 0 */
	__u64 count[VSB_EXACT_NCLASS];
	__u64 reserved[30 - VSB_EXACT_NCLASS];	/* zero; 256 bytes in all */
};

#define VSB_EXACT_REC_SIZE	256

#endif /* _UAPI_VSB_EXACT_H */
