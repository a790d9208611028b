// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of sweep files as lib/ parses them (lib/model/sweepfile.c),
 * linked against lib/ alone: no bench, no libpfm, no likwid.  The point
 * check is the caller's (here a stand-in), and every message is read
 * back through the error log (errlog.c), not from stderr.
 */
#define _GNU_SOURCE
#include <string.h>

#include "sweepfile.h"
#include "tap.h"

static struct vsb_errlog log_;

static int parse(struct vsb_sweep *sw, const char *text, vsb_point_check_fn check)
{
	int ret;

	vsb_errlog_begin(&log_);
	ret = vsb_sweepfile_parse_buf(sw, "t.sweep", text, strlen(text), check);
	vsb_errlog_end(&log_);
	return ret;
}

/* a stand-in for the benches' check: threshold 99 is refused, 77 skips */
static int check(struct vsb_run_opts *o)
{
	if (o->threshold == 99) {
		vsb_err_opt("threshold", "--threshold: 99 is not allowed here");
		return VSB_EXIT_USAGE;
	}
	return o->threshold == 77 ? VSB_EXIT_SKIP : 0;
}

static void test_product(void)
{
	struct vsb_sweep sw;
	size_t i;
	int n64 = 0;

	TAP_OK(parse(&sw, "threshold 32,64\ndelta 1,-1\nloops 1000\n", NULL) == 0,
	       "a 2 x 2 sweep parses with lib/ alone");
	TAP_OK(sw.npoints == 4, "4 points (got %zu)", sw.npoints);
	for (i = 0; i < sw.npoints; i++)
		n64 += sw.points[i].opts.threshold == 64 && sw.points[i].opts.loops == 1000;
	TAP_OK(n64 == 2, "each value of an axis meets every value of the other");
	vsb_sweep_free(&sw);
	TAP_OK(parse(&sw, "threshold 1-4\n", NULL) == 0 && sw.npoints == 4,
	       "a range is an axis of its values");
	vsb_sweep_free(&sw);
	TAP_OK(parse(&sw, "loops 1000\n[a]\nthreshold 8\n[b]\nthreshold 16,32\n", NULL) == 0 &&
	       sw.nblocks >= 2 && sw.npoints == 3, "blocks are a union of products (3 points)");
	vsb_sweep_free(&sw);
}

static void test_refusals(void)
{
	struct vsb_sweep sw;

	TAP_OK(parse(&sw, "threshold 32\nbogus 1\n", NULL) == VSB_EXIT_USAGE &&
	       strstr(log_.text, "t.sweep:2:"), "an unknown key: exit 2 at its line");
	vsb_sweep_free(&sw);
	TAP_OK(parse(&sw, "threshold 1-1000\nbatch 1-1000\n", NULL) == VSB_EXIT_USAGE &&
	       sw.npoints == 0, "10^6 points refused before any is built");
	vsb_sweep_free(&sw);
	/* line 2, not the block's first line: the check named the option */
	TAP_OK(parse(&sw, "loops 1000\nthreshold 32,99\n", check) == VSB_EXIT_USAGE &&
	       strstr(log_.text, "t.sweep:2: ") && strstr(log_.text, "99 is not allowed"),
	       "a point the check refuses: exit 2 at the line of the option it names");
	vsb_sweep_free(&sw);
	TAP_OK(parse(&sw, "threshold 32,77\n", check) == 0 && sw.npoints == 2 &&
	       (sw.points[0].state == VSB_PT_SKIPPED || sw.points[1].state == VSB_PT_SKIPPED),
	       "a point the check skips is kept, marked skipped");
	vsb_sweep_free(&sw);
}

int main(void)
{
	test_product();
	test_refusals();
	return tap_done();
}
