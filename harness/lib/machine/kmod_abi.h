/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's device and its VERSION handshake (kmod_abi.c), which the
 * module backend, `list`, `info` and the metadata all start with.
 */
#ifndef VSB_KMOD_ABI_H
#define VSB_KMOD_ABI_H

/* VSB_DEVICE_NAME's node (kmod/uapi/vmstat_bench.h) */
#define VSB_KMOD_DEVICE "/dev/vmstat_bench"

struct vsb_ioc_version;
/*
 * Open the module's device and ask its VERSION: 0 with *fd open and *v
 * its answer, or -errno with nothing open (-ENOENT: not loaded,
 * -EACCES/-EPERM: not root, -ENOTTY: not our device).  Prints nothing;
 * the module backend, `list`, `info` and the metadata all start here.
 */
int vsb_kmod_handshake(int *fd, struct vsb_ioc_version *v);

#endif /* VSB_KMOD_ABI_H */
