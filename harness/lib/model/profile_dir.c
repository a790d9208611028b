// SPDX-License-Identifier: GPL-2.0
/*
 * profile_dir.c - the profiles of a folder of exact-mode results
 * (profile_dir.h).
 *
 * A result names its windows and its boot (exact_windows metadata,
 * "boot=ID vcpu:first-last ..."); the boot's folder exact-profile/ID/
 * holds what the host and the guest kept of that boot: the plugin's
 * blocks and the guest's kallsyms, read while the module was loaded
 * (ci/exact-syms.sh).  A folder's results share a boot or a few (one
 * per guest shape), so the last boot's tables are kept between results.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "vsb.h"
#include "exact_windows.h"
#include "insn_mix.h"
#include "profile_dir.h"
#include "result_load.h"

struct boot_cache {
	char boot[64];
	int ok;
	char why[512];
	struct vsb_syms syms;
	struct vsb_pblocks pb;
};

static int by_sym_name(const void *a, const void *b)
{
	return strcmp(((const struct vsb_sym *)a)->name, ((const struct vsb_sym *)b)->name);
}

/* a symbol of @byname named as @k (statics share names) at @want's address */
static int same_addr(const struct vsb_sym *byname, size_t n, const struct vsb_sym *k,
		     const struct vsb_sym *want)
{
	size_t at = (size_t)(k - byname), i;

	while (at > 0 && !strcmp(byname[at - 1].name, want->name))
		at--;
	for (i = at; i < n && !strcmp(byname[i].name, want->name); i++)
		if (byname[i].addr == want->addr)
			return 1;
	return 0;
}

/*
 * Every symbol of the kernel proper that both name, checked: one moved
 * function is a kernel built otherwise (the lookups go through a copy
 * sorted by name).
 */
int vsb_syms_match(const struct vsb_syms *file, const struct vsb_syms *kallsyms,
		   char *why, size_t len)
{
	struct vsb_sym *byname = vsb_zalloc((kallsyms->n + 1) * sizeof(*byname));
	size_t i, checked = 0;
	int ret = 0;

	memcpy(byname, kallsyms->s, kallsyms->n * sizeof(*byname));
	qsort(byname, kallsyms->n, sizeof(*byname), by_sym_name);
	for (i = 0; i < file->n && !ret; i++) {
		const struct vsb_sym *k;

		if (strchr(file->s[i].name, '['))
			continue;	/* a module's: where it loaded, this boot */
		k = bsearch(&file->s[i], byname, kallsyms->n, sizeof(*byname), by_sym_name);
		if (!k)
			continue;
		checked++;
		if (!same_addr(byname, kallsyms->n, k, &file->s[i])) {
			snprintf(why, len, "%s is at %llx in the symbol file, at %llx in "
				 "the booted kernel", file->s[i].name,
				 (unsigned long long)file->s[i].addr,
				 (unsigned long long)k->addr);
			ret = -1;
		}
	}
	free(byname);
	if (!ret && !checked) {
		snprintf(why, len, "no symbol in common with the booted kernel's");
		ret = -1;
	}
	return ret;
}

/* @dir/exact-profile/@boot's tables into @c; VSB_EXIT_USAGE: --syms wrong */
static int boot_load(const char *dir, const char *boot, const char *syms_file,
		     struct boot_cache *c)
{
	char path[4096 + 128];
	struct vsb_syms file;

	if (!strcmp(c->boot, boot))
		return 0;
	vsb_syms_free(&c->syms);
	vsb_pblocks_free(&c->pb);
	snprintf(c->boot, sizeof(c->boot), "%s", boot);
	c->ok = 0;
	snprintf(path, sizeof(path), "%s/exact-profile/%s/blocks", dir, boot);
	if (vsb_pblocks_read(path, &c->pb, c->why, sizeof(c->why)))
		return 0;
	snprintf(path, sizeof(path), "%s/exact-profile/%s/kallsyms", dir, boot);
	if (vsb_syms_load(path, &c->syms, c->why, sizeof(c->why)) && !syms_file)
		return 0;
	if (syms_file) {
		if (vsb_syms_load(syms_file, &file, c->why, sizeof(c->why))) {
			vsb_err("--syms %s", c->why);
			return VSB_EXIT_USAGE;
		}
		if (c->syms.n && vsb_syms_match(&file, &c->syms, c->why, sizeof(c->why))) {
			vsb_err("--syms %s does not match the booted kernel: %s", syms_file,
				c->why);
			vsb_syms_free(&file);
			return VSB_EXIT_USAGE;
		}
		vsb_syms_free(&c->syms);
		c->syms = file;
	}
	c->ok = 1;
	return 0;
}

/* a sample row and the window it was counted in */
struct sample_win {
	double per_op;
	long ops, rep;
	unsigned int vcpu;
	uint64_t seq;
	int has_seq;	/* seq set from the spec */
};

static int by_vcpu_rep(const void *a, const void *b)
{
	const struct sample_win *x = a, *y = b;

	if (x->vcpu != y->vcpu)
		return x->vcpu < y->vcpu ? -1 : 1;
	return (x->rep > y->rep) - (x->rep < y->rep);
}

static int by_per_op(const void *a, const void *b)
{
	const struct sample_win *x = a, *y = b;

	return (x->per_op > y->per_op) - (x->per_op < y->per_op);
}

/*
 * vCPU @v's first sample in @sw (sorted by vCPU, then repetition)
 * without a window yet, or @n when it has none left.
 */
static size_t first_free(const struct sample_win *sw, size_t n, unsigned int v)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (sw[k].vcpu == v && !sw[k].has_seq)
			break;
	return k;
}

/*
 * Every sample of @f with its window: the samples of vCPU v, by
 * repetition, were counted in v's windows in @spec, in order (the
 * harness notes them as it keeps them).  The spec lists a multi-CPU
 * point's windows round by round, its vCPUs interleaved ("0:14-14
 * 1:6-6 0:34-34 ..."), so each vCPU's windows go to its own samples.
 * -1 with why when the counts differ.
 */
static int sample_windows(const struct vsb_rl_file *f, const char *spec,
			  struct sample_win *sw, char *why, size_t len)
{
	struct vsb_csv_span cells[VSB_RL_MAX_COLS];
	struct vsb_rl_sample s;
	const char *p = spec;
	unsigned long long lo, hi, q;
	unsigned int v;
	size_t r, k, used = 0;

	for (r = 0; r < f->nrows; r++) {
		vsb_rl_cells(f, r, cells);
		vsb_rl_sample(f, cells, &s);
		sw[r].per_op = s.ops > 0 ? (double)s.elapsed / (double)s.ops : 0;
		sw[r].ops = s.ops;
		sw[r].rep = s.rep;
		sw[r].vcpu = (unsigned int)s.cpu;
	}
	qsort(sw, f->nrows, sizeof(*sw), by_vcpu_rep);
	while (vsb_exact_windows_next(&p, &v, &lo, &hi) > 0) {
		for (q = lo; q <= hi; q++, used++) {
			k = first_free(sw, f->nrows, v);
			if (k >= f->nrows) {
				snprintf(why, len, "exact_windows does not match the samples "
					 "(vCPU %u's window %llu)", v, q);
				return -1;
			}
			sw[k].seq = q;
			sw[k].has_seq = 1;
		}
	}
	if (used != f->nrows) {
		snprintf(why, len, "exact_windows names %zu windows for %zu samples", used,
			 f->nrows);
		return -1;
	}
	return 0;
}

/*
 * The windows of the point's median sample (the two middle ones for an
 * even count) as a spec, and their ops: the sample mix.csv's median is,
 * so the profile sums to it, and a window that also ran an interrupt's
 * work (RCU callbacks, a slab free) does not move it.
 */
static int median_spec(const struct vsb_rl_file *f, const char *spec, const char *boot,
		       char *out, size_t olen, double *ops, char *why, size_t len)
{
	struct sample_win *sw = vsb_zalloc((f->nrows + 1) * sizeof(*sw));
	size_t lo = (f->nrows - 1) / 2, hi = f->nrows / 2, i;
	int ret = -1;

	if (f->nrows && !sample_windows(f, spec, sw, why, len)) {
		qsort(sw, f->nrows, sizeof(*sw), by_per_op);
		snprintf(out, olen, "boot=%s", boot);
		*ops = 0;
		for (i = lo; i <= hi; i++) {
			size_t at = strlen(out);

			snprintf(out + at, olen - at, " %u:%llu-%llu", sw[i].vcpu,
				 (unsigned long long)sw[i].seq, (unsigned long long)sw[i].seq);
			*ops += (double)sw[i].ops;
		}
		ret = 0;
	} else if (!f->nrows) {
		snprintf(why, len, "no samples");
	}
	free(sw);
	return ret;
}

/* mix.csv's label (vsb_mix_point_label), its commas as a CSV cell's */
static void point_label(const struct vsb_rl_file *f, size_t row, char *buf, size_t len)
{
	size_t off;

	vsb_mix_point_label(f, row, buf, len);
	for (off = 0; buf[off]; off++)
		if (buf[off] == ',')
			buf[off] = ';';	/* a CSV cell */
}

static void skip(struct vsb_prof_dir *d, const char *path, const char *why)
{
	if (!d->nskip++)
		snprintf(d->skip_why, sizeof(d->skip_why), "%.200s: %.300s", path, why);
}

static int file_rows(const char *dir, const char *path, const char *side, FILE *out,
		     struct vsb_prof_dir *d, struct boot_cache *c)
{
	const char *spec;
	char boot[64], label[256], why[512], mspec[256];
	struct vsb_rl_file f;
	double ops;
	struct vsb_prof p;
	size_t row;
	int ret;

	if (vsb_rl_read(path, 0, &f))
		return 0;	/* not a result: said by the loader */
	spec = vsb_rl_meta(&f, "exact_windows");
	if (f.npoints != 1 || strcmp(f.points[0].unit, "insn")) {
		vsb_rl_free(&f);
		return 0;	/* not one exact point: nothing to profile */
	}
	if (vsb_prof_spec_boot(spec, boot, sizeof(boot))) {
		skip(d, path, spec ? "exact_windows names no windows of one boot" :
		     "no exact_windows metadata (counted before profiles)");
		vsb_rl_free(&f);
		return 0;
	}
	ret = boot_load(dir, boot, d->syms_file, c);
	if (ret || !c->ok) {
		if (!ret)
			skip(d, path, c->why);
		vsb_rl_free(&f);
		return ret;
	}
	if (median_spec(&f, spec, boot, mspec, sizeof(mspec), &ops, why, sizeof(why)) ||
	    vsb_prof_of(&c->pb, &c->syms, mspec, ops, &p, why, sizeof(why))) {
		skip(d, path, why);
	} else {
		for (row = 0; row < f.nrows && f.row_point[row] != 0; row++)
			;
		point_label(&f, row, label, sizeof(label));
		vsb_prof_csv_rows(out, label, side, &p);
		vsb_prof_free(&p);
		d->nprof++;
	}
	vsb_rl_free(&f);
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int vsb_prof_dir_rows(const char *dir, const char *side, FILE *out,
		      struct vsb_prof_dir *d)
{
	struct boot_cache *c = vsb_zalloc(sizeof(*c));
	struct dirent **e;
	char path[4096 + 512];
	int n, i, ret = 0;

	n = scandir(dir, &e, NULL, by_name);
	for (i = 0; i < n; i++) {
		size_t len = strlen(e[i]->d_name);

		if (!ret && len > 4 && !strcmp(e[i]->d_name + len - 4, ".csv") &&
		    !vsb_rl_is_derived_name(e[i]->d_name) &&
		    strcmp(e[i]->d_name, "profile.csv") && strcmp(e[i]->d_name, "mix.csv")) {
			snprintf(path, sizeof(path), "%s/%s", dir, e[i]->d_name);
			ret = file_rows(dir, path, side, out, d, c);
		}
		free(e[i]);
	}
	if (n >= 0)
		free(e);
	vsb_syms_free(&c->syms);
	vsb_pblocks_free(&c->pb);
	free(c);
	return ret;
}
