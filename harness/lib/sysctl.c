// SPDX-License-Identifier: GPL-2.0
/*
 * Sysctls as run parameters: check, save, apply, restore.
 *
 * The one rule is that a run never leaves the machine changed.  The
 * original value of every sysctl is written to a state file (fsynced,
 * renamed into place) *before* the sysctl is first changed; an atexit
 * handler puts every value back on the normal way out and on errors,
 * and SIGINT/SIGTERM/SIGHUP only set vsb_interrupted, so they end the
 * run through that same way out.  SIGKILL cannot be caught: the state
 * file is what the next start (vsb_sysctl_recover() from the bench
 * check) or `vmstat-bench restore` uses to undo it.  The file names the
 * process that owns it (pid and start time, so a reused pid does not
 * look alive) and is removed once everything is back.
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

struct sysctl_ent {
	char name[VSB_SYSCTL_NAME_MAX];
	char orig[VSB_SYSCTL_VAL_MAX];	/* as read before the first change */
	int changed;			/* the live value may differ from orig */
};

static struct sysctl_ent ents[VSB_SYSCTL_MAX];
static int nents;
static int atexit_done;

const char *vsb_sysctl_state_path(void)
{
	const char *p = getenv("VSB_SYSCTL_STATE");

	return p && *p ? p : VSB_SYSCTL_STATE_DEFAULT;
}

/* "vm.numa_stat" -> "/proc/sys/vm/numa_stat"; -1 on a malformed name. */
static int sysctl_path(const char *name, char *buf, size_t len)
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
	if (split_spec(spec, name, val) || sysctl_path(name, path, sizeof(path))) {
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

/* Same number of fields as the current value, integers where it has them. */
static int value_fits(const char *cur, const char *val)
{
	char a[VSB_SYSCTL_VAL_MAX], b[VSB_SYSCTL_VAL_MAX];
	char *sa, *sb, *ta, *tb;
	long v;

	snprintf(a, sizeof(a), "%s", cur);
	snprintf(b, sizeof(b), "%s", val);
	ta = strtok_r(a, " \t", &sa);
	tb = strtok_r(b, " \t", &sb);
	while (ta && tb) {
		if (is_int(ta, &v) && !is_int(tb, &v))
			return 0;
		ta = strtok_r(NULL, " \t", &sa);
		tb = strtok_r(NULL, " \t", &sb);
	}
	return !ta && !tb;
}

int vsb_sysctl_check(const char *spec, const char *where)
{
	char name[VSB_SYSCTL_NAME_MAX], val[VSB_SYSCTL_VAL_MAX], path[256];
	char cur[VSB_SYSCTL_VAL_MAX];
	struct stat st;
	size_t i;
	long v;
	int ret = vsb_sysctl_check_syntax(spec, where);

	if (ret || !*spec)
		return ret;
	split_spec(spec, name, val);
	sysctl_path(name, path, sizeof(path));
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
	if (vsb_read_file_str(path, cur, sizeof(cur))) {
		vsb_err("%s: cannot read %s: %s", where, path, strerror(errno));
		return VSB_EXIT_USAGE;
	}
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
	if (!value_fits(cur, val)) {
		vsb_err("%s: '%s' does not look like a value of %s (now '%s')", where,
			val, name, cur);
		return VSB_EXIT_USAGE;
	}
	return 0;
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

/* ---- the state file ---- */

/* Field 22 of /proc/PID/stat: distinguishes a reused pid. */
static unsigned long long proc_start_time(long pid)
{
	char path[64], buf[1024], *p;
	unsigned long long t = 0;
	int i;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (vsb_read_file_str(path, buf, sizeof(buf)))
		return 0;
	p = strrchr(buf, ')');	/* the command name may hold spaces */
	for (i = 2; p && i < 22; i++)
		p = strchr(p + 1, ' ');
	if (p)
		t = strtoull(p + 1, NULL, 10);
	return t;
}

static int mkdir_parent(const char *path)
{
	char dir[4096], *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -1;
	return 0;
}

/* Write every saved original, atomically: a reader sees all or the old. */
static int state_write(void)
{
	const char *path = vsb_sysctl_state_path();
	char tmp[4096 + 16];
	FILE *f;
	int fd, i;

	if (mkdir_parent(path))
		goto err;
	snprintf(tmp, sizeof(tmp), "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		goto err;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		goto err;
	}
	fprintf(f, "# vmstat-bench: sysctl values to put back (`vmstat-bench restore`)\n");
	fprintf(f, "pid %ld %llu\n", (long)getpid(), proc_start_time(getpid()));
	for (i = 0; i < nents; i++)
		fprintf(f, "%s\t%s\n", ents[i].name, ents[i].orig);
	if (fflush(f) || fsync(fd) || ferror(f)) {
		fclose(f);
		unlink(tmp);
		goto err;
	}
	fclose(f);
	if (rename(tmp, path)) {
		unlink(tmp);
		goto err;
	}
	return 0;
err:
	vsb_err("--sysctl: cannot write the state file %s: %s (nothing changed)",
		path, strerror(errno));
	return VSB_EXIT_ERROR;
}

static int write_sysctl(const char *name, const char *val)
{
	char path[256], back[VSB_SYSCTL_VAL_MAX];
	int fd, err = 0;
	ssize_t n;

	if (sysctl_path(name, path, sizeof(path)))
		return EINVAL;
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return errno;
	n = write(fd, val, strlen(val));
	if (n < 0 || (size_t)n != strlen(val))
		err = n < 0 ? errno : EIO;
	if (close(fd) && !err)
		err = errno;
	/* the handler may clamp or ignore: what counts is what reads back */
	if (!err && !vsb_read_file_str(path, back, sizeof(back)) && value_fits(back, val)) {
		long a, b;

		if (is_int(back, &a) && is_int(val, &b) && a != b)
			err = ERANGE;
	}
	return err;
}

static void restore_at_exit(void)
{
	vsb_sysctl_restore_all();
}

int vsb_sysctl_restore_all(void)
{
	int i, err, bad = 0;

	for (i = 0; i < nents; i++) {
		if (!ents[i].changed)
			continue;
		err = write_sysctl(ents[i].name, ents[i].orig);
		if (err) {
			vsb_err("cannot restore %s=%s: %s; the state file %s keeps it "
				"(`vmstat-bench restore`)", ents[i].name, ents[i].orig,
				strerror(err), vsb_sysctl_state_path());
			bad = 1;
			continue;
		}
		ents[i].changed = 0;
	}
	if (nents && !bad) {
		unlink(vsb_sysctl_state_path());
		nents = 0;
	}
	return bad ? VSB_EXIT_ERROR : 0;
}

static struct sysctl_ent *find(const char *name)
{
	int i;

	for (i = 0; i < nents; i++)
		if (!strcmp(ents[i].name, name))
			return &ents[i];
	return NULL;
}

int vsb_sysctl_enter(const char *spec, struct vsb_result *r)
{
	char name[VSB_SYSCTL_NAME_MAX] = "", val[VSB_SYSCTL_VAL_MAX], path[256];
	struct sysctl_ent *e;
	int i, err;

	if (*spec && split_spec(spec, name, val))
		return VSB_EXIT_USAGE;	/* vsb_sysctl_check() said so already */
	/* what an earlier sweep point set and this one does not: put back */
	for (i = 0; i < nents; i++) {
		if (!ents[i].changed || !strcmp(ents[i].name, name))
			continue;
		err = write_sysctl(ents[i].name, ents[i].orig);
		if (err) {
			vsb_err("cannot restore %s=%s: %s", ents[i].name, ents[i].orig,
				strerror(err));
			return VSB_EXIT_ERROR;
		}
		ents[i].changed = 0;
	}
	if (!*spec)
		return 0;
	e = find(name);
	if (!e) {
		if (nents == VSB_SYSCTL_MAX) {
			vsb_err("--sysctl: more than %d different sysctls in one run",
				VSB_SYSCTL_MAX);
			return VSB_EXIT_USAGE;
		}
		e = &ents[nents];
		memset(e, 0, sizeof(*e));
		snprintf(e->name, sizeof(e->name), "%s", name);
		sysctl_path(name, path, sizeof(path));
		if (vsb_read_file_str(path, e->orig, sizeof(e->orig))) {
			vsb_err("--sysctl: cannot read %s: %s", path, strerror(errno));
			return VSB_EXIT_ERROR;
		}
		/* a tab-separated file: keep multi-field values on one line */
		for (i = 0; e->orig[i]; i++)
			if (e->orig[i] == '\t' || e->orig[i] == '\n')
				e->orig[i] = ' ';
		nents++;
		if (state_write()) {
			nents--;
			return VSB_EXIT_ERROR;
		}
		if (!atexit_done) {
			atexit(restore_at_exit);
			atexit_done = 1;
		}
		/* a signal now must end the run through the restoring exit */
		vsb_install_signal_handlers();
	}
	e->changed = 1;
	err = write_sysctl(name, val);
	if (err) {
		vsb_err("--sysctl: the kernel refused %s=%s: %s", name, val,
			strerror(err));
		return err == EINVAL || err == ERANGE ? VSB_EXIT_USAGE : VSB_EXIT_ERROR;
	}
	if (r)
		vsb_result_meta(r, "sysctl_applied", "%s=%s (original %s, restored on exit)",
				name, val, e->orig);
	return 0;
}

/* ---- recovery ---- */

int vsb_sysctl_recover(int force, int quiet_if_alive)
{
	const char *path = vsb_sysctl_state_path();
	char line[VSB_SYSCTL_NAME_MAX + VSB_SYSCTL_VAL_MAX + 8];
	unsigned long long start = 0;
	int bad = 0, n = 0, err;
	long pid = 0;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *tab;

		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || !line[0])
			continue;
		if (!strncmp(line, "pid ", 4)) {
			if (sscanf(line + 4, "%ld %llu", &pid, &start) < 1)
				pid = 0;
			/* our own file (a second check in this process) */
			if (pid == (long)getpid()) {
				fclose(f);
				return 0;
			}
			if (pid > 0 && !force && kill((pid_t)pid, 0) == 0 &&
			    proc_start_time(pid) == start) {
				fclose(f);
				if (quiet_if_alive)
					return 0;
				vsb_err("sysctls are changed by a running vmstat-bench (pid %ld, "
					"state file %s): wait for it to end", pid, path);
				return VSB_EXIT_ERROR;
			}
			continue;
		}
		tab = strchr(line, '\t');
		if (!tab)
			continue;
		*tab = '\0';
		if (geteuid() != 0) {
			vsb_err("a killed run left %s changed (original %s in %s): run "
				"`sudo vmstat-bench restore`", line, tab + 1, path);
			fclose(f);
			return VSB_EXIT_SKIP;
		}
		err = write_sysctl(line, tab + 1);
		if (err) {
			vsb_err("cannot restore %s=%s from %s: %s", line, tab + 1, path,
				strerror(err));
			bad = 1;
		} else {
			vsb_warn("restored %s=%s, left changed by an earlier run (pid %ld) "
				 "that did not finish", line, tab + 1, pid);
			n++;
		}
	}
	fclose(f);
	if (bad)
		return VSB_EXIT_ERROR;
	unlink(path);
	(void)n;
	return 0;
}
