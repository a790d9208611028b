/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Timed-window marks: benches call vsb_window_begin()/vsb_window_end()
 * at their sample boundaries (between samples, outside the timed code),
 * and a monitor (monitor.c) lines its time series up with them.  When no
 * monitor listens the calls cost one relaxed load.
 */
#ifndef VSB_WINDOW_H
#define VSB_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#define VSB_WINDOW_MAX	4096	/* marks kept per listening period */

struct vsb_window_mark {
	uint64_t t_ns;		/* CLOCK_MONOTONIC (vsb_window_now_ns) */
	int end;		/* 0 begin, 1 end */
};

/*
 * CLOCK_MONOTONIC in ns: the clock of bpf_ktime_get_ns(), perf and
 * ftrace's "mono", so a monitor series lines up with their traces
 * (vsb_now_ns() is CLOCK_MONOTONIC_RAW, which drifts from it under NTP).
 */
uint64_t vsb_window_now_ns(void);

void vsb_window_begin(void);
void vsb_window_end(void);

/* The listener's side: arm clears the marks; disarm stops recording. */
void vsb_window_arm(void);
void vsb_window_disarm(void);
/*
 * The marks recorded since arm, in order, up to @max; the count.  Reads
 * only marks whose slot is fully written.  *dropped: marks past
 * VSB_WINDOW_MAX (NULL allowed).
 */
size_t vsb_window_read(struct vsb_window_mark *out, size_t max, size_t *dropped);

#endif /* VSB_WINDOW_H */
