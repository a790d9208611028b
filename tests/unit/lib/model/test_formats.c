// SPDX-License-Identifier: GPL-2.0
/*
 * The suite's own line formats, each writer against its reader in
 * lib/model: what the writer writes reads back the same, and what it
 * never writes is refused.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "bisect_state.h"
#include "c2c_rule.h"
#include "csvread.h"
#include "handoff.h"
#include "kernel_line.h"
#include "keyval.h"
#include "partial_state.h"
#include "refresh_seed.h"
#include "result_load.h"
#include "shift_line.h"
#include "summary_csv.h"
#include "kvm_verdict.h"
#include "monitor_csv.h"
#include "result_cells.h"
#include "sysctl_state_file.h"
#include "point_match.h"
#include "point_list.h"
#include "vsb.h"
#include "worker_list.h"
#include "tap.h"

/* A sweep's `# sweep_procs:` line: which repetitions each process ran. */
static void test_worker_list(void)
{
	unsigned int lo[8], hi[8];
	const long ends[] = { 2, 4, 6, 8, 10 }, uneven[] = { 0, 1, 1, 3 };
	char line[256];

	TAP_OK(vsb_worker_list_write(line, sizeof(line), ends, 5) == 5 &&
	       !strcmp(line, "5 (repetitions by worker process: 0-1,2-3,4-5,6-7,8-9)"),
	       "five ranges of two written: %s", line);
	TAP_OK(vsb_worker_list_read(line, lo, hi, 8) == 5 && lo[4] == 8 && hi[4] == 9 &&
	       hi[0] == 1, "... and read back");
	TAP_OK(vsb_worker_list_write(line, sizeof(line), uneven, 4) == 2 &&
	       !strcmp(line, "2 (repetitions by worker process: 0,1-2)"),
	       "a process that ran none is left out: %s", line);
	TAP_OK(vsb_worker_list_read("3 (repetitions by worker process: 0,1,2)", lo, hi,
				    8) == 3 && lo[2] == 2 && hi[2] == 2,
	       "single repetitions");
	TAP_OK(!vsb_worker_list_read("2 (repetitions by worker process: 2-3,0-1)", lo, hi, 8),
	       "ranges out of order: not taken");
	TAP_OK(!vsb_worker_list_read("2 (repetitions by worker process: 0-x)", lo, hi, 8) &&
	       !vsb_worker_list_read(NULL, lo, hi, 8) &&
	       !vsb_worker_list_read("2 (repetitions by worker process: 3-1)", lo, hi, 8),
	       "bad or no line: not taken (the file stays one run)");
	TAP_OK(!vsb_worker_list_read("2 (repetitions by worker process: 0-01,02-3)", lo, hi, 8) &&
	       !vsb_worker_list_read("2 (repetitions by worker process: 0-1,+2-3)", lo, hi, 8) &&
	       !vsb_worker_list_read("2 (repetitions by worker process: 0-1,2-3", lo, hi, 8) &&
	       !vsb_worker_list_read("2 (repetitions by worker process: 0-1,2-3)x", lo, hi, 8),
	       "leading zeros, a sign, no closing parenthesis or more after it: not taken");
}

/* Three pending points p1, p2, p3, afresh each call */
static struct vsb_sweep_point *three_points(void)
{
	static struct vsb_sweep_point pts[3];
	int i;

	memset(pts, 0, sizeof(pts));
	for (i = 0; i < 3; i++)
		snprintf(pts[i].id, sizeof(pts[i].id), "p%d", i + 1);
	return pts;
}

/* points.txt: what compare loads of a sweep folder is what was done. */
static void test_point_list(void)
{
	char *text = NULL, *line, *next, bad[] = "../x\tdone\tb=1";
	struct vsb_sweep_point *pts = three_points();
	struct vsb_sweep sw = { .path = "t.sweep", .npoints = 3, .points = pts };
	const char *ids[4], *id;
	size_t len = 0, lineno = 0, n = 0;
	int ret = 0;
	FILE *f = open_memstream(&text, &len);

	pts[0].state = VSB_PT_DONE;
	pts[1].state = VSB_PT_FAILED;
	pts[2].done = 2;	/* pending, with a partial */
	vsb_point_list_write(f, &sw);
	fclose(f);
	TAP_OK(strstr(text, "p2\tfailed\t") && strstr(text, "p3\tpartial\t"),
	       "points.txt says failed and partial");
	for (line = text; line && *line && n < 4; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		id = vsb_point_list_done("points.txt", ++lineno, line, &ret);
		if (id)
			ids[n++] = id;
	}
	TAP_OK(n == 1 && !strcmp(ids[0], "p1") && !ret, "only the done point read back");
	TAP_OK(!vsb_point_list_done("points.txt", 1, bad, &ret) && ret == VSB_EXIT_USAGE,
	       "an id that is a way out of the folder: refused");
	free(text);
}

/* @r's metadata as a CSV reader holds it: @c borrows the strings */
static void meta_as_csv(const struct vsb_result *r, struct vsb_csv *c,
			struct vsb_csv_meta *m)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < r->nmeta; i++) {
		m[i].key = (char *)r->meta[i].key;
		m[i].val = (char *)r->meta[i].val;
	}
	c->nmeta = r->nmeta;
	c->meta = m;
}

/* A partial's sweep_partial_* lines: every field back, bit for bit. */
static void test_partial_state(void)
{
	static struct vsb_result r, back;
	static struct vsb_run_opts o;
	struct vsb_csv_meta m[16];
	struct vsb_csv c;
	long k = 0, reps = 0;

	vsb_result_init(&r, &o);
	r.sanity_ok = 1;
	r.applied = -12345678901LL;
	r.npmu = 2;
	r.pmu_cycles = 1;
	r.pmu_instr = -1;
	r.have_drift = 1;
	r.drift_samples = 7;
	r.drift_p99 = 0.1;
	r.stale_mean_us = 1.0 / 3;
	r.dist.on = 1;
	r.dist.reason[4] = 9;
	r.dist.lost_steal_ns = 2.5e9;
	r.dist.retries_cap = 40;
	snprintf(r.dist.sources, sizeof(r.dist.sources), "schedstat; steal");
	vsb_partial_state_write(&r, "counter-x", "file=0123 m", 3, 10);
	meta_as_csv(&r, &c, m);
	vsb_result_init(&back, &o);
	TAP_OK(r.nmeta == 7 && !strcmp(r.meta[3].key, "sweep_partial_state"),
	       "seven lines, the state fourth");
	TAP_OK(!strcmp(r.meta[0].key, "sweep_partial_point") &&
	       !strcmp(r.meta[0].val, "counter-x") &&
	       !strcmp(r.meta[1].key, "sweep_partial_match") &&
	       !strcmp(r.meta[1].val, "file=0123 m"), "the point and its match first");
	TAP_OK(!vsb_partial_rounds_read(&c, &k, &reps) && k == 3 && reps == 10,
	       "rounds: 3 of 10");
	TAP_OK(!vsb_partial_state_read(&c, &back) && back.applied == r.applied &&
	       back.pmu_cycles == 1 && back.pmu_instr == -1 && back.drift_samples == 7 &&
	       back.drift_p99 == r.drift_p99 && back.stale_mean_us == r.stale_mean_us &&
	       back.dist.reason[4] == 9 && back.dist.lost_steal_ns == 2.5e9 &&
	       back.dist.retries_cap == 40 && !strcmp(back.dist.sources, r.dist.sources),
	       "state, drift and dist lines read back whole");
	TAP_OK(!strcmp(r.meta[3].val, "sanity_ok=1 migrated=0 applied=-12345678901 "
		       "counted=0 nthreads=0 npmu=2 pmu_cycles=1 pmu_instr=-1 "
		       "mux_samples=0 multiplexed=0"), "the state line as ever: %s",
	       r.meta[3].val);
	TAP_OK(!strncmp(r.meta[5].val, "on=1 policy=0 attempts=0 kept=0 kept_disturbed=0 "
			"dropped=0 retried=0 disturbed=0 reasons=0,0,0,0,9 valid=0 "
			"timed_ns=0 lost_delay_ns=0 lost_steal_ns=2500000000 ", 132),
	       "the dist line as ever: %s", r.meta[5].val);
	snprintf(r.meta[4].val, sizeof(r.meta[4].val), "have=01 samples=7 max=0 p99=0.1 "
		 "mean=0 stale_max=0 stale_p99=0 stale_mean=0");
	TAP_OK(vsb_partial_state_read(&c, &back) != NULL, "a leading zero: refused");
	snprintf(r.meta[3].val, sizeof(r.meta[3].val), "sanity_ok=1 migrated=0");
	TAP_OK(vsb_partial_state_read(&c, &back) != NULL, "a state line cut short: refused");
	snprintf(r.meta[2].val, sizeof(r.meta[2].val), "0 of 10");
	TAP_OK(vsb_partial_rounds_read(&c, &k, &reps) != NULL, "no round done: refused");
	vsb_result_free(&r);
	vsb_result_free(&back);
}

/* @r's summary CSV through a file and the CSV reader into @c: 0 read */
static int summary_back(const struct vsb_result *r, struct vsb_csv *c)
{
	char path[] = "/tmp/vsb-test-summary-XXXXXX";
	int fd = mkstemp(path), ret;
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");

	if (!f)
		return -1;
	vsb_result_write_summary_csv(r, f);
	ret = fclose(f) ? -1 : vsb_csv_read(path, c);
	unlink(path);
	return ret;
}

/* A point's summary CSV and its sweep_point/sweep_match lines, read back */
static void test_summary_csv(void)
{
	static struct vsb_result r;
	static struct vsb_run_opts o;
	struct vsb_sweep_point *pts = three_points();
	char match[96], msg[160];
	struct vsb_csv c;
	const char *bad;
	int i;

	vsb_run_opts_defaults(&o);
	pts[0].reps = 2;
	vsb_result_init(&r, &o);
	for (i = 0; i < 4; i++) {
		struct vsb_sample s = { .thread = (unsigned int)(i % 2), .rep = i / 2,
					.ops = 1000, .elapsed = 5000 + i, .ns = 2000,
					.pmu_scale = 1.0 };

		vsb_result_add(&r, &s);
	}
	r.nthreads = 2;
	vsb_sweep_point_match(&pts[0], match, sizeof(match));
	vsb_result_meta(&r, VSB_SWEEP_POINT_KEY, "%s", pts[0].id);
	vsb_result_meta(&r, VSB_SWEEP_MATCH_KEY, "%s", match);
	TAP_OK(!summary_back(&r, &c), "a summary CSV written and read");
	bad = vsb_summary_csv_check(&c, &pts[0], msg, sizeof(msg));
	TAP_OK(!bad, "... is its point's, as this run makes it (%s)", bad ?: "ok");
	bad = vsb_summary_csv_check(&c, &pts[1], msg, sizeof(msg));
	TAP_OK(bad && strstr(bad, "another point"), "another point's: %s", bad ?: "taken");
	pts[0].reps = 3;
	bad = vsb_summary_csv_check(&c, &pts[0], msg, sizeof(msg));
	TAP_OK(bad && strstr(bad, "holds 2 repetition(s), this run wants 3"),
	       "other repetitions: %s", bad ?: "taken");
	TAP_OK(c.nrows == 3 && !vsb_summary_csv_row(&c, 0) && !vsb_summary_csv_row(&c, 1) &&
	       vsb_summary_csv_row(&c, 2), "of three rows, the \"all\" row is the point's");
	TAP_OK(!vsb_summary_sweep_wide_key(VSB_SWEEP_POINT_KEY) &&
	       !vsb_summary_sweep_wide_key("monitor_pgalloc") &&
	       !vsb_summary_sweep_wide_key("sanity") && vsb_summary_sweep_wide_key("kernel"),
	       "sweep.csv's header: kernel, not the point's own lines");
	pts[0].reps = 2;
	c.cols[0][0] = 'X';
	bad = vsb_summary_csv_check(&c, &pts[0], msg, sizeof(msg));
	TAP_OK(bad && strstr(bad, "other columns"), "a renamed column: %s",
	       bad ?: "taken");
	vsb_csv_free(&c);
	vsb_result_free(&r);
}

/* A partial's point and match lines: its own, or why not */
static void test_partial_point(void)
{
	static struct vsb_result r;
	static struct vsb_run_opts o;
	struct vsb_csv_meta m[16];
	struct vsb_csv c;
	const char *bad;

	vsb_result_init(&r, &o);
	vsb_partial_state_write(&r, "p1", "file=00000000000000aa options=1 repeat=5",
				1, 5);
	meta_as_csv(&r, &c, m);
	TAP_OK(!vsb_partial_point_read(&c, "p1", "file=00000000000000aa options=1 repeat=5"),
	       "a partial's point and match lines read back");
	bad = vsb_partial_point_read(&c, "p2", "file=00000000000000aa options=1 repeat=5");
	TAP_OK(bad && strstr(bad, "another point"), "another point's: %s", bad ?: "taken");
	bad = vsb_partial_point_read(&c, "p1", "file=00000000000000bb options=1 repeat=5");
	TAP_OK(bad && strstr(bad, "another sweep file"), "another sweep file's: %s",
	       bad ?: "taken");
	bad = vsb_partial_point_read(&c, "p1", "file=00000000000000aa options=1 repeat=6");
	TAP_OK(bad && strstr(bad, "other options"), "other repetitions: %s",
	       bad ?: "taken");
	vsb_result_free(&r);
}

/* The sysctl state file: every original back whole, a bad line refused */
static void test_sysctl_state(void)
{
	const char *orig = "a\tb\\c\nd\x01e";
	struct vsb_sysctl_state_ent se[4];
	unsigned long long start = 0;
	char *text = NULL, bad[] = "vm.x\tvalue\\q\n";
	size_t len = 0;
	long pid = 0;
	int n;
	FILE *f = open_memstream(&text, &len);

	vsb_sysctl_state_head(f, 1234, 5678ULL);
	vsb_sysctl_state_line(f, "vm.stat_interval", "1");
	vsb_sysctl_state_line(f, "vm.numa_stat", orig);
	fclose(f);
	n = vsb_sysctl_state_parse("state", text, se, 4, &pid, &start);
	TAP_OK(n == 2 && pid == 1234 && start == 5678 &&
	       !strcmp(se[0].name, "vm.stat_interval") && !strcmp(se[0].val, "1") &&
	       !strcmp(se[1].name, "vm.numa_stat") && !strcmp(se[1].val, orig),
	       "the state file: pid, start and two originals back whole (%d)", n);
	free(text);
	TAP_OK(vsb_sysctl_state_parse("state", bad, se, 4, &pid, &start) == -1,
	       "a malformed escape: refused");
	TAP_OK(vsb_sysctl_state_parse("state", (char[]){ "kernel.x\t1\n" }, se, 4, &pid,
				      &start) == -1, "a sysctl --sysctl never sets: refused");
}

/* A result table's cells as numbers: what %ld and %g write, else none */
static void test_result_cells(void)
{
	char cell[64];

	snprintf(cell, sizeof(cell), "%ld", -125L);
	TAP_OK(vsb_cell_long(cell, 7) == -125, "an integer cell read back");
	snprintf(cell, sizeof(cell), "%g", 1.5e-7);
	TAP_OK(vsb_cell_real(cell) == 1.5e-7, "a figure cell read back (%s)", cell);
	TAP_OK(vsb_cell_long("", 7) == 7 && vsb_cell_long("12abc", 7) == 7 &&
	       vsb_cell_long("012", 7) == 7 && vsb_cell_long(NULL, 7) == 7,
	       "empty, trailing text, a leading zero: none, not atol's guess");
	TAP_OK(isnan(vsb_cell_real("")) && isnan(vsb_cell_real("0x10")) &&
	       isnan(vsb_cell_real("inf")), "empty, hex, inf: no figure");
}

static void monitor_row_seen(const struct vsb_monitor_row *r, void *arg)
{
	struct vsb_monitor_row *last = arg;

	*last = *r;
	last->cpu += 1000 * (last->cpu >= 0);	/* a mark: rows seen */
}

/* FILE.monitor.csv: title, header and rows back; no header, no series */
static void test_monitor_csv(void)
{
	struct vsb_monitor_row last = { 0 };
	char *text = NULL, title[64];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	fprintf(f, VSB_MONITOR_CSV_TITLE "every 10 ms\n" VSB_MONITOR_CSV_HEADER "\n");
	vsb_monitor_row_write(f, 0.5, "vmstat", "nr_free_pages", -1, 12);
	vsb_monitor_row_write(f, 1.25, "interrupts", "LOC", 3, 7.5);
	fclose(f);
	f = fmemopen(text, len, "r");
	TAP_OK(!vsb_monitor_csv_read(f, title, sizeof(title), monitor_row_seen, &last) &&
	       !strcmp(title, "every 10 ms") && last.t == 1.25 && last.cpu == 1003 &&
	       !strcmp(last.source, "interrupts") && last.value == 7.5,
	       "a monitor series: title and its last row back (%s)", title);
	fclose(f);
	f = fmemopen((char[]){ "# x\ntime,value\n1,2\n" }, 18, "r");
	TAP_OK(vsb_monitor_csv_read(f, title, sizeof(title), monitor_row_seen, &last) == -1,
	       "another header: not a series");
	fclose(f);
	free(text);
}

/* kvm.verdict as ci/vm-run.sh appends to it: printf '%s => %s\\n' KEY V */
static void test_kvm_verdict(void)
{
	char path[] = "/tmp/vsb-test-kvm-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	fprintf(f, "%s => %s\n", "6.1.0-host QEMU emulator version 7.2.0 6.12.1-cloud", "kvm");
	fprintf(f, "%s => %s\n", "6.1.0-host QEMU emulator version 7.2.0 6.1.0-cloud", "tcg");
	fclose(f);
	TAP_OK(vsb_kvm_verdict_read(path, "6.12.1-cloud") == 1, "a kernel KVM runs: kvm");
	TAP_OK(!vsb_kvm_verdict_read(path, "6.1.0-cloud") && !vsb_kvm_verdict_read(path, "1-cloud"),
	       "a kernel under TCG, or a release that only ends another's: not kvm");
	unlink(path);
	TAP_OK(!vsb_kvm_verdict_read(path, "6.12.1-cloud"), "no file: not kvm");
}

/* Each line of @text (cut up) through vsb_handoff_line: 0, or -1 */
static int handoff_read(struct vsb_sweep *sw, char *text, unsigned char *seen)
{
	char *line, *next;

	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (line[0] != '#' && vsb_handoff_line(sw, line, seen))
			return -1;
	}
	return 0;
}

/* procs.txt: each point's state, resumed count and reason, handed on. */
static void test_handoff(void)
{
	unsigned char seen[3] = { 0 };
	struct vsb_sweep_point *pts = three_points();
	struct vsb_sweep sw = { .path = "t.sweep", .npoints = 3, .points = pts };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	pts[0].state = VSB_PT_DONE;
	pts[0].kept = 1;
	pts[1].state = VSB_PT_SKIPPED;
	pts[1].status = 4;
	snprintf(pts[1].err, sizeof(pts[1].err), "no module\there");
	pts[2].resumed = 6;
	vsb_handoff_write(f, &sw, 1, 3);
	fclose(f);
	memset(pts[1].err, 0, sizeof(pts[1].err));
	pts[0].state = pts[1].state = VSB_PT_PENDING;
	pts[0].kept = 0;
	pts[1].status = 0;
	pts[2].resumed = 0;
	TAP_OK(!handoff_read(&sw, text, seen) && pts[0].kept && !pts[1].kept &&
	       pts[0].state == VSB_PT_DONE && pts[1].state == VSB_PT_SKIPPED &&
	       pts[1].status == 4 && !strcmp(pts[1].err, "no module here") &&
	       pts[2].resumed == 6 && seen[0] && seen[1] && seen[2],
	       "procs.txt read back: kept, skipped with its reason, resumed 6");
	free(text);
	memset(seen, 0, sizeof(seen));
	TAP_OK(handoff_read(&sw, (char[]){ "p3\tpending\t06\t0\t" }, seen) &&
	       handoff_read(&sw, (char[]){ "p2\tfailed\t0\t4x\twhy" }, seen) &&
	       handoff_read(&sw, (char[]){ "p1\tdone\t0\t0" }, seen) &&
	       handoff_read(&sw, (char[]){ "p9\tdone\t0\t0\t" }, seen),
	       "a leading zero, a status that is no number, four fields, "
	       "another sweep's point: refused");
}

/* A raw CSV's numbers through the loader: what compare and the store get */
static void test_rl_sample(void)
{
	char path[] = "/tmp/vsb-test-rl-XXXXXX";
	struct vsb_csv_span cells[VSB_RL_MAX_COLS];
	struct vsb_rl_sample a, b;
	struct vsb_rl_file f;
	int fd = mkstemp(path);
	FILE *o = fdopen(fd, "w");

	fputs("# run_id: t\nbench,thread,cpu,rep,ops,elapsed,unit,per_op,ns_per_op,"
	      "cycles,instructions\n"
	      "counter,0,3,7,1000,2500,ns,2.5,2.5,1e+06,0x10\n"
	      "counter,1,-1,8,1000,2500,ns,,,,-4\n", o);
	fclose(o);
	TAP_OK(!vsb_rl_read(path, 0, &f) && f.nrows == 2, "a raw CSV of two rows loads");
	vsb_rl_cells(&f, 0, cells);
	vsb_rl_sample(&f, cells, &a);
	vsb_rl_cells(&f, 1, cells);
	vsb_rl_sample(&f, cells, &b);
	TAP_OK(a.thread == 0 && a.cpu == 3 && a.rep == 7 && a.ops == 1000 &&
	       a.elapsed == 2500 && a.per_op == 2.5 && a.cycles == 1e6 && isnan(a.instr),
	       "row 1's numbers; 0x10 is none of ours");
	TAP_OK(b.cpu == -1 && b.rep == 8 && isnan(b.per_op) && isnan(b.ns_per_op) &&
	       isnan(b.cycles) && isnan(b.instr), "row 2: empty cells and -4 are none");
	vsb_rl_free(&f);
	unlink(path);
}

/* `# kernel:`: the store keys a run's kernel by its release and version */
static void test_kernel_line(void)
{
	static struct vsb_result r;
	static struct vsb_run_opts o;
	char rel[128], ver[512];

	static struct vsb_meta_rec m;

	vsb_result_init(&r, &o);
	vsb_kernel_line_write(&m, "Linux", "6.1.0-9-amd64",
			      "#1 SMP PREEMPT_DYNAMIC Debian 6.1.27-1 (2023-05-08)", "x86_64");
	vsb_result_take_meta(&r, &m);
	vsb_kernel_line_read(r.meta[0].val, rel, sizeof(rel), ver, sizeof(ver));
	TAP_OK(!strcmp(r.meta[0].key, VSB_KERNEL_KEY) && !strcmp(rel, "6.1.0-9-amd64") &&
	       !strcmp(ver, "#1 SMP PREEMPT_DYNAMIC Debian 6.1.27-1 (2023-05-08)"),
	       "release and version back: %s, %s", rel, ver);
	vsb_kernel_line_read(NULL, rel, sizeof(rel), ver, sizeof(ver));
	TAP_OK(!strcmp(rel, "unknown") && !ver[0], "no line: release unknown");
	vsb_kernel_line_read("Linux", rel, sizeof(rel), ver, sizeof(ver));
	TAP_OK(!strcmp(rel, "unknown") && !ver[0], "one word: release unknown");
	vsb_kernel_line_read("Linux 6.12.9 x86_64", rel, sizeof(rel), ver, sizeof(ver));
	TAP_OK(!strcmp(rel, "6.12.9") && !ver[0], "no version: none read");
	vsb_kernel_line_read("Linux  6.1\t#1 x", rel, sizeof(rel), ver, sizeof(ver));
	TAP_OK(!strcmp(rel, "6.1\t#1") && !ver[0], "a tab is not the writer's blank");
	vsb_result_free(&r);
}

/* "# key: value" lines of @text (cut up) as a CSV reader's metadata */
static void lines_as_csv(char *text, struct vsb_csv *c, struct vsb_csv_meta *m,
			 size_t max)
{
	char *line, *next, *colon;

	memset(c, 0, sizeof(*c));
	c->meta = m;
	for (line = text; line && *line && c->nmeta < max; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		colon = strstr(line, ": ");
		if (strncmp(line, "# ", 2) || !colon)
			continue;
		*colon = '\0';
		m[c->nmeta].key = line + 2;
		m[c->nmeta++].val = colon + 2;
	}
}

/* compare.csv's common shift: drawn only where compare showed it */
static double shift_back(double shift, size_t n, int shown)
{
	struct vsb_csv_meta m[4];
	struct vsb_csv c;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	double r;

	vsb_shift_lines_write(f, shift, n, shown);
	fclose(f);
	lines_as_csv(text, &c, m, 4);
	r = vsb_shift_lines_read(&c);
	free(text);
	return r;
}

static void test_shift_lines(void)
{
	struct vsb_csv_meta m[2] = { { "common_shift", "0.97x over 3 judged points" },
				     { "common_shift_shown", "yes" } };
	struct vsb_csv c = { .nmeta = 2, .meta = m };

	TAP_NEAR(shift_back(1.0312, 12, 1), 1.031, 1e-12, "a shown shift read back");
	TAP_OK(isnan(shift_back(1.0312, 12, 0)), "one not shown: none");
	TAP_OK(isnan(shift_back(NAN, 0, 1)), "no judged point: none");
	TAP_OK(isnan(vsb_shift_lines_read(&c)), "a number with more glued to it: none");
	m[0].val = "0x1p0 over 3 judged points";
	TAP_OK(isnan(vsb_shift_lines_read(&c)), "a hex float: none");
	m[0].val = "1.02";
	TAP_OK(isnan(vsb_shift_lines_read(&c)), "no \"over N\": none of the writer's");
}

/* A refresh result's seed estimate: the chart's reference line */
static void test_refresh_seed(void)
{
	static struct vsb_result r;
	static struct vsb_run_opts o;

	vsb_result_init(&r, &o);
	vsb_refresh_seed_write(&r, 16777216);
	TAP_OK(!strcmp(r.meta[0].key, VSB_REFRESH_SEED_KEY) &&
	       vsb_refresh_seed_read(r.meta[0].val) == 16777216, "16777216 back: %s",
	       r.meta[0].val);
	TAP_OK(vsb_refresh_seed_read(NULL) == 0, "no line: 0");
	TAP_OK(vsb_refresh_seed_read("0x10 iterations") == 0 &&
	       vsb_refresh_seed_read("016 iterations") == 0 &&
	       vsb_refresh_seed_read("-16 iterations") == 0 &&
	       vsb_refresh_seed_read("16") == 0, "hex, a leading zero, a sign, no word: 0");
	vsb_result_free(&r);
}

/* c2c_ns: compare's and history's moved-CPUs rule reads what meta wrote */
static void test_c2c_line(void)
{
	static struct vsb_result r;
	static struct vsb_run_opts o;

	static struct vsb_meta_rec m;

	vsb_result_init(&r, &o);
	vsb_c2c_line_write(&m, 80.14, 0, 1);
	vsb_result_take_meta(&r, &m);
	TAP_OK(!strcmp(r.meta[0].key, VSB_C2C_KEY) &&
	       fabs(vsb_c2c_parse(r.meta[0].val) - 80.1) < 1e-9,
	       "80.1 ns back: %s", r.meta[0].val);
	m.n = 0;
	vsb_c2c_line_write(&m, NAN, 2, 3);
	vsb_result_take_meta(&r, &m);	/* the same key: written over */
	TAP_OK(isnan(vsb_c2c_parse(r.meta[0].val)) && isnan(vsb_c2c_parse(NULL)),
	       "unknown, or no line: NAN");
	TAP_OK(isnan(vsb_c2c_parse("0x50 (CPUs 0 and 1)")) &&
	       isnan(vsb_c2c_parse(" 80.1 (CPUs 0 and 1)")) && isnan(vsb_c2c_parse("80.1")),
	       "hex, a leading blank, no words after: unknown");
	vsb_result_free(&r);
}

/* ab-boot.txt's sweep_status, as ci/ab-run.sh's printf writes it */
static void test_keyval(void)
{
	static const char *const bad[] = { "07", "+3", "3 ", "", "3junk", "-", "0x3" };
	char path[] = "/tmp/vsb-keyval-XXXXXX", val[64];
	size_t i;
	long v = -9;
	FILE *f;
	int fd = mkstemp(path);

	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		TAP_OK(0, "a temporary file");
		return;
	}
	fprintf(f, "accel: tcg\nsweep_status: 3\nsweep_statusx: 4\n");
	fclose(f);
	TAP_OK(!vsb_keyval_long(path, "sweep_status", &v) && v == 3, "sweep_status: 3");
	TAP_OK(!vsb_keyval_get(path, "accel", val, sizeof(val)) && !strcmp(val, "tcg"),
	       "accel: tcg");
	TAP_OK(vsb_keyval_long(path, "guest_seconds", &v) == -1, "no such key: -1");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		f = fopen(path, "w");
		if (!f)
			break;
		fprintf(f, "sweep_status: %s\n", bad[i]);
		fclose(f);
		TAP_OK(vsb_keyval_long(path, "sweep_status", &v) == -1,
		       "sweep_status: \"%s\" refused, not read as a number", bad[i]);
	}
	unlink(path);
}

/* bisect.state's step and spec lines: back whole, or refused */
static void test_bisect_state(void)
{
	static const char *const bad[] = {
		"step step 0123 89ab same steps/01",			/* short shas */
		"step  step %s %s same steps/01",			/* two spaces */
		"step step %s %s same steps/01 extra",		/* a field more */
		"step step %s %s same",				/* one less */
		"step step %s %s same steps/01 ",			/* a blank after */
		"step stepstepstepstepstep %s %s same steps/01",	/* role too long */
	};
	const char *sha = "0123456789abcdef0123456789abcdef01234567";
	const char *base = "89abcdef0123456789abcdef0123456789abcdef";
	struct vsb_bisect_step s = { .role = "step", .verdict = "bad",
				     .dir = "steps/03-0123456789ab" }, back;
	char line[512], bsha[41], spec[4096];
	size_t i;

	snprintf(s.sha, sizeof(s.sha), "%s", sha);
	snprintf(s.base_sha, sizeof(s.base_sha), "%s", base);
	vsb_bisect_step_write(line, sizeof(line), &s);
	TAP_OK(!vsb_bisect_step_read(line, &back) && !strcmp(back.role, "step") &&
	       !strcmp(back.sha, sha) && !strcmp(back.base_sha, base) &&
	       !strcmp(back.verdict, "bad") && !strcmp(back.dir, s.dir),
	       "a step line reads back whole: %s", line);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(line, sizeof(line), bad[i], sha, base);
		TAP_OK(vsb_bisect_step_read(line, &back) == -1, "refused: \"%s\"", bad[i]);
	}
	snprintf(line, sizeof(line), "step step %s %s same steps/01", sha, base);
	line[12] = 'A';
	TAP_OK(vsb_bisect_step_read(line, &back) == -1, "an uppercase sha refused");
	vsb_bisect_spec_write(line, sizeof(line), sha, "/k/b zImage:/k/build dir");
	TAP_OK(!vsb_bisect_spec_read(line, bsha, spec, sizeof(spec)) && !strcmp(bsha, sha) &&
	       !strcmp(spec, "/k/b zImage:/k/build dir"), "a spec line, blanks in its paths");
	TAP_OK(vsb_bisect_spec_read("spec 0123", bsha, spec, sizeof(spec)) == -1 &&
	       vsb_bisect_spec_read(line, bsha, spec, 8) == -1,
	       "a spec line cut short, or too long to hold: refused");
	snprintf(line, sizeof(line), "spec %s ", sha);
	TAP_OK(vsb_bisect_spec_read(line, bsha, spec, sizeof(spec)) == -1,
	       "a spec line without its spec: refused");
}

int main(void)
{
	test_c2c_line();
	test_refresh_seed();
	test_shift_lines();
	test_kernel_line();
	test_rl_sample();
	test_handoff();
	test_partial_state();
	test_summary_csv();
	test_kvm_verdict();
	test_monitor_csv();
	test_result_cells();
	test_sysctl_state();
	test_partial_point();
	test_point_list();
	test_worker_list();
	test_keyval();
	test_bisect_state();
	return tap_done();
}
