/* SPDX-License-Identifier: GPL-2.0 */
/* meminfo.h - one field of /proc/meminfo (meminfo.c). */
#ifndef VSB_MEMINFO_H
#define VSB_MEMINFO_H

/* @field's value in kB ("MemAvailable", "MemTotal"), -1 when unknown */
long vsb_meminfo_kb(const char *field);

#endif /* VSB_MEMINFO_H */
