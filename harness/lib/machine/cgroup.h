/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory cgroups a run makes for itself: a chain --memcg-depth levels
 * below the memory hierarchy's root, the process moved into its leaf
 * for the run and back out after, every level removed.  cgroup v2 (the
 * guests) or v1's memory hierarchy (this host); where no memory
 * hierarchy is mounted, a v2 one is mounted for the run and unmounted
 * after.
 *
 * The chain's top is named vmstat-bench.<pid>; a run killed before it
 * could clean up leaves one behind, which the next run's
 * vsb_memcg_sweep_stale() (and `vmstat-bench restore`) removes once no
 * live process of that pid is a vmstat-bench.
 */
#ifndef VSB_CGROUP_H
#define VSB_CGROUP_H

#include <limits.h>

#define VSB_MEMCG_DEPTH_MAX	16
/* where a run mounts cgroup v2 when none is mounted (its own folder) */
#define VSB_MEMCG_MOUNT		"/run/vmstat-bench/cgroup2"

struct vsb_memcg {
	char root[PATH_MAX];	/* the memory hierarchy's mount point */
	char leaf[PATH_MAX];	/* where the process runs; root itself at depth 0 */
	char orig[PATH_MAX];	/* where it came from */
	char rel[PATH_MAX];	/* leaf below root, for the record ("/" at depth 0) */
	int v2;
	int depth;
	int made;		/* levels created */
	int mounted;		/* root was mounted by this run */
	int root_memory;	/* v2: this run enabled memory in root's subtree_control */
	int entered;		/* the process is in leaf */
};

/*
 * Make the chain and move this process into its leaf; on failure one
 * line and VSB_EXIT_SKIP (no memory cgroups here, not root) or
 * VSB_EXIT_ERROR, with nothing left behind.
 */
int vsb_memcg_enter(struct vsb_memcg *m, int depth);
/* Back to where the process was; the chain and any mount removed. */
void vsb_memcg_leave(struct vsb_memcg *m);
/* Remove what killed runs left; returns how many chains, -1 on error. */
int vsb_memcg_sweep_stale(void);

#endif /* VSB_CGROUP_H */
