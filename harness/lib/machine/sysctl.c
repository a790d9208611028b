// SPDX-License-Identifier: GPL-2.0
/*
 * Sysctls as run parameters: check, save, apply, restore.
 *
 * The one rule is that a run never leaves the machine changed.
 *
 * Ownership is exclusive: a run that changes a sysctl holds a POSIX
 * record lock on STATE.lock from before it reads the first original
 * until every value is back, so two runs started a millisecond apart
 * cannot both record an original (the second would record the first's
 * new value as the original).  The second is refused: "in use by pid
 * N", exit 1.  A record lock, not flock(): it belongs to the process,
 * is not inherited by forked workers, and dies with the process, so a
 * SIGKILLed run frees it at once and F_GETLK names the holder.
 *
 * The original value of every sysctl is written to the state file
 * (whole, whatever its length, control characters escaped, fsynced and
 * renamed into place through vsb_outfile) *before* the sysctl is first
 * changed; an atexit handler puts every value back on the normal way
 * out and on errors, and SIGINT/SIGTERM/SIGHUP only set vsb_interrupted,
 * so they end the run through that same way out.  Every write-back is
 * read back and compared byte for byte.  SIGKILL cannot be caught: the
 * state file is what the next start (vsb_sysctl_recover() from the
 * bench check) or `vmstat-bench restore` uses, under the same lock, to
 * undo it.  A state file that is not a regular file is refused and left
 * as it is; only the file this process wrote (or read) is ever removed.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "result.h"
#include "sysctl.h"
#include "sysctl_int.h"

static struct vsb_sysctl_saved ents[VSB_SYSCTL_MAX];
static int nents;
static int atexit_done;

/*
 * Ranges of the sysctls the benches are about, as their proc handlers
 * accept them (mm/vmstat.c, mm/util.c, mm/page_alloc.c).  Writing a
 * value outside them either fails or, worse, succeeds oddly (a
 * stat_interval of 0 reschedules vmstat work continuously).
 */
static const struct {
	const char *name;
	long min, max;
	const char *why;
} known[] = {
	{ "vm.numa_stat", 0, 1, "0 (off) or 1 (on)" },
	{ "vm.overcommit_memory", 0, 2, "0 (heuristic), 1 (always) or 2 (never)" },
	{ "vm.stat_interval", 1, 3600, "seconds, 1..3600" },
	{ "vm.percpu_pagelist_high_fraction", 0, INT_MAX,
	  "0 (default sizing) or at least 8" },
	{ "vm.overcommit_ratio", 0, INT_MAX, "a percentage >= 0" },
};

/* Same number of fields as the current value, integers where it has them. */

static int check_known(const char *name, const char *val, const char *where)
{
	size_t i;
	long v;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		if (strcmp(known[i].name, name))
			continue;
		if (!vsb_sysctl_is_int(val, &v) || v < known[i].min || v > known[i].max ||
		    (!strcmp(name, "vm.percpu_pagelist_high_fraction") && v && v < 8)) {
			vsb_err("%s: '%s' is not a valid %s: %s", where, val, name,
				known[i].why);
			return VSB_EXIT_USAGE;
		}
		return 0;
	}
	return -1;
}

int vsb_sysctl_check(const char *spec, const char *where)
{
	char name[VSB_SYSCTL_NAME_MAX], val[VSB_SYSCTL_VAL_MAX], path[256];
	struct stat st;
	char *cur;
	int ret = vsb_sysctl_check_syntax(spec, where), e;

	if (ret || !*spec)
		return ret;
	vsb_sysctl_split(spec, name, val);
	vsb_sysctl_path(name, path, sizeof(path));
	if (stat(path, &st) || !S_ISREG(st.st_mode)) {
		vsb_err("%s: unknown sysctl '%s' (no %s)", where, name, path);
		return VSB_EXIT_USAGE;
	}
	if (geteuid() != 0) {
		vsb_err("%s: setting %s needs root (run with sudo): skipped", where, name);
		return VSB_EXIT_SKIP;
	}
	if (!(st.st_mode & S_IWUSR) || access(path, W_OK)) {
		vsb_err("%s: sysctl '%s' is read-only", where, name);
		return VSB_EXIT_USAGE;
	}
	e = vsb_sysctl_read_value(path, &cur);
	if (e) {
		vsb_err("%s: cannot read %s: %s", where, path, vsb_read_strerror(e));
		return VSB_EXIT_USAGE;
	}
	ret = check_known(name, val, where);
	if (ret < 0 && !vsb_sysctl_value_fits(cur, val)) {
		vsb_err("%s: '%s' does not look like a value of %s (now '%s')", where,
			val, name, cur);
		ret = VSB_EXIT_USAGE;
	}
	free(cur);
	return ret < 0 ? 0 : ret;
}

/* ---- reading, writing and verifying a value ---- */


/* Put @val back exactly; one error line naming @name when not.  0 or 1. */

static void restore_at_exit(void)
{
	vsb_sysctl_restore_all();
}

int vsb_sysctl_restore_all(void)
{
	int i, bad = 0;

	for (i = 0; i < nents; i++) {
		if (!ents[i].changed)
			continue;
		if (vsb_sysctl_restore_one(ents[i].name, ents[i].orig, "--sysctl")) {
			bad = 1;
			continue;
		}
		ents[i].changed = 0;
	}
	if (nents && !bad) {
		vsb_sysctl_state_remove();
		for (i = 0; i < nents; i++)
			free(ents[i].orig);
		nents = 0;
		vsb_sysctl_lock_release();
	}
	return bad ? VSB_EXIT_ERROR : 0;
}

static struct vsb_sysctl_saved *find(const char *name)
{
	int i;

	for (i = 0; i < nents; i++)
		if (!strcmp(ents[i].name, name))
			return &ents[i];
	return NULL;
}

/* The first change of @name in this process: lock, save, then change. */
static struct vsb_sysctl_saved *save_original(const char *name, int *ret)
{
	char path[256];
	struct vsb_sysctl_saved *e;
	long holder;
	int err;

	*ret = VSB_EXIT_USAGE;
	if (nents == VSB_SYSCTL_MAX) {
		vsb_err("--sysctl: more than %d different sysctls in one run",
			VSB_SYSCTL_MAX);
		return NULL;
	}
	*ret = VSB_EXIT_ERROR;
	holder = vsb_sysctl_lock_take();
	if (holder) {
		if (holder > 0)
			vsb_err("--sysctl: %s: sysctls are in use by pid %ld (another "
				"vmstat-bench holds %s.lock): try again when it ends",
				name, holder, vsb_sysctl_state_path());
		else
			vsb_err("--sysctl: cannot lock %s.lock: %s (nothing changed)",
				vsb_sysctl_state_path(), strerror(errno));
		return NULL;
	}
	/* a run killed since our check left a state file: undo it first */
	if (!nents && vsb_sysctl_recover_locked(0, 0))
		return NULL;
	e = &ents[nents];
	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", name);
	vsb_sysctl_path(name, path, sizeof(path));
	err = vsb_sysctl_read_value(path, &e->orig);
	if (err) {
		vsb_err("--sysctl: cannot read %s: %s", path, vsb_read_strerror(err));
		return NULL;
	}
	nents++;
	*ret = vsb_sysctl_state_write(ents, nents);
	if (*ret) {
		free(e->orig);
		nents--;
		return NULL;
	}
	if (!atexit_done) {
		atexit(restore_at_exit);
		atexit_done = 1;
	}
	/* a signal now must end the run through the restoring exit */
	vsb_install_signal_handlers();
	return e;
}

int vsb_sysctl_enter(const char *spec, struct vsb_result *r)
{
	char name[VSB_SYSCTL_NAME_MAX] = "", val[VSB_SYSCTL_VAL_MAX];
	struct vsb_sysctl_saved *e;
	int i, err, ret;

	if (*spec && vsb_sysctl_split(spec, name, val))
		return VSB_EXIT_USAGE;	/* vsb_sysctl_check() said so already */
	/* what an earlier sweep point set and this one does not: put back */
	for (i = 0; i < nents; i++) {
		if (!ents[i].changed || !strcmp(ents[i].name, name))
			continue;
		if (vsb_sysctl_restore_one(ents[i].name, ents[i].orig, "--sysctl"))
			return VSB_EXIT_ERROR;
		ents[i].changed = 0;
	}
	if (!*spec)
		return 0;
	e = find(name);
	if (!e && !(e = save_original(name, &ret)))
		return ret;
	e->changed = 1;
	err = vsb_sysctl_write(name, val, 0, NULL);
	if (err) {
		vsb_err("--sysctl: the kernel refused %s=%s: %s", name, val,
			strerror(err));
		return err == EINVAL || err == ERANGE ? VSB_EXIT_USAGE : VSB_EXIT_ERROR;
	}
	if (r) {
		char *o = vsb_sysctl_escaped(e->orig);

		vsb_result_meta(r, "sysctl_applied", "%s=%s (original %.200s%s, "
				"restored on exit)", name, val, o,
				strlen(o) > 200 ? "..." : "");
		free(o);
	}
	return 0;
}
