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

const char *vsb_sysctl_state_path(void)
{
	const char *p = getenv("VSB_SYSCTL_STATE");

	return p && *p ? p : VSB_SYSCTL_STATE_DEFAULT;
}

/* "vm.numa_stat" -> "/proc/sys/vm/numa_stat"; -1 on a malformed name. */
int vsb_sysctl_path(const char *name, char *buf, size_t len)
{
	const char *c;
	size_t i = 0;

	if (!*name || *name == '.' || strstr(name, "..") ||
	    name[strlen(name) - 1] == '.' || !strchr(name, '.'))
		return -1;
	for (c = name; *c; c++)
		if (!(islower((unsigned char)*c) || isdigit((unsigned char)*c) ||
		      *c == '_' || *c == '.' || *c == '-'))
			return -1;
	if (strlen(name) + sizeof("/proc/sys/") > len)
		return -1;
	i = (size_t)snprintf(buf, len, "/proc/sys/%s", name);
	for (c = buf + sizeof("/proc/sys/") - 1; *c; c++)
		if (*c == '.')
			buf[c - buf] = '/';
	return i < len ? 0 : -1;
}

/* Split "NAME=VALUE" into @name and @val; -1 if it is not that shape. */
static int split_spec(const char *spec, char *name, char *val)
{
	const char *eq = strchr(spec, '=');
	size_t n;

	if (!eq || eq == spec)
		return -1;
	n = (size_t)(eq - spec);
	if (n >= VSB_SYSCTL_NAME_MAX || strlen(eq + 1) >= VSB_SYSCTL_VAL_MAX)
		return -1;
	memcpy(name, spec, n);
	name[n] = '\0';
	strcpy(val, eq + 1);
	return *val ? 0 : -1;
}

int vsb_sysctl_check_syntax(const char *spec, const char *where)
{
	char name[VSB_SYSCTL_NAME_MAX], val[VSB_SYSCTL_VAL_MAX], path[256];

	if (!*spec)
		return 0;	/* "" is "no sysctl" (the default) */
	if (strchr(spec, ',')) {
		vsb_err("%s: '%s': a list of values is a sweep axis; `run` takes one "
			"NAME=VALUE", where, spec);
		return VSB_EXIT_USAGE;
	}
	if (split_spec(spec, name, val) || vsb_sysctl_path(name, path, sizeof(path))) {
		vsb_err("%s: '%s' is not NAME=VALUE with a dotted sysctl name "
			"(e.g. vm.numa_stat=0)", where, spec);
		return VSB_EXIT_USAGE;
	}
	return 0;
}

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

static int is_int(const char *s, long *v)
{
	return !vsb_parse_long(s, v);
}

/*
 * The whole value of a sysctl, whatever its length, into a malloc'd
 * *@out; the kernel's one trailing newline dropped.  0 or an errno.
 */
static int read_value(const char *path, char **out)
{
	size_t len;
	char *buf;
	int e = vsb_read_whole(path, VSB_SYSCTL_READ_MAX, &buf, &len);

	if (e)
		return e;
	if (strlen(buf) != len) {
		free(buf);
		return EINVAL;
	}
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	*out = buf;
	return 0;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(vsb_zalloc(n), s, n);
}

/* Same number of fields as the current value, integers where it has them. */
static int value_fits(const char *cur, const char *val)
{
	char *a = xstrdup(cur), *b = xstrdup(val);
	char *sa, *sb, *ta, *tb;
	int fits;
	long v;

	ta = strtok_r(a, " \t", &sa);
	tb = strtok_r(b, " \t", &sb);
	while (ta && tb) {
		if (is_int(ta, &v) && !is_int(tb, &v))
			break;
		ta = strtok_r(NULL, " \t", &sa);
		tb = strtok_r(NULL, " \t", &sb);
	}
	fits = !ta && !tb;
	free(a);
	free(b);
	return fits;
}

static int check_known(const char *name, const char *val, const char *where)
{
	size_t i;
	long v;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		if (strcmp(known[i].name, name))
			continue;
		if (!is_int(val, &v) || v < known[i].min || v > known[i].max ||
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
	split_spec(spec, name, val);
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
	e = read_value(path, &cur);
	if (e) {
		vsb_err("%s: cannot read %s: %s", where, path, vsb_read_strerror(e));
		return VSB_EXIT_USAGE;
	}
	ret = check_known(name, val, where);
	if (ret < 0 && !value_fits(cur, val)) {
		vsb_err("%s: '%s' does not look like a value of %s (now '%s')", where,
			val, name, cur);
		ret = VSB_EXIT_USAGE;
	}
	free(cur);
	return ret < 0 ? 0 : ret;
}

char *vsb_sysctl_axis_token(const char *first, char *tok, char *buf, size_t len)
{
	size_t n;

	if (strchr(tok, '=') || !strchr(first, '='))
		return tok;
	n = (size_t)(strchr(first, '=') - first);
	snprintf(buf, len, "%.*s=%s", (int)n, first, tok);
	return buf;
}

/* ---- reading, writing and verifying a value ---- */

#define WRITE_DIFFERS	(-1)	/* written, but reads back otherwise */

/*
 * Write @val to sysctl @name in one write() and read it back: with
 * @exact (a restore) the read-back must be byte-identical to @val; a
 * new value may be reformatted by its handler, but an integer must come
 * back as the same integer (a clamp is ERANGE).  0, an errno, or
 * WRITE_DIFFERS with the read-back in *@back (malloc'd) when @back.
 */
static int write_sysctl(const char *name, const char *val, int exact, char **back)
{
	size_t len = strlen(val);
	char path[256], *got = NULL;
	int fd, err = 0;
	ssize_t n;
	long a, b;

	if (vsb_sysctl_path(name, path, sizeof(path)))
		return EINVAL;
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return errno;
	/* an empty string value is written as its newline */
	n = len ? write(fd, val, len) : write(fd, "\n", 1);
	if (n < 0 || (size_t)n != (len ? len : 1))
		err = n < 0 ? errno : EIO;
	if (close(fd) && !err)
		err = errno;
	if (err)
		return err;
	err = read_value(path, &got);
	if (err)
		return err;
	if (exact ? strcmp(got, val) != 0 :
	    value_fits(got, val) && is_int(got, &a) && is_int(val, &b) && a != b)
		err = exact ? WRITE_DIFFERS : ERANGE;
	if (err == WRITE_DIFFERS && back)
		*back = got;
	else
		free(got);
	return err;
}

/* Put @val back exactly; one error line naming @name when not.  0 or 1. */
int vsb_sysctl_restore_one(const char *name, const char *val, const char *where)
{
	char *back = NULL;
	int err = write_sysctl(name, val, 1, &back);

	if (err == WRITE_DIFFERS)
		vsb_err("%s: restored %s but it reads back as '%s', not the original "
			"'%s'; %s keeps the original", where, name, back, val,
			vsb_sysctl_state_path());
	else if (err)
		vsb_err("%s: cannot restore %s='%s': %s; %s keeps it "
			"(`vmstat-bench restore`)", where, name, val, strerror(err),
			vsb_sysctl_state_path());
	free(back);
	return !!err;
}

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
	err = read_value(path, &e->orig);
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

	if (*spec && split_spec(spec, name, val))
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
	err = write_sysctl(name, val, 0, NULL);
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

