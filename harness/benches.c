// SPDX-License-Identifier: GPL-2.0
/*
 * The bench table and backend selection.  A bench names the functions
 * that run it on each side; variants are checked against the side here,
 * once, so no runner has to special-case one.
 */
#include <string.h>
#include <unistd.h>

#include "benches.h"

const struct vsb_bench vsb_benches[] = {
	{ "counter", VSB_SIDE_USER, VSB_BENCH_VARIANTS,
	  "per-CPU counter updates with threshold folds (vmstat diffs, percpu_counter)",
	  vsb_counter_run_user, NULL },
};
const size_t vsb_bench_count = sizeof(vsb_benches) / sizeof(vsb_benches[0]);

const struct vsb_bench *vsb_bench_find(const char *name)
{
	size_t i;

	for (i = 0; i < vsb_bench_count; i++)
		if (!strcmp(vsb_benches[i].name, name))
			return &vsb_benches[i];
	return NULL;
}

#define VSB_DEVICE "/dev/vmstat_bench"

/* Resolve --backend auto and check the bench and variant exist there. */
int vsb_bench_check(const struct vsb_bench *b, struct vsb_run_opts *o)
{
	unsigned int side;

	if (!strcmp(o->backend, "auto"))
		strcpy(o->backend, b->run_kmod && access(VSB_DEVICE, F_OK) == 0 ?
				   "kmod" : "user");
	side = !strcmp(o->backend, "kmod") ? VSB_SIDE_KMOD : VSB_SIDE_USER;
	if (!(b->sides & side) ||
	    !(side == VSB_SIDE_KMOD ? b->run_kmod : b->run_user)) {
		vsb_err("--backend: bench '%s' does not run on the %s backend",
			b->name, o->backend);
		return VSB_EXIT_USAGE;
	}
	if (o->variant_id >= 0) {
		const struct vsb_variant_info *v = &vsb_variants[o->variant_id];
		unsigned int vside = side == VSB_SIDE_KMOD ? VSB_SIDE_KMOD : VSB_SIDE_USER;

		if (!(v->sides & vside)) {
			vsb_err("--variant: %s has no %s form: %s", v->name,
				side == VSB_SIDE_KMOD ? "module" : "user-space",
				v->why_not);
			return VSB_EXIT_USAGE;
		}
	}
	return 0;
}

int vsb_bench_run(const struct vsb_run_opts *o, struct vsb_result *r)
{
	const struct vsb_bench *b = vsb_bench_find(o->bench);

	vsb_result_init(r, o);
	if (!strcmp(o->backend, "kmod"))
		return b->run_kmod(o, r);
	return b->run_user(o, r);
}
