// SPDX-License-Identifier: GPL-2.0
/*
 * The --monitor spec and the /proc parsers of monitor_parse.c, on copies
 * of real files (tests/fixtures/monitor/, taken from a 2-CPU x86 guest on
 * 6.18): the values each parser reports are checked against the numbers
 * in the file, and malformed text is refused rather than half-read.
 * Also the timed-window marks of window.c.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "monitor.h"
#include "monitor_csv.h"
#include "window.h"
#include "tap.h"

struct row {
	char source[16], key[96];
	int cpu;
	double v;
};

static struct row rows[8192];
static size_t nrows;
static char fixtures[4096];
static char errbuf[2048];

static void collect(void *ctx, const char *source, const char *key, int cpu, double v)
{
	(void)ctx;
	if (nrows >= sizeof(rows) / sizeof(rows[0]))
		return;
	snprintf(rows[nrows].source, sizeof(rows[nrows].source), "%s", source);
	snprintf(rows[nrows].key, sizeof(rows[nrows].key), "%s", key);
	rows[nrows].cpu = cpu;
	rows[nrows].v = v;
	nrows++;
}

/* the value of (key, cpu), NaN when absent or there twice */
static double get(const char *key, int cpu)
{
	double v = NAN;
	size_t i, seen = 0;

	for (i = 0; i < nrows; i++)
		if (!strcmp(rows[i].key, key) && rows[i].cpu == cpu) {
			v = rows[i].v;
			seen++;
		}
	return seen == 1 ? v : NAN;
}

static char *fixture(const char *name)
{
	char path[4200], *buf;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/%s", fixtures, name);
	f = fopen(path, "rb");
	if (!f) {
		printf("# cannot open %s\n", path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n)
		exit(1);
	fclose(f);
	return buf;
}

static int parse_file(int (*fn)(const char *, vsb_monitor_emit_fn, void *),
		      const char *name)
{
	char *text = fixture(name);
	int n;

	nrows = 0;
	n = fn(text, collect, NULL);
	free(text);
	return n;
}

/* spec parsing, its messages recorded (errlog.c) into errbuf */
static int spec(const char *s, struct vsb_monitor_spec *out)
{
	struct vsb_errlog log;
	int ret;

	vsb_errlog_begin(&log);
	ret = vsb_monitor_parse_spec(s, out, "--monitor");
	vsb_errlog_end(&log);
	snprintf(errbuf, sizeof(errbuf), "%s", log.text);
	return ret;
}

static void test_spec(void)
{
	struct vsb_monitor_spec s;
	char buf[128];

	TAP_OK(!spec("vmstat", &s) && s.sources == VSB_MON_VMSTAT && s.interval_ms == 1000,
	       "one source, default interval 1 s");
	TAP_OK(!spec("vmstat,interrupts,stat,zoneinfo:100ms", &s) &&
	       s.sources == (VSB_MON_VMSTAT | VSB_MON_INTERRUPTS | VSB_MON_STAT |
			     VSB_MON_ZONEINFO) && s.interval_ms == 100,
	       "four sources at 100ms");
	TAP_OK(!spec("stat:1", &s) && s.interval_ms == 1000, "bare number is seconds");
	TAP_OK(!spec("stat:0.25s", &s) && s.interval_ms == 250, "0.25s is 250 ms");
	TAP_OK(!spec("all:2", &s) && s.interval_ms == 2000, "all");
	vsb_monitor_format_sources(s.sources, buf, sizeof(buf));
	TAP_OK(!strcmp(buf, "vmstat,interrupts,stat,zoneinfo,buddyinfo,loadavg,trace"),
	       "all is every source (%s)", buf);
	TAP_OK(spec("vmstat,bogus", &s) == VSB_EXIT_USAGE && strstr(errbuf, "'bogus'"),
	       "unknown source refused, named: %.60s", errbuf);
	TAP_OK(spec("vmstat,,stat", &s) == VSB_EXIT_USAGE, "empty name refused");
	TAP_OK(spec("", &s) == VSB_EXIT_USAGE, "empty list refused by the parser");
	TAP_OK(spec("vmstat:50ms", &s) == VSB_EXIT_USAGE && strstr(errbuf, "50ms"),
	       "interval under 100 ms refused: %.60s", errbuf);
	TAP_OK(spec("vmstat:0.05", &s) == VSB_EXIT_USAGE, "0.05 s refused");
	TAP_OK(spec("vmstat:fast", &s) == VSB_EXIT_USAGE && strstr(errbuf, "'fast'"),
	       "interval not a number refused: %.60s", errbuf);
	TAP_OK(spec("vmstat:1m", &s) == VSB_EXIT_USAGE, "unknown suffix refused");
	TAP_OK(spec("vmstat:", &s) == VSB_EXIT_USAGE, "empty interval refused");
	TAP_OK(spec("vmstat:-1", &s) == VSB_EXIT_USAGE, "negative interval refused");
	TAP_OK(spec("vmstat:1e9", &s) == VSB_EXIT_USAGE, "huge interval refused");
	TAP_OK(vsb_monitor_check("", "--monitor") == 0, "option check: empty is off");
	vsb_monitor_path("out/r.csv", buf, sizeof(buf));
	TAP_OK(!strcmp(buf, "out/r.monitor.csv"), "r.csv -> %s", buf);
	vsb_monitor_path("r.json", buf, sizeof(buf));
	TAP_OK(!strcmp(buf, "r.json.monitor.csv"), "r.json -> %s", buf);
}

static void test_vmstat(void)
{
	int n = parse_file(vsb_monitor_parse_vmstat, "vmstat");

	TAP_OK(n == 192, "vmstat: every line a value (%d)", n);
	TAP_NEAR(get("pgalloc_normal", -1), 42948987, 0, "vmstat: pgalloc_normal");
	TAP_NEAR(get("pgfree", -1), 44151803, 0, "vmstat: pgfree");
	nrows = 0;
	TAP_OK(vsb_monitor_parse_vmstat("pgfree 1\ngarbage\n", collect, NULL) < 0,
	       "vmstat: a line without a value refused");
	TAP_OK(vsb_monitor_parse_vmstat("", collect, NULL) < 0, "vmstat: empty refused");
}

static void test_interrupts(void)
{
	int n = parse_file(vsb_monitor_parse_interrupts, "interrupts");

	TAP_OK(n == 2 + 4 * 2, "interrupts: 2 totals + LOC/RES/CAL/TLB per CPU (%d)", n);
	/* awk: the lines with a count per CPU (ERR/MIS have one) */
	TAP_NEAR(get("total", 0), 1001803, 0, "interrupts: CPU0 total");
	TAP_NEAR(get("total", 1), 1387775, 0, "interrupts: CPU1 total");
	TAP_NEAR(get("LOC", 1), 1065263, 0, "interrupts: CPU1 local timer");
	TAP_NEAR(get("TLB", 0), 15134, 0, "interrupts: CPU0 TLB shootdowns");
	nrows = 0;
	n = vsb_monitor_parse_interrupts("           CPU0       CPU2\n"
					 "  1:         5          7   IO-APIC x\n"
					 "ERR:         3\n", collect, NULL);
	TAP_OK(n == 2 && get("total", 2) == 7 && get("total", 0) == 5,
	       "interrupts: CPU numbers from the header (offline CPU1), ERR left out");
	TAP_OK(vsb_monitor_parse_interrupts("garbage\n", collect, NULL) < 0,
	       "interrupts: no CPU header refused");
}

static void test_stat(void)
{
	int n = parse_file(vsb_monitor_parse_stat, "stat");

	TAP_OK(n == 3 * 8, "stat: 8 fields for cpu, cpu0, cpu1 (%d)", n);
	TAP_NEAR(get("user", 0), 44546, 0, "stat: cpu0 user");
	TAP_NEAR(get("system", 0), 10602, 0, "stat: cpu0 system");
	TAP_NEAR(get("steal", -1), 163, 0, "stat: all CPUs' steal");
	TAP_NEAR(get("softirq", 0), 24, 0, "stat: cpu0 softirq");
	nrows = 0;
	TAP_OK(vsb_monitor_parse_stat("cpu0 1 2\n", collect, NULL) < 0,
	       "stat: a cpu line with under 4 fields refused");
	TAP_OK(vsb_monitor_parse_stat("cpuX 1 2 3 4\n", collect, NULL) < 0,
	       "stat: a malformed cpu name refused");
}

static void test_zoneinfo(void)
{
	int n = parse_file(vsb_monitor_parse_zoneinfo, "zoneinfo");

	TAP_OK(n > 0, "zoneinfo: parsed (%d values)", n);
	TAP_NEAR(get("node0/Normal/free", -1), 398152, 0, "zoneinfo: Normal free pages");
	TAP_NEAR(get("node0/Normal/wmark_high", -1), 13008, 0,
		 "zoneinfo: Normal high watermark (not the pageset's high:)");
	TAP_NEAR(get("node0/Normal/pcp_count", 1), 13023, 0, "zoneinfo: Normal CPU1 pcp count");
	TAP_NEAR(get("node0/Normal/pcp_high", 1), 17486, 0, "zoneinfo: Normal CPU1 pcp high");
	TAP_NEAR(get("node0/Normal/pcp_batch", 1), 63, 0, "zoneinfo: Normal CPU1 pcp batch");
	TAP_NEAR(get("node0/Normal/stat_threshold", 1), 24, 0,
		 "zoneinfo: Normal CPU1 stat threshold");
	TAP_NEAR(get("node0/DMA/stat_threshold", 0), 4, 0, "zoneinfo: DMA CPU0 threshold");
	TAP_OK(isnan(get("node0/DMA/pcp_high_min", 0)), "zoneinfo: high_min not kept");
	TAP_NEAR(get("node0/Movable/free", -1), 0, 0, "zoneinfo: empty Movable zone");
	TAP_OK(vsb_monitor_parse_zoneinfo("nothing here\n", collect, NULL) < 0,
	       "zoneinfo: no zone refused");
}

static void test_buddy_load(void)
{
	int n = parse_file(vsb_monitor_parse_buddyinfo, "buddyinfo");

	TAP_OK(n == 33, "buddyinfo: 3 zones x 11 orders (%d)", n);
	TAP_NEAR(get("node0/Normal/order0", -1), 10776, 0, "buddyinfo: Normal order 0");
	TAP_NEAR(get("node0/DMA32/order10", -1), 751, 0, "buddyinfo: DMA32 order 10");
	TAP_OK(vsb_monitor_parse_buddyinfo("Node x\n", collect, NULL) < 0,
	       "buddyinfo: malformed refused");
	n = parse_file(vsb_monitor_parse_loadavg, "loadavg");
	TAP_OK(n == 5 && get("load1", -1) == 2.08 && get("running", -1) == 10 &&
	       get("tasks", -1) == 126, "loadavg: load1, running, tasks");
	TAP_OK(vsb_monitor_parse_loadavg("1 2\n", collect, NULL) < 0, "loadavg: short refused");
}

static void test_windows(void)
{
	struct vsb_window_mark wm[8];
	size_t n, dropped;

	vsb_window_begin();	/* not armed: not kept */
	vsb_window_arm();
	vsb_window_begin();
	vsb_window_end();
	vsb_window_begin();
	vsb_window_end();
	vsb_window_disarm();
	vsb_window_begin();	/* disarmed: not kept */
	n = vsb_window_read(wm, 8, &dropped);
	TAP_OK(n == 4 && !dropped && !wm[0].end && wm[1].end && !wm[2].end && wm[3].end,
	       "windows: the marks between arm and disarm, in order (%zu)", n);
	TAP_OK(n == 4 && wm[0].t_ns <= wm[1].t_ns && wm[2].t_ns <= wm[3].t_ns &&
	       wm[0].t_ns > 0, "windows: monotonic timestamps");
}

/*
 * FILE.monitor.csv's rows through the model's writer and reader: what is
 * written reads back the same, and a row the writer never makes (a key
 * too long for its field, a CPU written 03, text after the value) is no
 * row, where sscanf took a truncated or half-read one.
 */
static void test_rows(void)
{
	struct vsb_monitor_row r;
	char *buf = NULL, key[200];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f) {
		TAP_OK(0, "monitor rows: a memory stream");
		return;
	}
	vsb_monitor_row_write(f, 1.25, "vmstat", "nr_free_pages", -1, 123456789012345.0);
	fclose(f);
	TAP_OK(!vsb_monitor_row_read(buf, &r) && r.t == 1.25 &&
	       !strcmp(r.source, "vmstat") && !strcmp(r.key, "nr_free_pages") &&
	       r.cpu == -1 && r.value == 123456789012345.0,
	       "a monitor row reads back as written: %s", buf);
	free(buf);
	TAP_OK(!vsb_monitor_row_read("0.000000,workers,cpu,3,1", &r) && r.cpu == 3,
	       "a row without its newline reads too");
	memset(key, 'k', sizeof(key) - 1);
	key[sizeof(key) - 1] = '\0';
	f = open_memstream(&buf, &len);
	if (f) {
		vsb_monitor_row_write(f, 0, "vmstat", key, 0, 1);
		fclose(f);
		TAP_OK(vsb_monitor_row_read(buf, &r), "a key too long for its field is no row");
		free(buf);
	}
	TAP_OK(vsb_monitor_row_read("1.0,vmstat,pgfault,03,5\n", &r),
	       "a CPU written 03 is no row (the one integer syntax)");
	TAP_OK(vsb_monitor_row_read("1.0,vmstat,pgfault,0,5x\n", &r),
	       "text after the value is no row");
	TAP_OK(vsb_monitor_row_read("1.0\n", &r) && vsb_monitor_row_read("", &r),
	       "a row cut short is no row");
}

int main(void)
{
	const char *root = getenv("VSB_ROOT");

	snprintf(fixtures, sizeof(fixtures), "%s/tests/fixtures/monitor",
		 root && *root ? root : ".");
	test_spec();
	test_vmstat();
	test_interrupts();
	test_stat();
	test_zoneinfo();
	test_buddy_load();
	test_windows();
	test_rows();
	return tap_done();
}
