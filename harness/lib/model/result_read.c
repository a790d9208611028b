// SPDX-License-Identifier: GPL-2.0
/*
 * Reading back the raw samples result_write.c writes: the inverse of its
 * sample rows, beside it so that the one format has its writer and its
 * reader in one room.  `sweep --resume` rebuilds a point's result from
 * its partial file through this; the columns are found by name, as every
 * reader of the suite's CSV finds them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csvread.h"
#include "result.h"
#include "vsb.h"

/*
 * A count as the writer writes it (%llu): digits only, and no leading
 * zero but "0" itself, the suite's one integer syntax (numbers.c says
 * why: 010 is refused, never read as 10 or guessed at as octal), over
 * the whole 64 bits the writer may write.  0, or -1 on anything else.
 */
static int scan_count(const char *s, unsigned long long *v)
{
	char *end;

	if (*s < '0' || *s > '9' || (s[0] == '0' && s[1]))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return *end || errno ? -1 : 0;
}

static int cell_ull(const struct vsb_csv *c, size_t row, int col,
		    unsigned long long *v)
{
	return scan_count(vsb_csv_cell(c, row, col), v);
}

/* Up to @max ';'-separated fields of @s into @out (modified); the count. */
static int split_semi(char *s, char **out, int max)
{
	int n = 0;

	if (!*s)
		return 0;
	for (;;) {
		char *semi = strchr(s, ';');

		if (n < max)
			out[n] = s;
		n++;
		if (!semi)
			return n;
		*semi = '\0';
		s = semi + 1;
	}
}

/*
 * A sample's disturbance cells (nivcsw, migrations, run_delay_ns,
 * steal_ns, cpu_irqs: empty when not measured; disturbed: the reasons
 * ';'-joined, "no" or empty), as result_write.c writes them.
 */
static int dist_cells(const struct vsb_csv *c, size_t row, const int *col,
		      struct vsb_sample *s)
{
	uint64_t *val[VSB_DIST_NREASONS] = { &s->nivcsw, &s->migrations,
		&s->run_delay_ns, &s->steal_ns, &s->irqs };
	char buf[128], *f[VSB_DIST_NREASONS + 1];
	unsigned long long v;
	int k, n, j;

	for (k = 0; k < VSB_DIST_NREASONS; k++) {
		if (!*vsb_csv_cell(c, row, col[k]))
			continue;
		if (cell_ull(c, row, col[k], &v))
			return -1;
		*val[k] = v;
		s->dist_valid |= 1u << k;
	}
	snprintf(buf, sizeof(buf), "%s", vsb_csv_cell(c, row, col[VSB_DIST_NREASONS]));
	if (!buf[0] || !strcmp(buf, "no"))
		return 0;
	n = split_semi(buf, f, VSB_DIST_NREASONS + 1);
	for (k = 0; k < n; k++) {
		for (j = 0; j < VSB_DIST_NREASONS &&
			    strcmp(f[k], vsb_disturb_reason_name(j)); j++)
			;
		if (j == VSB_DIST_NREASONS)
			return -1;
		s->disturbed |= 1u << j;
	}
	return 0;
}

/*
 * The samples of raw CSV @c into @r (its unit, event, plm and PMU event
 * names from the first row; @r->npmu says how many events to expect),
 * each row's repetition below @rounds: NULL, or what is wrong.
 */
const char *vsb_result_read_samples(const struct vsb_csv *c, struct vsb_result *r,
				    long rounds)
{
	enum { THREAD, CPU, REP, OPS, ELAPSED, UNIT, EVENT, PLM, NS, FOLDS, MUX,
	       SCALE, EVENTS, VALUES, NIVCSW, MIGR, DELAY, STEAL, IRQS, DIST,
	       NCOLS };
	static const char *const names[NCOLS] = { "thread", "cpu", "rep", "ops",
		"elapsed", "unit", "event", "plm", "ns", "folds", "multiplexed",
		"pmu_scale", "pmu_events", "pmu_values", "nivcsw", "migrations",
		"run_delay_ns", "steal_ns", "cpu_irqs", "disturbed" };
	char buf[VSB_PMU_SLOTS * (VSB_PMU_FSTR_LEN + 1) + 64], *f[VSB_PMU_SLOTS + 1];
	int col[NCOLS], k, n;
	size_t i;

	for (k = 0; k < NCOLS; k++) {
		col[k] = vsb_csv_col(c, names[k]);
		if (col[k] < 0)
			return "a column is missing";
	}
	if (!c->nrows)
		return "it holds no samples";
	snprintf(r->unit, sizeof(r->unit), "%s", vsb_csv_cell(c, 0, col[UNIT]));
	snprintf(r->event, sizeof(r->event), "%s", vsb_csv_cell(c, 0, col[EVENT]));
	snprintf(r->plm, sizeof(r->plm), "%s", vsb_csv_cell(c, 0, col[PLM]));
	snprintf(buf, sizeof(buf), "%s", vsb_csv_cell(c, 0, col[EVENTS]));
	n = split_semi(buf, f, VSB_PMU_SLOTS + 1);
	if (n != r->npmu)
		return "its PMU events do not match its state line";
	for (k = 0; k < n; k++) {
		if (strlen(f[k]) >= sizeof(r->pmu_event[k]))
			return "a PMU event name is too long";
		strcpy(r->pmu_event[k], f[k]);
	}
	for (i = 0; i < c->nrows; i++) {
		struct vsb_sample s;
		unsigned long long v;
		long l;
		double d;

		memset(&s, 0, sizeof(s));
		if (cell_ull(c, i, col[THREAD], &v) || v > VSB_MAX_CPUS)
			return "a bad thread cell";
		s.thread = (unsigned int)v;
		if (vsb_parse_long(vsb_csv_cell(c, i, col[CPU]), &l) || l < -1 ||
		    l >= VSB_MAX_CPUS)
			return "a bad cpu cell";
		s.cpu = (int)l;
		if (cell_ull(c, i, col[REP], &v) || v >= (unsigned long long)rounds)
			return "a repetition number beyond its rounds";
		s.rep = (unsigned int)v;
		if (cell_ull(c, i, col[OPS], &v) || !v)
			return "a bad ops cell";
		s.ops = v;
		if (cell_ull(c, i, col[ELAPSED], &v))
			return "a bad elapsed cell";
		s.elapsed = v;
		d = vsb_csv_num(c, i, col[NS]);
		if (!isfinite(d) || d < 0)
			return "a bad ns cell";
		s.ns = d;
		if (cell_ull(c, i, col[FOLDS], &v))
			return "a bad folds cell";
		s.folds = v;
		if (cell_ull(c, i, col[MUX], &v) || v > 1)
			return "a bad multiplexed cell";
		s.multiplexed = (int)v;
		d = vsb_csv_num(c, i, col[SCALE]);
		s.pmu_scale = isfinite(d) ? d : 1.0;
		snprintf(buf, sizeof(buf), "%s", vsb_csv_cell(c, i, col[VALUES]));
		if (split_semi(buf, f, VSB_PMU_SLOTS + 1) != r->npmu)
			return "a row's PMU values do not match its events";
		for (k = 0; k < r->npmu; k++) {
			if (scan_count(f[k], &v))
				return "a bad PMU value";
			s.pmu[k] = v;
		}
		if (dist_cells(c, i, col + NIVCSW, &s))
			return "a bad disturbance cell";
		vsb_result_add(r, &s);
	}
	return NULL;
}
