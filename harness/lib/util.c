// SPDX-License-Identifier: GPL-2.0
/*
 * Small helpers: allocation, number parsing, sysfs reads,
 * signal flag, and the all-or-nothing result file.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vsb.h"

volatile sig_atomic_t vsb_interrupted;

/* information, not a problem: "vmstat-bench: what" */

void *vsb_zalloc(size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (!p) {
		vsb_err("out of memory (%zu bytes)", size);
		exit(VSB_EXIT_ERROR);
	}
	return p;
}

/* Cache-line aligned and padded, so no two workers ever share a line. */
void *vsb_zalloc_aligned(size_t size)
{
	size_t padded = (size + VSB_CACHELINE - 1) & ~(size_t)(VSB_CACHELINE - 1);
	void *p = NULL;

	if (posix_memalign(&p, VSB_CACHELINE, padded ? padded : VSB_CACHELINE)) {
		vsb_err("out of memory (%zu bytes)", padded);
		exit(VSB_EXIT_ERROR);
	}
	memset(p, 0, padded ? padded : VSB_CACHELINE);
	return p;
}

/*
 * Page-aligned and page-padded: for the data the bench measures (each
 * worker's diffs, the shared counters).  Cache-line padding alone is not
 * enough: adjacent-line prefetchers fetch 128-byte pairs, so two workers'
 * slots 64 bytes apart still interfere, and did, bimodally, from one run
 * to the next.  A page each is what separate per-CPU units give.
 */
void *vsb_zalloc_page(size_t size)
{
	size_t padded = (size + 4095) & ~(size_t)4095;
	void *p = NULL;

	if (!padded)
		padded = 4096;
	if (posix_memalign(&p, 4096, padded)) {
		vsb_err("out of memory (%zu bytes)", padded);
		exit(VSB_EXIT_ERROR);
	}
	memset(p, 0, padded);
	return p;
}

int vsb_read_file_str(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

/*
 * The one way a file the user names is opened for reading (sweep files,
 * partials, CSVs for compare and plot, the sysctl state file): without
 * blocking (a FIFO opens at once instead of waiting for a writer), then
 * fstat() of the descriptor itself, so what is checked is what is read,
 * and anything but a regular file refused.  A symlink is followed (a
 * link to a results file is fine), but a link to /dev/zero is refused
 * because its target is a device.  @flags adds O_NOFOLLOW where a link
 * is suspect.  Returns the descriptor, or -(errno), or -(VSB_ENOTREG +
 * the file type) for vsb_read_strerror().
 */
int vsb_open_regular(const char *path, int flags, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | flags);

	if (fd < 0)
		return -errno;
	if (fstat(fd, st)) {
		int e = errno;

		close(fd);
		return -e;
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		return S_ISDIR(st->st_mode) ? -EISDIR :
		       -(VSB_ENOTREG + (int)((st->st_mode & S_IFMT) >> 12));
	}
	/* reads of a regular file never block; the flag is not wanted */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

/* strerror() that also names vsb_open_regular()'s refusals */
const char *vsb_read_strerror(int e)
{
	mode_t t;

	if (e == EFBIG)
		return "too large to be a vmstat-bench input";
	if (e == ELOOP)
		return "a symbolic link (refused here)";
	if (e < VSB_ENOTREG)
		return strerror(e);
	t = (mode_t)(e - VSB_ENOTREG) << 12;
	return S_ISFIFO(t) ? "not a regular file (a FIFO)" :
	       S_ISCHR(t) ? "not a regular file (a character device)" :
	       S_ISBLK(t) ? "not a regular file (a block device)" :
	       S_ISSOCK(t) ? "not a regular file (a socket)" :
	       "not a regular file";
}

/*
 * The whole of @path, NUL-terminated, into a malloc'd *@bufp, through
 * vsb_open_regular().  0, or an error for vsb_read_strerror(): the
 * open's or the read's, EISDIR, VSB_ENOTREG+type, EFBIG past @max bytes
 * (clamped to VSB_READ_MAX; nothing is kept then).  A file that grows
 * while it is read is cut at the cap, never read without end.
 */
int vsb_read_whole(const char *path, size_t max, char **bufp, size_t *lenp)
{
	struct stat st;
	int fd, e;

	fd = vsb_open_regular(path, 0, &st);
	if (fd < 0)
		return -fd;
	e = vsb_read_fd(fd, &st, max, bufp, lenp);
	close(fd);
	if (e == ENOMEM) {
		vsb_err("out of memory reading %s", path);
		exit(VSB_EXIT_ERROR);
	}
	return e;
}

/* The rest of vsb_read_whole(), for a descriptor vsb_open_regular() gave. */
int vsb_read_fd(int fd, const struct stat *st, size_t max, char **bufp,
		size_t *lenp)
{
	size_t cap = 1 << 16, len = 0;
	ssize_t n;
	char *buf, *nb;
	int e = 0;

	if (max > VSB_READ_MAX)
		max = VSB_READ_MAX;
	if ((unsigned long long)st->st_size > max)
		return EFBIG;
	buf = malloc(cap + 1);
	if (!buf)
		return ENOMEM;
	while (!e && (n = read(fd, buf + len, cap - len)) != 0) {
		if (n < 0) {
			if (errno != EINTR)
				e = errno;
			continue;
		}
		len += (size_t)n;
		if (len > max) {
			e = EFBIG;
		} else if (len == cap) {
			cap *= 2;
			nb = realloc(buf, cap + 1);
			if (!nb)
				e = ENOMEM;
			else
				buf = nb;
		}
	}
	if (e) {
		free(buf);
		return e;
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
}

int vsb_read_file_long(const char *path, long *out)
{
	char buf[64];

	if (vsb_read_file_str(path, buf, sizeof(buf)))
		return -1;
	return vsb_parse_long(buf, out);
}

static void on_signal(int sig)
{
	(void)sig;
	vsb_interrupted = 1;
}

/* @fn for SIGINT, SIGTERM and SIGHUP: the signals that stop a run */
void vsb_on_stop_signals(void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

void vsb_install_signal_handlers(void)
{
	vsb_on_stop_signals(on_signal);
}

/*
 * The directory part of @path ("." when there is none), for messages.
 * @path must not end in '/' (vsb_outfile_open refuses that first).
 */
static void path_dir(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(buf, len, ".");
	else if (slash == path)
		snprintf(buf, len, "/");
	else
		snprintf(buf, len, "%.*s", (int)(slash - path), path);
}

/* What is at @path if it is not a plain file or absent; NULL when fine. */
static const char *outfile_refusal(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return NULL;
	if (S_ISREG(st.st_mode))
		return NULL;
	return S_ISDIR(st.st_mode) ? "a directory (give a file name)" :
	       S_ISLNK(st.st_mode) ? "a symbolic link (the result would replace "
				     "the link, not its target: give the real path)" :
	       S_ISFIFO(st.st_mode) ? "a FIFO, not a regular file" :
	       S_ISCHR(st.st_mode) ? "a character device, not a regular file" :
	       S_ISBLK(st.st_mode) ? "a block device, not a regular file" :
	       S_ISSOCK(st.st_mode) ? "a socket, not a regular file" :
	       "not a regular file";
}

/*
 * "@base.tmp<pid>-XXXXXX" of a vmstat-bench that is gone: the temporary
 * of a SIGKILLed run, which no exit path could remove.  Only names of
 * exactly that shape for this exact target, only regular files, and
 * only when the pid in the name no longer exists (a live run's
 * temporary is its own).
 */
static void outfile_clean_stale(const char *dir, const char *base)
{
	size_t bl = strlen(base);
	struct dirent *de;
	struct stat st;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		const char *p = de->d_name;
		char *end;
		long pid;
		int i;

		if (strncmp(p, base, bl) || strncmp(p + bl, ".tmp", 4))
			continue;
		p += bl + 4;
		if (*p < '1' || *p > '9')
			continue;
		pid = strtol(p, &end, 10);
		if (*end != '-' || strlen(end + 1) != 6)
			continue;
		for (i = 1; i <= 6 && isalnum((unsigned char)end[i]); i++)
			;
		if (i <= 6 || pid == (long)getpid() || pid > INT_MAX ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode))
			continue;
		if (!unlinkat(dirfd(d), de->d_name, 0))
			vsb_warn("removed %s/%s, left by a killed run (pid %ld)", dir,
				 de->d_name, pid);
	}
	closedir(d);
}

/*
 * vsb_outfile_open()'s refusal alone, nothing created: for a command
 * that writes several files and must refuse before it writes the first.
 */
int vsb_outfile_check(const char *path, const char *opt)
{
	const char *why = outfile_refusal(path);

	if (!why)
		return 0;
	vsb_err("%s: %s is %s: refused, nothing written", opt, path, why);
	return VSB_EXIT_USAGE;
}

int vsb_outfile_open(struct vsb_outfile *o, const char *path, const char *opt)
{
	size_t n = strlen(path);
	const char *slash;
	char dir[4096];
	int fd;

	memset(o, 0, sizeof(*o));
	if (!n) {
		vsb_err("%s: empty file name", opt);
		return VSB_EXIT_USAGE;
	}
	if (n >= sizeof(o->path)) {
		vsb_err("%s: path too long", opt);
		return VSB_EXIT_USAGE;
	}
	/*
	 * The temporary file goes next to @path and is renamed over it at
	 * the end: that rename would replace a device node, a FIFO or a
	 * link with a regular file, and fail on a directory only after the
	 * whole run.  Refuse anything but a regular file now.
	 */
	if (path[n - 1] == '/') {
		vsb_err("%s: %s is a directory (give a file name)", opt, path);
		return VSB_EXIT_USAGE;
	}
	if (vsb_outfile_check(path, opt))
		return VSB_EXIT_USAGE;
	strcpy(o->path, path);
	path_dir(path, dir, sizeof(dir));
	slash = strrchr(path, '/');
	outfile_clean_stale(dir, slash ? slash + 1 : path);
	snprintf(o->tmp, sizeof(o->tmp), "%s.tmp%ld-XXXXXX", path, (long)getpid());
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		int e = errno;

		if (e == ENOENT)
			vsb_err("%s: cannot write %s: directory %s does not exist",
				opt, path, dir);
		else
			vsb_err("%s: cannot write %s: %s", opt, path, strerror(e));
		o->tmp[0] = '\0';
		return VSB_EXIT_USAGE;
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		close(fd);
		unlink(o->tmp);
		vsb_err("%s: %s: %s", opt, path, strerror(errno));
		return VSB_EXIT_ERROR;
	}
	return 0;
}

int vsb_outfile_commit(struct vsb_outfile *o)
{
	int bad;
	sigset_t all, old;

	bad = fflush(o->f) || ferror(o->f) || fsync(fileno(o->f));
	bad |= fclose(o->f);
	o->f = NULL;
	if (bad) {
		vsb_err("%s: write failed: %s", o->path, strerror(errno));
		unlink(o->tmp);
		return VSB_EXIT_ERROR;
	}
	/* mkstemp makes 0600; results are meant to be shared */
	chmod(o->tmp, 0644);
	/* the rename is the commit point: no signal between it and cleanup */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	/* something put there during the run is not ours to replace */
	if (outfile_refusal(o->path)) {
		vsb_err("%s is %s now: refused, result not written", o->path,
			outfile_refusal(o->path));
		unlink(o->tmp);
		o->tmp[0] = '\0';
		sigprocmask(SIG_SETMASK, &old, NULL);
		return VSB_EXIT_ERROR;
	}
	if (rename(o->tmp, o->path)) {
		vsb_err("%s: %s", o->path, strerror(errno));
		unlink(o->tmp);
		sigprocmask(SIG_SETMASK, &old, NULL);
		return VSB_EXIT_ERROR;
	}
	o->tmp[0] = '\0';
	sigprocmask(SIG_SETMASK, &old, NULL);
	return 0;
}

void vsb_outfile_abort(struct vsb_outfile *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp[0])
		unlink(o->tmp);
	o->tmp[0] = '\0';
}

/* Page counters from /proc/vmstat; pgalloc sums every zone's pgalloc_*. */
int vsb_vmstat_read(struct vsb_vmstat_snap *s)
{
	char name[64];
	unsigned long long v;
	FILE *f = fopen("/proc/vmstat", "r");

	memset(s, 0, sizeof(*s));
	if (!f)
		return -1;
	while (fscanf(f, "%63s %llu", name, &v) == 2) {
		if (!strcmp(name, "pgfault"))
			s->pgfault = v;
		else if (!strncmp(name, "pgalloc_", 8))
			s->pgalloc += v;
		else if (!strcmp(name, "pgfree"))
			s->pgfree = v;
		else if (!strcmp(name, "thp_fault_alloc"))
			s->thp_fault_alloc = v;
	}
	fclose(f);
	return 0;
}

/* One /proc/vmstat line by name: 0 and *v, or -1 when absent. */
int vsb_vmstat_value(const char *key, unsigned long long *v)
{
	char name[64];
	unsigned long long x;
	FILE *f = fopen("/proc/vmstat", "re");
	int ret = -1;

	if (!f)
		return -1;
	while (ret && fscanf(f, "%63s %llu", name, &x) == 2)
		if (!strcmp(name, key)) {
			*v = x;
			ret = 0;
		}
	fclose(f);
	return ret;
}

static inline void spin_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/*
 * A spinning barrier for the workers of every bench (threads, or
 * processes when it sits in shared memory): pthread_barrier_wait sleeps
 * in the kernel, and the wake-up skew would leave some CPUs running alone
 * at the start of a sample.  The last worker in decides whether the run
 * goes on (the signal flag, or the caller's @stop_req word), so every
 * worker sees the same verdict; once stopped, nobody waits any more.
 */
int vsb_barrier_wait(struct vsb_barrier *b, const unsigned int *stop_req)
{
	unsigned int gen = __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE);
	unsigned long spins = 0;

	if (__atomic_load_n(&b->stop, __ATOMIC_ACQUIRE))
		return 1;
	if (__atomic_add_fetch(&b->count, 1, __ATOMIC_ACQ_REL) == b->n) {
		b->count = 0;
		if (vsb_interrupted ||
		    (stop_req && __atomic_load_n(stop_req, __ATOMIC_ACQUIRE)))
			__atomic_store_n(&b->stop, 1, __ATOMIC_RELEASE);
		__atomic_store_n(&b->gen, gen + 1, __ATOMIC_RELEASE);
	} else {
		while (__atomic_load_n(&b->gen, __ATOMIC_ACQUIRE) == gen)
			if (++spins % 4096 == 0)
				sched_yield();	/* an unpinned helper may need this CPU */
			else
				spin_relax();
	}
	return __atomic_load_n(&b->stop, __ATOMIC_ACQUIRE);
}

/* A worker that never started cannot fill the barrier: release the rest. */
void vsb_barrier_break(struct vsb_barrier *b)
{
	__atomic_store_n(&b->stop, 1, __ATOMIC_RELEASE);
	__atomic_add_fetch(&b->gen, 1, __ATOMIC_RELEASE);
}

/*
 * A byte count: vsb_scan_decimal's digits (no sign, no 0x, no leading
 * zeros), then an optional K/M/G (binary) and an optional "B" or "iB".
 */
int vsb_parse_size(const char *s, unsigned long long *out)
{
	unsigned long long mul = 1;
	const char *end;
	long v;

	if (!s || *s == '-')
		return -1;
	end = vsb_scan_decimal(s, &v);
	if (!end)
		return -1;
	switch (*end) {
	case 'k': case 'K':
		mul = 1ull << 10;
		end++;
		break;
	case 'm': case 'M':
		mul = 1ull << 20;
		end++;
		break;
	case 'g': case 'G':
		mul = 1ull << 30;
		end++;
		break;
	}
	if (mul > 1 && end[0] == 'i' && end[1] == 'B')	/* 64KiB */
		end += 2;
	else if (*end == 'B')				/* 64KB, 4096B */
		end++;
	if (*end || v <= 0 || (unsigned long long)v > (1ull << 40) / mul)
		return -1;
	*out = (unsigned long long)v * mul;
	return 0;
}

int vsb_check_size(const char *v, const char *where)
{
	unsigned long long s;

	if (vsb_parse_size(v, &s)) {
		vsb_err("%s: '%s' is not a size (decimal bytes, or with K/M/G; 1 byte "
			"to 1024G)", where, v);
		return VSB_EXIT_USAGE;
	}
	return 0;
}

int vsb_mkdir_p(const char *dir, mode_t mode)
{
	char p[4096];
	size_t i;

	if (strlen(dir) >= sizeof(p)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(p, dir);
	for (i = 1; p[i]; i++)
		if (p[i] == '/') {
			p[i] = '\0';
			if (mkdir(p, mode) && errno != EEXIST)
				return -1;
			p[i] = '/';
		}
	return mkdir(p, mode) && errno != EEXIST ? -1 : 0;
}

/*
 * What stands in the way of @dir being a directory: an existing path in
 * it (or @dir itself) that is not one.  Checked before anything is
 * created, so that `sweep -o results.csv` (a file) is refused before
 * any point runs and before a single folder is made.  Links to directories
 * are fine.
 */
int vsb_dir_refusal(const char *dir, const char *opt)
{
	char buf[4096];
	struct stat st;
	char *p;

	if (strlen(dir) >= sizeof(buf)) {
		vsb_err("%s: path too long", opt);
		return VSB_EXIT_USAGE;
	}
	strcpy(buf, dir);
	for (p = buf + 1;; p++) {
		if (*p && *p != '/')
			continue;
		if (*p == '/' && p[-1] == '/')
			continue;
		*p = '\0';
		/* a link to nothing stands in the way too: mkdir() fails on it */
		if (stat(buf, &st) ? !lstat(buf, &st) : !S_ISDIR(st.st_mode)) {
			vsb_err("%s: %s is not a directory (results go into a "
				"folder): refused, nothing run", opt, buf);
			return VSB_EXIT_USAGE;
		}
		if (p == buf + strlen(dir))
			return 0;
		*p = '/';
	}
}
