// SPDX-License-Identifier: GPL-2.0
/*
 * A sweep's unfinished points on disk (DIR/<id>.csv.partial) for
 * --resume: written after every round, read back only when they rebuild
 * exactly what was written.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "csvread.h"
#include "partial_state.h"
#include "result_load.h"
#include "sweep_int.h"

/* ---- partial points: the repetitions so far, for --resume ---- */

/*
 * Every round ends with each unfinished point's merged result so far in
 * DIR/<id>.csv.partial (also written when the sweep is interrupted), so
 * that --resume continues a point instead of starting it again.  The
 * file is the point's raw CSV, written by the same writer as <id>.csv,
 * plus sweep_partial_* metadata with what that CSV holds only rounded or
 * not at all (the sanity verdict, the exact totals and drift figures,
 * which PMU event is cycles).  Reading it back must rebuild a result
 * that writes the very same bytes, from rows that are exactly the
 * repetitions it claims, or the point starts over: a partial is trusted
 * only when nothing was lost or made up.  The name does not end in
 * ".csv", so compare and plot never take it for a result.
 *
 * --trace points keep no partial: their window counts (per-CPU arrays)
 * are not in the CSV, and a point continued without them would
 * under-count.
 */

/*
 * What a partial must have been made by to be continued: what a finished
 * point must (vsb_sweep_point_match), and the very bytes of this sweep
 * file, whose rounds and shuffles the partial's repetitions took part in.
 */
static long partial_procs = 1;
static long partial_run_min_ms;

/*
 * And the worker processes its repetitions are spread over: a partial
 * of a sweep spread another way would be continued under a wrong map of
 * which process ran which repetition (`# sweep_procs:`, compare's runs).
 * Spread, also the --run-min-ms the run factor was chosen under: a
 * partial whose factor (5, say) the resuming run's options would not
 * choose (--run-min-ms 0 runs each repetition once) would give the point
 * a factor nobody asked for now, so it starts over and chooses anew.
 * One process (today's, and every older partial) adds nothing.
 */
void vsb_sweep_partial_procs(long procs, long run_min_ms)
{
	partial_procs = procs > 1 ? procs : 1;
	partial_run_min_ms = run_min_ms;
}

static void partial_match(const struct vsb_sweep_point *p, char *buf, size_t len)
{
	char m[64];

	vsb_sweep_point_match(p, m, sizeof(m));
	if (partial_procs > 1 && !p->opts.trace)
		snprintf(buf, len, "file=%016llx %s procs=%ld run_min_ms=%ld",
			 (unsigned long long)p->file_hash, m, partial_procs,
			 partial_run_min_ms);
	else
		snprintf(buf, len, "file=%016llx %s", (unsigned long long)p->file_hash, m);
}

static int partial_text(const struct vsb_result *res,
			const struct vsb_sweep_point *p, long done, long reps,
			char **text, size_t *len)
{
	static struct vsb_result r;
	char match[128];
	FILE *f;
	int ret;

	partial_match(p, match, sizeof(match));
	/* the result's own lines, and room for the seven sweep_partial_* */
	r = *res;
	r.metacap = res->nmeta + 7;
	r.meta = vsb_zalloc(r.metacap * sizeof(*r.meta));
	if (res->nmeta)
		memcpy(r.meta, res->meta, res->nmeta * sizeof(*r.meta));
	vsb_partial_state_write(&r, p->id, match, done, reps);
	*text = NULL;
	*len = 0;
	f = open_memstream(text, len);
	if (!f) {
		free(r.meta);
		vsb_err("out of memory");
		return VSB_EXIT_ERROR;
	}
	ret = vsb_result_write_csv(&r, f);
	if (fclose(f))
		ret = VSB_EXIT_ERROR;
	free(r.meta);
	if (ret) {
		free(*text);
		*text = NULL;
	}
	return ret;
}

void vsb_sweep_partial_remove(const struct vsb_sweep_point *p)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s%s", p->stem, VSB_SWEEP_PARTIAL_SUFFIX);
	unlink(path);
}

/* A write that fails costs only resumability: a warning, and on we go. */
void vsb_sweep_partial_save(const struct vsb_sweep_point *p, long total)
{
	struct vsb_outfile o;
	struct vsb_errlog log;
	const char *msg = log.text;
	char path[4096];
	char *text = NULL;
	size_t len = 0;
	int ret;

	if (p->opts.trace)
		return;
	vsb_errlog_begin(&log);
	snprintf(path, sizeof(path), "%s%s", p->stem, VSB_SWEEP_PARTIAL_SUFFIX);
	ret = partial_text(&p->res, p, p->done, total, &text, &len);
	ret = ret ?: vsb_outfile_open(&o, path, "-o");
	if (!ret) {
		if (fwrite(text, 1, len, o.f) != len) {
			vsb_err("%s: write failed: %s", path, strerror(errno));
			vsb_outfile_abort(&o);
			ret = VSB_EXIT_ERROR;
		} else {
			ret = vsb_outfile_commit(&o);
		}
	}
	vsb_errlog_end(&log);
	free(text);
	if (ret) {
		vsb_sweep_progress_clear();
		vsb_warn("%s: its repetitions so far are not saved (--resume would run "
			 "them again): %s", p->id, msg[0] ? msg : "write failed");
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The rep halves of @n (thread, rep) keys differ between @a and @b. */
static int cmp_reps(const uint64_t *a, const uint64_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((uint32_t)a[i] != (uint32_t)b[i])
			return 1;
	return 0;
}

/*
 * The rows must be exactly the repetitions the partial claims: each
 * worker one row per round 0..@rounds-1, but for the rounds --disturbed
 * drop left out, and the same rounds for every worker (a round times them
 * all, or drops them all).  A row removed, duplicated or renumbered, or
 * a sweep_partial_rounds line edited, would otherwise be continued as
 * repetitions that never ran (or twice).  NULL, or what is wrong.
 */
static const char *rows_match_rounds(const struct vsb_result *r, long rounds,
				     char *msg, size_t len)
{
	uint64_t *k = vsb_zalloc((r->nsamples ? r->nsamples : 1) * sizeof(*k));
	size_t i, start = 0, per = 0, nthr = 0;
	const char *bad = NULL;

	for (i = 0; i < r->nsamples; i++)
		k[i] = (uint64_t)r->samples[i].thread << 32 | r->samples[i].rep;
	qsort(k, r->nsamples, sizeof(*k), cmp_u64);
	for (i = 1; i < r->nsamples && !bad; i++)
		if (k[i] == k[i - 1])
			bad = "a repetition's row appears twice";
	/* one group of rows per worker, each the first group's reps */
	for (i = 1; i <= r->nsamples && !bad; i++) {
		if (i < r->nsamples && k[i] >> 32 == k[start] >> 32)
			continue;
		if (!nthr)
			per = i;
		else if (i - start != per || cmp_reps(k, k + start, per))
			bad = "its workers' rows are not the same repetitions";
		nthr++;
		start = i;
	}
	if (!bad && (uint64_t)per * nthr + r->dist.dropped != (uint64_t)rounds * nthr) {
		snprintf(msg, len, "its rows hold %zu repetition(s) per worker%s, not "
			 "the %ld its sweep_partial_rounds line claims", per,
			 r->dist.dropped ? " besides those dropped" : "", rounds);
		bad = msg;
	}
	free(k);
	return bad;
}

/* The most run_reps a sweep chooses: a short point's, only when spread. */
static long most_run_reps(void)
{
	return partial_procs > 1 ? VSB_SWEEP_RUN_REPS_MAX : 1;
}

/*
 * The run_reps a partial's "K of N" rounds imply: N over the repetitions
 * wanted, when that is a factor a sweep could have chosen (1 to
 * most_run_reps()); 0 when it is not.
 */
static long partial_run_reps(const struct vsb_sweep_point *p, long n)
{
	long f = p->reps > 0 && n % p->reps == 0 ? n / p->reps : 0;

	return f >= 1 && f <= most_run_reps() ? f : 0;
}

/* What a partial's sweep_partial_rounds line says, and what it implies */
struct partial_rounds {
	long done;	/* the repetitions it holds */
	long wanted;	/* of how many: the point's reps times its run_reps */
	long run_reps;	/* that factor, as the run that wrote it chose */
};

/*
 * A partial's sweep_partial_* and sanity lines into @r and @pr: NULL, or
 * what is wrong (in @msg when it needs numbers).
 */
static const char *partial_head(const struct vsb_csv *c,
				const struct vsb_sweep_point *p, struct vsb_result *r,
				struct partial_rounds *pr, char *msg, size_t len)
{
	char match[128];
	const char *v;

	partial_match(p, match, sizeof(match));
	v = vsb_partial_point_read(c, p->id, match);
	if (v)
		return v;
	v = vsb_partial_rounds_read(c, &pr->done, &pr->wanted);
	if (v)
		return v;
	pr->run_reps = partial_run_reps(p, pr->wanted);
	if (!pr->run_reps) {
		snprintf(msg, len, "it wants %ld repetitions, not the %ld this run "
			 "wants (or a short point's %ld times as many at most)",
			 pr->wanted, p->reps, most_run_reps());
		return msg;
	}
	if (pr->done > pr->wanted) {
		snprintf(msg, len, "it holds %ld repetitions, more than the %ld this "
			 "run wants", pr->done, pr->wanted);
		return msg;
	}
	v = vsb_partial_state_read(c, r);
	if (v)
		return v;
	v = vsb_csv_meta(c, "sanity");
	if (!v)
		return "no sanity line";
	snprintf(r->sanity, sizeof(r->sanity), "%s", v);
	return NULL;
}

/* where @orig (the file) and @text (its rewrite) part, as the reason */
static const char *first_difference(const char *orig, size_t olen, const char *text,
				    size_t tlen, char *msg, size_t len)
{
	size_t i = 0, line = 1, start = 0, oe, te;

	while (i < olen && i < tlen && orig[i] == text[i])
		if (orig[i++] == '\n') {
			line++;
			start = i;
		}
	for (oe = start; oe < olen && orig[oe] != '\n'; oe++)
		;
	for (te = start; te < tlen && text[te] != '\n'; te++)
		;
	snprintf(msg, len, "it does not read back to the same file: line %zu is "
		 "\"%.*s\", read back \"%.*s\"", line, (int)(oe - start < 120 ? oe - start : 120),
		 orig + start, (int)(te - start < 120 ? te - start : 120), text + start);
	return msg;
}

/*
 * @c (read from @path, whose bytes are @orig) into @r and @pr: NULL, or
 * what is wrong.  Trusted only when every row is a repetition it claims
 * and the result writes back the very same bytes.
 */
static const char *partial_rebuild(const struct vsb_csv *c,
				   const struct vsb_sweep_point *p,
				   struct vsb_result *r, const char *orig,
				   size_t olen, struct partial_rounds *pr,
				   char *msg, size_t len)
{
	const char *bad;
	char *text = NULL;
	size_t tlen = 0, i;

	bad = partial_head(c, p, r, pr, msg, len);
	if (!bad)
		r->opts.repeat = pr->wanted;
	bad = bad ?: vsb_result_read_samples(c, r, pr->done);
	bad = bad ?: rows_match_rounds(r, pr->done, msg, len);
	/* the metadata in file order, less what the writer adds from fields */
	for (i = 0; !bad && i < c->nmeta; i++) {
		const char *key = c->meta[i].key;

		if (strcmp(key, "sanity") && strcmp(key, "applied_total") &&
		    strcmp(key, "counted_total") && strcmp(key, "migrated") &&
		    strncmp(key, "sweep_partial", 13))
			vsb_result_meta(r, key, "%s", c->meta[i].val);
	}
	if (!bad && partial_text(r, p, pr->done, pr->wanted, &text, &tlen))
		bad = "it does not read back to the same file";
	else if (!bad && (tlen != olen || memcmp(text, orig, olen)))
		bad = first_difference(orig, olen, text, tlen, msg, len);
	free(text);
	return bad;
}

/*
 * Continue @p from @path: 1 when there is no such file, 0 when p->res
 * and p->done now hold its repetitions, -1 (and @why) when it cannot be
 * trusted.
 */
int vsb_sweep_partial_load(struct vsb_sweep_point *p, const char *path, char *why,
			   size_t wlen)
{
	static struct vsb_result r;
	struct partial_rounds pr = { 0 };
	struct vsb_csv c;
	struct vsb_errlog log;
	char msg[512], *orig = NULL;
	const char *bad;
	size_t olen = 0;
	int ret;

	if (!vsb_sweep_exists(path))
		return 1;
	if (p->opts.trace) {
		snprintf(why, wlen, "a --trace point keeps no partial");
		return -1;
	}
	ret = vsb_read_whole(path, VSB_SWEEP_PARTIAL_MAX, &orig, &olen);
	if (ret) {
		snprintf(why, wlen, "cannot read it: %s", vsb_read_strerror(ret));
		return -1;
	}
	vsb_errlog_begin(&log);
	ret = vsb_csv_read(path, &c);
	vsb_errlog_end(&log);
	if (ret) {
		snprintf(why, wlen, "%s", log.text[0] ? log.text : "not a CSV file");
		free(orig);
		return -1;
	}
	vsb_result_init(&r, &p->opts);	/* its repeat: the partial's (rebuild) */
	bad = partial_rebuild(&c, p, &r, orig, olen, &pr, msg, sizeof(msg));
	vsb_csv_free(&c);
	free(orig);
	if (bad) {
		snprintf(why, wlen, "%s", bad);
		vsb_result_free(&r);
		return -1;
	}
	p->res = r;
	memset(&r, 0, sizeof(r));
	p->run_reps = pr.run_reps;
	p->done = pr.done;
	p->saved = pr.done;
	p->resumed = pr.done;
	return 0;
}
