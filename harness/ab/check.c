// SPDX-License-Identifier: GPL-2.0
/*
 * Everything `vmstat-bench ab` refuses before the first boot: the
 * kernels (a Debian ABI the package lists know, or a bzImage and the
 * build folder it was built in), a sweep with at least one module point
 * (parsed by the sweep runner's own parser), the output folder (empty,
 * or this very ab to continue), and the vCPU pinning plan.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <dirent.h>
#include <unistd.h>

#include "ab.h"
#include "benches.h"
#include "sweep.h"

/*
 * Run @argv (no shell), its stdout into @out (NUL-terminated, truncated
 * to @len), stderr discarded.  The exit status, or -1 if it could not
 * run at all.
 */
static int run_capture(char *const argv[], char *out, size_t len)
{
	size_t n = 0;
	int fds[2], st;
	ssize_t r;
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		int null = open("/dev/null", O_RDWR);

		dup2(fds[1], STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		dup2(null, STDIN_FILENO);
		close(fds[0]);
		/* apt's lists are read: in the words they are read in */
		setenv("LC_ALL", "C", 1);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		/* what does not fit is read and dropped: the child never blocks */
		char sink[4096];
		size_t room = len - 1 - n;

		r = read(fds[0], room ? out + n : sink, room ? room : sizeof(sink));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (room)
			n += r;
	}
	close(fds[0]);
	out[n] = '\0';
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int cmp_version(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The ABIs the package lists offer, newest first: the newest three of
 * @abi's series (6.1, 6.12), or of all when the lists have none of it.
 * 0 when they know no cloud kernel at all.
 */
static size_t known_abis(const char *abi, char *buf, size_t len)
{
	static char list[1 << 20];
	char *argv[] = { "apt-cache", "pkgnames", "linux-headers-", NULL };
	char *abis[4096], *line, *save = NULL, series[32];
	size_t n = 0, nser = 0, i, from, fl = strlen("-" VSB_AB_FLAVOUR);
	int ser;

	buf[0] = '\0';
	if (run_capture(argv, list, sizeof(list)))
		return 0;
	for (line = strtok_r(list, "\n", &save); line && n < 4096;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t l = strlen(line), pl = strlen("linux-headers-");

		if (l <= pl || strncmp(line, "linux-headers-", pl))
			continue;
		line += pl;
		l -= pl;
		if (l > fl && line[0] >= '0' && line[0] <= '9' &&
		    !strcmp(line + l - fl, "-" VSB_AB_FLAVOUR) && strchr(line, '.')) {
			line[l - fl] = '\0';
			abis[n++] = line;
		}
	}
	qsort(abis, n, sizeof(*abis), cmp_version);
	/* "6.12" of 6.12.117+deb12, "6.1" of 6.1.0-57 */
	snprintf(series, sizeof(series), "%.*s", (int)strspn(abi, "0123456789."), abi);
	if (strchr(series, '.') != strrchr(series, '.'))
		*strrchr(series, '.') = '\0';
	for (i = 0; i < n; i++)
		nser += !strncmp(abis[i], series, strlen(series)) &&
			strchr(".-", abis[i][strlen(series)]);
	ser = nser > 0;
	for (i = n, from = 0; i-- > 0 && from < 3;) {
		size_t sl = strlen(series);

		if (ser && (strncmp(abis[i], series, sl) || !strchr(".-", abis[i][sl])))
			continue;
		from++;
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
			 from > 1 ? " " : "", abis[i]);
	}
	return n;
}

/* debian:ABI: cached already, or known to the package lists (apt-cache). */
static int check_debian(const struct vsb_ab *ab, struct vsb_ab_kernel *k,
			const char *opt)
{
	const char *abi = k->spec + strlen("debian:");
	char img[300], hdr[300], path[8192], have[256], cache[4096 + 16], out[256];
	char *argv[] = { "apt-cache", "show", "--no-all-versions", img, hdr, NULL };

	if (strlen(abi) > 100 || abi[0] < '0' || abi[0] > '9' ||
	    strspn(abi, "0123456789abcdefghijklmnopqrstuvwxyz"
		   "ABCDEFGHIJKLMNOPQRSTUVWXYZ.+~-") != strlen(abi) ||
	    strspn(abi, "0123456789.") == strlen(abi)) {
		vsb_err("%s %s: want debian:ABI with an exact ABI, e.g. debian:6.1.0-57 "
			"or debian:6.12.117+deb12", opt, k->spec);
		return VSB_EXIT_USAGE;
	}
	snprintf(k->release, sizeof(k->release), "%s-" VSB_AB_FLAVOUR, abi);
	vsb_ab_cache_dir(ab, cache, sizeof(cache));
	/* unpacked already (kernel-cache.sh checks the rest itself) */
	snprintf(path, sizeof(path), "%s/%s/boot/vmlinuz-%s", cache, k->release,
		 k->release);
	if (access(path, F_OK) == 0)
		return 0;
	snprintf(img, sizeof(img), "linux-image-%s", k->release);
	snprintf(hdr, sizeof(hdr), "linux-headers-%s", k->release);
	switch (run_capture(argv, out, sizeof(out))) {
	case 0:
		return 0;
	case -1: case 127:
		vsb_err("%s %s: not in %s and apt-cache cannot run here to look it up: "
			"skipped", opt, k->spec, cache);
		return VSB_EXIT_SKIP;
	}
	if (!known_abis(abi, have, sizeof(have))) {
		vsb_err("%s %s: the package lists know no Debian %s kernel "
			"(apt-get update as root fetches them): skipped", opt, k->spec,
			VSB_AB_FLAVOUR);
		return VSB_EXIT_SKIP;
	}
	vsb_err("%s %s: no Debian %s kernel %s in the package lists (they have: %s)",
		opt, k->spec, VSB_AB_FLAVOUR, abi, have);
	return VSB_EXIT_USAGE;
}

/*
 * The release a bzImage says it is: the setup header's kernel_version
 * field (at 0x20e, an offset from 0x200) points at a string that starts
 * with it ("6.12.0-rc1+ (user@host) #3 SMP ...").  The boot protocol
 * (Documentation/arch/x86/boot.rst) promises it from version 2.00 on.
 */
static int bzimage_release(const char *path, char *rel, size_t len)
{
	unsigned char hdr[0x210];
	struct stat st;
	char ver[256];
	unsigned int off;
	ssize_t n;
	int fd, ret = -1;

	fd = vsb_open_regular(path, 0, &st);
	if (fd < 0)
		return -1;
	if (pread(fd, hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr) ||
	    memcmp(hdr + 0x202, "HdrS", 4))
		goto out;
	off = hdr[0x20e] | hdr[0x20f] << 8;
	n = off ? pread(fd, ver, sizeof(ver) - 1, off + 0x200) : -1;
	if (n <= 0)
		goto out;
	ver[n] = '\0';
	ver[strcspn(ver, " \n")] = '\0';
	if (ver[0] && strlen(ver) < len) {
		strcpy(rel, ver);
		ret = 0;
	}
out:
	close(fd);
	return ret;
}

/* BZIMAGE:BUILD_DIR: a bzImage, and the build folder of that same kernel. */
static int check_built(struct vsb_ab_kernel *k, const char *opt)
{
	char img[4096], dir[4096], path[8192 + 64], krel[256];
	const char *colon = strchr(k->spec, ':');

	if (!colon || !colon[1]) {
		vsb_err("%s %s: a kernel you built needs its build folder too: "
			"BZIMAGE:BUILD_DIR (the module is built against it)", opt, k->spec);
		return VSB_EXIT_USAGE;
	}
	snprintf(img, sizeof(img), "%.*s", (int)(colon - k->spec), k->spec);
	snprintf(dir, sizeof(dir), "%s", colon + 1);
	if (access(img, R_OK) || bzimage_release(img, k->release, sizeof(k->release))) {
		vsb_err("%s %s: %s is %s", opt, k->spec, img, access(img, R_OK) ?
			"not there or not readable" :
			"not a bzImage (no setup header with a kernel version)");
		return VSB_EXIT_USAGE;
	}
	snprintf(path, sizeof(path), "%s/include/config/kernel.release", dir);
	if (vsb_read_file_str(path, krel, sizeof(krel))) {
		vsb_err("%s %s: %s is not a kernel build folder (no "
			"include/config/kernel.release: run make modules_prepare there)",
			opt, k->spec, dir);
		return VSB_EXIT_USAGE;
	}
	krel[strcspn(krel, "\n")] = '\0';
	if (strcmp(krel, k->release)) {
		vsb_err("%s %s: %s is kernel %s but %s was built for %s "
			"(the module would not load)", opt, k->spec, img, k->release,
			dir, krel);
		return VSB_EXIT_USAGE;
	}
	return 0;
}

static int check_kernel(const struct vsb_ab *ab, struct vsb_ab_kernel *k,
			const char *opt)
{
	if (!k->spec[0]) {
		vsb_err("ab: %s KERNEL is missing (see ab --help)", opt);
		return VSB_EXIT_USAGE;
	}
	k->debian = !strncmp(k->spec, "debian:", 7);
	return k->debian ? check_debian(ab, k, opt) : check_built(k, opt);
}

/*
 * The sweep, parsed and checked by the runner's own parser; a point is a
 * kernel point when it runs on the module (backend kmod, or a
 * module-only bench), would in a guest with the module (backend auto
 * for a bench the module runs), or runs the live kernel's own paths
 * (spawn, fallocate, ...): what differs between two kernels.  The
 * wrapper sees each point's options before the benches' check resolves
 * auto, and collects the guest shapes the points need (shape.c).
 */
static size_t module_points;
static struct vsb_ab *checking;

static int point_check(struct vsb_run_opts *o)
{
	const struct vsb_bench *b = vsb_bench_find(o->bench);
	int is_auto = b && b->run_kmod && !strcmp(o->backend, "auto");
	int live = b && (b->sides & VSB_SIDE_LIVE);
	int ret = vsb_run_opts_finish(o);

	if ((ret == 0 || ret == VSB_EXIT_SKIP) &&
	    (is_auto || live || !strcmp(o->backend, "kmod"))) {
		module_points++;
		ret = vsb_ab_shape_add(checking, o) ?: ret;
	}
	return ret;
}

/*
 * The sweep's copy goes into DIR under its own name: a name of ab's own
 * files would be renamed over them (a sweep called .lock replaced the
 * lock file, and a second ab then ran beside the first).
 */
static int check_sweep_name(const struct vsb_ab *ab)
{
	static const char *const own[] = {
		"ab.txt", "summary.md", "base", "new", "compare", ".lock",
	};
	size_t i;

	for (i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (!strcmp(ab->sweep_base, own[i]) ||
		    !strncmp(ab->sweep_base, "ab.txt.tmp", 10)) {
			vsb_err("%s: ab copies the sweep into -o under its name, and %s "
				"is a file of ab's own there: rename the sweep file",
				ab->sweep, ab->sweep_base);
			return VSB_EXIT_USAGE;
		}
	return 0;
}

static int check_sweep(struct vsb_ab *ab)
{
	static struct vsb_sweep sw;
	const char *slash = strrchr(ab->sweep, '/');
	int ret;

	module_points = 0;
	checking = ab;
	ret = vsb_ab_shape_defaults(ab);
	if (ret)
		return ret;
	/* read once: the text parsed is the text copied into DIR and hashed */
	ret = vsb_sweepfile_read(ab->sweep, &ab->sweep_text, &ab->sweep_len);
	if (ret)
		return ret;
	ret = vsb_sweepfile_parse_buf(&sw, ab->sweep, ab->sweep_text, ab->sweep_len,
				      point_check);
	if (ret)
		return ret;
	ab->sweep_hash = sw.file_hash;
	if (!module_points) {
		vsb_err("%s: no module points (backend kmod or auto) and no live-kernel "
			"points: ab boots kernels to run their code; the user-space "
			"points would measure the same binary twice", ab->sweep);
		ret = VSB_EXIT_USAGE;
	} else if (!ab->dir[0]) {
		snprintf(ab->dir, sizeof(ab->dir), "results/ab-%s", sw.name);
	}
	vsb_sweep_free(&sw);
	if (ret)
		return ret;
	if ((size_t)snprintf(ab->sweep_base, sizeof(ab->sweep_base), "%s",
			     slash ? slash + 1 : ab->sweep) >= sizeof(ab->sweep_base)) {
		vsb_err("%s: a sweep file name of at most %zu characters", ab->sweep,
			sizeof(ab->sweep_base) - 1);
		return VSB_EXIT_USAGE;
	}
	return check_sweep_name(ab);
}

/*
 * The folders ab made and the files it reads back or writes last, in a
 * DIR it continues: each ours (no link, owned by us, written by no one
 * else) before anything is read from it, and none of the names written
 * after the boots (summary.md, mix.csv, compare/) planted as a link,
 * FIFO or folder: found now, not after every boot.
 */
static int check_boot_dirs(const char *side)
{
	char path[8192 + 300];
	struct dirent *de;
	int ret = 0;
	DIR *d = opendir(side);

	if (!d)
		return 0;
	while (!ret && (de = readdir(d))) {
		if (strncmp(de->d_name, "boot-", 5) || strchr(de->d_name, '.'))
			continue;
		snprintf(path, sizeof(path), "%s/%s", side, de->d_name);
		ret = vsb_owned(path, S_IFDIR, "-o") == VSB_EXIT_USAGE;
		snprintf(path + strlen(path), sizeof(path) - strlen(path), "/ab-boot.txt");
		ret = ret || vsb_owned(path, S_IFREG, "-o") == VSB_EXIT_USAGE;
	}
	closedir(d);
	return ret ? VSB_EXIT_USAGE : 0;
}

static int check_own_files(const struct vsb_ab *ab)
{
	static const char *const sides[] = { "base", "new", "compare" };
	static const char *const last[] = { "summary.md", "mix.csv", "ab.txt" };
	char path[4096 + 300];
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", ab->dir, sides[i]);
		ret = vsb_owned(path, S_IFDIR, "-o");
		ret = ret == 1 ? 0 : ret ?: i < 2 ? check_boot_dirs(path) : 0;
	}
	for (i = 0; !ret && i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", ab->dir, last[i]);
		ret = vsb_owned(path, S_IFREG, "-o") == VSB_EXIT_USAGE ? VSB_EXIT_USAGE : 0;
	}
	return ret;
}

/* An existing DIR: empty, or an ab of this very question, to continue. */
static int check_same(struct vsb_ab *ab)
{
	char want[11][4096], have[4096];
	static const char *const keys[11] = {
		"base", "new", "sweep_hash", "boots", "smp", "mem", "monitor",
		"possible", "nodes", "cmdline", "mode",
	};
	/* what a folder from before the key has: the default */
	static const char *const was[11] = {
		"(none)", "(none)", "(none)", "(none)", "(none)", "(none)", "none",
		"0", "0", "none", "timed",
	};
	size_t i;

	snprintf(want[0], sizeof(want[0]), "%s", ab->k[VSB_AB_BASE].spec);
	snprintf(want[1], sizeof(want[1]), "%s", ab->k[VSB_AB_NEW].spec);
	snprintf(want[2], sizeof(want[2]), "%016llx", (unsigned long long)ab->sweep_hash);
	snprintf(want[3], sizeof(want[3]), "%ld", ab->boots);
	snprintf(want[4], sizeof(want[4]), "%ld", ab->smp);
	snprintf(want[5], sizeof(want[5]), "%ld", ab->mem);
	snprintf(want[6], sizeof(want[6]), "%s", ab->monitor[0] ? ab->monitor : "none");
	snprintf(want[7], sizeof(want[7]), "%ld", ab->possible);
	snprintf(want[8], sizeof(want[8]), "%ld", ab->nodes);
	snprintf(want[9], sizeof(want[9]), "%s", ab->cmdline[0] ? ab->cmdline : "none");
	snprintf(want[10], sizeof(want[10]), "%s", ab->exact ? "exact" : "timed");
	for (i = 0; i < 11; i++) {
		if (vsb_ab_state_get(ab->dir, keys[i], have, sizeof(have)))
			snprintf(have, sizeof(have), "%s", was[i]);
		if (strcmp(have, want[i])) {
			vsb_err("-o %s holds an ab run whose %s is %s, not %s: "
				"continue it with its own options, or choose another folder",
				ab->dir, keys[i] + 0, have, want[i]);
			return VSB_EXIT_USAGE;
		}
	}
	ab->resume = 1;
	return 0;
}

static int check_outdir(struct vsb_ab *ab)
{
	char path[4096 + 16];
	struct dirent *de;
	struct stat st;
	int busy = 0, fd;
	DIR *d;

	if (stat(ab->dir, &st) && lstat(ab->dir, &st))
		return vsb_dir_refusal(ab->dir, "-o");	/* made later: writable? */
	if (!S_ISDIR(st.st_mode) && !S_ISLNK(st.st_mode)) {
		vsb_err("-o %s: exists and is not a folder", ab->dir);
		return VSB_EXIT_USAGE;
	}
	if (vsb_dir_refusal(ab->dir, "-o") || vsb_owned_top(ab->dir, "-o"))
		return VSB_EXIT_USAGE;
	snprintf(path, sizeof(path), "%s/ab.txt", ab->dir);
	fd = vsb_open_regular(path, O_NOFOLLOW, &st);
	if (fd >= 0) {
		close(fd);
		return check_own_files(ab) ?: check_same(ab);
	}
	if (fd != -ENOENT) {
		vsb_err("-o %s: %s: %s: refused, nothing run", ab->dir, path,
			vsb_read_strerror(-fd));
		return VSB_EXIT_USAGE;
	}
	d = opendir(ab->dir);
	if (!d) {
		vsb_err("-o %s: cannot read the folder", ab->dir);
		return VSB_EXIT_USAGE;
	}
	while (!busy && (de = readdir(d)))
		busy = strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	if (busy) {
		vsb_err("-o %s: not empty and holds no ab run (no ab.txt): give a new "
			"or empty folder", ab->dir);
		return VSB_EXIT_USAGE;
	}
	return 0;
}

/* One host CPU per vCPU, the first ones this process may use; or why not. */
static void plan_pinning(struct vsb_ab *ab)
{
	cpu_set_t set;
	long got = 0;
	int cpu, n;

	ab->pin[0] = ab->pin_why[0] = '\0';
	if (sched_getaffinity(0, sizeof(set), &set)) {
		snprintf(ab->pin_why, sizeof(ab->pin_why), "host CPUs unknown");
		return;
	}
	n = CPU_COUNT(&set);
	if (n < ab->smp) {
		snprintf(ab->pin_why, sizeof(ab->pin_why),
			 "the host gives %d CPUs for %ld vCPUs", n, ab->smp);
		return;
	}
	for (cpu = 0; cpu < CPU_SETSIZE && got < ab->smp; cpu++)
		if (CPU_ISSET(cpu, &set))
			snprintf(ab->pin + strlen(ab->pin), sizeof(ab->pin) - strlen(ab->pin),
				 "%s%d", got++ ? "," : "", cpu);
}

/* The binary itself (it runs in the guest too) and ci/ab-run.sh beside it. */
static int find_self(struct vsb_ab *ab)
{
	ssize_t n = readlink("/proc/self/exe", ab->self, sizeof(ab->self) - 1);
	char *slash;

	if (n <= 0)
		goto err;
	ab->self[n] = '\0';
	snprintf(ab->script, sizeof(ab->script), "%s", ab->self);
	slash = strrchr(ab->script, '/');		/* <checkout>/<build>/vmstat-bench */
	if (!slash)
		goto err;
	*slash = '\0';
	slash = strrchr(ab->script, '/');
	if (!slash)
		goto err;
	strcpy(slash, "/ci/ab-run.sh");
	if (access(ab->script, R_OK) == 0)
		return 0;
err:
	vsb_err("ab: needs the checkout it was built in (no ci/ab-run.sh next to "
		"the binary's folder)");
	return VSB_EXIT_ERROR;
}

/* VSB_VM_ACCEL: kvm, tcg, or unset (the probe decides) */
int vsb_ab_check_accel(void)
{
	const char *accel = getenv("VSB_VM_ACCEL");

	if (!accel || !*accel || !strcmp(accel, "kvm") || !strcmp(accel, "tcg"))
		return 0;
	vsb_err("VSB_VM_ACCEL=%.40s: want kvm, tcg, or unset (the KVM probe decides)",
		accel);
	return VSB_EXIT_USAGE;
}

/*
 * What the mode, once known, bounds: exact mode's plugin counts at most
 * VSB_AB_EXACT_VCPUS vCPUs (QEMU's -smp is a guest's possible CPUs);
 * timed mode starts at --boots, which --max-boots must not be below.
 */
int vsb_ab_check_mode_limits(const struct vsb_ab *ab)
{
	size_t i;

	if (!ab->exact) {
		if (ab->max_boots_given && ab->max_boots < ab->boots) {
			vsb_err("--max-boots %ld is below timed mode's %ld boots a side: it "
				"is the most boots a side may grow to", ab->max_boots,
				ab->boots);
			return VSB_EXIT_USAGE;
		}
		return 0;
	}
	if (ab->smp > VSB_AB_EXACT_VCPUS || ab->possible > VSB_AB_EXACT_VCPUS) {
		vsb_err("exact mode counts at most %d vCPUs a guest: --%s %ld is more "
			"(use --timed)", VSB_AB_EXACT_VCPUS, ab->possible > ab->smp ?
			"possible" : "smp", ab->possible > ab->smp ? ab->possible : ab->smp);
		return VSB_EXIT_USAGE;
	}
	for (i = 0; i < ab->nshapes; i++)
		if (ab->shapes[i].cpus > VSB_AB_EXACT_VCPUS ||
		    ab->shapes[i].possible > VSB_AB_EXACT_VCPUS) {
			vsb_err("%s: exact mode counts at most %d vCPUs a guest; a point "
				"asks for %ld (use --timed)", ab->sweep, VSB_AB_EXACT_VCPUS,
				ab->shapes[i].possible > ab->shapes[i].cpus ?
				ab->shapes[i].possible : ab->shapes[i].cpus);
			return VSB_EXIT_USAGE;
		}
	return 0;
}

/*
 * --check-options: what the options alone tell, no kernel, sweep or DIR
 * looked at (bisect asks before its first build): VSB_VM_ACCEL, and
 * with --exact or --timed given, that mode's limits.
 */
int vsb_ab_check_options(const struct vsb_ab *ab)
{
	const char *accel = getenv("VSB_VM_ACCEL");
	int ret = vsb_ab_check_accel();

	if (ret || !ab->mode_given)
		return ret;
	if (ab->exact && accel && !strcmp(accel, "kvm")) {
		vsb_err("--exact counts instructions under TCG; VSB_VM_ACCEL=kvm "
			"asks for KVM, where no plugin sees them: use --timed");
		return VSB_EXIT_USAGE;
	}
	return vsb_ab_check_mode_limits(ab);
}

/*
 * Every check before the first boot, in the order the messages should
 * come; then the pinning plan.  0 or VSB_EXIT_* after one line.
 */
int vsb_ab_check(struct vsb_ab *ab)
{
	int ret = find_self(ab);

	if (!ret)
		ret = check_kernel(ab, &ab->k[VSB_AB_BASE], "--base");
	if (!ret)
		ret = check_kernel(ab, &ab->k[VSB_AB_NEW], "--new");
	if (!ret)
		ret = check_sweep(ab);
	if (!ret)
		ret = vsb_ab_check_accel();
	if (!ret)
		ret = vsb_ab_mode(ab);
	if (!ret)
		ret = vsb_ab_check_mode_limits(ab);
	if (!ret)
		ret = check_outdir(ab);
	if (ret)
		return ret;
	ab->module_points = module_points;
	if (ab->exact)
		snprintf(ab->pin_why, sizeof(ab->pin_why), "exact mode: one host thread "
			 "runs every vCPU, and counts do not depend on where it runs");
	else
		plan_pinning(ab);
	return 0;
}
