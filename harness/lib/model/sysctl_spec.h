/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The syntax of a sysctl spec and of a sysctl sweep axis (sysctl_spec.c):
 * what options and sweep files are checked with, before and without
 * touching the machine (sysctl.h applies and restores).
 */
#ifndef VSB_SYSCTL_SPEC_H
#define VSB_SYSCTL_SPEC_H

#include <stddef.h>

#define VSB_SYSCTL_NAME_MAX	128
#define VSB_SYSCTL_VAL_MAX	256	/* a new value (--sysctl); originals have no limit */

/* "vm.numa_stat" -> "/proc/sys/vm/numa_stat"; -1 on a malformed name. */
int vsb_sysctl_path(const char *name, char *buf, size_t len);
/* 1 when @name is a sysctl vmstat-bench sets (vm.*): --sysctl and restore */
int vsb_sysctl_settable(const char *name);
/* Split "NAME=VALUE" into @name and @val; -1 if it is not that shape. */
int vsb_sysctl_split(const char *spec, char *name, char *val);
/*
 * Syntax of one NAME=VALUE (the option table's value check): a dotted
 * name vmstat-bench sets (vm.*), one value, no list.  VSB_EXIT_USAGE
 * after one line naming @where.
 */
int vsb_sysctl_check_syntax(const char *spec, const char *where);

/*
 * Sweep files list values of one sysctl: `sysctl vm.numa_stat=0,1`.
 * Called by the sweep parser for each token of the sysctl key: a bare
 * value takes the name of the first token of @line.  Returns @tok or
 * @buf holding "NAME=tok".
 */
char *vsb_sysctl_axis_token(const char *first, char *tok, char *buf,
			    size_t len);

#endif /* VSB_SYSCTL_SPEC_H */
