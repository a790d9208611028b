/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether the running machine has the shape a point asks for
 * (guest_shape.h): its present and possible CPUs and NUMA nodes from
 * sysfs, its memory from the vsb.shape= parameter ci/vm-run.sh puts on
 * a guest's command line (else MemTotal), and its kernel parameters
 * from /proc/cmdline.
 */
#ifndef VSB_GUEST_H
#define VSB_GUEST_H

#include "guest_shape.h"

/* ci/vm-run.sh's record of the guest it booted: vsb.shape=smp:2,maxcpus:8,... */
#define VSB_GUEST_SHAPE_PARAM	"vsb.shape="

/* This machine as a shape (its whole /proc/cmdline into @cmdline) */
void vsb_guest_this(struct vsb_guest_shape *s, char *cmdline, size_t len);
/* vsb.shape='s value, or "" when the kernel was not booted by vm-run.sh */
void vsb_guest_booted_as(char *buf, size_t len);
/* 1 when this machine has every field @want asks for; else 0 and why */
int vsb_guest_matches(const struct vsb_guest_shape *want, char *why, size_t len);

#endif /* VSB_GUEST_H */
