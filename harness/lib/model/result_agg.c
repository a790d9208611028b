// SPDX-License-Identifier: GPL-2.0
/*
 * A result's aggregates, computed from its raw samples: per worker the
 * statistics of cost, ns/op and ops/s over its repetitions and the PMU
 * medians, and the "all workers" row.  The summary writers and the text
 * table print them (result_write.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "stats.h"

static int cmp_agg_thread(const void *a, const void *b)
{
	const struct vsb_sample *x = a, *y = b;

	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	return (x->rep > y->rep) - (x->rep < y->rep);
}

/*
 * PMU medians over @n samples: each event per op, cycles and instructions
 * per op, and IPC as the median of per-sample ratios (not a ratio of
 * medians, which would pair numbers from different samples).
 */
static void pmu_aggregate(const struct vsb_result *r, const struct vsb_sample *s,
			  size_t n, struct vsb_agg_row *row)
{
	double *v = vsb_zalloc(n * sizeof(double));
	size_t i;
	int k;
	struct vsb_stats st;

	row->cycles_per_op = row->instr_per_op = row->ipc = NAN;
	for (k = 0; k < VSB_PMU_SLOTS; k++)
		row->pmu_per_op[k] = NAN;
	for (i = 0; i < n; i++)
		row->mux_samples += s[i].multiplexed;
	for (k = 0; k < r->npmu; k++) {
		for (i = 0; i < n; i++)
			v[i] = (double)s[i].pmu[k] / (double)s[i].ops;
		vsb_stats_compute(v, n, &st);
		row->pmu_per_op[k] = st.median;
	}
	if (r->pmu_cycles >= 0)
		row->cycles_per_op = row->pmu_per_op[r->pmu_cycles];
	if (r->pmu_instr >= 0)
		row->instr_per_op = row->pmu_per_op[r->pmu_instr];
	if (r->pmu_cycles >= 0 && r->pmu_instr >= 0) {
		for (i = 0; i < n; i++)
			v[i] = s[i].pmu[r->pmu_cycles] ?
			       (double)s[i].pmu[r->pmu_instr] / (double)s[i].pmu[r->pmu_cycles] : NAN;
		vsb_stats_compute(v, n, &st);
		row->ipc = st.median;
	}
	free(v);
}

/*
 * Per worker: cost, ns and ops/s over its repetitions.  For "all": per
 * repetition the mean cost over workers and the summed throughput, then
 * statistics over repetitions.  Rows are returned in a fresh array.
 */
size_t vsb_result_aggregate(const struct vsb_result *r, struct vsb_agg_row **rowsp)
{
	size_t n = r->nsamples, i, j, nrows = 0, reps = 0;
	struct vsb_sample *s;
	struct vsb_agg_row *rows;
	double *cost, *nsop, *ops, *acost, *ansop, *aops;
	unsigned int maxrep = 0;
	unsigned long long tops = 0, tfolds = 0;

	*rowsp = NULL;
	if (!n)
		return 0;
	s = vsb_zalloc(n * sizeof(*s));
	memcpy(s, r->samples, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_agg_thread);
	for (i = 0; i < n; i++)
		if (s[i].rep + 1 > maxrep)
			maxrep = s[i].rep + 1;
	rows = vsb_zalloc(((size_t)r->nthreads + 1) * sizeof(*rows));
	cost = vsb_zalloc(n * sizeof(double));
	nsop = vsb_zalloc(n * sizeof(double));
	ops = vsb_zalloc(n * sizeof(double));
	acost = vsb_zalloc(maxrep * sizeof(double));
	ansop = vsb_zalloc(maxrep * sizeof(double));
	aops = vsb_zalloc(maxrep * sizeof(double));

	for (i = 0; i < n; i = j) {
		struct vsb_agg_row *row = &rows[nrows++];
		unsigned long long o = 0, f = 0;
		size_t k = 0;

		for (j = i; j < n && s[j].thread == s[i].thread; j++, k++) {
			cost[k] = (double)s[j].elapsed / (double)s[j].ops;
			nsop[k] = s[j].ns / (double)s[j].ops;
			ops[k] = (double)s[j].ops * 1e9 / s[j].ns;
			acost[s[j].rep] += cost[k] / r->nthreads;
			ansop[s[j].rep] += nsop[k] / r->nthreads;
			aops[s[j].rep] += ops[k];
			o += s[j].ops;
			f += s[j].folds;
		}
		row->thread = (int)s[i].thread;
		row->cpu = s[i].cpu;
		vsb_stats_compute(cost, k, &row->cost);
		vsb_stats_compute(nsop, k, &row->ns_per_op);
		vsb_stats_compute(ops, k, &row->ops_per_sec);
		row->folds_per_op = o ? (double)f / (double)o : NAN;
		pmu_aggregate(r, &s[i], j - i, row);
		tops += o;
		tfolds += f;
		reps = k > reps ? k : reps;
	}
	if (nrows > 1) {
		struct vsb_agg_row *row = &rows[nrows++];

		row->thread = -1;
		row->cpu = -1;
		vsb_stats_compute(acost, maxrep, &row->cost);
		vsb_stats_compute(ansop, maxrep, &row->ns_per_op);
		vsb_stats_compute(aops, maxrep, &row->ops_per_sec);
		row->folds_per_op = tops ? (double)tfolds / (double)tops : NAN;
		pmu_aggregate(r, s, n, row);	/* pooled over workers */
	}
	free(s);
	free(cost);
	free(nsop);
	free(ops);
	free(acost);
	free(ansop);
	free(aops);
	*rowsp = rows;
	return nrows;
}
