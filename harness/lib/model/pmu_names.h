/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The syntax of an --events list and the sizes a result keeps of it
 * (pmu_names.c): what options and results need of the PMU without
 * linking libpfm (pmu.h counts).
 */
#ifndef VSB_PMU_NAMES_H
#define VSB_PMU_NAMES_H

#define VSB_PMU_MAX		8	/* events per group; more would multiplex anyway */
/*
 * The counts a result row keeps: a PMU group's events, or exact mode's
 * instruction classes, which are not a group and need more
 * (VSB_EXACT_RESULT_CLASSES).
 */
#define VSB_PMU_SLOTS		16
#define VSB_PMU_NAME_LEN	128
#define VSB_PMU_FSTR_LEN	192
#define VSB_PMU_DEFAULT_EVENTS	"cycles,instructions"

/* Split "a,b,c" into names; "" and "none" mean no event.  VSB_EXIT_USAGE
 * with one vsb_err line naming @where on an empty name or too many. */
int vsb_pmu_parse_list(const char *list, char names[][VSB_PMU_NAME_LEN],
		       int max, int *n, const char *where);

#endif /* VSB_PMU_NAMES_H */
