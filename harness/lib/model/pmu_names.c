// SPDX-License-Identifier: GPL-2.0
/*
 * The syntax of an --events list: comma-separated names, each shorter
 * than VSB_PMU_NAME_LEN, at most VSB_PMU_MAX in one group.  Apart from
 * pmu.c so that checking an option does not link libpfm; whether a name
 * encodes is pmu.c's question (vsb_pmu_check_names).
 */
#include <string.h>

#include "pmu_names.h"
#include "vsb.h"

int vsb_pmu_parse_list(const char *list, char names[][VSB_PMU_NAME_LEN],
		       int max, int *n, const char *where)
{
	const char *p = list;

	*n = 0;
	if (!list || !*list || !strcmp(list, "none"))
		return 0;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (len == 0) {
			vsb_err("%s: empty event name in '%s'", where, list);
			return VSB_EXIT_USAGE;
		}
		if (len >= VSB_PMU_NAME_LEN) {
			vsb_err("%s: event name '%.*s...' too long (at most %d characters)",
				where, 20, p, VSB_PMU_NAME_LEN - 1);
			return VSB_EXIT_USAGE;
		}
		if (*n == max) {
			vsb_err("%s: at most %d events in one group", where, max);
			return VSB_EXIT_USAGE;
		}
		memcpy(names[*n], p, len);
		names[*n][len] = '\0';
		(*n)++;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}
