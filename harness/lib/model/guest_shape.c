// SPDX-License-Identifier: GPL-2.0
/*
 * A guest's shape: its syntax and the combinations refused before any
 * boot (guest_shape.h).  The checks are the ones a boot would otherwise
 * fail on minutes later, or worse pass on while measuring something
 * else: QEMU refuses a node without a CPU only in some layouts, and a
 * kernel told to isolate a CPU it does not have says so once in dmesg
 * and isolates nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "guest_shape.h"
#include "opts.h"

/* what ci/vm-run.sh puts on the command line itself */
static const char *const reserved[] = {
	"console=", "rdinit=", "init=", "panic=", "panic_on_warn=", "oops=", "vsb.",
	"maxcpus=",	/* how --guest-possible's offline CPUs stay offline */
};

/* the parameters that take a CPU list of isolated CPUs */
static const char *const isolating[] = { "isolcpus=", "nohz_full=", "rcu_nocbs=" };

/* isolcpus= flags that may come before its list */
static const char *const isol_flags[] = { "nohz", "domain", "managed_irq" };

static struct vsb_guest_shape default_shape;
static int have_default;

void vsb_guest_shape_set_default(const struct vsb_guest_shape *def)
{
	default_shape = *def;
	have_default = 1;
}

const struct vsb_guest_shape *vsb_guest_shape_default(void)
{
	return have_default ? &default_shape : NULL;
}

void vsb_guest_shape_of(const struct vsb_run_opts *o, struct vsb_guest_shape *s)
{
	memset(s, 0, sizeof(*s));
	s->cpus = o->guest_cpus;
	s->possible = o->guest_possible;
	s->nodes = o->guest_nodes;
	s->mem = o->guest_mem;
	if (strcmp(o->guest_cmdline, "none"))
		snprintf(s->cmdline, sizeof(s->cmdline), "%s", o->guest_cmdline);
}

int vsb_guest_shape_asked(const struct vsb_guest_shape *s)
{
	return s->cpus || s->possible || s->nodes || s->mem || s->cmdline[0];
}

void vsb_guest_shape_merge(struct vsb_guest_shape *s, const struct vsb_guest_shape *def)
{
	if (!s->cpus)
		s->cpus = def->cpus;
	if (!s->possible)
		s->possible = def->possible;
	if (!s->nodes)
		s->nodes = def->nodes;
	if (!s->mem)
		s->mem = def->mem;
	if (!s->cmdline[0])
		memcpy(s->cmdline, def->cmdline, sizeof(s->cmdline));
}

int vsb_guest_shape_equal(const struct vsb_guest_shape *a, const struct vsb_guest_shape *b)
{
	return a->cpus == b->cpus && a->possible == b->possible && a->nodes == b->nodes &&
	       a->mem == b->mem && !strcmp(a->cmdline, b->cmdline);
}

void vsb_guest_shape_format(const struct vsb_guest_shape *s, char *buf, size_t len)
{
	snprintf(buf, len, "cpus=%ld possible=%ld nodes=%ld mem=%ld cmdline=%s", s->cpus,
		 s->possible, s->nodes, s->mem, s->cmdline[0] ? s->cmdline : "none");
}

static int starts_with(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* One word: letters, digits and _ . , = : / - only (no quotes, no blanks). */
static int word_ok(const char *w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char c = w[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || strchr("_.,=:/-", c)))
			return 0;
	}
	return n > 0;
}

int vsb_guest_cmdline_check(const char *v, const char *where)
{
	const char *w = v;
	size_t i, n;
	int cpus[VSB_GUEST_POSSIBLE_MAX + 1];

	if (!strcmp(v, "none"))
		return 0;
	while (*w) {
		n = strcspn(w, " ");
		if (!word_ok(w, n)) {
			vsb_err("%s: '%s' is not a list of kernel parameters (words of "
				"letters, digits and _.,=:/- one space apart; 'none' for none)",
				where, v);
			return VSB_EXIT_USAGE;
		}
		for (i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
			if (starts_with(w, reserved[i])) {
				vsb_err("%s: %.*s: the guest runner sets %s itself", where,
					(int)n, w, reserved[i]);
				return VSB_EXIT_USAGE;
			}
		w += n;
		if (*w == ' ' && w[1])
			w++;
		else if (*w)
			break;
	}
	if (*w) {
		vsb_err("%s: '%s': one space between parameters, none at the ends", where, v);
		return VSB_EXIT_USAGE;
	}
	return vsb_guest_isolated_cpus(v, cpus, VSB_GUEST_POSSIBLE_MAX + 1, where) < 0 ?
	       VSB_EXIT_USAGE : 0;
}

/* "1-3,5" (after any isolcpus= flags) into @cpus; -1 when not that */
static int parse_list(const char *l, size_t n, int *cpus, int *k, int max)
{
	char buf[VSB_GUEST_CMDLINE_MAX], *tok, *save = NULL;
	long a, b;

	if (n >= sizeof(buf))
		return -1;
	memcpy(buf, l, n);
	buf[n] = '\0';
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(tok, '-');
		size_t i;

		for (i = 0; dash == NULL && i < sizeof(isol_flags) / sizeof(isol_flags[0]); i++)
			if (!strcmp(tok, isol_flags[i]))
				break;
		if (!dash && i < sizeof(isol_flags) / sizeof(isol_flags[0]))
			continue;
		if (dash)
			*dash = '\0';
		if (vsb_parse_long(tok, &a) || a < 0 || a > VSB_GUEST_POSSIBLE_MAX ||
		    (dash && (vsb_parse_long(dash + 1, &b) || b < a ||
			      b > VSB_GUEST_POSSIBLE_MAX)))
			return -1;
		for (b = dash ? b : a; a <= b; a++) {
			int j, seen = 0;

			for (j = 0; j < *k; j++)
				seen |= cpus[j] == a;
			if (!seen && *k < max)
				cpus[(*k)++] = (int)a;
		}
	}
	return 0;
}

int vsb_guest_isolated_cpus(const char *cmdline, int *cpus, int max, const char *where)
{
	const char *w = cmdline;
	int k = 0;
	size_t i, n;

	while (*w) {
		n = strcspn(w, " ");
		for (i = 0; i < sizeof(isolating) / sizeof(isolating[0]); i++) {
			size_t pl = strlen(isolating[i]);

			if (n <= pl || strncmp(w, isolating[i], pl))
				continue;
			if (parse_list(w + pl, n - pl, cpus, &k, max)) {
				vsb_err("%s: %.*s: a CPU list of plain numbers and ranges below "
					"%d is what is checked here (e.g. nohz_full=1-3)", where,
					(int)n, w, VSB_GUEST_POSSIBLE_MAX + 1);
				return -1;
			}
		}
		w += n + (w[n] == ' ');
	}
	return k;
}

static int check_cpus(const struct vsb_guest_shape *s, int ab)
{
	int cpus[VSB_GUEST_POSSIBLE_MAX + 1], n, i;
	const char *opt = ab ? "cmdline" : "guest-cmdline";

	n = vsb_guest_isolated_cpus(s->cmdline, cpus, VSB_GUEST_POSSIBLE_MAX + 1, opt);
	if (n < 0)
		return VSB_EXIT_USAGE;
	for (i = 0; i < n && s->cpus; i++)
		if (cpus[i] >= s->cpus) {
			vsb_err_opt(opt, "--%s '%s': CPU %d does not exist in a guest of %ld "
				    "vCPUs (0-%ld)", opt, s->cmdline, cpus[i], s->cpus,
				    s->cpus - 1);
			return VSB_EXIT_USAGE;
		}
	if (n && n >= s->cpus && s->cpus) {
		vsb_err_opt(opt, "--%s '%s': isolates every one of the %ld vCPUs; the "
			    "kernel needs a housekeeping CPU", opt, s->cmdline, s->cpus);
		return VSB_EXIT_USAGE;
	}
	return 0;
}

int vsb_guest_shape_check(const struct vsb_guest_shape *s, int ab)
{
	const char *pre = ab ? "" : "guest-";

	if (s->nodes && s->cpus && s->nodes > s->cpus) {
		vsb_err_opt(ab ? "nodes" : "guest-nodes", "--%snodes %ld: more NUMA nodes "
			    "than the %ld vCPUs (--%s %ld): every node needs a CPU", pre,
			    s->nodes, s->cpus, ab ? "smp" : "guest-cpus", s->cpus);
		return VSB_EXIT_USAGE;
	}
	if (s->possible && s->cpus && s->possible < s->cpus) {
		vsb_err_opt(ab ? "possible" : "guest-possible", "--%spossible %ld: fewer "
			    "possible CPUs than the %ld vCPUs (--%s)", pre, s->possible,
			    s->cpus, ab ? "smp" : "guest-cpus");
		return VSB_EXIT_USAGE;
	}
	if (s->possible && s->nodes > 1 && s->possible % s->nodes) {
		vsb_err_opt(ab ? "possible" : "guest-possible", "--%spossible %ld: not a "
			    "multiple of the %ld NUMA nodes (each node gets an equal share of "
			    "the CPU slots)", pre, s->possible, s->nodes);
		return VSB_EXIT_USAGE;
	}
	if (s->mem && s->nodes && s->mem / s->nodes < VSB_GUEST_NODE_MEM_MIN) {
		vsb_err_opt(ab ? "mem" : "guest-mem", "--%smem %ld: less than %d MB for each "
			    "of the %ld NUMA nodes", pre, s->mem, VSB_GUEST_NODE_MEM_MIN,
			    s->nodes);
		return VSB_EXIT_USAGE;
	}
	return check_cpus(s, ab);
}
