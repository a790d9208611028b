// SPDX-License-Identifier: GPL-2.0
/*
 * Timed-window marks, recorded lock-free: a mark takes a slot with one
 * atomic increment and publishes its timestamp with a release store, so
 * a bench thread never waits for the monitor and the monitor never reads
 * a half-written mark.  Marks are taken between samples, never per
 * operation: the cost (a clock read and an atomic add, tens of ns) lands
 * outside the timed code.  Marks past VSB_WINDOW_MAX are counted, not
 * kept.
 */
#include <time.h>

#include "vsb.h"
#include "window.h"

static struct {
	uint64_t t_ns;		/* 0: slot not yet written */
	int end;
} marks[VSB_WINDOW_MAX];
static unsigned int armed;
static size_t next;

uint64_t vsb_window_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void mark(int end)
{
	size_t i;

	if (!__atomic_load_n(&armed, __ATOMIC_RELAXED))
		return;
	i = __atomic_fetch_add(&next, 1, __ATOMIC_RELAXED);
	if (i >= VSB_WINDOW_MAX)
		return;
	marks[i].end = end;
	__atomic_store_n(&marks[i].t_ns, vsb_window_now_ns(), __ATOMIC_RELEASE);
}

void vsb_window_begin(void)
{
	mark(0);
}

void vsb_window_end(void)
{
	mark(1);
}

void vsb_window_arm(void)
{
	size_t i;

	__atomic_store_n(&armed, 0, __ATOMIC_RELAXED);
	for (i = 0; i < VSB_WINDOW_MAX; i++)
		__atomic_store_n(&marks[i].t_ns, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&next, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&armed, 1, __ATOMIC_RELEASE);
}

void vsb_window_disarm(void)
{
	__atomic_store_n(&armed, 0, __ATOMIC_RELEASE);
}

size_t vsb_window_read(struct vsb_window_mark *out, size_t max, size_t *dropped)
{
	size_t n = __atomic_load_n(&next, __ATOMIC_ACQUIRE), i, got = 0;

	if (dropped)
		*dropped = n > VSB_WINDOW_MAX ? n - VSB_WINDOW_MAX : 0;
	if (n > VSB_WINDOW_MAX)
		n = VSB_WINDOW_MAX;
	for (i = 0; i < n && got < max; i++) {
		uint64_t t = __atomic_load_n(&marks[i].t_ns, __ATOMIC_ACQUIRE);

		if (!t)
			break;	/* taken, not yet written: later ones wait too */
		out[got].t_ns = t;
		out[got].end = marks[i].end;
		got++;
	}
	return got;
}
