/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profile_dir.h - the profiles of a folder of exact-mode results (a
 * boot's /out): every result's point, its windows found in the boot's
 * exact-profile/BOOT_ID/ folder (blocks, kallsyms), as profile.csv rows.
 */
#ifndef VSB_PROFILE_DIR_H
#define VSB_PROFILE_DIR_H

#include <stdio.h>

#include "exact_profile.h"

struct vsb_prof_dir {
	const char *syms_file;	/* instead of each boot's kallsyms; NULL */
	size_t nprof;		/* points profiled */
	size_t nskip;		/* points without one */
	char skip_why[512];	/* the first reason */
};

/*
 * Rows of @side for every exact point of the results in @dir into @out
 * (each point's label as mix.csv's); a point whose profile cannot be had
 * is counted in nskip with the first reason.  0; VSB_EXIT_USAGE after
 * one line when @d->syms_file does not match a boot's kernel.
 */
int vsb_prof_dir_rows(const char *dir, const char *side, FILE *out,
		      struct vsb_prof_dir *d);
/*
 * 0 when @file names @kallsyms' kernel: every symbol of the kernel
 * proper in both at the same address; -1 with the first that is not.
 */
int vsb_syms_match(const struct vsb_syms *file, const struct vsb_syms *kallsyms,
		   char *why, size_t len);

#endif /* VSB_PROFILE_DIR_H */
