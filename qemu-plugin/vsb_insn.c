// SPDX-License-Identifier: GPL-2.0
/*
 * vsb_insn.c - vmstat-bench's QEMU TCG plugin: exact instruction counts,
 * and their mix, per timed window and per vCPU (exact mode).
 *
 *   qemu-system-x86_64 -accel tcg,thread=single -icount shift=0,... \
 *	-plugin build/qemu-plugin/vsb-insn.so,file=WINDOWS.img ...
 *
 * Counting.  Each translated instruction gets inline additions (TCG code,
 * no call) to global counters: one for every instruction and one for each
 * class it is in (classify.c); each memory access it makes, a call.
 * Globals are race-free only because the guest runs on one host thread
 * (thread=single, which -icount implies anyway).  Which vCPU the counts
 * belong to is settled lazily: every translation block calls tb_enter()
 * with its vCPU before its first instruction, and that hands what the
 * globals gained since the last call to the vCPU that ran then.  A vCPU
 * switch happens only between blocks, so each vCPU gets exactly its own
 * instructions, including the interrupts it took, never another's.
 *
 * Windows.  The module brackets every timed batch with two marker NOPs
 * (kmod/uapi/vsb_exact.h).  A marker gets a call before it executes,
 * which settles the counts to that instruction and opens or closes the
 * vCPU's window; a closed window is written to the window file at its
 * fixed place, where the guest reads it back from a read-only disk.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/types.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "api.h"
#include "classify.h"
#include "kmod/uapi/vsb_exact.h"

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

struct vcpu_state {
	uint64_t count[VSB_EXACT_NCLASS];	/* its own, since boot */
	uint64_t at_start[VSB_EXACT_NCLASS];	/* count[] at the open marker */
	uint64_t seq;				/* windows opened so far */
	int open;
};
static struct vcpu_state vcpus[VSB_EXACT_VCPUS];
static int out_fd = -1;
static uint64_t windows_written, stray_stops, write_errors;

/* Hand what the globals gained to the vCPU that ran since, then to @vcpu. */
static void settle(int vcpu)
{
	int c;

	if (running >= 0 && running < VSB_EXACT_VCPUS)
		for (c = 0; c < VSB_EXACT_NCLASS; c++)
			vcpus[running].count[c] += global[c] - handed[c];
	memcpy(handed, global, sizeof(handed));
	running = vcpu;
}

static void tb_enter(unsigned int vcpu, void *udata)
{
	(void)udata;
	settle((int)vcpu);
}

static void window_write(unsigned int vcpu, struct vcpu_state *v)
{
	struct vsb_exact_window w = { .magic = VSB_EXACT_MAGIC, .vcpu = vcpu };
	off_t at;
	int c;

	w.seq = v->seq - 1;
	for (c = 0; c < VSB_EXACT_NCLASS; c++)
		w.count[c] = v->count[c] - v->at_start[c];
	at = ((off_t)vcpu * VSB_EXACT_RING + (off_t)(w.seq % VSB_EXACT_RING)) *
	     VSB_EXACT_REC_SIZE;
	if (pwrite(out_fd, &w, sizeof(w), at) != (ssize_t)sizeof(w))
		write_errors++;
	else
		windows_written++;
}

static void marker(unsigned int vcpu, void *udata)
{
	struct vcpu_state *v;

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
		stray_stops++;
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
	(void)vcpu;
	(void)vaddr;
	(void)udata;
	global[qemu_plugin_mem_is_store(info) ? VSB_EXACT_STORES : VSB_EXACT_LOADS]++;
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
	};
	size_t i;

	qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
						   &global[VSB_EXACT_INSN], 1);
	if ((cls & VSB_CLS_CMPXCHG) && !(cls & VSB_CLS_LOCK))
		qemu_plugin_register_vcpu_insn_exec_inline(insn,
			QEMU_PLUGIN_INLINE_ADD_U64, &global[VSB_EXACT_CMPXCHG_LOCAL], 1);
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (cls & map[i].bit)
			qemu_plugin_register_vcpu_insn_exec_inline(insn,
				QEMU_PLUGIN_INLINE_ADD_U64, &global[map[i].idx], 1);
	qemu_plugin_register_vcpu_mem_cb(insn, mem_access, QEMU_PLUGIN_CB_NO_REGS,
					 QEMU_PLUGIN_MEM_RW, NULL);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_enter, QEMU_PLUGIN_CB_NO_REGS,
					     NULL);
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

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	char line[256];

	(void)id;
	(void)udata;
	settle(-1);
	snprintf(line, sizeof(line),
		 "vsb-insn: %llu windows written, %llu stray stops, %llu write errors, "
		 "%llu instructions in all\n",
		 (unsigned long long)windows_written, (unsigned long long)stray_stops,
		 (unsigned long long)write_errors,
		 (unsigned long long)global[VSB_EXACT_INSN]);
	qemu_plugin_outs(line);
	if (out_fd >= 0)
		close(out_fd);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
			int argc, char **argv)
{
	const char *file = NULL;
	char line[512];
	int i;

	for (i = 0; i < argc; i++)
		if (!strncmp(argv[i], "out=", 4))
			file = argv[i] + 4;
	if (!info->system_emulation || strcmp(info->target_name, "x86_64")) {
		qemu_plugin_outs("vsb-insn: wants qemu-system-x86_64\n");
		return -1;
	}
	if (info->system.max_vcpus > VSB_EXACT_VCPUS) {
		snprintf(line, sizeof(line), "vsb-insn: %d vCPUs, at most %d\n",
			 info->system.max_vcpus, VSB_EXACT_VCPUS);
		qemu_plugin_outs(line);
		return -1;
	}
	out_fd = file ? open(file, O_WRONLY | O_CLOEXEC) : -1;
	if (out_fd < 0) {
		snprintf(line, sizeof(line), "vsb-insn: out=%s: %s\n",
			 file ? file : "(none given)", file ? strerror(errno) : "");
		qemu_plugin_outs(line);
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
