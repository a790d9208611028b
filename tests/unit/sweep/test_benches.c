// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the bench table (harness/benches/benches.c) and the
 * descriptors each bench's file defines: every row names a whole
 * descriptor, every option a descriptor takes is a row of the option
 * table (a typo there would silently make an option every bench's), and
 * an option one bench takes is refused, by name, for a bench that does
 * not.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benches.h"
#include "tap.h"

/* Each word of @list an option of the table; the first that is not, or NULL. */
static const char *unknown_opt(const char *list)
{
	static char name[64];
	const char *p;
	size_t n;

	for (p = list; *p; p += n + !!p[n]) {
		n = strcspn(p, " ");
		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		if (!n || !vsb_opt_find(name))
			return name;
	}
	return NULL;
}

static void test_descriptors(void)
{
	size_t i, j;

	TAP_OK(vsb_bench_count > 0, "a table of %zu benches", vsb_bench_count);
	for (i = 0; i < vsb_bench_count; i++) {
		const struct vsb_bench *b = vsb_benches[i];
		const char *bad = unknown_opt(b->takes);
		int dup = 0;

		for (j = 0; j < i; j++)
			dup |= !strcmp(vsb_benches[j]->name, b->name);
		TAP_OK(b->name && b->desc && *b->desc && !dup &&
		       vsb_bench_find(b->name) == b,
		       "%s: named once, described, found by its name", b->name);
		TAP_OK((b->run_user || b->run_kmod) &&
		       (!(b->sides & VSB_SIDE_KMOD) || b->run_kmod),
		       "%s: a run function for each side it claims", b->name);
		TAP_OK(!bad, "%s: takes only options of the table%s%s", b->name,
		       bad ? ", not " : "", bad ? bad : "");
	}
	TAP_OK(!vsb_bench_find("no-such-bench"), "an unknown name finds nothing");
}

/* @bench run with @opt given: the check's exit code, its line in @err */
static int check_with(const char *bench, const char *opt, const char *val,
		      char *err, size_t len)
{
	struct vsb_run_opts o;
	FILE *tmp = tmpfile();
	int saved = dup(STDERR_FILENO), ret;
	size_t n;

	vsb_run_opts_defaults(&o);
	vsb_opt_set(&o, vsb_opt_find("bench"), bench, "test");
	vsb_opt_set(&o, vsb_opt_find(opt), val, "test");
	fflush(stderr);
	dup2(fileno(tmp), STDERR_FILENO);
	ret = vsb_run_opts_finish(&o);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(tmp);
	n = fread(err, 1, len - 1, tmp);
	err[n] = '\0';
	fclose(tmp);
	return ret;
}

static void test_takes(void)
{
	char err[1024];
	int ret;

	ret = check_with("spawn", "gap-ns", "5000", err, sizeof(err));
	TAP_OK(ret == VSB_EXIT_USAGE && strstr(err, "--gap-ns: bench 'spawn' does not "
					       "take it") && strstr(err, "it takes: op"),
	       "an option only isolated takes, given to spawn: refused by name");
	ret = check_with("threshold-refresh", "variant", "atomic", err, sizeof(err));
	TAP_OK(ret == VSB_EXIT_USAGE && strstr(err, "--variant: bench 'threshold-refresh'"),
	       "--variant (the counter's) refused for threshold-refresh");
	ret = check_with("threshold-refresh", "model-cpus", "8", err, sizeof(err));
	TAP_OK(ret == 0, "threshold-refresh takes its own --model-cpus (%d: %s)", ret, err);
	ret = check_with("threshold-refresh", "repeat", "3", err, sizeof(err));
	TAP_OK(ret == 0, "an option no descriptor names (--repeat) is every bench's");
}

int main(void)
{
	test_descriptors();
	test_takes();
	return tap_done();
}
