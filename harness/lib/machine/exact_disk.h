/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exact_disk.h - exact mode's side of the guest: is this a guest booted
 * for it, and the window counts the TCG plugin left on its disk
 * (kmod/uapi/vsb_exact.h).
 */
#ifndef VSB_EXACT_DISK_H
#define VSB_EXACT_DISK_H

#include <stdint.h>

#include "kmod/uapi/vsb_exact.h"

/* 1 when the kernel command line says exact mode (VSB_EXACT_CMDLINE) */
int vsb_exact_guest(void);
/* Open the window disk (by its NVMe serial) into @fd; a VSB_EXIT_* code. */
int vsb_exact_open(int *fd);
/* Window @seq of @cpu from the disk into @w; a VSB_EXIT_* code. */
int vsb_exact_read(int fd, unsigned int cpu, uint64_t seq,
		   struct vsb_exact_window *w);

#endif /* VSB_EXACT_DISK_H */
