/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exact_result.h - what a result counted in exact mode holds: unit insn,
 * the instruction classes in its PMU columns, each sample's figures from
 * its window (kmod/uapi/vsb_exact.h).
 */
#ifndef VSB_EXACT_RESULT_H
#define VSB_EXACT_RESULT_H

#include "kmod/uapi/vsb_exact.h"
#include "result.h"

/*
 * The result's unit, event and mix columns: counted in the module's
 * windows (@user 0), or in a user-space worker's under qemu-x86_64.
 */
void vsb_exact_unit(struct vsb_result *r, int user);
/* Sample @s's elapsed and mix from its window. */
void vsb_exact_sample(const struct vsb_exact_window *w, struct vsb_sample *s);

/*
 * Window @w is a kept sample's: the result's exact_windows metadata
 * ("boot=BOOT_ID vcpu:first-last ...": the guest's boot, runs of
 * window numbers) grows by it, which is
 * how the profile (docs/exact.md, Profiles) finds a point's windows.
 */
void vsb_exact_note_window(struct vsb_result *r, const struct vsb_exact_window *w);

#endif /* VSB_EXACT_RESULT_H */
