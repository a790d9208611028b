/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profile.h - exact mode's profile: where each window's instructions ran,
 * by translation block start address (profile.c).
 */
#ifndef VSB_PLUGIN_PROFILE_H
#define VSB_PLUGIN_PROFILE_H

#include <stdint.h>

#include "kmod/uapi/vsb_exact.h"

/* the profile file's first line: its format and version */
#define VSB_PROF_MAGIC	"vsb-profile 1"

/* prof=FILE: 0, or -1 with why in @why */
int vsb_prof_open(const char *file, char *why, size_t len);
int vsb_prof_on(void);
/* at translation: the udata of the block at @vaddr's exec callback */
void *vsb_prof_tb(uint64_t vaddr);
/* @delta ran in the block of @udata on @vcpu, inside its window */
void vsb_prof_add(unsigned int vcpu, void *udata, const uint64_t *delta);
/* the block of @udata was entered on @vcpu, inside its window */
void vsb_prof_enter(unsigned int vcpu, void *udata);
/* @vcpu's window @seq closed: its blocks go to the file */
void vsb_prof_window(unsigned int vcpu, uint64_t seq);
/* blocks whose counts were lost (out of memory): the profile is short */
uint64_t vsb_prof_lost(void);
/* the number of windows written; closes the file */
uint64_t vsb_prof_close(void);

#endif /* VSB_PLUGIN_PROFILE_H */
