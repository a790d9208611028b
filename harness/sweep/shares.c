// SPDX-License-Identifier: GPL-2.0
/*
 * The count a point's worker-process shares are cut from: the
 * repetitions it runs in all, each wanted one run_reps times
 * (sweep_opts.h's VSB_SWEEP_RUN_MIN_MS says why), the end of each
 * worker's share, and the shares as a finished point's worker-list line
 * says them.
 */
#include "worker_list.h"
#include "sweep_int.h"

long vsb_sweep_reps_total(const struct vsb_sweep_point *p)
{
	return p->run_reps > 1 ? p->reps * p->run_reps : p->reps;
}

long vsb_sweep_chunk_end(const struct vsb_sweep_point *p, long procs, long k)
{
	if (procs <= 1 || k >= procs || p->opts.trace)
		return vsb_sweep_reps_total(p);
	return k * vsb_sweep_reps_total(p) / procs;
}

void vsb_sweep_worker_line(const struct vsb_sweep_point *p, long procs, char *line,
			   size_t len)
{
	long end[VSB_SWEEP_PROCS_MAX], k;

	line[0] = '\0';
	for (k = 1; k <= procs && procs > 1; k++)
		end[k - 1] = vsb_sweep_chunk_end(p, procs, k);
	if (procs > 1 && vsb_worker_list_write(line, len, end, (size_t)procs) <= 1)
		line[0] = '\0';
}
