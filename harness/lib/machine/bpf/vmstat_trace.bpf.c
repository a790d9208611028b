// SPDX-License-Identifier: GPL-2.0
/*
 * What the kernel's vmstat machinery does while a workload runs: each
 * vmstat_update work item (the periodic fold of a CPU's counter diffs,
 * queued every vm.stat_interval by vmstat_shepherd) with its duration,
 * and page allocations and frees by order.
 *
 * BTF-typed tracepoints (tp_btf) are used rather than classic ones:
 * they need no tracefs mount, get the tracepoint's own arguments, and
 * cost less per event, which matters for mm_page_alloc under a page
 * fault storm.  Everything is counted in a one-element per-CPU array so
 * each CPU only ever writes its own copy: no atomics, no cache lines
 * bouncing between the CPUs whose cost is being measured.
 *
 * (cppcheck does not know libbpf's SEC(); clang -Wall -Werror checks
 * this file instead.)
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "vmstat_trace.h"

char LICENSE[] SEC("license") = "GPL";

/* vmstat_update()'s address, from /proc/kallsyms, set before load */
const volatile __u64 targ_vmstat_update = 0;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct vsb_trace_cpu);
} counts SEC(".maps");

static __always_inline struct vsb_trace_cpu *mine(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&counts, &zero);
}

/* floor(log2(v)) without loops, for the verifier's sake */
static __always_inline __u32 log2_u64(__u64 v)
{
	__u32 r = 0, s;

	s = (v > 0xffffffffULL) << 5; v >>= s; r |= s;
	s = (v > 0xffffULL) << 4; v >>= s; r |= s;
	s = (v > 0xffULL) << 3; v >>= s; r |= s;
	s = (v > 0xfULL) << 2; v >>= s; r |= s;
	s = (v > 0x3ULL) << 1; v >>= s; r |= s;
	r |= (v >> 1);
	return r;
}

// cppcheck-suppress unknownMacro
SEC("tp_btf/workqueue_execute_start")
int BPF_PROG(wq_start, struct work_struct *work)
{
	struct vsb_trace_cpu *c;

	if ((__u64)BPF_CORE_READ(work, func) != targ_vmstat_update)
		return 0;
	c = mine();
	if (!c)
		return 0;
	c->start_ns = bpf_ktime_get_ns();
	c->start_work = (__u64)work;
	return 0;
}

/*
 * The end is matched by the work_struct the start recorded on this CPU,
 * not by the function argument: the verifier does not let a tp_btf
 * program read a function-pointer argument, and the work item itself
 * may be freed by the time it ends (not vmstat's, but others').
 */
// cppcheck-suppress unknownMacro
SEC("tp_btf/workqueue_execute_end")
int BPF_PROG(wq_end, struct work_struct *work)
{
	struct vsb_trace_cpu *c = mine();
	__u64 ns;
	__u32 slot;

	/* an item that started before we attached has no start time */
	if (!c || !c->start_ns || c->start_work != (__u64)work)
		return 0;
	ns = bpf_ktime_get_ns() - c->start_ns;
	c->start_ns = 0;
	c->work++;
	c->work_ns += ns;
	if (ns > c->work_max_ns)
		c->work_max_ns = ns;
	slot = log2_u64(ns);
	if (slot >= VSB_TRACE_SLOTS)
		slot = VSB_TRACE_SLOTS - 1;
	c->hist[slot]++;
	return 0;
}

// cppcheck-suppress unknownMacro
SEC("tp_btf/mm_page_alloc")
int BPF_PROG(page_alloc, struct page *page, unsigned int order)
{
	struct vsb_trace_cpu *c;

	if (!page)	/* the tracepoint fires for failed allocations too */
		return 0;
	c = mine();
	if (!c)
		return 0;
	if (order >= VSB_TRACE_ORDERS)
		order = VSB_TRACE_ORDERS - 1;
	c->alloc[order]++;
	return 0;
}

// cppcheck-suppress unknownMacro
SEC("tp_btf/mm_page_free")
int BPF_PROG(page_free, struct page *page, unsigned int order)
{
	struct vsb_trace_cpu *c = mine();

	if (!c)
		return 0;
	if (order >= VSB_TRACE_ORDERS)
		order = VSB_TRACE_ORDERS - 1;
	c->freed[order]++;
	return 0;
}
