// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep_match line, "options=HASH repeat=R": what a sweep point's
 * files were made with, written into each finished point's files and
 * partials and read back by `sweep --resume` before it reuses them.
 * A format of the suite's files, so it lives in the model, its writer
 * and its reader together.
 */
#include <stdio.h>
#include <string.h>

#include "hash.h"
#include "point_match.h"
#include "vsb.h"

/*
 * What a point's files must have been made with to be reused by
 * --resume: the point's whole option set (every row of the option table,
 * as checked) and the repetitions it wants (the file's repeat or
 * --repeat: the row is left out of the hash so that either way of asking
 * for R says the same, and a mismatch of R alone can be said as such).
 * A point id hashes only the sweepable options less repeat, so without
 * this a result or a partial of another --repeat would be adopted.
 * Partials add the sweep file's hash (partial.c); a finished point does
 * not need it: its result stands whatever else the file now holds (an
 * axis grown).
 */
void vsb_sweep_point_match(const struct vsb_sweep_point *p, char *buf, size_t len)
{
	uint64_t h = VSB_FNV_INIT;
	char v[512], kv[600];
	size_t i;

	for (i = 0; i < vsb_run_opt_count; i++) {
		const struct vsb_opt *opt = &vsb_run_opt_table[i];

		if (!strcmp(opt->name, "repeat"))
			continue;
		vsb_sweep_opt_value(&p->opts, opt, v, sizeof(v));
		if (!vsb_opt_hashed(opt, v))
			continue;
		snprintf(kv, sizeof(kv), "%s=%s;", opt->name, v);
		h = vsb_fnv1a64(kv, strlen(kv), h);
	}
	snprintf(buf, len, "options=%016llx repeat=%ld", (unsigned long long)h,
		 p->reps);
}

int vsb_sweep_point_match_read(const char *line, const struct vsb_sweep_point *p,
			       long *reps)
{
	const char *r = strstr(line, " repeat=");
	char want[96];
	size_t ol;

	vsb_sweep_point_match(p, want, sizeof(want));
	if (!strcmp(line, want))
		return 0;
	if (strncmp(line, "options=", 8) || !r || vsb_parse_long(r + 8, reps) ||
	    *reps < 1)
		return VSB_MATCH_MALFORMED;
	/* any other hash is other options, however it came to differ */
	ol = (size_t)(strstr(want, " repeat=") - want);
	return (size_t)(r - line) == ol && !strncmp(line, want, ol) ?
		VSB_MATCH_REPEAT : VSB_MATCH_OPTIONS;
}
