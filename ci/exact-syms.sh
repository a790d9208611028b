#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# exact-syms.sh - run in an exact-mode guest while the module is still
# loaded (ci/kmod-run.sh and ci/ab-run.sh call it before rmmod): keeps
# what the host needs to name the profile's blocks (docs/exact.md,
# Profiles) in /out/exact-profile/BOOT_ID/: /proc/kallsyms (the
# module's symbols included, at this boot's addresses), the kernel's
# ELF notes (its build id) and /proc/version.  The host adds the
# plugin's blocks file beside them (ci/vm-run.sh); results name
# their boot in exact_windows metadata, so a side with several guests
# finds each point's profile.
grep -qw vsb.exact=1 /proc/cmdline || exit 0
b=$(cat /proc/sys/kernel/random/boot_id) || exit 0
d=/out/exact-profile/$b
mkdir -p "$d" || exit 0
# all of it, unfiltered: the host keeps the text symbols itself
# (harness/lib/model/profile_syms.c).  busybox grep -E over its 155,000
# lines took 0.8 billion instructions of a 6.12 exact boot, more than
# the kernel's 0.5 to write them: 5 s of every exact boot here
cat /proc/kallsyms >"$d/kallsyms"
cat /sys/kernel/notes >"$d/notes" 2>/dev/null
cat /proc/version >"$d/version"
exit 0
