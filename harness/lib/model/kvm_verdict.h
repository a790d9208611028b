/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel cache's kvm.verdict (kvm_verdict.c), written by
 * ci/vm-run.sh, read by `ab`.
 */
#ifndef VSB_KVM_VERDICT_H
#define VSB_KVM_VERDICT_H

/* 1 when @path holds a line "... @release => kvm"; 0 otherwise or unreadable */
int vsb_kvm_verdict_read(const char *path, const char *release);

#endif /* VSB_KVM_VERDICT_H */
