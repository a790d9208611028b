/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Between sysctl.c (check, apply, restore) and sysctl_state.c (the lock,
 * the state file, recovery); nothing else includes this.
 */
#ifndef VSB_SYSCTL_INT_H
#define VSB_SYSCTL_INT_H

#include <stddef.h>

#include "sysctl.h"
#include "sysctl_state_file.h"

struct vsb_sysctl_saved {
	char name[VSB_SYSCTL_NAME_MAX];
	char *orig;		/* the whole value as read before the first change */
	int changed;		/* the live value may differ from orig */
};

/* sysctl.c */
/* sysctl_io.c */
#define WRITE_DIFFERS	(-1)	/* written, but reads back otherwise */
int vsb_sysctl_is_int(const char *s, long *v);
/* the whole value, the trailing newline dropped: 0 or an errno */
int vsb_sysctl_read_value(const char *path, char **out);
/* same number of fields as @cur, integers where it has them */
int vsb_sysctl_value_fits(const char *cur, const char *val);
/* one write(), read back (exact: byte-identical); 0, errno or WRITE_DIFFERS */
int vsb_sysctl_write(const char *name, const char *val, int exact, char **back);
/* put @val back byte for byte; one error line naming @where if not; 0/1 */
int vsb_sysctl_restore_one(const char *name, const char *val, const char *where);

/* sysctl_state.c */
long vsb_sysctl_lock_take(void);	/* 0 held, >0 holder's pid, -1 errno */
void vsb_sysctl_lock_release(void);
int vsb_sysctl_state_write(const struct vsb_sysctl_saved *ents, int nents);
void vsb_sysctl_state_remove(void);
int vsb_sysctl_recover_locked(long holder, int report_only);

#endif /* VSB_SYSCTL_INT_H */
