// SPDX-License-Identifier: GPL-2.0
/*
 * kmod_exact.c - module runs in exact mode (kmod_exact.h).
 *
 * The module marks each timed batch, the TCG plugin counts what its vCPU
 * executed between the marks, and here each sample's figure becomes that
 * count: unit insn, the instructions of --loops operations and of the
 * loop around them, and of any interrupt the CPU took meanwhile, never
 * another CPU's.  The result's columns are exact_result.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vsb.h"
#include "exact_disk.h"
#include "exact_record.h"
#include "exact_user.h"
#include "kmod_exact.h"

int vsb_kmod_exact_check(const struct vsb_run_opts *o)
{
	if (!o->exact)
		return 0;
	if (strcmp(o->backend, "kmod")) {
		/* the counter marks its batches itself, for qemu-x86_64's plugin */
		unsigned int vcpu;

		if (!strcmp(o->bench, "counter") && vsb_exact_user_file())
			return vsb_exact_user_probe(&vcpu);
		vsb_err_opt("exact", "--exact counts the module's windows; --bench %s runs "
			    "in user space here (backend %s); the counter bench counts "
			    "in user space only under qemu-x86_64 with the plugin and "
			    "%s set (ci/model-check)", o->bench, o->backend,
			    VSB_EXACT_USER_ENV);
		return VSB_EXIT_USAGE;
	}
	if (!vsb_exact_guest()) {
		vsb_err_opt("exact", "--exact: not a guest booted for exact mode (no %s on "
			    "the kernel command line), so no emulator counts instructions "
			    "here: use ci/kmod-run.sh --exact or `ab`; on real hardware time "
			    "it (ab's timed mode) or count with a PMU (--events)",
			    VSB_EXACT_CMDLINE);
		return VSB_EXIT_USAGE;
	}
	return 0;
}

int vsb_kmod_exact_begin(const struct vsb_run_opts *o, unsigned int caps,
			 struct vsb_ioc_run *req, struct vsb_kmod_exact *x)
{
	int ret;

	x->fd = -1;
	x->win = NULL;
	if (!o->exact)
		return 0;
	if (!(caps & VSB_CAP_EXACT)) {
		vsb_err_opt("exact", "--exact: this vmstat_bench.ko does not mark its "
			    "windows (no VSB_CAP_EXACT): rebuild it from this tree");
		return VSB_EXIT_USAGE;
	}
	ret = vsb_exact_open(&x->fd);
	if (ret)
		return ret;
	x->win = vsb_zalloc((size_t)req->ncpus * req->repeat * sizeof(*x->win));
	req->flags |= VSB_RUN_EXACT;
	return 0;
}

int vsb_kmod_exact_fetch(struct vsb_kmod_exact *x,
			 const struct vsb_ioc_sample *ks, size_t n)
{
	size_t i;
	int ret;

	if (x->fd < 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (!(ks[i].flags & VSB_SAMPLE_EXACT)) {
			memset(&x->win[i], 0, sizeof(x->win[i]));
			continue;
		}
		ret = vsb_exact_read(x->fd, ks[i].cpu, ks[i].exact_window, &x->win[i]);
		if (ret)
			return ret;
	}
	return 0;
}

void vsb_kmod_exact_end(struct vsb_kmod_exact *x)
{
	if (x->fd >= 0)
		close(x->fd);
	free(x->win);
	x->fd = -1;
	x->win = NULL;
}
