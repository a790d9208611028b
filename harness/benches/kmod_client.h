/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The harness side of the module ABI (kmod/uapi/vmstat_bench.h): the
 * version handshake and runs through /dev/vmstat_bench, turned into the
 * same struct vsb_result the user-space backend produces.
 */
#ifndef VSB_KMOD_CLIENT_H
#define VSB_KMOD_CLIENT_H

#include "result.h"

/*
 * Open the device and check the version; prints one vsb_err line and
 * returns a VSB_EXIT_* code (SKIP when the module is absent or the
 * caller is not root) on failure, 0 with *fd open and *caps the
 * module's VSB_CAP_* bits on success.
 */
int vsb_kmod_open(int *fd, unsigned int *caps);

/* The backends (benches.c's table points here). */
int vsb_counter_run_kmod(const struct vsb_run_opts *o, struct vsb_result *r);
int vsb_page_alloc_run_kmod(const struct vsb_run_opts *o, struct vsb_result *r);

#endif /* VSB_KMOD_CLIENT_H */
