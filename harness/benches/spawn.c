// SPDX-License-Identifier: GPL-2.0
/*
 * `--bench spawn`: the cost of one new process, against the possible
 * CPUs (unixbench spawn; Jan Kara's /bin/true 20,000 times on one CPU).
 *
 * Since 6.2 ("mm: convert mm's rss stats into percpu_counter") every
 * mm_init() allocates NR_MM_COUNTERS percpu_counters, and the percpu
 * allocator zeroes the new area on every *possible* CPU (pcpu_alloc()'s
 * for_each_possible_cpu memset, mm/percpu.c); since 6.4 mm_init_cid()
 * walks every possible CPU too (include/linux/mm_types.h).  Exit sums
 * the counters (check_mm(), kernel/fork.c) and frees them.  6.1 keeps
 * struct mm_rss_stat, atomics in the mm.  So the axis is the possible
 * CPUs, which a QEMU guest's maxcpus sets without real cores.
 *
 *   --op fork         fork(); the child _exit(0)s; waitpid (the child's
 *                     mm is a copy of the worker's: dup_mm() -> mm_init())
 *   --op posix-spawn  posix_spawn() of a 129-byte static ELF that calls
 *                     exit_group(0), from a memfd (execve's new mm is
 *                     mm_alloc() -> mm_init(), with the smallest image
 *                     there can be); waitpid
 *
 * Each worker (one per CPU of --cpus) spawns --loops processes a sample;
 * the children inherit its CPU, as `numactl -C 1` pins Jan Kara's loop.
 * Sanity: every child exited with status 0, and the kernel's fork count
 * (/proc/stat "processes") grew by at least the children spawned.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "benches.h"
#include "env.h"
#include "live.h"

#define SPAWN_LOOPS	200	/* default processes per sample */
#define SPAWN_STOP_EVERY 16

/* A worker's count, in memory the parent mapped MAP_SHARED. */
struct spawn_count {
	uint64_t spawned, ok;
	int bad_status;		/* the first non-zero wait status */
} __attribute__((aligned(VSB_CACHELINE)));

struct spawn_priv {
	int posix;
	int memfd;		/* the ELF, for posix-spawn */
	char path[64];		/* /proc/self/fd/<memfd> */
	struct spawn_count *count;
	unsigned int n;
	unsigned long long forks[2];	/* /proc/stat processes, around the window */
};

/*
 * The smallest static x86-64 program: an ELF header, one PT_LOAD of the
 * whole file at 0x400000, and at 0x400078 the code
 *	xor %edi,%edi; mov $231,%eax; syscall	(exit_group(0))
 * Built here rather than shipped, so nothing has to be installed or
 * compiled static: the mm it gets is the smallest an execve can make.
 */
static const unsigned char tiny_elf[] = {
	0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	2, 0, 0x3e, 0, 1, 0, 0, 0,			/* ET_EXEC, x86-64, v1 */
	0x78, 0, 0x40, 0, 0, 0, 0, 0,			/* e_entry 0x400078 */
	64, 0, 0, 0, 0, 0, 0, 0,			/* e_phoff */
	0, 0, 0, 0, 0, 0, 0, 0,				/* e_shoff */
	0, 0, 0, 0, 64, 0, 56, 0, 1, 0, 0, 0, 0, 0, 0, 0,
	1, 0, 0, 0, 5, 0, 0, 0,				/* PT_LOAD, R+X */
	0, 0, 0, 0, 0, 0, 0, 0,				/* p_offset */
	0, 0, 0x40, 0, 0, 0, 0, 0,			/* p_vaddr */
	0, 0, 0x40, 0, 0, 0, 0, 0,			/* p_paddr */
	129, 0, 0, 0, 0, 0, 0, 0,			/* p_filesz */
	129, 0, 0, 0, 0, 0, 0, 0,			/* p_memsz */
	0, 0x10, 0, 0, 0, 0, 0, 0,			/* p_align */
	0x31, 0xff, 0xb8, 0xe7, 0, 0, 0, 0x0f, 0x05,
};
_Static_assert(sizeof(tiny_elf) == 129, "the ELF's sizes say 129 bytes");

static int spawn_opts(const struct vsb_bench *b, struct vsb_run_opts *o)
{
	(void)b;
	if (!vsb_opt_given(o, "op"))
		strcpy(o->op, "fork");
	if (strcmp(o->op, "fork") && strcmp(o->op, "posix-spawn")) {
		vsb_err_opt("op", "--op: spawn runs fork or posix-spawn, not '%s'", o->op);
		return VSB_EXIT_USAGE;
	}
#ifndef __x86_64__
	if (!strcmp(o->op, "posix-spawn")) {
		vsb_err_opt("op", "--op posix-spawn: its tiny ELF is x86-64 code: skipped");
		return VSB_EXIT_SKIP;
	}
#endif
	if (!vsb_opt_given(o, "loops"))
		o->loops = SPAWN_LOOPS;
	return 0;
}

static int reap(struct vsb_live_wctx *w, pid_t pid, struct spawn_count *c)
{
	int st;

	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR) {
			vsb_live_fail(w, "waitpid");
			return -1;
		}
	}
	if (WIFEXITED(st) && !WEXITSTATUS(st))
		c->ok++;
	else if (!c->bad_status)
		c->bad_status = st;
	return 0;
}

static uint64_t spawn_op(struct vsb_live_wctx *w, uint64_t loops)
{
	const struct spawn_priv *sp = w->priv;
	struct spawn_count *c = &sp->count[w->index];
	char *const argv[] = { "vsb-exit0", NULL }, *const envp[] = { NULL };
	uint64_t i;
	pid_t pid;
	int e;

	for (i = 0; i < loops; i++) {
		if (i % SPAWN_STOP_EVERY == 0 && vsb_live_stopped(w))
			break;
		if (sp->posix) {
			e = posix_spawn(&pid, sp->path, NULL, NULL, argv, envp);
			if (e) {
				errno = e;
				vsb_live_fail(w, "posix_spawn");
				break;
			}
		} else {
			pid = fork();
			if (!pid)
				_exit(0);
			if (pid < 0) {
				vsb_live_fail(w, "fork");
				break;
			}
		}
		c->spawned++;
		if (reap(w, pid, c))
			break;
	}
	return i;
}

static long long forks_so_far(void)
{
	char line[256];
	long long v = -1;
	FILE *f = fopen("/proc/stat", "re");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "processes ", 10))
			v = atoll(line + 10);
	if (f)
		fclose(f);
	return v;
}

/* The window's fork count; the workers' counts start from the warm-up's */
static void spawn_window(void *priv, int end)
{
	struct spawn_priv *sp = priv;
	unsigned int i;

	sp->forks[end] = (unsigned long long)forks_so_far();
	for (i = 0; !end && i < sp->n; i++)
		sp->count[i].spawned = sp->count[i].ok = 0;
}

static void spawn_meta(void *priv, const struct vsb_run_opts *o, struct vsb_result *r,
		       int threads)
{
	const struct spawn_priv *sp = priv;

	vsb_result_meta(r, "live", "%s, %ld per sample per worker, from %s",
			sp->posix ? "posix_spawn of a 129-byte static ELF (exit_group(0)) "
			"from a memfd, then waitpid" : "fork, the child _exit(0)s, waitpid",
			o->loops, threads ? "threads (one shared mm)" :
			"processes (one mm each)");
	vsb_result_meta(r, "live_op", "one process created, exited and reaped");
	vsb_result_meta(r, "spawn_possible_cpus", "%d (each new mm's rss_stat "
			"percpu_counters are zeroed on every possible CPU since 6.2, its "
			"mm_cid since 6.4)",
			vsb_env_count_list("/sys/devices/system/cpu/possible"));
}

static void spawn_check_result(void *priv, struct vsb_result *r,
			       const struct vsb_vmstat_snap *a,
			       const struct vsb_vmstat_snap *b, double secs)
{
	const struct spawn_priv *sp = priv;
	unsigned long long spawned = 0, ok = 0, forks = sp->forks[1] - sp->forks[0];
	int bad = 0;
	unsigned int i;

	(void)a;
	(void)b;
	for (i = 0; i < sp->n; i++) {
		spawned += sp->count[i].spawned;
		ok += sp->count[i].ok;
		bad = bad ? bad : sp->count[i].bad_status;
	}
	r->applied = (long long)spawned;
	r->counted = (long long)forks;
	r->sanity_ok = ok == spawned && forks >= spawned;
	if (ok != spawned)
		snprintf(r->sanity, sizeof(r->sanity), "FAILED: %llu of %llu children did "
			 "not exit with status 0 (first wait status 0x%x)", spawned - ok,
			 spawned, bad);
	else
		snprintf(r->sanity, sizeof(r->sanity), "%s: %llu processes spawned, every "
			 "one exited 0; /proc/stat processes +%llu in %.3f s (the kernel's "
			 "forks, whole system: at least as many)",
			 r->sanity_ok ? "ok" : "FAILED", spawned, forks, secs);
}

static const struct vsb_live_ops spawn_ops = {
	.name = "spawn",
	.op = spawn_op,
	.meta = spawn_meta,
	.window = spawn_window,
	.check = spawn_check_result,
};

/* The ELF in a memfd: no file to leave behind, gone with the run. */
static int make_elf(struct spawn_priv *sp)
{
	sp->memfd = memfd_create("vsb-exit0", MFD_CLOEXEC);
	if (sp->memfd < 0 || write(sp->memfd, tiny_elf, sizeof(tiny_elf)) !=
			     (ssize_t)sizeof(tiny_elf) || fchmod(sp->memfd, 0500)) {
		vsb_err("spawn: cannot write its ELF into a memfd: %s", strerror(errno));
		return VSB_EXIT_ERROR;
	}
	snprintf(sp->path, sizeof(sp->path), "/proc/self/fd/%d", sp->memfd);
	return 0;
}

static int spawn_run(const struct vsb_run_opts *o, struct vsb_result *r)
{
	struct spawn_priv sp = { .posix = !strcmp(o->op, "posix-spawn"), .memfd = -1,
				 .n = (unsigned int)o->cpus.n };
	size_t bytes = sp.n * sizeof(*sp.count);
	int ret;

	sp.count = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			-1, 0);
	if (sp.count == MAP_FAILED) {
		vsb_err("spawn: cannot map its counts: %s", strerror(errno));
		return VSB_EXIT_ERROR;
	}
	ret = sp.posix ? make_elf(&sp) : 0;
	if (!ret)
		ret = vsb_live_run(o, r, &spawn_ops, &sp);
	if (sp.memfd >= 0)
		close(sp.memfd);
	munmap(sp.count, bytes);
	return ret;
}

/* its point in the text header's words (bench_model.h) */
static void spawn_describe(const struct vsb_run_opts *o, FILE *f)
{
	fprintf(f, "op %s, tasks %s", o->op, o->tasks);
}

const struct vsb_bench vsb_bench_spawn = {
	.name = "spawn", .sides = VSB_SIDE_LIVE,
	.desc = "live kernel: one process created and reaped, --op fork|posix-spawn (unixbench spawn)",
	.run_user = spawn_run, .check = spawn_opts,
	.takes = "op",
	.model = { .describe = spawn_describe },
};
