// SPDX-License-Identifier: GPL-2.0
/*
 * A result's storage: its samples, metadata and verdicts, and the merge
 * of a sweep's rounds.  The aggregates computed from the raw samples are
 * result_agg.c's, the writers result_write.c's.
 */
#define _GNU_SOURCE
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "bench/variants.h"

void vsb_result_init(struct vsb_result *r, const struct vsb_run_opts *o)
{
	memset(r, 0, sizeof(*r));
	r->opts = *o;
	r->sanity_ok = 1;
	strcpy(r->sanity, "not checked");
	r->pmu_cycles = r->pmu_instr = -1;
}

void vsb_result_free(struct vsb_result *r)
{
	free(r->samples);
	free(r->meta);
	free(r->trace);
	r->samples = NULL;
	r->meta = NULL;
	r->trace = NULL;
	r->nsamples = r->nmeta = 0;
}

int vsb_sample_place(struct vsb_sample *s, unsigned int thread, int cpu, unsigned int rep)
{
	s->thread = thread;
	s->cpu = cpu;
	s->rep = rep;
	return sched_getcpu() != cpu;
}

void vsb_result_add(struct vsb_result *r, const struct vsb_sample *s)
{
	r->samples = vsb_grow(r->samples, r->nsamples, &r->cap, sizeof(*r->samples));
	r->samples[r->nsamples++] = *s;
}

/* @kv's value from @fmt: one line, whatever a sysfs file contained */
static void kv_vset(struct vsb_meta_kv *kv, const char *fmt, va_list ap)
{
	char *c;

	vsnprintf(kv->val, sizeof(kv->val), fmt, ap);
	for (c = kv->val; *c; c++)
		if (*c == '\n' || *c == '\r')
			*c = ' ';
}

/* The line of @key among @kv[0..n), or NULL */
static struct vsb_meta_kv *kv_find(struct vsb_meta_kv *kv, size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(kv[i].key, key))
			return &kv[i];
	return NULL;
}

/* @r's line of @key, a new one at the end when it has none */
static struct vsb_meta_kv *meta_slot(struct vsb_result *r, const char *key)
{
	struct vsb_meta_kv *kv = kv_find(r->meta, r->nmeta, key);

	if (kv)
		return kv;
	r->meta = vsb_grow(r->meta, r->nmeta, &r->metacap, sizeof(*r->meta));
	kv = &r->meta[r->nmeta++];
	snprintf(kv->key, sizeof(kv->key), "%s", key);
	return kv;
}

void vsb_result_meta(struct vsb_result *r, const char *key, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kv_vset(meta_slot(r, key), fmt, ap);
	va_end(ap);
}

const char *vsb_result_meta_of(const struct vsb_result *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->nmeta; i++)
		if (!strcmp(r->meta[i].key, key))
			return r->meta[i].val;
	return NULL;
}

void vsb_meta_rec_add(struct vsb_meta_rec *m, const char *key, const char *fmt, ...)
{
	struct vsb_meta_kv *kv = kv_find(m->kv, m->n, key);
	va_list ap;

	if (!kv && m->n == VSB_META_REC_MAX) {
		vsb_warn("metadata record full: '%s' left out", key);
		return;
	}
	if (!kv) {
		kv = &m->kv[m->n++];
		snprintf(kv->key, sizeof(kv->key), "%s", key);
	}
	va_start(ap, fmt);
	kv_vset(kv, fmt, ap);
	va_end(ap);
}

void vsb_result_take_meta(struct vsb_result *r, const struct vsb_meta_rec *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		*meta_slot(r, m->kv[i].key) = m->kv[i];
}

int vsb_meta_list_put(char *buf, size_t len, const char *label, const double *v,
		      size_t n, int prec)
{
	size_t at = strlen(buf), off = at;
	size_t i;

	off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%s ",
				at ? "; " : "", label);
	for (i = 0; i < n && off < len; i++)
		off += (size_t)(isnan(v[i]) ?
			snprintf(buf + off, len - off, "%s-", i ? ";" : "") :
			snprintf(buf + off, len - off, "%s%.*f", i ? ";" : "", prec, v[i]));
	if (off < len)
		return 0;
	buf[at] = '\0';
	return -1;
}

/* @label's list in @val: where it starts, or NULL */
static const char *list_of(const char *val, const char *label)
{
	size_t n = strlen(label);
	const char *p = val;

	for (; p; p = strstr(p, "; "), p = p ? p + 2 : NULL)
		if (!strncmp(p, label, n) && p[n] == ' ')
			return p + n + 1;
	return NULL;
}

long vsb_meta_list_get(const char *val, const char *label, double *v, size_t max)
{
	const char *p = list_of(val, label);
	size_t n = 0;

	while (p && n < max) {
		if (*p == '-') {
			v[n] = NAN;
			p++;
		} else if (!(p = vsb_scan_real(p, &v[n]))) {
			return -1;
		}
		n++;
		if (!*p || !strncmp(p, "; ", 2))
			return (long)n;	/* the end of the value, or of this list */
		if (*p != ';')
			return -1;
		p++;
	}
	return -1;
}

static double note_multiplexed(struct vsb_result *r, int allow_multiplex)
{
	double minscale = 1.0;
	size_t i;

	r->mux_samples = 0;
	for (i = 0; i < r->nsamples; i++) {
		r->mux_samples += r->samples[i].multiplexed;
		if (r->npmu && r->samples[i].pmu_scale < minscale)
			minscale = r->samples[i].pmu_scale;
	}
	vsb_result_meta(r, "multiplexed", "%d of %zu samples (min running/enabled %.3f)%s",
			r->mux_samples, r->nsamples, minscale,
			r->mux_samples && allow_multiplex ? ", allowed" : "");
	r->multiplexed = r->mux_samples && !allow_multiplex;
	return minscale;
}

/*
 * Exact mode: the windows of @src's samples (exact_windows, "boot=ID
 * v:a-b ...", noted by benches/exact_result.c) follow @dst's, as its
 * samples do; a round in another boot, or a list past the cell, leaves
 * the point without one (its profile is skipped, its counts stand).
 */
static void merge_exact_windows(struct vsb_result *dst, const struct vsb_result *src)
{
	const char *a = vsb_result_meta_of(dst, "exact_windows");
	const char *b = vsb_result_meta_of(src, "exact_windows");
	const char *runs = b ? strchr(b, ' ') : NULL;
	char was[sizeof(dst->meta[0].val)];

	if (!a || !runs)
		return;
	snprintf(was, sizeof(was), "%s", a);
	if (strncmp(was, b, (size_t)(runs - b) + 1) ||
	    strlen(was) + strlen(runs) >= sizeof(was))
		vsb_result_meta(dst, "exact_windows", "too many runs or boots");
	else
		vsb_result_meta(dst, "exact_windows", "%s%s", was, runs);
}

/*
 * A sweep runs each point as interleaved rounds of one repetition (a short
 * point's several in a row), every round a run of its own with counters
 * from zero.  Merge round @src into @dst, its repetitions numbered from
 * @rep on, so that what a point reports covers
 * every round and not just the first: sanity fails if any round's did,
 * the applied and counted totals add up (each round balanced, so the sums
 * balance), a migration or untrusted multiplexing anywhere marks the
 * point, the disturbance counts add up, and the drift figures keep the
 * worst max and p99 and the sample-weighted means.  The --trace windows are the tracer's to add
 * up (vsb_trace_merge), called by the sweep runner beside this.
 */
void vsb_result_merge_round(struct vsb_result *dst, const struct vsb_result *src,
			    unsigned int rep)
{
	size_t i, n0 = dst->drift_samples, n1 = src->drift_samples;

	for (i = 0; i < src->nsamples; i++) {
		struct vsb_sample s = src->samples[i];

		s.rep = rep + src->samples[i].rep;
		vsb_result_add(dst, &s);
	}
	if (!src->sanity_ok && dst->sanity_ok) {
		dst->sanity_ok = 0;
		memcpy(dst->sanity, src->sanity, sizeof(dst->sanity));
	} else if (dst->sanity_ok) {
		/* the rounds so far, not the repetitions: a round may be several */
		unsigned int rounds;

		if (sscanf(dst->sanity, "ok in each of %u rounds", &rounds) != 1)
			rounds = 1;
		snprintf(dst->sanity, sizeof(dst->sanity), "ok in each of %u rounds, the last: %.400s",
			 rounds + 1, src->sanity);
	}
	merge_exact_windows(dst, src);
	dst->migrated |= src->migrated;
	if (dst->mux_samples || src->mux_samples)
		note_multiplexed(dst, (int)dst->opts.allow_multiplex);
	dst->applied += src->applied;
	dst->counted += src->counted;
	if (src->dist.on)	/* its metadata: vsb_disturb_report, by the caller */
		vsb_disturb_merge(&dst->dist, &src->dist);
	if (!src->have_drift || !n1)
		return;
	if (!dst->have_drift || !n0) {
		dst->have_drift = 1;
		dst->drift_samples = 0;
		dst->drift_max = dst->drift_p99 = dst->stale_max_us = dst->stale_p99_us = 0;
	}
#define MERGE_MEAN(f) dst->f = (dst->f * (double)n0 + src->f * (double)n1) / (double)(n0 + n1)
	if (n0) {
		MERGE_MEAN(drift_mean);
		MERGE_MEAN(stale_mean_us);
	} else {
		dst->drift_mean = src->drift_mean;
		dst->stale_mean_us = src->stale_mean_us;
	}
#undef MERGE_MEAN
	dst->drift_samples = n0 + n1;
	dst->drift_max = fmax(dst->drift_max, src->drift_max);
	dst->drift_p99 = fmax(dst->drift_p99, src->drift_p99);
	dst->stale_max_us = fmax(dst->stale_max_us, src->stale_max_us);
	dst->stale_p99_us = fmax(dst->stale_p99_us, src->stale_p99_us);
	vsb_result_meta(dst, "drift",
			"%zu reader samples over %u rounds: |sum of per-CPU diffs| max %.0f p99 %.0f mean %.1f; "
			"staleness max %.0f us p99 %.0f us mean %.1f us (max and p99: the worst round's)",
			dst->drift_samples, rep + 1, dst->drift_max, dst->drift_p99,
			dst->drift_mean, dst->stale_max_us, dst->stale_p99_us,
			dst->stale_mean_us);
}

/*
 * After the samples are in, for every backend: how many were multiplexed
 * (the run is untrustworthy unless --allow-multiplex) and, where the
 * workers read their affinity back (@affinity_bad >= 0), whether each
 * was pinned to exactly its CPU.
 */
/* Count @r's multiplexed samples into its metadata; the lowest scale. */
void vsb_result_note_workers(struct vsb_result *r, int affinity_bad,
			     int allow_multiplex)
{
	double minscale = note_multiplexed(r, allow_multiplex);

	if (affinity_bad > 0)
		vsb_result_meta(r, "affinity_readback",
				"%d worker(s) not pinned to exactly their CPU", affinity_bad);
	else if (affinity_bad == 0)
		vsb_result_meta(r, "affinity_readback",
				"ok (each worker's mask is exactly its CPU)");
	if (!r->mux_samples)
		return;
	vsb_warn("PMU counters were multiplexed in %d of %zu samples (scaled by "
		 "enabled/running, lowest %.3f)%s", r->mux_samples, r->nsamples, minscale,
		 allow_multiplex ? "" : ": untrustworthy unless --allow-multiplex");
}
