# SPDX-License-Identifier: GPL-2.0
#
# The kernel cache's folder, for the ci scripts that source this file.
#
# One per machine, not one per checkout: Debian's kernels, their headers
# and sources take hundreds of MB and minutes to fetch and unpack, and
# they are the same for every clone.  Everything in the cache is named by
# what it holds (a release, a package version, a build key) and guarded
# by its own lock, so clones share it safely.  The order: VSB_VM_CACHE;
# $XDG_CACHE_HOME/vmstat-bench/vm; ~/.cache/vmstat-bench/vm; without a
# writable home, the checkout's .cache/vm.  harness/ab/check.c follows
# the same order.

vsb_vm_cache() {	# vsb_vm_cache CHECKOUT: print the folder
	if [ -n "${VSB_VM_CACHE:-}" ]; then
		printf '%s\n' "$VSB_VM_CACHE"
	elif [ -n "${XDG_CACHE_HOME:-}" ]; then
		printf '%s\n' "$XDG_CACHE_HOME/vmstat-bench/vm"
	elif [ -n "${HOME:-}" ] && [ -d "$HOME" ] && [ -w "$HOME" ]; then
		printf '%s\n' "$HOME/.cache/vmstat-bench/vm"
	else
		printf '%s\n' "$1/.cache/vm"
	fi
}
