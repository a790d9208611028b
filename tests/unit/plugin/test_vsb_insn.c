// SPDX-License-Identifier: GPL-2.0
/*
 * The TCG plugin of exact mode without QEMU: its classifier on the
 * encodings the kernel's statistics code uses, and its counting through
 * a stand-in for QEMU's side of the API that "executes" translation
 * blocks the way TCG runs instrumented code (block callback, then per
 * instruction its call, its inline additions and its memory accesses).
 * Two vCPUs interleave inside one window: each must get its own
 * instructions only, and the window its exact count and mix.
 *
 * The profile (prof=FILE): each window's blocks, at known start
 * addresses, with their entries and classes, summing to the window.
 *
 * The plugin's sources are compiled in (no dlopen): the stand-in
 * functions below are what QEMU exports to a loaded plugin.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "../../../qemu-plugin/classify.c"
#include "../../../qemu-plugin/vsb_insn.c"
#include "../../../qemu-plugin/profile.c"

/* ---- the stand-in for QEMU ---- */
struct qemu_plugin_insn {
	uint8_t bytes[16];
	size_t len;
	int loads, stores;	/* accesses it makes when executed */
	unsigned int shift;	/* their size: 1 << shift bytes */
	uint64_t *inl[8];
	uint64_t imm[8];
	int ninl;
	qemu_plugin_vcpu_udata_cb_t cb[2];	/* called in this order */
	void *cb_udata[2];
	int ncb;
	qemu_plugin_vcpu_mem_cb_t mem_cb;
	void *mem_udata;
};

struct qemu_plugin_tb {
	struct qemu_plugin_insn insn[16];
	size_t n;
	uint64_t vaddr;
	qemu_plugin_vcpu_udata_cb_t cb;
	void *cb_udata;
};

static qemu_plugin_vcpu_tb_trans_cb_t trans_cb;
static qemu_plugin_udata_cb_t exit_cb;
static qemu_plugin_vcpu_simple_cb_t vcpu_init_cb, vcpu_exit_cb;
static char outs[1024];

void qemu_plugin_register_vcpu_init_cb(qemu_plugin_id_t id,
				       qemu_plugin_vcpu_simple_cb_t cb)
{
	(void)id;
	vcpu_init_cb = cb;
}

void qemu_plugin_register_vcpu_exit_cb(qemu_plugin_id_t id,
				       qemu_plugin_vcpu_simple_cb_t cb)
{
	(void)id;
	vcpu_exit_cb = cb;
}

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb)
{
	(void)id;
	trans_cb = cb;
}

void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags, void *userdata)
{
	(void)flags;
	tb->cb = cb;
	tb->cb_udata = userdata;
}

void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags, void *userdata)
{
	(void)flags;
	insn->cb[insn->ncb] = cb;
	insn->cb_udata[insn->ncb++] = userdata;
}

void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
						enum qemu_plugin_op op, void *ptr,
						uint64_t imm)
{
	(void)op;
	insn->inl[insn->ninl] = ptr;
	insn->imm[insn->ninl++] = imm;
}

void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn,
				      qemu_plugin_vcpu_mem_cb_t cb,
				      enum qemu_plugin_cb_flags flags,
				      enum qemu_plugin_mem_rw rw, void *userdata)
{
	(void)flags;
	(void)rw;
	insn->mem_cb = cb;
	insn->mem_udata = userdata;
}

/* a meminfo here: bit 0 store, the size's log2 above it */
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info)
{
	return info & 1;
}

unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t info)
{
	return info >> 1;
}

void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *userdata)
{
	(void)id;
	(void)userdata;
	exit_cb = cb;
}

uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb)
{
	return tb->vaddr;
}

size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb)
{
	return tb->n;
}

struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx)
{
	return (struct qemu_plugin_insn *)&tb->insn[idx];
}

const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn)
{
	return insn->bytes;
}

size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn)
{
	return insn->len;
}

/* appended: the closing lines are two with a profile */
void qemu_plugin_outs(const char *string)
{
	size_t n = strlen(outs);

	snprintf(outs + n, sizeof(outs) - n, "%s", string);
}

/* ---- blocks of guest code ---- */
#define MARK(d) { 0x0f, 0x1f, 0x84, 0x00, 0x56, 0x53, 0x42, d }
static const uint8_t m_start[] = MARK(0x2b), m_stop[] = MARK(0x2d);
static const uint8_t nop[] = { 0x90 };
static const uint8_t lock_cmpxchg[] = { 0xf0, 0x48, 0x0f, 0xb1, 0x17 };
static const uint8_t pushf[] = { 0x9c }, popf[] = { 0x9d }, cli[] = { 0xfa };
static const uint8_t mov_load[] = { 0x48, 0x8b, 0x07 };

static void put(struct qemu_plugin_tb *tb, const uint8_t *b, size_t len,
		int loads, int stores)
{
	struct qemu_plugin_insn *i = &tb->insn[tb->n++];

	memcpy(i->bytes, b, len);
	i->len = len;
	i->loads = loads;
	i->stores = stores;
}

static void run_tb(struct qemu_plugin_tb *tb, unsigned int vcpu)
{
	size_t i;
	int k;

	if (tb->cb)
		tb->cb(vcpu, tb->cb_udata);
	for (i = 0; i < tb->n; i++) {
		struct qemu_plugin_insn *in = &tb->insn[i];

		for (k = 0; k < in->ncb; k++)
			in->cb[k](vcpu, in->cb_udata[k]);
		for (k = 0; k < in->ninl; k++)
			*in->inl[k] += in->imm[k];
		for (k = 0; k < in->loads; k++)
			in->mem_cb(vcpu, 0 | in->shift << 1, 0, in->mem_udata);
		for (k = 0; k < in->stores; k++)
			in->mem_cb(vcpu, 1 | in->shift << 1, 0, in->mem_udata);
	}
}

static int read_window(const char *file, unsigned int vcpu, uint64_t seq,
		       struct vsb_exact_window *w)
{
	FILE *f = fopen(file, "rb");
	long at = (long)((vcpu * VSB_EXACT_RING + seq) * VSB_EXACT_REC_SIZE);
	int ok;

	if (!f)
		return 0;
	ok = !fseek(f, at, SEEK_SET) && fread(w, sizeof(*w), 1, f) == 1;
	fclose(f);
	return ok && w->magic == VSB_EXACT_MAGIC;
}


/*
 * The profile's line for block @addr in window @seq of @vcpu: its
 * entries and classes; 1 when there is one.
 */
static int prof_block(const char *file, unsigned int vcpu, uint64_t seq,
		      uint64_t addr, uint64_t *entries, uint64_t *count)
{
	FILE *f = fopen(file, "r");
	char line[512];
	int in = 0, found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long long a, v, q, e, c[VSB_EXACT_NCLASS];
		int k;

		if (line[0] == 'W') {
			in = sscanf(line, "W %llu %llu", &v, &q) == 2 && v == vcpu &&
			     q == seq;
			continue;
		}
		if (!in || sscanf(line, "%llx %llu", &a, &e) != 2 || a != addr)
			continue;
		{
			char *p = line;

			for (k = 0; k < 2; k++)
				p = strchr(p, ' ') + 1;
			for (k = 0; k < VSB_EXACT_NCLASS; k++)
				c[k] = strtoull(p, &p, 10);
		}
		*entries = e;
		for (k = 0; k < VSB_EXACT_NCLASS; k++)
			count[k] = c[k];
		found = 1;
	}
	fclose(f);
	return found;
}

/* a block of @n nops at @vaddr, preceded by @first when not NULL */
static struct qemu_plugin_tb *nop_block(uint64_t vaddr, const uint8_t *first, int n)
{
	struct qemu_plugin_tb *tb = calloc(1, sizeof(*tb));
	int i;

	tb->vaddr = vaddr;
	if (first)
		put(tb, first, 8, 0, 0);
	for (i = 0; i < n; i++)
		put(tb, nop, 1, 0, 0);
	trans_cb(1, tb);
	return tb;
}

/*
 * Two vCPUs' windows open at once, a block entered 3 times on one and
 * twice on the other between: each window's profile has its own entries.
 */
static void profile_interleaved(void)
{
	struct qemu_plugin_tb *d = nop_block(0xffffffff81000100ULL, m_start, 1);
	struct qemu_plugin_tb *e = nop_block(0xffffffff81000200ULL, NULL, 3);
	struct qemu_plugin_tb *f = nop_block(0xffffffff81000300ULL, m_stop, 0);

	run_tb(d, 0);
	run_tb(d, 1);
	run_tb(e, 0);
	run_tb(e, 1);
	run_tb(e, 0);
	run_tb(e, 0);
	run_tb(e, 1);
	run_tb(f, 1);
	run_tb(f, 0);
	free(d);
	free(e);
	free(f);
}

static void test_profile(const char *prof)
{
	uint64_t n, c[VSB_EXACT_NCLASS];
	FILE *f = fopen(prof, "r");
	char head[64] = "";

	TAP_OK(f && fgets(head, sizeof(head), f) && !strncmp(head, VSB_PROF_MAGIC, 13),
	       "profile file starts with its format line");
	if (f)
		fclose(f);
	/* vCPU 0, window 0: block a from its start marker on, then b whole */
	TAP_OK(prof_block(prof, 0, 0, 0xffffffff81000000ULL, &n, c) && n == 0 &&
	       c[VSB_EXACT_INSN] == 3 && c[VSB_EXACT_LOCK] == 1 &&
	       c[VSB_EXACT_LOADS] == 1 && c[VSB_EXACT_STORES] == 2,
	       "profile: block a entered before the window: 0 entries, its 3 "
	       "instructions from the marker on, lock 1, loads 1, stores 2 (got %llu)",
	       (unsigned long long)c[VSB_EXACT_INSN]);
	TAP_OK(prof_block(prof, 0, 0, 0xffffffff81000040ULL, &n, c) && n == 1 &&
	       c[VSB_EXACT_INSN] == 2 && c[VSB_EXACT_POPF] == 1 &&
	       c[VSB_EXACT_CLI] == 1 && c[VSB_EXACT_LOADS] == 1,
	       "profile: block b entered once, popf and cli, not the stop marker");
	TAP_OK(!prof_block(prof, 0, 0, 0xffffffff81000080ULL, &n, c) &&
	       !prof_block(prof, 1, 0, 0xffffffff81000080ULL, &n, c),
	       "profile: vCPU 1's block outside its window is in no window");
	TAP_OK(prof_block(prof, 1, 0, 0xffffffff810000c0ULL, &n, c) && n == 0 &&
	       c[VSB_EXACT_INSN] == 2, "profile: vCPU 1's window 0: marker and nop");
	TAP_OK(prof_block(prof, 0, 2, 0xffffffff81000200ULL, &n, c) && n == 3 &&
	       c[VSB_EXACT_INSN] == 9,
	       "interleaved: vCPU 0 entered the block 3 times, 9 instructions (%llu, %llu)",
	       (unsigned long long)n, (unsigned long long)c[VSB_EXACT_INSN]);
	TAP_OK(prof_block(prof, 1, 1, 0xffffffff81000200ULL, &n, c) && n == 2 &&
	       c[VSB_EXACT_INSN] == 6,
	       "interleaved: vCPU 1 entered it twice, 6 instructions (%llu, %llu)",
	       (unsigned long long)n, (unsigned long long)c[VSB_EXACT_INSN]);
	TAP_OK(prof_block(prof, 0, 2, 0xffffffff81000100ULL, &n, c) && n == 0 &&
	       c[VSB_EXACT_INSN] == 2 &&
	       prof_block(prof, 0, 2, 0xffffffff81000300ULL, &n, c) && n == 1 &&
	       c[VSB_EXACT_INSN] == 0,
	       "interleaved: blocks sum to the window: 2 + 9 + 0 = 11");
}

static void test_classify(void)
{
	static const struct { uint8_t b[10]; size_t len; unsigned int cls; const char *what; } t[] = {
		{ { 0xf0, 0x48, 0x0f, 0xb1, 0x17 }, 5, VSB_CLS_LOCK | VSB_CLS_CMPXCHG, "lock cmpxchg" },
		{ { 0x65, 0x48, 0x0f, 0xb1, 0x11 }, 5, VSB_CLS_CMPXCHG, "%gs cmpxchg (this_cpu_cmpxchg): no lock" },
		{ { 0x65, 0x0f, 0xb0, 0x11 }, 4, VSB_CLS_CMPXCHG, "%gs cmpxchg byte" },
		{ { 0x0f, 0xc7, 0x0f }, 3, VSB_CLS_CMPXCHG, "cmpxchg8b (%rdi)" },
		{ { 0x0f, 0xc7, 0xf0 }, 3, 0, "rdrand: group 9, register form" },
		{ { 0x48, 0x87, 0x07 }, 3, VSB_CLS_LOCK, "xchg with memory is locked" },
		{ { 0x48, 0x87, 0xc0 }, 3, 0, "xchg of registers is not" },
		{ { 0xf0, 0x48, 0x01, 0x07 }, 4, VSB_CLS_LOCK, "lock add" },
		{ { 0x9c }, 1, VSB_CLS_IRQ | VSB_CLS_PUSHF, "pushf" },
		{ { 0x9d }, 1, VSB_CLS_IRQ | VSB_CLS_POPF, "popf" },
		{ { 0xfa }, 1, VSB_CLS_IRQ | VSB_CLS_CLI, "cli" },
		{ { 0xfb }, 1, VSB_CLS_IRQ | VSB_CLS_STI, "sti" },
		{ { 0xf3, 0x90 }, 2, VSB_CLS_PAUSE, "pause (rep nop)" },
		{ { 0x90 }, 1, 0, "nop is not pause" },
		{ { 0xf3, 0xaa }, 2, VSB_CLS_REP_STR, "rep stosb" },
		{ { 0xf3, 0x48, 0xa5 }, 3, VSB_CLS_REP_STR, "rep movsq" },
		{ { 0xf2, 0xae }, 2, VSB_CLS_REP_STR, "repne scasb" },
		{ { 0xaa }, 1, 0, "stosb without rep" },
		{ { 0x0f, 0xae, 0xe8 }, 3, VSB_CLS_SERIAL, "lfence" },
		{ { 0x0f, 0xae, 0xf0 }, 3, VSB_CLS_SERIAL, "mfence" },
		{ { 0x0f, 0xa2 }, 2, VSB_CLS_SERIAL, "cpuid" },
		{ { 0x48, 0xcf }, 2, VSB_CLS_SERIAL, "iretq" },
		{ { 0x0f, 0x1f, 0x84, 0x00, 0x56, 0x53, 0x42, 0x2b }, 8, VSB_CLS_MARK_START, "start marker" },
		{ { 0x0f, 0x1f, 0x84, 0x00, 0x56, 0x53, 0x42, 0x2d }, 8, VSB_CLS_MARK_STOP, "stop marker" },
		{ { 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 }, 8, 0, "an ordinary 8-byte nop" },
		{ { 0x48, 0x8b, 0x07 }, 3, 0, "a load" },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		TAP_OK(vsb_classify_insn(t[i].b, t[i].len) == t[i].cls, "classify: %s",
		       t[i].what);
}

/*
 * User mode: two threads' vCPUs at once, each counted by calls into its
 * own counters; a thread's exit clears its records, and a new thread on
 * the same index numbers its windows from 0 again.
 */
/*
 * rep stosq as TCG runs it: the instruction's block once an iteration,
 * each storing 8 bytes.  Three iterations inside vCPU 0's second window.
 */
static void test_rep(struct qemu_plugin_tb *open, struct qemu_plugin_tb *body,
		     struct qemu_plugin_tb *close, const char *file)
{
	static const uint8_t rep_stosq[] = { 0xf3, 0x48, 0xab };
	struct vsb_exact_window w;
	int i;

	put(open, m_start, 8, 0, 0);
	put(body, rep_stosq, 3, 0, 1);
	body->insn[0].shift = 3;
	put(close, m_stop, 8, 0, 0);
	trans_cb(1, open);
	trans_cb(1, body);
	trans_cb(1, close);
	run_tb(open, 0);
	for (i = 0; i < 3; i++)
		run_tb(body, 0);
	run_tb(close, 0);
	TAP_OK(read_window(file, 0, 1, &w) && w.count[VSB_EXACT_INSN] == 4,
	       "rep stosq: each of its 3 iterations an instruction, + the marker");
	TAP_OK(w.count[VSB_EXACT_REP_ITERS] == 3 && w.count[VSB_EXACT_REP_BYTES] == 24 &&
	       w.count[VSB_EXACT_STORES] == 3,
	       "rep_iters 3, rep_bytes 24 (3 x 8), stores 3 (got %llu, %llu, %llu)",
	       (unsigned long long)w.count[VSB_EXACT_REP_ITERS],
	       (unsigned long long)w.count[VSB_EXACT_REP_BYTES],
	       (unsigned long long)w.count[VSB_EXACT_STORES]);
}

static void test_user_mode(const char *file)
{
	struct qemu_plugin_tb *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	qemu_info_t info = { .target_name = "x86_64", .system_emulation = false };
	char arg[64], bad[] = "file=x", *argv[1] = { arg }, *argv_bad[2] = { arg, bad };
	struct vsb_exact_window w;

	snprintf(arg, sizeof(arg), "out=%s", file);
	TAP_OK(qemu_plugin_install(2, &info, 2, argv_bad) == -1 &&
	       strstr(outs, "unknown option 'file=x'"), "an unknown option is refused: %s",
	       outs);
	TAP_OK(qemu_plugin_install(2, &info, 1, argv) == 0, "installs in user mode");
	vcpu_init_cb(2, 0);
	vcpu_init_cb(2, 1);
	put(a, m_start, 8, 0, 0);
	put(a, lock_cmpxchg, 5, 1, 1);
	put(a, mov_load, 3, 1, 0);
	put(b, nop, 1, 0, 0);
	put(b, m_stop, 8, 0, 0);
	trans_cb(2, a);
	trans_cb(2, b);
	/* interleaved, as threads run: no block boundary says whose it is */
	run_tb(a, 0);
	run_tb(a, 1);
	run_tb(b, 1);
	run_tb(b, 0);
	TAP_OK(read_window(file, 0, 0, &w) && w.count[VSB_EXACT_INSN] == 4 &&
	       w.count[VSB_EXACT_LOCK] == 1 && w.count[VSB_EXACT_CMPXCHG] == 1 &&
	       w.count[VSB_EXACT_LOADS] == 2 && w.count[VSB_EXACT_STORES] == 1,
	       "user mode: vCPU 0's window holds its own 4 instructions (got %llu), "
	       "lock 1, loads 2, stores 1", (unsigned long long)w.count[VSB_EXACT_INSN]);
	TAP_OK(read_window(file, 1, 0, &w) && w.count[VSB_EXACT_INSN] == 4,
	       "user mode: vCPU 1's the same, none of vCPU 0's");
	vcpu_exit_cb(2, 1);
	TAP_OK(!read_window(file, 1, 0, &w) && read_window(file, 0, 0, &w),
	       "a thread's exit clears its records only");
	run_tb(a, 0);
	run_tb(b, 0);
	vcpu_init_cb(2, 1);
	run_tb(a, 1);
	run_tb(b, 1);
	TAP_OK(read_window(file, 0, 1, &w) && w.seq == 1,
	       "a live thread's windows go on: vCPU 0's window 1");
	TAP_OK(read_window(file, 1, 0, &w) && w.seq == 0 && w.count[VSB_EXACT_INSN] == 4,
	       "a new thread on a reused index numbers its windows from 0");
	outs[0] = '\0';
	exit_cb(2, NULL);
	/* the process's totals: the system-mode part above wrote 5 */
	TAP_OK(strstr(outs, "9 windows written") && strstr(outs, "user mode"),
	       "closing line: %s", outs);
	free(a);
	free(b);
}

int main(void)
{
	struct qemu_plugin_tb *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct qemu_plugin_tb *other = calloc(1, sizeof(*other));
	struct qemu_plugin_tb *c = calloc(1, sizeof(*c)), *stray = calloc(1, sizeof(*stray));
	struct qemu_plugin_tb *rep_open = calloc(1, sizeof(*rep_open));
	struct qemu_plugin_tb *rep_body = calloc(1, sizeof(*rep_body));
	struct qemu_plugin_tb *rep_close = calloc(1, sizeof(*rep_close));
	char file[] = "/tmp/vsb-insn-test.XXXXXX", arg[64], parg[80], *argv[2];
	char prof[64];
	qemu_info_t info = { .target_name = "x86_64", .system_emulation = true };
	struct vsb_exact_window w;
	int fd, i;

	test_classify();

	fd = mkstemp(file);
	TAP_OK(fd >= 0 && !ftruncate(fd, 64 << 20), "window file made");
	close(fd);
	info.system.max_vcpus = 2;
	snprintf(arg, sizeof(arg), "out=%s", file);
	snprintf(prof, sizeof(prof), "%s.prof", file);
	snprintf(parg, sizeof(parg), "prof=%s", prof);
	argv[0] = arg;
	argv[1] = parg;
	TAP_OK(qemu_plugin_install(1, &info, 2, argv) == 0,
	       "installs with out=FILE prof=FILE");
	a->vaddr = 0xffffffff81000000ULL;
	b->vaddr = 0xffffffff81000040ULL;
	other->vaddr = 0xffffffff81000080ULL;
	c->vaddr = 0xffffffff810000c0ULL;
	stray->vaddr = 0xffffffff81000300ULL;

	/* vCPU 0: a window across two blocks; vCPU 1 runs in between */
	put(a, nop, 1, 0, 0);
	put(a, m_start, 8, 0, 0);
	put(a, lock_cmpxchg, 5, 1, 1);
	put(a, pushf, 1, 0, 1);
	put(b, popf, 1, 1, 0);
	put(b, cli, 1, 0, 0);
	put(b, m_stop, 8, 0, 0);
	put(b, nop, 1, 0, 0);
	for (i = 0; i < 5; i++)
		put(other, mov_load, 3, 2, 0);
	put(c, m_start, 8, 0, 0);
	put(c, nop, 1, 0, 0);
	put(c, m_stop, 8, 0, 0);
	put(stray, m_stop, 8, 0, 0);
	trans_cb(1, a);
	trans_cb(1, b);
	trans_cb(1, other);
	trans_cb(1, c);
	trans_cb(1, stray);

	run_tb(a, 0);
	run_tb(other, 1);
	run_tb(other, 1);
	run_tb(b, 0);
	run_tb(c, 1);
	run_tb(stray, 0);

	TAP_OK(read_window(file, 0, 0, &w), "vCPU 0's window 0 written");
	TAP_OK(w.vcpu == 0 && w.seq == 0, "it says vCPU 0, window 0");
	/* the start marker, lock cmpxchg, pushf, popf, cli: not vCPU 1's 10 */
	TAP_OK(w.count[VSB_EXACT_INSN] == 5, "instructions: 5 (got %llu), none of vCPU 1's",
	       (unsigned long long)w.count[VSB_EXACT_INSN]);
	TAP_OK(w.count[VSB_EXACT_LOCK] == 1 && w.count[VSB_EXACT_CMPXCHG] == 1,
	       "one locked cmpxchg");
	TAP_OK(w.count[VSB_EXACT_IRQ] == 3 && w.count[VSB_EXACT_PUSHF] == 1 &&
	       w.count[VSB_EXACT_POPF] == 1, "irq: pushf, popf, cli");
	TAP_OK(w.count[VSB_EXACT_CLI] == 1 && w.count[VSB_EXACT_STI] == 0 &&
	       w.count[VSB_EXACT_PAUSE] == 0, "cli counted alone, no sti, no pause");
	TAP_OK(w.count[VSB_EXACT_CMPXCHG_LOCAL] == 0,
	       "a locked cmpxchg is not a local one");
	TAP_OK(w.count[VSB_EXACT_LOADS] == 2 && w.count[VSB_EXACT_STORES] == 2,
	       "loads 2, stores 2 (got %llu, %llu): vCPU 1's 20 loads are its own",
	       (unsigned long long)w.count[VSB_EXACT_LOADS],
	       (unsigned long long)w.count[VSB_EXACT_STORES]);
	TAP_OK(read_window(file, 1, 0, &w) && w.count[VSB_EXACT_INSN] == 2,
	       "vCPU 1 numbers its own windows from 0: start marker + nop");
	TAP_OK(!read_window(file, 0, 1, &w), "a stop with no open window writes nothing");
	test_rep(rep_open, rep_body, rep_close, file);
	/* vCPU 0's window 1 is test_rep's: the interleaved one is its 2 */
	profile_interleaved();
	TAP_OK(read_window(file, 0, 2, &w) && w.count[VSB_EXACT_INSN] == 11 &&
	       read_window(file, 1, 1, &w) && w.count[VSB_EXACT_INSN] == 8,
	       "interleaved windows: 11 and 8 instructions");
	outs[0] = '\0';
	exit_cb(1, NULL);
	TAP_OK(strstr(outs, "5 windows written, 1 stray stops, 0 write errors") != NULL,
	       "closing line counts windows and stray stops: %s", outs);
	TAP_OK(strstr(outs, "profile of 5 windows written") != NULL,
	       "closing line says the profile's windows: %s", outs);
	test_profile(prof);
	unlink(prof);
	test_user_mode(file);
	unlink(file);
	free(a);
	free(b);
	free(other);
	free(c);
	free(stray);
	free(rep_open);
	free(rep_body);
	free(rep_close);
	return tap_done();
}
