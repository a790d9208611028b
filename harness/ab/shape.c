// SPDX-License-Identifier: GPL-2.0
/*
 * The guests `vmstat-bench ab` boots: one shape (vCPUs, possible CPUs,
 * NUMA nodes, memory, kernel parameters) per distinct --guest-* set of
 * the sweep's points, ab's own options filling what a point leaves
 * out.  Each ABBA boot of a kernel is one guest per shape, booted one
 * after the other into the same boot folder (ci/ab-run.sh): in each,
 * the points of another shape are skipped and those of the shapes
 * before are kept (the guest's sweep --resume), so the folder ends as
 * one sweep's, with every point.
 */
#include <string.h>

#include "ab.h"
#include "opts.h"
#include "vsb.h"

/* ab's own shape, the default of every point's */
static void own_shape(const struct vsb_ab *ab, struct vsb_guest_shape *s)
{
	memset(s, 0, sizeof(*s));
	s->cpus = ab->smp;
	s->possible = ab->possible;
	s->nodes = ab->nodes;
	s->mem = ab->mem;
	snprintf(s->cmdline, sizeof(s->cmdline), "%s", ab->cmdline);
}

int vsb_ab_shape_defaults(struct vsb_ab *ab)
{
	struct vsb_guest_shape s;
	int ret;

	own_shape(ab, &s);
	ret = vsb_guest_shape_check(&s, 1);
	if (ret)
		return ret;
	vsb_guest_shape_set_default(&s);
	ab->nshapes = 0;
	return 0;
}

/* as booted: no possible CPUs asked is as many as the vCPUs */
static void normalise(struct vsb_guest_shape *s)
{
	if (!s->possible)
		s->possible = s->cpus;
}

int vsb_ab_shape_add(struct vsb_ab *ab, const struct vsb_run_opts *o)
{
	struct vsb_guest_shape s, def;
	size_t i;

	own_shape(ab, &def);
	vsb_guest_shape_of(o, &s);
	vsb_guest_shape_merge(&s, &def);
	normalise(&s);
	for (i = 0; i < ab->nshapes; i++)
		if (vsb_guest_shape_equal(&ab->shapes[i], &s))
			return 0;
	if (ab->nshapes == VSB_AB_SHAPES_MAX) {
		vsb_err_opt("guest-cpus", "more than %d guest shapes: every boot of "
			    "ab boots each; split the sweep", VSB_AB_SHAPES_MAX);
		return VSB_EXIT_USAGE;
	}
	ab->shapes[ab->nshapes++] = s;
	return 0;
}

void vsb_ab_shapes_env(const struct vsb_ab *ab, char *buf, size_t len)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < ab->nshapes && off < len; i++) {
		const struct vsb_guest_shape *s = &ab->shapes[i];

		off += snprintf(buf + off, len - off, "%ld %ld %ld %ld %s\n", s->cpus,
				s->possible, s->nodes, s->mem,
				s->cmdline[0] ? s->cmdline : "none");
	}
}

void vsb_ab_shape_str(const struct vsb_guest_shape *s, char *buf, size_t len)
{
	snprintf(buf, len, "%ld vCPUs, %ld possible, %ld NUMA node%s, %ld MB%s%s",
		 s->cpus, s->possible, s->nodes ? s->nodes : 1,
		 s->nodes > 1 ? "s" : "", s->mem, s->cmdline[0] ? ", " : "",
		 s->cmdline);
}
