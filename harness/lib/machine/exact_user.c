// SPDX-License-Identifier: GPL-2.0
/*
 * exact_user.c - reading the window file of exact mode in user space.
 *
 * Under qemu-x86_64 the guest is this very process, so the plugin's
 * pwrite() at a stop marker is done before the thread runs on: a plain
 * pread() sees it (no O_DIRECT, no disk as in a guest).  A record past
 * the file's end, or zeroed because its thread exited, is absent.
 *
 * Which vCPU is whose: QEMU numbers a new thread's vCPU after the live
 * ones, and reuses the numbers of threads that exited, so a thread
 * cannot know its own from its creation order alone.  The plugin clears
 * a vCPU's records when a thread starts or ends, and numbers its
 * windows from 0; so right after a thread closed its first window, the
 * vCPUs holding a window 0 are those of the live threads that marked,
 * and the one not already taken by another worker is the caller's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vsb.h"
#include "exact_record.h"
#include "exact_user.h"

const char *vsb_exact_user_file(void)
{
	const char *f = getenv(VSB_EXACT_USER_ENV);

	return f && *f ? f : NULL;
}

int vsb_exact_user_open(int *fd)
{
	const char *f = vsb_exact_user_file();

	if (!f) {
		vsb_err("--exact: %s names no window file", VSB_EXACT_USER_ENV);
		return VSB_EXIT_USAGE;
	}
	*fd = open(f, O_RDONLY | O_CLOEXEC);
	if (*fd < 0) {
		vsb_err("--exact: %s=%s: %s (the file given to the plugin as out=)",
			VSB_EXACT_USER_ENV, f, strerror(errno));
		return VSB_EXIT_ERROR;
	}
	return 0;
}

/* 1 when window @seq of @vcpu is in the file, copied into @w */
static int record_at(int fd, unsigned int vcpu, uint64_t seq,
		     struct vsb_exact_window *w)
{
	ssize_t got = pread(fd, w, sizeof(*w),
			    (off_t)vsb_exact_offset(vcpu, seq));

	return got == (ssize_t)sizeof(*w) && w->magic == VSB_EXACT_MAGIC &&
	       w->vcpu == vcpu && w->seq == seq;
}

int vsb_exact_user_find(int fd, uint64_t taken, unsigned int *vcpu)
{
	struct vsb_exact_window w;
	unsigned int v, found = 0;

	for (v = 0; v < VSB_EXACT_VCPUS; v++) {
		if (taken & (1ull << v) || !record_at(fd, v, 0, &w))
			continue;
		if (found++)
			break;
		*vcpu = v;
	}
	if (found == 1)
		return 0;
	if (!found)
		vsb_err("--exact: the plugin wrote no window for this worker "
			"(is this process running under qemu-x86_64 -plugin "
			"vsb-insn.so,out=FILE with %s=FILE?)", VSB_EXACT_USER_ENV);
	else
		vsb_err("--exact: more than one thread's first window in %s: "
			"another process writes the same window file",
			vsb_exact_user_file());
	return VSB_EXIT_ERROR;
}

int vsb_exact_user_read(int fd, unsigned int vcpu, uint64_t seq,
			struct vsb_exact_window *w)
{
	if (record_at(fd, vcpu, seq, w))
		return 0;
	vsb_err("--exact: no count for window %llu of vCPU %u in %s (a thread "
		"on that vCPU exited, or the plugin could not write)",
		(unsigned long long)seq, vcpu, vsb_exact_user_file());
	return VSB_EXIT_ERROR;
}
