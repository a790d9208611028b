// SPDX-License-Identifier: GPL-2.0
/*
 * exact_result.c - a result counted in exact mode (exact_result.h): its
 * unit (insn), event and mix columns, and a sample's figures from the
 * window the TCG plugin counted.  The mix rides in the PMU columns (one
 * "event" per class), so every writer, the summary's per-op medians and
 * compare carry it unchanged.
 */
#include <stdio.h>
#include <string.h>

#include "vsb.h"
#include "exact_record.h"
#include "exact_result.h"
#include "exact_windows.h"

void vsb_exact_unit(struct vsb_result *r, int user)
{
	int k;

	snprintf(r->unit, sizeof(r->unit), "insn");
	/* a CSV cell of every sample row: no comma */
	snprintf(r->event, sizeof(r->event), "%s", user ?
		 "instructions of the worker's thread between the batch's markers "
		 "(qemu-x86_64 with TCG plugin vsb-insn)" :
		 "instructions of the worker's vCPU between the module's markers "
		 "(QEMU TCG plugin vsb-insn)");
	snprintf(r->plm, sizeof(r->plm), user ? "u" : "k");
	r->npmu = VSB_EXACT_RESULT_CLASSES;
	for (k = 0; k < VSB_EXACT_RESULT_CLASSES; k++)
		snprintf(r->pmu_event[k], sizeof(r->pmu_event[k]), "tcg:%s",
			 vsb_exact_classes[k].name);
	r->pmu_cycles = -1;
	r->pmu_instr = 0;
	vsb_result_meta(r, "pmu_events", "exact mode: instruction classes of each "
			"window from the TCG plugin (per vCPU; no PMU, no time)");
	if (user)
		vsb_result_meta(r, "counted_by", "exact mode in user space: "
				"qemu-x86_64 with TCG plugin vsb-insn, per thread, "
				"between marker NOPs around each batch "
				"(docs/model-check.md)");
	else
		vsb_result_meta(r, "counted_by", "exact mode: QEMU TCG plugin "
				"vsb-insn, per vCPU, between marker NOPs around "
				"each batch (docs/exact.md)");
}

void vsb_exact_sample(const struct vsb_exact_window *w, struct vsb_sample *s)
{
	int k;

	s->elapsed = w->count[VSB_EXACT_INSN];
	for (k = 0; k < VSB_EXACT_RESULT_CLASSES; k++)
		s->pmu[k] = w->count[vsb_exact_classes[k].rec];
	s->pmu_scale = 1.0;
	s->multiplexed = 0;
}

/* a list grown past its cell says so: the point has no profile */
void vsb_exact_note_window(struct vsb_result *r, const struct vsb_exact_window *w)
{
	const char *old = vsb_result_meta_of(r, "exact_windows");
	char list[1024], boot[64] = "";

	if (old && !strcmp(old, VSB_EXACT_WINDOWS_FULL))
		return;
	snprintf(list, sizeof(list), "%s", old ? old : "");
	/* the first window: the guest's boot, its folder of symbols and blocks */
	if (!*list && vsb_read_file_str("/proc/sys/kernel/random/boot_id", boot,
					sizeof(boot)))
		snprintf(boot, sizeof(boot), "unknown");
	if (vsb_exact_windows_add(list, sizeof(list), boot, w->vcpu, w->seq))
		snprintf(list, sizeof(list), "%s", VSB_EXACT_WINDOWS_FULL);
	vsb_result_meta(r, "exact_windows", "%s", list);
}
