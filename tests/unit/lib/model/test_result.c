// SPDX-License-Identifier: GPL-2.0
/*
 * vsb_result_merge_round(): a sweep runs each point as rounds of one
 * repetition, each a run of its own, and a point must report all of them.
 * Synthetic rounds: repetition numbers follow the round, a failed sanity
 * check anywhere sticks, the applied and counted totals add up, a
 * migration or multiplexed counters in any round mark the point, and the
 * drift figures keep the worst max and p99 and the weighted means.  And
 * the CSV writers keep a value with commas in one cell, and a record of
 * metadata lines made apart (the environment's) is taken whole, and
 * labelled lists of figures read back as they were written.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csvread.h"
#include "opts.h"
#include "result.h"
#include "result_load.h"
#include "tap.h"

static struct vsb_run_opts opts;

static const char *meta(const struct vsb_result *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->nmeta; i++)
		if (!strcmp(r->meta[i].key, key))
			return r->meta[i].val;
	return "";
}

/* One round: @n samples of worker 0..n-1, rep 0, the given totals. */
static void round_init(struct vsb_result *r, int n, long long applied, int mux)
{
	int i;

	vsb_result_init(r, &opts);
	for (i = 0; i < n; i++) {
		struct vsb_sample s = { .thread = (unsigned int)i, .cpu = i, .rep = 0,
					.ops = 1000, .elapsed = 5000, .ns = 2000,
					.pmu_scale = mux ? 0.5 : 1.0, .multiplexed = mux };

		vsb_result_add(r, &s);
	}
	r->npmu = 1;
	vsb_result_note_workers(r, -1, (int)opts.allow_multiplex);	/* as a bench does */
	r->applied = r->counted = applied;
	r->sanity_ok = 1;
	snprintf(r->sanity, sizeof(r->sanity), "ok: shared + diffs = %lld applied", applied);
}

static void set_drift(struct vsb_result *r, size_t n, double max, double p99, double mean,
		      double smax, double smean)
{
	r->have_drift = 1;
	r->drift_samples = n;
	r->drift_max = max;
	r->drift_p99 = p99;
	r->drift_mean = mean;
	r->stale_max_us = smax;
	r->stale_p99_us = smax / 2;
	r->stale_mean_us = smean;
}

static void test_totals_and_reps(void)
{
	struct vsb_result dst, r;
	unsigned int rep;
	size_t i;
	int ok = 1;

	round_init(&dst, 2, 400, 0);
	for (rep = 1; rep < 3; rep++) {
		round_init(&r, 2, 400, 0);
		vsb_result_merge_round(&dst, &r, rep);
		vsb_result_free(&r);
	}
	TAP_OK(dst.nsamples == 6, "3 rounds x 2 workers: 6 samples (%zu)", dst.nsamples);
	for (i = 0; i < dst.nsamples; i++)
		ok &= dst.samples[i].rep == i / 2;
	TAP_OK(ok, "repetition numbers follow the round: 0 0 1 1 2 2");
	TAP_OK(dst.applied == 1200 && dst.counted == 1200,
	       "totals add up: applied %lld, counted %lld", dst.applied, dst.counted);
	TAP_OK(dst.sanity_ok && strstr(dst.sanity, "ok in each of 3 rounds, the last: ok:"),
	       "sanity says every round was checked: '%s'", dst.sanity);
	TAP_OK(!dst.migrated && !dst.multiplexed && dst.mux_samples == 0,
	       "no migration, no multiplexing");

	/* round 4 fails its check and migrates; round 5 is clean again */
	round_init(&r, 2, 400, 0);
	r.counted = 399;
	r.sanity_ok = 0;
	r.migrated = 1;
	strcpy(r.sanity, "FAILED: item 0: counted 399, applied 400");
	vsb_result_merge_round(&dst, &r, 3);
	vsb_result_free(&r);
	round_init(&r, 2, 400, 0);
	vsb_result_merge_round(&dst, &r, 4);
	vsb_result_free(&r);
	TAP_OK(!dst.sanity_ok && !strcmp(dst.sanity, "FAILED: item 0: counted 399, applied 400"),
	       "a failed round's verdict sticks through a later clean one");
	TAP_OK(dst.migrated, "a migration in any round marks the point");
	TAP_OK(dst.applied == 2000 && dst.counted == 1999,
	       "the totals show the miscount: %lld vs %lld", dst.applied, dst.counted);
	vsb_result_free(&dst);
}

static void test_multiplexed(void)
{
	struct vsb_result dst, r;

	round_init(&dst, 1, 10, 0);
	round_init(&r, 1, 10, 1);
	vsb_result_merge_round(&dst, &r, 1);
	vsb_result_free(&r);
	TAP_OK(dst.mux_samples == 1 && dst.multiplexed,
	       "a multiplexed second round marks the point untrusted (%d samples)",
	       dst.mux_samples);
	TAP_OK(!strncmp(meta(&dst, "multiplexed"), "1 of 2 samples", 14),
	       "metadata counts over both rounds: '%s'", meta(&dst, "multiplexed"));
	vsb_result_free(&dst);

	opts.allow_multiplex = 1;
	round_init(&dst, 1, 10, 1);
	round_init(&r, 1, 10, 1);
	vsb_result_merge_round(&dst, &r, 1);
	vsb_result_free(&r);
	TAP_OK(dst.mux_samples == 2 && !dst.multiplexed &&
	       strstr(meta(&dst, "multiplexed"), "2 of 2 samples") &&
	       strstr(meta(&dst, "multiplexed"), ", allowed"),
	       "--allow-multiplex: counted, allowed, not untrusted");
	vsb_result_free(&dst);
	opts.allow_multiplex = 0;
}

static void test_drift(void)
{
	struct vsb_result dst, r;

	round_init(&dst, 1, 10, 0);
	set_drift(&dst, 100, 50, 40, 10, 900, 30);
	round_init(&r, 1, 10, 0);
	set_drift(&r, 300, 80, 20, 2, 100, 10);
	vsb_result_merge_round(&dst, &r, 1);
	vsb_result_free(&r);
	TAP_OK(dst.have_drift && dst.drift_samples == 400, "drift samples add up (%zu)",
	       dst.drift_samples);
	TAP_OK(dst.drift_max == 80 && dst.drift_p99 == 40 && dst.stale_max_us == 900 &&
	       dst.stale_p99_us == 450, "max and p99: the worst round's");
	TAP_NEAR(dst.drift_mean, (100 * 10 + 300 * 2) / 400.0, 1e-9,
		 "drift mean weighted by samples");
	TAP_NEAR(dst.stale_mean_us, (100 * 30 + 300 * 10) / 400.0, 1e-9,
		 "staleness mean weighted by samples");
	TAP_OK(strstr(meta(&dst, "drift"), "400 reader samples over 2 rounds") != NULL,
	       "drift metadata rewritten: '%.60s'", meta(&dst, "drift"));
	vsb_result_free(&dst);

	/* a first round whose reader took no samples: the second's figures alone */
	round_init(&dst, 1, 10, 0);
	round_init(&r, 1, 10, 0);
	set_drift(&r, 10, 7, 6, 3, 5, 1);
	vsb_result_merge_round(&dst, &r, 1);
	vsb_result_free(&r);
	TAP_OK(dst.have_drift && dst.drift_samples == 10 && dst.drift_max == 7 &&
	       dst.drift_mean == 3, "an empty round adds nothing to the drift figures");
	vsb_result_free(&dst);
}

/*
 * A guest command line with commas (isolcpus=1,3) in the raw and the
 * summary CSV: each row keeps one cell per column, the commas as ';'.
 */
static void test_comma_in_param(void)
{
	static const char *const kinds[] = { "raw", "summary" };
	char path[] = "/tmp/vsb-test-result-XXXXXX";
	struct vsb_result r;
	struct vsb_csv c;
	int fd, k, col;
	FILE *f;

	snprintf(opts.guest_cmdline, sizeof(opts.guest_cmdline), "nohz_full=1,3 isolcpus=1,3");
	round_init(&r, 2, 2000, 0);
	r.nthreads = 2;		/* as a bench sets it: the summary divides by it */
	for (k = 0; k < 2; k++) {
		fd = mkstemp(path);
		f = fd < 0 ? NULL : fdopen(fd, "w");
		if (!f) {
			TAP_OK(0, "%s CSV: a temporary file", kinds[k]);
			continue;
		}
		if (k)
			vsb_result_write_summary_csv(&r, f);
		else
			vsb_result_write(&r, f, "csv");
		fclose(f);
		TAP_OK(!vsb_csv_read(path, &c), "%s CSV with isolcpus=1,3 reads back whole", kinds[k]);
		col = vsb_csv_col(&c, "guest_cmdline");
		TAP_OK(c.nrows >= 1 && col >= 0 &&
		       !strcmp(vsb_csv_cell(&c, 0, col), "nohz_full=1;3 isolcpus=1;3"),
		       "%s CSV: guest_cmdline is one cell, its commas ';'", kinds[k]);
		vsb_csv_free(&c);
		unlink(path);
		snprintf(path, sizeof(path), "/tmp/vsb-test-result-XXXXXX");
	}
	vsb_result_free(&r);
	snprintf(opts.guest_cmdline, sizeof(opts.guest_cmdline), "none");
}

/* @path = @r written as a raw CSV; 0, or -1 when it could not be */
static int write_raw(const struct vsb_result *r, char *path)
{
	int fd = mkstemp(path);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");

	if (!f)
		return -1;
	vsb_result_write(r, f, "csv");
	return fclose(f) ? -1 : 0;
}

/* what vsb_result_read_samples() says of the raw CSV at @path */
static const char *read_back(const char *path, struct vsb_result *back, long rounds)
{
	struct vsb_csv c;
	const char *bad;

	vsb_result_init(back, &opts);
	back->npmu = 1;		/* as the partial's state line says */
	if (vsb_csv_read(path, &c))
		return "not read";
	bad = vsb_result_read_samples(&c, back, rounds);
	vsb_csv_free(&c);
	return bad;
}

/*
 * The raw CSV's reader (result_read.c) gives back the samples the
 * writer wrote, and refuses a count with a leading zero, as numbers.c's
 * one integer syntax does, instead of reading 01 as 1.
 */
static void test_read_back(void)
{
	char path[] = "/tmp/vsb-test-result-XXXXXX", cmd[128];
	struct vsb_result r, back;
	const char *bad;

	round_init(&r, 2, 2000, 0);
	snprintf(r.pmu_event[0], sizeof(r.pmu_event[0]), "cycles");
	r.samples[1].rep = 1;
	r.samples[0].elapsed = 5003;	/* a cell no parameter column holds */
	r.samples[1].pmu[0] = 18446744073709551615ull;	/* the writer's widest */
	if (write_raw(&r, path)) {
		TAP_OK(0, "raw CSV: a temporary file");
		vsb_result_free(&r);
		return;
	}
	TAP_OK(!vsb_rl_written_by_a_run(path),
	       "a raw CSV without the writer's line is not taken for a run's");
	unlink(path);
	snprintf(path, sizeof(path), "/tmp/vsb-test-result-XXXXXX");
	vsb_result_meta(&r, VSB_META_WRITER, "0.0 (git test, debug build)");
	if (write_raw(&r, path)) {
		TAP_OK(0, "raw CSV: a temporary file");
		vsb_result_free(&r);
		return;
	}
	TAP_OK(vsb_rl_written_by_a_run(path),
	       "with the line the writer writes for VSB_META_WRITER, it is");
	bad = read_back(path, &back, 2);
	TAP_OK(!bad && back.nsamples == 2 && back.samples[1].rep == 1 &&
	       back.samples[0].ops == 1000 && back.samples[0].elapsed == 5003 &&
	       back.samples[1].cpu == 1 && back.samples[1].pmu[0] == r.samples[1].pmu[0],
	       "the reader gives back the samples the writer wrote (%s)", bad ? bad : "read");
	vsb_result_free(&back);
	TAP_OK(read_back(path, &back, 1) != NULL,
	       "a repetition beyond the rounds asked for is refused");
	vsb_result_free(&back);
	/* the elapsed cell of the first row: ",5003," -> ",05003," */
	snprintf(cmd, sizeof(cmd), "sed -i 's/,5003,/,05003,/' %s", path);
	bad = system(cmd) ? "sed failed" : read_back(path, &back, 2);
	TAP_OK(bad && !strcmp(bad, "a bad elapsed cell"),
	       "an elapsed cell with a leading zero is refused: %s", bad ? bad : "taken");
	vsb_result_free(&back);
	unlink(path);
	vsb_result_free(&r);
}

/*
 * A record made apart from the result (meta.c's), taken whole: each of
 * its lines replaces the result's line of its key where it stands, the
 * rest follow in the record's order, one line each whatever they held.
 */
static void test_take_meta(void)
{
	static struct vsb_meta_rec m;
	struct vsb_result r;
	size_t i;

	vsb_result_init(&r, &opts);
	vsb_result_meta(&r, "live", "from the bench");
	vsb_result_meta(&r, "date", "earlier");
	m.n = 0;
	vsb_meta_rec_add(&m, "date", "2026-12-04");
	vsb_meta_rec_add(&m, "kernel", "Linux\n6.1");
	vsb_meta_rec_add(&m, "kernel", "Linux 6.12\r\n");
	vsb_meta_rec_add(&m, "unit", "tsc");
	TAP_OK(m.n == 3 && !strcmp(m.kv[1].val, "Linux 6.12  "),
	       "a record's key set twice is one line, its newlines blanks (%zu)", m.n);
	vsb_result_take_meta(&r, &m);
	TAP_OK(r.nmeta == 4 && !strcmp(r.meta[0].key, "live") &&
	       !strcmp(r.meta[1].key, "date") && !strcmp(meta(&r, "date"), "2026-12-04") &&
	       !strcmp(r.meta[2].key, "kernel") && !strcmp(r.meta[3].key, "unit"),
	       "taken whole: the result's date replaced in place, the rest appended in order");
	for (i = m.n; i < VSB_META_REC_MAX; i++) {
		char key[16];

		snprintf(key, sizeof(key), "k%zu", i);
		vsb_meta_rec_add(&m, key, "%zu", i);
	}
	vsb_meta_rec_add(&m, "one-too-many", "x");
	vsb_meta_rec_add(&m, "unit", "ns");
	TAP_OK(m.n == VSB_META_REC_MAX && !strcmp(m.kv[2].val, "ns"),
	       "a full record drops a new key (with a warning) and still replaces one it has");
	vsb_result_free(&r);
}

/*
 * Labelled lists, one figure a repetition (isolated_windows): written
 * and read back figure for figure, "-" for none, each label found among
 * the others; a line that would not fit is left as it was, and what
 * the writer never writes does not read.
 */
static void test_meta_lists(void)
{
	const double a[] = { 3, 0, 12 }, b[] = { 12.25, NAN, 4 };
	double v[8];
	char buf[96] = "";

	TAP_OK(!vsb_meta_list_put(buf, sizeof(buf), "interruptions", a, 3, 0) &&
	       !vsb_meta_list_put(buf, sizeof(buf), "worst us", b, 3, 1) &&
	       !strcmp(buf, "interruptions 3;0;12; worst us 12.2;-;4.0"),
	       "two lists in one value: %s", buf);
	TAP_OK(vsb_meta_list_get(buf, "worst us", v, 8) == 3 && v[0] == 12.2 &&
	       isnan(v[1]) && v[2] == 4, "the second list read back, '-' as none");
	TAP_OK(vsb_meta_list_get(buf, "interruptions", v, 8) == 3 && v[2] == 12,
	       "the first list read back");
	TAP_OK(vsb_meta_list_get(buf, "worst", v, 8) == -1 &&
	       vsb_meta_list_get(buf, "total us", v, 8) == -1,
	       "a label that is not one, or not there, reads as none");
	TAP_OK(vsb_meta_list_get(buf, "interruptions", v, 2) == -1,
	       "more figures than room: refused, not cut");
	TAP_OK(vsb_meta_list_put(buf, 50, "total us", a, 3, 1) == -1 &&
	       !strcmp(buf, "interruptions 3;0;12; worst us 12.2;-;4.0"),
	       "a list that does not fit leaves the value as it was");
	TAP_OK(vsb_meta_list_get("runs 1;x;3", "runs", v, 8) == -1 &&
	       vsb_meta_list_get("runs 1;;3", "runs", v, 8) == -1 &&
	       vsb_meta_list_get("runs 01;2", "runs", v, 8) == -1 &&
	       vsb_meta_list_get("runs 1 2", "runs", v, 8) == -1,
	       "a figure that does not read refuses the list");
}

int main(void)
{
	vsb_run_opts_defaults(&opts);
	test_totals_and_reps();
	test_multiplexed();
	test_drift();
	test_comma_in_param();
	test_read_back();
	test_take_meta();
	test_meta_lists();
	return tap_done();
}
