// SPDX-License-Identifier: GPL-2.0
/*
 * The commands' option loop: getopt_long with --help, an unknown option
 * and a missing value handled once, worded the same for every command
 * ("CMD: unknown option 'X' (see CMD --help)", "--NAME needs a value",
 * "--NAME takes no value").
 * The commands keep their own switch over what their options mean.
 */
#include <stdio.h>
#include <string.h>

#include "vsb.h"

/* the long option @c belongs to, for "--NAME needs a value" */
static const char *long_name(const struct vsb_getopt *g, int c)
{
	const struct option *o;

	for (o = g->longs; o->name; o++)
		if (o->val == c)
			return o->name;
	return NULL;
}

static void start(struct vsb_getopt *g)
{
	const char *s = g->shorts;
	int plus = *s == '+';

	/* ':' first (after '+'): a missing value comes back as ':' */
	snprintf(g->optstr, sizeof(g->optstr), "%s:%sh", plus ? "+" : "",
		 s + plus);
	opterr = 0;
	optind = 1;
	g->started = 1;
}

int vsb_getopt_next(struct vsb_getopt *g, const char **arg)
{
	const char *name;
	int c;

	if (!g->started)
		start(g);
	c = getopt_long(g->argc, g->argv, g->optstr, g->longs, NULL);
	*arg = optarg;
	switch (c) {
	case -1:
		return VSB_GETOPT_END;
	case 'h':
		g->usage(stdout);
		return VSB_GETOPT_HELP;
	case ':':
		name = long_name(g, optopt);
		if (name)
			vsb_err("--%s needs a value (see %s --help)", name, g->cmd);
		else
			vsb_err("-%c needs a value (see %s --help)", optopt, g->cmd);
		return VSB_GETOPT_BAD;
	case '?':
		/* getopt_long names a flag given a value (--flag=X) in optopt */
		name = optopt ? long_name(g, optopt) : NULL;
		if (name && !strncmp(g->argv[optind - 1], "--", 2))
			vsb_err("--%s takes no value (see %s --help)", name, g->cmd);
		else if (optopt && !name)
			vsb_err("%s: unknown option '-%c' (see %s --help)", g->cmd,
				optopt, g->cmd);
		else
			vsb_err("%s: unknown option '%s' (see %s --help)", g->cmd,
				g->argv[optind - 1], g->cmd);
		return VSB_GETOPT_BAD;
	}
	return c;
}

int vsb_getopt_status(int c)
{
	return c == VSB_GETOPT_HELP ? VSB_EXIT_OK : VSB_EXIT_USAGE;
}
