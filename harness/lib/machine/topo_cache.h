/* SPDX-License-Identifier: GPL-2.0 */
/*
 * likwid's cross-check of the sysfs topology, kept for the rest of the
 * boot (topo_cache.c).
 *
 * Loading liblikwid and its topology_init() took 90 ms of every process
 * that reads the topology here (49 ms dlopen with lua, hwloc and udev
 * behind it, 40 ms discovery): every `run`, every sweep worker.  What it
 * answers cannot change while the sysfs topology it is checked against
 * stays the same, so the answer is kept in VSB_SCRATCH_DIR under a name
 * made from that sysfs topology, the boot's id and the likwid library:
 * a CPU taken offline, or a reboot, is another name, checked again.
 */
#ifndef VSB_TOPO_CACHE_H
#define VSB_TOPO_CACHE_H

#include "topo.h"

/*
 * 0 and @t filled with the cross-checked topology when this boot has the
 * answer for @sys (as read from sysfs) and library @lib; -1 otherwise.
 * A file there that this user did not write, or that others may write,
 * is not read.
 */
int vsb_topo_cache_load(const struct vsb_topo *sys, const char *lib, struct vsb_topo *t);
/* Keep @t, the cross-check's result for @sys and @lib; quietly not when it cannot. */
void vsb_topo_cache_store(const struct vsb_topo *sys, const char *lib, const struct vsb_topo *t);

#endif
