// SPDX-License-Identifier: GPL-2.0
/*
 * exact_record.c - reading exact mode's window file (exact_record.h).
 *
 * A record that is not the one asked for means the plugin and the
 * module disagree on which window is which: the plugin was not loaded,
 * the module was loaded twice in one boot (its numbering restarts, the
 * plugin's does not), or a run outgrew the ring.  Each is said as such,
 * because each has a different cure.
 */
#include <string.h>

#include "vsb.h"
#include "exact_record.h"

const struct vsb_exact_class vsb_exact_classes[VSB_EXACT_RESULT_CLASSES] = {
	[VSB_MIX_INSN] = { VSB_EXACT_INSN, "insn" },
	[VSB_MIX_LOCK] = { VSB_EXACT_LOCK, "lock" },
	[VSB_MIX_CMPXCHG] = { VSB_EXACT_CMPXCHG, "cmpxchg" },
	[VSB_MIX_IRQ] = { VSB_EXACT_IRQ, "irq" },
	[VSB_MIX_POPF] = { VSB_EXACT_POPF, "popf" },
	[VSB_MIX_SERIAL] = { VSB_EXACT_SERIAL_INSN, "serializing" },
	[VSB_MIX_LOADS] = { VSB_EXACT_LOADS, "loads" },
	[VSB_MIX_STORES] = { VSB_EXACT_STORES, "stores" },
	[VSB_MIX_PUSHF] = { VSB_EXACT_PUSHF, "pushf" },
	[VSB_MIX_CLI] = { VSB_EXACT_CLI, "cli" },
	[VSB_MIX_STI] = { VSB_EXACT_STI, "sti" },
	[VSB_MIX_PAUSE] = { VSB_EXACT_PAUSE, "pause" },
	[VSB_MIX_CMPXCHG_LOCAL] = { VSB_EXACT_CMPXCHG_LOCAL, "cmpxchg_local" },
	[VSB_MIX_REP_ITERS] = { VSB_EXACT_REP_ITERS, "rep_iters" },
	[VSB_MIX_REP_BYTES] = { VSB_EXACT_REP_BYTES, "rep_bytes" },
};

uint64_t vsb_exact_offset(unsigned int cpu, uint64_t seq)
{
	return VSB_EXACT_OFFSET(cpu, seq);
}

int vsb_exact_record_take(const void *buf, unsigned int cpu, uint64_t seq,
			  struct vsb_exact_window *out)
{
	struct vsb_exact_window w;

	memcpy(&w, buf, sizeof(w));
	if (w.magic != VSB_EXACT_MAGIC) {
		vsb_err("exact: no count for window %llu of CPU %u: the TCG plugin "
			"wrote nothing there (was QEMU started with it? ci/vm-run.sh "
			"--exact does)", (unsigned long long)seq, cpu);
		return VSB_EXIT_ERROR;
	}
	if (w.vcpu != cpu || w.seq != seq) {
		vsb_err("exact: window %llu of CPU %u holds the plugin's window %llu "
			"of vCPU %u: the module was loaded twice in this boot, or a "
			"run took more than %d samples a CPU",
			(unsigned long long)seq, cpu, (unsigned long long)w.seq,
			w.vcpu, VSB_EXACT_RING);
		return VSB_EXIT_ERROR;
	}
	*out = w;
	return 0;
}
