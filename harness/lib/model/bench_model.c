// SPDX-License-Identifier: GPL-2.0
/*
 * bench_model.c - the way from a bench's name to its model (see
 * bench_model.h), set once by the bench table above this layer.
 */
#include <stddef.h>

#include "bench_model.h"

static const struct vsb_bench_model *(*model_of)(const char *name);
static const char *first_bench = "";

void vsb_bench_models_set(const struct vsb_bench_model *(*find)(const char *name),
			  const char *first)
{
	model_of = find;
	first_bench = first;
}

const struct vsb_bench_model *vsb_bench_model(const char *name)
{
	static const struct vsb_bench_model blank;
	const struct vsb_bench_model *m = model_of && name ? model_of(name) : NULL;

	return m ? m : &blank;
}

const char *vsb_bench_default(void)
{
	return first_bench;
}

const char *vsb_bench_label(const struct vsb_bench_model *m)
{
	return m->label ? m->label : "bench";
}
