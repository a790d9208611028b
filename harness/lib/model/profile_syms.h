/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profile_syms.h - a kernel's text symbols, to name the blocks of exact
 * mode's profile: /proc/kallsyms as the guest kept it (module symbols
 * "name [module]"), or a System.map.
 */
#ifndef VSB_PROFILE_SYMS_H
#define VSB_PROFILE_SYMS_H

#include <stddef.h>
#include <stdint.h>

struct vsb_sym {
	uint64_t addr;
	const char *name;	/* "func", or "func [module]" */
};

struct vsb_syms {
	struct vsb_sym *s;	/* by address */
	size_t n;
	char *buf;		/* the names */
};

/*
 * The text symbols (t, T, w, W) of @path, "ADDR TYPE NAME [MODULE]" a
 * line; 0, or -1 with why in @why: unreadable, or no text symbol with a
 * non-zero address (kallsyms read without the right to see addresses).
 */
int vsb_syms_load(const char *path, struct vsb_syms *t, char *why, size_t len);
/* the symbol @addr lies in (the last one at or below it), or -1 */
long vsb_syms_find(const struct vsb_syms *t, uint64_t addr);
/* the address of the symbol named @name, or 0 */
uint64_t vsb_syms_addr(const struct vsb_syms *t, const char *name);
void vsb_syms_free(struct vsb_syms *t);

#endif /* VSB_PROFILE_SYMS_H */
