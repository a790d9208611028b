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
 * and the one not already taken by another worker is the caller's.  The
 * main thread goes first, when the options are checked: its window also
 * tells that the plugin counts this process at all.
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

/* how many vCPUs not in @taken hold a window 0 (0, 1 or 2: many); the first */
static unsigned int first_windows(int fd, uint64_t taken, unsigned int *vcpu)
{
	struct vsb_exact_window w;
	unsigned int v, found = 0;

	for (v = 0; v < VSB_EXACT_VCPUS && found < 2; v++) {
		if (taken & (1ull << v) || !record_at(fd, v, 0, &w))
			continue;
		if (!found++)
			*vcpu = v;
	}
	return found;
}

/* the main thread's probe: 0 when exactly one vCPU has a window 0 */
static int probe_find(int fd, unsigned int *vcpu)
{
	return first_windows(fd, 0, vcpu) != 1;
}

int vsb_exact_user_find(int fd, uint64_t taken, unsigned int *vcpu)
{
	unsigned int found = first_windows(fd, taken, vcpu);

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

int vsb_exact_user_probe(unsigned int *vcpu)
{
	static int done, ret;
	static unsigned int main_vcpu;
	const char *f = vsb_exact_user_file();
	int fd;

	if (done) {
		*vcpu = main_vcpu;
		return ret;
	}
	done = 1;
	ret = VSB_EXIT_USAGE;
	if (!f) {
		vsb_err("--exact: %s names no window file", VSB_EXACT_USER_ENV);
		return ret;
	}
	fd = open(f, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		vsb_err("--exact: %s=%s: %s: run under qemu-x86_64 -plugin "
			"vsb-insn.so,out=FILE with the same FILE (ci/model-check)",
			VSB_EXACT_USER_ENV, f, strerror(errno));
		return ret;
	}
	vsb_exact_mark_start();
	vsb_exact_mark_stop();
	if (probe_find(fd, &main_vcpu)) {
		vsb_err("--exact: %s=%s, but no plugin counts this process (a "
			"marked window left no record there): run under "
			"qemu-x86_64 -plugin vsb-insn.so,out=FILE with the same "
			"FILE (ci/model-check)", VSB_EXACT_USER_ENV, f);
		close(fd);
		return ret;
	}
	close(fd);
	*vcpu = main_vcpu;
	ret = 0;
	return 0;
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
