// SPDX-License-Identifier: GPL-2.0
/*
 * A finished point's DIR/<id>.summary.csv, read back before it is used:
 * by --resume, which keeps the point instead of running it, and by
 * sweep.csv, which copies its row.  Only a summary this tool wrote, for
 * this point, with the options and repetitions this run asks for, is
 * used; anything else makes the point run again (--resume) or fails the
 * sweep.csv it would have gone into.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "csvread.h"
#include "summary_csv.h"
#include "sweep_int.h"

int vsb_sweep_summary_read(const struct vsb_sweep_point *p, struct vsb_csv *c,
			   char *why, size_t wlen)
{
	char path[4096], msg[160];
	struct vsb_errlog log;
	const char *bad;
	int ret;

	snprintf(path, sizeof(path), "%s.summary.csv", p->stem);
	if (!vsb_sweep_exists(path))
		return 1;
	vsb_errlog_begin(&log);
	ret = vsb_csv_read(path, c);
	vsb_errlog_end(&log);
	if (ret) {
		snprintf(why, wlen, "%s", log.text[0] ? log.text : "not a CSV file");
		return -1;
	}
	bad = vsb_summary_csv_check(c, p, msg, sizeof(msg));
	snprintf(path, sizeof(path), "%s.csv", p->stem);
	if (!bad && !vsb_sweep_exists(path))
		bad = "its raw samples (<id>.csv) are missing";
	if (!bad)
		return 0;
	snprintf(why, wlen, "%s", bad);
	vsb_csv_free(c);
	return -1;
}
