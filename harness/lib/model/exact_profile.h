/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exact_profile.h - exact mode's profile per op: the plugin's blocks of
 * a point's windows (qemu-plugin/profile.c) named by the kernel's
 * symbols (profile_syms.h), summed per function and divided by the
 * ops the windows ran; and profile.csv, its rows.
 */
#ifndef VSB_EXACT_PROFILE_H
#define VSB_EXACT_PROFILE_H

#include <stdint.h>
#include <stdio.h>

#include "exact_record.h"
#include "profile_syms.h"

/* a boot's blocks file (exact-profile/BOOT_ID/blocks), parsed */
struct vsb_pblock {
	uint64_t addr, entries;
	uint64_t count[VSB_EXACT_NCLASS];	/* the record's order */
};
struct vsb_pwindow {
	unsigned int vcpu;
	uint64_t seq;
	size_t first, n;	/* its blocks */
};
struct vsb_pblocks {
	int nclass;		/* classes a line holds: fewer in an older file */
	struct vsb_pwindow *w;
	size_t nw;
	struct vsb_pblock *b;
	size_t nb;
};

/* 0, or -1 with why in @why (unreadable, not a profile, a bad line) */
int vsb_pblocks_read(const char *path, struct vsb_pblocks *pb, char *why, size_t len);
void vsb_pblocks_free(struct vsb_pblocks *pb);

/* one function's share of an op: calls and classes (insn first) per op */
struct vsb_pfn {
	char name[160];
	double calls;
	double c[VSB_EXACT_RESULT_CLASSES];	/* vsb_exact_classes' order */
};
struct vsb_prof {
	struct vsb_pfn *fn;	/* by insn, most first; "(other)" last */
	size_t n;
	double ops;		/* the windows' ops */
	size_t nwindows;
};

/* The name of the rows below the share: "(other)" */
#define VSB_PROF_OTHER	"(other)"
/* A row of its own from this share of the op's instructions up */
#define VSB_PROF_MIN_SHARE	0.001

/*
 * The profile of the windows @spec names ("boot=ID vcpu:first-last ...",
 * a result's exact_windows metadata), per op over @ops: every block of
 * them named by @syms ("(unknown)" where none covers it), a call for
 * each entry of a block at a symbol's first instruction; functions
 * below VSB_PROF_MIN_SHARE of the instructions folded into "(other)".
 * 0, or -1 with why (a window missing from @pb, a bad spec).
 */
int vsb_prof_of(const struct vsb_pblocks *pb, const struct vsb_syms *syms,
		const char *spec, double ops, struct vsb_prof *p, char *why, size_t len);
void vsb_prof_free(struct vsb_prof *p);
/* the boot id of @spec into @boot; -1 when it has none */
int vsb_prof_spec_boot(const char *spec, char *boot, size_t len);

/* profile.csv's head: a line that says what it is, then the columns */
void vsb_prof_csv_header(FILE *f);
void vsb_prof_csv_rows(FILE *f, const char *label, const char *side,
		       const struct vsb_prof *p);

#endif /* VSB_EXACT_PROFILE_H */
