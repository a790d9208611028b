/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory cgroups a run makes for itself: a chain --memcg-depth levels
 * below the caller's own memory cgroup (its base), the process moved
 * into its leaf for the run and back out after, every level removed.
 * Below the caller's cgroup, its limits (systemd's MemoryMax, a
 * container's) bind the run too.  cgroup v1 always allows that; v2's
 * "no internal processes" rule only where the caller's cgroup holds
 * this process alone (it moves into the leaf before memory is enabled
 * above it), or where it is the root.  Elsewhere on v2 the chain hangs
 * below the root, and only when no cgroup from the caller's up sets
 * memory.max or memory.high (nothing is escaped); else the bench is
 * skipped, naming the limit.  Where no memory hierarchy is mounted, a
 * v2 one is mounted for the run and unmounted after.
 *
 * The chain's top is named vmstat-bench.<pid>; a run killed before it
 * could clean up leaves one behind, which the next run's
 * vsb_memcg_sweep_stale() (and `vmstat-bench restore`) removes once no
 * process holds that pid's lock (vsb_scratch_hold(), scratch.h).
 */
#ifndef VSB_CGROUP_H
#define VSB_CGROUP_H

#include <limits.h>

#define VSB_MEMCG_DEPTH_MAX	16
/* where a run mounts cgroup v2 when none is mounted (its own folder) */
#define VSB_MEMCG_MOUNT		"/run/vmstat-bench/cgroup2"

struct vsb_memcg {
	char root[PATH_MAX];	/* the memory hierarchy's mount point */
	char base[PATH_MAX];	/* where the chain hangs: orig, or root */
	char leaf[PATH_MAX];	/* where the process runs; base itself at depth 0 */
	char orig[PATH_MAX];	/* where it came from */
	char rel[PATH_MAX];	/* leaf below root, for the record ("/" for root) */
	int v2;
	int depth;
	int made;		/* levels created */
	int mounted;		/* root was mounted by this run */
	int base_memory;	/* v2: this run enabled memory in base's subtree_control */
	int inside;		/* v2: base is orig, left by the process for the leaf */
	int entered;		/* the process is in leaf (in c0 with children) */
	int children;		/* c0..c<children-1> made below leaf */
};

/*
 * Make the chain and move this process into its leaf; on failure one
 * line and VSB_EXIT_SKIP (no memory cgroups here, not root) or
 * VSB_EXIT_ERROR, with nothing left behind.
 */
int vsb_memcg_enter(struct vsb_memcg *m, int depth);
/*
 * Below the leaf of an entered chain of depth >= 1: @n sibling cgroups
 * c0..c<n-1> (memory enabled for them on v2); the process moves into c0,
 * as v2 lets no process stay in a cgroup whose children it controls.
 * vsb_memcg_leave() removes them; what runs in them must be gone first.
 */
int vsb_memcg_children(struct vsb_memcg *m, int n);
void vsb_memcg_child(const struct vsb_memcg *m, int i, char *buf, size_t len);
/* Move process @pid into cgroup folder @dir; 0 or -errno */
int vsb_memcg_move(const char *dir, long pid);
/*
 * A memory file of folder @dir by its v2 name ("current", "peak",
 * "stat"), spelled as this hierarchy spells it (v1: usage_in_bytes,
 * max_usage_in_bytes, stat)
 */
void vsb_memcg_file(const struct vsb_memcg *m, const char *dir, const char *v2name,
		    char *buf, size_t len);
/* Back to where the process was; the chain and any mount removed. */
void vsb_memcg_leave(struct vsb_memcg *m);
/* Remove what killed runs left; returns how many chains, -1 on error. */
int vsb_memcg_sweep_stale(void);

#endif /* VSB_CGROUP_H */
