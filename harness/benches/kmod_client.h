/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The harness side of the module ABI (kmod/uapi/vmstat_bench.h): the
 * version handshake and runs through /dev/vmstat_bench, turned into the
 * same struct vsb_result the user-space backend produces.
 */
#ifndef VSB_KMOD_CLIENT_H
#define VSB_KMOD_CLIENT_H

#include "kmod/uapi/vmstat_bench.h"
#include "result.h"

/*
 * Open the device and check the version; prints one vsb_err line and
 * returns a VSB_EXIT_* code (SKIP when the module is absent or the
 * caller is not root) on failure, 0 with *fd open and *v the module's
 * answer (its VSB_CAP_* bits, its kstat ops) on success.
 */
int vsb_kmod_open(int *fd, struct vsb_ioc_version *v);
/*
 * What a bench of its own adds to a module run (kstat.c): its words of
 * the request, a check of the module's answer to VERSION (a VSB_EXIT_*
 * code), and the sanity line and metadata from the request's out
 * fields.  Called once a run, never per operation.
 */
struct vsb_kmod_hooks {
	void (*fill)(const struct vsb_run_opts *o, struct vsb_ioc_run *req);
	int (*have)(const struct vsb_run_opts *o, const struct vsb_ioc_version *v);
	void (*result)(struct vsb_result *r, const struct vsb_ioc_run *q);
};

struct vsb_bench;
/* A page bench's check: --gfp refused or made atomic/kernel (not auto) */
int vsb_kmod_page_opts(const struct vsb_bench *b, struct vsb_run_opts *o);

/* One point through the module: VSB_BENCH_*, the request from @o. */
int vsb_kmod_run(const struct vsb_run_opts *o, struct vsb_result *r,
		 unsigned int bench, const struct vsb_kmod_hooks *h);

/* The counter bench's module side (its descriptor, counter_user.c) */
int vsb_counter_run_kmod(const struct vsb_run_opts *o, struct vsb_result *r);

#endif /* VSB_KMOD_CLIENT_H */
