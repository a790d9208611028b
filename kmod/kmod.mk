# SPDX-License-Identifier: GPL-2.0
#
# kmod/kmod.mk - the module's checks, included by the top-level Makefile
# (`make kmod-check`, part of `make check`).
#
# kmod-check builds vmstat_bench.ko against every kernel of ci/kernels
# (Debian's 6.1 and 6.12 cloud kernels, headers fetched into the VM cache
# by ci/kernel-cache.sh; plus KDIR when set) with W=1 and sparse (C=2),
# each in a fresh copy under $(O)/kmod-check/, and fails on any warning
# located in kmod/ or bench/.  Warnings located in the kernel's own
# headers are counted, not fatal: they are not ours to fix and differ from
# one kernel release to the next (ci/kmod-check.sh says more).  Without
# kernel headers (no apt, offline, not root) it prints a SKIP line per
# kernel and succeeds.  V=1 shows the build logs.

.PHONY: kmod-check

kmod-check:
	@KDIR='$(KDIR)' V='$(V)' ci/kmod-check.sh --out '$(or $(O),build)/kmod-check'
