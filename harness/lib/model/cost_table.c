// SPDX-License-Identifier: GPL-2.0
/*
 * cost_table.c - the cost table's file: its row names, its writer and
 * its strict reader (cost_table.h).  No timing here: lib/machine's
 * cost_probe.c measures, this only keeps, so the model and the tests
 * read a table on any machine.
 *
 * The reader refuses, with one line, anything it would otherwise have
 * to guess at: another format, a row it does not know, a row twice, a
 * user-space row missing, a number that is not one.  A table that
 * half-read would price instructions with whatever was left over.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vsb.h"
#include "csvread.h"
#include "cost_table.h"

static const struct {
	const char *name;
	const char *what;
} prims[VSB_PRIM_N] = {
	[VSB_PRIM_ADD_CHAIN] = { "add_chain",
		"add %rdx,%rax, each on the last: 1 cycle, the clock" },
	[VSB_PRIM_IMUL_CHAIN] = { "imul_chain",
		"imul %rdx,%rax, each on the last: 3 cycles, the self-check" },
	[VSB_PRIM_ADD_TPUT] = { "add_tput",
		"add reg,reg over 8 independent registers: 1/ALU width" },
	[VSB_PRIM_LOAD] = { "load", "mov (mem),%rax, independent, one L1 line" },
	[VSB_PRIM_STORE] = { "store", "mov %rax,(mem), independent, one L1 line" },
	[VSB_PRIM_LOCK_CMPXCHG] = { "lock_cmpxchg",
		"lock cmpxchg %rdx,(mem), succeeding, back to back" },
	[VSB_PRIM_LOCK_XADD] = { "lock_xadd", "lock xadd %rdx,(mem), back to back" },
	[VSB_PRIM_CMPXCHG] = { "cmpxchg",
		"cmpxchg %rdx,(mem) without LOCK, succeeding, back to back" },
	[VSB_PRIM_CMPXCHG_GS] = { "cmpxchg_gs",
		"cmpxchg %rdx,%gs:(mem) without LOCK, as this_cpu_cmpxchg" },
	[VSB_PRIM_PUSHF] = { "pushf", "pushfq with a pop into a register" },
	[VSB_PRIM_POPF] = { "popf",
		"popfq of the flags just pushed (IF unchanged), less pushf's row" },
	[VSB_PRIM_PAUSE] = { "pause", "pause (what cpu_relax() emits)" },
	[VSB_PRIM_LFENCE] = { "lfence", "lfence, back to back" },
	[VSB_PRIM_MFENCE] = { "mfence", "mfence, back to back" },
	[VSB_PRIM_CPUID] = { "cpuid", "cpuid leaf 0 (a VM exit under a hypervisor)" },
	[VSB_PRIM_REP_STOSB_4K] = { "rep_stosb_4k",
		"rep stosb of 4 KiB into an L1-resident page: cycles per 4 KiB" },
	[VSB_PRIM_CLI_STI] = { "cli_sti",
		"kernel: local_irq_disable+local_irq_enable, per pair" },
	[VSB_PRIM_IRQ_SAVE_RESTORE] = { "irq_save_restore",
		"kernel: local_irq_save+local_irq_restore, per pair" },
	[VSB_PRIM_THIS_CPU_CMPXCHG] = { "this_cpu_cmpxchg", "kernel: this_cpu_cmpxchg" },
	[VSB_PRIM_K_LOCK_CMPXCHG] = { "k_lock_cmpxchg",
		"kernel: LOCK cmpxchg on a per-CPU slot" },
	[VSB_PRIM_THIS_CPU_ADD] = { "this_cpu_add", "kernel: this_cpu_add" },
};

const char *vsb_prim_name(enum vsb_prim p)
{
	return (unsigned int)p < VSB_PRIM_N ? prims[p].name : "?";
}

const char *vsb_prim_what(enum vsb_prim p)
{
	return (unsigned int)p < VSB_PRIM_N ? prims[p].what : "?";
}

int vsb_prim_by_name(const char *name)
{
	int i;

	for (i = 0; i < VSB_PRIM_N; i++)
		if (!strcmp(prims[i].name, name))
			return i;
	return -1;
}

void vsb_cost_table_set_key(struct vsb_cost_table *t)
{
	snprintf(t->key, sizeof(t->key), "%s-%u-%u-%u", t->vendor, t->family,
		 t->model, t->stepping);
}

void vsb_cost_table_clear(struct vsb_cost_table *t)
{
	int i;

	for (i = 0; i < VSB_PRIM_N; i++)
		t->p[i] = (struct vsb_prim_cost){ NAN, NAN, NAN, 0 };
	t->tsc_per_cycle = NAN;
}

/* "-" for NAN, so a reader can tell "not measured" from a number */
static void put_num(FILE *f, double v, const char *sep)
{
	if (isnan(v))
		fprintf(f, "-%s", sep);
	else
		fprintf(f, "%.4f%s", v, sep);
}

int vsb_cost_table_write(FILE *f, const struct vsb_cost_table *t)
{
	int i;

	fprintf(f, "%s\n", VSB_COST_TABLE_MAGIC);
	fprintf(f, "# cost_key: %s\n", t->key);
	fprintf(f, "# cpu_vendor: %s\n", t->vendor);
	fprintf(f, "# cpu_family: %u\n", t->family);
	fprintf(f, "# cpu_model_id: %u\n", t->model);
	fprintf(f, "# cpu_stepping: %u\n", t->stepping);
	fprintf(f, "# cpu_model: %s\n", t->cpu_name);
	fprintf(f, "# tsc_per_cycle: %.6f\n", t->tsc_per_cycle);
	fprintf(f, "# when: %s\n", t->when);
	fprintf(f, "# units: core cycles per instruction (rep_stosb_4k: per 4 KiB; "
		"kernel rows: per pair or op; '-': not measured)\n");
	fprintf(f, "# spread: %s\n", VSB_COST_SPREAD);
	fprintf(f, "prim,median,lo,hi,n\n");
	for (i = 0; i < VSB_PRIM_N; i++) {
		const struct vsb_prim_cost *c = &t->p[i];

		fprintf(f, "%s,", prims[i].name);
		put_num(f, c->median, ",");
		put_num(f, c->lo, ",");
		put_num(f, c->hi, ",");
		fprintf(f, "%zu\n", c->n);
	}
	fflush(f);
	return ferror(f) ? -1 : 0;
}

/*
 * The first line, checked before the CSV reader sees the file: another
 * format is named as such, not reported as a missing column.
 */
static int check_magic(const char *path)
{
	char *buf = NULL, *nl;
	size_t len = 0, n = strlen(VSB_COST_TABLE_MAGIC);
	int ret = vsb_csv_slurp(path, 1u << 20, &buf, &len);

	if (ret)
		return ret;
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	if (nl && nl > buf && nl[-1] == '\r')
		nl[-1] = '\0';
	if (strcmp(buf, VSB_COST_TABLE_MAGIC)) {
		if (!strncmp(buf, VSB_COST_TABLE_MAGIC, n - 1))
			vsb_err("%s: '%.40s': a cost table of another version, this "
				"vmstat-bench reads '%s'", path, buf, VSB_COST_TABLE_MAGIC);
		else
			vsb_err("%s: not a vmstat-bench cost table (its first line is "
				"'%.40s', not '%s')", path, buf, VSB_COST_TABLE_MAGIC);
		ret = VSB_EXIT_USAGE;
	}
	free(buf);
	return ret;
}

/* A cell: "-" is NAN, else a decimal number with an optional '-'. */
static int cell_num(const char *s, double *v)
{
	int neg = s[0] == '-';

	if (!strcmp(s, "-")) {
		*v = NAN;
		return 0;
	}
	if (vsb_parse_real(s + neg, v))
		return -1;
	if (neg)
		*v = -*v;
	return 0;
}

static int meta_uint(const struct vsb_csv *c, const char *key, unsigned int *v)
{
	const char *s = vsb_csv_meta(c, key);
	long l;

	if (!s || vsb_parse_long(s, &l) || l < 0 || l > 0xffff) {
		vsb_err("%s: '# %s:' is %s%s%s: not a whole number", c->path, key,
			s ? "'" : "missing", s ? s : "", s ? "'" : "");
		return VSB_EXIT_USAGE;
	}
	*v = (unsigned int)l;
	return 0;
}

static int meta_str(const struct vsb_csv *c, const char *key, char *buf, size_t len)
{
	const char *s = vsb_csv_meta(c, key);

	if (!s || !*s || strlen(s) >= len) {
		vsb_err("%s: '# %s:' is %s", c->path, key, s && *s ? "too long" : "missing");
		return VSB_EXIT_USAGE;
	}
	snprintf(buf, len, "%s", s);
	return 0;
}

/* The `# key: value` part: who the table is of, and its clock. */
static int read_meta(const struct vsb_csv *c, struct vsb_cost_table *t)
{
	const char *s;
	char key[64];
	int ret;

	ret = meta_str(c, "cpu_vendor", t->vendor, sizeof(t->vendor));
	ret = ret ? ret : meta_uint(c, "cpu_family", &t->family);
	ret = ret ? ret : meta_uint(c, "cpu_model_id", &t->model);
	ret = ret ? ret : meta_uint(c, "cpu_stepping", &t->stepping);
	ret = ret ? ret : meta_str(c, "cpu_model", t->cpu_name, sizeof(t->cpu_name));
	ret = ret ? ret : meta_str(c, "when", t->when, sizeof(t->when));
	ret = ret ? ret : meta_str(c, "cost_key", key, sizeof(key));
	if (ret)
		return ret;
	vsb_cost_table_set_key(t);
	if (strcmp(key, t->key)) {
		vsb_err("%s: '# cost_key: %s' is not its CPU's (%s): an edited table",
			c->path, key, t->key);
		return VSB_EXIT_USAGE;
	}
	s = vsb_csv_meta(c, "tsc_per_cycle");
	if (!s || vsb_parse_real(s, &t->tsc_per_cycle) || !(t->tsc_per_cycle > 0)) {
		vsb_err("%s: '# tsc_per_cycle:' is %s: not a positive number", c->path,
			s ? s : "missing");
		return VSB_EXIT_USAGE;
	}
	return 0;
}

/* Data row @r into its slot of @t; @seen marks the rows read. */
static int read_row(const struct vsb_csv *c, size_t r, const int *col,
		    struct vsb_cost_table *t, unsigned char *seen)
{
	static const char *const names[] = { "median", "lo", "hi" };
	const char *name = vsb_csv_cell(c, r, col[0]);
	int p = vsb_prim_by_name(name), k;
	double v[3];
	long n;

	if (p < 0) {
		vsb_err("%s: row %zu: unknown row '%.40s' (not a primitive this "
			"vmstat-bench times)", c->path, r + 1, name);
		return VSB_EXIT_USAGE;
	}
	if (seen[p]) {
		vsb_err("%s: row %zu: '%s' twice", c->path, r + 1, name);
		return VSB_EXIT_USAGE;
	}
	seen[p] = 1;
	for (k = 0; k < 3; k++) {
		const char *s = vsb_csv_cell(c, r, col[k + 1]);

		if (cell_num(s, &v[k]) || (p < VSB_PRIM_USER_N && isnan(v[k]))) {
			vsb_err("%s: row '%s': %s '%.40s' is not a number%s", c->path,
				name, names[k], s, p < VSB_PRIM_USER_N ?
				" (a user-space row is always measured)" : "");
			return VSB_EXIT_USAGE;
		}
	}
	if (vsb_parse_long(vsb_csv_cell(c, r, col[4]), &n) || n < 0) {
		vsb_err("%s: row '%s': n '%.40s' is not a count of samples", c->path,
			name, vsb_csv_cell(c, r, col[4]));
		return VSB_EXIT_USAGE;
	}
	t->p[p] = (struct vsb_prim_cost){ v[0], v[1], v[2], (size_t)n };
	return 0;
}

static int read_rows(const struct vsb_csv *c, struct vsb_cost_table *t)
{
	static const char *const cols[] = { "prim", "median", "lo", "hi", "n" };
	unsigned char seen[VSB_PRIM_N] = { 0 };
	int col[5], i, ret;
	size_t r;

	for (i = 0; i < 5; i++) {
		col[i] = vsb_csv_col(c, cols[i]);
		if (col[i] < 0) {
			vsb_err("%s: no column '%s' (a cost table has prim,median,lo,hi,n)",
				c->path, cols[i]);
			return VSB_EXIT_USAGE;
		}
	}
	for (r = 0; r < c->nrows; r++) {
		ret = read_row(c, r, col, t, seen);
		if (ret)
			return ret;
	}
	for (i = 0; i < VSB_PRIM_USER_N; i++) {
		if (!seen[i]) {
			vsb_err("%s: no row '%s': every cost table has the %d user-space "
				"rows", c->path, prims[i].name, VSB_PRIM_USER_N);
			return VSB_EXIT_USAGE;
		}
	}
	return 0;
}

int vsb_cost_table_read(const char *path, struct vsb_cost_table *t)
{
	struct vsb_csv c;
	int ret;

	memset(t, 0, sizeof(*t));
	vsb_cost_table_clear(t);
	ret = check_magic(path);
	if (ret)
		return ret;
	ret = vsb_csv_read(path, &c);
	if (ret)
		return ret;
	ret = read_meta(&c, t);
	if (!ret)
		ret = read_rows(&c, t);
	vsb_csv_free(&c);
	return ret;
}
