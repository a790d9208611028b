// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep's one progress line on stderr, which every message of the
 * runner's files first clears.
 */
#include <stdio.h>

#include "clock.h"
#include "sweep_int.h"

static int progress_shown;

/*
 * A progress line on a terminal ends without a newline and is redrawn
 * with "\r"; a message printed under it would continue its line ("ETA
 * 0m00svmstat-bench: warning: ...").  Every message of the runner
 * clears it first; the next point draws it again.
 */
void vsb_sweep_progress_clear(void)
{
	if (!progress_shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	progress_shown = 0;
}

void vsb_sweep_progress(size_t done, size_t total, long round, long rounds,
		     const char *id, uint64_t start)
{
	double el = (double)(vsb_now_ns() - start) / 1e9;
	double eta = done ? el / (double)done * (double)(total - done) : 0;

	fprintf(stderr, "\r\033[K[%zu/%zu] round %ld/%ld %.40s  elapsed %.0fs  ETA %dm%02ds",
		done, total, round + 1, rounds, id, el, (int)eta / 60, (int)eta % 60);
	fflush(stderr);
	progress_shown = 1;
}
