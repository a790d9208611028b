// SPDX-License-Identifier: GPL-2.0
/*
 * The module handshake: open /dev/vmstat_bench and ask its VERSION.
 * Quiet: every caller words its own message from the -errno.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kmod/uapi/vmstat_bench.h"
#include "kmod_abi.h"

int vsb_kmod_handshake(int *fd, struct vsb_ioc_version *v)
{
	int err;

	*fd = open(VSB_KMOD_DEVICE, O_RDWR | O_CLOEXEC);
	if (*fd < 0)
		return -errno;
	memset(v, 0, sizeof(*v));
	v->size = sizeof(*v);
	if (!ioctl(*fd, VSB_IOC_VERSION, v))
		return 0;
	err = -errno;
	close(*fd);
	*fd = -1;
	return err;
}
