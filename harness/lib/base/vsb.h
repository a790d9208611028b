/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vmstat-bench harness: the declarations every part of the CLI shares.
 *
 * Conventions: functions that can fail print one line naming what was
 * wrong (vsb_err) and return a VSB_EXIT_* code; only main() and the
 * command functions turn that into the process exit status, so a sweep
 * can run many points in one process and record a failing point.
 */
#ifndef VSB_HARNESS_H
#define VSB_HARNESS_H

#include <stddef.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <pthread.h>
#include <signal.h>
#include <sys/types.h>

#define VSB_NAME "vmstat-bench"

/* Exit codes (docs/architecture.md; 4 is the kselftest skip code). */
enum {
	VSB_EXIT_OK = 0,
	VSB_EXIT_ERROR = 1,
	VSB_EXIT_USAGE = 2,
	VSB_EXIT_UNTRUSTED = 3,
	VSB_EXIT_SKIP = 4,
	/* compare, ab, history --check: no regression, but some point undecided */
	VSB_EXIT_INCONCLUSIVE = 5,
};

#define VSB_CACHELINE 64
#define VSB_MAX_CPUS 4096

/* Documented limits of the counter bench options. */
#define VSB_LOOPS_MAX	1000000000L	/* operations per timed sample */
#define VSB_REPEAT_MAX	1000L
#define VSB_WARMUP_MAX	100L
#define VSB_ITEMS_MAX	64L		/* more than NR_VM_ZONE_STAT_ITEMS */
#define VSB_DELTA_MAX	100L
#define VSB_BATCH_MAX	(1L << 30)

/* ---- errlog.c: one line on stderr ---- */
void vsb_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vsb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vsb_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- errlog.c: messages recorded for a caller that words them ---- */
struct vsb_errlog {
	char text[1024];	/* every message, ';'-joined, "warning: " kept */
	char opt[40];		/* the option the last refusal (else warning) names */
	int opt_is_err;
	struct vsb_errlog *prev;	/* the log this one nests in */
};
void vsb_errlog_begin(struct vsb_errlog *log);
void vsb_errlog_end(struct vsb_errlog *log);
int vsb_errlog_note(const char *kind, const char *fmt, va_list ap);
/* vsb_err/vsb_warn about option --@opt (named without dashes) */
void vsb_errlog_blame(const char *opt);
void vsb_err_opt(const char *opt, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void vsb_warn_opt(const char *opt, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void *vsb_zalloc(size_t size);
void *vsb_zalloc_aligned(size_t size);
void *vsb_zalloc_page(size_t size);
/* grow.c: room for element @n (capacity in *@cap, doubling) */
void *vsb_grow(void *p, size_t n, size_t *cap, size_t size);
void vsb_fputs_line(FILE *f, const char *prefix, const char *kind,
		    const char *fmt, va_list ap);
/* decimal only, optional '-', no leading zeros (numbers.c says why) */
const char *vsb_scan_decimal(const char *s, long *out);
int vsb_parse_long(const char *s, long *out);
/* the same for a fraction: "0.01", ".5", "1e-3"; no sign, hex, inf, nan */
const char *vsb_scan_real(const char *s, double *out);
int vsb_parse_real(const char *s, double *out);
/* @v * @scale as a whole count in [@min, @max], checked unrounded (numbers.c) */
#define VSB_UNITS_RANGE		(-2)
#define VSB_UNITS_FRACTION	(-3)
int vsb_real_units(double v, double scale, long long min, long long max,
		   long long *out);
int vsb_read_file_str(const char *path, char *buf, size_t len);
int vsb_read_file_long(const char *path, long *out);
/* Files the user names: regular files only, size-capped (readfile.c) */
#define VSB_READ_MAX	(256u << 20)	/* no input is larger */
#define VSB_ENOTREG	0x10000		/* + (st_mode & S_IFMT) >> 12 */
struct stat;
int vsb_open_regular(const char *path, int flags, struct stat *st);
int vsb_read_whole(const char *path, size_t max, char **bufp, size_t *lenp);
int vsb_read_fd(int fd, const struct stat *st, size_t max, char **bufp,
		size_t *lenp);
FILE *vsb_fopen_regular(const char *path, size_t max, int *err);
const char *vsb_read_strerror(int e);
int vsb_parse_long_range(const char *opt, const char *s, long min, long max, long *out);
int vsb_parse_size(const char *s, unsigned long long *out);
/* numlist.c: "A,B,..." of 1..2^30 each, at most @max; the count or -1 */
int vsb_parse_ulong_list(const char *s, unsigned long *v, int max);
int vsb_check_size(const char *v, const char *where);

/* ---- getopt.c: the commands' option loop ---- */
#include <getopt.h>
enum { VSB_GETOPT_END = 0, VSB_GETOPT_HELP = -1, VSB_GETOPT_BAD = -2 };
struct vsb_getopt {
	const char *cmd;		/* names the command in messages */
	const char *shorts;		/* getopt's ("+o:"), without h */
	const struct option *longs;	/* zero-terminated, with "help" -> 'h' */
	void (*usage)(FILE *f);		/* --help prints this to stdout */
	int argc;
	char **argv;
	int started;
	char optstr[64];
};
#define VSB_GETOPT(c, s, l, u, ac, av) \
	{ .cmd = (c), .shorts = (s), .longs = (l), .usage = (u), .argc = (ac), .argv = (av) }
/*
 * The next option's code with its value in *arg; VSB_GETOPT_END after
 * the last, VSB_GETOPT_HELP after --help, VSB_GETOPT_BAD after one line
 * naming a bad option.  vsb_getopt_status() turns the last two into
 * the command's exit status.
 */
int vsb_getopt_next(struct vsb_getopt *g, const char **arg);
int vsb_getopt_status(int c);

/* Signals: SIGINT/SIGTERM/SIGHUP set a flag the runners poll between
 * samples; nothing is written from the handler. */
extern volatile sig_atomic_t vsb_interrupted;
void vsb_install_signal_handlers(void);
void vsb_on_stop_signals(void (*fn)(int));
/* Block them (the old mask into @old): kept across fork and exec. */
void vsb_block_stop_signals(sigset_t *old);

/*
 * A result file that appears complete or not at all: written to a
 * temporary file in the target directory, renamed over the target on
 * commit, unlinked on abort.  Created before the run so that an
 * unwritable -o fails before any time is spent.
 */
struct vsb_outfile {
	char path[4096];
	char tmp[4096 + 32];	/* PATH.tmp<pid>-XXXXXX */
	FILE *f;
};
/* 0, or VSB_EXIT_USAGE after one line: a path in @dir is not a folder */
int vsb_dir_refusal(const char *dir, const char *opt);
/*
 * dirlock.c: @dir (a folder that exists) is written by this process and
 * the ones it starts alone, until it ends; 0, or VSB_EXIT_USAGE after one
 * line naming @opt when another vmstat-bench writes there.
 */
int vsb_dir_lock(const char *dir, const char *opt);
/* mkdir -p: @dir and every missing folder above it; 0, or -1 with errno */
int vsb_mkdir_p(const char *dir, mode_t mode);
int vsb_outfile_open(struct vsb_outfile *o, const char *path, const char *opt);
/* its refusal alone, nothing created: 0, or VSB_EXIT_USAGE after one line */
int vsb_outfile_check(const char *path, const char *opt);
int vsb_outfile_commit(struct vsb_outfile *o);
/*
 * owned.c: state the tool resumes from is trusted only when it is of
 * @type (S_IFDIR, S_IFREG), no symbolic link, owned by the user running
 * the tool and writable by no one else: 0, 1 when absent, or
 * VSB_EXIT_USAGE after one line naming @opt.  vsb_owned_top() takes a
 * folder named on the command line through a link of the user's own.
 */
int vsb_owned(const char *path, mode_t type, const char *opt);
int vsb_owned_stat(const char *path, mode_t type, const char *opt, int follow);
int vsb_owned_top(const char *path, const char *opt);
void vsb_outfile_abort(struct vsb_outfile *o);

struct vsb_barrier {
	unsigned int n;		/* workers that meet here */
	unsigned int count;
	unsigned int gen;
	unsigned int stop;
} __attribute__((aligned(VSB_CACHELINE)));
int vsb_barrier_wait(struct vsb_barrier *b, const unsigned int *stop_req);
void vsb_barrier_break(struct vsb_barrier *b);

/* ---- cpus.c ---- */
/*
 * A CPU list: @n CPUs at @cpu, in the order given.  The array lives in a
 * pool (cpus.c), never changes and is kept for the process's life, so a
 * list is 16 bytes and copies by value with the option set or sweep
 * point holding it (inline, it was 16 KB a list).  Equal lists share one
 * array.  Build one with vsb_cpulist_set(); n == 0 has cpu NULL.  A
 * list used only while its array is in scope (formatted, checked) may
 * instead point at that array: { .n = n, .cpu = array }.
 */
struct vsb_cpulist {
	int n;
	const int *cpu;
};
/* @cl = the @n CPUs at @cpu (copied: @cpu may be a scratch array) */
void vsb_cpulist_set(struct vsb_cpulist *cl, const int *cpu, int n);
int vsb_cpulist_parse(const char *s, struct vsb_cpulist *cl, const char *opt);
/* A sysfs list ("0-3,8\n", "" for none), quietly: 0, or -1 malformed */
int vsb_cpulist_parse_sysfs(const char *s, struct vsb_cpulist *cl);
int vsb_cpulist_check_usable(const struct vsb_cpulist *cl, const char *opt);
/* 1 when @cpu is online (cpu0, which often has no online file, always is) */
int vsb_cpu_online(int cpu);
void vsb_cpulist_format(const struct vsb_cpulist *cl, char *buf, size_t len,
			char sep);
int vsb_cpu_first_allowed(void);
/* @spare = the CPUs this process may use that @busy does not list */
void vsb_cpulist_spare(const struct vsb_cpulist *busy, struct vsb_cpulist *spare);
void vsb_cpulist_pin_attr(const struct vsb_cpulist *cl, pthread_attr_t *attr);

#endif /* VSB_HARNESS_H */
