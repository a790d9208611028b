// SPDX-License-Identifier: GPL-2.0
/*
 * vsb_insn.c - vmstat-bench's QEMU TCG plugin: exact instruction counts,
 * and their mix, per timed window and per vCPU (exact mode).
 *
 *   qemu-system-x86_64 -accel tcg,thread=single -icount shift=0,... \
 *	-plugin build/qemu-plugin/vsb-insn.so,out=WINDOWS.img ...
 *   qemu-x86_64 -plugin build/qemu-plugin/vsb-insn.so,out=WINDOWS \
 *	build/vmstat-bench run --backend user --exact ...
 *
 * Counting, system mode.  Each translated instruction gets inline
 * additions (TCG code, no call) to global counters: one for every
 * instruction and one for each class it is in (classify.c); each memory
 * access it makes, a call.  Globals are race-free only because the guest
 * runs on one host thread (thread=single, which -icount implies anyway).
 * Which vCPU the counts belong to is settled lazily: every translation
 * block calls tb_enter() with its vCPU before its first instruction, and
 * that hands what the globals gained since the last call to the vCPU
 * that ran then.  A vCPU switch happens only between blocks, so each
 * vCPU gets exactly its own instructions, including the interrupts it
 * took, never another's.
 *
 * Counting, user mode (qemu-x86_64).  Every guest thread is a vCPU of
 * its own and runs on a host thread of its own, at the same time as the
 * others, so no global is race-free: each instruction gets one call
 * instead, which adds its classes to its own vCPU's counters (API
 * version 1 has no per-vCPU inline counter).  A vCPU's counters are
 * touched by its own thread only.  QEMU reuses the index of a thread
 * that exited for a later one, so a vCPU's state starts over, and its
 * records in the window file are cleared, when a thread starts or ends:
 * the file holds the windows of live threads only, numbered from 0 per
 * thread (docs/model-check.md says how the harness finds its own).
 *
 * Windows.  The module, or the harness's user-space batch, brackets every
 * timed batch with two marker NOPs (kmod/uapi/vsb_exact.h).  A marker
 * gets a call before it executes, which settles the counts to that
 * instruction and opens or closes the vCPU's window; a closed window is
 * written to the window file at its fixed place, where the guest reads
 * it back (from a read-only disk in system mode, as a plain file in
 * user mode).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/types.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api.h"
#include "classify.h"
#include "kmod/uapi/vsb_exact.h"
#include "profile.h"

__attribute__((visibility("default")))
int qemu_plugin_version = VSB_QEMU_PLUGIN_API_VERSION;

/* the harness reads records at fixed places: their size is the contract */
_Static_assert(sizeof(struct vsb_exact_window) == VSB_EXACT_REC_SIZE,
	       "vsb_exact_window is VSB_EXACT_REC_SIZE bytes");

/* added to by the translated code, all vCPUs alike */
static uint64_t global[VSB_EXACT_NCLASS];
/* global[] as last handed out, and to whom (-1: nobody yet) */
static uint64_t handed[VSB_EXACT_NCLASS];
static int running = -1;
/* the profile's number of the block running now (profile.c), or NULL */
static void *running_tb;

struct vcpu_state {
	uint64_t count[VSB_EXACT_NCLASS];	/* its own, since boot */
	uint64_t at_start[VSB_EXACT_NCLASS];	/* count[] at the open marker */
	uint64_t seq;				/* windows opened so far */
	int open;
};
static struct vcpu_state vcpus[VSB_EXACT_VCPUS];
static int out_fd = -1;
static int user_mode;		/* qemu-x86_64: a vCPU per guest thread */
/* added to by every vCPU's thread in user mode: atomically */
static uint64_t windows_written, stray_stops, write_errors, untracked;

static void stat_add(uint64_t *stat)
{
	__atomic_fetch_add(stat, 1, __ATOMIC_RELAXED);
}

/* Hand what the globals gained to the vCPU that ran since, then to @vcpu. */
/*
 * What the globals gained since the last settle is exactly what the
 * running block ran since: inside a window, the profile gets it too.
 */
static void settle(int vcpu)
{
	uint64_t delta[VSB_EXACT_NCLASS];
	int c;

	if (running >= 0 && running < VSB_EXACT_VCPUS) {
		for (c = 0; c < VSB_EXACT_NCLASS; c++) {
			delta[c] = global[c] - handed[c];
			vcpus[running].count[c] += delta[c];
		}
		if (running_tb && vcpus[running].open)
			vsb_prof_add((unsigned int)running, running_tb, delta);
	}
	memcpy(handed, global, sizeof(handed));
	running = vcpu;
}

/* @udata: the block's number in the profile, NULL without one */
static void tb_enter(unsigned int vcpu, void *udata)
{
	settle((int)vcpu);
	running_tb = udata;
	if (udata && vcpu < VSB_EXACT_VCPUS && vcpus[vcpu].open)
		vsb_prof_enter(vcpu, udata);
}

static void window_write(unsigned int vcpu, struct vcpu_state *v)
{
	struct vsb_exact_window w = { .magic = VSB_EXACT_MAGIC, .vcpu = vcpu };
	off_t at;
	int c;

	w.seq = v->seq - 1;
	for (c = 0; c < VSB_EXACT_NCLASS; c++)
		w.count[c] = v->count[c] - v->at_start[c];
	at = (off_t)VSB_EXACT_OFFSET(vcpu, w.seq);
	if (pwrite(out_fd, &w, sizeof(w), at) != (ssize_t)sizeof(w))
		stat_add(&write_errors);
	else
		stat_add(&windows_written);
	if (!user_mode)
		vsb_prof_window(vcpu, w.seq);
}

static void marker(unsigned int vcpu, void *udata)
{
	struct vcpu_state *v;

	if (!user_mode)
		settle((int)vcpu);
	if (vcpu >= VSB_EXACT_VCPUS)
		return;
	v = &vcpus[vcpu];
	if (udata == (void *)VSB_CLS_MARK_START) {
		memcpy(v->at_start, v->count, sizeof(v->at_start));
		v->seq++;
		v->open = 1;
	} else if (v->open) {
		v->open = 0;
		window_write(vcpu, v);
	} else {
		stat_add(&stray_stops);
	}
}

/*
 * Loads and stores by a call per access, not inline: QEMU 7.2's inline
 * memory operations filter on the access kind otherwise than documented
 * (measured: the "read" one counted stores, the "write" one every
 * access), while qemu_plugin_mem_is_store() says which it was.  The
 * guest boots about a fifth slower for it (22.8 -> 27.2 s here).
 */
static void mem_access(unsigned int vcpu, qemu_plugin_meminfo_t info,
		       uint64_t vaddr, void *udata)
{
	int store = qemu_plugin_mem_is_store(info);
	int c = store ? VSB_EXACT_STORES : VSB_EXACT_LOADS;
	/* a rep string instruction's stores: the bytes it sets or moves */
	uint64_t bytes = udata && store ? 1ull << qemu_plugin_mem_size_shift(info) : 0;

	(void)vaddr;
	if (!user_mode) {
		global[c]++;
		global[VSB_EXACT_REP_BYTES] += bytes;
	} else if (vcpu < VSB_EXACT_VCPUS) {
		vcpus[vcpu].count[c]++;
		vcpus[vcpu].count[VSB_EXACT_REP_BYTES] += bytes;
	}
}

/* User mode: an instruction's classes (a bit per VSB_EXACT_* index). */
static void count_user(unsigned int vcpu, void *udata)
{
	unsigned int c, mask = (unsigned int)(uintptr_t)udata;

	if (vcpu >= VSB_EXACT_VCPUS) {
		stat_add(&untracked);
		return;
	}
	for (c = 0; c < VSB_EXACT_NCLASS; c++)
		if (mask & (1u << c))
			vcpus[vcpu].count[c]++;
}

/*
 * Count @insn in the classes of @mask (a bit per VSB_EXACT_* index):
 * inline additions to the globals in system mode, one call in user mode.
 */
static void count_classes(struct qemu_plugin_insn *insn, unsigned int mask)
{
	int c;

	if (user_mode) {
		qemu_plugin_register_vcpu_insn_exec_cb(insn, count_user,
			QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)mask);
		return;
	}
	for (c = 0; c < VSB_EXACT_NCLASS; c++)
		if (mask & (1u << c))
			qemu_plugin_register_vcpu_insn_exec_inline(insn,
				QEMU_PLUGIN_INLINE_ADD_U64, &global[c], 1);
}

static void count_insn(struct qemu_plugin_insn *insn, unsigned int cls)
{
	static const struct { unsigned int bit; int idx; } map[] = {
		{ VSB_CLS_LOCK, VSB_EXACT_LOCK },
		{ VSB_CLS_CMPXCHG, VSB_EXACT_CMPXCHG },
		{ VSB_CLS_IRQ, VSB_EXACT_IRQ },
		{ VSB_CLS_SERIAL, VSB_EXACT_SERIAL_INSN },
		{ VSB_CLS_PUSHF, VSB_EXACT_PUSHF },
		{ VSB_CLS_POPF, VSB_EXACT_POPF },
		{ VSB_CLS_CLI, VSB_EXACT_CLI },
		{ VSB_CLS_STI, VSB_EXACT_STI },
		{ VSB_CLS_PAUSE, VSB_EXACT_PAUSE },
		{ VSB_CLS_REP_STR, VSB_EXACT_REP_ITERS },
	};
	size_t i;
	unsigned int mask = 1u << VSB_EXACT_INSN;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (cls & map[i].bit)
			mask |= 1u << map[i].idx;
	if ((cls & VSB_CLS_CMPXCHG) && !(cls & VSB_CLS_LOCK))
		mask |= 1u << VSB_EXACT_CMPXCHG_LOCAL;
	count_classes(insn, mask);
	qemu_plugin_register_vcpu_mem_cb(insn, mem_access, QEMU_PLUGIN_CB_NO_REGS,
					 QEMU_PLUGIN_MEM_RW,
					 cls & VSB_CLS_REP_STR ? (void *)1 : NULL);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	if (!user_mode)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_enter, QEMU_PLUGIN_CB_NO_REGS,
						     vsb_prof_tb(qemu_plugin_tb_vaddr(tb)));
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		unsigned int cls = vsb_classify_insn(qemu_plugin_insn_data(insn),
						     qemu_plugin_insn_size(insn));

		if (cls & (VSB_CLS_MARK_START | VSB_CLS_MARK_STOP))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, marker,
				QEMU_PLUGIN_CB_NO_REGS,
				(void *)(uintptr_t)(cls & (VSB_CLS_MARK_START |
							   VSB_CLS_MARK_STOP)));
		count_insn(insn, cls);
	}
}

/*
 * User mode: a thread started or ended on @vcpu_index.  Its state starts
 * over and its records are zeroed, so that the window file holds only
 * live threads' windows (a later thread may get the same index).  Only
 * the part of the ring inside the file: a record past its end reads as
 * absent anyway.
 */
static void vcpu_reset(qemu_plugin_id_t id, unsigned int vcpu_index)
{
	static const char zero[VSB_EXACT_REC_SIZE * 64];
	off_t at = (off_t)vcpu_index * VSB_EXACT_RING * VSB_EXACT_REC_SIZE;
	off_t end = at + (off_t)VSB_EXACT_RING * VSB_EXACT_REC_SIZE;
	struct stat st;
	size_t n;

	(void)id;
	if (vcpu_index >= VSB_EXACT_VCPUS)
		return;
	memset(&vcpus[vcpu_index], 0, sizeof(vcpus[vcpu_index]));
	if (fstat(out_fd, &st))
		return;
	if (end > st.st_size)
		end = st.st_size;
	for (; at < end; at += (off_t)n) {
		n = end - at < (off_t)sizeof(zero) ? (size_t)(end - at) : sizeof(zero);
		if (pwrite(out_fd, zero, n, at) != (ssize_t)n) {
			stat_add(&write_errors);
			return;
		}
	}
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	char line[256];

	(void)id;
	(void)udata;
	if (!user_mode)
		settle(-1);
	snprintf(line, sizeof(line),
		 "vsb-insn: %llu windows written, %llu stray stops, %llu write errors",
		 (unsigned long long)windows_written, (unsigned long long)stray_stops,
		 (unsigned long long)write_errors);
	if (!user_mode)
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 ", %llu instructions in all\n",
			 (unsigned long long)global[VSB_EXACT_INSN]);
	else
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 ", user mode%s\n", untracked ?
			 ", threads past the 64th not counted" : "");
	qemu_plugin_outs(line);
	if (vsb_prof_on()) {
		uint64_t lost = vsb_prof_lost();

		snprintf(line, sizeof(line), "vsb-insn: profile of %llu windows written%s\n",
			 (unsigned long long)vsb_prof_close(), lost ?
			 ", SOME BLOCKS LOST (out of memory): it is short" : "");
		qemu_plugin_outs(line);
	}
	if (out_fd >= 0)
		close(out_fd);
}

/*
 * Why the plugin will not load: to QEMU's log, which only -d plugin
 * shows, and to stderr, where a refused load must be seen without it.
 */
static void refuse(const char *why)
{
	qemu_plugin_outs(why);
	fputs(why, stderr);
}

/*
 * The arguments: out=FILE (the window file) and, in system mode,
 * prof=FILE (the profile, profile.c).  An unknown one is refused, so
 * that a misspelt option never loads a plugin that ignores it.
 */
static const char *parse_args(int argc, char **argv, const char **prof)
{
	const char *file = NULL;
	char line[512];
	int i;

	*prof = NULL;
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4) && argv[i][4]) {
			file = argv[i] + 4;
			continue;
		}
		if (!strncmp(argv[i], "prof=", 5) && argv[i][5]) {
			*prof = argv[i] + 5;
			continue;
		}
		snprintf(line, sizeof(line), "vsb-insn: unknown option '%s': "
			 "the options are out=FILE (the window file) and "
			 "prof=FILE (the profile)\n", argv[i]);
		refuse(line);
		return NULL;
	}
	if (!file)
		refuse("vsb-insn: out=FILE missing (the window file)\n");
	return file;
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
			int argc, char **argv)
{
	const char *prof, *file = parse_args(argc, argv, &prof);
	char line[512];

	if (!file)
		return -1;
	if (strcmp(info->target_name, "x86_64")) {
		snprintf(line, sizeof(line), "vsb-insn: wants an x86_64 guest "
			 "(qemu-system-x86_64 or qemu-x86_64), not %s\n",
			 info->target_name);
		refuse(line);
		return -1;
	}
	user_mode = !info->system_emulation;
	if (!user_mode && info->system.max_vcpus > VSB_EXACT_VCPUS) {
		snprintf(line, sizeof(line), "vsb-insn: %d vCPUs, at most %d\n",
			 info->system.max_vcpus, VSB_EXACT_VCPUS);
		refuse(line);
		return -1;
	}
	if (prof && user_mode) {
		refuse("vsb-insn: prof=FILE profiles a system guest's windows; "
		       "not in user mode\n");
		return -1;
	}
	if (prof && vsb_prof_open(prof, line, sizeof(line))) {
		refuse(line);
		return -1;
	}
	/* user mode may make the file; system mode's is the guest's disk */
	out_fd = user_mode ? open(file, O_RDWR | O_CREAT | O_CLOEXEC, 0644) :
			     open(file, O_WRONLY | O_CLOEXEC);
	if (out_fd < 0) {
		snprintf(line, sizeof(line), "vsb-insn: out=%s: %s\n", file,
			 strerror(errno));
		refuse(line);
		return -1;
	}
	if (user_mode) {
		qemu_plugin_register_vcpu_init_cb(id, vcpu_reset);
		qemu_plugin_register_vcpu_exit_cb(id, vcpu_reset);
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
