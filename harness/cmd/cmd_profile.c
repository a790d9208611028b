// SPDX-License-Identifier: GPL-2.0
/*
 * `vmstat-bench profile DIR`: where exact mode's instructions ran.
 *
 * DIR is an `ab` folder (base/ and new/ boot folders) or a folder of
 * exact-mode results (ci/kmod-run.sh --exact's /out, a sweep --exact's
 * folder from a guest).  The profile is made from the plugin's blocks
 * and the guest's symbols that the boot kept (docs/exact.md, Profiles),
 * written to DIR/profile.csv, and printed as cg_diff prints a
 * Cachegrind diff: per point, the functions whose count per op changed
 * between base and new, biggest first; for one side, its functions.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmds.h"
#include "keyval.h"
#include "profile_diff.h"
#include "profile_dir.h"
#include "vsb.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: vmstat-bench profile [--syms FILE] [--top N] DIR\n"
"\n"
"Exact mode's profile: per point, the kernel functions that ran each op's\n"
"instructions, their calls per op and mix (docs/exact.md, Profiles).\n"
"DIR is an `ab --exact` folder, or a folder of exact results from a\n"
"guest (ci/kmod-run.sh --exact --out DIR). Writes DIR/profile.csv\n"
"(label,side,function,insn_per_op,calls_per_op, then the mix per op)\n"
"and prints, for an ab, the functions whose count per op changed\n"
"between base and new, biggest change first.\n"
"\n"
"options:\n"
"      --syms FILE   name blocks with this System.map or kallsyms instead\n"
"                    of the one each guest kept; it must match the booted\n"
"                    kernel (its symbols at the same addresses)\n"
"      --top N       functions listed per point [15]\n"
"  -h, --help        this text\n"
"\n"
"examples:\n"
"  vmstat-bench profile results/ab-lock\n"
"  ci/kmod-run.sh --exact --out /tmp/x -- '$VSB run --bench page-alloc --exact -o $OUT/pa.csv'\n"
"  vmstat-bench profile /tmp/x\n"
"\n"
"exit status: 0 ok, 1 an error writing, 2 bad input (no folder, timed\n"
"results, a symbol file of another kernel), 4 no point has a profile\n"
"(said why: no symbols kept, results counted before profiles).\n");
}

static int is_dir(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISDIR(st.st_mode);
}

/*
 * An ab folder's mode from its ab.txt ("mode: exact"), "" when there is
 * none: a timed ab has no profile to make.
 */
static void ab_mode(const char *dir, char *mode, size_t len)
{
	char path[4096 + 16];

	snprintf(path, sizeof(path), "%s/ab.txt", dir);
	if (vsb_keyval_get(path, "mode", mode, len))
		mode[0] = '\0';
}

/* DIR/profile.csv from DIR's results (@ab: its sides' first boots) */
static int make_csv(const char *dir, int ab, const char *syms, struct vsb_prof_dir *d)
{
	static const char *const side[2] = { "base", "new" };
	char path[4096 + 64];
	struct vsb_outfile of;
	int s, b, ret = 0;

	snprintf(path, sizeof(path), "%s/profile.csv", dir);
	if (vsb_outfile_open(&of, path, "DIR"))
		return VSB_EXIT_ERROR;
	vsb_prof_csv_header(of.f);
	for (s = 0; s < (ab ? 2 : 1) && !ret; s++) {
		struct vsb_prof_dir one = { .syms_file = syms };

		for (b = 1; ab && b <= 64 && !one.nprof && !ret; b++) {
			snprintf(path, sizeof(path), "%s/%s/boot-%d", dir, side[s], b);
			if (is_dir(path))
				ret = vsb_prof_dir_rows(path, side[s], of.f, &one);
		}
		if (!ab)
			ret = vsb_prof_dir_rows(dir, "run", of.f, &one);
		d->nprof += one.nprof;
		d->nskip += one.nskip;
		if (one.nskip && !d->skip_why[0])
			snprintf(d->skip_why, sizeof(d->skip_why), "%s", one.skip_why);
	}
	if (ret || !d->nprof) {
		vsb_outfile_abort(&of);
		return ret;
	}
	return vsb_outfile_commit(&of) ? VSB_EXIT_ERROR : 0;
}

int vsb_cmd_profile(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "syms", required_argument, NULL, 'S' },
		{ "top", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct vsb_getopt g = VSB_GETOPT("profile", "", lopts, usage, argc, argv);
	const char *arg, *syms = NULL, *dir;
	struct vsb_prof_dir d = { 0 };
	char mode[32], path[4096 + 64];
	struct vsb_prows t;
	long top = 15;
	int ch, ab, ret;

	while ((ch = vsb_getopt_next(&g, &arg)) > 0) {
		if (ch == 'S')
			syms = arg;
		else if (ch == 'T' && (vsb_parse_long(arg, &top) || top < 1)) {
			vsb_err("profile: --top %s: a number of functions, 1 or more", arg);
			return VSB_EXIT_USAGE;
		}
	}
	if (ch < 0)
		return ch == VSB_GETOPT_HELP ? VSB_EXIT_OK : VSB_EXIT_USAGE;
	if (optind + 1 != argc) {
		vsb_err("profile: one DIR, an ab folder or a folder of exact results "
			"(see profile --help)");
		return VSB_EXIT_USAGE;
	}
	dir = argv[optind];
	if (!is_dir(dir)) {
		vsb_err("profile: %s is not a folder", dir);
		return VSB_EXIT_USAGE;
	}
	snprintf(path, sizeof(path), "%s/base", dir);
	ab = is_dir(path);
	ab_mode(dir, mode, sizeof(mode));
	if (ab && strcmp(mode, "exact")) {
		vsb_err("profile: %s is a %s ab: a profile needs exact mode's counts "
			"(ab --exact, under TCG)", dir, *mode ? mode : "timed");
		return VSB_EXIT_USAGE;
	}
	ret = make_csv(dir, ab, syms, &d);
	if (ret)
		return ret;
	if (!d.nprof) {
		if (!d.nskip) {
			vsb_err("profile: %s holds no exact-mode result: a profile needs "
				"counts (run --exact in a guest, ab --exact), not timings", dir);
			return VSB_EXIT_USAGE;
		}
		vsb_err("profile: SKIP: no point has a profile: %s", d.skip_why);
		return VSB_EXIT_SKIP;
	}
	if (d.nskip)
		vsb_note("profile: %zu point%s without a profile (%s)", d.nskip,
			 d.nskip == 1 ? "" : "s", d.skip_why);
	snprintf(path, sizeof(path), "%s/profile.csv", dir);
	ret = vsb_prows_read(path, &t);
	if (ret)
		return ret;
	vsb_prof_diff(stdout, &t, 0, (size_t)top);
	vsb_prows_free(&t);
	printf("(%s/profile.csv has every function)\n", dir);
	return fflush(stdout) ? VSB_EXIT_ERROR : 0;
}
