// SPDX-License-Identifier: GPL-2.0
/*
 * profile.c - exact mode's profile (prof=FILE): every instruction a
 * window counts, and every class of its mix, by the translation block
 * that ran it, and how often each block was entered.
 *
 * Cheap by design: nothing per instruction.  The plugin already settles
 * its global counters at every block entry (vsb_insn.c's settle()); what
 * they gained since the last entry is exactly what the previous block
 * ran, partial runs (a fault mid-block) and a marker mid-block included,
 * so adding that delta to the previous block's counters on its vCPU
 * attributes every counted instruction and access, and the profile of a
 * window sums to its count to the last instruction.  Outside windows it
 * costs one test a block.
 *
 * Blocks, not functions: QEMU's plugin API 1 gives a block's start
 * address, and symbols are best resolved on the host after the run
 * (the guest's /proc/kallsyms holds the module's addresses and any
 * KASLR offset), so each closed window goes to the file as its blocks'
 * start addresses with their entries and classes; the harness maps
 * addresses to functions (harness/lib/model/profile_syms.c) and counts a
 * function's calls as the entries of the block at its first
 * instruction.
 *
 * Blocks are numbered at translation (a hash of start addresses); a
 * vCPU's counters are an array by that number, grown as it needs, and a
 * list of the blocks touched in its open window, so closing a window
 * writes and clears only those.  Race-free only because system mode
 * runs every vCPU on one host thread (vsb_insn.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"

struct prof_acc {
	uint64_t epoch;			/* its vCPU's epoch + 1 when touched */
	uint64_t entries;
	uint64_t count[VSB_EXACT_NCLASS];
};

struct prof_vcpu {
	struct prof_acc *acc;		/* by block number */
	uint32_t cap;
	uint32_t *touched;		/* block numbers, this window */
	uint32_t ntouched, tcap;
	uint64_t epoch;			/* windows closed */
};

static FILE *prof_file;
static uint64_t prof_windows;
/* deltas or entries no counter could take (out of memory): said at exit */
static uint64_t prof_lost;
static struct prof_vcpu prof_vcpus[VSB_EXACT_VCPUS];
/* start address -> block number + 1, open addressing */
static uint64_t *hash_key;
static uint32_t *hash_val;
static uint32_t hash_cap, nblocks;
static uint64_t *block_addr;		/* by block number */

int vsb_prof_open(const char *file, char *why, size_t len)
{
	prof_file = fopen(file, "we");
	if (!prof_file) {
		snprintf(why, len, "vsb-insn: prof=%s: %s\n", file, strerror(errno));
		return -1;
	}
	setvbuf(prof_file, NULL, _IOFBF, 1 << 20);
	fprintf(prof_file, "%s\n# per closed window: W vcpu seq, then per block "
		"that ran in it: start address (hex), entries, and the %d "
		"classes of kmod/uapi/vsb_exact.h in its order\n",
		VSB_PROF_MAGIC, VSB_EXACT_NCLASS);
	return 0;
}

int vsb_prof_on(void)
{
	return prof_file != NULL;
}

static uint32_t hash_slot(uint64_t a)
{
	a ^= a >> 33;
	a *= 0xff51afd7ed558ccdULL;
	a ^= a >> 33;
	return (uint32_t)a & (hash_cap - 1);
}

static int hash_grow(void)
{
	uint64_t *ok = hash_key, *nb;
	uint32_t *ov = hash_val, ocap = hash_cap, i, s;

	hash_cap = ocap ? ocap * 2 : 1u << 16;
	hash_key = calloc(hash_cap, sizeof(*hash_key));
	hash_val = calloc(hash_cap, sizeof(*hash_val));
	nb = realloc(block_addr, (size_t)hash_cap / 2 * sizeof(*block_addr));
	if (!hash_key || !hash_val || !nb)
		return -1;
	block_addr = nb;
	for (i = 0; i < ocap; i++) {
		if (!ov[i])
			continue;
		for (s = hash_slot(ok[i]); hash_val[s]; s = (s + 1) & (hash_cap - 1))
			;
		hash_key[s] = ok[i];
		hash_val[s] = ov[i];
	}
	free(ok);
	free(ov);
	return 0;
}

/* A block's number, given at its first translation; NULL when out of memory */
void *vsb_prof_tb(uint64_t vaddr)
{
	uint32_t s;

	if (!prof_file)
		return NULL;
	if (nblocks + 1 > hash_cap / 2 && hash_grow())
		return NULL;
	for (s = hash_slot(vaddr); hash_val[s]; s = (s + 1) & (hash_cap - 1))
		if (hash_key[s] == vaddr)
			return (void *)(uintptr_t)hash_val[s];
	hash_key[s] = vaddr;
	hash_val[s] = ++nblocks;
	block_addr[nblocks - 1] = vaddr;
	return (void *)(uintptr_t)nblocks;
}

/* The counters of block @udata on @vcpu, cleared at its first touch */
static struct prof_acc *touch(unsigned int vcpu, void *udata)
{
	uint32_t b = (uint32_t)(uintptr_t)udata;
	struct prof_vcpu *v;
	struct prof_acc *a;

	if (!b || vcpu >= VSB_EXACT_VCPUS)
		return NULL;
	v = &prof_vcpus[vcpu];
	b--;
	if (b >= v->cap) {
		uint32_t cap = v->cap ? v->cap : 1u << 12;
		struct prof_acc *n;

		while (cap <= b)
			cap *= 2;
		n = realloc(v->acc, (size_t)cap * sizeof(*n));
		if (!n)
			return NULL;
		memset(n + v->cap, 0, (size_t)(cap - v->cap) * sizeof(*n));
		v->acc = n;
		v->cap = cap;
	}
	a = &v->acc[b];
	if (a->epoch == v->epoch + 1)
		return a;
	if (v->ntouched == v->tcap) {
		uint32_t tcap = v->tcap ? v->tcap * 2 : 256;
		uint32_t *t = realloc(v->touched, (size_t)tcap * sizeof(*t));

		if (!t)
			return NULL;
		v->touched = t;
		v->tcap = tcap;
	}
	v->touched[v->ntouched++] = b;
	memset(a, 0, sizeof(*a));
	a->epoch = v->epoch + 1;
	return a;
}

void vsb_prof_add(unsigned int vcpu, void *udata, const uint64_t *delta)
{
	struct prof_acc *a = touch(vcpu, udata);
	int c;

	if (!a) {
		prof_lost++;
		return;
	}
	for (c = 0; c < VSB_EXACT_NCLASS; c++)
		a->count[c] += delta[c];
}

void vsb_prof_enter(unsigned int vcpu, void *udata)
{
	struct prof_acc *a = touch(vcpu, udata);

	if (a)
		a->entries++;
	else
		prof_lost++;
}

void vsb_prof_window(unsigned int vcpu, uint64_t seq)
{
	struct prof_vcpu *v;
	uint32_t i;
	int c;

	if (!prof_file || vcpu >= VSB_EXACT_VCPUS)
		return;
	v = &prof_vcpus[vcpu];
	fprintf(prof_file, "W %u %llu\n", vcpu, (unsigned long long)seq);
	for (i = 0; i < v->ntouched; i++) {
		const struct prof_acc *a = &v->acc[v->touched[i]];

		fprintf(prof_file, "%llx %llu", (unsigned long long)block_addr[v->touched[i]],
			(unsigned long long)a->entries);
		for (c = 0; c < VSB_EXACT_NCLASS; c++)
			fprintf(prof_file, " %llu", (unsigned long long)a->count[c]);
		fputc('\n', prof_file);
	}
	v->ntouched = 0;
	v->epoch++;
	prof_windows++;
}

uint64_t vsb_prof_lost(void)
{
	return prof_lost;
}

uint64_t vsb_prof_close(void)
{
	if (prof_file) {
		fclose(prof_file);
		prof_file = NULL;
	}
	return prof_windows;
}
