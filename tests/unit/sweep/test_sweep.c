// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the sweep-file parser and expander (harness/sweep/sweep.c):
 * cartesian products, ranges, the '|' CPU axis, blocks, and every kind
 * of bad file, which must fail with exit code 2 and exactly one
 * "file:line: ..." message before anything runs.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweep.h"
#include "tap.h"

static char errbuf[4096];

/* Parse the file @path (or, without it, @text); stderr lands in errbuf. */
static int parse_any(struct vsb_sweep *sw, const char *text, size_t len,
		     const char *path)
{
	FILE *tmp = tmpfile();
	int saved = dup(STDERR_FILENO), ret;
	size_t n;

	fflush(stderr);
	dup2(fileno(tmp), STDERR_FILENO);
	ret = path ? vsb_sweep_parse_file(sw, path) :
		     vsb_sweep_parse_buf(sw, "t.sweep", text, len);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(tmp);
	n = fread(errbuf, 1, sizeof(errbuf) - 1, tmp);
	errbuf[n] = '\0';
	fclose(tmp);
	return ret;
}

static int parse(struct vsb_sweep *sw, const char *text, size_t len)
{
	return parse_any(sw, text, len, NULL);
}

static int lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* A bad file: exit 2, one line, naming t.sweep:LINE: and containing @what. */
static void bad(const char *text, size_t len, int line, const char *what,
		const char *desc)
{
	struct vsb_sweep sw;
	char want[64];
	int ret = parse(&sw, text, len == (size_t)-1 ? strlen(text) : len);

	snprintf(want, sizeof(want), "t.sweep:%d: ", line);
	TAP_OK(ret == VSB_EXIT_USAGE && lines(errbuf) == 1 && strstr(errbuf, want) &&
	       strstr(errbuf, what), "%s", desc);
	if (!(ret == VSB_EXIT_USAGE && strstr(errbuf, want) && strstr(errbuf, what)))
		printf("#   exit %d, stderr: %s", ret, errbuf);
	vsb_sweep_free(&sw);
}

static const struct vsb_sweep_point *find(const struct vsb_sweep *sw,
					   const char *params)
{
	size_t i;

	for (i = 0; i < sw->npoints; i++)
		if (!strcmp(sw->points[i].params, params))
			return &sw->points[i];
	return NULL;
}

static void test_product(void)
{
	const char *f = "# comment\n"
			"variant cmpxchg-local, cmpxchg-locked   # trailing comment\n"
			"\n"
			"threshold 32,64,125\n"
			"delta -1,1\n"
			"loops 1000\n";
	struct vsb_sweep sw, sw2;
	const struct vsb_sweep_point *p;

	TAP_OK(parse(&sw, f, strlen(f)) == 0, "a 2 x 3 x 2 sweep parses");
	TAP_OK(sw.npoints == 12, "12 points (got %zu)", sw.npoints);
	p = find(&sw, "variant=cmpxchg-locked threshold=64 delta=-1");
	TAP_OK(p && p->opts.threshold == 64 && p->opts.delta == -1 &&
	       p->opts.loops == 1000 && !strcmp(p->opts.variant, "cmpxchg-locked"),
	       "a point carries its axis values and the constants");
	TAP_OK(p && p->reps == 10, "repeat defaults to the run default (10)");
	TAP_OK(sw.npoints == 12 && !strcmp(sw.points[0].params,
					   "variant=cmpxchg-local threshold=32 delta=-1") &&
	       !strcmp(sw.points[1].params, "variant=cmpxchg-local threshold=32 delta=1"),
	       "the last axis turns fastest, first axis outermost");
	TAP_OK(parse(&sw2, f, strlen(f)) == 0 && sw2.npoints == 12 &&
	       !strcmp(sw.points[5].id, sw2.points[5].id), "ids are stable across parses");
	TAP_OK(strcmp(sw.points[0].id, sw.points[1].id) != 0, "ids differ between points");
	vsb_sweep_free(&sw);
	vsb_sweep_free(&sw2);
}

static void test_ranges_cpus_blocks(void)
{
	const char *r = "items 1-4\nthreshold 8\n";
	const char *c = "cpus 0 | 0-1 | 1\nvariant this-cpu-add\n";
	const char *b = "name blk\nvariant cmpxchg-local\ncpus 0\n"
			"[s16]\ndiff-bits 16\nthreshold 256,4096\n"
			"[s8]\nthreshold 32,125\n"
			"[other]\nvariant atomic-global\n";
	const char *d = "variant atomic-global\nthreshold 8,32,125\n";
	const char *loops1 = "loops 1000\nthreshold 8,32\n";
	const char *loops2 = "loops 2000\nthreshold 8,32\n";
	struct vsb_sweep sw, sw2;
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	TAP_OK(parse(&sw, r, strlen(r)) == 0 && sw.npoints == 4 &&
	       find(&sw, "items=3"), "items 1-4 is a range of 4 values");
	vsb_sweep_free(&sw);
	if (online >= 2) {
		TAP_OK(parse(&sw, c, strlen(c)) == 0 && sw.npoints == 3 &&
		       find(&sw, "cpus=0-1") && sw.points[1].opts.cpus.n == 2,
		       "'|' separates CPU lists: 3 points, the second on 2 CPUs");
		vsb_sweep_free(&sw);
	} else {
		printf("ok %d - cpu axis # SKIP needs 2 CPUs\n", ++tap_n);
	}
	TAP_OK(parse(&sw, b, strlen(b)) == 0 && sw.npoints == 5 && !strcmp(sw.name, "blk"),
	       "blocks: 2 + 2 + 1 points, name read");
	TAP_OK(find(&sw, "block=s16 threshold=4096") &&
	       find(&sw, "block=s16 threshold=4096")->opts.diff_bits == 16 &&
	       find(&sw, "block=s8 threshold=125")->opts.diff_bits == 8,
	       "a block's lines apply to its points only");
	TAP_OK(find(&sw, "block=other") &&
	       !strcmp(find(&sw, "block=other")->opts.variant, "atomic-global"),
	       "a block overrides a common line");
	vsb_sweep_free(&sw);
	TAP_OK(parse(&sw, d, strlen(d)) == 0 && sw.npoints == 1,
	       "atomic-global has no threshold: three thresholds make one point");
	vsb_sweep_free(&sw);
	TAP_OK(parse(&sw, loops1, strlen(loops1)) == 0 &&
	       parse(&sw2, loops2, strlen(loops2)) == 0 &&
	       strcmp(sw.points[0].id, sw2.points[0].id) != 0,
	       "a changed constant (loops) changes the ids: --resume never mixes them");
	vsb_sweep_free(&sw);
	vsb_sweep_free(&sw2);
}

static void test_kmod_skip(void)
{
	const char *k = "backend kmod\nvariant cmpxchg-local\n";
	struct vsb_sweep sw;

	/* skipped at parse when the bench has no module side in this build */
	TAP_OK(parse(&sw, k, strlen(k)) == 0 && sw.npoints == 1 &&
	       (sw.points[0].state == VSB_PT_SKIPPED ||
		sw.points[0].state == VSB_PT_PENDING),
	       "a kmod point is skipped with its reason, not a file error");
	vsb_sweep_free(&sw);
}

/*
 * ncpus N beyond the online CPUs: the point is left out and counted
 * (sw.ndropped), never failed, so one file serves every machine.
 */
static void test_ncpus(void)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	size_t want = 4 - (online < 2) - (online < 4);	/* ncpus 1 always fits */
	char f[128];
	struct vsb_sweep sw;

	snprintf(f, sizeof(f), "variant cmpxchg-local\nncpus 1,2,4,all\n");
	TAP_OK(parse(&sw, f, strlen(f)) == 0 && sw.npoints == want &&
	       sw.ndropped == 4 - want && find(&sw, "ncpus=1") && find(&sw, "ncpus=all") &&
	       (online >= 4) == !!find(&sw, "ncpus=4"),
	       "ncpus 1,2,4,all on %ld CPUs: %zu points, %zu left out (got %zu, %zu)",
	       online, want, 4 - want, sw.npoints, sw.ndropped);
	vsb_sweep_free(&sw);
	snprintf(f, sizeof(f), "variant cmpxchg-local\nncpus 1,%ld\n", online + 1);
	TAP_OK(parse(&sw, f, strlen(f)) == 0 && sw.npoints == 1 && sw.ndropped == 1 &&
	       find(&sw, "ncpus=1") && !errbuf[0],
	       "ncpus online+1 is left out silently, the rest stays");
	vsb_sweep_free(&sw);
	snprintf(f, sizeof(f), "variant cmpxchg-local\nncpus %ld\n", online + 1);
	TAP_OK(parse(&sw, f, strlen(f)) == VSB_EXIT_SKIP && lines(errbuf) == 1 &&
	       strstr(errbuf, "every point asks for more CPUs"),
	       "every point left out: exit 4 with one line");
	vsb_sweep_free(&sw);
}

static void test_bad(void)
{
	char *longline, nul[] = "threshold 32\nloops 10\0\n";
	const char bin[] = "threshold 32\n\x01\x02\x03\n";

	bad("", 0, 1, "empty", "an empty file");
	bad("# only\n\n   # comments\n", -1, 3, "no options", "only comments");
	bad("threshold 32\nfrobnicate 3\n", -1, 2, "unknown key 'frobnicate'",
	    "unknown key, with its line");
	bad("threshold 32,,64\n", -1, 1, "empty value", "an empty value in a list");
	bad("threshold 32,\n", -1, 1, "empty value", "a trailing comma");
	bad("loops 10\nthreshold\n", -1, 2, "has no value", "a key without a value");
	bad("items 100\n", -1, 1, "out of range (1..64)", "a value out of range");
	bad("threshold 3x\n", -1, 1, "not an integer", "a value that is not a number");
	bad("threshold 32\nloops 1\nthreshold 64\n", -1, 3, "set twice (first on line 1)",
	    "a duplicate key");
	bad("threshold 32,64,32\n", -1, 1, "listed twice", "a duplicate value in an axis");
	bad("items 4-1\n", -1, 1, "upwards", "a downward range");
	bad("--threshold 32\n", -1, 1, "without the leading dashes", "a key with dashes");
	bad("output x.csv\n", -1, 1, "cannot be set in a sweep file",
	    "a run option that is not a sweep key");
	bad("loops 1\n[bad label]\n", -1, 2, "block", "a malformed block header");
	bad("[a]\nloops 1\n[a]\nloops 2\n", -1, 3, "already exists", "a duplicate block");
	bad("variant cmpxchg-local\ndiff-bits 8\nthreshold 64,4096\n", -1, 3,
	    "does not fit a 8-bit diff",
	    "a point the option rules refuse, at the line of the option named");
	bad("variant no-such\n", -1, 1, "unknown variant", "an unknown variant");
	/* "--fold remote: unsafe with ...": the key named is fold, whichever comes first */
	bad("loops 1000\nthreshold 32\nvariant cmpxchg-local\nfold remote\n", -1, 4,
	    "--fold remote: unsafe", "a refused combination (--NAME VALUE:), at the line of the key named");
	bad("fold remote\nvariant cmpxchg-local\nthreshold 32\n", -1, 1,
	    "--fold remote: unsafe", "... also when that key comes before the other");
	bad("variant cmpxchg-local\nfold-interval-us 100\nfold none,remote\n", -1, 3,
	    "--fold remote", "on an axis, with fold-interval-us (a longer name) set too");
	bad(nul, sizeof(nul) - 1, 2, "binary data", "a NUL byte");
	bad(bin, sizeof(bin) - 1, 2, "binary data", "control characters");
	longline = malloc(VSB_SWEEP_LINE_MAX + 64);
	memset(longline, 'x', VSB_SWEEP_LINE_MAX + 10);
	memcpy(longline, "loops 1\n# ", 10);
	longline[VSB_SWEEP_LINE_MAX + 10] = '\n';
	bad(longline, VSB_SWEEP_LINE_MAX + 11, 2, "longer than 4096",
	    "a line over 4096 characters, even in a comment");
	free(longline);
}

static void test_directory(void)
{
	char dir[] = "/tmp/vsb-sweep-dirXXXXXX";
	struct vsb_sweep sw;

	if (!mkdtemp(dir)) {
		printf("ok %d - a directory # SKIP mkdtemp failed\n", ++tap_n);
		return;
	}
	TAP_OK(parse_any(&sw, NULL, 0, dir) == VSB_EXIT_USAGE && lines(errbuf) == 1 &&
	       strstr(errbuf, "is a directory") && strstr(errbuf, dir) &&
	       !strstr(errbuf, "empty"),
	       "a directory: exit 2, one line saying so (not 'empty sweep file')");
	if (!strstr(errbuf, "is a directory"))
		printf("#   stderr: %s", errbuf);
	vsb_sweep_free(&sw);
	rmdir(dir);
}

/* A warning of the checks reaches the user once, at the line it names. */
static void test_warning(void)
{
	const char *f = "bench page-fault\ncpus 0\nthp always\nsize 3M\ntasks process,thread\n";
	struct vsb_sweep sw;
	char mode[128] = "";
	FILE *thp = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");

	if (thp) {
		if (!fgets(mode, sizeof(mode), thp))
			mode[0] = '\0';
		fclose(thp);
	}
	if (!mode[0] || strstr(mode, "[never]")) {
		printf("ok %d - a check's warning # SKIP THP is off here: the points skip\n", ++tap_n);
		return;
	}
	TAP_OK(parse(&sw, f, strlen(f)) == 0 && sw.npoints == 2 && lines(errbuf) == 1 &&
	       strstr(errbuf, "warning: t.sweep:3: --thp always: 3M is not a multiple of 2 MiB"),
	       "a check's warning: said once for 2 points, at the thp line");
	if (lines(errbuf) != 1)
		printf("#   stderr: %s", errbuf);
	vsb_sweep_free(&sw);
}

int main(void)
{
	test_product();
	test_ranges_cpus_blocks();
	test_kmod_skip();
	test_ncpus();
	test_bad();
	test_directory();
	test_warning();
	return tap_done();
}
