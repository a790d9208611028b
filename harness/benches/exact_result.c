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

/* a run "v:a-b" of @list that ends at window @seq - 1 of @vcpu, or NULL */
static char *run_ending_before(char *list, unsigned int vcpu, uint64_t seq)
{
	char *p = list;

	while (p && *p) {
		unsigned int v;
		unsigned long long a, b;
		int n = 0;

		if (sscanf(p, "%u:%llu-%llu%n", &v, &a, &b, &n) == 3 && v == vcpu &&
		    b + 1 == seq)
			return p;
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	return NULL;
}

void vsb_exact_note_window(struct vsb_result *r, const struct vsb_exact_window *w)
{
	const char *old = vsb_result_meta_of(r, "exact_windows");
	char list[1024], *run, *rest;
	unsigned int v;
	unsigned long long a, b;
	int n = 0;

	if (old && !strcmp(old, "too many runs"))
		return;
	snprintf(list, sizeof(list), "%s", old ? old : "");
	run = run_ending_before(list, w->vcpu, w->seq);
	if (run && sscanf(run, "%u:%llu-%llu%n", &v, &a, &b, &n) == 3) {
		rest = run + n;
		vsb_result_meta(r, "exact_windows", "%.*s%u:%llu-%llu%s", (int)(run - list),
				list, v, a, (unsigned long long)w->seq, rest);
		return;
	}
	if (!*list) {	/* the guest's boot: its folder of symbols and blocks */
		char boot[64];

		if (vsb_read_file_str("/proc/sys/kernel/random/boot_id", boot, sizeof(boot)))
			snprintf(boot, sizeof(boot), "unknown");
		snprintf(list, sizeof(list), "boot=%s", boot);
	}
	if (strlen(list) + 48 >= sizeof(list)) {	/* too scattered: none at all */
		vsb_result_meta(r, "exact_windows", "too many runs");
		return;
	}
	vsb_result_meta(r, "exact_windows", "%s %u:%llu-%llu", list, w->vcpu, (unsigned long long)w->seq, (unsigned long long)w->seq);
}
