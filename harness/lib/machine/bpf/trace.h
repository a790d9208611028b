/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BPF tracing of vmstat work and page allocations (libbpf CO-RE), for
 * `vmstat-bench trace` and `run --trace`.  Built only where clang,
 * bpftool, libbpf and the kernel's BTF are there (VSB_HAVE_BPF); without
 * them every entry point says so and the callers skip (exit 4).
 */
#ifndef VSB_BPF_TRACE_H
#define VSB_BPF_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "vsb.h"

struct vsb_result;

#define VSB_TRACE_NSLOTS	32	/* = VSB_TRACE_SLOTS of vmstat_trace.h */
#define VSB_TRACE_NORDERS	16

/* Counters summed since load; differences of two snapshots are a window. */
struct vsb_trace_snap {
	uint64_t t_ns;				/* CLOCK_MONOTONIC of the snapshot */
	int ncpus;				/* possible CPUs */
	uint64_t work[VSB_MAX_CPUS];		/* vmstat_update items per CPU */
	uint64_t work_ns[VSB_MAX_CPUS];
	uint64_t work_max_ns;			/* since load, not per window */
	uint64_t hist[VSB_TRACE_NSLOTS];
	uint64_t alloc[VSB_TRACE_NORDERS];	/* all CPUs */
	uint64_t freed[VSB_TRACE_NORDERS];
};

/* 0 when tracing can work here, else VSB_EXIT_SKIP and the reason. */
int vsb_trace_available(char *why, size_t len);
/* Load and attach once per process; VSB_EXIT_* after one line. */
int vsb_trace_open(void);
int vsb_trace_snapshot(struct vsb_trace_snap *s);
/* b - a into d (work_max_ns is b's). */
void vsb_trace_diff(const struct vsb_trace_snap *a, const struct vsb_trace_snap *b,
		    struct vsb_trace_snap *d);
/* libbpf-tools style log2 histogram of @n slots. */
void vsb_print_log2_hist(FILE *f, const uint64_t *slots, int n, const char *unit);
/* Address of vmstat_update() from /proc/kallsyms, 0 if unknown. */
uint64_t vsb_trace_vmstat_update_addr(void);

/*
 * --trace around one bench run: begin loads and snapshots; a bench may
 * narrow the window to its timed samples with mark_begin/mark_end (from
 * the process that called begin); end writes the counts of the window
 * into @r's metadata when @ret is 0.
 */
int vsb_trace_window_begin(struct vsb_result *r);
void vsb_trace_mark_begin(void);
void vsb_trace_mark_end(void);
void vsb_trace_window_end(struct vsb_result *r, int ret);
/* Add @src's window counts to @dst's (a sweep's rounds) and rewrite its metadata. */
void vsb_trace_merge(struct vsb_result *dst, const struct vsb_result *src);

#endif /* VSB_BPF_TRACE_H */
