// SPDX-License-Identifier: GPL-2.0
/*
 * benches/exact_result.c's note of a kept sample's window: the result's
 * exact_windows line names this boot and grows run by run, and a list
 * past its cell says so, once, and stays so (the point then has no
 * profile; its counts stand).
 */
#include <stdio.h>
#include <string.h>

#include "exact_result.h"
#include "exact_windows.h"
#include "opts.h"
#include "result.h"
#include "tap.h"
#include "vsb.h"

int main(void)
{
	struct vsb_exact_window w = { 0 };
	struct vsb_run_opts o;
	struct vsb_result r;
	char boot[64], want[256];
	const char *got;
	unsigned long long i;

	vsb_run_opts_defaults(&o);
	vsb_result_init(&r, &o);
	if (vsb_read_file_str("/proc/sys/kernel/random/boot_id", boot, sizeof(boot)))
		snprintf(boot, sizeof(boot), "unknown");
	for (i = 0; i < 3; i++) {
		w.vcpu = 0;
		w.seq = i;
		vsb_exact_note_window(&r, &w);
		w.vcpu = 1;
		vsb_exact_note_window(&r, &w);
	}
	snprintf(want, sizeof(want), "boot=%s 0:0-2 1:0-2", boot);
	got = vsb_result_meta_of(&r, "exact_windows");
	TAP_OK(got && !strcmp(got, want), "two vCPUs' windows, a run each: %s", got);
	w.vcpu = 0;
	for (i = 10; i < 1000; i += 2) {	/* a gap each: a run each */
		w.seq = i;
		vsb_exact_note_window(&r, &w);
	}
	got = vsb_result_meta_of(&r, "exact_windows");
	TAP_OK(got && !strcmp(got, VSB_EXACT_WINDOWS_FULL),
	       "past its cell: \"%s\"", got ? got : "(none)");
	w.seq = 1001;
	vsb_exact_note_window(&r, &w);
	got = vsb_result_meta_of(&r, "exact_windows");
	TAP_OK(got && !strcmp(got, VSB_EXACT_WINDOWS_FULL), "and it stays so");
	vsb_result_free(&r);
	return tap_done();
}
