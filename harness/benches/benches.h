/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The benches the CLI knows, where each can run, and how to run it.
 *
 * A bench is a descriptor defined at the end of its own file, as
 * stress-ng's stressors end with their stressor_info_t:
 *
 *	const struct vsb_bench vsb_bench_isolated = {
 *		.name = "isolated", .sides = VSB_SIDE_LIVE, ...
 *	};
 *
 * and one row of benches.c's VSB_BENCH_TABLE naming it.  Nothing else
 * knows a bench by name: its run functions and check hook are static
 * in its file, reached through the descriptor.
 */
#ifndef VSB_BENCHES_H
#define VSB_BENCHES_H

#include <stddef.h>

#include "bench/variants.h"
#include "bench_model.h"
#include "result.h"

#define VSB_SIDE_LIVE	0x4u	/* the running kernel's own paths, from user space */

#define VSB_BENCH_VARIANTS 0x1u	/* takes --variant */

struct vsb_bench {
	const char *name;
	unsigned int sides;
	unsigned int flags;
	const char *desc;
	int (*run_user)(const struct vsb_run_opts *o, struct vsb_result *r);
	int (*run_kmod)(const struct vsb_run_opts *o, struct vsb_result *r);
	/*
	 * The bench's own options, once the backend is chosen (last of
	 * vsb_bench_check); NULL when it has none.  As stress-ng's
	 * stressors carry supported(): the bench, not opts.c, knows.
	 */
	int (*check)(const struct vsb_bench *b, struct vsb_run_opts *o);
	/*
	 * The rows of the option table (lib/model/opts.c) that this bench
	 * reads and not every bench does, space-separated; "" for none.
	 * An option some other bench takes, given to this one, is refused:
	 * it would change nothing and still enter the point's key, so
	 * compare could not match it.  An option no bench names here is
	 * one every bench takes (--cpus, --loops, --events, ...).
	 */
	const char *takes;
	/*
	 * A sweep point's later round @src merged into @dst (the model's
	 * figures are already, vsb_bench_take_round): the bench's own
	 * lines that describe every repetition, made to describe @src's
	 * too.  NULL when its lines describe the run, not its samples.
	 */
	void (*merge)(struct vsb_result *dst, const struct vsb_result *src);
	/*
	 * What the layers below know of it (bench_model.h): its text
	 * header, its label's columns, its charts.
	 */
	struct vsb_bench_model model;
};

/* The table (benches.c), in `vmstat-bench list` order. */
extern const struct vsb_bench *const vsb_benches[];
extern const size_t vsb_bench_count;

const struct vsb_bench *vsb_bench_find(const char *name);
int vsb_bench_check(const struct vsb_bench *b, struct vsb_run_opts *o);
/* check.c: the whole option set, before anything runs */
int vsb_run_opts_finish(struct vsb_run_opts *o);
int vsb_bench_run(const struct vsb_run_opts *o, struct vsb_result *r);
/*
 * The TSC rate @r's ticks are in, into its record (tsc_hz), with @who
 * timed them (tsc_hz_from): calibrated in this process, the one that
 * timed the samples, once a process (clock.c).  Called where a result
 * is born, `run`'s and a sweep point's first round, never by the
 * process that only writes the record; a sweep's later worker
 * processes find the line in the point's partial.
 */
void vsb_bench_note_tsc(struct vsb_result *r, const char *who);
/*
 * A sweep point's round @src (one vsb_bench_run() of its repetitions)
 * into the point's result @dst, which holds @done repetitions so far:
 * the first round becomes it whole, a later one is merged in.  @src is
 * emptied either way.
 */
void vsb_bench_take_round(struct vsb_result *dst, struct vsb_result *src,
			  unsigned int done);

#endif /* VSB_BENCHES_H */
