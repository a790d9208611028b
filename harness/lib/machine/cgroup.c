// SPDX-License-Identifier: GPL-2.0
/*
 * Memory cgroups a run makes for itself (cgroup.h).  Written by hand:
 * libcgroup is not in this project's dependencies and the job is a few
 * mkdir, rmdir and writes of a pid, whose every failure must be said in
 * our own words (which level, which file).
 *
 * cgroup v2's "no internal processes" rule shapes the chain: memory is
 * enabled in each level's subtree_control before the next level is
 * made, and only the leaf ever holds the process.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "scratch.h"
#include "vsb.h"

#define TOP_PREFIX "vmstat-bench."

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static int file_has_word(const char *path, const char *word)
{
	char buf[1024], *tok, *save;

	if (vsb_read_file_str(path, buf, sizeof(buf)))
		return 0;
	for (tok = strtok_r(buf, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save))
		if (!strcmp(tok, word))
			return 1;
	return 0;
}

/* "a,b,memory,c" holds "memory" */
static int opts_have(const char *opts, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = opts; (p = strstr(p, word)); p += n)
		if ((p == opts || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return 1;
	return 0;
}

/*
 * The memory hierarchy from /proc/self/mountinfo: cgroup v2 whose
 * controllers list memory, else v1's memory hierarchy.  Fields: id
 * parent dev root mountpoint opts [optional...] - fstype source super.
 */
static int find_root(struct vsb_memcg *m)
{
	char line[4096], mroot[PATH_MAX], mpt[PATH_MAX], fstype[64], super[1024];
	char ctl[PATH_MAX + 32];
	FILE *f = fopen("/proc/self/mountinfo", "re");
	int found = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *dash = strstr(line, " - ");

		if (!dash || sscanf(line, "%*s %*s %*s %4095s %4095s", mroot, mpt) != 2 ||
		    sscanf(dash + 3, "%63s %*s %1023s", fstype, super) != 2)
			continue;
		if (strcmp(mroot, "/"))	/* a bind of a sub-tree: not the root */
			continue;
		snprintf(ctl, sizeof(ctl), "%s/cgroup.controllers", mpt);
		if (!strcmp(fstype, "cgroup2") && file_has_word(ctl, "memory")) {
			snprintf(m->root, sizeof(m->root), "%s", mpt);
			m->v2 = found = 1;
			break;
		}
		if (!strcmp(fstype, "cgroup") && opts_have(super, "memory") && !found) {
			snprintf(m->root, sizeof(m->root), "%s", mpt);
			m->v2 = 0;
			found = 1;
		}
	}
	fclose(f);
	return found;
}

/* Where this process is now, as a path under m->root. */
static int find_orig(struct vsb_memcg *m)
{
	char line[4096], *path = NULL;
	FILE *f = fopen("/proc/self/cgroup", "re");

	if (!f)
		return -1;
	while (!path && fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (!c2)
			continue;
		/* ID:CONTROLLERS:PATH; v2's line is 0::PATH */
		*c1 = *c2 = '\0';
		if (m->v2 ? !strcmp(line, "0") && c1 + 1 == c2 : opts_have(c1 + 1, "memory"))
			path = c2 + 1;
	}
	fclose(f);
	if (!path)
		return -1;
	path[strcspn(path, "\n")] = '\0';
	snprintf(m->orig, sizeof(m->orig), "%s%s", m->root, strcmp(path, "/") ? path : "");
	return 0;
}

/* No memory hierarchy mounted (a bare guest): mount v2 for the run. */
static int mount_own(struct vsb_memcg *m)
{
	if (vsb_mkdir_p(VSB_MEMCG_MOUNT, 0700) ||
	    mount("none", VSB_MEMCG_MOUNT, "cgroup2", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL))
		return -errno;
	snprintf(m->root, sizeof(m->root), "%s", VSB_MEMCG_MOUNT);
	m->v2 = m->mounted = 1;
	if (!file_has_word(VSB_MEMCG_MOUNT "/cgroup.controllers", "memory")) {
		umount(VSB_MEMCG_MOUNT);
		m->mounted = 0;
		return -ENODEV;	/* memory is bound to a v1 hierarchy, or off */
	}
	return 0;
}

/* memory in @dir's subtree_control: 1 enabled now, 0 already, -errno */
static int enable_memory(const char *dir)
{
	char path[PATH_MAX + 32];
	int ret;

	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", dir);
	if (file_has_word(path, "memory"))
		return 0;
	ret = write_str(path, "+memory");
	return ret ? ret : 1;
}

/* Level @k (1-based) of the chain: TOP_PREFIX<pid>, then 2, 3, ... */
static void level_path(const struct vsb_memcg *m, int k, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/" TOP_PREFIX "%ld", m->base, (long)getpid()), i;

	for (i = 2; i <= k && n > 0 && (size_t)n < len; i++)
		n += snprintf(buf + n, len - (size_t)n, "/%d", i);
}

/*
 * The levels below the base.  Below the root, memory is enabled in
 * each level before the next is made; from inside the base (v2, the
 * process its only one) that waits until the process is in the leaf
 * (enable_chain()), since a cgroup holding a process cannot enable it.
 */
static int make_chain(struct vsb_memcg *m)
{
	char dir[PATH_MAX], up[PATH_MAX];
	int k, ret;

	snprintf(dir, sizeof(dir), "%s", m->base);
	for (k = 1; k <= m->depth; k++) {
		memcpy(up, dir, sizeof(up));
		if (m->v2 && !m->inside) {
			ret = enable_memory(up);
			if (ret < 0)
				return ret;
			if (k == 1 && ret)
				m->base_memory = 1;
		}
		level_path(m, k, dir, sizeof(dir));
		if (mkdir(dir, 0755))
			return -errno;
		m->made = k;
	}
	memcpy(m->leaf, dir, sizeof(m->leaf));
	snprintf(m->rel, sizeof(m->rel), "%s",
		 strcmp(m->leaf, m->root) ? m->leaf + strlen(m->root) : "/");
	return 0;
}

/* Level @k's folder, the base at 0 */
static void chain_dir(const struct vsb_memcg *m, int k, char *buf, size_t len)
{
	if (k)
		level_path(m, k, buf, len);
	else
		snprintf(buf, len, "%s", m->base);
}

/* From inside, the process in the leaf: memory from the base down. */
static int enable_chain(struct vsb_memcg *m)
{
	char dir[PATH_MAX];
	int k, ret;

	for (k = 0; k < m->depth; k++) {
		chain_dir(m, k, dir, sizeof(dir));
		ret = enable_memory(dir);
		if (ret < 0)
			return ret;
		if (!k && ret)
			m->base_memory = 1;
	}
	return 0;
}

/*
 * Back out of it, deepest first, so that the base takes the process
 * again (it cannot while memory is enabled below it); only what this
 * run enabled in the base is disabled there.
 */
static void disable_chain(struct vsb_memcg *m)
{
	char dir[PATH_MAX], path[PATH_MAX + 32];
	int k = m->children ? m->made : m->made - 1;

	for (; k >= (m->base_memory ? 0 : 1); k--) {
		chain_dir(m, k, dir, sizeof(dir));
		snprintf(path, sizeof(path), "%s/cgroup.subtree_control", dir);
		if (file_has_word(path, "memory") && write_str(path, "-memory"))
			vsb_warn("memcg: cannot disable memory in %s again", path);
	}
	m->base_memory = 0;
}

/* @dir's cgroup.procs names this process alone */
static int holds_only_us(const char *dir)
{
	char path[PATH_MAX + 16], buf[4096], *tok, *save;
	long pid;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	if (vsb_read_file_str(path, buf, sizeof(buf)))
		return 0;
	for (tok = strtok_r(buf, "\n", &save); tok; tok = strtok_r(NULL, "\n", &save))
		if (vsb_parse_long(tok, &pid) || pid != (long)getpid())
			return 0;
	return 1;
}

/* A memory.max or memory.high from orig up to (not) the root, into @why */
static int limit_above(const struct vsb_memcg *m, char *why, size_t len)
{
	static const char *const files[] = { "memory.max", "memory.high" };
	char dir[PATH_MAX], path[PATH_MAX + 16], val[64], *slash;
	size_t i;

	snprintf(dir, sizeof(dir), "%s", m->orig);
	while (strlen(dir) > strlen(m->root)) {
		for (i = 0; i < 2; i++) {
			snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
			if (vsb_read_file_str(path, val, sizeof(val)))
				continue;
			val[strcspn(val, "\n")] = '\0';
			if (strcmp(val, "max")) {
				snprintf(why, len, "%.4000s is %.60s", path, val);
				return 1;
			}
		}
		slash = strrchr(dir, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
	return 0;
}

/*
 * Where the chain hangs (cgroup.h): the caller's own cgroup, so that
 * its limits bind the run; on v2 from inside it only where this
 * process is alone there, else below the root when no limit above the
 * caller would be escaped.
 */
static int choose_base(struct vsb_memcg *m)
{
	char why[4096 + 80];

	snprintf(m->base, sizeof(m->base), "%s", m->orig);
	if (!m->v2 || !strcmp(m->orig, m->root))
		return 0;
	if (holds_only_us(m->orig)) {
		m->inside = 1;
		return 0;
	}
	if (limit_above(m, why, sizeof(why))) {
		vsb_err_opt("memcg-depth", "--memcg-depth %d: %s shares its cgroup with other "
			    "processes, so the chain cannot go below it, and beside it the "
			    "run would escape its limit (%s): skipped; run it alone in a "
			    "cgroup of its own (systemd-run --scope -p Delegate=yes ...)",
			    m->depth, m->orig, why);
		return VSB_EXIT_SKIP;
	}
	snprintf(m->base, sizeof(m->base), "%s", m->root);
	return 0;
}

int vsb_memcg_move(const char *dir, long pid)
{
	char path[PATH_MAX + 32], num[24];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(num, sizeof(num), "%ld", pid);
	return write_str(path, num);
}

static int enter_fail(struct vsb_memcg *m, const char *what, int err);

static int move_self(const char *dir)
{
	int ret = vsb_memcg_move(dir, (long)getpid());

	errno = -ret;
	return ret;
}

void vsb_memcg_child(const struct vsb_memcg *m, int i, char *buf, size_t len)
{
	snprintf(buf, len, "%s/c%d", m->leaf, i);
}

void vsb_memcg_file(const struct vsb_memcg *m, const char *dir, const char *v2name,
		    char *buf, size_t len)
{
	const char *v1 = !strcmp(v2name, "current") ? "usage_in_bytes" :
			 !strcmp(v2name, "peak") ? "max_usage_in_bytes" : v2name;

	snprintf(buf, len, "%s/memory.%s", dir, m->v2 ? v2name : v1);
}

/* Children first, then us into c0, then memory for them (v2's order) */
int vsb_memcg_children(struct vsb_memcg *m, int n)
{
	char dir[PATH_MAX + 16];
	int i, ret;

	if (!m->entered || m->depth < 1)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		vsb_memcg_child(m, i, dir, sizeof(dir));
		if (mkdir(dir, 0755))
			return enter_fail(m, "cannot make the memory cgroups", errno);
		m->children = i + 1;
	}
	vsb_memcg_child(m, 0, dir, sizeof(dir));
	if (move_self(dir))
		return enter_fail(m, "cannot move into the memory cgroup", errno);
	ret = m->v2 ? enable_memory(m->leaf) : 0;
	if (ret < 0)
		return enter_fail(m, "cannot enable memory for the sibling cgroups", -ret);
	return 0;
}

/* c<children-1>..c0, each once empty */
static void remove_children(struct vsb_memcg *m)
{
	char dir[PATH_MAX + 16];

	while (m->children > 0) {
		vsb_memcg_child(m, --m->children, dir, sizeof(dir));
		if (rmdir(dir) && errno != ENOENT)
			vsb_warn("memcg: cannot remove %s: %s", dir, strerror(errno));
	}
}

/* Deepest first; returns -errno of the first level that stays. */
static int remove_levels(const char *top, int levels)
{
	char dir[PATH_MAX];
	int k, ret = 0;

	for (k = levels; k >= 1; k--) {
		int n = snprintf(dir, sizeof(dir), "%s", top), i;

		for (i = 2; i <= k; i++)
			n += snprintf(dir + n, sizeof(dir) - (size_t)n, "/%d", i);
		if (rmdir(dir) && errno != ENOENT && !ret)
			ret = -errno;
	}
	return ret;
}

void vsb_memcg_leave(struct vsb_memcg *m)
{
	char top[PATH_MAX];
	int ret;

	if (m->inside && m->v2)
		disable_chain(m);
	if (m->entered && move_self(m->orig))
		vsb_warn("memcg: cannot move back to %s: %s", m->orig, strerror(errno));
	m->entered = 0;
	remove_children(m);
	level_path(m, 1, top, sizeof(top));
	ret = remove_levels(top, m->made);
	if (ret)
		vsb_warn("memcg: cannot remove %s: %s", top, strerror(-ret));
	m->made = 0;
	if (m->base_memory) {
		char path[PATH_MAX + 32];

		snprintf(path, sizeof(path), "%s/cgroup.subtree_control", m->base);
		if (write_str(path, "-memory"))
			vsb_warn("memcg: cannot disable memory in %s again", path);
		m->base_memory = 0;
	}
	if (m->mounted && umount(m->root))
		vsb_warn("memcg: cannot unmount %s: %s", m->root, strerror(errno));
	else if (m->mounted)
		rmdir(m->root);		/* made by mount_own() */
	m->mounted = 0;
}

static int enter_fail(struct vsb_memcg *m, const char *what, int err)
{
	vsb_err_opt("memcg-depth", "--memcg-depth %d: %s: %s", m->depth, what, strerror(err));
	vsb_memcg_leave(m);
	return err == EACCES || err == EPERM || err == ENODEV || err == ENOENT ?
	       VSB_EXIT_SKIP : VSB_EXIT_ERROR;
}

int vsb_memcg_enter(struct vsb_memcg *m, int depth)
{
	int ret;

	memset(m, 0, sizeof(*m));
	m->depth = depth;
	vsb_memcg_sweep_stale();
	/* held before the chain exists: another run sees it as live */
	ret = vsb_scratch_hold();
	if (ret)
		return enter_fail(m, "cannot hold the run's lock in " VSB_SCRATCH_DIR, -ret);
	if (!find_root(m)) {
		ret = mount_own(m);
		if (ret)
			return enter_fail(m, "no memory cgroup hierarchy, and none could be "
					  "mounted at " VSB_MEMCG_MOUNT, -ret);
	}
	if (find_orig(m))
		return enter_fail(m, "cannot tell this process's memory cgroup "
				  "(/proc/self/cgroup)", ENOENT);
	ret = choose_base(m);
	if (ret) {
		vsb_memcg_leave(m);
		return ret;
	}
	ret = make_chain(m);
	if (ret)
		return enter_fail(m, "cannot make the memory cgroups", -ret);
	if (move_self(m->leaf))
		return enter_fail(m, "cannot move into the memory cgroup", errno);
	m->entered = 1;
	ret = m->inside ? enable_chain(m) : 0;
	if (ret)
		return enter_fail(m, "cannot enable memory in the chain", -ret);
	return 0;
}

/* Every level of a chain, whatever its depth: deepest first. */
static int remove_tree(const char *dir)
{
	char sub[PATH_MAX];
	DIR *d = opendir(dir);
	struct dirent *e;
	int ret = 0;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((e = readdir(d))) {
		if (e->d_type != DT_DIR || e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name);
		if (remove_tree(sub) && !ret)
			ret = -1;
	}
	closedir(d);
	if (rmdir(dir) && errno != ENOENT)
		ret = -errno;
	return ret;
}

/*
 * A killed run's workers die with it (PR_SET_PDEATHSIG), but not at
 * once: their cgroups stay busy until the last has exited.  Two
 * seconds, then the cgroup is left with a warning.
 */
static int remove_tree_patiently(const char *dir)
{
	int i, ret = remove_tree(dir);

	for (i = 0; ret && i < 40; i++) {
		usleep(50000);
		ret = remove_tree(dir);
	}
	return ret;
}

/* Removes the stale chains under @root; *live: a live run's chain is there. */
static int sweep_root(const char *root, int *live)
{
	char dir[PATH_MAX];
	DIR *d = opendir(root);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		long pid;

		if (e->d_type != DT_DIR || strncmp(e->d_name, TOP_PREFIX, strlen(TOP_PREFIX)) ||
		    vsb_parse_long(e->d_name + strlen(TOP_PREFIX), &pid))
			continue;
		/* ours now, or a live one's; our pid's from before is stale */
		if (vsb_scratch_pid_alive(pid) && pid != (long)getpid()) {
			*live = 1;
			continue;
		}
		snprintf(dir, sizeof(dir), "%s/%s", root, e->d_name);
		if (remove_tree_patiently(dir))
			vsb_warn("memcg: a killed run's %s could not be removed", dir);
		else
			n++;
	}
	closedir(d);
	return n;
}

static int is_mountpoint(const char *path)
{
	char up[PATH_MAX + 4];
	struct stat a, b;

	snprintf(up, sizeof(up), "%s/..", path);
	return !stat(path, &a) && !stat(up, &b) && a.st_dev != b.st_dev;
}

int vsb_memcg_sweep_stale(void)
{
	struct vsb_memcg m;
	int n = 0, live = 0;

	memset(&m, 0, sizeof(m));
	if (find_root(&m) && strcmp(m.root, VSB_MEMCG_MOUNT)) {
		n += sweep_root(m.root, &live);
		/* chains below this process's own cgroup (cgroup.h) */
		if (!find_orig(&m) && strcmp(m.orig, m.root))
			n += sweep_root(m.orig, &live);
	}
	/* our own mount, left by a killed run: unmounted once nobody uses it */
	if (is_mountpoint(VSB_MEMCG_MOUNT)) {
		live = 0;
		n += sweep_root(VSB_MEMCG_MOUNT, &live);
		if (!live && !umount(VSB_MEMCG_MOUNT))
			rmdir(VSB_MEMCG_MOUNT);
	}
	return n;
}
