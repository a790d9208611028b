/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exact_windows.h - a result's exact_windows metadata (exact_windows.c):
 * "boot=ID v:a-b v:a-b ...", the guest boot whose profile folder
 * (profile_dir.c) holds the TCG plugin's windows, then the windows the
 * kept samples were counted in, as runs of consecutive windows of one
 * vCPU (v:a-b, a <= b), in the order the samples were kept.
 * benches/exact_result.c notes a window as a sample is kept; the
 * profile readers (profile_dir.c, exact_profile.c) take the runs back.
 */
#ifndef VSB_EXACT_WINDOWS_H
#define VSB_EXACT_WINDOWS_H

#include <stddef.h>

/* the value once the list no longer fits: the point has no profile */
#define VSB_EXACT_WINDOWS_FULL	"too many runs"

/*
 * @list (@len bytes; "" before the first window) with window @seq of
 * @vcpu added: a run of @vcpu that ends at @seq - 1 goes on to @seq,
 * else a run of its own is appended, after "boot=@boot" when @list was
 * empty.  0, or -1 when the list would not fit (@list unchanged).
 */
int vsb_exact_windows_add(char *list, size_t len, const char *boot,
			  unsigned int vcpu, unsigned long long seq);
/*
 * The next run of a list: start with *@p at the list (the boot word is
 * passed over).  1 with the run's vCPU and first and last window, *@p
 * past it; 0 at the end; -1 when the next word is no run the writer
 * writes ("v:a-b", decimal, a <= b).
 */
int vsb_exact_windows_next(const char **p, unsigned int *vcpu,
			   unsigned long long *lo, unsigned long long *hi);

#endif /* VSB_EXACT_WINDOWS_H */
