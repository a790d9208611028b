// SPDX-License-Identifier: GPL-2.0
/*
 * exact_user.c's reading of a window file the plugin left: a worker's
 * vCPU is the one with a window 0 nobody took, none or two of them is
 * an error, and a record that is not the window asked for (another
 * vCPU's, another number, zeroed by a thread's exit) is refused.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vsb.h"
#include "exact_record.h"
#include "exact_user.h"
#include "tap.h"

static char path[] = "/tmp/vsb-exact-userXXXXXX";

/* a record as the plugin writes it: window @seq of @vcpu, @insn counted */
static void put(int fd, unsigned int vcpu, uint64_t seq, uint64_t insn)
{
	struct vsb_exact_window w = { .magic = VSB_EXACT_MAGIC, .vcpu = vcpu, .seq = seq };

	w.count[VSB_EXACT_INSN] = insn;
	if (pwrite(fd, &w, sizeof(w), (off_t)vsb_exact_offset(vcpu, seq)) != sizeof(w))
		abort();
}

/* a thread's exit: its records zeroed */
static void clear(int fd, unsigned int vcpu)
{
	static const char zero[VSB_EXACT_REC_SIZE];
	uint64_t s;

	for (s = 0; s < 4; s++)
		if (pwrite(fd, zero, sizeof(zero), (off_t)vsb_exact_offset(vcpu, s)) != sizeof(zero))
			abort();
}

int main(void)
{
	int wfd = mkstemp(path), fd = -1;
	struct vsb_exact_window w;
	unsigned int v = 99;

	TAP_OK(wfd >= 0, "window file made");
	setenv(VSB_EXACT_USER_ENV, path, 1);
	TAP_OK(vsb_exact_user_open(&fd) == 0, "opened by the variable's name");
	TAP_OK(vsb_exact_user_find(fd, 0, &v) == VSB_EXIT_ERROR,
	       "an empty file: no worker's vCPU (an error, not a guess)");
	put(wfd, 0, 0, 1);		/* the main thread's probe */
	put(wfd, 3, 0, 1);		/* worker 0's first window */
	TAP_OK(vsb_exact_user_find(fd, 1ull << 0, &v) == 0 && v == 3,
	       "worker 0: the one window 0 the main thread did not take: vCPU 3 (got %u)", v);
	put(wfd, 1, 0, 1);		/* worker 1, on a lower, reused index */
	TAP_OK(vsb_exact_user_find(fd, 1ull << 0 | 1ull << 3, &v) == 0 && v == 1,
	       "worker 1: vCPU 1, though below worker 0's (got %u)", v);
	put(wfd, 5, 0, 1);		/* a stranger's window 0 */
	put(wfd, 6, 0, 1);
	TAP_OK(vsb_exact_user_find(fd, 1ull << 0 | 1ull << 3 | 1ull << 1, &v) == VSB_EXIT_ERROR,
	       "two untaken windows 0: refused, not a guess");
	put(wfd, 3, 1, 28040123);
	TAP_OK(vsb_exact_user_read(fd, 3, 1, &w) == 0 && w.count[VSB_EXACT_INSN] == 28040123,
	       "window 1 of vCPU 3 read back");
	TAP_OK(vsb_exact_user_read(fd, 3, 2, &w) == VSB_EXIT_ERROR,
	       "a window not written yet: refused");
	put(wfd, 2, 1 + VSB_EXACT_RING, 7);
	TAP_OK(vsb_exact_user_read(fd, 2, 1, &w) == VSB_EXIT_ERROR,
	       "the ring's same place holding a later window: refused");
	clear(wfd, 3);
	TAP_OK(vsb_exact_user_read(fd, 3, 1, &w) == VSB_EXIT_ERROR,
	       "a window its thread's exit zeroed: refused");
	TAP_OK(vsb_exact_user_read(fd, 40, 0, &w) == VSB_EXIT_ERROR,
	       "past the file's end: refused");
	close(fd);
	close(wfd);
	unlink(path);
	unsetenv(VSB_EXACT_USER_ENV);
	TAP_OK(vsb_exact_user_file() == NULL && vsb_exact_user_open(&fd) == VSB_EXIT_USAGE,
	       "the variable unset: no file, a usage error");
	return tap_done();
}
