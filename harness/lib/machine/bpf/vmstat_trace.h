/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Types shared by the BPF program (vmstat_trace.bpf.c) and its loader
 * (trace.c): plain fixed-width fields only, the same layout on both sides.
 */
#ifndef VSB_VMSTAT_TRACE_H
#define VSB_VMSTAT_TRACE_H

#define VSB_TRACE_SLOTS		32	/* log2 buckets of vmstat_update ns */
#define VSB_TRACE_ORDERS	16	/* page orders counted; larger clamp here */

/*
 * One per CPU (a per-CPU array of one element): each CPU writes only its
 * own copy, so no atomics are needed and nothing bounces between CPUs
 * while the traced workload runs.
 */
struct vsb_trace_cpu {
	__u64 work;			/* vmstat_update work items executed */
	__u64 work_ns;			/* their summed run time */
	__u64 work_max_ns;
	__u64 start_ns;			/* of the item running now, 0 if none */
	__u64 start_work;		/* its work_struct, to pair start and end */
	__u64 hist[VSB_TRACE_SLOTS];	/* log2(ns) of each item */
	__u64 alloc[VSB_TRACE_ORDERS];	/* mm_page_alloc by order */
	__u64 freed[VSB_TRACE_ORDERS];	/* mm_page_free by order */
};

#endif /* VSB_VMSTAT_TRACE_H */
