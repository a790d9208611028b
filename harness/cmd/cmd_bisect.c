// SPDX-License-Identifier: GPL-2.0
/*
 * `vmstat-bench bisect` (find the commit of a git kernel tree that
 * changed what the sweep measures) and `vmstat-bench bisect-step` (one
 * step for `git bisect run`).  This file is the command lines; the
 * work is harness/bisect/'s.  Options this command does not know go to
 * `ab` unchanged (--exact, --boots N, --smp N, ...), so ab's options,
 * new ones included, need no copy here; one that takes a value it does
 * not list below is given as --opt=VALUE.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bisect.h"
#include "cmds.h"
#include "vsb.h"

static void usage(FILE *f, int step)
{
	if (step) {
		fprintf(f,
"usage: vmstat-bench bisect-step --good KERNEL [ab options] SWEEP -o DIR\n"
"\n"
"One step of `git bisect run`, run in the kernel tree being bisected:\n"
"builds its HEAD (ci/bisect-build.sh: a clone in the cache, the tree not\n"
"written), boots it against KERNEL (the good commit's kernel, as ab's\n"
"--base takes it: BZIMAGE:BUILD_DIR or debian:ABI) with `vmstat-bench ab`\n"
"into DIR/<commit>, and exits 0 when every point is the same (good), 1\n"
"when a point is slower or faster (bad), 125 when it does not build or\n"
"boot or stays undecided after a second ab with twice the boots (skip),\n"
"128 on bad input or an error (git bisect run stops).\n"
"\n"
"example:\n"
"  vmstat-bench bisect-step --good \"$good\" configs/ab-exact.sweep -o /tmp/steps\n"
"  (from `git bisect start BAD GOOD && git bisect run`, as the step)\n");
		return;
	}
	fprintf(f,
"usage: vmstat-bench bisect --tree DIR --good REV --bad REV [--db URL]\n"
"                           [ab options] SWEEP -o OUT\n"
"\n"
"Finds the commit between REV good and REV bad of the git kernel tree DIR\n"
"that changed the cost of what SWEEP measures.  DIR is never written:\n"
"commits are built in a clone in the cache (ci/bisect-build.sh), each\n"
"build starting from the last one's folder so that make rebuilds only\n"
"what changed.  First good and bad are compared (`vmstat-bench ab`): the\n"
"points they differ on are the ones judged.  Then git bisect picks each\n"
"step; a step is bad when one of those points is slower or faster against\n"
"good the way bad is, good when all are the same, else it gets a second ab\n"
"with twice the boots and then is skipped, as are commits that do not\n"
"build or boot.  The culprit is confirmed against its parent.\n"
"\n"
"options:\n"
"      --tree DIR     the git kernel tree (clean: no uncommitted changes)\n"
"      --good REV     a commit without the change\n"
"      --bad REV      a later commit with it\n"
"      --db URL       import every step's results into the store\n"
"      --ahead N      build the N commits git may ask for next while a step\n"
"                     boots, beside exact boots only (0: none; default 2\n"
"                     with 2-7 CPUs, 6 with 8 or more, 0 with one)\n"
"      --split K      commits tested at once a round: 1 (default) or 3, git's\n"
"                     pick and both of its next ones, booted side by side:\n"
"                     log4 rounds, not log2 steps; exact boots only. Pays\n"
"                     with 16 or more CPUs and long ranges (docs/bisect.md)\n"
"  -o, --output OUT   bisect.txt, bisect.csv, bisect.png, steps/, kernels/;\n"
"                     the same command on an interrupted OUT resumes it\n"
"  -h, --help         this text\n"
"Any other option goes to ab unchanged: --exact, --boots N, --smp N,\n"
"--mem MB, --timeout S, ... (see ab --help; --opt=VALUE for one not listed).\n"
"\n"
"The last line on stdout is `culprit: SHA subject`.  Exit status: 0 a\n"
"culprit confirmed, 1 none (the endpoints do not differ, skips hide it,\n"
"or its parent does not show the change), 2 bad input, 4 a tool missing.\n"
"\n"
"example:\n"
"  vmstat-bench bisect --tree ~/linux --good v6.11 --bad v6.12 \\\n"
"      configs/ab-exact.sweep -o results/bisect\n");
}

/* ab options that take a value as the next word */
static int ab_takes_value(const char *o)
{
	static const char *const v[] = {
		"--boots", "-b", "--max-boots", "--smp", "--mem", "--possible", "--nodes",
		"--cmdline", "--max-regression", "-m", "--timeout", "--monitor",
		"--costs", "--jobs", "-j",
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!strcmp(o, v[i]))
			return 1;
	return 0;
}

static int ab_arg(struct vsb_bisect *b, char *a)
{
	if (b->nab >= VSB_BISECT_AB_ARGS_MAX - 2) {
		vsb_err("bisect: too many ab options");
		return VSB_EXIT_USAGE;
	}
	b->ab_args[b->nab++] = a;
	return 0;
}

/* --boots's value among ab's options: a retry doubles it */
static int note_boots(struct vsb_bisect *b, const char *o, const char *v)
{
	if (!strncmp(o, "--boots=", 8))
		v = o + 8;
	else if (strcmp(o, "--boots") && strcmp(o, "-b"))
		return 0;
	return vsb_parse_long_range("--boots", v ? v : "", 1, 25, &b->boots);
}

/* --split K: 1 (a commit at a time) or 3 (git's pick and its two next) */
static int parse_split(const char *v, long *k)
{
	if (!v || !*v) {
		vsb_err("--split needs a value: 1 or 3");
		return VSB_EXIT_USAGE;
	}
	if (strcmp(v, "1") && strcmp(v, "3")) {
		vsb_err("--split %s: 1 (a commit at a time) or 3 (git's pick and both of "
			"its next candidates at once)", v);
		return VSB_EXIT_USAGE;
	}
	*k = v[0] - '0';
	return 0;
}

static int own_value(const char *opt, char *v, const char **dst)
{
	if (!v || !*v) {
		vsb_err("%s needs a value", opt);
		return VSB_EXIT_USAGE;
	}
	*dst = v;
	return 0;
}

static int parse_one(struct vsb_bisect *b, int argc, char **argv, int *i,
		     const char **tree, const char **out, int step)
{
	char *a = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
	int ret;

	if (!strcmp(a, "-o") || !strcmp(a, "--output"))
		return (*i)++, own_value(a, v, out);
	if (!step && !strcmp(a, "--tree"))
		return (*i)++, own_value(a, v, tree);
	if (!step && !strcmp(a, "--bad"))
		return (*i)++, own_value(a, v, &b->bad_rev);
	if (!strcmp(a, "--good"))
		return (*i)++, own_value(a, v, &b->good_rev);
	if (!step && !strcmp(a, "--db"))
		return (*i)++, own_value(a, v, &b->db);
	if (!step && !strncmp(a, "--ahead=", 8))
		return vsb_parse_long_range("--ahead", a + 8, 0, VSB_BISECT_AHEAD_MAX, &b->ahead);
	if (!step && !strcmp(a, "--ahead"))
		return (*i)++, vsb_parse_long_range("--ahead", v ? v : "", 0,
						    VSB_BISECT_AHEAD_MAX, &b->ahead);
	if (!step && !strncmp(a, "--split=", 8))
		return parse_split(a + 8, &b->split);
	if (!step && !strcmp(a, "--split"))
		return (*i)++, parse_split(v, &b->split);
	if (!strcmp(a, "--base") || !strcmp(a, "--new") || !strcmp(a, "--dry-run") ||
	    !strcmp(a, "-n")) {
		vsb_err("%s: bisect gives ab its kernels and boots them; not an option here", a);
		return VSB_EXIT_USAGE;
	}
	ret = note_boots(b, a, v) ?: ab_arg(b, a);
	if (!ret && ab_takes_value(a)) {
		if (!v) {
			vsb_err("%s needs a value", a);
			return VSB_EXIT_USAGE;
		}
		(*i)++;
		ret = ab_arg(b, v);
	}
	return ret;
}

/* 0, -1 after --help, or VSB_EXIT_USAGE after one line */
static int parse(struct vsb_bisect *b, int argc, char **argv, int step)
{
	const char *tree = NULL, *out = NULL;
	int i, ret = 0;

	b->ahead = -1;	/* the machine's default, unless --ahead */
	b->split = 1;
	for (i = 1; i < argc && !ret; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout, step);
			return -1;
		}
		if (argv[i][0] != '-' || !argv[i][1]) {
			if (b->sweep) {
				vsb_err("one SWEEP file, not '%s' too", argv[i]);
				return VSB_EXIT_USAGE;
			}
			b->sweep = argv[i];
			continue;
		}
		ret = parse_one(b, argc, argv, &i, &tree, &out, step);
	}
	if (ret)
		return ret;
	if ((!step && (!tree || !b->bad_rev)) || !b->good_rev || !b->sweep || !out) {
		vsb_err("%s: needs %s SWEEP and -o (see --help)", step ? "bisect-step" :
			"bisect", step ? "--good KERNEL," : "--tree, --good, --bad,");
		return VSB_EXIT_USAGE;
	}
	if (strlen(out) >= sizeof(b->out) - 200 || (tree && strlen(tree) >= sizeof(b->tree))) {
		vsb_err("-o or --tree: too long a path");
		return VSB_EXIT_USAGE;
	}
	for (i = 0; !step && b->ahead > 0 && i < b->nab; i++)
		if (!strcmp(b->ab_args[i], "--timed")) {
			vsb_err("--ahead %ld with --timed: a build beside a timed boot is part "
				"of what it times; give --exact, or --ahead 0", b->ahead);
			return VSB_EXIT_USAGE;
		}
	for (i = 0; !step && b->split > 1 && i < b->nab; i++)
		if (!strcmp(b->ab_args[i], "--timed")) {
			vsb_err("--split %ld with --timed: timed boots side by side time "
				"each other; give --exact, or --split 1", b->split);
			return VSB_EXIT_USAGE;
		}
	snprintf(b->out, sizeof(b->out), "%s", out);
	snprintf(b->tree, sizeof(b->tree), "%s", tree ? tree : ".");
	b->fake = getenv("VSB_BISECT_FAKE");
	if (b->fake && !*b->fake)
		b->fake = NULL;
	b->fake_ab = getenv("VSB_BISECT_FAKE_AB");
	if (!b->fake_ab || !*b->fake_ab)
		b->fake_ab = b->fake;
	return 0;
}

int vsb_cmd_bisect(int argc, char **argv)
{
	static struct vsb_bisect b;
	int ret = parse(&b, argc, argv, 0);

	if (ret)
		return ret < 0 ? 0 : ret;
	ret = vsb_bisect_check(&b);
	if (ret)
		return ret;
	/* what bisect makes is its user's alone to write (state is checked so) */
	umask(umask(022) | 022);
	vsb_bisect_signals();
	return vsb_bisect_run(&b);
}

/* git bisect run's words: 0 good, 1 bad, 125 skip, 128 stop */
int vsb_cmd_bisect_step(int argc, char **argv)
{
	static struct vsb_bisect b;
	int ret = parse(&b, argc, argv, 1);

	if (ret)
		return ret < 0 ? 0 : 128;
	umask(umask(022) | 022);
	vsb_bisect_signals();
	return vsb_bisect_step(&b);
}
