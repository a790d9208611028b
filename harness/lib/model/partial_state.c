// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep_partial_* lines a sweep writes into an unfinished point's
 * partial file (DIR/<id>.csv.partial) and `sweep --resume` reads back:
 * the rounds done, the sanity and PMU state, the drift figures and the
 * --disturbed accounting, which the raw CSV holds only rounded or per
 * sample.  A format of the suite's files, so its writer and its reader
 * live here together; harness/sweep/partial.c decides what to trust.
 */
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvread.h"
#include "partial_state.h"
#include "vsb.h"

/*
 * Each line is "name=value ..." over fields of struct vsb_result, listed
 * once below for the writer and the reader alike, so the two cannot
 * drift apart.  A field without a name goes on after a comma (the
 * reasons' counts).  Doubles are written with 17 digits: the partial is
 * trusted only when it rebuilds the same bytes.
 */
enum ftype { F_END, F_INT, F_UINT, F_LL, F_UL, F_SIZE, F_DBL };

struct field {
	const char *name;
	enum ftype t;
	size_t off;		/* in struct vsb_result */
};

#define F(t, name, f)	{ name, t, offsetof(struct vsb_result, f) }
#define I(name, f)	F(F_INT, name, f)
#define U(name, f)	F(F_UINT, name, f)
#define LL(name, f)	F(F_LL, name, f)
#define UL(name, f)	F(F_UL, name, f)
#define Z(name, f)	F(F_SIZE, name, f)
#define G(name, f)	F(F_DBL, name, f)
#define END		{ NULL, F_END, 0 }

/* sweep_partial_state: the sanity verdict, the totals, the PMU's state */
static const struct field state_fields[] = {
	I("sanity_ok", sanity_ok), I("migrated", migrated), LL("applied", applied),
	LL("counted", counted), I("nthreads", nthreads), I("npmu", npmu),
	I("pmu_cycles", pmu_cycles), I("pmu_instr", pmu_instr),
	I("mux_samples", mux_samples), I("multiplexed", multiplexed), END,
};

/* sweep_partial_drift: --drift's figures, to the last bit */
static const struct field drift_fields[] = {
	I("have", have_drift), Z("samples", drift_samples), G("max", drift_max),
	G("p99", drift_p99), G("mean", drift_mean), G("stale_max", stale_max_us),
	G("stale_p99", stale_p99_us), G("stale_mean", stale_mean_us), END,
};

/* sweep_partial_dist: --disturbed's counts, which the CSV holds per sample */
static const struct field dist_fields[] = {
	I("on", dist.on), I("policy", dist.policy), UL("attempts", dist.attempts),
	UL("kept", dist.kept), UL("kept_disturbed", dist.kept_disturbed),
	UL("dropped", dist.dropped), UL("retried", dist.retried),
	UL("disturbed", dist.disturbed), UL("reasons", dist.reason[0]),
	UL(NULL, dist.reason[1]), UL(NULL, dist.reason[2]), UL(NULL, dist.reason[3]),
	UL(NULL, dist.reason[4]), U("valid", dist.valid), G("timed_ns", dist.timed_ns),
	G("lost_delay_ns", dist.lost_delay_ns), G("lost_steal_ns", dist.lost_steal_ns),
	UL("retries", dist.retries), UL("retries_cap", dist.retries_cap), END,
};
_Static_assert(VSB_DIST_NREASONS == 5, "sweep_partial_dist lists 5 reasons");

/* Field @f of @r as the writer writes it. */
static void field_text(const struct vsb_result *r, const struct field *f,
		       char *buf, size_t len)
{
	const char *p = (const char *)r + f->off;

	switch (f->t) {
	case F_INT:
		snprintf(buf, len, "%d", *(const int *)p);
		break;
	case F_UINT:
		snprintf(buf, len, "%u", *(const unsigned int *)p);
		break;
	case F_LL:
		snprintf(buf, len, "%lld", *(const long long *)p);
		break;
	case F_UL:
		snprintf(buf, len, "%lu", *(const unsigned long *)p);
		break;
	case F_SIZE:
		snprintf(buf, len, "%zu", *(const size_t *)p);
		break;
	default:
		snprintf(buf, len, "%.17g", *(const double *)p);
		break;
	}
}

/* What goes before field @f's value: " name=", "name=" first, or ",". */
static void field_lead(const struct field *f, int first, char *buf, size_t len)
{
	if (f->name)
		snprintf(buf, len, "%s%s=", first ? "" : " ", f->name);
	else
		snprintf(buf, len, ",");
}

/* @fields of @r as one line's value into @line (1024 bytes) */
static void fields_line(const struct vsb_result *r, const struct field *fields,
			char line[1024])
{
	char lead[40], v[40];
	const struct field *f;
	size_t off = 0;

	line[0] = '\0';
	for (f = fields; f->t != F_END && off < 1024; f++) {
		field_lead(f, f == fields, lead, sizeof(lead));
		field_text(r, f, v, sizeof(v));
		off += (size_t)snprintf(line + off, 1024 - off, "%s%s", lead, v);
	}
}

/*
 * @s into field @f of @r: 0, or -1 when it does not fit an int.  What
 * strtoul and friends make of anything else, fields_read() refuses by
 * writing the value again.
 */
static int field_set(struct vsb_result *r, const struct field *f, const char *s)
{
	char *p = (char *)r + f->off;
	long long v;

	if (f->t == F_DBL) {
		*(double *)p = strtod(s, NULL);
		return 0;
	}
	if (f->t == F_UL) {
		*(unsigned long *)p = strtoul(s, NULL, 10);
		return 0;
	}
	if (f->t == F_SIZE) {
		*(size_t *)p = (size_t)strtoull(s, NULL, 10);
		return 0;
	}
	v = strtoll(s, NULL, 10);
	if (f->t == F_LL)
		*(long long *)p = v;
	else if (f->t == F_UINT && v >= 0 && v <= UINT_MAX)
		*(unsigned int *)p = (unsigned int)v;
	else if (f->t == F_INT && v >= INT_MIN && v <= INT_MAX)
		*(int *)p = (int)v;
	else
		return -1;
	return 0;
}

/*
 * @line into @r's @fields: 0, or -1 unless it is what fields_line()
 * writes, to the byte.  A value is taken only when the writer would
 * write it the same way, so "07", "+7", " 7" or "0x7" are refused.
 */
static int fields_read(const char *line, struct vsb_result *r,
		       const struct field *fields)
{
	char lead[40], tok[40], again[40];
	const struct field *f;
	size_t n;

	for (f = fields; line && f->t != F_END; f++) {
		field_lead(f, f == fields, lead, sizeof(lead));
		if (strncmp(line, lead, strlen(lead)))
			return -1;
		line += strlen(lead);
		n = strcspn(line, " ,");
		if (!n || n >= sizeof(tok))
			return -1;
		memcpy(tok, line, n);
		tok[n] = '\0';
		line += n;
		if (field_set(r, f, tok))
			return -1;
		field_text(r, f, again, sizeof(again));
		if (strcmp(tok, again))
			return -1;
	}
	return line && !*line ? 0 : -1;
}

/* The lines worked out first, then set in one go, in the file's order. */
void vsb_partial_state_write(struct vsb_result *r, const char *point,
			     const char *match, long done, long reps)
{
	char state[1024], drift[1024], dist[1024];

	fields_line(r, state_fields, state);
	fields_line(r, drift_fields, drift);
	fields_line(r, dist_fields, dist);
	vsb_result_meta(r, "sweep_partial_point", "%s", point);
	vsb_result_meta(r, "sweep_partial_match", "%s", match);
	vsb_result_meta(r, "sweep_partial_rounds", "%ld of %ld", done, reps);
	vsb_result_meta(r, "sweep_partial_state", "%s", state);
	vsb_result_meta(r, "sweep_partial_drift", "%s", drift);
	vsb_result_meta(r, "sweep_partial_dist", "%s", dist);
	vsb_result_meta(r, "sweep_partial_dist_sources", "%s", r->dist.sources);
}

/*
 * The point and match lines: @point's, and made as @match says; its
 * first word (the sweep file's hash, "file=HASH") told apart from the
 * rest (the options, the repetitions and the spread).
 */
const char *vsb_partial_point_read(const struct vsb_csv *c, const char *point,
				   const char *match)
{
	const char *v = vsb_csv_meta(c, "sweep_partial_point");
	size_t first = strcspn(match, " ") + 1;

	if (!v || strcmp(v, point))
		return "it belongs to another point";
	v = vsb_csv_meta(c, "sweep_partial_match");
	if (!v || strncmp(v, match, first))
		return "it was made from another sweep file, or another version of this one";
	if (strcmp(v, match))
		return "it was made with other options or another --repeat "
			"(or --procs, --run-min-ms)";
	return NULL;
}

/* "K of N" in numbers.c's syntax, as the writer's %ld writes them */
const char *vsb_partial_rounds_read(const struct vsb_csv *c, long *k, long *reps)
{
	const char *v = vsb_csv_meta(c, "sweep_partial_rounds");

	v = v ? vsb_scan_decimal(v, k) : NULL;
	if (!v || strncmp(v, " of ", 4) || vsb_parse_long(v + 4, reps) || *k < 1)
		return "no valid sweep_partial_rounds line";
	return NULL;
}

const char *vsb_partial_state_read(const struct vsb_csv *c, struct vsb_result *r)
{
	const char *src = vsb_csv_meta(c, "sweep_partial_dist_sources");

	if (fields_read(vsb_csv_meta(c, "sweep_partial_state"), r, state_fields) ||
	    r->npmu < 0 || r->npmu > VSB_PMU_SLOTS ||
	    r->pmu_cycles < -1 || r->pmu_cycles >= r->npmu ||
	    r->pmu_instr < -1 || r->pmu_instr >= r->npmu)
		return "no valid sweep_partial_state line";
	if (fields_read(vsb_csv_meta(c, "sweep_partial_drift"), r, drift_fields))
		return "no valid sweep_partial_drift line";
	if (!src || fields_read(vsb_csv_meta(c, "sweep_partial_dist"), r, dist_fields))
		return "no valid sweep_partial_dist line";
	snprintf(r->dist.sources, sizeof(r->dist.sources), "%s", src);
	return NULL;
}
