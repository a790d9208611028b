/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exact_user.h - exact mode in user space: the window file that the TCG
 * plugin writes when the harness itself runs under qemu-x86_64
 * (docs/model-check.md).  The environment variable names the file the
 * plugin was given as out=; there is no disk, and no module.
 */
#ifndef VSB_EXACT_USER_H
#define VSB_EXACT_USER_H

#include <stdint.h>

#include "kmod/uapi/vsb_exact.h"

#define VSB_EXACT_USER_ENV	"VSB_EXACT_USER_FILE"

/*
 * The window's markers, as the module emits them (VSB_EXACT_MARK_ASM):
 * a NOP on any x86-64 CPU; only the plugin gives it a meaning.
 */
static inline void vsb_exact_mark_start(void)
{
	asm volatile(VSB_EXACT_MARK_ASM :: "i" (VSB_EXACT_MARK_START) : "memory");
}

static inline void vsb_exact_mark_stop(void)
{
	asm volatile(VSB_EXACT_MARK_ASM :: "i" (VSB_EXACT_MARK_STOP) : "memory");
}

/* the file VSB_EXACT_USER_ENV names, or NULL when unset or empty */
const char *vsb_exact_user_file(void);
/* Open that file for reading into @fd; a VSB_EXIT_* code. */
int vsb_exact_user_open(int *fd);
/*
 * Is the plugin counting this process?  The calling thread (the main
 * one) closes an empty window and finds its vCPU, into @vcpu: 0.  Else
 * VSB_EXIT_USAGE after one line: VSB_EXACT_USER_ENV is unset, or names
 * a file no plugin writes.  Done once; later calls give the same answer.
 */
int vsb_exact_user_probe(unsigned int *vcpu);
/*
 * After the calling thread's first window, closed by it alone: its vCPU
 * into @vcpu, the only one with a window 0 that is not in @taken (a bit
 * per vCPU: those of threads that found theirs before).  A VSB_EXIT_*
 * code, with one line, when there is none or more than one.
 */
int vsb_exact_user_find(int fd, uint64_t taken, unsigned int *vcpu);
/* Window @seq of @vcpu into @w; a VSB_EXIT_* code. */
int vsb_exact_user_read(int fd, unsigned int vcpu, uint64_t seq,
			struct vsb_exact_window *w);

#endif /* VSB_EXACT_USER_H */
