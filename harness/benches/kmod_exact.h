/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmod_exact.h - exact mode for module runs: the request's flag, the
 * window counts the TCG plugin left for each sample, and the result's
 * unit (insn) and mix columns.  Only kmod_client.c calls these.
 */
#ifndef VSB_KMOD_EXACT_H
#define VSB_KMOD_EXACT_H

#include "kmod/uapi/vmstat_bench.h"
#include "kmod/uapi/vsb_exact.h"
#include "result.h"

/* a run's window disk: fd -1 when the run is timed */
struct vsb_kmod_exact {
	int fd;
	struct vsb_exact_window *win;	/* one per module sample */
};

/*
 * --exact where it can count: a point that runs in the module, in a guest
 * booted for exact mode, or the user-space counter under qemu-x86_64 with
 * the plugin (VSB_EXACT_USER_FILE set); else one line and
 * VSB_EXIT_USAGE.  Checked with every other option, before anything runs.
 */
int vsb_kmod_exact_check(const struct vsb_run_opts *o);
/* With --exact: the module can, the disk is there, the flag is set. */
int vsb_kmod_exact_begin(const struct vsb_run_opts *o, unsigned int caps,
			 struct vsb_ioc_run *req, struct vsb_kmod_exact *x);
/* After a request: each of its @n samples' window, read into x->win. */
int vsb_kmod_exact_fetch(struct vsb_kmod_exact *x,
			 const struct vsb_ioc_sample *ks, size_t n);
void vsb_kmod_exact_end(struct vsb_kmod_exact *x);

#endif /* VSB_KMOD_EXACT_H */
