/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live benches' runner (live.c): one worker per CPU, a process (own
 * mm) or a thread, pinned before it touches anything, warmed up, held
 * until the parent has read /proc/vmstat, then every sample started
 * through one barrier and timed with batch.h.  A bench is its hooks:
 * what one sample's work is, and what the parent checks afterwards.
 * page-fault and mmap (live_pf.c) are two; spawn, fallocate,
 * memcg-stat-read and isolated are others.
 *
 * The bench's @priv is set up by the parent before the workers start
 * and is read-only for them (a forked worker has its own copy); what a
 * worker reports back it writes into memory the bench mapped
 * MAP_SHARED itself.
 */
#ifndef VSB_LIVE_H
#define VSB_LIVE_H

#include <stddef.h>
#include <stdint.h>

#include "result.h"
#include "vmstat.h"

/* A worker as the hooks see it. */
struct vsb_live_wctx {
	unsigned int index;	/* 0.. */
	int cpu;		/* where it is pinned */
	long rep;		/* the timed repetition; -1 during warm-up */
	void *priv;		/* the bench's */
	void *state;		/* the worker's own, set by init */
	void *sh, *w;		/* the runner's */
};

struct vsb_live_ops {
	const char *name;	/* "spawn": a worker's failure names it (NULL: not) */
	unsigned int nworkers;	/* 0: one per CPU of --cpus, else the first N */
	/* in the worker, pinned, before its warm-up: 0, or vsb_live_fail() and -1 */
	int (*init)(struct vsb_live_wctx *w);
	/* one sample's work, in the timed batch: the operations done */
	uint64_t (*op)(struct vsb_live_wctx *w, uint64_t loops);
	/* after a timed batch: the bench's own figures into @s (NULL: none) */
	void (*sample)(struct vsb_live_wctx *w, struct vsb_sample *s);
	void (*fini)(struct vsb_live_wctx *w);
	/* the parent, before the workers start: the metadata that says what runs */
	void (*meta)(void *priv, const struct vsb_run_opts *o, struct vsb_result *r,
		     int threads);
	/* the parent, when every worker is ready (@end 0) and all are done (1) */
	void (*window)(void *priv, int end);
	/* the parent, after the samples: the sanity line */
	void (*check)(void *priv, struct vsb_result *r, const struct vsb_vmstat_snap *a,
		      const struct vsb_vmstat_snap *b, double secs);
	/* "mmap of 1 GiB failed: ..." for a worker's failed @what (NULL: plain) */
	void (*why)(void *priv, const char *what, int err, char *buf, size_t len);
};

/* Run @ops with @priv on the CPUs of @o; VSB_EXIT_* after one line. */
int vsb_live_run(const struct vsb_run_opts *o, struct vsb_result *r,
		 const struct vsb_live_ops *ops, void *priv);
/*
 * A stop request (a signal to the parent, or a worker that failed):
 * look every few hundred operations, never only between samples.
 */
int vsb_live_stopped(const struct vsb_live_wctx *w);
/* The worker's call @what failed with errno: the run stops, said once. */
void vsb_live_fail(struct vsb_live_wctx *w, const char *what);
/* "128 MiB" */
const char *vsb_live_human(unsigned long long bytes, char *buf, size_t len);
#define THP_ENABLED	"/sys/kernel/mm/transparent_hugepage/enabled"
/* "always [madvise] never" -> "madvise"; "" without THP */
void vsb_live_thp_mode(char *buf, size_t len);
/*
 * --size for every worker of @o at once under half of MemAvailable (the
 * bound page-fault's mappings and fallocate's files share): 0, else
 * VSB_EXIT_USAGE after one line saying they would @what more.  An
 * unreadable MemAvailable is no bound.
 */
int vsb_live_size_check(const struct vsb_run_opts *o, unsigned long long size,
			const char *what);

#endif /* VSB_LIVE_H */
