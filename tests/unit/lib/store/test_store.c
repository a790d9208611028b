// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the result store's pure parts and its series query:
 * the loader's points, keys and refusals, the machine fingerprint from
 * metadata alone, and (with SQLite) the per-repetition series of a
 * point across two runs, oldest first, as `history` will read it.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vsb.h"
#include "cpuinfo.h"
#include "meminfo.h"
#include "store.h"
#include "tap.h"

static char dir[] = "/tmp/vsb-store-test.XXXXXX";

static const char *write_file(const char *name, const char *text)
{
	static char path[4][256];
	static int k;
	FILE *f;

	k = (k + 1) % 4;
	snprintf(path[k], sizeof(path[k]), "%s/%s", dir, name);
	f = fopen(path[k], "w");
	fputs(text, f);
	fclose(f);
	return path[k];
}

#define HDR "bench,variant,thread,cpu,rep,ops,elapsed,unit,per_op\n"
static const char two_points[] =
	"# date: 2030-01-02T00:00:00Z\n# cpu_model: Test CPU\n# kernel: Linux 6.1.0 #1 SMP x86_64\n"
	HDR
	"counter,a,0,0,0,100,1000,tsc,10\ncounter,a,1,1,0,100,3000,tsc,30\n"
	"counter,a,0,0,1,100,2000,tsc,20\ncounter,a,1,1,1,100,2000,tsc,20\n"
	"counter,b,0,0,0,100,500,ns,5\n";

static void test_load(void)
{
	struct vsb_rl_file f;
	size_t len;

	TAP_OK(!vsb_rl_load(write_file("a.csv", two_points), &f), "a small result loads");
	TAP_OK(f.nrows == 5 && f.npoints == 2 && f.nparam == 2, "5 rows, 2 points, 2 parameter columns");
	TAP_OK(!strcmp(f.points[0].key, "bench=counter,variant=a") &&
	       !strcmp(f.points[1].unit, "ns"), "point keys are name=value, units per point");
	TAP_OK(!strcmp(vsb_rl_tail(&f, 1, &len), "1,1,0,100,3000,tsc,30"), "the row's tail from thread on");
	TAP_OK(!strncmp(f.content_id, "c-", 2) && strlen(f.content_id) == 18, "a content id");
	vsb_rl_free(&f);
	TAP_OK(vsb_rl_load(write_file("m.csv", HDR "x,a,0,0,0,1,1,tsc,1\nx,a,0,0,1,1,1,ns,1\n"), &f) ==
	       VSB_EXIT_USAGE, "two units on one point: refused");
	TAP_OK(vsb_rl_load(write_file("s.csv", "point,median\n1,2\n"), &f) == VSB_EXIT_USAGE,
	       "a file without sample columns: refused");
	TAP_OK(vsb_rl_load(write_file("n.csv", HDR "x,a,0,zero,0,1,1,tsc,1\n"), &f) == VSB_EXIT_USAGE,
	       "a cpu that is not a number: refused");
	TAP_OK(vsb_rl_is_derived_name("d/x.summary.csv") && vsb_rl_is_derived_name("sweep.csv") &&
	       vsb_rl_is_derived_name("p.csv.partial") && !vsb_rl_is_derived_name("x.csv"),
	       "summaries, sweep.csv and partial points are not raw results");
}

/*
 * The two passes of the PostgreSQL import (result_load.h): the scan
 * finds every row's point and the content hash of the bytes as they
 * were read (the hash runs beside the cutting, which writes NULs into
 * them); the check refuses a row with the line one pass gives.
 */
static void test_scan(void)
{
	struct vsb_csv_span cells[VSB_RL_MAX_COLS];
	struct vsb_rl_file f, g;
	char *big = malloc(4u << 20), id[24];
	struct vsb_errlog log;
	const char *path;
	size_t len, i;
	uint64_t h;
	FILE *fz;
	int ret;

	len = (size_t)sprintf(big, "# run_id: r1\r\n" HDR);
	/* 3 MiB: the hash thread's 1 MiB steps, and \r\n and blank lines */
	for (i = 0; len < (3u << 20); i++)
		len += (size_t)sprintf(big + len, "counter,v%zu,0,0,%zu,100,1000,tsc,10%s",
				       i % 7, i, i % 3 ? "\n" : "\r\n\n");
	h = vsb_fnv1a64(big, len, VSB_FNV_INIT);
	snprintf(id, sizeof(id), "c-%016llx", (unsigned long long)h);
	TAP_OK(!vsb_rl_scan(write_file("big.csv", big), 0, &f) && f.nchecked == 0 &&
	       f.nrows == i && f.npoints == 7 && f.hash == h && !strcmp(f.content_id, id),
	       "the scan: %zu rows, 7 points, the hash of the bytes as read (%s)", f.nrows,
	       f.content_id);
	TAP_OK(!vsb_rl_load(write_file("big.csv", big), &g) && g.npoints == f.npoints &&
	       !memcmp(g.row_point, f.row_point, f.nrows * sizeof(*f.row_point)),
	       "... the points one pass gives");
	TAP_OK(!vsb_rl_check(&f, 0, cells) && !vsb_rl_check_rest(&f) && f.nchecked == f.nrows &&
	       f.points[3].nsamples == g.points[3].nsamples && !strcmp(f.points[3].unit, "tsc"),
	       "the check of every row, in order: the loader's units and counts");
	vsb_rl_free(&f);
	vsb_rl_free(&g);
	TAP_OK(!vsb_rl_scan(write_file("c.csv", HDR "x,a,0,0,0,1,1,tsc,1\nx,a,0,0,1,1,1,tsc,-1\n"),
			    0, &f) && vsb_rl_check(&f, 0, cells) == 0 &&
	       vsb_rl_check(&f, 1, cells) == VSB_EXIT_USAGE && f.nchecked == 1,
	       "a bad cost in the last row: the scan takes it, the check refuses it");
	vsb_rl_free(&f);
	/* row 2 bad, row 3 too short for its point: the first bad one named */
	vsb_errlog_begin(&log);
	ret = vsb_rl_scan(write_file("t.csv", HDR "x,a,0,0,0,1,1,tsc,1\nx,a,0,z,1,1,1,tsc,1\nx\n"),
			  0, &f);
	vsb_errlog_end(&log);
	TAP_OK(ret == VSB_EXIT_USAGE && strstr(log.text, "row 2 (line 3): column cpu is 'z'"),
	       "a row too short for its point: the scan refuses the file, row 2 named: %s",
	       log.text);
	/* a NUL byte 2 MiB on, past a header that is no result's */
	memset(big, 'x', 4u << 20);
	memcpy(big, "point,median\n1,2\n", 17);
	big[2u << 20] = '\0';
	path = write_file("z.csv", "");
	fz = fopen(path, "w");
	fwrite(big, 1, 3u << 20, fz);
	fclose(fz);
	vsb_errlog_begin(&log);
	ret = vsb_rl_load(path, &f);
	vsb_errlog_end(&log);
	TAP_OK(ret == VSB_EXIT_USAGE && strstr(log.text, "contains NUL bytes") &&
	       !strchr(log.text, ';'),
	       "a NUL byte anywhere: that is the one line, as before any row is read: %s",
	       log.text);
	free(big);
}

static const char *meta_a(const void *ctx, const char *key)
{
	(void)ctx;
	if (!strcmp(key, "cpu_model"))
		return "Test CPU";
	if (!strcmp(key, "topology"))
		return "1 socket x 2 cores x 1 thread, 1 NUMA node, 2 CPUs; L1d 32K/1";
	return !strcmp(key, "hypervisor") ? "yes" : NULL;
}

static const char *meta_b(const void *ctx, const char *key)
{
	/* the same machine, caches described differently */
	if (!strcmp(key, "topology"))
		return "1 socket x 2 cores x 1 thread, 1 NUMA node, 2 CPUs";
	return meta_a(ctx, key);
}

/* a result that names this host's CPU model and nothing else */
static const char *meta_here(const void *ctx, const char *key)
{
	(void)ctx;
	return !strcmp(key, "cpu_model") ? vsb_cpuinfo_host()->model : NULL;
}

static void test_machine(void)
{
	struct vsb_machine_id a, b;
	char family[16];

	vsb_machine_identify(meta_a, NULL, 0, &a);
	vsb_machine_identify(meta_b, NULL, 0, &b);
	TAP_OK(!strcmp(a.fingerprint, b.fingerprint), "fingerprint: the topology without its caches");
	TAP_OK(strstr(a.missing, "cpu_microcode") && strstr(a.missing, "mem_total") &&
	       !strstr(a.missing, "cpu_model "), "missing fields named: %s", a.missing);
	/* a result of this host's CPU: its missing fields are this host's */
	vsb_machine_identify(meta_here, NULL, 1, &a);
	snprintf(family, sizeof(family), "%d", vsb_cpuinfo_host()->family);
	if (!strcmp(vsb_cpuinfo_host()->model, "unknown") ||
	    vsb_cpuinfo_host()->family < 0 || vsb_meminfo_kb("MemTotal") < 0) {
		printf("ok %d # SKIP no CPU model, family or MemTotal here\n", ++tap_n);
		return;
	}
	TAP_OK(a.from_host[2] && !strcmp(a.val[2], family) && a.from_host[7] &&
	       strstr(a.val[7], " GiB") && !a.from_host[1],
	       "a result of this CPU: family %s and RAM %s read here", a.val[2],
	       a.val[7]);
}

static void test_series(void)
{
#ifdef VSB_HAVE_SQLITE
	char url[300], *paths[2];
	struct vsb_store *s;
	struct vsb_series se;
	char older[sizeof(two_points)];

	memcpy(older, two_points, sizeof(two_points));
	memcpy(strstr(older, "2030-01-02"), "2029", 4);
	paths[0] = strdup(write_file("new.csv", two_points));
	paths[1] = strdup(write_file("old.csv", older));
	snprintf(url, sizeof(url), "sqlite:%s/t.db", dir);
	TAP_OK(!vsb_store_import_paths(url, paths, 2, 1), "two runs imported");
	TAP_OK(!vsb_store_open(url, VSB_STORE_READ, &s), "store opens");
	TAP_OK(!vsb_store_series(s, "bench=counter,variant=a", NULL, &se) && se.n == 2,
	       "series of a point: 2 runs");
	TAP_OK(se.n == 2 && !strncmp(se.runs[0].date, "2029", 4), "oldest first");
	TAP_OK(se.n == 2 && se.runs[1].n == 2 && se.runs[1].samples[0] == 20 &&
	       se.runs[1].samples[1] == 20, "per repetition: mean over workers");
	TAP_NEAR(se.n == 2 ? se.runs[1].median : 0, 20, 1e-9, "the run's median");
	TAP_OK(se.n == 2 && !strcmp(se.runs[0].kernel, "6.1.0") && !strcmp(se.runs[0].unit, "tsc"),
	       "kernel release and unit");
	vsb_series_free(&se);
	TAP_OK(!vsb_store_series(s, "bench=counter,variant=a", "m-none", &se) && se.n == 0,
	       "another machine: no runs");
	vsb_series_free(&se);
	vsb_store_close(s);
	free(paths[0]);
	free(paths[1]);
#else
	printf("ok %d - series # SKIP built without SQLite\n", ++tap_n);
#endif
}

/*
 * The stored points' parameters come back through the backend's own
 * JSON functions (json_each), in the order stored, whatever the values
 * hold: a comma (a quoted cell), a backslash, a quote escaped in JSON.
 */
static void test_points(void)
{
#ifdef VSB_HAVE_SQLITE
	static const char odd[] =
		"# date: 2030-01-03T00:00:00Z\n# cpu_model: Test CPU\n"
		"# kernel: Linux 6.1.0 #1 SMP x86_64\n" HDR
		"counter,\"x,y\",0,0,0,100,1000,tsc,10\n"
		"counter,back\\slash,0,0,0,100,1000,tsc,10\n";
	struct vsb_store_point *pts;
	char url[300], *path;
	struct vsb_store *s;
	size_t n, i;
	int got = 0;

	path = strdup(write_file("odd.csv", odd));
	snprintf(url, sizeof(url), "sqlite:%s/p.db", dir);
	TAP_OK(!vsb_store_import_paths(url, &path, 1, 1), "odd values imported");
	TAP_OK(!vsb_store_open(url, VSB_STORE_READ, &s), "store opens");
	TAP_OK(!vsb_store_points(s, &pts, &n) && n == 2, "two points (%zu)", n);
	for (i = 0; i < n; i++) {
		const char *v = vsb_store_point_param(&pts[i], "variant");

		got |= v && !strcmp(v, "x,y") ? 1 : v && !strcmp(v, "back\\slash") ? 2 : 0;
		TAP_OK(pts[i].n == 2 && !strcmp(pts[i].name[0], "bench") &&
		       !strcmp(pts[i].name[1], "variant") &&
		       !strcmp(vsb_store_point_param(&pts[i], "bench"), "counter"),
		       "point %zu: bench then variant, as stored", i);
		TAP_OK(!vsb_store_point_param(&pts[i], "nope"), "an absent parameter: NULL");
	}
	TAP_OK(got == 3, "a comma and a backslash come back whole (%d)", got);
	vsb_store_points_free(pts, n);
	vsb_store_close(s);
	free(path);
#else
	printf("ok %d - points # SKIP built without SQLite\n", ++tap_n);
#endif
}

int main(void)
{
	char cmd[300];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_load();
	test_scan();
	test_machine();
	test_series();
	test_points();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("# could not remove %s\n", dir);
	return tap_done();
}
