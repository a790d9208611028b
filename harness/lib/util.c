// SPDX-License-Identifier: GPL-2.0
/*
 * Small helpers: diagnostics, allocation, number parsing, sysfs reads,
 * signal flag, and the all-or-nothing result file.
 */
#define _GNU_SOURCE
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

static void vmsg(const char *kind, const char *fmt, va_list ap)
{
	fprintf(stderr, VSB_NAME ": %s", kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void vsb_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void vsb_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

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

/* A whole-string base-10 (or 0x) integer; -1 on anything else. */
int vsb_parse_long(const char *s, long *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || *end || end == s)
		return -1;
	*out = v;
	return 0;
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
 * The whole of @path, NUL-terminated, into a malloc'd *@bufp.  0, or an
 * errno: the open's or the read's, EISDIR for a directory, EFBIG past
 * @max bytes (nothing is kept then).
 */
int vsb_read_whole(const char *path, size_t max, char **bufp, size_t *lenp)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, len = 0, n;
	struct stat st;
	char *buf;
	int e = 0;

	if (!f)
		return errno;
	/* fopen() opens a directory; reading it fails only later */
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
		fclose(f);
		return EISDIR;
	}
	buf = vsb_zalloc(cap + 1);
	while (!e && (n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len > max) {
			e = EFBIG;
		} else if (len == cap) {
			cap *= 2;
			buf = realloc(buf, cap + 1);
			if (!buf) {
				vsb_err("out of memory reading %s", path);
				exit(VSB_EXIT_ERROR);
			}
		}
	}
	if (!e && ferror(f))
		e = errno ? errno : EIO;
	fclose(f);
	if (e) {
		free(buf);
		return e;
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
}

/* @s as an integer in [@min, @max] into *@out; one line naming @opt if not. */
int vsb_parse_long_range(const char *opt, const char *s, long min, long max, long *out)
{
	long v;

	if (vsb_parse_long(s, &v)) {
		vsb_err("%s: '%s' is not an integer", opt, s);
		return VSB_EXIT_USAGE;
	}
	if (v < min || v > max) {
		vsb_err("%s: %ld is out of range (%ld..%ld)", opt, v, min, max);
		return VSB_EXIT_USAGE;
	}
	*out = v;
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

void vsb_install_signal_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
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

int vsb_outfile_open(struct vsb_outfile *o, const char *path, const char *opt)
{
	struct stat st;
	size_t n = strlen(path);
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
	 * the end: a directory there would only fail at that rename, after
	 * the whole run.  Refuse it now.
	 */
	if (path[n - 1] == '/' || (!stat(path, &st) && S_ISDIR(st.st_mode))) {
		vsb_err("%s: %s is a directory (give a file name)", opt, path);
		return VSB_EXIT_USAGE;
	}
	strcpy(o->path, path);
	snprintf(o->tmp, sizeof(o->tmp), "%s.tmpXXXXXX", path);
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		int e = errno;

		path_dir(path, dir, sizeof(dir));
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

int vsb_parse_size(const char *s, unsigned long long *out)
{
	unsigned long long v, mul = 1;
	char *end;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
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
	if (*end == 'i' || *end == 'B')	/* accept 64KiB, 64KB */
		end += *end == 'i' && end[1] == 'B' ? 2 : 1;
	if (*end || v == 0 || v > (1ull << 40) / mul)
		return -1;
	*out = v * mul;
	return 0;
}

int vsb_check_size(const char *v, const char *where)
{
	unsigned long long s;

	if (vsb_parse_size(v, &s)) {
		vsb_err("%s: '%s' is not a size (bytes, or with K/M/G; at most 1024G)",
			where, v);
		return VSB_EXIT_USAGE;
	}
	return 0;
}
