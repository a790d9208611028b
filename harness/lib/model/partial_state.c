// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep_partial_* lines a sweep writes into an unfinished point's
 * partial file (DIR/<id>.csv.partial) and `sweep --resume` reads back:
 * the rounds done, the sanity and PMU state, the drift figures and the
 * --disturbed accounting, which the raw CSV holds only rounded or per
 * sample.  A format of the suite's files, so its writer and its reader
 * live here together; harness/sweep/partial.c decides what to trust.
 */
#include <stdio.h>
#include <string.h>

#include "csvread.h"
#include "partial_state.h"
#include "vsb.h"

/* the --disturbed accounting, which the CSV holds only per sample */
#define DIST_FMT_(g) "on=%d policy=%d attempts=%lu kept=%lu kept_disturbed=%lu " \
	"dropped=%lu retried=%lu disturbed=%lu reasons=%lu,%lu,%lu,%lu,%lu " \
	"valid=%u timed_ns=" g " lost_delay_ns=" g " lost_steal_ns=" g " " \
	"retries=%lu retries_cap=%lu"
#define DIST_FMT	DIST_FMT_("%.17g")	/* exact doubles, for the byte check */
#define DIST_SCAN	DIST_FMT_("%lg")
#define DIST_ARGS(c, a) a(c).on, a(c).policy, a(c).attempts, a(c).kept, \
	a(c).kept_disturbed, a(c).dropped, a(c).retried, a(c).disturbed, \
	a(c).reason[0], a(c).reason[1], a(c).reason[2], a(c).reason[3], \
	a(c).reason[4], a(c).valid, a(c).timed_ns, a(c).lost_delay_ns, \
	a(c).lost_steal_ns, a(c).retries, a(c).retries_cap
#define VAL(c) (c)
#define PTR(c) &(c)
_Static_assert(VSB_DIST_NREASONS == 5, "sweep_partial_dist lists 5 reasons");

static void dist_line(struct vsb_result *r)
{
	vsb_result_meta(r, "sweep_partial_dist", DIST_FMT, DIST_ARGS(r->dist, VAL));
	vsb_result_meta(r, "sweep_partial_dist_sources", "%s", r->dist.sources);
}

static int dist_read(const struct vsb_csv *c, struct vsb_result *r)
{
	const char *v = vsb_csv_meta(c, "sweep_partial_dist");
	const char *src = vsb_csv_meta(c, "sweep_partial_dist_sources");

	if (!v || !src || sscanf(v, DIST_SCAN, DIST_ARGS(r->dist, PTR)) != 19)
		return -1;
	snprintf(r->dist.sources, sizeof(r->dist.sources), "%s", src);
	return 0;
}

void vsb_partial_state_write(struct vsb_result *r, long done, long reps)
{
	vsb_result_meta(r, "sweep_partial_rounds", "%ld of %ld", done, reps);
	vsb_result_meta(r, "sweep_partial_state",
			"sanity_ok=%d migrated=%d applied=%lld counted=%lld nthreads=%d "
			"npmu=%d pmu_cycles=%d pmu_instr=%d mux_samples=%d multiplexed=%d",
			r->sanity_ok, r->migrated, r->applied, r->counted, r->nthreads,
			r->npmu, r->pmu_cycles, r->pmu_instr, r->mux_samples, r->multiplexed);
	vsb_result_meta(r, "sweep_partial_drift",
			"have=%d samples=%zu max=%.17g p99=%.17g mean=%.17g "
			"stale_max=%.17g stale_p99=%.17g stale_mean=%.17g",
			r->have_drift, r->drift_samples, r->drift_max, r->drift_p99,
			r->drift_mean, r->stale_max_us, r->stale_p99_us, r->stale_mean_us);
	dist_line(r);
}

const char *vsb_partial_rounds_read(const struct vsb_csv *c, long *k, long *reps)
{
	const char *v = vsb_csv_meta(c, "sweep_partial_rounds");

	if (!v || sscanf(v, "%ld of %ld", k, reps) != 2 || *k < 1)
		return "no valid sweep_partial_rounds line";
	return NULL;
}

const char *vsb_partial_state_read(const struct vsb_csv *c, struct vsb_result *r)
{
	const char *v;

	v = vsb_csv_meta(c, "sweep_partial_state");
	if (!v || sscanf(v, "sanity_ok=%d migrated=%d applied=%lld counted=%lld "
			 "nthreads=%d npmu=%d pmu_cycles=%d pmu_instr=%d "
			 "mux_samples=%d multiplexed=%d",
			 &r->sanity_ok, &r->migrated, &r->applied, &r->counted,
			 &r->nthreads, &r->npmu, &r->pmu_cycles, &r->pmu_instr,
			 &r->mux_samples, &r->multiplexed) != 10 ||
	    r->npmu < 0 || r->npmu > VSB_PMU_MAX ||
	    r->pmu_cycles < -1 || r->pmu_cycles >= r->npmu ||
	    r->pmu_instr < -1 || r->pmu_instr >= r->npmu)
		return "no valid sweep_partial_state line";
	v = vsb_csv_meta(c, "sweep_partial_drift");
	if (!v || sscanf(v, "have=%d samples=%zu max=%lg p99=%lg mean=%lg "
			 "stale_max=%lg stale_p99=%lg stale_mean=%lg",
			 &r->have_drift, &r->drift_samples, &r->drift_max,
			 &r->drift_p99, &r->drift_mean, &r->stale_max_us,
			 &r->stale_p99_us, &r->stale_mean_us) != 8)
		return "no valid sweep_partial_drift line";
	if (dist_read(c, r))
		return "no valid sweep_partial_dist line";
	return NULL;
}
